package game_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// TestShowTurn: a turn shown late starts its clock again when shown, the
// whole turn time ahead, at the same version; one shown within the grace,
// and a table with no turn, stay as they are.
func TestShowTurn(t *testing.T) {
	const late = time.Second
	turn := game.DefaultSettings().TurnTimeout
	tests := []struct {
		name  string
		setup func(f *fixture)
		after time.Duration // from the start of the turn's clock
		moved bool
	}{
		{name: "betting, shown in time", setup: (*fixture).game, after: late},
		{name: "betting, shown late", setup: (*fixture).game, after: late + time.Millisecond, moved: true},
		{name: "drawing, shown late", setup: func(f *fixture) {
			f.game()
			f.bet(f.turn(), 10)
		}, after: 30 * time.Second, moved: true},
		{name: "shown after the deadline", setup: (*fixture).game, after: turn + 5*time.Second, moved: true},
		{name: "lobby", setup: func(f *fixture) { f.lobby(alice, bob) }, after: time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.setup(f)
			before := f.tb
			started := before.TurnStarted()
			if before.Phase() == game.Lobby {
				assert.True(t, started.IsZero(), "no turn in the lobby")
				started = f.now
			} else {
				assert.WithinDuration(t, f.now, started, 0, "the clock started with the command")
			}
			now := started.Add(tt.after)
			shown, moved := game.ShowTurn(before, now, late)
			assert.Equal(t, tt.moved, moved)
			assert.Equal(t, before.Version(), shown.Version(), "nobody acted")
			if !tt.moved {
				assert.Equal(t, before, shown)
				return
			}
			assert.WithinDuration(t, now.Add(turn), shown.Deadline(), 0)
			assert.WithinDuration(t, now, shown.TurnStarted(), 0)
			again, moved := game.ShowTurn(shown, now.Add(10*time.Second), late)
			assert.True(t, moved, "ShowTurn knows not whether the turn was shown: its caller does")
			assert.WithinDuration(t, now.Add(10*time.Second).Add(turn), again.Deadline(), 0)

			// A timeout made for the version is too early until the new deadline.
			f.tb = shown
			f.now = before.Deadline()
			_, _, err := game.Apply(shown, game.Command{Kind: game.Timeout, Version: shown.Version()}, f.env())
			if before.Deadline().Before(shown.Deadline()) {
				require.True(t, errors.Is(err, game.ErrTooEarly), "got %v", err)
			}
			f.timeout()
		})
	}
}
