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

// TestShowCutWait: a deck's cut wait is the turn of the table while it
// waits (phase Cutting): shown late, it starts again when shown, its whole
// length ahead (the length the table was given, which survives the
// encoding), at the same version; shown in time it stays. A timeout made
// for the old deadline is refused as too early; the cut is still taken
// until the new deadline, and the wait times out at it, not cut.
func TestShowCutWait(t *testing.T) {
	const late = 2 * time.Second
	wait := game.DefaultCutWait
	tests := []struct {
		name  string
		setup func(f *fixture)
		wait  time.Duration // the wait's length the table was given
		after time.Duration // from the start of the wait
		moved bool
		cutBy game.UserID // who cuts just before the new deadline; 0: nobody, not cut
	}{
		{name: "the circle's deck, shown in time", setup: (*fixture).game, wait: wait, after: late},
		{name: "the circle's deck, shown late", setup: (*fixture).game, wait: wait, after: late + time.Millisecond, moved: true, cutBy: carol},
		{name: "shown after the wait passed", setup: (*fixture).game, wait: wait, after: 40 * time.Second, moved: true},
		{name: "a wait cut to the turn time", setup: func(f *fixture) {
			f.settings.TurnTimeout = game.MinTurnTimeout
			f.game()
		}, wait: game.MinTurnTimeout, after: 8 * time.Second, moved: true},
		{name: "a reshuffle's deck, shown late", setup: func(f *fixture) {
			f.game()
			f.cut(bob, "tap:1")
			f.bet(bob, 5)
			game.ExhaustDeck(&f.tb, 0)
			f.now = f.now.Add(5 * time.Second)
			f.hit(bob)
		}, wait: wait, after: 6 * time.Second, moved: true, cutBy: dave},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newCutFixture(t, "Th 6s 7s", "9h 6h Ts 8s")
			tt.setup(f)
			require.Equal(t, game.Cutting, f.tb.Phase())
			started := f.tb.TurnStarted()
			assert.True(t, f.now.Equal(started), "the wait started with the command: %v", started)
			assert.True(t, started.Add(tt.wait).Equal(f.tb.Deadline()))
			before, err := game.Decode(f.encode(f.tb)) // as storage keeps it
			require.NoError(t, err)

			now := started.Add(tt.after)
			shown, moved := game.ShowTurn(before, now, late)
			assert.Equal(t, tt.moved, moved)
			assert.Equal(t, before.Version(), shown.Version(), "nobody acted")
			if !tt.moved {
				assert.Equal(t, before, shown)
				return
			}
			assert.True(t, now.Add(tt.wait).Equal(shown.Deadline()), "the whole wait from when it shows: %v", shown.Deadline().Sub(now))
			assert.True(t, now.Equal(shown.TurnStarted()))
			c, ok := shown.Cut()
			require.True(t, ok)
			assert.True(t, c.Waiting)
			assert.True(t, now.Add(tt.wait).Equal(c.Deadline), "the table shows the time left from the new deadline")

			// A timeout made for the old deadline is too early now.
			f.tb = shown
			f.now = before.Deadline()
			f.reject(game.Command{Kind: game.Timeout}, game.ErrTooEarly)
			if tt.cutBy != 0 {
				// A cut just before the new deadline counts.
				f.now = shown.Deadline().Add(-time.Millisecond)
				f.cut(tt.cutBy, "tap:3")
			} else {
				// Nobody cut: the wait times out at the new deadline.
				f.timeout()
			}
			c, _ = f.tb.Cut()
			assert.False(t, c.Waiting)
			assert.Equal(t, tt.cutBy, c.By)
		})
	}
}

// TestCutWaitLengthDecoded: the length of a cut wait survives the
// encoding; a stored one of no length, or longer than the turn time, is
// corrupt.
func TestCutWaitLengthDecoded(t *testing.T) {
	tests := []struct {
		name   string
		length time.Duration
		ok     bool
	}{
		{name: "the bot's wait", length: game.DefaultCutWait, ok: true},
		{name: "the whole turn time", length: game.DefaultSettings().TurnTimeout, ok: true},
		{name: "no length", length: 0},
		{name: "longer than the turn time", length: game.DefaultSettings().TurnTimeout + time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newCutFixture(t)
			f.game()
			tb := f.tb
			game.SetCutWaitLength(&tb, tt.length)
			got, err := game.Decode(f.encode(tb))
			if !tt.ok {
				require.ErrorIs(t, err, game.ErrCorrupt)
				return
			}
			require.NoError(t, err)
			shown, moved := game.ShowTurn(got, got.TurnStarted().Add(time.Hour), time.Second)
			require.True(t, moved)
			assert.Equal(t, tt.length, shown.Deadline().Sub(shown.TurnStarted()))
		})
	}
}
