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
	assert.Equal(t, "You're in.", a.Text, "a toast: Alice's language (TestToastsInThePressersLanguage)")
	h.command("Alice", "balance")
	h.botSays("Alice, твій баланс: ")
}

// TestToastsInThePressersLanguage: a toast or an alert is seen only by the
// one who pressed: it speaks their Telegram language when the bot speaks
// it, the chat's otherwise, while the table message keeps the chat's.
func TestToastsInThePressersLanguage(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "lang", "ru")
	h.botSays("русский")
	for name, code := range map[string]string{"Taras": "uk", "Hans": "de"} {
		u, err := h.srv.AddMember(h.group.ID, telegramtest.User{FirstName: name, LanguageCode: code}, 0)
		require.NoError(t, err)
		h.users[name] = u
	}
	h.command("Alice", "newgame")
	h.tableMessage(telegramtest.TextContains("Очко — стол открыт"))
	tests := []struct{ name, toast string }{
		{"Bob", "You're in."},      // en: English, in a Russian chat
		{"Taras", "Ти за столом."}, // uk
		{"Hans", "Ты за столом."},  // de: the bot does not speak it, the chat's
	}
	for _, tt := range tests {
		a := h.pressData(tt.name, func(d callback.Data) bool { return d.Action == callback.Join })
		assert.Equal(t, tt.toast, a.Text, tt.name)
	}
	m := h.tableMessage(telegramtest.TextContains("Hans"))
	assert.Contains(t, m.Text, "Очко", "the table keeps the chat's language")
	stale := callback.Data{Action: callback.Join, Version: 1}.String() // the table is full now, and moved on
	assert.Equal(t, "This table has moved on.", h.pressRaw("Bob", m.MessageID, stale).Text, "a refusal too")
}
