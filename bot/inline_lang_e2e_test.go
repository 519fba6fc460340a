package bot_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestInlineAnswersInThePressersLanguage: every answer on an inline table
// is its presser's alone (a toast, an alert, the private chat the deck
// check opens), and speaks the presser's language, not the table's: a
// Russian presser at an English table, an English one at a Russian table;
// the refusals (a bad button, a chat's button, the house by one who does
// not sit, a start by one who does not sit, an outdated button, a deck
// check of no game) as much as the answers (a join, the leaderboard, the
// decks).
func TestInlineAnswersInThePressersLanguage(t *testing.T) {
	tests := []struct {
		name, opener, presser string
		lang, table           i18n.Lang
	}{
		{"a Russian presser at an English table", "Alice", "Ivan", i18n.RU, i18n.EN},
		{"an English presser at a Russian table", "Ivan", "Bob", i18n.EN, i18n.RU},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, inlineMode)
			h.users["Ivan"] = h.srv.AddUser(telegramtest.User{FirstName: "Ivan", LanguageCode: "ru"})
			h.decks("Th Ah")
			club := h.withoutBot("Book club", "Alice", "Bob", "Ivan")
			it := h.postInline(club, tt.opener)
			h.pressOnInline(it, tt.opener, is(callback.InlineOpen))
			v := h.inlineView(it)
			require.Equal(t, string(tt.table), v.Settings.Language, "the table speaks its opener's language")
			in := func(key i18n.Key, args ...any) string { return i18n.T(tt.lang, key, args...) }
			press := func(d callback.Data) telegramtest.CallbackAnswer { return h.pressInlineRaw(it, tt.presser, d.String()) }
			version := v.Table.Version()

			assert.Equal(t, in(i18n.PopBadButton), h.pressInlineRaw(it, tt.presser, "p:7:70:en").Text, "a bad button")
			assert.Equal(t, in(i18n.PopInlineOnly), press(callback.Data{Action: callback.SettingOpen, Field: "stake"}).Text, "a chat's button")
			assert.Equal(t, in(i18n.PopHousePlayersOnly), press(callback.Data{Action: callback.SeatHouse, Version: version}).Text,
				"the house, by one not seated")
			assert.Equal(t, in(i18n.PopNotSeated), press(callback.Data{Action: callback.Start, Version: version}).Text,
				"a start, by one not seated")
			assert.Equal(t, in(i18n.PopOutdated), press(callback.Data{Action: callback.Leave, Version: version + 3}).Text,
				"an outdated button")
			assert.True(t, strings.HasPrefix(press(callback.Data{Action: callback.Top, Version: version}).Text, in(i18n.TopAlert, "")),
				"the leaderboard")
			assert.Equal(t, in(i18n.PopJoined), h.pressOnInline(it, tt.presser, is(callback.Join)).Text, "a join")

			h.pressOnInline(it, tt.opener, is(callback.Start))
			h.pressOnInline(it, tt.presser, bets(10))
			h.pressOnInline(it, tt.presser, is(callback.Hit)) // 21: the presser takes the bank
			h.shows(it, func(m telegramtest.ChatMessage) bool {
				return slices.Contains(m.Labels(), i18n.T(tt.table, i18n.BtnVerify))
			})
			assert.Equal(t, in(i18n.PopBadButton), press(callback.Data{Action: callback.Verify, Game: 99}).Text, "a deck check of no game")
			check := h.pressOnInline(it, tt.presser, is(callback.Verify))
			require.NotEmpty(t, check.URL, "the deck check opens the bot's private chat")
			start, err := h.srv.OpenLink(h.user(tt.presser).ID, check.URL)
			require.NoError(t, err)
			h.privately(tt.presser, start.MessageID, in(i18n.VerifyTitle, "1"))
		})
	}
}
