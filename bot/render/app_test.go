package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// The Mini App's links of the tests, as the table keeper builds them: the
// direct link on a group's or inline table, the page with the reference
// at a solo table.
const (
	appDirect = "https://t.me/telegramtest_bot/table?startapp=AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	appPage   = "https://app.example/twentyone/?startapp=AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
)

// TestGoldenAppButton: with a Mini App configured, a live table shows the
// button that opens it at that table, on a line of its own at the bottom:
// a URL button to the direct link on a group's and an inline table, a
// web_app button to the page at a solo table. Without one (the other
// goldens) nothing changes.
func TestGoldenAppButton(t *testing.T) {
	tests := []struct {
		name string
		in   func(lang i18n.Lang) Input
		link string
	}{
		{"app_group", func(lang i18n.Lang) Input {
			in := drawing(t, plainNames[lang]).input(lang)
			in.App = appDirect
			return in
		}, appDirect},
		{"app_inline", func(lang i18n.Lang) Input {
			in := cutAsked(t, plainNames[lang]).cutInput(lang, true)
			in.App = appDirect
			return in
		}, appDirect},
		{"app_solo", func(lang i18n.Lang) Input {
			in := soloTable(t, plainNames[lang], gametest.Deck()).input(lang)
			in.App = appPage
			return in
		}, appPage},
	}
	for _, tt := range tests {
		for _, lang := range i18n.Langs() {
			t.Run(tt.name+"/"+string(lang), func(t *testing.T) {
				in := tt.in(lang)
				m := Table(in)
				golden(t, tt.name+"."+string(lang), dump(m))
				last := m.Keyboard[len(m.Keyboard)-1]
				require.Len(t, last, 1, "a row of its own")
				assert.Equal(t, i18n.T(lang, i18n.BtnOpenApp), last[0].Text)
				assert.Equal(t, tt.link, last[0].URL+last[0].WebApp)
				assert.Equal(t, in.Solo, last[0].WebApp != "", "web_app only at a solo table")

				in.App = ""
				without := Table(in)
				assert.Equal(t, m.Text, without.Text, "the text is the same")
				assert.Equal(t, m.Keyboard[:len(m.Keyboard)-1], without.Keyboard, "the app's row is all it adds")
			})
		}
	}
}

// TestNoAppButtonOnAClosedTable: a closed table (a group's, a solo one)
// has nothing to open the app at.
func TestNoAppButtonOnAClosedTable(t *testing.T) {
	for _, p := range []*play{closedTimeout(t, plainNames[i18n.EN]), soloClosed(t, plainNames[i18n.EN])} {
		require.Equal(t, game.Closed, p.Table.Phase())
		in := p.input(i18n.EN)
		in.App = appDirect
		if in.Solo {
			in.App = appPage
		}
		for _, row := range Table(in).Keyboard {
			for _, b := range row {
				assert.Equal(t, message.Button{Text: b.Text, Data: b.Data, Style: b.Style}, b, "no link on a closed table")
			}
		}
	}
}
