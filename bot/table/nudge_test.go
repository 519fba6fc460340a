package table

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestNoNudgeForTheHouse: a group's turn arms its nudge, but not the
// house's, which moves by itself within seconds (a tg://user mention of
// the house would name nobody).
func TestNoNudgeForTheHouse(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		player game.UserID
		nudged bool
	}{
		{"a player", 2, true},
		{"the house", house.ID, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := clocktest.NewClock(start)
			var nudges []uint64
			k := &Keeper{clock: clock, nudges: newNudges()}
			k.timers = newScheduler(clock, func(storage.TableKey, uint64) {},
				func(_ storage.TableKey, v uint64) { nudges = append(nudges, v) }, func(storage.TableKey, uint64) {})
			// Alice banks; the other player is to bet.
			env := game.Env{Now: start, Rand: gametest.Deck("9s"), Settings: game.DefaultSettings(),
				Balances: game.BalanceMap{1: 1000, tc.player: 10_000}}
			var tb game.Table
			for _, cmd := range []game.Command{{Kind: game.Open, User: 1}, {Kind: game.Join, User: tc.player}, {Kind: game.Start, User: 1}} {
				next, _, err := game.Apply(tb, cmd, env)
				require.NoError(t, err, "%s", cmd.Kind)
				tb = next
			}
			i, ok := tb.Turn()
			require.True(t, ok)
			require.Equal(t, tc.player, tb.Seat(i).User)

			k.armNudge(storage.View{Key: storage.TableKey{Chat: -1}, Table: tb})
			clock.Advance(time.Minute)
			assert.Equal(t, tc.nudged, len(nudges) == 1, "nudges: %v", nudges)
		})
	}
}
