package button_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// actions returns every action of the callback grammar.
func actions() []callback.Action {
	var as []callback.Action
	for a := callback.Action(1); a.String() != fmt.Sprintf("action(%d)", a); a++ {
		as = append(as, a)
	}
	return as
}

// TestEveryActionHasOneRow: each verb of the grammar is declared once,
// completely: who may press it, where, and what it does; a button of the
// table's keyboard has a label, one drawn elsewhere names where.
func TestEveryActionHasOneRow(t *testing.T) {
	require.Len(t, button.Rows(), len(actions()), "one row per action")
	for _, a := range actions() {
		t.Run(a.String(), func(t *testing.T) {
			r, ok := button.Of(a)
			require.True(t, ok)
			assert.Equal(t, a, r.Action)
			assert.NotZero(t, r.Who, "who may press it")
			assert.NotZero(t, r.Kinds, "where it is pressed")
			assert.NotZero(t, r.Does, "what it does")
			switch r.Does {
			case button.Apply, button.OpenInline, button.House:
				assert.NotZero(t, r.Command, "the command it applies")
			default:
				assert.Zero(t, r.Command, "no command: %s does something else", a)
			}
			// A table's action carries the table's version (callback):
			// a press without is refused.
			assert.Equal(t, a.TableAction(), r.Versioned, "versioned as the grammar says")
			if r.DrawnBy == "" {
				assert.NotZero(t, r.Phases, "the phases it shows in")
				assert.True(t, r.Label != "" || r.PerOffer || len(r.TapLabels) > 0, "a label, or one per offer or tap")
				for _, l := range i18n.Langs() {
					for _, k := range append([]i18n.Key{r.Label, r.SoloLabel, r.AgainLabel}, r.TapLabels...) {
						assert.True(t, k == "" || i18n.T(l, k) != string(k), "%s in %s", k, l)
					}
				}
			} else {
				assert.Zero(t, r.Phases, "drawn by %s, not the table's keyboard", r.DrawnBy)
			}
		})
	}
	assert.Equal(t, "group|inline", (button.Group | button.Inline).String())
	assert.Equal(t, "none", button.Kinds(0).String())
	_, ok := button.Of(0)
	assert.False(t, ok, "no row for no action")
	_, ok = button.Of(callback.Action(200))
	assert.False(t, ok)
}

// TestForRefusesOtherKinds: a press finds its row only on a kind of
// message the row is pressed on; none finds the app's link.
func TestForRefusesOtherKinds(t *testing.T) {
	tests := []struct {
		action callback.Action
		kind   button.Kinds
		ok     bool
	}{
		{callback.Join, button.Group, true}, {callback.Join, button.Solo, true}, {callback.Join, button.Inline, true},
		{callback.Top, button.Inline, true}, {callback.Top, button.Group, false}, {callback.Top, button.Solo, false},
		{callback.InlineOpen, button.Inline, true}, {callback.InlineOpen, button.Group, false},
		{callback.Unfollow, button.Solo, true}, {callback.Unfollow, button.Group, false}, {callback.Unfollow, button.Inline, false},
		{callback.Setting, button.Group, true}, {callback.Setting, button.Solo, true}, {callback.Setting, button.Inline, false},
		{callback.Verify, button.Inline, true}, {callback.Verify, button.Solo, true},
		{callback.Join, 0, false}, {0, button.Group, false},
		{callback.OpenApp, button.Group, false}, {callback.OpenApp, button.Solo, false}, {callback.OpenApp, button.Inline, false},
	}
	for _, tt := range tests {
		r, ok := button.For(tt.action, tt.kind)
		assert.Equal(t, tt.ok, ok, "%s on %s", tt.action, tt.kind)
		if ok {
			assert.Equal(t, tt.action, r.Action)
		}
	}
}

// The users of the walks.
const (
	alice game.UserID = iota + 1
	bob
	carol
	dave
	eve
	// stranger never sits down.
	stranger game.UserID = 99
)

// walk plays random commands from a table never opened, by players (and
// the house), and returns every table it went through.
func walk(seed uint64, players []game.UserID, steps int) []game.Table {
	rnd := rand.New(rand.NewPCG(seed, seed))
	bal := game.BalanceMap{house.ID: 100_000, stranger: 1000}
	for _, u := range players {
		bal[u] = 1000
	}
	// The decks wait for their cut, as at the bot's tables.
	env := game.Env{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Rand: game.NewRand(rand.NewPCG(seed, 1)),
		CutWait: game.DefaultCutWait, House: house.ID, Settings: game.DefaultSettings(), Balances: bal}
	who := append([]game.UserID{house.ID}, players...)
	var t game.Table
	states := []game.Table{t}
	for range steps {
		u := who[rnd.IntN(len(who))]
		cmd := game.Command{Kind: move(rnd, t.Phase()), User: u, Name: "x", Version: t.Version()}
		if i, ok := t.Turn(); ok && cmd.Kind >= game.Bet && cmd.Kind <= game.Stand && rnd.IntN(4) > 0 {
			cmd.User = t.Seat(i).User // mostly the one to move
		}
		switch cmd.Kind {
		case game.Bet:
			if offers := t.Offers(bal[cmd.User]); len(offers) > 0 {
				cmd.Amount = offers[rnd.IntN(len(offers))].Amount
			}
		case game.Kick:
			cmd.Target = who[rnd.IntN(len(who))]
		case game.Timeout:
			cmd.User = 0
		case game.Cut:
			cmd.Text = callback.TapText(1 + rnd.IntN(callback.MaxTap))
		}
		next, out, err := game.Apply(t, cmd, env)
		if err != nil {
			continue
		}
		for _, tr := range out.Transfers {
			bal[tr.User] += tr.Amount
		}
		t = next
		env.Now = env.Now.Add(time.Second)
		states = append(states, t)
	}
	return states
}

// moves are the commands a walk tries in each phase, the likelier more
// often.
var moves = map[game.Phase][]game.CommandKind{
	game.Closed:  {game.Open},
	game.Lobby:   {game.Join, game.Join, game.Leave, game.Start, game.Start, game.Kick, game.Cancel, game.Timeout},
	game.Betting: {game.Bet, game.Bet, game.Bet, game.Leave, game.Kick, game.Timeout},
	game.Drawing: {game.Hit, game.Hit, game.Stand, game.Stand, game.Leave, game.Kick, game.Timeout},
	game.Cutting: {game.Cut, game.Cut, game.Leave, game.Kick, game.Timeout},
}

// move picks a command to try in phase p.
func move(rnd *rand.Rand, p game.Phase) game.CommandKind { return moves[p][rnd.IntN(len(moves[p]))] }

// appLink is the Mini App's link of the explored states that have one.
const appLink = "https://t.me/telegramtest_bot/table?startapp=AQ"

// explored are the states the walks reach: group and inline tables of up
// to five players, solo tables of one; the house allowed or not; a Mini
// App or none.
func explored() []button.State {
	var out []button.State
	add := func(kind button.Kinds, tables []game.Table) {
		for i := range tables {
			for _, forbidden := range []bool{false, true} {
				bal := map[game.UserID]int64{}
				for _, u := range tables[i].Users() {
					bal[u] = 1000
				}
				for _, app := range []string{"", appLink} {
					out = append(out, button.State{Table: &tables[i], Kind: kind, Settings: game.DefaultSettings(),
						Balances: bal, HouseForbidden: forbidden, Lang: i18n.EN, App: app})
				}
			}
		}
	}
	for seed := range uint64(20) {
		tables := walk(seed, []game.UserID{alice, bob, carol, dave, eve}, 400)
		add(button.Group, tables)
		add(button.Inline, tables)
		add(button.Solo, walk(seed, []game.UserID{alice}, 200))
	}
	return out
}

// TestEveryButtonIsDrawn: each button of the table's keyboard shows in
// some state on every kind of message it is pressed on, and every button
// drawn parses as its row's, carrying what its row says: the table's
// version, within Telegram's 64 bytes.
func TestEveryButtonIsDrawn(t *testing.T) {
	drawn := map[button.Kinds]map[callback.Action]bool{button.Group: {}, button.Solo: {}, button.Inline: {}}
	for _, s := range explored() {
		for _, l := range button.Keyboard(s) {
			require.NotEmpty(t, l.Buttons)
			require.Positive(t, l.PerRow)
			for _, b := range l.Buttons {
				if b.Data == "" {
					// A link: the app's, a web_app button only at a solo
					// table (Telegram takes one nowhere else).
					r, _ := button.Of(callback.OpenApp)
					require.True(t, r.Shows(s))
					link := b.URL
					if s.Kind == button.Solo {
						link = b.WebApp
						require.Empty(t, b.URL)
					} else {
						require.Empty(t, b.WebApp)
					}
					require.Equal(t, s.App, link)
					drawn[s.Kind][callback.OpenApp] = true
					continue
				}
				require.LessOrEqual(t, len(b.Data), callback.MaxLen)
				d, err := callback.Parse(b.Data)
				require.NoError(t, err, b.Data)
				r, ok := button.For(d.Action, s.Kind)
				require.True(t, ok, "%s drawn where it is not pressed", d.Action)
				require.True(t, r.Shows(s))
				if r.Versioned {
					require.Equal(t, s.Table.Version(), d.Version, "%s carries the version", d.Action)
				}
				drawn[s.Kind][d.Action] = true
			}
		}
	}
	// Pressed there, never drawn there: the house stays at a solo table,
	// which is for playing it (a button drawn before still unseats it).
	pressedOnly := map[button.Kinds]callback.Action{button.Solo: callback.UnseatHouse}
	for _, r := range button.Rows() {
		for _, kind := range []button.Kinds{button.Group, button.Solo, button.Inline} {
			if r.DrawnBy != "" || !r.Kinds.Has(kind) || pressedOnly[kind] == r.Action {
				assert.False(t, drawn[kind][r.Action], "%s is not the table keyboard's on %s", r.Action, kind)
				continue
			}
			// Inline's opening shows on a table never opened alone.
			assert.True(t, drawn[kind][r.Action] || r.Unopened, "%s never drawn on %s", r.Action, kind)
		}
	}
}

// TestTheInlineOpeningIsAloneOnATableNeverOpened: an inline message no
// press opened shows the one button that opens it, carrying its preset
// and language; a chat's table never opened shows none.
func TestTheInlineOpeningIsAloneOnATableNeverOpened(t *testing.T) {
	s := game.DefaultSettings()
	never := &game.Table{}
	lines := button.Keyboard(button.State{Table: never, Kind: button.Inline, Settings: s, Lang: i18n.RU})
	require.Len(t, lines, 1)
	require.Len(t, lines[0].Buttons, 1)
	d, err := callback.Parse(lines[0].Buttons[0].Data)
	require.NoError(t, err)
	assert.Equal(t, callback.Data{Action: callback.InlineOpen, Amount: s.Stake, Entry: s.EntryLimit, Lang: "ru"}, d)
	for _, kind := range []button.Kinds{button.Group, button.Solo} {
		assert.Empty(t, button.Keyboard(button.State{Table: never, Kind: kind, Settings: s, Lang: i18n.EN}))
	}
}

// TestWhoIsTheGamesRule: a row's Who is what game.Apply checks of the
// command it applies, in every state it shows in: a seated button refuses
// whoever is not seated, a turn's button whoever's turn it is not, and
// anyone's refuses nobody for who they are. The row only declares it: the
// check stays game.Apply's.
func TestWhoIsTheGamesRule(t *testing.T) {
	checked := map[callback.Action]bool{}
	for _, s := range explored() {
		tb := s.Table
		for _, r := range button.Rows() {
			if r.Does != button.Apply || !r.Shows(s) {
				continue
			}
			bal := game.BalanceMap{stranger: 1000, house.ID: 100_000}
			for _, u := range tb.Users() {
				bal[u] = 1000
			}
			env := game.Env{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Rand: game.NewRand(rand.NewPCG(1, 2)),
				CutWait: game.DefaultCutWait, House: house.ID, Settings: game.DefaultSettings(), Balances: bal}
			press := func(u game.UserID) error {
				cmd := game.Command{Kind: r.Command, User: u, Name: "x", Version: tb.Version()}
				if r.CutsTap {
					cmd.Text = callback.TapText(1)
				}
				if r.BetAmount {
					if i, ok := tb.Turn(); ok {
						if offers := tb.Offers(bal[tb.Seat(i).User]); len(offers) > 0 {
							cmd.Amount = offers[0].Amount
						}
					}
				}
				_, _, err := game.Apply(*tb, cmd, env)
				return err
			}
			checked[r.Action] = true
			switch r.Who {
			case button.Anyone:
				assert.NoError(t, press(stranger), "%s by anyone", r.Action)
			case button.Seated:
				assert.ErrorIs(t, press(stranger), game.ErrNotSeated, "%s by a stranger", r.Action)
				for _, seat := range tb.Seats() {
					if seat.User != house.ID && !seat.Leaving {
						assert.False(t, errors.Is(press(seat.User), game.ErrNotSeated), "%s by a player", r.Action)
					}
				}
			case button.OnTurn:
				i, ok := tb.Turn()
				require.True(t, ok, "%s shows on a turn", r.Action)
				for _, u := range append(tb.Users(), stranger) {
					if err := press(u); u == tb.Seat(i).User {
						assert.False(t, errors.Is(err, game.ErrNotYourTurn), "%s by the player to move", r.Action)
					} else {
						assert.ErrorIs(t, err, game.ErrNotYourTurn, "%s by another", r.Action)
					}
				}
			default:
				t.Errorf("%s: a game command for %d", r.Action, r.Who)
			}
		}
	}
	for _, r := range button.Rows() {
		if r.Does == button.Apply {
			assert.True(t, checked[r.Action], "%s checked in some state", r.Action)
		}
	}
}

// TestTheCutButtons: a deck waiting for its cut shows the three cut
// buttons, ¼ ½ ¾, carrying the table's version and taps 1 to 3 (the texts
// tap:1 to tap:3), and nothing else; once cut, none.
func TestTheCutButtons(t *testing.T) {
	env := game.Env{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Rand: game.NewRand(rand.NewPCG(1, 2)),
		CutWait: game.DefaultCutWait, House: house.ID, Settings: game.DefaultSettings(),
		Balances: game.BalanceMap{alice: 1000, bob: 1000}}
	var tb game.Table
	for _, cmd := range []game.Command{{Kind: game.Open, User: alice, Name: "Alice"}, {Kind: game.Join, User: bob, Name: "Bob"},
		{Kind: game.Start, User: alice}} {
		next, _, err := game.Apply(tb, cmd, env)
		require.NoError(t, err)
		tb = next
	}
	require.Equal(t, game.Cutting, tb.Phase())
	for _, kind := range []button.Kinds{button.Group, button.Solo, button.Inline} {
		lines := button.Keyboard(button.State{Table: &tb, Kind: kind, Settings: game.DefaultSettings(), Lang: i18n.EN})
		require.Len(t, lines, 1, kind.String())
		require.Equal(t, 3, lines[0].PerRow)
		var labels []string
		for i, b := range lines[0].Buttons {
			labels = append(labels, b.Text)
			d, err := callback.Parse(b.Data)
			require.NoError(t, err)
			assert.Equal(t, callback.Data{Action: callback.Cut, Version: tb.Version(), Tap: i + 1}, d)
			assert.Equal(t, fmt.Sprintf("tap:%d", i+1), callback.TapText(d.Tap))
		}
		assert.Equal(t, []string{"✂️ ¼", "✂️ ½", "✂️ ¾"}, labels)
	}
	cut, _, err := game.Apply(tb, game.Command{Kind: game.Cut, User: bob, Text: "tap:2", Version: tb.Version()}, env)
	require.NoError(t, err)
	for _, l := range button.Keyboard(button.State{Table: &cut, Kind: button.Group, Settings: game.DefaultSettings(), Lang: i18n.EN}) {
		for _, b := range l.Buttons {
			d, _ := callback.Parse(b.Data)
			assert.NotEqual(t, callback.Cut, d.Action, "no cut button once cut")
		}
	}
}

// TestTheAppButton: with a Mini App, a table shows its link, on a line of
// its own at the bottom, in every phase it is alive in (a lobby, a game),
// on a table opened only; never on a closed table, nor without an app.
func TestTheAppButton(t *testing.T) {
	seen := map[game.Phase]bool{}
	for _, s := range explored() {
		lines := button.Keyboard(s)
		var links []string
		for _, l := range lines {
			for _, b := range l.Buttons {
				if b.Data == "" {
					links = append(links, b.URL+b.WebApp)
				}
			}
		}
		alive := s.Table.Version() > 0 && s.Table.Phase() != game.Closed
		if s.App == "" || !alive {
			assert.Empty(t, links, "%s at %s, app %q", s.Kind, s.Table.Phase(), s.App)
			continue
		}
		require.Equal(t, []string{s.App}, links, "%s at %s", s.Kind, s.Table.Phase())
		last := lines[len(lines)-1]
		require.Len(t, last.Buttons, 1, "a line of its own")
		assert.Equal(t, "🃏 Open the table", last.Buttons[0].Text)
		seen[s.Table.Phase()] = true
	}
	for _, p := range []game.Phase{game.Lobby, game.Betting, game.Drawing, game.Cutting} {
		assert.True(t, seen[p], "shown in %s", p)
	}
}
