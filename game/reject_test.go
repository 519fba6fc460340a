package game_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// Setups for the rejection tests.
func closedTable(*fixture) {}

func lobby(f *fixture) { f.lobby(alice, bob) }

func fullLobby(f *fixture) { f.lobby(alice, bob, carol, dave) }

// betting: Alice banks, Bob is to bet against a bank of 10.
func betting(f *fixture) { f.game() }

// drawing: Bob bet 10 and holds Th 9h.
func drawing(f *fixture) {
	f.game()
	f.bet(bob, 10)
	f.hit(bob)
}

// leftMidGame: Carol left while Bob bets.
func leftMidGame(f *fixture) {
	f.game()
	f.leave(carol)
}

func TestRejections(t *testing.T) {
	cmd := func(k game.CommandKind, u game.UserID) game.Command { return game.Command{Kind: k, User: u} }
	bet := func(u game.UserID, n int64) game.Command { return game.Command{Kind: game.Bet, User: u, Amount: n} }
	kick := func(u game.UserID) game.Command { return game.Command{Kind: game.Kick, User: alice, Target: u} }
	withVersion := func(c game.Command, delta int64) func(*fixture) game.Command {
		return func(f *fixture) game.Command {
			c.Version = uint64(int64(f.tb.Version()) + delta)
			return c
		}
	}
	tests := []struct {
		name  string
		setup func(*fixture)
		cmd   game.Command
		// cmdOf builds the command from the state when set.
		cmdOf func(*fixture) game.Command
		// change alters the chat's settings before the command.
		change func(*fixture)
		want   error
		kind   game.ErrorKind
	}{
		// Not your turn.
		{name: "bet by a waiting player", setup: betting, cmd: bet(carol, 10), want: game.ErrNotYourTurn},
		{name: "bet by the banker", setup: betting, cmd: bet(alice, 10), want: game.ErrNotYourTurn},
		{name: "bet by a stranger", setup: betting, cmd: bet(erin, 10), want: game.ErrNotYourTurn},
		{name: "hit by another player", setup: drawing, cmd: cmd(game.Hit, dave), want: game.ErrNotYourTurn},
		{name: "stand by the banker", setup: drawing, cmd: cmd(game.Stand, alice), want: game.ErrNotYourTurn},
		{name: "bet by a player who left", setup: leftMidGame, cmd: bet(carol, 10), want: game.ErrNotYourTurn},

		// Wrong phase.
		{name: "bet in the lobby", setup: lobby, cmd: bet(alice, 10), want: game.ErrWrongPhase},
		{name: "hit in the lobby", setup: lobby, cmd: cmd(game.Hit, alice), want: game.ErrWrongPhase},
		{name: "stand in the lobby", setup: lobby, cmd: cmd(game.Stand, alice), want: game.ErrWrongPhase},
		{name: "hit before betting", setup: betting, cmd: cmd(game.Hit, bob), want: game.ErrWrongPhase},
		{name: "stand before betting", setup: betting, cmd: cmd(game.Stand, bob), want: game.ErrWrongPhase},
		{name: "bet twice", setup: drawing, cmd: bet(bob, 10), want: game.ErrWrongPhase},

		// No table.
		{name: "join a closed table", setup: closedTable, cmd: cmd(game.Join, alice), want: game.ErrNoTable},
		{name: "leave a closed table", setup: closedTable, cmd: cmd(game.Leave, alice), want: game.ErrNoTable},
		{name: "start a closed table", setup: closedTable, cmd: cmd(game.Start, alice), want: game.ErrNoTable},
		{name: "bet at a closed table", setup: closedTable, cmd: bet(alice, 10), want: game.ErrNoTable},
		{name: "hit at a closed table", setup: closedTable, cmd: cmd(game.Hit, alice), want: game.ErrNoTable},
		{name: "stand at a closed table", setup: closedTable, cmd: cmd(game.Stand, alice), want: game.ErrNoTable},
		{name: "time out a closed table", setup: closedTable, cmd: cmd(game.Timeout, 0), want: game.ErrNoTable},
		{name: "cancel a closed table", setup: closedTable, cmd: cmd(game.Cancel, alice), want: game.ErrNoTable},
		{name: "kick at a closed table", setup: closedTable, cmd: kick(bob), want: game.ErrNoTable},

		// Table already open.
		{name: "open a lobby", setup: lobby, cmd: cmd(game.Open, carol), want: game.ErrTableOpen},
		{name: "open during a game", setup: betting, cmd: cmd(game.Open, erin), want: game.ErrTableOpen},

		// Game in progress.
		{name: "join during a game", setup: betting, cmd: cmd(game.Join, erin), want: game.ErrGameInProgress},
		{name: "start during a game", setup: drawing, cmd: cmd(game.Start, alice), want: game.ErrGameInProgress},

		// Bet not offered.
		{name: "bet not offered", setup: betting, cmd: bet(bob, 7), want: game.ErrBetNotOffered},
		{name: "bet above the bank", setup: betting, cmd: bet(bob, 20), want: game.ErrBetNotOffered},
		{name: "bet of zero", setup: betting, cmd: bet(bob, 0), want: game.ErrBetNotOffered},
		{name: "negative bet", setup: betting, cmd: bet(bob, -10), want: game.ErrBetNotOffered},
		{name: "huge bet", setup: betting, cmd: bet(bob, math.MaxInt64), want: game.ErrBetNotOffered},
		{name: "most negative bet", setup: betting, cmd: bet(bob, math.MinInt64), want: game.ErrBetNotOffered},

		// Below the entry limit.
		{name: "join when poor", setup: lobby, cmd: cmd(game.Join, carol),
			change: func(f *fixture) { f.setBalance(carol, 99) }, want: game.ErrBelowEntryLimit},

		// Table full.
		{name: "fifth player", setup: fullLobby, cmd: cmd(game.Join, erin), want: game.ErrTableFull},

		// Not seated.
		{name: "leave the lobby unseated", setup: lobby, cmd: cmd(game.Leave, carol), want: game.ErrNotSeated},
		{name: "leave a game unseated", setup: betting, cmd: cmd(game.Leave, erin), want: game.ErrNotSeated},
		{name: "leave twice", setup: leftMidGame, cmd: cmd(game.Leave, carol), want: game.ErrNotSeated},
		{name: "start unseated", setup: lobby, cmd: cmd(game.Start, carol), want: game.ErrNotSeated},
		{name: "kick a stranger", setup: lobby, cmd: kick(carol), want: game.ErrNotSeated},
		{name: "kick nobody", setup: betting, cmd: kick(0), want: game.ErrNotSeated},
		{name: "kick who left", setup: leftMidGame, cmd: kick(carol), want: game.ErrNotSeated},

		// Already seated.
		{name: "join twice", setup: lobby, cmd: cmd(game.Join, bob), want: game.ErrAlreadySeated},
		{name: "the opener joins", setup: lobby, cmd: cmd(game.Join, alice), want: game.ErrAlreadySeated},

		// Not enough players.
		{name: "start alone", setup: func(f *fixture) { f.open(alice) }, cmd: cmd(game.Start, alice), want: game.ErrNotEnoughPlayers},

		// Too early.
		{name: "lobby timeout too early", setup: lobby, cmd: cmd(game.Timeout, 0), want: game.ErrTooEarly},
		{name: "betting timeout too early", setup: betting, cmd: cmd(game.Timeout, 0), want: game.ErrTooEarly},
		{name: "drawing timeout a millisecond early", setup: drawing, cmd: cmd(game.Timeout, 0),
			change: func(f *fixture) { f.now = f.tb.Deadline().Add(-time.Millisecond) }, want: game.ErrTooEarly},

		// Outdated version.
		{name: "an old button", setup: betting, cmdOf: withVersion(bet(bob, 10), -1), want: game.ErrOutdated, kind: game.KindOutdated},
		{name: "a future version", setup: betting, cmdOf: withVersion(bet(bob, 10), +1), want: game.ErrOutdated, kind: game.KindOutdated},
		{name: "a stale timeout", setup: drawing, cmdOf: withVersion(cmd(game.Timeout, 0), -1),
			change: func(f *fixture) { f.now = f.tb.Deadline() }, want: game.ErrOutdated, kind: game.KindOutdated},
		{name: "an old open", setup: closedTable, cmd: game.Command{Kind: game.Open, User: alice, Version: 3}, want: game.ErrOutdated, kind: game.KindOutdated},

		// Invalid settings.
		{name: "open with invalid settings", setup: closedTable, cmd: cmd(game.Open, alice),
			change: func(f *fixture) { f.settings.Stake = 0 }, want: game.ErrInvalidSettings, kind: game.KindInvalid},
		{name: "join with invalid settings", setup: lobby, cmd: cmd(game.Join, carol),
			change: func(f *fixture) { f.settings.EntryLimit = 1 }, want: game.ErrInvalidSettings, kind: game.KindInvalid},
		{name: "start with invalid settings", setup: lobby, cmd: cmd(game.Start, alice),
			change: func(f *fixture) { f.settings.BetOptions = nil }, want: game.ErrInvalidSettings, kind: game.KindInvalid},
		{name: "start with zero settings", setup: lobby, cmd: cmd(game.Start, alice),
			change: func(f *fixture) { f.settings = game.Settings{} }, want: game.ErrInvalidSettings, kind: game.KindInvalid},

		// Unknown command and malformed input.
		{name: "command kind 0", setup: lobby, cmd: cmd(0, alice), want: game.ErrInvalidInput, kind: game.KindInvalid},
		{name: "command kind 99", setup: betting, cmd: cmd(99, bob), want: game.ErrInvalidInput, kind: game.KindInvalid},
		{name: "unknown command at a closed table", setup: closedTable, cmd: cmd(11, bob), want: game.ErrInvalidInput, kind: game.KindInvalid},
		{name: "open by nobody", setup: closedTable, cmd: cmd(game.Open, 0), want: game.ErrInvalidInput, kind: game.KindInvalid},
		{name: "join by nobody", setup: lobby, cmd: cmd(game.Join, 0), want: game.ErrInvalidInput, kind: game.KindInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "Th 6s 7s 9h")
			tt.setup(f)
			if tt.change != nil {
				tt.change(f)
			}
			c := tt.cmd
			if tt.cmdOf != nil {
				c = tt.cmdOf(f)
			}
			before := f.encode(f.tb)
			balances := map[game.UserID]int64{}
			for u, b := range f.bal {
				balances[u] = b
			}
			next, out, err := game.Apply(f.tb, c, f.env())
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.want)
			want := tt.kind
			if want == game.KindInternal {
				want = map[error]game.ErrorKind{game.ErrNotYourTurn: game.KindNotYourTurn, game.ErrBetNotOffered: game.KindInvalid}[tt.want]
				if want == game.KindInternal {
					want = game.KindNotAllowed
				}
			}
			assert.Equal(t, want, game.Kind(err))
			assert.Equal(t, before, f.encode(next), "the very table it was given")
			assert.Equal(t, game.Outcome{}, out, "an empty outcome")
			assert.Equal(t, balances, map[game.UserID]int64(f.bal))
		})
	}
}

func TestErrorKinds(t *testing.T) {
	tests := []struct {
		err  error
		kind game.ErrorKind
	}{
		{game.ErrInvalidInput, game.KindInvalid},
		{game.ErrInvalidSettings, game.KindInvalid},
		{game.ErrBetNotOffered, game.KindInvalid},
		{game.ErrOutdated, game.KindOutdated},
		{game.ErrNotYourTurn, game.KindNotYourTurn},
		{game.ErrWrongPhase, game.KindNotAllowed},
		{game.ErrNoTable, game.KindNotAllowed},
		{game.ErrTableOpen, game.KindNotAllowed},
		{game.ErrGameInProgress, game.KindNotAllowed},
		{game.ErrNotSeated, game.KindNotAllowed},
		{game.ErrAlreadySeated, game.KindNotAllowed},
		{game.ErrTableFull, game.KindNotAllowed},
		{game.ErrBelowEntryLimit, game.KindNotAllowed},
		{game.ErrNotEnoughPlayers, game.KindNotAllowed},
		{game.ErrInsufficientBalance, game.KindNotAllowed},
		{game.ErrTooEarly, game.KindNotAllowed},
		{game.ErrCommitmentMismatch, game.KindInternal},
		{game.ErrCorrupt, game.KindInternal},
		{game.ErrUnknownVersion, game.KindInternal},
		{game.ErrInternal, game.KindInternal},
		{nil, game.KindInternal},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.kind, game.Kind(tt.err), "%v", tt.err)
	}
}

func TestNames(t *testing.T) {
	assert.Equal(t, "open", game.Open.String())
	assert.Equal(t, "kick", game.Kick.String())
	assert.Equal(t, "unknown", game.CommandKind(0).String())
	assert.Equal(t, "cut", game.Cut.String())
	assert.Equal(t, "unknown", game.CommandKind(12).String())
	assert.Equal(t, "stake", game.TransferStake.String())
	assert.Equal(t, "bank", game.TransferBank.String())
	assert.Equal(t, "unknown", game.TransferKind(0).String())
	assert.Equal(t, "unknown", game.TransferKind(6).String())
	assert.Equal(t, "opened", game.EventOpened.String())
	assert.Equal(t, "closed", game.EventClosed.String())
	assert.Equal(t, "unknown", game.EventKind(0).String())
	assert.Equal(t, "cut", game.EventCut.String())
	assert.Equal(t, "unknown", game.EventKind(22).String())
	assert.Equal(t, "closed", game.Closed.String())
	assert.Equal(t, "drawing", game.Drawing.String())
	assert.Equal(t, "cutting", game.Cutting.String())
	assert.Equal(t, "unknown", game.Phase(5).String())
	for k := game.EventOpened; k <= game.EventCut; k++ {
		assert.NotEqual(t, "unknown", k.String())
	}
	assert.Equal(t, int64(-5), game.Outcome{Transfers: []game.Transfer{{Amount: -10}, {Amount: 5}}}.Delta())
}

func TestNamesAreSanitised(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Alice", "Alice"},
		{"", ""},
		{"Ann\xffe", "Ann\uFFFDe"},
		{"\xff\xfe\xfd", "\uFFFD"},
		{strings.Repeat("\xff", 100), "\uFFFD"},
		{strings.Repeat("\xffa", 100), strings.Repeat("\uFFFDa", 32)},
		{string(make([]byte, 300)), string(make([]byte, game.MaxNameLen))},
	}
	long := ""
	for len(long) < 200 {
		long += "Жё"
	}
	tests = append(tests, struct{ in, want string }{long, long[:game.MaxNameLen]})
	tests = append(tests, struct{ in, want string }{"a" + long, "a" + long[:game.MaxNameLen-2]})
	// A name of invalid bytes only grows when made valid: it is still cut.
	bad := ""
	for i := 0; i < 100; i++ {
		bad += "a\xff"
	}
	tests = append(tests, struct{ in, want string }{bad, ""})
	for _, tt := range tests {
		tb, _, err := game.Apply(game.Table{}, game.Command{Kind: game.Open, User: alice, Name: tt.in},
			game.Env{Now: t0, Settings: game.DefaultSettings(), Balances: thousandEach()})
		require.NoError(t, err)
		got := tb.Seat(0).Name
		assert.LessOrEqual(t, len(got), game.MaxNameLen)
		if tt.want != "" || tt.in == "" {
			assert.Equal(t, tt.want, got)
		}
		enc, _ := tb.MarshalBinary()
		_, err = game.Decode(enc)
		assert.NoError(t, err, "the name encodes: %q", tt.in)
	}
}
