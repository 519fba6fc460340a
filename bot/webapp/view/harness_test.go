package view_test

import (
	"testing"
	"time"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/game/house"
)

// The players of the scenarios; eve never sits down: she watches.
const alice, bob, carol, dave, eve = gametest.Alice, gametest.Bob, gametest.Carol, gametest.Dave, gametest.Eve

// names are the players' names in each language, as render's scenarios
// have them.
var names = map[i18n.Lang]map[game.UserID]string{
	i18n.EN: {alice: "Alice", bob: "Bob", carol: "Carol", dave: "Dave", eve: "Eve"},
	i18n.RU: {alice: "Алиса", bob: "Борис", carol: "Вера", dave: "Дима", eve: "Ева"},
	i18n.UK: {alice: "Олеся", bob: "Богдан", carol: "Віра", dave: "Євген", eve: "Ірина"},
}

// play drives a table through real game commands (gametest.Play), on a
// table of a kind.
type play struct {
	*gametest.Play
	// solo: the table is a private chat's; inline: an inline message's.
	solo, inline bool
}

// newPlay starts a play (gametest.NewPlay).
func newPlay(t testing.TB, rnd game.Rand, names map[game.UserID]string) *play {
	return &play{Play: gametest.NewPlay(t, rnd, names)}
}

// do applies a command, which must be accepted (gametest.Play.Do).
func (p *play) do(kind game.CommandKind, user game.UserID, amount int64) *play {
	p.T.Helper()
	p.Do(kind, user, amount)
	return p
}

// after moves the clock on.
func (p *play) after(d time.Duration) *play {
	p.After(d)
	return p
}

// balances are what storage's view holds: everyone seated, and the viewer.
func (p *play) balances(viewer game.UserID) map[game.UserID]int64 {
	bal := map[game.UserID]int64{viewer: p.Bal[viewer]}
	for _, u := range p.Table.Users() {
		bal[u] = p.Bal[u]
	}
	return bal
}

// input is the view's input for viewer in a chat speaking lang.
func (p *play) input(viewer game.UserID, lang i18n.Lang) view.Input {
	return view.Input{Input: render.Input{Table: p.Table, Settings: p.Env.Settings, Balances: p.balances(viewer),
		Solo: p.solo, Inline: p.inline}, ChatLanguage: string(lang), Viewer: view.Viewer{User: viewer, LanguageCode: "en"}}
}

// chat is the chat's table message's input for the same state.
func (p *play) chat(viewer game.UserID, lang i18n.Lang) render.Input {
	return render.Input{Table: p.Table, Settings: p.Env.Settings, Balances: p.balances(viewer),
		Lang: lang, Now: p.Env.Now, Solo: p.solo, Inline: p.inline}
}

// lobby: Alice opened a table and Bob joined.
func lobby(t testing.TB, n map[game.UserID]string) *play {
	return newPlay(t, gametest.Deck(), n).do(game.Open, alice, 0).after(time.Minute).do(game.Join, bob, 0)
}

// full: four seated, nobody started yet.
func full(t testing.TB, n map[game.UserID]string, rnd game.Rand) *play {
	p := newPlay(t, rnd, n).do(game.Open, alice, 0).after(time.Minute).do(game.Join, bob, 0)
	return p.do(game.Join, carol, 0).do(game.Join, dave, 0)
}

// betting: Alice banks; Bob made Five pictures; Carol is to bet.
func betting(t testing.TB, n map[game.UserID]string) *play {
	p := full(t, n, gametest.Deck("Js 9d As Qh Kd Jh Qs 6c")).do(game.Start, bob, 0).do(game.Bet, bob, 5)
	for range 4 {
		p.do(game.Hit, bob, 0)
	}
	return p
}

// drawing: Carol bet 5 and drew a card: she is to hit or stand.
func drawing(t testing.TB, n map[game.UserID]string) *play {
	return betting(t, n).do(game.Bet, carol, 5).do(game.Hit, carol, 0)
}

// cutting: four seated, Bob started the game; its deck, the second link
// of a chain, waits for the cut, which Bob is asked for.
func cutting(t testing.TB, n map[game.UserID]string) *play {
	deck := gametest.Deck("Js 9d As Qh Kd Jh Qs 6c")
	p := full(t, n, deck)
	p.CutDecks(deck)
	return p.do(game.Start, bob, 0)
}

// cutByCarol: Carol cut the deck of cutting; Bob is to bet.
func cutByCarol(t testing.TB, n map[game.UserID]string) *play {
	p := cutting(t, n).after(5 * time.Second)
	p.Cut(carol, "tap:2")
	return p
}

// cutLeaving: Carol left the game of cutting while its deck waits for
// the cut.
func cutLeaving(t testing.TB, n map[game.UserID]string) *play {
	return cutting(t, n).do(game.Leave, carol, 0)
}

// houseThinking: Alice banks; Bob bet and stood; the house bet half the
// bank and drew a card: it is to move.
func houseThinking(t testing.TB, n map[game.UserID]string) *play {
	p := newPlay(t, gametest.Deck("Ts 7h 9d 8c 6s Jh"), n).do(game.Open, alice, 0).do(game.Join, bob, 0)
	p.do(game.Join, house.ID, 0).do(game.Start, alice, 0)
	return p.do(game.Bet, bob, 10).do(game.Stand, bob, 0).do(game.Bet, house.ID, 10).do(game.Hit, house.ID, 0)
}

// gameOver: Bob made 21 on half the bank, Carol won the rest when the
// banker bust; Dave sat out and the game ended: the lobby after it.
func gameOver(t testing.TB, n map[game.UserID]string) *play {
	p := full(t, n, gametest.Deck("Th 7c As Ks 7d 9s Ts 6h 8d")).do(game.Start, dave, 0)
	p.do(game.Bet, bob, 5).do(game.Hit, bob, 0).do(game.Hit, bob, 0)
	return p.do(game.Bet, carol, 5).do(game.Hit, carol, 0).do(game.Stand, carol, 0)
}

// gameOverInline: the game of gameOver, on an inline message, whose
// finished game offers the chat's leaderboard too.
func gameOverInline(t testing.TB, n map[game.UserID]string) *play {
	p := gameOver(t, n)
	p.inline = true
	return p
}

// closed: nobody started the lobby in time.
func closed(t testing.TB, n map[game.UserID]string) *play {
	return lobby(t, n).after(11*time.Minute).do(game.Timeout, 0, 0)
}

// solo: Alice opened a table in her private chat; the house sat down.
func solo(t testing.TB, n map[game.UserID]string) *play {
	p := newPlay(t, gametest.Deck(), n)
	p.solo = true
	return p.do(game.Open, alice, 0).do(game.Join, house.ID, 0)
}

// scenario is a state a golden file shows, with the viewers it is shown to.
type scenario struct {
	name    string
	play    func(testing.TB, map[game.UserID]string) *play
	phase   game.Phase
	viewers []game.UserID
}

var scenarios = []scenario{
	{"lobby", lobby, game.Lobby, []game.UserID{alice, eve}},
	{"betting", betting, game.Betting, []game.UserID{carol, bob, eve}},
	{"drawing", drawing, game.Drawing, []game.UserID{carol, alice, eve}},
	{"cutting", cutting, game.Cutting, []game.UserID{bob, carol, eve}},
	{"cut_leaving", cutLeaving, game.Cutting, []game.UserID{carol}},
	{"cut_by", cutByCarol, game.Betting, []game.UserID{bob}},
	{"house_thinking", houseThinking, game.Drawing, []game.UserID{bob, eve}},
	{"game_over", gameOver, game.Lobby, []game.UserID{dave, eve}},
	{"game_over_inline", gameOverInline, game.Lobby, []game.UserID{bob}},
	{"closed", closed, game.Closed, []game.UserID{alice}},
	{"solo", solo, game.Lobby, []game.UserID{alice}},
}

// viewerNames name the viewers in golden files' names.
var viewerNames = map[game.UserID]string{alice: "alice", bob: "bob", carol: "carol", dave: "dave", eve: "watcher"}
