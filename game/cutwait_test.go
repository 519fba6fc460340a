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

// The cut: every deck waits for a seated player's cut before its first card
// (Env.CutWait), its seed the next link of the table's chain. Decks are
// stacked (gametest.Stacked ignores seed and cut) unless a test derives
// them by the rules.

// newCutFixture is newFixture with the cut asked for: the bot's wait, and a
// chain of 100 links of the fixture's own.
func newCutFixture(t testing.TB, decks ...string) *fixture {
	f := newFixture(t, decks...)
	f.cutWait = game.DefaultCutWait
	f.links = gametest.NewLinks(7, 100)
	return f
}

func (f *fixture) cut(u game.UserID, text string) game.Outcome {
	return f.apply(game.Command{Kind: game.Cut, User: u, Text: text})
}

// canonical returns the 36 cards in canonical order.
func canonical() []game.Card {
	cs := make([]game.Card, game.DeckSize)
	for i := range cs {
		cs[i] = game.Card(i + 1)
	}
	return cs
}

func cutRecord(t testing.TB, e game.Event) *game.CutRecord {
	t.Helper()
	r, ok := e.Record.(*game.CutRecord)
	require.True(t, ok, "a record of %s, not %T", game.SchemeCut, e.Record)
	return r
}

func TestCutAskedBeforeTheFirstCard(t *testing.T) {
	f := newCutFixture(t, "Th 9d As")
	f.game()
	assert.Equal(t, []game.EventKind{game.EventStarted, game.EventCircleStarted, game.EventCutAsked}, f.kinds())
	assert.Equal(t, game.Cutting, f.tb.Phase())
	f.transfers(tr(alice, game.TransferStake, -10))

	// The deck is the chain's first: committed to by the head, shown
	// before anyone is asked to cut.
	head := f.links.Chain.Head()
	ask := f.event(game.EventCutAsked)
	assert.Equal(t, bob, ask.User, "the player after the banker is asked")
	assert.Equal(t, game.Commitment(head), ask.Commitment)
	assert.Equal(t, int64(1), ask.Amount, "the circle's first deck")
	assert.Equal(t, ask.Commitment, f.event(game.EventCircleStarted).Commitment)
	cm, ok := f.tb.Commitment()
	assert.True(t, ok)
	assert.Equal(t, ask.Commitment, cm)
	c, ok := f.tb.Cut()
	require.True(t, ok)
	assert.True(t, c.Deadline.Equal(t0.Add(game.DefaultCutWait)), "the cut wait: %v", c.Deadline)
	c.Deadline = time.Time{}
	assert.Equal(t, game.CutState{Waiting: true, Asked: bob, Commitment: ask.Commitment, Link: 1, Head: head, Deck: 1}, c)
	assert.True(t, f.tb.Deadline().Equal(t0.Add(game.DefaultCutWait)))
	_, turn := f.tb.Turn()
	assert.False(t, turn, "nobody moves while the deck waits")
	assert.True(t, f.tb.TurnStarted().Equal(t0), "the cut wait's clock started with the start: %v", f.tb.TurnStarted())
	for _, s := range f.tb.Seats() {
		assert.Zero(t, s.Hand.Len(), "no card before the cut")
	}
	b, ok := f.tb.Banker()
	assert.True(t, ok)
	assert.Equal(t, 0, b)

	// Any seated player may cut, the one asked or not; the deck is dealt
	// at once.
	f.cut(carol, "fortune favours the bold")
	assert.Equal(t, []game.EventKind{game.EventCut, game.EventDealt, game.EventDealt, game.EventDealt,
		game.EventTurn}, f.kinds())
	assert.Equal(t, carol, f.event(game.EventCut).User)
	assert.Equal(t, "Th", f.hand(bob))
	assert.Equal(t, "9d", f.hand(carol))
	assert.Equal(t, "As", f.hand(dave))
	assert.Equal(t, game.Betting, f.tb.Phase())
	assert.Equal(t, bob, f.turn())
	assert.True(t, f.now.Add(time.Minute).Equal(f.tb.Deadline()), "the turn's clock, not the cut's")
	c, ok = f.tb.Cut()
	require.True(t, ok)
	assert.Equal(t, game.CutState{By: carol, Cut: []byte("fortune favours the bold"), Commitment: ask.Commitment,
		Link: 1, Head: head, Deck: 1}, c)
	cm, _ = f.tb.Commitment()
	assert.Equal(t, ask.Commitment, cm, "the commitment stays while the deck is played")

	// Its record names everything a stranger needs.
	endByTimeouts(f)
	r := cutRecord(t, f.event(game.EventRevealed))
	assert.Equal(t, &game.CutRecord{Head: head, Link: 1, Seed: f.links.Link(1), Game: 1, Circle: 1, Deck: 1,
		Cut: []byte("fortune favours the bold"), Cards: canonical(), Dealt: gametest.Cards("Th 9d As")}, r)
	assert.Equal(t, game.Commitment(head), f.event(game.EventRevealed).Commitment)
}

func TestCutDerivesTheDeck(t *testing.T) {
	f := newCutFixture(t)
	f.derived = true
	f.game()
	f.cut(bob, "tap:2")
	want, err := game.DeriveOrder(f.links.Link(1), 1, 1, 1, []byte("tap:2"), canonical())
	require.NoError(t, err)
	assert.Equal(t, codes(want[:1]), f.hand(bob))
	assert.Equal(t, codes(want[1:2]), f.hand(carol))
	assert.Equal(t, codes(want[2:3]), f.hand(dave))
	assert.Equal(t, want[3:], game.DeckLeft(&f.tb))

	// The record verifies: the seed is the chain's link 1, the deck the
	// one its inputs give, the cards dealt its top.
	f.bet(bob, 5)
	f.hit(bob)
	endByTimeouts(f)
	r := cutRecord(t, f.event(game.EventRevealed))
	order, err := r.Verify()
	require.NoError(t, err)
	assert.Equal(t, want, order)
	assert.GreaterOrEqual(t, len(r.Dealt), 4)
	assert.Equal(t, want[:len(r.Dealt)], r.Dealt)
	line, err := game.ParseRecord(r.String())
	require.NoError(t, err)
	_, err = line.Verify()
	assert.NoError(t, err, "the record's line verifies too")

	// Another cut of the same seed, another deck.
	g := newCutFixture(t)
	g.derived = true
	g.game()
	g.cut(bob, "tap:3")
	other, err := game.DeriveOrder(g.links.Link(1), 1, 1, 1, []byte("tap:3"), canonical())
	require.NoError(t, err)
	assert.Equal(t, other[3:], game.DeckLeft(&g.tb))
	assert.NotEqual(t, want, other)
}

func TestCutWaitTimesOut(t *testing.T) {
	f := newCutFixture(t, "Th 9d As")
	f.game()
	f.now = f.tb.Deadline().Add(-time.Millisecond)
	f.reject(game.Command{Kind: game.Timeout}, game.ErrTooEarly)

	// Nobody cut: the deck is dealt not cut.
	f.timeout()
	assert.Equal(t, []game.EventKind{game.EventCut, game.EventDealt, game.EventDealt, game.EventDealt,
		game.EventTurn}, f.kinds())
	assert.Equal(t, game.UserID(0), f.event(game.EventCut).User)
	assert.Equal(t, "Th", f.hand(bob))
	c, _ := f.tb.Cut()
	assert.Equal(t, game.UserID(0), c.By)
	assert.Empty(t, c.Cut)
	err := f.reject(game.Command{Kind: game.Cut, User: bob, Text: "late"}, game.ErrCutTooLate)
	assert.Equal(t, game.KindNotAllowed, game.Kind(err))
	endByTimeouts(f)
	r := cutRecord(t, f.event(game.EventRevealed))
	assert.Empty(t, r.Cut, "the record says not cut")
	assert.Contains(t, r.String(), " cut=- ")

	// The wait is never longer than the turn.
	f = newCutFixture(t)
	f.settings.TurnTimeout = game.MinTurnTimeout
	f.game()
	assert.True(t, t0.Add(game.MinTurnTimeout).Equal(f.tb.Deadline()))
	f = newCutFixture(t)
	f.cutWait = 3 * time.Second
	f.game()
	assert.True(t, t0.Add(3*time.Second).Equal(f.tb.Deadline()))
}

func TestCutRefused(t *testing.T) {
	inWait := func(f *fixture) { f.game() }
	cut := func(u game.UserID, text string) game.Command {
		return game.Command{Kind: game.Cut, User: u, Text: text}
	}
	tests := []struct {
		name  string
		setup func(f *fixture)
		cmd   game.Command
		want  error
		kind  game.ErrorKind
	}{
		{"a cut past 256 bytes", inWait, cut(bob, strings.Repeat("✂", 86)), game.ErrCutTooLong, game.KindInvalid},
		{"an empty cut", inWait, cut(bob, ""), game.ErrInvalidInput, game.KindInvalid},
		{"no table", func(*fixture) {}, cut(bob, "x"), game.ErrNoTable, game.KindNotAllowed},
		{"the lobby", func(f *fixture) { f.lobby(alice, bob) }, cut(bob, "x"), game.ErrNoCutAsked, game.KindNotAllowed},
		{"not seated", inWait, cut(erin, "x"), game.ErrNotSeated, game.KindNotAllowed},
		{"the house", func(f *fixture) { f.house = dave; f.game() }, cut(dave, "x"), game.ErrHouseCannotCut, game.KindNotAllowed},
		{"a player who left", func(f *fixture) { f.game(); f.leave(carol) }, cut(carol, "x"), game.ErrNotSeated, game.KindNotAllowed},
		{"a player kicked", func(f *fixture) { f.game(); f.kick(carol) }, cut(carol, "x"), game.ErrNotSeated, game.KindNotAllowed},
		{"a second cut", func(f *fixture) { f.game(); f.cut(bob, "first") }, cut(carol, "second"), game.ErrAlreadyCut, game.KindNotAllowed},
		{"after the first card, nobody cut", func(f *fixture) { f.game(); f.timeout() }, cut(bob, "x"), game.ErrCutTooLate, game.KindNotAllowed},
		{"no cut asked: the decks of before", func(f *fixture) { f.cutWait = 0; f.game() }, cut(bob, "x"), game.ErrCutTooLate, game.KindNotAllowed},
		{"a stale button", inWait, game.Command{Kind: game.Cut, User: bob, Text: "tap:1", Version: 1}, game.ErrOutdated, game.KindOutdated},
		{"a bet before the deal", inWait, game.Command{Kind: game.Bet, User: bob, Amount: 5}, game.ErrWrongPhase, game.KindNotAllowed},
		{"a draw before the deal", inWait, game.Command{Kind: game.Hit, User: bob}, game.ErrWrongPhase, game.KindNotAllowed},
		{"a stand before the deal", inWait, game.Command{Kind: game.Stand, User: bob}, game.ErrWrongPhase, game.KindNotAllowed},
		{"a join during the game", inWait, game.Command{Kind: game.Join, User: erin}, game.ErrGameInProgress, game.KindNotAllowed},
		{"a start during the game", inWait, game.Command{Kind: game.Start, User: bob}, game.ErrGameInProgress, game.KindNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newCutFixture(t, "Th 9d As")
			tt.setup(f)
			err := f.reject(tt.cmd, tt.want)
			assert.Equal(t, tt.kind, game.Kind(err), "%v", err)
		})
	}

	// 256 bytes are a cut.
	f := newCutFixture(t)
	f.game()
	f.cut(bob, strings.Repeat("x", game.MaxCutLen))
	assert.Len(t, cutOf(t, f).Cut, game.MaxCutLen)
}

func cutOf(t testing.TB, f *fixture) game.CutState {
	t.Helper()
	c, ok := f.tb.Cut()
	require.True(t, ok)
	return c
}

func TestCutWhoIsAsked(t *testing.T) {
	tests := []struct {
		name   string
		seats  []game.UserID
		banker int
		house  game.UserID
		asked  game.UserID
	}{
		{"the player after the banker", []game.UserID{alice, bob, carol}, 0, 0, bob},
		{"round the table", []game.UserID{alice, bob, carol}, 2, 0, alice},
		{"never the house", []game.UserID{alice, bob, carol}, 0, bob, carol},
		{"solo, the house banks: the player", []game.UserID{alice, dave}, 1, dave, alice},
		{"solo, the player banks: the player", []game.UserID{alice, dave}, 0, dave, alice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newCutFixture(t, "Th 9d As")
			f.house = tt.house
			f.rnd.Banker = tt.banker
			f.lobby(tt.seats...)
			f.start(tt.seats[0])
			assert.Equal(t, tt.asked, f.event(game.EventCutAsked).User)
			assert.Equal(t, tt.asked, cutOf(t, f).Asked)
			f.cut(tt.asked, "tap:1") // the one asked may cut, the banker too
			assert.Equal(t, game.Betting, f.tb.Phase())
		})
	}
}

// TestCutReshuffle: a deck that runs out in the middle of a duel waits for
// the cut of the new one, which resumes the draw that needed a card: the
// player's, or the banker's.
func TestCutReshuffle(t *testing.T) {
	f := newCutFixture(t, "Th 6s 7s", "9h 6h Ts 8s")
	f.game()
	f.cut(bob, "tap:1")
	f.bet(bob, 5)
	game.ExhaustDeck(&f.tb, 0)
	f.requireInvariants()

	// The Hit that found no card waits for the new deck's cut.
	f.hit(bob)
	assert.Equal(t, []game.EventKind{game.EventRevealed, game.EventReshuffled, game.EventCutAsked}, f.kinds())
	old := cutRecord(t, f.event(game.EventRevealed))
	assert.Equal(t, f.links.Link(1), old.Seed)
	assert.Len(t, old.Dealt, game.DeckSize, "every card was drawn")
	ask := f.event(game.EventCutAsked)
	assert.Equal(t, game.Commitment(old.Seed), ask.Commitment, "the next link is committed to by the seed just revealed")
	assert.Equal(t, int64(2), ask.Amount, "the circle's second deck")
	c := cutOf(t, f)
	assert.Equal(t, uint32(2), c.Link)
	assert.True(t, c.Waiting)
	assert.Equal(t, bob, c.Resumes)
	assert.Equal(t, 2, c.Deck)
	assert.Equal(t, "Th", f.hand(bob))
	assert.Equal(t, int64(5), f.seat(bob).Bet, "the bet stays on the table")
	_, turn := f.tb.Turn()
	assert.False(t, turn, "nobody moves while the deck waits, the player whose card ran out neither")
	assert.True(t, f.tb.TurnStarted().Equal(f.now), "the cut wait's clock started with the Hit")
	assert.Equal(t, game.Cutting, f.tb.Phase())

	// The cut completes the Hit.
	f.cut(dave, "shuffle it well")
	assert.Equal(t, []game.EventKind{game.EventCut, game.EventDrew}, f.kinds())
	assert.Equal(t, "Th 9h", f.hand(bob))
	assert.Equal(t, game.Drawing, f.tb.Phase())
	assert.Equal(t, bob, f.turn())
	assert.Len(t, game.DeckLeft(&f.tb), 32)

	f.stand(bob) // 19 against 6 10 8 = 24
	assert.Equal(t, game.BankerBust, f.duel().Result)
	endByTimeouts(f)
	r := cutRecord(t, f.event(game.EventRevealed))
	assert.Equal(t, uint32(2), r.Link)
	assert.Equal(t, uint32(2), r.Deck)
	assert.Equal(t, []byte("shuffle it well"), r.Cut)
	assert.Len(t, r.Cards, 33, "every card but those in live hands")
	assert.True(t, slices.IsSorted(r.Cards))
	assert.NotContains(t, r.Cards, gametest.Cards("Th")[0])
	assert.Equal(t, gametest.Cards("9h 6h Ts 8s"), r.Dealt)

	// The banker's draws wait the same, and go on from the cards drawn.
	f = newCutFixture(t, "Th 6s 7s", "6h")
	f.game()
	f.cut(bob, "tap:1")
	f.bet(bob, 5)
	game.ExhaustDeck(&f.tb, 1) // the ace of clubs is left
	f.stand(bob)
	assert.Equal(t, []game.EventKind{game.EventBankerDrew, game.EventRevealed, game.EventReshuffled,
		game.EventCutAsked}, f.kinds())
	assert.Equal(t, bob, cutOf(t, f).Resumes)
	f.timeout()
	assert.Equal(t, []game.EventKind{game.EventCut, game.EventBankerDrew, game.EventDuelEnded, game.EventTurn}, f.kinds())
	d := f.duel()
	assert.Equal(t, "Ac 6h", codes(d.Banker.Cards()))
	assert.Equal(t, game.BankerHigher, d.Result, "10 against 17")
	assert.Equal(t, game.ReasonNone, d.Reason)
	assert.Equal(t, carol, f.turn())

	// ... keeping why the banker plays: the player's time ran out.
	f = newCutFixture(t, "Th 6s 7s", "6h")
	f.game()
	f.cut(bob, "tap:1")
	f.bet(bob, 5)
	game.ExhaustDeck(&f.tb, 1)
	f.timeout() // Bob stands by the clock
	f.cut(carol, "tap:2")
	assert.Equal(t, game.ReasonTimeout, f.duel().Reason)
}

func TestCutWaitAndLeaving(t *testing.T) {
	// A player who leaves before the deal sits the circle out, with no card.
	f := newCutFixture(t, "Th 9d As")
	f.game()
	f.leave(carol)
	assert.Equal(t, []game.EventKind{game.EventLeft, game.EventSatOut}, f.kinds())
	f.cut(bob, "tap:1")
	assert.Equal(t, "Th", f.hand(bob))
	assert.Equal(t, "9d", f.hand(dave))
	require.NotEmpty(t, f.tb.Log())
	assert.Equal(t, game.Duel{Circle: 1, User: carol, Name: "Carol", Result: game.NoDuel, Reason: game.ReasonLeft}, f.tb.Log()[0])

	// The one asked leaving asks the next.
	f = newCutFixture(t)
	f.game()
	f.kick(bob)
	assert.Equal(t, carol, cutOf(t, f).Asked)
	f.leave(carol)
	assert.Equal(t, dave, cutOf(t, f).Asked)

	// The player whose card ran out leaves: the bet is lost, the deck
	// still waits, and its cut plays the next duel.
	f = newCutFixture(t, "Th 6s 7s", "9h")
	f.game()
	f.cut(bob, "tap:1")
	f.bet(bob, 5)
	game.ExhaustDeck(&f.tb, 0)
	f.hit(bob)
	f.leave(bob)
	assert.Equal(t, []game.EventKind{game.EventLeft, game.EventDuelEnded}, f.kinds())
	assert.Equal(t, game.Forfeit, f.duel().Result)
	assert.Equal(t, int64(15), f.tb.Bank())
	assert.Equal(t, game.Cutting, f.tb.Phase())
	assert.Equal(t, game.UserID(0), cutOf(t, f).Resumes)
	f.cut(carol, "tap:2")
	assert.Equal(t, []game.EventKind{game.EventCut, game.EventTurn}, f.kinds())
	assert.Equal(t, carol, f.turn())
	assert.Equal(t, game.Betting, f.tb.Phase())
	assert.Len(t, game.DeckLeft(&f.tb), 34, "Bob's card went into the new deck")

	// ... and the banker's cards drawn for that duel go with it.
	f = newCutFixture(t, "Th 6s 7s", "9h")
	f.game()
	f.cut(bob, "tap:1")
	f.bet(bob, 5)
	game.ExhaustDeck(&f.tb, 1)
	f.stand(bob)
	f.leave(bob)
	assert.Equal(t, game.Forfeit, f.duel().Result)
	f.timeout()
	assert.Len(t, game.DeckLeft(&f.tb), 34)

	// The banker leaving ends the game; no deck was dealt, none is
	// revealed, and its link goes back to the chain: the next deck takes
	// it, so that none is skipped.
	f = newCutFixture(t)
	f.game()
	f.leave(alice)
	assert.Empty(t, f.events(game.EventRevealed))
	assert.Equal(t, game.Lobby, f.tb.Phase())
	f.transfers(tr(alice, game.TransferBank, 10))
	assert.Len(t, f.events(game.EventSatOut), 3)
	assert.Equal(t, uint32(0), f.links.Taken)
	f.start(bob)
	assert.Equal(t, uint32(1), cutOf(t, f).Link)

	// Cancelled while the new deck waits: the bet goes back.
	f = newCutFixture(t, "Th 6s 7s")
	f.game()
	f.cut(bob, "tap:1")
	f.bet(bob, 5)
	game.ExhaustDeck(&f.tb, 1)
	f.stand(bob)
	require.Equal(t, game.Cutting, f.tb.Phase())
	f.cancel()
	f.transfers(tr(bob, game.TransferRefund, 5), tr(alice, game.TransferBank, 10))
	assert.Empty(t, f.events(game.EventRevealed), "the deck that waited was never dealt")
	assert.Equal(t, game.Closed, f.tb.Phase())
	assert.Equal(t, uint32(1), f.links.Taken, "link 2 goes back")
}

// TestCutChain: every deck takes the next link of the table's chain, and
// is committed to by the one before, revealed with the deck before it.
func TestCutChain(t *testing.T) {
	f := newCutFixture(t)
	f.game()
	first := cutOf(t, f)
	endByTimeouts(f)
	r1 := cutRecord(t, f.event(game.EventRevealed))
	f.start(bob) // play again
	second := cutOf(t, f)
	assert.Equal(t, uint32(1), first.Link)
	assert.Equal(t, uint32(2), second.Link)
	assert.Equal(t, game.Commitment(r1.Seed), second.Commitment)
	assert.Equal(t, game.Commitment(r1.Seed), f.event(game.EventCutAsked).Commitment)
	assert.Equal(t, first.Head, second.Head)
	assert.Equal(t, uint32(2), f.links.Taken)
	assert.Equal(t, r1.Seed.Hash(), f.links.Chain.Head())

	// A knock's circle asks for a cut too.
	f = newCutFixture(t, "Th Ts 7s 9h 6h 9s 6c", "6d 7d 8d")
	f.game()
	f.cut(bob, "tap:1")
	f.bet(bob, 10)
	f.hit(bob)
	f.hit(bob)
	f.bet(carol, 10)
	f.hit(carol)
	f.hit(carol)
	f.timeout() // Dave sits out; the bank tripled
	assert.Equal(t, []game.EventKind{game.EventSatOut, game.EventRevealed, game.EventKnocked,
		game.EventCircleStarted, game.EventCutAsked}, f.kinds())
	r := cutRecord(t, f.event(game.EventRevealed))
	assert.Equal(t, game.Commitment(r.Seed), f.event(game.EventCutAsked).Commitment)
	f.cut(carol, "tap:3")
	assert.Equal(t, "6d", f.hand(bob))
	endByTimeouts(f)
	r = cutRecord(t, f.event(game.EventRevealed))
	assert.Equal(t, uint32(2), r.Circle)
	assert.Equal(t, uint32(1), r.Deck)
	assert.Equal(t, uint32(2), r.Link)

	// A seed source that fails rejects the command: nothing changes.
	f = newCutFixture(t)
	f.links = gametest.NewLinks(1, 0)
	f.lobby(alice, bob)
	f.reject(game.Command{Kind: game.Start, User: alice}, game.ErrInternal)
}

// TestRelink: a deck waiting for its cut takes another link in place of
// its own (a store restored from a copy): its commitment is the new
// link's, the wait and its deadline stay, the version moves on, the cut
// then derives from the new seed and the record names the new link; a
// table not waiting is left as it is.
func TestRelink(t *testing.T) {
	f := newCutFixture(t)
	f.derived = true
	f.game()
	before, _ := f.tb.Cut()
	version := f.tb.Version()
	other := gametest.NewLinks(9, 10)
	l, err := other.NextLink()
	require.NoError(t, err)
	require.True(t, f.tb.Relink(l))
	f.requireInvariants()
	after, ok := f.tb.Cut()
	require.True(t, ok)
	assert.True(t, after.Waiting)
	assert.Equal(t, before.Deadline, after.Deadline, "the wait stays")
	assert.Equal(t, before.Asked, after.Asked)
	assert.Equal(t, game.Commitment(l.Seed.Hash()), after.Commitment)
	assert.Equal(t, l.Head, after.Head)
	assert.Equal(t, uint32(1), after.Link)
	assert.Equal(t, version+1, f.tb.Version(), "the buttons of before are stale")

	f.cut(bob, "tap:1")
	want, err := game.DeriveOrder(l.Seed, 1, 1, 1, []byte("tap:1"), canonical())
	require.NoError(t, err)
	assert.Equal(t, codes(want[:1]), f.hand(bob), "dealt from the new seed")
	assert.False(t, f.tb.Relink(l), "a deck dealt from keeps its link")
	endByTimeouts(f)
	r := cutRecord(t, f.event(game.EventRevealed))
	assert.Equal(t, l.Seed, r.Seed)
	assert.Equal(t, l.Head, r.Head)
	_, err = r.Verify()
	require.NoError(t, err)
	assert.False(t, f.tb.Relink(l), "no game, no deck")
}
