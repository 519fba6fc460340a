package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
)

func TestGoldenSummary(t *testing.T) {
	for _, lang := range i18n.Langs() {
		t.Run(string(lang), func(t *testing.T) {
			p := gameOver(t, plainNames[lang])
			in := p.input(lang)
			require.True(t, in.Table.Finished())
			m := Summary(in)
			golden(t, "summary."+string(lang), dump(m))
			// One button: the game's decks.
			require.Len(t, m.Keyboard, 1)
			require.Len(t, m.Keyboard[0], 1)
			d, err := callback.Parse(m.Keyboard[0][0].Data)
			require.NoError(t, err)
			assert.Equal(t, callback.Verify, d.Action)
			assert.Equal(t, in.Table.Game(), d.Game)
			assert.False(t, strings.Contains(m.Text, "Seated"), "a record, not a lobby")
		})
	}
}

// A game without a duel (everyone ran out of time to bet) has a log of
// circles sat out: its outcome is still a section of its own, after a
// blank line.
func TestNoDuelGameSetsTheOutcomeApart(t *testing.T) {
	p := noDuel(t, plainNames[i18n.EN])
	in := p.input(i18n.EN)
	require.True(t, in.Table.Finished())
	require.Len(t, in.Table.Log(), 2, "two circles sat out")
	outcome := "Carol: 8♥ → out of time: sat the circle out\n\n🏁 Game over. Alice takes the bank: 10.\n"
	assert.Contains(t, Summary(in).Text, outcome, "the record")
	assert.Contains(t, Table(in).Text, outcome, "the lobby after the game")
}

// TestGoldenRecord: the record of a game of four circles keeps every duel,
// knock, automatic stand and circle sat out, and the lines add up to the
// bank the banker took; with less room, the marker of the lines left out
// says what they did to the bank.
func TestGoldenRecord(t *testing.T) {
	for _, lang := range i18n.Langs() {
		t.Run(string(lang), func(t *testing.T) {
			p := record(t, plainNames[lang])
			in := p.input(lang)
			require.True(t, in.Table.Finished())
			require.Len(t, in.Table.Log(), 12, "eleven duels and a circle sat out")
			m := Summary(in)
			golden(t, "record."+string(lang), dump(m))
			golden(t, "record_lobby."+string(lang), dump(Table(in)))
			golden(t, "record_trimmed."+string(lang), fitWith(in, 800, buildSummary))
		})
	}
	p := record(t, plainNames[i18n.EN])
	text := Summary(p.input(i18n.EN)).Text
	for _, want := range []string{
		"Carol: 6♥ J♦ J♣ Q♦ = 13 (out of time, stood) · banker: 6♦ 6♣ 7♠ = 19 → the bank takes 80",
		"Dave: 7♥ → out of time: sat the circle out",
		"Dave: J♠ Q♣ K♠ = 9 (out of time, stood) · banker: A♥ A♠ = 21 → the bank takes 10",
		"🔔 Knock! The bank grew from 250 to 750",
		"Alice takes the bank: 740.",
	} {
		assert.Contains(t, text, want)
	}
}
