package game_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// One test per rule of rules.md. Every deck is stacked: the first cards of a
// circle's deck go to the players after the banker, one each, then the duels
// draw from the top. Alice is the banker unless a test says otherwise, the
// stake is 10, and everyone starts with 1000.

func TestRuleEntryLimit(t *testing.T) {
	f := newFixture(t)
	f.setBalance(erin, 50)
	f.setBalance(carol, 99)
	f.setBalance(dave, 100)

	// Anyone opens the table, but only a balance of 100 or more sits down.
	f.open(erin)
	assert.Equal(t, []game.EventKind{game.EventOpened}, f.kinds())
	assert.Empty(t, f.seated())
	assert.Equal(t, game.Lobby, f.tb.Phase())

	f.join(alice)
	err := f.reject(game.Command{Kind: game.Join, User: carol}, game.ErrBelowEntryLimit)
	assert.Contains(t, err.Error(), "need 100, have 99")
	f.join(dave) // exactly the entry limit
	assert.Equal(t, []game.UserID{alice, dave}, f.seated())

	// The chat's current entry limit applies in the lobby.
	f.settings.EntryLimit = 1001
	f.reject(game.Command{Kind: game.Join, User: bob}, game.ErrBelowEntryLimit)
	f.settings.EntryLimit = 1000
	f.join(bob)

	// The opener sits down with exactly the entry limit, not with less.
	f = newFixture(t)
	f.setBalance(alice, 100)
	f.open(alice)
	assert.Equal(t, []game.EventKind{game.EventOpened, game.EventJoined}, f.kinds())
	assert.Equal(t, []game.UserID{alice}, f.seated())
	f.cancel()
	f.setBalance(alice, 99)
	f.open(alice)
	assert.Empty(t, f.seated())
}

func TestRuleStakeIntoBank(t *testing.T) {
	for _, stake := range []int64{1, 10, 25, 100} {
		f := newFixture(t)
		f.settings.Stake = stake
		f.game()
		f.transfers(tr(alice, game.TransferStake, -stake))
		ev := f.event(game.EventStarted)
		assert.Equal(t, alice, ev.User)
		assert.Equal(t, stake, ev.Amount)
		assert.Equal(t, stake, f.tb.Bank())
		assert.Equal(t, stake, f.tb.CircleBank())
		assert.Equal(t, stake, f.tb.Chips())
		f.balances(1000-stake, 1000, 1000, 1000)
	}
}

func TestRuleBetOptionsCappedByBankAndBalance(t *testing.T) {
	def := game.DefaultSettings() // x1, x2, x5, bank/2, bank with stake 10
	tests := []struct {
		name          string
		bank, balance int64
		want          []int64
	}{
		{"the first bank caps every stake multiple", 10, 1000, []int64{5, 10}},
		{"a grown bank", 100, 1000, []int64{10, 20, 50, 100}},
		{"a big bank", 1000, 1000, []int64{10, 20, 50, 500, 1000}},
		{"the balance caps", 100, 30, []int64{10, 20, 30}},
		{"a balance below the stake", 100, 7, []int64{7}},
		{"bank and balance both cap", 7, 3, []int64{3}},
		{"the bank caps below the balance", 40, 1000, []int64{10, 20, 40}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int64
			for _, o := range def.Offers(tt.bank, tt.balance) {
				assert.LessOrEqual(t, o.Amount, min(tt.bank, tt.balance))
				got = append(got, o.Amount)
			}
			assert.Equal(t, tt.want, got)
		})
	}

	// At the table: Bob faces a bank of 10.
	f := newFixture(t, "Th 6s 7s")
	f.game()
	assert.Equal(t, []int64{5, 10}, f.offers())
	offers := f.tb.Offers(f.bal[bob])
	require.Len(t, offers, 2)
	assert.Equal(t, game.Offer{Amount: 5, Option: game.BetOption{Kind: game.BankShare, N: 2}}, offers[0])
	assert.Equal(t, game.Offer{Amount: 10, Option: game.BetOption{Kind: game.BankShare, N: 1}}, offers[1],
		"x1 and the whole bank both give 10 exactly: the last one names it")
	f.reject(game.Command{Kind: game.Bet, User: bob, Amount: 20}, game.ErrBetNotOffered)
	f.reject(game.Command{Kind: game.Bet, User: bob, Amount: 50}, game.ErrBetNotOffered)

	// Bob's balance drops to 7 (he lost at another table of the chat).
	f.setBalance(bob, 7)
	assert.Equal(t, []int64{5, 7}, f.offers())
	f.reject(game.Command{Kind: game.Bet, User: bob, Amount: 10}, game.ErrBetNotOffered)
	f.bet(bob, 7)
	f.transfers(tr(bob, game.TransferBet, -7))
	assert.Equal(t, int64(7), f.seat(bob).Bet)
	assert.Equal(t, int64(0), f.bal[bob])
	assert.Equal(t, int64(17), f.tb.Chips())
	assert.Equal(t, int64(10), f.tb.ChipsOf(alice), "the banker's: the bank")
	assert.Equal(t, int64(7), f.tb.ChipsOf(bob), "the player's: the bet")
	assert.Zero(t, f.tb.ChipsOf(carol), "seated, nothing bet")
}

func TestRuleBetOptionsMergedAndBelowOneDropped(t *testing.T) {
	opts := func(s string) []game.BetOption {
		o, err := game.ParseBetOptions(s)
		require.NoError(t, err)
		return o
	}
	tests := []struct {
		name          string
		options       string
		stake         int64
		bank, balance int64
		want          []game.Offer
	}{
		{"half of a bank of 1 is dropped", "x1, x2, x5, bank/2, bank", 10, 1, 1000,
			[]game.Offer{{Amount: 1, Option: game.BetOption{Kind: game.BankShare, N: 1}}}},
		{"an empty bank offers nothing", "x1, bank/2, bank", 10, 0, 1000, nil},
		{"an empty balance is offered nothing", "x1, bank/2, bank", 10, 100, 0, nil},
		{"a negative balance is offered nothing", "x1, bank", 10, 100, -5, nil},
		{"capped amounts merge into one", "x1, x2, x5", 10, 15, 1000, []game.Offer{
			{Amount: 10, Option: game.BetOption{Kind: game.StakeTimes, N: 1}},
			{Amount: 15, Option: game.BetOption{Kind: game.StakeTimes, N: 2}, Capped: true},
		}},
		{"an exact option names a merged amount", "x5, bank", 10, 30, 1000, []game.Offer{
			{Amount: 30, Option: game.BetOption{Kind: game.BankShare, N: 1}},
		}},
		{"the first capped option names it when none is exact", "x5, x2, bank/2", 10, 100, 12, []game.Offer{
			{Amount: 12, Option: game.BetOption{Kind: game.StakeTimes, N: 5}, Capped: true},
		}},
		{"shares of the bank round down", "bank/10, bank/3, x1", 10, 9, 1000, []game.Offer{
			{Amount: 3, Option: game.BetOption{Kind: game.BankShare, N: 3}},
			{Amount: 9, Option: game.BetOption{Kind: game.StakeTimes, N: 1}, Capped: true},
		}},
		{"smallest first whatever the order of the options", "bank, x1, bank/2", 10, 100, 1000, []game.Offer{
			{Amount: 10, Option: game.BetOption{Kind: game.StakeTimes, N: 1}},
			{Amount: 50, Option: game.BetOption{Kind: game.BankShare, N: 2}},
			{Amount: 100, Option: game.BetOption{Kind: game.BankShare, N: 1}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := game.DefaultSettings()
			s.Stake, s.BetOptions = tt.stake, opts(tt.options)
			require.NoError(t, s.Validate())
			if tt.want == nil {
				assert.Empty(t, s.Offers(tt.bank, tt.balance))
				return
			}
			assert.Equal(t, tt.want, s.Offers(tt.bank, tt.balance))
		})
	}

	// At the table, a player whose offers are all dropped sits the duel out:
	// Bob takes the whole bank of 10, Carol faces a bank of 0 (see
	// TestRuleBrokenBank); here Carol faces bank/2 of a bank of 1.
	f := newFixture(t, "Th 6s 7s 9h Ts 9s")
	f.settings.Stake = 2
	f.settings.EntryLimit = 2
	f.settings.BetOptions = opts("bank/2")
	f.game()
	assert.Equal(t, []int64{1}, f.offers())
	f.bet(bob, 1)
	f.hit(bob)
	f.stand(bob) // 19 against the banker's 19: the bank grows to 3
	assert.Equal(t, game.Tie, f.duel().Result)
	assert.Equal(t, int64(3), f.tb.Bank())
	assert.Equal(t, carol, f.turn())
	assert.Equal(t, []int64{1}, f.offers())
}

func TestRuleFirstBankerRandom(t *testing.T) {
	for seat, want := range []game.UserID{alice, bob, carol, dave} {
		f := newFixture(t)
		f.rnd.Banker = seat
		f.game()
		assert.Equal(t, want, f.banker(), "the Rand picks seat %d", seat)
		assert.Equal(t, want, f.event(game.EventStarted).User)
		for _, p := range f.tb.Players() {
			assert.Equal(t, p.User == want, p.Banker)
			if p.Banker {
				assert.Equal(t, int64(-10), p.Net, "the stake")
			} else {
				assert.Zero(t, p.Net)
			}
		}
	}

	// The real thing is uniform enough: every seat gets the bank.
	seen := map[game.UserID]bool{}
	for i := 0; i < 200 && len(seen) < 4; i++ {
		tb := lobbyOf(t, alice, bob, carol, dave)
		tb, _, err := game.Apply(tb, game.Command{Kind: game.Start, User: alice},
			game.Env{Now: t0, Rand: game.CryptoRand(), Settings: game.DefaultSettings(), Balances: thousandEach()})
		require.NoError(t, err)
		b, _ := tb.Banker()
		seen[tb.Seat(b).User] = true
	}
	assert.Len(t, seen, 4)

	// Only the table's first game is drawn: the next goes round.
	f := newFixture(t)
	f.rnd.Banker = 2
	f.game()
	endByTimeouts(f)
	f.rnd.Banker = 0
	f.start(bob)
	assert.Equal(t, dave, f.banker())
}

// endByTimeouts lets every player of the circle time out, which ends a game
// whose bank did not grow.
func endByTimeouts(f *fixture) {
	f.t.Helper()
	for f.tb.Phase().InGame() {
		f.timeout()
	}
	require.Equal(f.t, game.Lobby, f.tb.Phase())
}

func thousandEach() game.BalanceMap {
	return game.BalanceMap{alice: 1000, bob: 1000, carol: 1000, dave: 1000, erin: 1000, frank: 1000}
}

// lobbyOf returns a lobby with users seated, without a fixture.
func lobbyOf(t *testing.T, users ...game.UserID) game.Table {
	t.Helper()
	env := game.Env{Now: t0, Settings: game.DefaultSettings(), Balances: thousandEach()}
	var tb game.Table
	var err error
	for i, u := range users {
		kind := game.Join
		if i == 0 {
			kind = game.Open
		}
		tb, _, err = game.Apply(tb, game.Command{Kind: kind, User: u, Name: names[u]}, env)
		require.NoError(t, err)
	}
	return tb
}

func TestRuleBankerRotationSkipsPlayersWhoCannotPayStake(t *testing.T) {
	f := newFixture(t)
	f.game()
	endByTimeouts(f)

	// Bob, next in line, lost his chips at another table of the chat: he
	// cannot pay the stake, stands up, and the bank goes to Carol.
	f.setBalance(bob, 5)
	f.start(dave)
	assert.Equal(t, []game.EventKind{game.EventStoodUp, game.EventStarted, game.EventCircleStarted,
		game.EventDealt, game.EventDealt, game.EventTurn}, f.kinds())
	assert.Equal(t, bob, f.event(game.EventStoodUp).User)
	assert.Equal(t, carol, f.banker())
	f.transfers(tr(carol, game.TransferStake, -10))
	endByTimeouts(f)
	f.start(alice)
	assert.Equal(t, dave, f.banker())
	endByTimeouts(f)
	f.start(alice)
	assert.Equal(t, alice, f.banker(), "round the table")

	// A banker who leaves the lobby passes the bank to the seat after his.
	endByTimeouts(f)
	f.leave(alice)
	f.start(carol)
	assert.Equal(t, carol, f.banker())

	// The last seat's banker leaving passes it to the first seat.
	f = newFixture(t)
	f.rnd.Banker = 3
	f.game()
	require.Equal(t, dave, f.banker())
	endByTimeouts(f)
	f.leave(dave)
	f.leave(bob)
	f.start(alice)
	assert.Equal(t, alice, f.banker())
}

func TestRuleOneCardDealtToEachPlayer(t *testing.T) {
	f := newFixture(t, "Th 9d 8c")
	f.game()
	assert.Equal(t, []game.EventKind{game.EventStarted, game.EventCircleStarted,
		game.EventDealt, game.EventDealt, game.EventDealt, game.EventTurn}, f.kinds())
	dealt := f.events(game.EventDealt)
	assert.Equal(t, []game.UserID{bob, carol, dave}, []game.UserID{dealt[0].User, dealt[1].User, dealt[2].User})
	assert.Equal(t, "Th 9d 8c", codes([]game.Card{dealt[0].Card, dealt[1].Card, dealt[2].Card}))
	assert.Equal(t, "Th", f.hand(bob))
	assert.Equal(t, "9d", f.hand(carol))
	assert.Equal(t, "8c", f.hand(dave))
	assert.Equal(t, "", f.hand(alice), "the banker is dealt nothing")
	assert.Equal(t, game.Idle, f.seat(alice).State)
	assert.Equal(t, game.Playing, f.seat(bob).State)
	assert.Equal(t, game.Waiting, f.seat(carol).State)
	assert.Equal(t, game.Waiting, f.seat(dave).State)
	assert.Equal(t, 1, f.tb.Circle())
	assert.Equal(t, game.Betting, f.tb.Phase())
}

func TestRuleDuelOrderStartsAfterBanker(t *testing.T) {
	f := newFixture(t, "6s 7s 8s")
	f.rnd.Banker = 2
	f.game()
	require.Equal(t, carol, f.banker())
	dealt := f.events(game.EventDealt)
	require.Len(t, dealt, 3)
	assert.Equal(t, []game.UserID{dave, alice, bob}, []game.UserID{dealt[0].User, dealt[1].User, dealt[2].User})
	assert.Equal(t, "6s", f.hand(dave))
	var order []game.UserID
	for f.tb.Phase().InGame() {
		order = append(order, f.turn())
		assert.Equal(t, f.turn(), f.events(game.EventTurn)[0].User)
		f.timeout()
	}
	assert.Equal(t, []game.UserID{dave, alice, bob}, order)
}

func TestRuleImmediateWinAt21(t *testing.T) {
	f := newFixture(t, "Th 6s 7s As")
	f.game()
	f.bet(bob, 5)
	assert.Equal(t, game.Drawing, f.tb.Phase())
	f.hit(bob)
	drew := f.event(game.EventDrew)
	assert.Equal(t, "As", drew.Card.Code())
	assert.Equal(t, 21, drew.Score)
	assert.Empty(t, f.events(game.EventBankerDrew), "the banker does not draw")
	d := f.duel()
	assert.Equal(t, game.TwentyOne, d.Result)
	assert.True(t, d.Result.PlayerWon())
	assert.Equal(t, 0, d.Banker.Len())
	assert.Equal(t, "Th As", codes(d.Hand.Cards()))
	f.transfers(tr(bob, game.TransferWin, 10))
	assert.Equal(t, int64(5), f.tb.Bank())
	f.balances(990, 1005, 1000, 1000)
	assert.Equal(t, carol, f.turn())
}

func TestRuleGoldenTwentyOne(t *testing.T) {
	f := newFixture(t, "As Th 6s Ad 9h Ah Ac 7c Tc")
	f.game()

	// Bob: A, then A: Golden 21, not 22, and an immediate win.
	f.bet(bob, 5)
	f.hit(bob)
	assert.Equal(t, 21, f.event(game.EventDrew).Score)
	d := f.duel()
	assert.Equal(t, game.TwentyOne, d.Result)
	assert.True(t, d.Hand.Golden())
	f.balances(990, 1005)

	// The banker's A A is Golden 21 too: he stops, and 21 beats Carol's 19.
	assert.Equal(t, []int64{2, 5}, f.offers())
	f.bet(carol, 5)
	f.hit(carol)
	f.stand(carol)
	bd := f.events(game.EventBankerDrew)
	require.Len(t, bd, 2)
	assert.Equal(t, []int{11, 21}, []int{bd[0].Score, bd[1].Score})
	d = f.duel()
	assert.Equal(t, game.BankerHigher, d.Result)
	assert.True(t, d.Banker.Golden())
	assert.Equal(t, 21, d.Banker.Score())
	assert.Equal(t, int64(10), f.tb.Bank())

	// Dave: 6 against the banker's 7 10.
	f.bet(dave, 10)
	f.stand(dave)
	assert.Equal(t, game.BankerHigher, f.events(game.EventDuelEnded)[0].Duel.Result)
	assert.Equal(t, game.Lobby, f.tb.Phase())
	f.balances(1010, 1005, 995, 990)
}

func TestRuleFivePictures(t *testing.T) {
	f := newFixture(t, "Jh Ts 6s Qh Kh Jd Ah 9s Js Qs Ks Jc Qd")
	f.game()

	// Bob: J Q K J A is 22 by points, but five pictures make 21: he wins.
	f.bet(bob, 5)
	var scores []int
	for f.turn() == bob && f.tb.Phase() == game.Drawing {
		f.hit(bob)
		scores = append(scores, f.events(game.EventDrew)[0].Score)
		if f.tb.Phase() != game.Drawing {
			break
		}
	}
	assert.Equal(t, []int{5, 9, 11, 21}, scores)
	d := f.duel()
	assert.Equal(t, game.TwentyOne, d.Result)
	assert.True(t, d.Hand.FivePictures())
	f.balances(990, 1005)

	// The banker's J Q K J Q is 14 by points, five pictures make 21: he
	// stops and beats Carol's 19.
	f.bet(carol, 5)
	f.hit(carol)
	f.stand(carol)
	bd := f.events(game.EventBankerDrew)
	require.Len(t, bd, 5)
	assert.Equal(t, []int{2, 5, 9, 11, 21}, []int{bd[0].Score, bd[1].Score, bd[2].Score, bd[3].Score, bd[4].Score})
	d = f.duel()
	assert.Equal(t, game.BankerHigher, d.Result)
	assert.True(t, d.Banker.FivePictures())
	f.timeout()
	f.balances(1000, 1005, 995, 1000)
}

func TestRuleBust(t *testing.T) {
	f := newFixture(t, "Th 6s 7s 9h 6h")
	f.game()
	f.bet(bob, 10)
	f.hit(bob)
	assert.Equal(t, 19, f.event(game.EventDrew).Score)
	f.hit(bob)
	assert.Equal(t, 25, f.event(game.EventDrew).Score)
	d := f.duel()
	assert.Equal(t, game.PlayerBust, d.Result)
	assert.False(t, d.Result.PlayerWon())
	assert.True(t, d.Hand.Bust())
	assert.Empty(t, f.events(game.EventBankerDrew), "the player loses at once")
	assert.Empty(t, f.out.Transfers)
	assert.Equal(t, int64(20), f.tb.Bank())
	f.balances(990, 990)
}

func TestRuleBankerDrawsTo17(t *testing.T) {
	f := newFixture(t, "Th 9c 7d 8h 6s Ts 7s Tc 7c 6c Jc 9d")
	f.game()

	// At 16 the banker must draw: 6, 16, then 23: he busts and Bob wins.
	f.bet(bob, 5)
	f.hit(bob)
	f.stand(bob)
	assert.Equal(t, []int{6, 16, 23}, bankerScores(f))
	assert.Equal(t, game.BankerBust, f.duel().Result)
	assert.True(t, f.duel().Banker.Bust())
	f.transfers(tr(bob, game.TransferWin, 10))

	// At exactly 17 he stops.
	f.bet(carol, 5)
	f.stand(carol)
	assert.Equal(t, []int{10, 17}, bankerScores(f))
	assert.Equal(t, game.BankerHigher, f.duel().Result)

	// He never decides: at 8 he already beats Dave's 7, and draws on to 17.
	f.bet(dave, 10)
	f.stand(dave)
	assert.Equal(t, []int{6, 8, 17}, bankerScores(f))
	assert.Equal(t, game.BankerHigher, f.duel().Result)
	f.balances(1010, 1005, 995, 990)
}

func bankerScores(f *fixture) []int {
	var s []int
	for _, e := range f.events(game.EventBankerDrew) {
		assert.Equal(f.t, f.event(game.EventDuelEnded).Duel.Circle, f.tb.Circle())
		s = append(s, e.Score)
	}
	return s
}

func TestRuleTieGoesToBanker(t *testing.T) {
	f := newFixture(t, "Th 6s 7s 8h Ts 8s")
	f.game()
	f.bet(bob, 10)
	f.hit(bob)
	f.stand(bob)
	d := f.duel()
	assert.Equal(t, 18, d.Hand.Score())
	assert.Equal(t, 18, d.Banker.Score())
	assert.Equal(t, game.Tie, d.Result)
	assert.False(t, d.Result.PlayerWon())
	assert.Empty(t, f.out.Transfers)
	assert.Equal(t, int64(20), f.tb.Bank())
	f.balances(990, 990)
}

func TestRulePayoutFromBank(t *testing.T) {
	f := newFixture(t, "Th 6s 7s 9h 6h Ts 7h")
	f.game()
	f.bet(bob, 5)
	f.transfers(tr(bob, game.TransferBet, -5))
	assert.Equal(t, int64(10), f.tb.Bank(), "the bet is on the table, not in the bank")
	assert.Equal(t, int64(15), f.tb.Chips())
	f.hit(bob)
	f.stand(bob)
	assert.Equal(t, game.BankerBust, f.duel().Result)
	f.transfers(tr(bob, game.TransferWin, 10))
	assert.Equal(t, int64(5), f.tb.Bank(), "the bank paid the bet")
	assert.Equal(t, int64(0), f.seat(bob).Bet)
	f.balances(990, 1005)
	assert.Equal(t, []game.Participant{
		{User: alice, Name: "Alice", Banker: true, Net: -10},
		{User: bob, Name: "Bob", Net: 5},
		{User: carol, Name: "Carol"},
		{User: dave, Name: "Dave"},
	}, f.tb.Players())
}

func TestRuleLostBetJoinsBank(t *testing.T) {
	f := newFixture(t, "Th Ts 7s 9h 6h 9s 8s 6d 9d")
	f.game()
	f.bet(bob, 10)
	f.hit(bob)
	f.hit(bob)
	assert.Equal(t, game.PlayerBust, f.duel().Result)
	assert.Equal(t, int64(20), f.tb.Bank())

	// Bob's 10 is at stake in Carol's duel: she may bet the bank of 20.
	assert.Equal(t, []int64{10, 20}, f.offers())
	f.bet(carol, 20)
	f.hit(carol)
	assert.Equal(t, 19, f.event(game.EventDrew).Score)
	f.stand(carol)
	assert.Equal(t, game.BankerBust, f.duel().Result)
	f.transfers(tr(carol, game.TransferWin, 40))
	assert.Equal(t, int64(0), f.tb.Bank())
}

func TestRuleBrokenBank(t *testing.T) {
	f := newFixture(t, "Th 6s 7s As")
	f.game()
	f.bet(bob, 10)
	f.hit(bob)
	assert.Equal(t, []game.EventKind{game.EventDrew, game.EventDuelEnded, game.EventSatOut, game.EventSatOut,
		game.EventRevealed, game.EventGameEnded}, f.kinds())
	for i, e := range f.events(game.EventSatOut) {
		assert.Equal(t, []game.UserID{carol, dave}[i], e.User)
		assert.Equal(t, game.ReasonBankBroken, e.Reason)
	}
	end := f.event(game.EventGameEnded)
	assert.Equal(t, game.ReasonBankBroken, end.Reason)
	assert.Equal(t, int64(0), end.Amount)
	assert.Equal(t, alice, end.User)
	f.transfers(tr(bob, game.TransferWin, 20))
	assert.Equal(t, game.Lobby, f.tb.Phase())
	assert.Equal(t, int64(0), f.tb.Chips())
	f.balances(990, 1010, 1000, 1000)
	assert.Equal(t, []game.UserID{alice, bob, carol, dave}, f.seated())
	assert.Equal(t, []game.Duel{
		{Circle: 1, User: bob, Name: "Bob", Hand: hand(t, "Th As"), Bet: 10, Result: game.TwentyOne},
		{Circle: 1, User: carol, Name: "Carol", Hand: hand(t, "6s"), Result: game.NoDuel, Reason: game.ReasonBankBroken},
		{Circle: 1, User: dave, Name: "Dave", Hand: hand(t, "7s"), Result: game.NoDuel, Reason: game.ReasonBankBroken},
	}, f.tb.Log(), "the record keeps every player the broken bank left without a duel, with the card dealt")

	// The bank also breaks when the circle's last duel empties it.
	f = newFixture(t, "Th As")
	f.lobby(alice, bob)
	f.start(alice)
	f.bet(bob, 10)
	f.hit(bob)
	assert.Equal(t, game.ReasonBankBroken, f.event(game.EventGameEnded).Reason)
}

func TestRuleKnock(t *testing.T) {
	f := newFixture(t, "Th Ts 7s 9h 6h 9s 6c", "6d 7d 8d")
	f.game()
	c1 := f.event(game.EventCircleStarted).Commitment
	f.bet(bob, 10)
	f.hit(bob)
	f.hit(bob) // 25
	f.bet(carol, 10)
	f.hit(carol)
	f.hit(carol) // 25
	assert.Equal(t, int64(30), f.tb.Bank())
	f.timeout() // Dave sits out; the bank tripled in the circle
	assert.Equal(t, []game.EventKind{game.EventSatOut, game.EventRevealed, game.EventKnocked,
		game.EventCircleStarted, game.EventDealt, game.EventDealt, game.EventDealt, game.EventTurn}, f.kinds())
	k := f.event(game.EventKnocked)
	assert.Equal(t, int64(30), k.Amount)
	assert.Equal(t, int64(10), k.From)
	cs := f.event(game.EventCircleStarted)
	assert.Equal(t, int64(2), cs.Amount)
	assert.NotEqual(t, c1, cs.Commitment, "a fresh deck for the new circle")
	assert.Equal(t, c1, f.event(game.EventRevealed).Commitment)
	assert.Equal(t, 2, f.tb.Circle())
	assert.Equal(t, 1, f.tb.Knocks())
	assert.Equal(t, int64(30), f.tb.Bank(), "the same bank")
	assert.Equal(t, int64(30), f.tb.CircleBank())
	assert.Empty(t, f.out.Transfers)
	assert.Equal(t, "6d", f.hand(bob))
	assert.Equal(t, "7d", f.hand(carol))
	assert.Equal(t, "8d", f.hand(dave))
	assert.Equal(t, bob, f.turn())
	assert.Equal(t, []int64{10, 15, 20, 30}, f.offers(), "players may bet to win it back")

	// Nobody plays circle 2: 30 is not three times 30, the banker takes it.
	endByTimeouts(f)
	f.transfers(tr(alice, game.TransferBank, 30))
	f.balances(1020, 990, 990, 1000)

	// A bank of 29 from 10 is not enough.
	f = newFixture(t, "Th Ts 7s 9h 6h 9s 6c")
	f.game()
	f.bet(bob, 10)
	f.hit(bob)
	f.hit(bob)
	f.setBalance(carol, 9)
	assert.Equal(t, []int64{9}, f.offers())
	f.bet(carol, 9)
	f.hit(carol)
	f.hit(carol)
	assert.Equal(t, int64(29), f.tb.Bank())
	f.timeout()
	assert.Empty(t, f.events(game.EventKnocked))
	assert.Equal(t, game.ReasonFinished, f.event(game.EventGameEnded).Reason)
	f.transfers(tr(alice, game.TransferBank, 29))
}

func TestRuleKnockLimit(t *testing.T) {
	circle := "Th Ts 7s 9h 6h 9s 6c"
	f := newFixture(t, circle, circle)
	f.settings.MaxKnocks = 1
	f.game()
	lose := func(u game.UserID, bet int64) {
		f.bet(u, bet)
		f.hit(u)
		f.hit(u)
		require.Equal(t, game.PlayerBust, f.duel().Result)
	}
	lose(bob, 10)
	lose(carol, 10)
	f.timeout()
	require.Equal(t, 1, f.tb.Knocks())
	lose(bob, 30)
	lose(carol, 30)
	assert.Equal(t, int64(90), f.tb.Bank())
	f.timeout()
	assert.Empty(t, f.events(game.EventKnocked), "90 is three times 30, but one knock is the limit")
	assert.Equal(t, game.ReasonFinished, f.event(game.EventGameEnded).Reason)
	f.transfers(tr(alice, game.TransferBank, 90))
	f.balances(1080, 960, 960, 1000)

	// No knock at all with a limit of 0.
	f = newFixture(t, circle)
	f.settings.MaxKnocks = 0
	f.game()
	lose(bob, 10)
	lose(carol, 10)
	f.timeout()
	assert.Empty(t, f.events(game.EventKnocked))
	f.transfers(tr(alice, game.TransferBank, 30))

	// The default limit is 3.
	f = newFixture(t, circle, circle, circle, circle)
	f.game()
	bets := []int64{10, 30, 90, 270}
	for i, b := range bets {
		lose(bob, b)
		lose(carol, b)
		f.timeout()
		if i < 3 {
			assert.Equal(t, i+1, f.tb.Knocks())
		}
	}
	assert.Equal(t, game.Lobby, f.tb.Phase())
	f.transfers(tr(alice, game.TransferBank, 810))
}

func TestRuleBankerTakesBank(t *testing.T) {
	f := newFixture(t, "Th 6s 7s 9h 6h")
	f.lobby(alice, bob, carol, dave)
	assert.False(t, f.tb.Finished(), "a lobby before any game")
	f.start(alice)
	assert.False(t, f.tb.Finished(), "a game being played")
	f.bet(bob, 10)
	f.hit(bob)
	f.hit(bob)
	f.timeout()
	f.now = f.now.Add(7 * time.Second)
	f.timeout()
	f.transfers(tr(alice, game.TransferBank, 20))
	end := f.event(game.EventGameEnded)
	assert.Equal(t, game.ReasonFinished, end.Reason)
	assert.Equal(t, int64(20), end.Amount)
	assert.Equal(t, game.Lobby, f.tb.Phase())
	assert.True(t, f.tb.Finished(), "the lobby after a game")
	assert.Equal(t, int64(0), f.tb.Chips())
	_, ok := f.tb.Banker()
	assert.False(t, ok)
	_, ok = f.tb.Turn()
	assert.False(t, ok)
	assert.Equal(t, f.now.Add(10*time.Minute).UnixMilli(), f.tb.Deadline().UnixMilli(), "the lobby reopens")
	assert.Equal(t, []game.UserID{alice, bob, carol, dave}, f.seated(), "the seats stay")
	for _, s := range f.tb.Seats() {
		assert.Equal(t, game.Idle, s.State)
		assert.Zero(t, s.Hand.Len())
	}
	assert.Equal(t, []game.Participant{
		{User: alice, Name: "Alice", Banker: true, Net: 10},
		{User: bob, Name: "Bob", Net: -10},
		{User: carol, Name: "Carol"},
		{User: dave, Name: "Dave"},
	}, f.tb.Players())
	f.balances(1010, 990, 1000, 1000)
	assert.Equal(t, []game.Duel{
		{Circle: 1, User: bob, Name: "Bob", Hand: hand(t, "Th 9h 6h"), Bet: 10, Result: game.PlayerBust},
		{Circle: 1, User: carol, Name: "Carol", Hand: hand(t, "6s"), Result: game.NoDuel, Reason: game.ReasonTimeout},
		{Circle: 1, User: dave, Name: "Dave", Hand: hand(t, "7s"), Result: game.NoDuel, Reason: game.ReasonTimeout},
	}, f.tb.Log(), "the duel and the two circles sat out")
}

func TestRuleTurnTimeoutBeforeBet(t *testing.T) {
	f := newFixture(t, "Th 6s 7s")
	f.game()
	assert.Equal(t, t0.Add(time.Minute).UnixMilli(), f.tb.Deadline().UnixMilli())
	f.now = t0.Add(time.Minute - time.Millisecond)
	f.reject(game.Command{Kind: game.Timeout}, game.ErrTooEarly)
	f.timeout()
	assert.Equal(t, []game.EventKind{game.EventSatOut, game.EventTurn}, f.kinds())
	so := f.event(game.EventSatOut)
	assert.Equal(t, bob, so.User)
	assert.Equal(t, game.ReasonTimeout, so.Reason)
	assert.Empty(t, f.out.Transfers, "no chips move")
	assert.Equal(t, game.SatOut, f.seat(bob).State)
	assert.Zero(t, f.seat(bob).Hand.Len())
	assert.Equal(t, []game.Duel{{Circle: 1, User: bob, Name: "Bob", Hand: hand(t, "Th"), Result: game.NoDuel, Reason: game.ReasonTimeout}},
		f.tb.Log(), "the record keeps the circle sat out, with the card dealt")
	assert.Equal(t, carol, f.turn())
	assert.Equal(t, t0.Add(2*time.Minute).UnixMilli(), f.tb.Deadline().UnixMilli(), "Carol gets a full turn")
	f.reject(game.Command{Kind: game.Bet, User: bob, Amount: 10}, game.ErrNotYourTurn)

	// A custom turn timeout.
	f = newFixture(t)
	f.settings.TurnTimeout = 15 * time.Second
	f.game()
	assert.Equal(t, t0.Add(15*time.Second).UnixMilli(), f.tb.Deadline().UnixMilli())
}

func TestRuleTurnTimeoutAfterBet(t *testing.T) {
	f := newFixture(t, "Th 6s 7s 8h Ts 7c")
	f.game()
	f.now = t0.Add(10 * time.Second)
	f.bet(bob, 5)
	assert.Equal(t, t0.Add(70*time.Second).UnixMilli(), f.tb.Deadline().UnixMilli())
	f.now = t0.Add(20 * time.Second)
	f.hit(bob)
	assert.Equal(t, t0.Add(80*time.Second).UnixMilli(), f.tb.Deadline().UnixMilli(), "every card restarts the clock")
	f.now = t0.Add(79 * time.Second)
	f.reject(game.Command{Kind: game.Timeout}, game.ErrTooEarly)
	f.timeout() // Bob stands on 18
	assert.Equal(t, []int{10, 17}, bankerScores(f))
	assert.Equal(t, game.PlayerHigher, f.duel().Result)
	assert.Equal(t, game.ReasonTimeout, f.duel().Reason, "the stand was the clock's")
	assert.Equal(t, []game.Duel{{Circle: 1, User: bob, Name: "Bob", Hand: hand(t, "Th 8h"), Banker: hand(t, "Ts 7c"),
		Bet: 5, Result: game.PlayerHigher, Reason: game.ReasonTimeout}}, f.tb.Log())
	f.transfers(tr(bob, game.TransferWin, 10))
	assert.Equal(t, carol, f.turn())
}

func TestRuleLobbyTimeout(t *testing.T) {
	f := newFixture(t)
	f.open(alice)
	assert.Equal(t, t0.Add(10*time.Minute).UnixMilli(), f.tb.Deadline().UnixMilli())
	f.now = t0.Add(5 * time.Minute)
	f.join(bob)
	assert.Equal(t, t0.Add(15*time.Minute).UnixMilli(), f.tb.Deadline().UnixMilli(), "a join keeps the lobby open")
	f.now = t0.Add(10 * time.Minute)
	f.reject(game.Command{Kind: game.Timeout}, game.ErrTooEarly)
	f.timeout()
	assert.Equal(t, []game.EventKind{game.EventClosed}, f.kinds())
	assert.Equal(t, game.ReasonTimeout, f.event(game.EventClosed).Reason)
	assert.Equal(t, game.Closed, f.tb.Phase())
	assert.Equal(t, game.ReasonTimeout, f.tb.ClosedBy())
	assert.Empty(t, f.seated())
	assert.True(t, f.tb.Deadline().IsZero())
	f.reject(game.Command{Kind: game.Timeout}, game.ErrNoTable)

	// The lobby after a game times out too, with the chat's lobby timeout.
	f = newFixture(t)
	f.game()
	f.settings.LobbyTimeout = time.Minute
	endByTimeouts(f)
	assert.Equal(t, f.now.Add(time.Minute).UnixMilli(), f.tb.Deadline().UnixMilli())
	f.timeout()
	assert.Equal(t, game.Closed, f.tb.Phase())
	f.balances(1000, 1000, 1000, 1000)
}

func TestRulePlayerLeavesMidGame(t *testing.T) {
	f := newFixture(t, "Th 6s 7s 9h")
	f.game()
	f.bet(bob, 10)
	f.hit(bob)

	// Carol, waiting for her duel, leaves: she sits out, her seat is freed
	// once Bob's duel is over.
	f.leave(carol)
	assert.Equal(t, []game.EventKind{game.EventLeft, game.EventSatOut}, f.kinds())
	assert.Equal(t, game.ReasonLeft, f.event(game.EventSatOut).Reason)
	assert.Equal(t, 4, f.tb.NumSeats())
	assert.True(t, f.seat(carol).Leaving)
	f.reject(game.Command{Kind: game.Leave, User: carol}, game.ErrNotSeated)

	// Bob leaves in the middle of his duel: his bet is lost to the bank.
	f.leave(bob)
	assert.Equal(t, []game.EventKind{game.EventLeft, game.EventDuelEnded, game.EventTurn}, f.kinds())
	d := f.duel()
	assert.Equal(t, game.Forfeit, d.Result)
	assert.Equal(t, int64(10), d.Bet)
	assert.Empty(t, f.out.Transfers)
	assert.Equal(t, int64(20), f.tb.Bank())
	assert.Equal(t, []game.UserID{alice, dave}, f.seated(), "both seats are freed after the duel")
	assert.Equal(t, dave, f.turn())
	f.balances(990, 990, 1000, 1000)

	f.timeout()
	f.transfers(tr(alice, game.TransferBank, 20))
	assert.Equal(t, []game.UserID{alice, dave}, f.seated())
	assert.Equal(t, game.Lobby, f.tb.Phase())

	// Leaving before betting: the duel ends without chips.
	f = newFixture(t, "Th 6s 7s")
	f.game()
	f.leave(bob)
	assert.Equal(t, []game.EventKind{game.EventLeft, game.EventSatOut, game.EventTurn}, f.kinds())
	assert.Empty(t, f.out.Transfers)
	assert.Equal(t, []game.UserID{alice, carol, dave}, f.seated())
	assert.Equal(t, carol, f.turn())

	// A player who already played leaves: the seat is freed after the next duel.
	f.timeout()
	f.leave(carol)
	assert.Equal(t, []game.UserID{alice, carol, dave}, f.seated())
	f.timeout()
	assert.Equal(t, []game.UserID{alice, dave}, f.seated())

	// When nobody is left to play, the game ends.
	f = newFixture(t, "Th 6s 7s")
	f.lobby(alice, bob)
	f.start(alice)
	f.leave(bob)
	assert.Equal(t, game.Lobby, f.tb.Phase())
	assert.Equal(t, []game.UserID{alice}, f.seated())
	f.transfers(tr(alice, game.TransferBank, 10))
}

func TestRuleBankerLeaves(t *testing.T) {
	f := newFixture(t, "Th 6s 7s 9h 6h")
	f.game()
	f.bet(bob, 10)
	f.hit(bob)
	f.hit(bob) // bust: the bank holds 20
	f.bet(carol, 10)
	f.leave(alice)
	assert.Equal(t, []game.EventKind{game.EventLeft, game.EventSatOut, game.EventSatOut, game.EventRevealed, game.EventGameEnded}, f.kinds())
	for i, e := range f.events(game.EventSatOut) {
		assert.Equal(t, []game.UserID{carol, dave}[i], e.User)
		assert.Equal(t, game.ReasonBankerLeft, e.Reason)
	}
	f.transfers(tr(carol, game.TransferRefund, 10), tr(alice, game.TransferBank, 20))
	assert.Equal(t, []game.Duel{
		{Circle: 1, User: bob, Name: "Bob", Hand: hand(t, "Th 9h 6h"), Bet: 10, Result: game.PlayerBust},
		{Circle: 1, User: carol, Name: "Carol", Hand: hand(t, "6s"), Result: game.NoDuel, Reason: game.ReasonBankerLeft},
		{Circle: 1, User: dave, Name: "Dave", Hand: hand(t, "7s"), Result: game.NoDuel, Reason: game.ReasonBankerLeft},
	}, f.tb.Log(), "Carol's bet came back and Dave never played: each has a line saying why")
	end := f.event(game.EventGameEnded)
	assert.Equal(t, game.ReasonLeft, end.Reason)
	assert.Equal(t, int64(20), end.Amount)
	assert.Equal(t, game.Lobby, f.tb.Phase())
	assert.Equal(t, []game.UserID{bob, carol, dave}, f.seated())
	f.balances(1010, 990, 1000, 1000)

	// The next game's banker is the seat after the one who left.
	f.start(dave)
	assert.Equal(t, bob, f.banker())
}

func TestRuleCancel(t *testing.T) {
	f := newFixture(t, "Th 6s 7s 9h 6h")
	f.game()
	c := f.event(game.EventCircleStarted).Commitment
	f.bet(bob, 10)
	f.hit(bob)
	f.hit(bob)
	f.bet(carol, 20)
	f.cancel()
	assert.Equal(t, []game.EventKind{game.EventSatOut, game.EventSatOut, game.EventRevealed, game.EventGameEnded, game.EventClosed}, f.kinds())
	f.transfers(tr(carol, game.TransferRefund, 20), tr(alice, game.TransferBank, 20))
	assert.Equal(t, []game.Duel{
		{Circle: 1, User: bob, Name: "Bob", Hand: hand(t, "Th 9h 6h"), Bet: 10, Result: game.PlayerBust},
		{Circle: 1, User: carol, Name: "Carol", Hand: hand(t, "6s"), Result: game.NoDuel, Reason: game.ReasonCancelled},
		{Circle: 1, User: dave, Name: "Dave", Hand: hand(t, "7s"), Result: game.NoDuel, Reason: game.ReasonCancelled},
	}, f.tb.Log(), "the record of a cancelled game has a line for every player")
	assert.Equal(t, game.ReasonCancelled, f.event(game.EventGameEnded).Reason)
	assert.Equal(t, c, f.event(game.EventRevealed).Commitment)
	assert.Equal(t, game.Closed, f.tb.Phase())
	assert.Equal(t, game.ReasonCancelled, f.tb.ClosedBy())
	assert.Empty(t, f.seated())
	assert.Equal(t, int64(0), f.tb.Chips())
	f.balances(1010, 990, 1000, 1000)

	// In the lobby, cancelling closes the table.
	f = newFixture(t)
	f.lobby(alice, bob)
	f.cancel()
	assert.Equal(t, []game.EventKind{game.EventClosed}, f.kinds())
	assert.Empty(t, f.out.Transfers)
	assert.Equal(t, game.Closed, f.tb.Phase())

	// The table opens again afterwards.
	f.open(bob)
	assert.Equal(t, []game.UserID{bob}, f.seated())
}

func TestRuleKick(t *testing.T) {
	f := newFixture(t, "Th 6s 7s 9h Ts 9s")
	f.lobby(alice, bob, carol, dave)
	f.kick(bob)
	assert.Equal(t, []game.EventKind{game.EventKicked}, f.kinds())
	assert.Equal(t, []game.UserID{alice, carol, dave}, f.seated())
	f.join(bob)
	assert.Equal(t, []game.UserID{alice, carol, dave, bob}, f.seated())
	f.kick(bob)
	f.join(bob)

	// During a game nothing at stake is taken: a waiting player sits out...
	f = newFixture(t, "Th 6s 7s 9h Ts 9s")
	f.game()
	f.kick(dave)
	assert.Equal(t, []game.EventKind{game.EventKicked, game.EventSatOut}, f.kinds())
	assert.Equal(t, game.ReasonKicked, f.event(game.EventSatOut).Reason)
	f.reject(game.Command{Kind: game.Kick, User: alice, Target: dave}, game.ErrNotSeated)

	// ... a player in a duel finishes it...
	f.kick(bob)
	assert.Equal(t, []game.EventKind{game.EventKicked}, f.kinds())
	f.bet(bob, 10)
	f.hit(bob)
	f.stand(bob)
	assert.Equal(t, game.Tie, f.duel().Result)
	assert.Equal(t, []game.UserID{alice, carol}, f.seated(), "both seats freed after the duel")

	// ... and the banker finishes the game.
	f.kick(alice)
	assert.Equal(t, alice, f.banker())
	f.timeout()
	f.transfers(tr(alice, game.TransferBank, 20))
	assert.Equal(t, []game.UserID{carol}, f.seated())
	f.balances(1010, 990, 1000, 1000)

	// Kicking the last player of a lobby closes it.
	f.kick(carol)
	assert.Equal(t, game.Closed, f.tb.Phase())
	assert.Equal(t, game.ReasonEmpty, f.tb.ClosedBy())
}

func TestRuleDeckRunsOut(t *testing.T) {
	f := newFixture(t, "Th 6s 7s", "9h 6h Ts 8s")
	f.game()
	c1 := f.event(game.EventCircleStarted).Commitment
	f.bet(bob, 5)

	// Every card but the three dealt has been drawn and discarded.
	game.ExhaustDeck(&f.tb, 0)
	f.requireInvariants()
	require.Empty(t, game.DeckLeft(&f.tb))
	require.Len(t, game.Discards(&f.tb), 33)

	f.hit(bob)
	assert.Equal(t, []game.EventKind{game.EventRevealed, game.EventReshuffled, game.EventDrew}, f.kinds())
	old := f.event(game.EventRevealed)
	assert.Equal(t, c1, old.Commitment)
	assert.NoError(t, game.VerifyDeck(old.Deck.Preimage(), c1.String()))
	c2 := f.event(game.EventReshuffled).Commitment
	assert.NotEqual(t, c1, c2)
	cur, ok := f.tb.Commitment()
	assert.True(t, ok)
	assert.Equal(t, c2, cur)
	assert.Equal(t, "9h", f.event(game.EventDrew).Card.Code())
	assert.Len(t, game.DeckLeft(&f.tb), 32)
	assert.Empty(t, game.Discards(&f.tb))
	assert.Equal(t, 2, f.rnd.Shuffles())

	f.stand(bob) // 19 against 6 10 8 = 24
	assert.Equal(t, game.BankerBust, f.duel().Result)
	endByTimeouts(f)

	// The new deck held every card but those in live hands, and its reveal
	// matches the commitment published at the reshuffle.
	rev := f.events(game.EventRevealed)
	require.Len(t, rev, 1)
	assert.Equal(t, c2, rev[0].Commitment)
	d := rev[0].Deck
	assert.Len(t, d.Cards, 33)
	assert.Equal(t, "9h 6h Ts 8s", codes(d.Cards[:4]))
	live := gametest.Cards("Th 6s 7s")
	for _, c := range d.Cards {
		assert.NotContains(t, live, c)
	}
	assert.NoError(t, game.VerifyDeck(d.Preimage(), c2.String()))

	// Changing one card of the reveal, even for one that was in no deck of
	// the reshuffle, breaks it.
	changed := strings.Replace(d.Preimage(), "9h", "Th", 1)
	assert.ErrorIs(t, game.VerifyDeck(changed, c2.String()), game.ErrCommitmentMismatch)
}

func TestRuleFairnessCommitAndReveal(t *testing.T) {
	f := newFixture(t, "Th 6s 7s")
	f.game()
	cs := f.event(game.EventCircleStarted)
	c, ok := f.tb.Commitment()
	require.True(t, ok)
	assert.Equal(t, cs.Commitment, c, "published at the start of the circle")
	_, revealed := f.tb.Revealed()
	assert.False(t, revealed)

	f.timeout()
	f.timeout()
	now, _ := f.tb.Commitment()
	assert.Equal(t, c, now, "the same deck all circle long")
	f.timeout()
	rev := f.event(game.EventRevealed)
	assert.Equal(t, c, rev.Commitment)
	last, ok := f.tb.Revealed()
	assert.True(t, ok)
	assert.Equal(t, c, last)
	_, ok = f.tb.Commitment()
	assert.False(t, ok, "no deck in play between games")

	// The reveal is the order the cards were dealt in, and the salt.
	d := rev.Deck
	require.Len(t, d.Cards, game.DeckSize)
	assert.Equal(t, "Th 6s 7s", codes(d.Cards[:3]))
	pre := d.Preimage()
	assert.True(t, strings.HasPrefix(pre, "Th6s7s"))
	order, salt, _ := strings.Cut(pre, ":")
	assert.Len(t, order, 2*game.DeckSize)
	assert.Len(t, salt, 2*game.SaltSize)
	assert.Equal(t, c, d.Commitment())
	assert.NoError(t, game.VerifyDeck(pre, c.String()))
	assert.NoError(t, game.VerifyDeck(pre+"\n", strings.ToUpper(c.String())+" "))

	// Anything changed in the reveal fails the check.
	swapped := "6sTh" + pre[4:]
	assert.ErrorIs(t, game.VerifyDeck(swapped, c.String()), game.ErrCommitmentMismatch)
	oneCard := "Ts" + pre[2:] // the ten of spades now appears twice
	assert.Error(t, game.VerifyDeck(oneCard, c.String()))
	fewer := pre[2:]
	assert.ErrorIs(t, game.VerifyDeck(fewer, c.String()), game.ErrCommitmentMismatch)
	badSalt := order + ":" + strings.Repeat("0", 2*game.SaltSize)
	assert.ErrorIs(t, game.VerifyDeck(badSalt, c.String()), game.ErrCommitmentMismatch)

	// Each circle and each game commits to a new deck with a new salt.
	f.start(bob)
	c2 := f.event(game.EventCircleStarted).Commitment
	assert.NotEqual(t, c, c2)
}

func TestRuleStandUpBelowEntryLimitAtStart(t *testing.T) {
	f := newFixture(t)
	f.lobby(alice, bob, carol, dave)
	f.setBalance(carol, 50)
	f.setBalance(dave, 99)
	f.start(alice)
	so := f.events(game.EventStoodUp)
	require.Len(t, so, 2)
	for _, e := range so {
		assert.Equal(t, game.ReasonEntryLimit, e.Reason)
		assert.Contains(t, []game.UserID{carol, dave}, e.User)
	}
	assert.Equal(t, []game.UserID{alice, bob}, f.seated())
	assert.Equal(t, game.Betting, f.tb.Phase())
	assert.Len(t, f.tb.Players(), 2)

	// When fewer than two are left, the start stands them up and stays in
	// the lobby.
	f = newFixture(t)
	f.lobby(alice, bob)
	f.setBalance(bob, 10)
	f.start(alice)
	assert.Equal(t, []game.EventKind{game.EventStoodUp}, f.kinds())
	assert.Equal(t, game.Lobby, f.tb.Phase())
	assert.Equal(t, []game.UserID{alice}, f.seated())
	f.reject(game.Command{Kind: game.Start, User: alice}, game.ErrNotEnoughPlayers)

	// A lone player is refused as ever, below the limit too: nobody stands
	// up, and the table stays open.
	f = newFixture(t)
	f.lobby(alice)
	f.reject(game.Command{Kind: game.Start, User: alice}, game.ErrNotEnoughPlayers)
	f.setBalance(alice, 10)
	f.reject(game.Command{Kind: game.Start, User: alice}, game.ErrNotEnoughPlayers)
	assert.Equal(t, game.Lobby, f.tb.Phase())
	assert.Equal(t, []game.UserID{alice}, f.seated())

	// When nobody is left, the table closes.
	f = newFixture(t)
	f.lobby(alice, bob)
	f.setBalance(alice, 0)
	f.setBalance(bob, 0)
	f.start(alice)
	assert.Equal(t, game.Closed, f.tb.Phase())
	assert.Equal(t, game.ReasonEntryLimit, f.tb.ClosedBy())
}

func TestRulePlayAgainKeepsSeatsNextBanker(t *testing.T) {
	f := newFixture(t)
	f.lobby(alice, bob, carol)
	f.start(carol)
	assert.Equal(t, alice, f.banker())
	endByTimeouts(f)
	f.join(erin)
	var bankers []game.UserID
	for g := 2; g <= 5; g++ {
		f.start(game.UserID(g%3 + 1)) // any seated player starts
		assert.Equal(t, uint64(g), f.tb.Game())
		bankers = append(bankers, f.banker())
		endByTimeouts(f)
		assert.Equal(t, []game.UserID{alice, bob, carol, erin}, f.seated())
	}
	assert.Equal(t, []game.UserID{bob, carol, erin, alice}, bankers)
	f.balances(1000, 1000, 1000)
}

func TestRuleTableSeatsTwoToFour(t *testing.T) {
	f := newFixture(t)
	f.open(alice)
	f.reject(game.Command{Kind: game.Start, User: alice}, game.ErrNotEnoughPlayers)
	f.join(bob)
	f.join(carol)
	f.join(dave)
	f.reject(game.Command{Kind: game.Join, User: erin}, game.ErrTableFull)
	f.leave(dave)
	f.join(erin)
	assert.Equal(t, []game.UserID{alice, bob, carol, erin}, f.seated())

	f = newFixture(t)
	f.lobby(alice, bob)
	f.start(bob)
	assert.Equal(t, game.Betting, f.tb.Phase())
}

func TestRuleNoChipsSitsOut(t *testing.T) {
	f := newFixture(t, "Th 6s 7s")
	f.game()
	f.setBalance(carol, 0) // spent at another table of the chat
	f.timeout()
	assert.Equal(t, []game.EventKind{game.EventSatOut, game.EventSatOut, game.EventTurn}, f.kinds())
	so := f.events(game.EventSatOut)
	assert.Equal(t, carol, so[1].User)
	assert.Equal(t, game.ReasonNoChips, so[1].Reason)
	assert.Equal(t, dave, f.turn())
}

func TestRuleGameKeepsItsSettings(t *testing.T) {
	f := newFixture(t)
	f.game()
	f.settings.Stake = 50
	f.settings.BetOptions = []game.BetOption{{Kind: game.StakeTimes, N: 1}}
	f.settings.TurnTimeout = 10 * time.Minute
	assert.Equal(t, []int64{5, 10}, f.offers(), "the game plays by the settings it started with")
	f.timeout()
	assert.Equal(t, f.now.Add(time.Minute).UnixMilli(), f.tb.Deadline().UnixMilli())
	endByTimeouts(f)
	f.start(alice)
	assert.Equal(t, int64(50), f.tb.Bank())
	assert.Equal(t, []int64{50}, f.offers())
	assert.Equal(t, f.settings, f.tb.Settings())
}

func TestRuleLastPlayerLeavesLobby(t *testing.T) {
	f := newFixture(t)
	f.lobby(alice, bob)
	f.leave(alice)
	f.leave(bob)
	assert.Equal(t, []game.EventKind{game.EventLeft, game.EventClosed}, f.kinds())
	assert.Equal(t, game.Closed, f.tb.Phase())
	assert.Equal(t, game.ReasonEmpty, f.tb.ClosedBy())
	f.reject(game.Command{Kind: game.Leave, User: bob}, game.ErrNoTable)
}

func TestRuleChipsConserved(t *testing.T) {
	// Many games of ordinary play with a seeded deck, players coming and
	// going and the bonus topping up the poor; the fixture checks after
	// every command that balances plus the table's chips equal the grants.
	f := newFixture(t)
	rnd := game.NewRand(pcg(7))
	env := func() game.Env { e := f.env(); e.Rand = rnd; return e }
	users := []game.UserID{alice, bob, carol, dave, erin, frank}
	step := func(cmd game.Command) bool {
		if cmd.Name == "" {
			cmd.Name = names[cmd.User]
		}
		next, out, err := game.Apply(f.tb, cmd, env())
		if err != nil {
			return false
		}
		require.Equal(t, f.tb.Version()+1, next.Version())
		for _, tr := range out.Transfers {
			f.bal[tr.User] += tr.Amount
			require.GreaterOrEqual(t, f.bal[tr.User], int64(0))
		}
		f.tb, f.out = next, out
		f.requireInvariants()
		return true
	}
	games := 0
	for i := 0; games < 60 && i < 20000; i++ {
		u := users[i%len(users)]
		switch f.tb.Phase() {
		case game.Closed:
			step(game.Command{Kind: game.Open, User: u})
		case game.Lobby:
			if f.bal[u] < 100 {
				f.setBalance(u, f.bal[u]+100) // the daily bonus
			}
			if f.tb.NumSeats() < 2+i%3 {
				step(game.Command{Kind: game.Join, User: u})
			} else if step(game.Command{Kind: game.Start, User: f.tb.Seat(0).User}) && f.tb.Phase().InGame() {
				games++
			}
		case game.Betting:
			p := f.turn()
			offers := f.tb.Offers(f.bal[p])
			switch {
			case i%17 == 0:
				step(game.Command{Kind: game.Leave, User: p})
			case i%13 == 0:
				f.now = f.tb.Deadline()
				step(game.Command{Kind: game.Timeout})
			default:
				step(game.Command{Kind: game.Bet, User: p, Amount: offers[i%len(offers)].Amount})
			}
		case game.Drawing:
			p := f.turn()
			switch s := f.seat(p); {
			case i%29 == 0:
				step(game.Command{Kind: game.Leave, User: f.banker()})
			case s.Hand.Score() < 15+i%4:
				step(game.Command{Kind: game.Hit, User: p})
			default:
				step(game.Command{Kind: game.Stand, User: p})
			}
		}
	}
	assert.Equal(t, 60, games)
	sum := f.tb.Chips()
	for _, b := range f.bal {
		sum += b
	}
	assert.Equal(t, f.total, sum)
}

func TestLogKeepsTheWholeGame(t *testing.T) {
	circle := "Th Ts 7s 9h 6h 9s 6c"
	f := newFixture(t, circle, circle, circle, circle)
	f.game()
	for _, b := range []int64{10, 30, 90, 270} {
		for _, u := range []game.UserID{bob, carol} {
			f.bet(u, b)
			f.hit(u)
			f.hit(u)
		}
		if f.tb.Knocks() < 3 {
			f.timeout()
		}
	}
	f.bet(dave, 10)
	f.stand(dave)
	require.Equal(t, game.Lobby, f.tb.Phase())
	log := f.tb.Log()
	require.Len(t, log, 12, "every duel and every circle sat out of four circles of three")
	assert.True(t, f.tb.LogComplete())
	var bank int64 = 10
	for i, d := range log {
		assert.Equal(t, i/3+1, d.Circle, "line %d", i)
		assert.Equal(t, []game.UserID{bob, carol, dave}[i%3], d.User, "line %d", i)
		bank += d.Delta()
		if i%3 == 2 && i < 9 {
			assert.Equal(t, game.Duel{Circle: i/3 + 1, User: dave, Name: "Dave", Hand: hand(t, "7s"), Result: game.NoDuel, Reason: game.ReasonTimeout}, d)
		}
	}
	assert.Equal(t, game.BankerHigher, log[11].Result)
	assert.Equal(t, f.tb.Players()[0].Net+10, bank, "the lines add up to the bank the banker took")

	// The longest game fits whole: ten knocks, three players each circle.
	f = newFixture(t, slices.Repeat([]string{circle}, 11)...)
	f.settings.MaxKnocks = game.MaxKnocksLimit
	f.setBalance(bob, 1e9)
	f.setBalance(carol, 1e9)
	f.game()
	for f.tb.Phase() != game.Lobby {
		if f.turn() == dave {
			f.timeout()
			continue
		}
		f.bet(f.turn(), f.tb.Bank()) // two busts on the whole bank: a knock
		f.hit(f.turn())
		f.hit(f.turn())
	}
	require.Equal(t, game.MaxKnocksLimit, f.tb.Knocks())
	log = f.tb.Log()
	require.Len(t, log, game.LogSize)
	assert.True(t, f.tb.LogComplete())
	assert.Equal(t, 1, log[0].Circle)
	assert.Equal(t, bob, log[0].User)
	assert.Equal(t, 11, log[game.LogSize-1].Circle)
	dec, err := game.Decode(f.encode(f.tb))
	require.NoError(t, err)
	assert.Equal(t, log, dec.Log())

	// The next game starts a new log.
	f.start(alice)
	assert.Empty(t, f.tb.Log())
}
