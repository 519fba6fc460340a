package game_test

import (
	"errors"
	"flag"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/game/house"
)

var betOptionSets = []string{"x1, x2, x5, bank/2, bank", "bank", "x1", "bank/2", "bank/10, x3", "x1000, bank/3, x2"}

func drawSettings(t *rapid.T, label string) game.Settings {
	s := game.DefaultSettings()
	s.Stake = rapid.SampledFrom([]int64{1, 2, 5, 10, 50}).Draw(t, label+" stake")
	s.EntryLimit = s.Stake * rapid.SampledFrom([]int64{1, 2, 10}).Draw(t, label+" entry")
	opts, err := game.ParseBetOptions(rapid.SampledFrom(betOptionSets).Draw(t, label+" options"))
	if err != nil {
		t.Fatal(err)
	}
	s.BetOptions = opts
	s.MaxKnocks = rapid.IntRange(0, 3).Draw(t, label+" knocks")
	s.TurnTimeout = rapid.SampledFrom([]time.Duration{10 * time.Second, time.Minute}).Draw(t, label+" turn")
	s.LobbyTimeout = rapid.SampledFrom([]time.Duration{30 * time.Second, 10 * time.Minute}).Draw(t, label+" lobby")
	s.AutoStart = rapid.Bool().Draw(t, label+" autostart")
	return s
}

// drawCommand returns a command for tb: most often the one the state
// expects, else anything, from anyone, with any amount and version.
func drawCommand(t *rapid.T, tb game.Table, bal game.BalanceMap, users int) game.Command {
	cmd := game.Command{User: game.UserID(rapid.IntRange(0, users+1).Draw(t, "user"))}
	turn := game.UserID(0)
	if i, ok := tb.Turn(); ok {
		turn = tb.Seat(i).User
	}
	if rapid.IntRange(0, 9).Draw(t, "wild") < 7 {
		switch tb.Phase() {
		case game.Closed:
			cmd.Kind = game.Open
		case game.Lobby:
			switch k := rapid.IntRange(0, 9).Draw(t, "lobby"); {
			case k == 9:
				cmd.Kind = game.Leave
			case tb.NumSeats() < min(users, 4) && k < 7:
				cmd.Kind = game.Join
			default:
				cmd.Kind = game.Start
				if tb.NumSeats() > 0 {
					cmd.User = tb.Seat(0).User
				}
			}
		case game.Betting:
			cmd.Kind = rapid.SampledFrom([]game.CommandKind{game.Bet, game.Bet, game.Bet, game.Timeout}).Draw(t, "bet")
			cmd.User = turn
		case game.Drawing:
			cmd.Kind = rapid.SampledFrom([]game.CommandKind{game.Hit, game.Stand, game.Hit, game.Timeout,
				game.Stand, game.Hit, game.Stand, game.Leave}).Draw(t, "draw")
			cmd.User = turn
		case game.Cutting:
			cmd.Kind = rapid.SampledFrom([]game.CommandKind{game.Cut, game.Cut, game.Timeout, game.Leave}).Draw(t, "cut")
			if tb.NumSeats() > 0 {
				cmd.User = tb.Seat(rapid.IntRange(0, tb.NumSeats()-1).Draw(t, "cutter")).User
			}
		}
	} else {
		cmd.Kind = game.CommandKind((rapid.IntRange(0, 12).Draw(t, "kind") + 1) % 13)
		if cmd.Kind == game.Cancel && rapid.IntRange(0, 4).Draw(t, "really cancel") > 0 {
			cmd.Kind = game.Hit
		}
	}
	switch cmd.Kind {
	case game.Bet:
		offers := tb.Offers(bal[cmd.User])
		if len(offers) > 0 && rapid.IntRange(0, 3).Draw(t, "wild amount") < 3 {
			cmd.Amount = offers[rapid.IntRange(0, len(offers)-1).Draw(t, "offer")].Amount
		} else {
			cmd.Amount = rapid.SampledFrom([]int64{math.MinInt64, -10, 0, 1, 5, 7, 10, 20, 50, 100, 1 << 40, math.MaxInt64}).Draw(t, "amount")
		}
	case game.Kick:
		cmd.Target = game.UserID(rapid.IntRange(0, users+1).Draw(t, "target"))
	case game.Cut:
		cmd.Text = rapid.SampledFrom([]string{"tap:1", "tap:2", "tap:3", "", "lucky \x00\xff words",
			strings.Repeat("x", game.MaxCutLen), strings.Repeat("x", game.MaxCutLen+1)}).Draw(t, "cut text")
	}
	switch rapid.IntRange(0, 9).Draw(t, "version") {
	case 9:
		cmd.Version = tb.Version() - 1
	case 8:
		cmd.Version = tb.Version() + 1
	case 0, 1, 2, 3:
		cmd.Version = tb.Version()
	}
	cmd.Name = names[cmd.User]
	return cmd
}

// houseMove returns the move of the house's strategy when it is the turn
// of a user it plays for (1 to strategy), most of the time.
func houseMove(t *rapid.T, tb game.Table, bal game.BalanceMap, strategy game.UserID) (game.Command, bool) {
	i, ok := tb.Turn()
	if !ok || tb.Seat(i).User > strategy || rapid.IntRange(0, 9).Draw(t, "house moves") > 7 {
		return game.Command{}, false
	}
	u := tb.Seat(i).User
	return house.Move(&tb, u, bal[u])
}

func marshal(t require.TestingT, tb game.Table) []byte {
	b, err := tb.MarshalBinary()
	require.NoError(t, err)
	return b
}

// moreChecks raises rapid's number of checks to n unless -rapid.checks was
// given.
func moreChecks(t *testing.T, n int) {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if set || testing.Short() {
		return
	}
	f := flag.Lookup("rapid.checks")
	old := f.Value.String()
	require.NoError(t, f.Value.Set(strconv.Itoa(n)))
	t.Cleanup(func() { _ = f.Value.Set(old) })
}

func TestPropertyRandomPlay(t *testing.T) {
	moreChecks(t, 1000)
	seen := map[game.EventKind]int{}
	runs, houseMoves, cuts := 0, 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		runs++
		users := rapid.SampledFrom([]int{4, 3, 6, 5, 2}).Draw(rt, "users")
		bal := game.BalanceMap{}
		var total int64
		for u := 1; u <= users; u++ {
			b := rapid.SampledFrom([]int64{1000, 250, 100, 1_000_000, 101, 99, 50, 10, 9, 1, 0}).Draw(rt, "balance")
			bal[game.UserID(u)] = b
			total += b
		}
		env := game.Env{
			Now:      t0,
			Rand:     game.NewRand(pcg(rapid.Uint64().Draw(rt, "seed"))),
			Settings: drawSettings(rt, "chat"),
			Balances: bal,
			// Most tables ask for the cut; the rest deal the decks of
			// before it.
			CutWait: rapid.SampledFrom([]time.Duration{game.DefaultCutWait, game.DefaultCutWait, 0}).Draw(rt, "cut wait"),
		}
		links := gametest.NewLinks(byte(runs), 2000)
		env.Seeds = links
		revealed := uint32(0) // decks of SchemeCut revealed
		// Users 1 to strategy move by the house's strategy, most of the time.
		strategy := game.UserID(rapid.IntRange(0, 2).Draw(rt, "house seats"))
		if strategy > 0 {
			env.House = 1 // who never cuts
		}
		var tb game.Table
		steps := rapid.IntRange(100, 400).Draw(rt, "steps")
		for step := 0; step < steps; step++ {
			switch rapid.IntRange(0, 49).Draw(rt, "outside") {
			case 49: // the admin changes the chat's settings
				env.Settings = drawSettings(rt, "new")
			case 48: // ... to something invalid
				env.Settings.Stake = 0
			case 47, 46: // somebody claims a bonus
				u := game.UserID(rapid.IntRange(1, users).Draw(rt, "bonus"))
				bal[u] += 100
				total += 100
			}
			switch rapid.IntRange(0, 9).Draw(rt, "clock") {
			case 9, 8:
				if !tb.Deadline().IsZero() {
					env.Now = tb.Deadline()
				}
			case 7:
				if !tb.Deadline().IsZero() {
					env.Now = tb.Deadline().Add(-time.Millisecond)
				}
			case 6:
				env.Now = env.Now.Add(time.Duration(rapid.IntRange(0, 900).Draw(rt, "jump")) * time.Second)
			default:
				env.Now = env.Now.Add(time.Second)
			}
			cmd, byHouse := houseMove(rt, tb, bal, strategy)
			if !byHouse {
				cmd = drawCommand(rt, tb, bal, users)
			}
			before := marshal(rt, tb)
			next, out, err := game.Apply(tb, cmd, env)
			if err != nil {
				require.False(rt, byHouse, "the house's move %+v is always accepted: %v", cmd, err)
				require.False(rt, errors.Is(err, game.ErrInternal), "internal error: %v", err)
				require.NotEqual(rt, game.KindInternal, game.Kind(err), "%v", err)
				require.Equal(rt, before, marshal(rt, next), "a rejected command changes nothing")
				require.Equal(rt, before, marshal(rt, tb))
				require.Equal(rt, game.Outcome{}, out)
				continue
			}
			require.Equal(rt, tb.Version()+1, next.Version(), "%s", cmd.Kind)
			require.Equal(rt, before, marshal(rt, tb), "Apply leaves its input alone")
			for _, tr := range out.Transfers {
				bal[tr.User] += tr.Amount
				require.GreaterOrEqual(rt, bal[tr.User], int64(0), "balance of %d after %+v", tr.User, cmd)
			}
			tb = next
			for _, e := range out.Events {
				seen[e.Kind]++
				requireRecordVerifies(rt, e)
				if r, ok := e.Record.(*game.CutRecord); ok {
					revealed++
					require.Equal(rt, revealed, r.Link, "the links are revealed in turn, none twice, none skipped")
				}
			}
			_, inPlay := tb.Cut()
			require.Equal(rt, revealed+boolCount(inPlay), links.Taken, "every link taken is revealed, or its deck in play")
			if cmd.Kind == game.Cut {
				require.NotEqual(rt, env.House, cmd.User, "the house never cuts")
				cuts++
			}
			if byHouse {
				houseMoves++
			}
			requireTableInvariants(rt, tb, bal, total)
			requireEnds(rt, tb, env, bal)
		}
	})
	// The generator reaches every part of the game.
	if runs < 500 {
		return // -short or -rapid.checks
	}
	for k := game.EventOpened; k <= game.EventCut; k++ {
		if k != game.EventReshuffled { // a deck cannot run out in play: see TestRuleDeckRunsOut
			require.Positive(t, seen[k], "no %s event in the random play", k)
		}
	}
	require.Greater(t, seen[game.EventStarted], 100)
	require.Greater(t, seen[game.EventKnocked], 5)
	require.Greater(t, houseMoves, 1000, "the house's strategy plays")
	require.Greater(t, cuts, 200, "players cut")
}

func boolCount(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// requireRecordVerifies checks the record of every deck revealed: a deck
// of SchemeCut is the one its seed, place and cut give, the cards dealt
// its top; one of SchemeSalt hashes to its commitment.
func requireRecordVerifies(t require.TestingT, e game.Event) {
	if e.Kind != game.EventRevealed {
		return
	}
	require.NotNil(t, e.Record)
	_, err := e.Record.Verify()
	require.NoError(t, err, "%s", e.Record)
	if r, ok := e.Record.(*game.CutRecord); ok {
		require.Equal(t, e.Commitment, game.Commitment(r.Seed.Hash()))
	}
}

// requireTableInvariants checks what holds after every applied command.
func requireTableInvariants(t require.TestingT, tb game.Table, bal game.BalanceMap, total int64) {
	sum := tb.Chips()
	for _, b := range bal {
		sum += b
	}
	require.Equal(t, total, sum, "chips are conserved")
	var owned int64
	for u := range bal {
		owned += tb.ChipsOf(u)
	}
	require.Equal(t, tb.Chips(), owned, "every chip on the table is a player's")
	require.GreaterOrEqual(t, tb.Bank(), int64(0))
	var net int64
	for _, p := range tb.Players() {
		net += p.Net
	}
	require.Equal(t, int64(0), net+tb.Chips(), "what the game's players won and lost is on the table")
	enc := marshal(t, tb)
	dec, err := game.Decode(enc) // the decoder checks every card is in one place
	require.NoError(t, err)
	require.Equal(t, enc, marshal(t, dec), "the encoding round-trips")
	require.Equal(t, tb.Version(), dec.Version())
	if tb.Phase() == game.Betting {
		i, _ := tb.Turn()
		require.NotEmpty(t, tb.Offers(bal[tb.Seat(i).User]), "a player with no offer sits out")
	}
}

// requireEnds times the table out at every deadline until the game is over.
func requireEnds(t require.TestingT, tb game.Table, env game.Env, bal game.BalanceMap) {
	b := game.BalanceMap{}
	for u, v := range bal {
		b[u] = v
	}
	env.Balances = b
	if l, ok := env.Seeds.(*gametest.Links); ok {
		c := *l // the game played to its end here takes links of a copy
		env.Seeds = &c
	}
	// At most four circles of three duels, each two timeouts long, and a
	// cut wait for each circle's deck.
	for i := 0; i <= (2*3+1)*(game.MaxKnocksLimit+1); i++ {
		if !tb.Phase().InGame() {
			return
		}
		env.Now = tb.Deadline()
		next, out, err := game.Apply(tb, game.Command{Kind: game.Timeout, Version: tb.Version()}, env)
		require.NoError(t, err, "a timeout at the deadline always applies")
		for _, tr := range out.Transfers {
			b[tr.User] += tr.Amount
		}
		tb = next
	}
	require.Fail(t, "the game did not end", "phase %s", tb.Phase())
}
