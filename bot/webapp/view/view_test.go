package view_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares the view's JSON with testdata/name.json, or rewrites it
// with -update.
func golden(t *testing.T, name string, v view.View) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	got = append(got, '\n')
	path := filepath.Join("testdata", name+".json")
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./bot/webapp/view -update to create it")
	assert.Equal(t, string(want), string(got), "%s differs; run go test ./bot/webapp/view -update and review the diff", path)
}

// TestGolden: every scenario as each of its viewers sees it, in English;
// one, the drawing seen by the player to move, in every language.
func TestGolden(t *testing.T) {
	for _, sc := range scenarios {
		for _, u := range sc.viewers {
			t.Run(sc.name+"/"+viewerNames[u], func(t *testing.T) {
				p := sc.play(t, names[i18n.EN])
				require.Equal(t, sc.phase, p.Table.Phase())
				golden(t, sc.name+"."+viewerNames[u]+".en", view.Make(p.input(u, i18n.EN)))
			})
		}
	}
	for _, lang := range i18n.Langs() {
		p := drawing(t, names[lang])
		golden(t, "drawing.carol."+string(lang), view.Make(p.input(carol, lang)))
	}
}

// TestActionsAreThePressesTheGameTakes: for every scenario and every
// viewer, the view's actions are the chat's buttons (same data, label and
// style) that the viewer's press would apply: game.Apply accepts the
// command of each one listed, and refuses that of each chat button left
// out; a button of the house is the seated players'; a button that
// applies no game command is never listed.
func TestActionsAreThePressesTheGameTakes(t *testing.T) {
	for _, sc := range scenarios {
		for _, u := range []game.UserID{alice, bob, carol, dave, eve} {
			p := sc.play(t, names[i18n.EN])
			v := view.Make(p.input(u, i18n.EN))
			kind := render.ButtonState(p.chat(u, i18n.EN)).Kind
			listed := map[string]view.Action{}
			for _, l := range v.Actions {
				require.NotEmpty(t, l.Actions, "%s/%d: an empty line", sc.name, u)
				for _, a := range l.Actions {
					listed[a.Data] = a
				}
			}
			chat := map[string]bool{}
			for _, row := range render.Table(p.chat(u, i18n.EN)).Keyboard {
				for _, b := range row {
					chat[b.Data] = true
					d, err := callback.Parse(b.Data)
					require.NoError(t, err)
					r, ok := button.For(d.Action, kind)
					require.True(t, ok)
					a, shown := listed[b.Data]
					if shown {
						assert.Equal(t, view.Action{Verb: d.Action.String(), Label: b.Text, Style: string(b.Style), Data: b.Data}, a)
					}
					_, seat := p.Table.SeatOf(u)
					var takes bool
					switch r.Does {
					case button.Apply:
						cmd := game.Command{Kind: r.Command, User: u, Name: p.Names[u], Version: d.Version}
						if r.BetAmount {
							cmd.Amount = d.Amount
						}
						if r.CutsTap {
							cmd.Text = callback.TapText(d.Tap)
						}
						_, _, err := game.Apply(p.Table, cmd, p.Env)
						takes = err == nil
					case button.House:
						takes = seat
					}
					assert.Equal(t, takes, shown, "%s: %s for user %d", sc.name, b.Data, u)
				}
			}
			for data := range listed {
				assert.True(t, chat[data], "%s: %s is no button of the chat's", sc.name, data)
			}
		}
	}
}

// TestLanguageIsForsDecision: the chat's language once it has one, else
// the viewer's own.
func TestLanguageIsForsDecision(t *testing.T) {
	for _, tt := range []struct {
		chat, code string
		want       i18n.Lang
	}{
		{"", "ru-RU", i18n.RU},
		{"", "uk", i18n.UK},
		{"", "de", i18n.EN},
		{"uk", "ru", i18n.UK},
		{"en", "ru", i18n.EN},
	} {
		in := drawing(t, names[i18n.EN]).input(carol, i18n.EN)
		in.ChatLanguage, in.Viewer.LanguageCode = tt.chat, tt.code
		v := view.Make(in)
		assert.Equal(t, string(tt.want), v.Lang, "%q %q", tt.chat, tt.code)
		assert.Equal(t, i18n.T(tt.want, i18n.BtnHit), v.Actions[0].Actions[0].Label)
		assert.Equal(t, i18n.For(tt.chat, tt.code), i18n.Lang(v.Lang))
	}
}

// TestViewer: the viewer's seat, balance and the deadline as stored.
func TestViewer(t *testing.T) {
	p := drawing(t, names[i18n.EN])
	v := view.Make(p.input(carol, i18n.EN))
	require.Equal(t, 2, v.You.Seat)
	assert.True(t, v.Seats[2].You)
	assert.Equal(t, "to_move", v.Seats[2].State)
	assert.Equal(t, v.Turn, v.You.Seat)
	require.NotNil(t, v.You.Balance)
	assert.Equal(t, p.Bal[carol], *v.You.Balance)
	assert.Equal(t, p.Table.Deadline().UnixMilli(), v.Deadline)
	assert.Positive(t, v.Deadline)
	assert.Equal(t, view.Format, v.V)
	assert.Equal(t, p.Table.Version(), v.Version)

	w := view.Make(p.input(eve, i18n.EN))
	assert.Equal(t, -1, w.You.Seat)
	require.NotNil(t, w.You.Balance)
	assert.Equal(t, int64(1000), *w.You.Balance)
	assert.Empty(t, w.Actions, "a watcher does nothing during a game")
	for _, s := range w.Seats {
		assert.False(t, s.You)
	}

	in := p.input(eve, i18n.EN)
	delete(in.Balances, eve)
	assert.Nil(t, view.Make(in).You.Balance, "a balance not known is left out")
}

// TestNamesAsTheChatShowsThem: current names replace the kept ones, and
// characters that reorder text are left out, as in the chat.
func TestNamesAsTheChatShowsThem(t *testing.T) {
	in := drawing(t, names[i18n.EN]).input(eve, i18n.EN)
	in.Names = map[game.UserID]string{bob: "Ro\u202eb"}
	v := view.Make(in)
	assert.Equal(t, "Rob", v.Seats[1].Name)
	assert.Contains(t, strings.Join(v.Log, "\n"), "Rob:")
	assert.Equal(t, "Carol", v.Seats[2].Name)
}

// TestJSONIsOneLine: the view goes out as one line of JSON (an SSE event's
// data), whatever the names hold.
func TestJSONIsOneLine(t *testing.T) {
	in := drawing(t, names[i18n.EN]).input(eve, i18n.EN)
	in.Names = map[game.UserID]string{bob: "Bob\nJr\r", carol: "</script>"}
	b, err := json.Marshal(view.Make(in))
	require.NoError(t, err)
	assert.NotContains(t, string(b), "\n")
	assert.NotContains(t, string(b), "\r")
	assert.NotContains(t, string(b), "</script>")
}

// longGame plays circles until the game ends or has knocked knocks
// times: each player bets the whole bank and stands on the fewest cards
// the rules allow, so that the banker wins, the bank doubles and knocks.
func longGame(t testing.TB, n map[game.UserID]string, knocks int) *play {
	const losing = "6s 6h 7h Js Jh Qs Qh 9s Jd Jc Qd 6d 6c 7s Ts 8s 9d"
	decks := make([]string, 3*(knocks+1))
	for i := range decks {
		decks[i] = losing
	}
	p := newPlay(t, gametest.Deck(decks...), n)
	p.Env.Settings.MaxKnocks = knocks
	for _, u := range []game.UserID{alice, bob, carol, dave} {
		p.Bal[u] = 1e12
	}
	p.do(game.Open, alice, 0).do(game.Join, bob, 0).do(game.Join, carol, 0).do(game.Join, dave, 0).do(game.Start, alice, 0)
	for steps := 0; p.Table.Phase().InGame() && steps < 1000; steps++ {
		i, ok := p.Table.Turn()
		require.True(t, ok, "a turn in phase %s", p.Table.Phase())
		s := p.Table.Seat(i)
		switch {
		case p.Table.Phase() == game.Betting:
			offers := p.Table.Offers(p.Bal[s.User])
			p.do(game.Bet, s.User, offers[len(offers)-1].Amount)
		default:
			stand := game.Command{Kind: game.Stand, User: s.User, Version: p.Table.Version()}
			if _, _, err := game.Apply(p.Table, stand, p.Env); err != nil {
				p.do(game.Hit, s.User, 0)
				continue
			}
			p.do(game.Stand, s.User, 0)
		}
	}
	return p
}

// TestLogKeepsTheLastLines: a game longer than MaxLog lines shows the
// last MaxLog lines of its log as the chat's message words it.
func TestLogKeepsTheLastLines(t *testing.T) {
	p := longGame(t, names[i18n.EN], 6)
	v := view.Make(p.input(alice, i18n.EN))
	require.Len(t, v.Log, view.MaxLog)
	log := render.TableWords(p.chat(alice, i18n.EN)).Log
	require.Greater(t, len(log), view.MaxLog, "the game's log is longer than MaxLog lines")
	assert.Equal(t, log[len(log)-view.MaxLog:], v.Log, "its last %d lines", view.MaxLog)
	assert.Contains(t, strings.Join(v.Log, "\n"), "Knock")
}

// TestViewAction: Action finds the first action, in the view's order, of
// one of the verbs asked for.
func TestViewAction(t *testing.T) {
	v := view.View{Actions: []view.Line{
		{Actions: []view.Action{{Verb: "hit", Data: "h"}, {Verb: "stand", Data: "s"}}},
		{Actions: []view.Action{{Verb: "bet", Data: "b1"}, {Verb: "bet", Data: "b2"}}},
	}}
	tests := []struct {
		verbs []string
		want  string
		ok    bool
	}{
		{[]string{"stand"}, "s", true},
		{[]string{"bet"}, "b1", true},
		{[]string{"bet", "hit"}, "h", true},
		{[]string{"join"}, "", false},
		{nil, "", false},
	}
	for _, tt := range tests {
		a, ok := v.Action(tt.verbs...)
		assert.Equal(t, tt.ok, ok, "%v", tt.verbs)
		assert.Equal(t, tt.want, a.Data, "%v", tt.verbs)
	}
}
