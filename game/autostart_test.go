package game_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// kinds returns the kinds of the outcome's events, in order.
func kinds(out game.Outcome) []game.EventKind {
	var ks []game.EventKind
	for _, e := range out.Events {
		ks = append(ks, e.Kind)
	}
	return ks
}

// TestAutoStart: with Settings.AutoStart, the Join that takes the lobby's
// last seat starts the game in the same command, as a Start by the player
// who sat down would; without it, or short of the last seat, the lobby
// waits for a Start.
func TestAutoStart(t *testing.T) {
	tests := []struct {
		name      string
		autoStart bool
		seats     []game.UserID
		started   bool
	}{
		{"on, the last seat", true, []game.UserID{alice, bob, carol, dave}, true},
		{"on, a seat left", true, []game.UserID{alice, bob, carol}, false},
		{"off, the last seat", false, []game.UserID{alice, bob, carol, dave}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "Th Ts 7s 9h 6h 9s 6c")
			f.settings.AutoStart = tt.autoStart
			f.open(tt.seats[0])
			for _, u := range tt.seats[1 : len(tt.seats)-1] {
				out := f.join(u)
				require.Equal(t, []game.EventKind{game.EventJoined}, kinds(out), "not the last seat")
			}
			last := tt.seats[len(tt.seats)-1]
			before := f.tb.Version()
			out := f.join(last)
			assert.Equal(t, before+1, f.tb.Version(), "one command")
			require.NotEmpty(t, out.Events)
			assert.Equal(t, game.EventJoined, out.Events[0].Kind)
			assert.Equal(t, last, out.Events[0].User)
			if !tt.started {
				assert.Equal(t, []game.EventKind{game.EventJoined}, kinds(out))
				assert.Equal(t, game.Lobby, f.tb.Phase())
				assert.Empty(t, out.Transfers)
				return
			}
			require.Greater(t, len(out.Events), 1)
			assert.Equal(t, game.EventStarted, out.Events[1].Kind, "the game starts at once")
			assert.Contains(t, kinds(out), game.EventTurn)
			assert.Equal(t, game.Betting, f.tb.Phase())
			assert.Equal(t, tt.seats, f.seated())
			banker, ok := f.tb.Banker()
			require.True(t, ok)
			require.Len(t, out.Transfers, 1)
			assert.Equal(t, game.Transfer{User: f.tb.Seat(banker).User, Kind: game.TransferStake, Amount: -10}, out.Transfers[0])
			assert.Equal(t, int64(10), f.tb.Bank())

			// The same game as a Join and then a Start by the one who sat
			// down.
			g := newFixture(t, "Th Ts 7s 9h 6h 9s 6c")
			g.lobby(tt.seats...)
			g.now = f.now
			started := g.start(last)
			assert.Equal(t, kinds(started), kinds(out)[1:])
			assert.Equal(t, started.Transfers, out.Transfers)
			assert.Equal(t, g.tb.Seats(), f.tb.Seats())
		})
	}
}

// TestAutoStartIsAStart: the start the last seat makes stands up, as a
// Start does, whoever can no longer meet the entry limit; when that
// leaves too few, the lobby waits, and the Join stands.
func TestAutoStartIsAStart(t *testing.T) {
	f := newFixture(t)
	f.settings.AutoStart = true
	f.lobby(alice, bob, carol)
	for _, u := range []game.UserID{alice, bob, carol} {
		f.setBalance(u, 5) // lost at another table of the chat
	}
	out := f.join(dave)
	assert.Equal(t, []game.EventKind{game.EventJoined, game.EventStoodUp, game.EventStoodUp, game.EventStoodUp}, kinds(out))
	assert.Equal(t, game.Lobby, f.tb.Phase())
	assert.Equal(t, []game.UserID{dave}, f.seated())
	assert.Empty(t, out.Transfers)
}

// TestAutoStartOnlyOnAJoin: the lobby after a game keeps its players and
// is full without anyone joining: it waits for Play again.
func TestAutoStartOnlyOnAJoin(t *testing.T) {
	f := newFixture(t, "Th Ts 7s 9h 6h 9s 6c", "6d 7d 8d")
	f.settings.AutoStart = true
	f.lobby(alice, bob, carol, dave)
	require.Equal(t, game.Betting, f.tb.Phase(), "the last seat started it")
	endByTimeouts(f)
	assert.Equal(t, game.Lobby, f.tb.Phase())
	assert.Len(t, f.seated(), game.MaxSeats)
	f.start(bob)
	assert.Equal(t, game.Betting, f.tb.Phase())
}
