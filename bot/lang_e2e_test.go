package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestFirstTableGivesTheChatItsOpenersLanguage: while a chat has no
// language, the bot answers each user in their Telegram language; the
// first table gives the chat its opener's (Ukrainian for uk-UA), and from
// then on everyone is answered in it.
func TestFirstTableGivesTheChatItsOpenersLanguage(t *testing.T) {
	h := newHarness(t)
	oksana, err := h.srv.AddMember(h.group.ID, telegramtest.User{FirstName: "Оксана", LanguageCode: "uk-UA"}, 0)
	require.NoError(t, err)
	h.users["Oksana"] = oksana

	h.command("Alice", "balance")
	h.botSays("Alice, your balance: ")
	h.command("Oksana", "balance")
	h.botSays("Оксана, твій баланс: ")
	s, err := h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	require.Empty(t, s.Language, "no language before the first table")

	h.command("Oksana", "newgame")
	h.tableMessage(telegramtest.TextContains("Очко — стіл відкрито"))
	s, err = h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	assert.Equal(t, "uk", s.Language)

	a := h.pressData("Alice", func(d callback.Data) bool { return d.Action == callback.Join })
	assert.Equal(t, "Ти за столом.", a.Text, "the chat's language, not Alice's")
	h.command("Alice", "balance")
	h.botSays("Alice, твій баланс: ")
}
