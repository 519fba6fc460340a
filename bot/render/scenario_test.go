package render

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/game/house"
)

// The players of the scenarios.
const alice, bob, carol, dave, eve = gametest.Alice, gametest.Bob, gametest.Carol, gametest.Dave, gametest.Eve

// play drives a table through real game commands (gametest.Play) and
// keeps what the bot would render with it.
type play struct {
	*gametest.Play
	// awards are the achievements storage would have awarded in the game.
	awards []award.Award
	// solo: the table is a private chat's; houseOff: the house is
	// forbidden there.
	solo, houseOff bool
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

// award gives user the achievements, as storage would have in the game.
func (p *play) award(user game.UserID, as ...award.Achievement) *play {
	for _, a := range as {
		p.awards = append(p.awards, award.Award{User: user, Achievement: a})
	}
	return p
}

// after moves the clock on.
func (p *play) after(d time.Duration) *play {
	p.After(d)
	return p
}

// input is what the bot would render now, 15 s after the last command.
func (p *play) input(lang i18n.Lang) Input {
	return p.inputFor(p.Table, lang)
}

func (p *play) inputFor(t game.Table, lang i18n.Lang) Input {
	bal := map[game.UserID]int64{}
	for _, u := range t.Users() {
		bal[u] = p.Bal[u]
	}
	return Input{Table: t, Settings: p.Env.Settings, Balances: bal, Lang: lang, Now: p.Env.Now.Add(15 * time.Second), Awards: p.awards,
		Solo: p.solo, HouseForbidden: p.houseOff}
}

// plainNames are the scenarios' usual names.
var plainNames = map[i18n.Lang]map[game.UserID]string{
	i18n.EN: {alice: "Alice", bob: "Bob", carol: "Carol", dave: "Dave", eve: "Eve"},
	i18n.RU: {alice: "Алиса", bob: "Борис", carol: "Вера", dave: "Дима", eve: "Ева"},
	i18n.UK: {alice: "Олеся", bob: "Богдан", carol: "Віра", dave: "Євген", eve: "Ірина"},
}

// lobby: Alice opened a table and Bob joined.
func lobby(t testing.TB, names map[game.UserID]string, rnd game.Rand) *play {
	return newPlay(t, rnd, names).do(game.Open, alice, 0).after(time.Minute).do(game.Join, bob, 0)
}

// lobbyAutoStart: the lobby of a chat whose game starts by itself when
// the last seat is taken (game.Settings.AutoStart).
func lobbyAutoStart(t testing.TB, names map[game.UserID]string) *play {
	p := newPlay(t, gametest.Deck(), names)
	p.Env.Settings.AutoStart = true
	return p.do(game.Open, alice, 0).after(time.Minute).do(game.Join, bob, 0)
}

// full: four seated, nobody started yet.
func full(t testing.TB, names map[game.UserID]string, rnd game.Rand) *play {
	return lobby(t, names, rnd).do(game.Join, carol, 0).do(game.Join, dave, 0)
}

// betting: Alice banks; Bob made Five pictures; Carol is to bet.
func betting(t testing.TB, names map[game.UserID]string) *play {
	p := full(t, names, gametest.Deck("Js 9d As Qh Kd Jh Qs 6c"))
	p.do(game.Start, bob, 0).do(game.Bet, bob, 5)
	for range 4 {
		p.do(game.Hit, bob, 0)
	}
	return p
}

// drawing: Carol bet 5 and drew a card.
func drawing(t testing.TB, names map[game.UserID]string) *play {
	return betting(t, names).do(game.Bet, carol, 5).do(game.Hit, carol, 0)
}

// The long game: three circles, two knocks.
//
// Circle 1, bank 10: Bob busts (10), Carol loses to the banker (20), Dave
// ties (40). The bank grew to 80: knock.
// Circle 2, bank 80: Bob bets 80 and leaves, Carol wins 10, Dave loses 150.
// The bank grew to 300: knock.
// Circle 3, bank 300: Carol times out, Dave makes Golden 21 on 10. The game
// ends; Alice takes 290.
func longGameDecks() *gametest.Stacked {
	return gametest.Deck(
		"9s 8h Tc Th 7s 6s Td 9d 8s Ts 8d",
		"7h Th 9c 9h 8c 9s 7c As 6h",
		"6d Ah Ad",
	)
}

// knock: the first circle ended with a knock; Bob is to bet.
func knock(t testing.TB, names map[game.UserID]string) *play {
	p := full(t, names, longGameDecks()).do(game.Start, alice, 0)
	p.do(game.Bet, bob, 10).do(game.Hit, bob, 0).do(game.Hit, bob, 0)
	p.do(game.Bet, carol, 20).do(game.Hit, carol, 0).do(game.Stand, carol, 0)
	p.do(game.Bet, dave, 40).do(game.Hit, dave, 0).do(game.Stand, dave, 0)
	return p
}

// duelLog: two knocks, Carol sat the third circle out; Dave is to bet.
func duelLog(t testing.TB, names map[game.UserID]string) *play {
	p := knock(t, names)
	p.do(game.Bet, bob, 80).do(game.Leave, bob, 0)
	p.do(game.Bet, carol, 10).do(game.Hit, carol, 0).do(game.Stand, carol, 0)
	p.do(game.Bet, dave, 150).do(game.Hit, dave, 0).do(game.Stand, dave, 0)
	return p.after(61*time.Second).do(game.Timeout, 0, 0)
}

// gameOver: Dave's Golden 21 ended the long game. Alice knocked, and took
// a fat bank in her first game won; Dave made his first Golden 21.
func gameOver(t testing.TB, names map[game.UserID]string) *play {
	p := duelLog(t, names).award(alice, award.Knock).do(game.Bet, dave, 10).do(game.Hit, dave, 0)
	return p.award(dave, award.Golden21).award(alice, award.FatBank, award.FirstWin)
}

// lobbyAfterGame: after the long game Eve sat down and Carol left.
func lobbyAfterGame(t testing.TB, names map[game.UserID]string) *play {
	return gameOver(t, names).after(time.Minute).do(game.Join, eve, 0).do(game.Leave, carol, 0)
}

// closedTimeout: nobody started the lobby.
func closedTimeout(t testing.TB, names map[game.UserID]string) *play {
	return lobby(t, names, gametest.Deck()).after(11*time.Minute).do(game.Timeout, 0, 0)
}

// closedCancelled: an admin cancelled the game of drawing, in which Bob
// made his first Five pictures and won his first game.
func closedCancelled(t testing.TB, names map[game.UserID]string) *play {
	return drawing(t, names).award(bob, award.FivePictures).do(game.Cancel, alice, 0).award(bob, award.FirstWin)
}

// bankBroken: Bob made 21 on half the bank, Carol won the rest when the
// banker bust; Dave sat out and the game ended.
func bankBroken(t testing.TB, names map[game.UserID]string) *play {
	p := full(t, names, gametest.Deck("Th 7c As Ks 7d 9s Ts 6h 8d")).do(game.Start, dave, 0)
	p.do(game.Bet, bob, 5).do(game.Hit, bob, 0).do(game.Hit, bob, 0)
	return p.do(game.Bet, carol, 5).do(game.Hit, carol, 0).do(game.Stand, carol, 0)
}

// noDuel: Alice, Bob and Carol sat down and started, and nobody bet in time:
// the game ended without a duel.
func noDuel(t testing.TB, names map[game.UserID]string) *play {
	p := lobby(t, names, gametest.Deck("9s 8h Tc Th")).do(game.Join, carol, 0).do(game.Start, alice, 0)
	for !p.Table.Finished() {
		p.after(61*time.Second).do(game.Timeout, 0, 0)
	}
	return p
}

// houseLobby: Alice opened a table, Bob joined and the house sat down.
func houseLobby(t testing.TB, names map[game.UserID]string, rnd game.Rand) *play {
	return lobby(t, names, rnd).do(game.Join, house.ID, 0)
}

// houseThinking: Alice banks; Bob bet and lost; the house bet half the
// bank and drew a card: it is to move.
func houseThinking(t testing.TB, names map[game.UserID]string) *play {
	p := houseLobby(t, names, gametest.Deck("Ts 7h 9d 8c 6s Jh")).do(game.Start, alice, 0)
	return p.do(game.Bet, bob, 10).do(game.Stand, bob, 0).do(game.Bet, house.ID, 10).do(game.Hit, house.ID, 0)
}

// houseBanker: the house banks (the first banker is its seat); Alice is to
// bet.
func houseBanker(t testing.TB, names map[game.UserID]string) *play {
	rnd := gametest.Deck("9s 8h")
	rnd.Banker = 1
	return newPlay(t, rnd, names).do(game.Open, alice, 0).do(game.Join, house.ID, 0).do(game.Start, alice, 0)
}

// soloTable: Alice opened a table in her private chat; the house sat down.
func soloTable(t testing.TB, names map[game.UserID]string, rnd game.Rand) *play {
	p := newPlay(t, rnd, names)
	p.solo = true
	return p.do(game.Open, alice, 0).do(game.Join, house.ID, 0)
}

// soloHouseOff: Alice opened a table in her private chat, where she turned
// the house off.
func soloHouseOff(t testing.TB, names map[game.UserID]string) *play {
	p := newPlay(t, gametest.Deck(), names)
	p.solo, p.houseOff = true, true
	return p.do(game.Open, alice, 0)
}

// soloAfterGame: the house banked; Alice stood at 19 against its 17 and
// broke the bank.
func soloAfterGame(t testing.TB, names map[game.UserID]string) *play {
	rnd := gametest.Deck("9s Th 8h 9d")
	rnd.Banker = 1
	p := soloTable(t, names, rnd).do(game.Start, alice, 0)
	return p.do(game.Bet, alice, 10).do(game.Hit, alice, 0).do(game.Stand, alice, 0).award(alice, award.BrokeBank, award.FirstWin)
}

// soloClosed: Alice closed her solo lobby: she left, and the house with
// her (in one transaction; played here house first, so that no state
// shows the house alone).
func soloClosed(t testing.TB, names map[game.UserID]string) *play {
	return soloTable(t, names, gametest.Deck()).do(game.Leave, house.ID, 0).do(game.Leave, alice, 0)
}

// scenario names a play that ends in the state a golden file shows.
type scenario struct {
	name string
	play func(testing.TB, map[game.UserID]string) *play
}

var scenarios = []scenario{
	{"lobby", func(t testing.TB, n map[game.UserID]string) *play { return lobby(t, n, gametest.Deck()) }},
	{"lobby_full", func(t testing.TB, n map[game.UserID]string) *play { return full(t, n, gametest.Deck()) }},
	{"lobby_autostart", lobbyAutoStart},
	{"lobby_after_game", lobbyAfterGame},
	{"betting", betting},
	{"drawing", drawing},
	{"knock", knock},
	{"log", duelLog},
	{"game_over", gameOver},
	{"bank_broken", bankBroken},
	{"no_duel", noDuel},
	{"closed_timeout", closedTimeout},
	{"closed_cancelled", closedCancelled},
	{"house_lobby", func(t testing.TB, n map[game.UserID]string) *play { return houseLobby(t, n, gametest.Deck()) }},
	{"house_thinking", houseThinking},
	{"house_banker", houseBanker},
	{"solo_lobby", func(t testing.TB, n map[game.UserID]string) *play { return soloTable(t, n, gametest.Deck()) }},
	{"solo_house_off", soloHouseOff},
	{"solo_after_game", soloAfterGame},
	{"solo_closed", soloClosed},
}

// fullLog plays the game with the longest log: nine duels with long hands,
// two knocks, every player still seated at the end.
//
// Circles 1 and 2 are dealt the same deck: Bob busts on six cards, Carol
// loses to the banker's three, Dave ties at 17. The bank grows from 10 to 80
// to 250. In circle 3 Bob outscores the banker, the banker busts against
// Carol and Dave makes Five pictures.
func fullLog(t testing.TB, names map[game.UserID]string) *play {
	const losing = "6s 6h 7h Js Jh Qs Qh 9s Jd Jc Qd 6d 6c 7s Ts 8s 9d"
	p := full(t, names, gametest.Deck(losing, losing, "6s 6h Js Jh Qs Jd 7s Qh Kh Kd 6d Jc Qd Kc 6c 7h 9s Qc Ks Ah As"))
	p.do(game.Start, alice, 0)
	for _, bets := range [][3]int64{{10, 20, 40}, {80, 80, 10}} {
		p.do(game.Bet, bob, bets[0])
		for range 5 {
			p.do(game.Hit, bob, 0)
		}
		p.do(game.Bet, carol, bets[1]).do(game.Hit, carol, 0).do(game.Hit, carol, 0).do(game.Hit, carol, 0).do(game.Stand, carol, 0)
		p.do(game.Bet, dave, bets[2]).do(game.Hit, dave, 0).do(game.Stand, dave, 0)
	}
	p.do(game.Bet, bob, 10)
	for range 4 {
		p.do(game.Hit, bob, 0)
	}
	p.do(game.Stand, bob, 0)
	p.do(game.Bet, carol, 10).do(game.Hit, carol, 0).do(game.Hit, carol, 0).do(game.Hit, carol, 0).do(game.Stand, carol, 0)
	p.do(game.Bet, dave, 10)
	for range 4 {
		p.do(game.Hit, dave, 0)
	}
	return p
}

// record plays a game whose record runs past eight duels over four circles
// and three knocks, with both kinds of timeout.
//
// Circles 1 to 3 are dealt fullLog's losing deck. Circle 1 as in fullLog
// (bank 10 to 80); in circle 2 Carol runs out of time after her third card
// and stands by the clock (80 to 250); in circle 3 Bob and Carol lose the
// whole bank and half of it, Dave runs out of time to bet and sits out (250
// to 750). In circle 4 Bob and Carol win 10 each, and Dave runs out of time
// on 9 against the banker's Golden 21: Alice takes 740.
func record(t testing.TB, names map[game.UserID]string) *play {
	const losing = "6s 6h 7h Js Jh Qs Qh 9s Jd Jc Qd 6d 6c 7s Ts 8s 9d"
	p := full(t, names, gametest.Deck(losing, losing, losing, "6s 6h Js Jh Qs Jd 7s Qh Kh Kd 6d Jc Qd Kc 6c 7h 9s Qc Ks Ah As"))
	p.do(game.Start, alice, 0)
	for c, bets := range [][3]int64{{10, 20, 40}, {80, 80, 10}, {250, 250, 0}} {
		p.do(game.Bet, bob, bets[0])
		for range 5 {
			p.do(game.Hit, bob, 0)
		}
		p.do(game.Bet, carol, bets[1]).do(game.Hit, carol, 0).do(game.Hit, carol, 0).do(game.Hit, carol, 0)
		if c == 1 {
			p.after(61*time.Second).do(game.Timeout, 0, 0)
		} else {
			p.do(game.Stand, carol, 0)
		}
		if c == 2 {
			p.after(61*time.Second).do(game.Timeout, 0, 0)
			continue
		}
		p.do(game.Bet, dave, bets[2]).do(game.Hit, dave, 0).do(game.Stand, dave, 0)
	}
	p.do(game.Bet, bob, 10)
	for range 4 {
		p.do(game.Hit, bob, 0)
	}
	p.do(game.Stand, bob, 0)
	p.do(game.Bet, carol, 10).do(game.Hit, carol, 0).do(game.Hit, carol, 0).do(game.Hit, carol, 0).do(game.Stand, carol, 0)
	p.do(game.Bet, dave, 10).do(game.Hit, dave, 0).do(game.Hit, dave, 0)
	return p.after(61*time.Second).do(game.Timeout, 0, 0)
}

// longNames returns names of game.MaxNameLen bytes: ASCII full of HTML
// special characters (the most characters a name can show), or Cyrillic,
// emoji or CJK (multi-byte).
func longNames(style string) map[game.UserID]string {
	fill := map[string]string{"ascii": `<b>&"`, "cyrillic": "Ж", "emoji": "😀", "cjk": "漢"}[style]
	names := map[game.UserID]string{}
	for u, n := range plainNames[i18n.EN] {
		name := n + " " + strings.Repeat(fill, game.MaxNameLen)
		for len(name) > game.MaxNameLen {
			_, size := utf8.DecodeLastRuneInString(name)
			name = name[:len(name)-size]
		}
		names[u] = name
	}
	return names
}

// nameStyles are the styles of longNames.
var nameStyles = []string{"ascii", "cyrillic", "emoji", "cjk"}
