package house_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/game/house"
)

const alice game.UserID = 1

var t0 = time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)

// table plays a game of Alice (the banker) and the house with the default
// settings from the deck given, applying cmds after the start, and
// returns the table.
type table struct {
	t   *testing.T
	tb  game.Table
	bal game.BalanceMap
	env game.Env
}

func newTable(t *testing.T, deck string, settings game.Settings) *table {
	tb := &table{t: t, bal: game.BalanceMap{alice: 1000, house.ID: 10000}}
	tb.env = game.Env{Now: t0, Rand: gametest.Deck(deck), Settings: settings, Balances: tb.bal}
	tb.apply(game.Command{Kind: game.Open, User: alice, Name: "Alice"})
	tb.apply(game.Command{Kind: game.Join, User: house.ID, Name: "House"})
	tb.apply(game.Command{Kind: game.Start, User: alice})
	return tb
}

func (tb *table) apply(cmd game.Command) {
	tb.t.Helper()
	next, out, err := game.Apply(tb.tb, cmd, tb.env)
	require.NoError(tb.t, err, "%s", cmd.Kind)
	for _, tr := range out.Transfers {
		tb.bal[tr.User] += tr.Amount
	}
	tb.tb = next
}

// move applies the house's move and returns it.
func (tb *table) move() game.Command {
	tb.t.Helper()
	cmd, ok := house.Move(&tb.tb, house.ID, tb.bal[house.ID])
	require.True(tb.t, ok, "the house has a move in %s", tb.tb.Phase())
	tb.apply(cmd)
	return cmd
}

func TestBet(t *testing.T) {
	offers := func(amounts ...int64) []game.Offer {
		var out []game.Offer
		for _, a := range amounts {
			out = append(out, game.Offer{Amount: a})
		}
		return out
	}
	tests := []struct {
		name   string
		offers []game.Offer
		bank   int64
		want   int64
	}{
		{"half the bank is offered", offers(5, 10), 10, 5},
		{"the largest under half", offers(10, 20, 50, 100, 200), 200, 100},
		{"exactly half", offers(10, 20, 50, 150, 300), 300, 150},
		{"the largest under half, none exactly half", offers(10, 20, 50, 200, 300), 300, 50},
		{"every offer over half: the smallest", offers(10, 15), 15, 10},
		{"a bank of one", offers(1), 1, 1},
		{"a poor house: the offers are capped", offers(3), 100, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, house.Bet(tt.offers, tt.bank))
		})
	}
}

func TestThreshold(t *testing.T) {
	tests := []struct {
		bank, bet int64
		want      int
	}{
		{bank: 10, bet: 5, want: house.StandAt},
		{bank: 100, bet: 25, want: house.BoldStandAt},
		{bank: 100, bet: 26, want: house.StandAt},
		{bank: 400, bet: 10, want: house.BoldStandAt},
		{bank: 3, bet: 1, want: house.StandAt},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, house.Threshold(tt.bank, tt.bet), "bank %d, bet %d", tt.bank, tt.bet)
	}
}

func TestMovePlaysADuel(t *testing.T) {
	// Alice banks (seat 0); the house is dealt 7♠, draws 6♥ (13 < 15),
	// then 2 (J♣, 15) and stands; the banker draws 10♦ 8♦ = 18.
	tb := newTable(t, "7s 6h Jc Td 8d", game.DefaultSettings())
	require.Equal(t, game.Betting, tb.tb.Phase())
	assert.Equal(t, game.Command{Kind: game.Bet, User: house.ID, Amount: 5, Version: tb.tb.Version()}, tb.move(),
		"a bank of 10: the house bets half")
	assert.Equal(t, game.Hit, tb.move().Kind, "7: draws")
	assert.Equal(t, game.Hit, tb.move().Kind, "13: draws")
	assert.Equal(t, 15, tb.tb.Seat(1).Hand.Score())
	assert.Equal(t, game.Stand, tb.move().Kind, "15: stands")
	assert.Equal(t, game.Lobby, tb.tb.Phase(), "the banker's 18 beat 15; the game is over")
	_, ok := house.Move(&tb.tb, house.ID, tb.bal[house.ID])
	assert.False(t, ok, "no move in the lobby")
}

func TestMoveOnlyOnItsTurn(t *testing.T) {
	s := game.DefaultSettings()
	tb := newTable(t, "7s 6h Jc Td 8d", s)
	_, ok := house.Move(&tb.tb, alice, tb.bal[alice])
	assert.False(t, ok, "the banker has no move")
	cmd, ok := house.Move(&tb.tb, house.ID, 0)
	assert.False(t, ok, "a balance that covers no bet has no move: the rules sit it out")
	assert.Zero(t, cmd)
}

func TestMoveStandsBolderWithASmallBet(t *testing.T) {
	// Bets of the stake or the bank. Bob and Carol bet the bank and bust,
	// so that the bank is 40 when the house bets: the stake, 10, the
	// largest offer within half of it, and a quarter of it. The house then
	// draws at 15 (7♠ 8♥) and makes 21 with 6♦.
	s := game.DefaultSettings()
	opts, err := game.ParseBetOptions("x1, bank")
	require.NoError(t, err)
	s.BetOptions = opts
	const bob, carol game.UserID = 2, 3
	tb := &table{t: t, bal: game.BalanceMap{alice: 1000, bob: 1000, carol: 1000, house.ID: 10000}}
	tb.env = game.Env{Now: t0, Rand: gametest.Deck("Th Tc 7s Td Ts 9h 9d 8h 6d"), Settings: s, Balances: tb.bal}
	tb.apply(game.Command{Kind: game.Open, User: alice, Name: "Alice"})
	tb.apply(game.Command{Kind: game.Join, User: bob, Name: "Bob"})
	tb.apply(game.Command{Kind: game.Join, User: carol, Name: "Carol"})
	tb.apply(game.Command{Kind: game.Join, User: house.ID, Name: "House"})
	tb.apply(game.Command{Kind: game.Start, User: alice})
	for _, u := range []game.UserID{bob, carol} {
		tb.apply(game.Command{Kind: game.Bet, User: u, Amount: tb.tb.Bank()})
		tb.apply(game.Command{Kind: game.Hit, User: u})
		tb.apply(game.Command{Kind: game.Hit, User: u})
	}
	require.Equal(t, int64(40), tb.tb.Bank())
	assert.Equal(t, int64(10), tb.move().Amount)
	assert.Equal(t, game.Hit, tb.move().Kind, "7: draws")
	require.Equal(t, 15, tb.tb.Seat(3).Hand.Score())
	assert.Equal(t, game.Hit, tb.move().Kind, "15 with a small bet: draws")
	log := tb.tb.Log()
	require.NotEmpty(t, log)
	assert.Equal(t, game.TwentyOne, log[len(log)-1].Result, "21: the house won")
	assert.Equal(t, int64(10010), tb.bal[house.ID])
}

func TestDelay(t *testing.T) {
	tb := newTable(t, "7s 6h Jc Td 8d", game.DefaultSettings())
	seen := map[time.Duration]bool{}
	for range 4 {
		d := house.Delay(&tb.tb)
		assert.GreaterOrEqual(t, d, house.MinDelay)
		assert.Less(t, d, house.MinDelay+house.DelaySpread)
		assert.Equal(t, d, house.Delay(&tb.tb), "the same table waits the same")
		seen[d] = true
		if tb.tb.Phase().InGame() {
			tb.move()
		}
	}
	assert.Greater(t, len(seen), 1, "the delay varies from move to move")
}

func TestMoveAt(t *testing.T) {
	tb := newTable(t, "7s 6h Jc Td 8d", game.DefaultSettings())
	start := tb.env.Now
	assert.True(t, start.Add(house.Delay(&tb.tb)).Equal(house.MoveAt(&tb.tb)), "its turn began at the start")
	tb.env.Now = start.Add(7 * time.Second)
	tb.move() // the bet restarts the turn
	assert.True(t, tb.env.Now.Add(house.Delay(&tb.tb)).Equal(house.MoveAt(&tb.tb)))

	// Alice's turn: the house banks.
	s := game.DefaultSettings()
	other := &table{t: t, bal: game.BalanceMap{alice: 1000, house.ID: 10000}}
	other.env = game.Env{Now: t0, Rand: &gametest.Stacked{Banker: 1}, Settings: s, Balances: other.bal}
	other.apply(game.Command{Kind: game.Open, User: alice, Name: "Alice"})
	other.apply(game.Command{Kind: game.Join, User: house.ID, Name: "House"})
	assert.True(t, house.MoveAt(&other.tb).IsZero(), "no turn in the lobby")
	other.apply(game.Command{Kind: game.Start, User: alice})
	b, _ := other.tb.Banker()
	require.Equal(t, house.ID, other.tb.Seat(b).User)
	assert.True(t, house.MoveAt(&other.tb).IsZero(), "the banker never moves")
}

// TestHouseNeverCuts: while a deck waits for its cut the house has no
// move and no time to move; the rules refuse its cut; in solo play the
// player cuts, banker or not.
func TestHouseNeverCuts(t *testing.T) {
	for _, banker := range []int{0, 1} { // Alice banks, then the house
		deck := &gametest.Stacked{Decks: [][]game.Card{gametest.Cards("7s 6h"), gametest.Cards("Jc")}, Banker: banker}
		tb := &table{t: t, bal: game.BalanceMap{alice: 1000, house.ID: 10000}}
		tb.env = game.Env{Now: t0, Rand: deck, Deriver: deck, Settings: game.DefaultSettings(), Balances: tb.bal,
			CutWait: game.DefaultCutWait, House: house.ID}
		tb.apply(game.Command{Kind: game.Open, User: alice, Name: "Alice"})
		tb.apply(game.Command{Kind: game.Join, User: house.ID, Name: "House"})
		tb.apply(game.Command{Kind: game.Start, User: alice})
		require.Equal(t, game.Cutting, tb.tb.Phase())
		c, _ := tb.tb.Cut()
		assert.Equal(t, alice, c.Asked, "the player is asked to cut")
		_, ok := house.Move(&tb.tb, house.ID, tb.bal[house.ID])
		assert.False(t, ok, "the house does not cut")
		assert.True(t, house.MoveAt(&tb.tb).IsZero(), "nor waits to")
		_, _, err := game.Apply(tb.tb, game.Command{Kind: game.Cut, User: house.ID, Text: "tap:1"}, tb.env)
		assert.ErrorIs(t, err, game.ErrHouseCannotCut)
		tb.apply(game.Command{Kind: game.Cut, User: alice, Text: "tap:1"})
		require.Equal(t, game.Betting, tb.tb.Phase())
	}

	// (When its own card runs out, the table waits with no turn either:
	// game's TestCutReshuffle.)
}

// TestReproducible plays whole games in which the strategy moves for every
// seat: the same decks give the same games, move for move.
func TestReproducible(t *testing.T) {
	play := func(seed uint64) []byte {
		bal := game.BalanceMap{1: 1000, 2: 1000, house.ID: 10000}
		env := game.Env{Now: t0, Rand: game.NewRand(rand.NewPCG(seed, seed)), Settings: game.DefaultSettings(), Balances: bal}
		var tb game.Table
		apply := func(cmd game.Command) {
			next, out, err := game.Apply(tb, cmd, env)
			require.NoError(t, err)
			for _, tr := range out.Transfers {
				bal[tr.User] += tr.Amount
			}
			tb = next
		}
		apply(game.Command{Kind: game.Open, User: 1, Name: "A"})
		apply(game.Command{Kind: game.Join, User: 2, Name: "B"})
		apply(game.Command{Kind: game.Join, User: house.ID, Name: "House"})
		for range 5 {
			apply(game.Command{Kind: game.Start, User: 1})
			for tb.Phase().InGame() {
				i, _ := tb.Turn()
				u := tb.Seat(i).User
				cmd, ok := house.Move(&tb, u, bal[u])
				require.True(t, ok)
				env.Now = env.Now.Add(house.Delay(&tb))
				apply(cmd)
			}
		}
		b, err := tb.MarshalBinary()
		require.NoError(t, err)
		return b
	}
	assert.Equal(t, play(7), play(7))
	assert.NotEqual(t, play(7), play(8))
}
