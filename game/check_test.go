package game

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// midGame returns a table in a game of four, Bob (2) drawing with a bet of
// 5 after one card.
func midGame(t *testing.T) Table {
	t.Helper()
	env := Env{Now: time.Unix(1_700_000_000, 0), Rand: NewRand(rand.NewPCG(3, 4)), Settings: DefaultSettings(),
		Balances: BalanceMap{1: 1000, 2: 1000, 3: 1000, 4: 1000}}
	var tb Table
	for _, c := range []Command{
		{Kind: Open, User: 1, Name: "Alice"}, {Kind: Join, User: 2, Name: "Bob"}, {Kind: Join, User: 3, Name: "Carol"},
		{Kind: Join, User: 4, Name: "Dave"}, {Kind: Start, User: 1},
	} {
		var err error
		tb, _, err = Apply(tb, c, env)
		require.NoError(t, err)
	}
	// Find whose turn it is and bet.
	u := tb.seats[tb.turn].User
	var err error
	tb, _, err = Apply(tb, Command{Kind: Bet, User: u, Amount: 5}, env)
	require.NoError(t, err)
	require.Equal(t, Drawing, tb.phase)
	return tb
}

func TestCheckCatchesImpossibleTables(t *testing.T) {
	base := midGame(t)
	enc, err := base.MarshalBinary()
	require.NoError(t, err)
	_, err = Decode(enc)
	require.NoError(t, err)
	waiting := -1
	for i := range base.seats[:base.nseats] {
		if base.seats[i].State == Waiting {
			waiting = i
		}
	}
	require.GreaterOrEqual(t, waiting, 0)
	turn := int(base.turn)
	banker := int(base.banker)

	tests := map[string]func(t *Table){
		"a card in a hand and in the deck": func(t *Table) {
			t.seats[turn].Hand.cards[0] = t.shoe.order[t.shoe.drawn]
		},
		"a card in two hands": func(t *Table) { t.seats[waiting].Hand.cards[0] = t.seats[turn].Hand.cards[0] },
		"a card lost":         func(t *Table) { t.seats[waiting].Hand = Hand{}; t.seats[waiting].State = Played },
		"a card twice in the discards": func(t *Table) {
			t.discard[t.ndiscard] = t.shoe.order[t.shoe.n-1]
			t.ndiscard++
		},
		"an extra card": func(t *Table) {
			t.discard[t.ndiscard] = t.seats[turn].Hand.cards[0]
			t.ndiscard++
		},
		"the deck overdrawn":           func(t *Table) { t.shoe.drawn = t.shoe.n + 1 },
		"the deck changed":             func(t *Table) { o := &t.shoe.order; o[34], o[35] = o[35], o[34] },
		"the salt changed":             func(t *Table) { t.shoe.salt[0]++ },
		"no deck in a game":            func(t *Table) { t.shoe = shoe{} },
		"a negative bank":              func(t *Table) { t.bank = -1 },
		"a huge bank":                  func(t *Table) { t.bank = math.MaxInt64 },
		"a bet above the bank":         func(t *Table) { t.seats[turn].Bet = t.bank + 1 },
		"a bet out of turn":            func(t *Table) { t.seats[waiting].Bet = 5 },
		"a negative bet":               func(t *Table) { t.seats[turn].Bet = -5 },
		"no bet while drawing":         func(t *Table) { t.seats[turn].Bet = 0 },
		"a user seated twice":          func(t *Table) { t.seats[waiting].User = t.seats[turn].User },
		"user zero":                    func(t *Table) { t.seats[waiting].User = 0 },
		"a bad seat state":             func(t *Table) { t.seats[waiting].State = SatOut + 1 },
		"a waiting player who left":    func(t *Table) { t.seats[waiting].Leaving = true },
		"the banker dealt a card":      func(t *Table) { t.seats[banker].Hand = t.seats[waiting].Hand; t.seats[waiting].Hand = Hand{} },
		"the banker in a duel":         func(t *Table) { t.turn = t.banker },
		"no turn in a game":            func(t *Table) { t.turn = -1 },
		"no banker in a game":          func(t *Table) { t.banker = -1 },
		"a banker out of range":        func(t *Table) { t.banker = int8(t.nseats) },
		"a turn out of range":          func(t *Table) { t.turn = 9 },
		"the turn not playing":         func(t *Table) { t.seats[turn].State = Waiting },
		"circle zero":                  func(t *Table) { t.circle = 0 },
		"more knocks than circles":     func(t *Table) { t.knocks = t.circle },
		"more knocks than allowed":     func(t *Table) { t.circle, t.knocks = 9, 8 },
		"an empty circle bank":         func(t *Table) { t.circleBank = 0 },
		"a bad phase":                  func(t *Table) { t.phase = Drawing + 1 },
		"one seat in a game":           func(t *Table) { t.nseats = 1; t.banker, t.turn = 0, 0 },
		"a 21 still drawing":           func(t *Table) { t.seats[turn].Hand = NewHand(NewCard(Ace, Spades), NewCard(Ten, Spades)) },
		"betting with two cards":       func(t *Table) { t.phase = Betting; t.seats[turn].Bet = 0; t.seats[turn].Hand.n = 2 },
		"invalid settings in a game":   func(t *Table) { t.settings.Stake = 0 },
		"a last banker seat off range": func(t *Table) { t.lastBankerSeat = MaxSeats + 1 },
		"lobby with a bank": func(t *Table) {
			*t = lobbyOf(t)
			t.bank = 10
		},
		"lobby with a deck": func(t *Table) {
			d := *t
			*t = lobbyOf(t)
			t.shoe = d.shoe
		},
		"lobby with a hand": func(t *Table) {
			h := t.seats[waiting].Hand
			*t = lobbyOf(t)
			t.seats[0].Hand = h
		},
		"lobby with a player leaving": func(t *Table) {
			*t = lobbyOf(t)
			t.seats[0].Leaving = true
		},
		"closed with a seat": func(t *Table) {
			*t = lobbyOf(t)
			t.phase = Closed
		},
	}
	for name, mutate := range tests {
		t.Run(name, func(t *testing.T) {
			tb := base
			mutate(&tb)
			enc, err := tb.MarshalBinary()
			require.NoError(t, err)
			_, err = Decode(enc)
			assert.ErrorIs(t, err, ErrCorrupt)
		})
	}
}

// lobbyOf returns t as it would be in the lobby after its game.
func lobbyOf(t *Table) Table {
	l := *t
	l.phase = Lobby
	l.banker, l.turn = -1, -1
	l.bank, l.circleBank = 0, 0
	l.shoe, l.deckNo = shoe{}, 0
	l.ndiscard = 0
	for i := range l.seats[:l.nseats] {
		l.seats[i].Hand, l.seats[i].Bet, l.seats[i].State = Hand{}, 0, Idle
	}
	return l
}

func TestLobbyOfDecodes(t *testing.T) {
	tb := midGame(t)
	l := lobbyOf(&tb)
	enc, err := l.MarshalBinary()
	require.NoError(t, err)
	_, err = Decode(enc)
	require.NoError(t, err)
}

func TestOutcomeBuffersOverflow(t *testing.T) {
	a := applier{env: Env{Balances: BalanceMap{7: 100}}}
	for i := 0; i < 3*eventBuf; i++ {
		a.emit(Event{Kind: EventDrew, Score: i})
	}
	for i := 0; i < 3*transferBuf; i++ {
		a.transfer(7, TransferWin, int64(i))
	}
	assert.Equal(t, int64(100+(3*transferBuf-1)*3*transferBuf/2), a.balance(7))
	out := a.outcome()
	require.Len(t, out.Events, 3*eventBuf)
	require.Len(t, out.Transfers, 3*transferBuf)
	for i, e := range out.Events {
		assert.Equal(t, i, e.Score)
	}
	for i, tr := range out.Transfers {
		assert.Equal(t, int64(i), tr.Amount)
	}
	assert.Equal(t, Outcome{}, (&applier{}).outcome())
}

func TestNilRandUsesCrypto(t *testing.T) {
	tb := lobbyOf(func() *Table { x := midGame(t); return &x }())
	next, _, err := Apply(tb, Command{Kind: Start, User: 1}, Env{Now: time.Unix(1_700_000_000, 0), Settings: DefaultSettings(),
		Balances: BalanceMap{1: 1000, 2: 1000, 3: 1000, 4: 1000}})
	require.NoError(t, err)
	assert.True(t, next.phase.InGame())
}

func TestCheckCatchesADeckWithACardTwice(t *testing.T) {
	tb := midGame(t)
	// The deck holds a card twice and hashes to its commitment: the
	// accounting of cards alone would not see it when the copy was drawn.
	tb.shoe.order[0] = tb.shoe.order[35]
	tb.shoe.hash = commit(tb.shoe.order[:tb.shoe.n], &tb.shoe.salt)
	enc, err := tb.MarshalBinary()
	require.NoError(t, err)
	_, err = Decode(enc)
	assert.ErrorIs(t, err, ErrCorrupt)
}

func TestReaderFailures(t *testing.T) {
	r := reader{b: []byte{2}}
	assert.False(t, r.bool())
	assert.ErrorIs(t, r.err, ErrCorrupt)

	r = reader{b: []byte{5}}
	assert.Zero(t, r.count(4))
	assert.ErrorIs(t, r.err, ErrCorrupt)

	r = reader{b: []byte{1, 2}}
	var dst [3]byte
	r.bytes(dst[:])
	assert.ErrorIs(t, r.err, ErrCorrupt)

	r = reader{b: []byte{5, 'a'}}
	assert.Equal(t, "", r.string())
	assert.ErrorIs(t, r.err, ErrCorrupt, "a string longer than what is left")

	r = reader{b: []byte{2, 0xff, 0xfe}}
	assert.Equal(t, "", r.string())
	assert.ErrorIs(t, r.err, ErrCorrupt, "invalid UTF-8")

	r = reader{b: append([]byte{0xc2, 0x02}, make([]byte, 300)...)}
	assert.Equal(t, "", r.string())
	assert.ErrorIs(t, r.err, ErrCorrupt, "a name too long")

	for _, v := range []int64{-1, math.MaxInt64/int64(time.Millisecond) + 1, math.MaxInt64} {
		r = reader{b: binaryVarint(v)}
		assert.Zero(t, r.millis())
		assert.ErrorIs(t, r.err, ErrCorrupt, "%d ms", v)
	}
	r = reader{b: binaryVarint(60_000)}
	assert.Equal(t, time.Minute, r.millis())
	assert.NoError(t, r.err)

	r = reader{b: []byte{0x80}}
	assert.Zero(t, r.uvarint())
	assert.ErrorIs(t, r.err, ErrCorrupt)
	r = reader{b: []byte{0x80}}
	assert.Zero(t, r.varint())
	assert.ErrorIs(t, r.err, ErrCorrupt)
}

func binaryVarint(v int64) []byte {
	var b [10]byte
	n := 0
	u := uint64(v) << 1
	if v < 0 {
		u = ^u
	}
	for u >= 0x80 {
		b[n] = byte(u) | 0x80
		u >>= 7
		n++
	}
	b[n] = byte(u)
	return b[:n+1]
}

func TestInternalErrorsOnImpossibleTables(t *testing.T) {
	env := Env{Now: time.Unix(1_800_000_000, 0), Rand: NewRand(rand.NewPCG(1, 1)), Settings: DefaultSettings(),
		Balances: BalanceMap{1: 1000, 2: 1000, 3: 1000, 4: 1000}}
	base := midGame(t)
	u := base.seats[base.turn].User

	// No card left anywhere to draw.
	tb := base
	tb.shoe.drawn, tb.ndiscard = tb.shoe.n, 0
	for _, k := range []CommandKind{Hit, Stand} {
		_, out, err := Apply(tb, Command{Kind: k, User: u}, env)
		assert.ErrorIs(t, err, ErrInternal, "%s", k)
		assert.Equal(t, Outcome{}, out)
		assert.Equal(t, KindInternal, Kind(err))
	}

	// A hand full of cards.
	tb = base
	for tb.seats[tb.turn].Hand.n < MaxHand {
		tb.seats[tb.turn].Hand.add(NewCard(Jack, Spades))
	}
	_, _, err := Apply(tb, Command{Kind: Hit, User: u}, env)
	assert.ErrorIs(t, err, ErrInternal)

	// Nobody can pay the stake.
	l := lobbyOf(&base)
	_, _, err = Apply(l, Command{Kind: Start, User: 1}, Env{Now: env.Now, Rand: env.Rand, Settings: DefaultSettings(),
		Balances: &fickleBalances{}})
	assert.ErrorIs(t, err, ErrNotEnoughPlayers)

	// A player marked as leaving when a circle starts sits it out.
	l.seats[2].Leaving = true
	l.lastBanker, l.lastBankerSeat = l.seats[0].User, 0
	next, _, err := Apply(l, Command{Kind: Start, User: 1}, env)
	require.NoError(t, err)
	assert.Equal(t, SatOut, next.seats[2].State)
}

// fickleBalances passes the entry limit check and then fails the stake: a
// Balances that changes its mind, as no real one does.
type fickleBalances struct{ calls int }

func (b *fickleBalances) Balance(UserID) int64 {
	b.calls++
	if b.calls <= MaxSeats {
		return 100
	}
	return 0
}

func TestLobbyDeadlineFallsBackToTheGame(t *testing.T) {
	tb := midGame(t)
	env := Env{Now: time.Unix(1_800_000_000, 0), Balances: BalanceMap{1: 1000, 2: 1000, 3: 1000, 4: 1000}}
	// The bot passes no settings: the lobby after the game uses the game's.
	u := tb.seats[tb.banker].User
	next, _, err := Apply(tb, Command{Kind: Leave, User: u}, env)
	require.NoError(t, err)
	assert.Equal(t, Lobby, next.phase)
	assert.Equal(t, env.Now.Add(DefaultSettings().LobbyTimeout).UnixMilli(), next.deadline)
}

func TestOffersOfUnvalidatedSettings(t *testing.T) {
	s := Settings{Stake: 10, BetOptions: []BetOption{{StakeTimes, 1}, {StakeTimes, 2}, {StakeTimes, 3}, {StakeTimes, 4},
		{StakeTimes, 5}, {StakeTimes, 6}, {StakeTimes, 7}, {BankShare, 0}, {BankShare, -1}}}
	offers := s.Offers(1000, 1000)
	assert.Len(t, offers, MaxBetOptions)
	for _, o := range offers {
		assert.Equal(t, StakeTimes, o.Option.Kind)
	}
}

func TestUsers(t *testing.T) {
	tb := midGame(t)
	assert.Equal(t, []UserID{1, 2, 3, 4}, tb.Users())
	var closed Table
	assert.Empty(t, closed.Users())
}

func TestOffersNeverWrap(t *testing.T) {
	s := Settings{Stake: math.MaxInt64 / 2, BetOptions: []BetOption{{StakeTimes, 3}, {StakeTimes, 1000}}}
	offers := s.Offers(100, 1000)
	require.Len(t, offers, 1)
	assert.Equal(t, int64(100), offers[0].Amount)
	assert.True(t, offers[0].Capped)
}
