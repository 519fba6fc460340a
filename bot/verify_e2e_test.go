package bot_test

import (
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestVerifyTappedInARecord: a finished game's message names its deck
// check as /verify_N, one bot_command entity (a tap sends only the
// command's word, so the number is part of it), and /verify_N answers for
// game N, also once a later game was played.
func TestVerifyTappedInARecord(t *testing.T) {
	h := newHarness(t)
	first := h.bobWins()
	record := h.tableMessage(contains("Game over"))
	assert.Equal(t, []string{"/verify_1"}, commandsIn(record), "the record's commands: %q", record.Text)

	// Game 2, from the same lobby: game 1's message becomes its record.
	second := h.wins("Alice") // Bob banks the second game
	h.messageSays(record.MessageID, "Twenty One — game 1", "/verify_1")
	assert.NotEqual(t, first, second)

	shows := func(game, shown string) {
		t.Helper()
		got := h.botSays(game)
		_, ok := hashShown(got.Text, shown)
		assert.True(t, ok, "%s's deck %s: %q", game, shown, got.Text)
		other := first
		if shown == first {
			other = second
		}
		_, ok = hashShown(got.Text, other)
		assert.False(t, ok, "not the other game's deck %s: %q", other, got.Text)
	}
	h.command("Carol", "verify_1")
	shows("Game 1", first)
	h.command("Carol", "verify_2")
	shows("Game 2", second)
	// Addressed to the bot, as a tap in a group with several bots sends it.
	m, err := h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user("Dave").ID, Text: h.srv.CommandFor("verify_1")})
	require.NoError(t, err)
	h.said = m.MessageID
	shows("Game 1", first)
}

// commandsIn returns the text of a message's bot_command entities.
func commandsIn(m telegramtest.ChatMessage) []string {
	units := utf16.Encode([]rune(m.Text))
	var cmds []string
	for _, e := range m.Entities {
		if e.Type == telegramtest.EntityBotCommand && e.Offset+e.Length <= len(units) {
			cmds = append(cmds, string(utf16.Decode(units[e.Offset:e.Offset+e.Length])))
		}
	}
	return cmds
}
