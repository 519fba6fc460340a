package bot_test

import (
	"fmt"
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

	// Game N's deck, its commitment the one its table showed, and its
	// record alone (the other game's commitment may be in it too: a
	// deck's seed is the next deck's commitment).
	shows := func(game int, shown string) {
		t.Helper()
		got := h.botSays(fmt.Sprintf("Game %d", game))
		_, ok := hashShown(got.Text, shown)
		assert.True(t, ok, "game %d's deck %s: %q", game, shown, got.Text)
		records := cutRecords(got.Text)
		require.Len(t, records, 1, "one deck: %q", got.Text)
		assert.Contains(t, records[0], fmt.Sprintf(" game=%d ", game), "not the other game's deck")
	}
	h.command("Carol", "verify_1")
	shows(1, first)
	h.command("Carol", "verify_2")
	shows(2, second)
	// Addressed to the bot, as a tap in a group with several bots sends it.
	m, err := h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user("Dave").ID, Text: h.srv.CommandFor("verify_1")})
	require.NoError(t, err)
	h.said = m.MessageID
	shows(1, first)
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
