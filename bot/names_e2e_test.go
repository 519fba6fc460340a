package bot_test

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestHostileNamesAreShownClean: a name with a right-to-left override or
// zero-width characters could reverse the rest of a reply or pass for
// someone else; every reply that names a user shows the name without them
// (render.Name).
func TestHostileNamesAreShownClean(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) { o.owners = []string{"Dave"} })
	m, err := h.srv.AddMember(h.group.ID, telegramtest.User{FirstName: "\u202EMal\u200Blo\u2066ry\uFEFF", LanguageCode: "en"}, 0)
	require.NoError(t, err)
	h.users["Mallory"] = m
	shown := func(msg telegramtest.ChatMessage) {
		t.Helper()
		assert.False(t, strings.ContainsFunc(msg.Text, func(r rune) bool { return unicode.Is(unicode.Cf, r) }), "%q", msg.Text)
	}

	said := h.command("Mallory", "balance")
	shown(h.botSays("Mallory, your balance"))
	h.command("Mallory", "bonus")
	shown(h.botSays("Mallory, the bonus is for balances below"))
	h.command("Mallory", "stats")
	shown(h.botSays("Mallory"))
	h.command("Mallory", "history")
	shown(h.botSays("Mallory"))
	h.command("Alice", "top")
	shown(h.botSays("Top players", "Mallory"))
	h.reply("Alice", said.MessageID, "/kick")
	shown(h.botSays("Mallory is not at the table."))
	h.reply("Dave", said.MessageID, "/grant 5")
	shown(h.botSays("Mallory got 5"))

	h.lobby("Mallory", "Bob")
	h.startGame("Alice")
	a := h.pressData("Bob", action(betAction))
	assert.Equal(t, "It's Mallory's turn.", a.Text)
	shown(h.tableMessage(contains("Mallory")))
}
