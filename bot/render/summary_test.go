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

// A game without a duel has no log: its outcome is still a section of its
// own, after a blank line.
func TestNoDuelGameSetsTheOutcomeApart(t *testing.T) {
	p := noDuel(t, plainNames[i18n.EN])
	in := p.input(i18n.EN)
	require.True(t, in.Table.Finished())
	require.Empty(t, in.Table.Log())
	outcome := "\n\n🏁 Game over. Alice takes the bank: 10.\n"
	assert.Contains(t, Summary(in).Text, outcome, "the record")
	assert.Contains(t, Table(in).Text, outcome, "the lobby after the game")
}
