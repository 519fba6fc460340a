package game_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// The players of the scenarios, seated in this order.
const (
	alice game.UserID = iota + 1
	bob
	carol
	dave
	erin
	frank
)

var names = map[game.UserID]string{alice: "Alice", bob: "Bob", carol: "Carol", dave: "Dave", erin: "Erin", frank: "Frank"}

// t0 is when every scenario starts.
var t0 = time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)

// fixture plays commands on one table the way the bot and storage do: it
// keeps the balances up to date from the transfers, and after every applied
// command it checks what must always hold.
type fixture struct {
	t        testing.TB
	tb       game.Table
	bal      game.BalanceMap
	rnd      *gametest.Stacked
	settings game.Settings
	now      time.Time
	// total is every chip granted: balances plus the table's chips.
	total int64
	// out is the outcome of the last applied command.
	out game.Outcome
	// The cut: how long a deck waits for it (0: none is asked), the
	// table's chain, the house, and whether decks are derived by the
	// rules rather than stacked.
	cutWait time.Duration
	links   *gametest.Links
	house   game.UserID
	derived bool
}

// newFixture returns a closed table, Alice to Frank with 1000 chips each and
// the default settings; decks are the circles' decks, top first, as card
// codes; Alice is the first banker.
func newFixture(t testing.TB, decks ...string) *fixture {
	t.Helper()
	f := &fixture{t: t, bal: game.BalanceMap{}, rnd: gametest.Deck(decks...), settings: game.DefaultSettings(), now: t0}
	for u := range names {
		f.setBalance(u, 1000)
	}
	return f
}

// setBalance sets a balance from outside the table: a grant, or the
// result of play at another table of the chat.
func (f *fixture) setBalance(u game.UserID, n int64) {
	f.total += n - f.bal[u]
	f.bal[u] = n
}

func (f *fixture) env() game.Env {
	env := game.Env{Now: f.now, Rand: f.rnd, Settings: f.settings.Clone(), Balances: f.bal,
		CutWait: f.cutWait, House: f.house}
	if f.links != nil {
		env.Seeds = f.links
	}
	if !f.derived {
		env.Deriver = f.rnd
	}
	return env
}

func (f *fixture) encode(tb game.Table) []byte {
	f.t.Helper()
	b, err := tb.MarshalBinary()
	require.NoError(f.t, err)
	return b
}

// apply applies cmd, made for the table's current version, and fails the
// test when it is rejected or breaks an invariant.
func (f *fixture) apply(cmd game.Command) game.Outcome {
	f.t.Helper()
	if cmd.Version == 0 {
		cmd.Version = f.tb.Version()
	}
	if cmd.Name == "" {
		cmd.Name = names[cmd.User]
	}
	before := f.encode(f.tb)
	next, out, err := game.Apply(f.tb, cmd, f.env())
	require.NoError(f.t, err, "%s by %d", cmd.Kind, cmd.User)
	require.Equal(f.t, before, f.encode(f.tb), "Apply changed the table it was given")
	require.Equal(f.t, f.tb.Version()+1, next.Version(), "version")
	for _, tr := range out.Transfers {
		require.NotZero(f.t, tr.Amount, "empty transfer %+v", tr)
		f.bal[tr.User] += tr.Amount
		require.GreaterOrEqual(f.t, f.bal[tr.User], int64(0), "balance of %d after %+v", tr.User, tr)
	}
	f.tb, f.out = next, out
	f.requireInvariants()
	return out
}

func (f *fixture) requireInvariants() {
	f.t.Helper()
	sum := f.tb.Chips()
	for _, b := range f.bal {
		sum += b
	}
	require.Equal(f.t, f.total, sum, "chips are conserved")
	enc := f.encode(f.tb)
	dec, err := game.Decode(enc)
	require.NoError(f.t, err, "the table decodes")
	require.Equal(f.t, enc, f.encode(dec), "the encoding round-trips")
}

// reject applies cmd and requires it to be rejected with want, leaving the
// table as it was.
func (f *fixture) reject(cmd game.Command, want error) error {
	f.t.Helper()
	if cmd.Name == "" {
		cmd.Name = names[cmd.User]
	}
	before := f.encode(f.tb)
	next, out, err := game.Apply(f.tb, cmd, f.env())
	require.ErrorIs(f.t, err, want, "%s by %d", cmd.Kind, cmd.User)
	assert.Equal(f.t, before, f.encode(next), "a rejected command returns the table it was given")
	assert.Equal(f.t, before, f.encode(f.tb))
	assert.Equal(f.t, game.Outcome{}, out, "a rejected command has no outcome")
	return err
}

func (f *fixture) open(u game.UserID) game.Outcome {
	return f.apply(game.Command{Kind: game.Open, User: u})
}

func (f *fixture) join(u game.UserID) game.Outcome {
	return f.apply(game.Command{Kind: game.Join, User: u})
}

// lobby opens the table by the first user and seats the others.
func (f *fixture) lobby(users ...game.UserID) {
	f.t.Helper()
	f.open(users[0])
	for _, u := range users[1:] {
		f.join(u)
	}
	require.Equal(f.t, users, f.seated())
}

func (f *fixture) start(u game.UserID) game.Outcome {
	return f.apply(game.Command{Kind: game.Start, User: u})
}

// game seats alice to dave and starts a game, Alice being the banker.
func (f *fixture) game() {
	f.t.Helper()
	f.lobby(alice, bob, carol, dave)
	f.start(alice)
}

func (f *fixture) bet(u game.UserID, amount int64) game.Outcome {
	return f.apply(game.Command{Kind: game.Bet, User: u, Amount: amount})
}

func (f *fixture) hit(u game.UserID) game.Outcome {
	return f.apply(game.Command{Kind: game.Hit, User: u})
}

func (f *fixture) stand(u game.UserID) game.Outcome {
	return f.apply(game.Command{Kind: game.Stand, User: u})
}

func (f *fixture) leave(u game.UserID) game.Outcome {
	return f.apply(game.Command{Kind: game.Leave, User: u})
}

func (f *fixture) kick(u game.UserID) game.Outcome {
	return f.apply(game.Command{Kind: game.Kick, User: alice, Target: u})
}

func (f *fixture) cancel() game.Outcome {
	return f.apply(game.Command{Kind: game.Cancel, User: alice})
}

// timeout moves the clock to the deadline and times out.
func (f *fixture) timeout() game.Outcome {
	f.t.Helper()
	require.False(f.t, f.tb.Deadline().IsZero(), "a deadline is set")
	f.now = f.tb.Deadline()
	return f.apply(game.Command{Kind: game.Timeout})
}

func (f *fixture) seated() []game.UserID {
	var us []game.UserID
	for _, s := range f.tb.Seats() {
		us = append(us, s.User)
	}
	return us
}

// turn returns whose duel is being played.
func (f *fixture) turn() game.UserID {
	f.t.Helper()
	i, ok := f.tb.Turn()
	require.True(f.t, ok, "somebody's turn")
	return f.tb.Seat(i).User
}

func (f *fixture) banker() game.UserID {
	f.t.Helper()
	i, ok := f.tb.Banker()
	require.True(f.t, ok, "a banker")
	return f.tb.Seat(i).User
}

func (f *fixture) seat(u game.UserID) game.Seat {
	f.t.Helper()
	i, ok := f.tb.SeatOf(u)
	require.True(f.t, ok, "%s is seated", names[u])
	return f.tb.Seat(i)
}

// hand returns the codes of u's hand.
func (f *fixture) hand(u game.UserID) string { return codes(f.seat(u).Hand.Cards()) }

func codes(cs []game.Card) string {
	s := ""
	for i, c := range cs {
		if i > 0 {
			s += " "
		}
		s += c.Code()
	}
	return s
}

// offers returns the amounts offered to the player whose turn it is.
func (f *fixture) offers() []int64 {
	var as []int64
	for _, o := range f.tb.Offers(f.bal[f.turn()]) {
		as = append(as, o.Amount)
	}
	return as
}

// balances asserts the balances of the given users, in the order alice,
// bob, carol, dave.
func (f *fixture) balances(want ...int64) {
	f.t.Helper()
	for i, w := range want {
		u := game.UserID(i + 1)
		assert.Equal(f.t, w, f.bal[u], "balance of %s", names[u])
	}
}

// kinds returns the kinds of the last outcome's events.
func (f *fixture) kinds() []game.EventKind {
	var ks []game.EventKind
	for _, e := range f.out.Events {
		ks = append(ks, e.Kind)
	}
	return ks
}

// events returns the last outcome's events of kind k.
func (f *fixture) events(k game.EventKind) []game.Event {
	var es []game.Event
	for _, e := range f.out.Events {
		if e.Kind == k {
			es = append(es, e)
		}
	}
	return es
}

// event returns the one event of kind k of the last outcome.
func (f *fixture) event(k game.EventKind) game.Event {
	f.t.Helper()
	es := f.events(k)
	require.Len(f.t, es, 1, "one %s event in %v", k, f.kinds())
	return es[0]
}

// duel returns the result of the duel the last command ended.
func (f *fixture) duel() game.Duel { return f.event(game.EventDuelEnded).Duel }

func tr(u game.UserID, k game.TransferKind, amount int64) game.Transfer {
	return game.Transfer{User: u, Kind: k, Amount: amount}
}

// transfers asserts the last outcome's transfers.
func (f *fixture) transfers(want ...game.Transfer) {
	f.t.Helper()
	assert.Equal(f.t, want, f.out.Transfers)
}

// hand returns the hand of the given card codes.
func hand(t testing.TB, codes string) game.Hand {
	t.Helper()
	var cs []game.Card
	for _, s := range strings.Fields(codes) {
		c, err := game.ParseCard(s)
		require.NoError(t, err, s)
		cs = append(cs, c)
	}
	return game.NewHand(cs...)
}
