package inline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/inline"
	"github.com/twentyone-bot/twentyone/game"
)

// TestPresets: the tables inline mode offers are the default settings at
// one, five and ten times their stake and minimum balance, those that are
// valid settings, the rest of the settings the defaults'.
func TestPresets(t *testing.T) {
	d := game.DefaultSettings()
	got := inline.Presets(d)
	var stakes, entries []int64
	for _, s := range got {
		stakes, entries = append(stakes, s.Stake), append(entries, s.EntryLimit)
		assert.Equal(t, d.TurnTimeout, s.TurnTimeout)
		assert.Equal(t, d.BetOptions, s.BetOptions)
		assert.NoError(t, s.Validate())
	}
	assert.Equal(t, []int64{10, 50, 100}, stakes)
	assert.Equal(t, []int64{100, 500, 1000}, entries)

	big := game.DefaultSettings()
	big.Stake, big.EntryLimit = game.MaxStake/2, game.MaxStake/2
	assert.Len(t, inline.Presets(big), 1, "the larger ones are no valid settings")
}
