package playground_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/browsertest"
	"github.com/twentyone-bot/twentyone/storage"
)

// The Mini App in the page: a game played by one player in the app (the
// panel the table's button opens, its buttons pressed in the frame) and
// one in the chat, both views checked to agree after every move.

// The app's page, as the tests read it inside the panel's frame.
const (
	// appDocJS is the document of the app's frame, null while none loaded.
	appDocJS = `document.getElementById('miniapp-frame')?.contentDocument`
	// appStateJS reads the app's view of the table, null until drawn.
	appStateJS = `(() => { const d = ` + appDocJS + `; const t = d && d.getElementById('table');
		if (!t || t.hidden || !t.dataset.version) return null;
		const text = (e) => e && !e.hidden ? e.textContent : '';
		return {version: Number(t.dataset.version), phase: t.dataset.phase, bank: text(d.getElementById('bank')),
			status: text(d.getElementById('status-text')), you: d.getElementById('you-balance').textContent,
			seats: [...d.querySelectorAll('#seats li.seat')].map(li => ({name: li.querySelector('.name').textContent,
				balance: text(li.querySelector('.balance')), bet: text(li.querySelector('.bet')),
				cards: [...li.querySelectorAll('.cards .card')].map(c => c.dataset.card),
				turn: li.classList.contains('turn'), banker: li.classList.contains('banker'), you: li.classList.contains('you')})),
			actions: [...d.querySelectorAll('#actions button')].map(b => ({label: b.textContent, data: b.dataset.data, disabled: b.disabled}))} })()`
)

// appSeat and appState are the app's view as appStateJS reads it.
type appSeat struct {
	Name    string   `json:"name"`
	Balance string   `json:"balance"`
	Bet     string   `json:"bet"`
	Cards   []string `json:"cards"`
	Turn    bool     `json:"turn"`
	Banker  bool     `json:"banker"`
	You     bool     `json:"you"`
}

type appAction struct {
	Label    string `json:"label"`
	Data     string `json:"data"`
	Disabled bool   `json:"disabled"`
}

type appState struct {
	Version uint64      `json:"version"`
	Phase   string      `json:"phase"`
	Bank    string      `json:"bank"`
	Status  string      `json:"status"`
	You     string      `json:"you"`
	Seats   []appSeat   `json:"seats"`
	Actions []appAction `json:"actions"`
}

// seen is what both views must agree on: the bank (its digits, "" when
// none), whose turn it is ("" when nobody's), the banker, and each seat's
// balance, bet and cards as the chat words them.
type seen struct {
	Bank   string
	Turn   string
	Banker string
	Seats  map[string]seenSeat
}

type seenSeat struct {
	Balance string
	Bet     string
	Cards   string
}

// suits and ranks word a card's code ("Th") as the chat writes it ("10♥").
var (
	suits = map[byte]string{'s': "♠", 'h': "♥", 'd': "♦", 'c': "♣"}
	ranks = map[byte]string{'T': "10"}
)

func chatCard(code string) string {
	if len(code) != 2 {
		return "?" + code
	}
	r, ok := ranks[code[0]]
	if !ok {
		r = code[:1]
	}
	return r + suits[code[1]]
}

// seen is what the app shows.
func (a appState) seen() seen {
	s := seen{Bank: digits(a.Bank), Seats: map[string]seenSeat{}}
	for _, st := range a.Seats {
		var cards []string
		for _, c := range st.Cards {
			cards = append(cards, chatCard(c))
		}
		if st.Turn {
			s.Turn = st.Name
		}
		if st.Banker {
			s.Banker = st.Name
		}
		s.Seats[st.Name] = seenSeat{Balance: digits(st.Balance), Bet: digits(st.Bet), Cards: strings.Join(cards, " ")}
	}
	return s
}

var (
	chatBankRe   = regexp.MustCompile(`bank 🏦 ([\d\x{202F} ]+)`)
	chatBankerRe = regexp.MustCompile(`(?m)^🎩 Banker: (\S+) — ([\d\x{202F} ]+)$`)
	// chatSeatRe is a seat's line in a game: its name, balance and the rest.
	chatSeatRe = regexp.MustCompile(`(?m)^(\S+) — ([\d\x{202F} ]+)((?: · .*| ←.*)?)$`)
	chatBetRe  = regexp.MustCompile(`· bet ([\d\x{202F} ]+)`)
	chatCardRe = regexp.MustCompile(`(?:10|[2-9JQKA])[♠♥♦♣]`)
)

// chatSeen is what the chat's table message shows.
func chatSeen(text string) seen {
	s := seen{Seats: map[string]seenSeat{}}
	lines := strings.Split(text, "\n")
	if g := chatBankRe.FindStringSubmatch(lines[0]); g != nil {
		s.Bank = digits(g[1])
	}
	if g := chatBankerRe.FindStringSubmatch(text); g != nil {
		s.Banker = g[1]
		s.Seats[g[1]] = seenSeat{Balance: digits(g[2])}
	}
	if g := bettingRe.FindStringSubmatch(text); g != nil {
		s.Turn = g[1]
	} else if g := drawingRe.FindStringSubmatch(text); g != nil {
		s.Turn = g[1]
	}
	for _, g := range chatSeatRe.FindAllStringSubmatch(text, -1) {
		rest := g[3]
		if i := strings.Index(rest, "←"); i >= 0 {
			rest = rest[:i]
		}
		var ss seenSeat
		ss.Balance = digits(g[2])
		if b := chatBetRe.FindStringSubmatch(rest); b != nil {
			ss.Bet = digits(b[1])
		}
		ss.Cards = strings.Join(chatCardRe.FindAllString(rest, -1), " ")
		s.Seats[g[1]] = ss
	}
	for _, g := range seatedRe.FindAllStringSubmatch(text, -1) {
		s.Seats[g[1]] = seenSeat{Balance: digits(g[2])}
	}
	return s
}

// chatVersion is the version the chat's table buttons were drawn for
// (their callback data, verb:version[:…]); 0 when it shows none.
func chatVersion(tb table, data []string) uint64 {
	for _, d := range data {
		parts := strings.Split(d, ":")
		if len(parts) >= 2 && parts[0] != "v" {
			var v uint64
			if _, err := fmt.Sscan(parts[1], &v); err == nil {
				return v
			}
		}
	}
	return 0
}

// tableData is the callback data of the chat's table buttons.
func (b *browser) tableData(ctx context.Context) []string {
	b.t.Helper()
	return eval[[]string](ctx, b, `(() => { const r = `+tableRowJS+`; return r ? [...r.querySelectorAll('.kb-btn')].map(b => b.dataset.data || '') : [] })()`)
}

// appView reads the app's view in the tab's panel (nil until drawn).
func (b *browser) appView(ctx context.Context) *appState {
	b.t.Helper()
	return eval[*appState](ctx, b, appStateJS)
}

// agree waits until the app (in the tab app) and the chat (in the tab
// chat) show the same table: the same version when the chat's buttons
// name one, and the same bank, turn, banker, balances, bets and cards. It
// returns both.
func (b *browser) agree(app, chat context.Context, what string) (appState, table) {
	b.t.Helper()
	deadline := time.Now().Add(wait)
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		tb := b.table(chat)
		version := chatVersion(tb, b.tableData(chat))
		a := b.appView(app)
		if a != nil && (version == 0 || a.Version == version) && assert.ObjectsAreEqual(chatSeen(tb.Text), a.seen()) {
			return *a, tb
		}
		if time.Now().After(deadline) {
			var got any = "no view"
			if a != nil {
				got = a.seen()
			}
			b.t.Fatalf("%s: the app and the chat disagree (app version %v, chat's buttons %d)\nchat: %+v\napp:  %+v\nthe chat's table:\n%s",
				what, a, version, chatSeen(tb.Text), got, tb.Text)
		}
		<-tick.C
	}
}

// openApp presses the table's app button in the chat, as the current
// user, and waits until the panel shows the app's view of the table.
func (b *browser) openApp(ctx context.Context) appState {
	b.t.Helper()
	// Before it opens: no panel shows, and the app's button is a keyboard
	// button like the table's others (a class of the page's layout once
	// made it fill the chat).
	b.waitFor(ctx, "the table's app button", `!!document.querySelector('.kb-btn.app-link')`)
	assert.Equal(b.t, "none", eval[string](ctx, b, `getComputedStyle(document.getElementById('miniapp')).display`),
		"no panel before the button is pressed")
	heights := eval[[2]float64](ctx, b, `(() => {
		const h = sel => document.querySelector(sel).getBoundingClientRect().height;
		return [h('.kb-btn.app-link'), h('.kb-btn:not(.app-link)')] })()`)
	assert.InDelta(b.t, heights[1], heights[0], 1, "the app's button is as tall as the table's other buttons")
	b.press(ctx, appLabel, "")
	b.waitFor(ctx, "the app's panel", `!document.getElementById('miniapp').hidden`)
	return poll[appState](ctx, b, "the app's view", appStateJS)
}

// actInApp presses the app's action labelled label in the panel's frame,
// as a finger on the phone would, and waits until the app has taken it
// (its actions no longer wait for it).
func (b *browser) actInApp(ctx context.Context, label string) {
	b.t.Helper()
	btn := `[...` + appDocJS + `.querySelectorAll('#actions button')].find(b => b.textContent === ` + js(label) + `)`
	b.waitFor(ctx, "the app's "+label, btn+` && !(`+btn+`).disabled`)
	b.run(ctx, "pressing "+label+" in the app", chromedp.Click(chromedp.JSPath(btn)))
}

// appCutData is the callback data of the app's ½ cut, "" when none.
func appCutData(a appState) string {
	for _, act := range a.Actions {
		if act.Label == "✂️ ½" {
			return act.Data
		}
	}
	return ""
}

// appMove is the label of the app's action that a move takes: the first
// bet (the smallest), the cut's middle, a hit below 16, else a stand.
func appMove(a appState, m move, cutting bool) string {
	switch {
	case cutting:
		return "✂️ ½"
	case m.betting:
		return a.Actions[0].Label
	case m.score < 16:
		return "Hit 🂠"
	}
	return "Stand ✋"
}

// playAcross plays the table's game to its end: appPlayer in the app (in
// the tab app), the other player in the chat (in the tab chat, whose
// page's user they are), each move the one play() makes; after every move
// both views must agree, and the app must offer its player actions on
// their turn alone. It returns both views of the game over and how many
// moves each side made.
func (b *browser) playAcross(app, chat context.Context, appPlayer string) (appState, table, [2]int) {
	b.t.Helper()
	var moves [2]int // in the app, in the chat
	a, tb := b.agree(app, chat, "the game's start")
	for step := 0; !strings.Contains(tb.Text, "Game over"); step++ {
		require.Less(b.t, step, 80, "the game should be over by now; the table: %s", tb.Text)
		var m move
		cutting := false
		if g := cutRe.FindStringSubmatch(tb.Text); g != nil {
			m.player, cutting = g[1], true
		} else if g := bettingRe.FindStringSubmatch(tb.Text); g != nil {
			m = move{player: g[1], betting: true}
		} else if g := drawingRe.FindStringSubmatch(tb.Text); g != nil {
			m.player = g[1]
			m.score = int(chips(b.t, "0"+g[2]))
		} else {
			b.t.Fatalf("whose move is it? The table:\n%s", tb.Text)
		}
		what := fmt.Sprintf("move %d, %s's", step+1, m.player)
		before := tb.sig()
		if m.player == appPlayer {
			require.NotEmpty(b.t, a.Actions, "%s: the app offers its player their move", what)
			b.actInApp(app, appMove(a, m, cutting))
			moves[0]++
		} else {
			if cutting {
				// Any seated player may cut: the one asked is who should.
				assert.Contains(b.t, a.Actions, appAction{Label: "✂️ ½", Data: appCutData(a)}, "%s: Alice may cut too", what)
			} else {
				assert.Empty(b.t, a.Actions, "%s: the app offers nothing on another's turn", what)
			}
			label := "Stand ✋"
			switch {
			case cutting:
				label = "✂️ ½"
			case m.betting:
				label = tb.Labels[0]
			case m.score < 16:
				label = "Hit 🂠"
			}
			b.press(chat, label, "")
			moves[1]++
		}
		b.waitTable(chat, what+": the chat's table changed", `r.dataset.messageId + '/' + r.dataset.edits !== `+js(before))
		a, tb = b.agree(app, chat, what)
	}
	return a, tb, moves
}

// playGames plays games at the table, Alice in the app and Bob in the
// chat (playAcross), until each has made moves: the banker makes none,
// and the first game's is a random player, the next game's the next seat.
// Alice starts each next game in the app ("Play again ▶"). It returns the
// last game over and the moves made on each side.
func (b *browser) playGames(app, chat context.Context) (appState, table, [2]int) {
	b.t.Helper()
	var all [2]int
	for games := 1; ; games++ {
		a, tb, moves := b.playAcross(app, chat, "Alice")
		all[0] += moves[0]
		all[1] += moves[1]
		if all[0] > 0 && all[1] > 0 || games == 3 {
			return a, tb, all
		}
		before := tb.sig()
		b.actInApp(app, "Play again ▶")
		b.waitTable(chat, "the next game started from the app", `r.dataset.messageId + '/' + r.dataset.edits !== `+js(before))
	}
}

// startInBoth opens a table in Game night as Alice in the chat (tab app),
// opens its app from the table's button, has Bob join in the chat (tab
// chat, switched to Bob) and Alice start the game in the app.
func (b *browser) startInBoth(app, chat context.Context) {
	b.t.Helper()
	b.send(app, "/newgame")
	b.waitTable(app, "the lobby", `r.innerText.includes('Join')`)
	a := b.openApp(app)
	assert.Equal(b.t, "lobby", a.Phase)
	require.Len(b.t, a.Seats, 1)
	assert.True(b.t, a.Seats[0].You, "Alice sees her own seat")
	assert.Equal(b.t, "as Alice Archer", eval[string](app, b, `document.getElementById('miniapp-user').textContent`))
	b.as(chat, "Bob")
	b.pressAndWait(chat, "Join", "You're in.")
	a, _ = b.agree(app, chat, "Bob joined in the chat")
	require.Len(b.t, a.Seats, 2)
	before := b.table(chat).sig()
	b.actInApp(app, "Start ▶")
	b.waitTable(chat, "the game started from the app", `r.dataset.messageId + '/' + r.dataset.edits !== `+js(before))
}

// finish checks the game over: both views agree with the database, and
// closing the panel unloads the app.
func (b *browser) finish(app context.Context, a appState, tb table, moves [2]int, balances map[string]int64) {
	b.t.Helper()
	assert.Positive(b.t, moves[0], "moves in the app")
	assert.Positive(b.t, moves[1], "moves in the chat")
	shown := map[string]int64{}
	for name, s := range chatSeen(tb.Text).Seats {
		shown[name] = chips(b.t, s.Balance)
	}
	assert.Equal(b.t, balances, shown, "the chat's balances are the database's")
	assert.Equal(b.t, digits(chatSeen(tb.Text).Seats["Alice"].Balance), digits(a.You), "the app's own balance is Alice's")
	b.run(app, "closing the app", chromedp.Click(chromedp.ID("miniapp-close")))
	b.waitFor(app, "the panel closed", `document.getElementById('miniapp').hidden && !document.body.classList.contains('show-app')`)
	assert.Nil(b.t, b.appView(app), "the app unloaded")
}

// rect is an element's box on the screen.
type rect struct {
	X, Y, W, H float64
}

func (b *browser) rectOf(ctx context.Context, id string) rect {
	b.t.Helper()
	return eval[rect](ctx, b, `(() => { const r = document.getElementById(`+js(id)+`).getBoundingClientRect();
		return {X: r.x, Y: r.y, W: r.width, H: r.height} })()`)
}

// TestBrowserMiniAppDesktop: on a desktop's screen, the table's app button
// opens the app beside the chat in a phone's frame, 390×844; Alice plays
// a whole game in it while Bob plays in the chat, and after every move
// the two agree on whose turn it is, the bank, the bets, the cards and
// the balances.
func TestBrowserMiniAppDesktop(t *testing.T) {
	pg := startBrowserPlayground(t)
	ctx, b := newBrowser(t)
	night := pg.Groups()[0]
	b.run(ctx, "opening the page", chromedp.EmulateViewport(1440, 960), chromedp.Navigate(pg.URL()))
	b.waitFor(ctx, "the page to load", `document.body.dataset.ready === '1' && !!document.querySelector('.chat-item')`)
	b.as(ctx, "Alice")
	b.openChat(ctx, night.ID)

	b.startInBoth(ctx, ctx)
	frame, chat := b.rectOf(ctx, "miniapp-frame"), b.rectOf(ctx, "chat")
	assert.Equal(t, rect{W: 390, H: 844}, rect{W: frame.W, H: frame.H}, "a phone's screen")
	assert.LessOrEqual(t, chat.X+chat.W, frame.X, "beside the chat, not over it")
	assert.Equal(t, "as Alice Archer", eval[string](ctx, b, `document.getElementById('miniapp-user').textContent`),
		"the app stays Alice's while the page plays Bob")

	a, tb, moves := b.playGames(ctx, ctx)
	b.screenshot(ctx, "miniapp-desktop.png")
	b.finish(ctx, a, tb, moves, storedBalances(t, pg.Store(), night.ID))
}

// TestBrowserMiniAppPhone: on phones, 390×844, the app covers Alice's
// whole screen (under its bar: its name, whose it is, close); she plays a
// whole game in it while Bob plays on his phone, in the chat, and after
// every move the two agree.
func TestBrowserMiniAppPhone(t *testing.T) {
	pg := startBrowserPlayground(t)
	alice, b := newBrowser(t)
	bob, cancel := chromedp.NewContext(alice)
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(bob), "Bob's tab")
	browsertest.WatchErrors(bob, t)
	night := pg.Groups()[0]
	for _, tab := range []context.Context{alice, bob} {
		b.run(tab, "opening the page on a phone",
			chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Navigate(pg.URL()))
		b.waitFor(tab, "the page to load", `document.body.dataset.ready === '1' && !!document.querySelector('.chat-item')`)
		b.openChatOnPhone(tab, night.ID)
	}
	b.as(alice, "Alice")

	b.startInBoth(alice, bob)
	assert.Equal(t, rect{W: 390, H: 844}, b.rectOf(alice, "miniapp"), "the app's panel is the phone's screen")
	frame := b.rectOf(alice, "miniapp-frame")
	assert.Equal(t, 390.0, frame.W)
	assert.Equal(t, 844.0, frame.Y+frame.H, "down to the screen's bottom")

	a, tb, moves := b.playGames(alice, bob)
	b.screenshot(alice, "miniapp-phone.png")
	b.finish(alice, a, tb, moves, storedBalances(t, pg.Store(), night.ID))
}

// storedBalances are the group's balances in the database, by name.
func storedBalances(t *testing.T, st *storage.Store, chat int64) map[string]int64 {
	t.Helper()
	board, err := st.Leaderboard(context.Background(), chat, 10)
	require.NoError(t, err)
	out := map[string]int64{}
	for _, s := range board {
		out[s.Name] = s.Balance
	}
	return out
}

// TestBrowserMiniAppSolo: in the bot's private chat, a solo table's app
// button is a web_app button; pressing it opens the app at that table,
// as its player.
func TestBrowserMiniAppSolo(t *testing.T) {
	pg := startBrowserPlayground(t)
	alice := pg.Server().Users()[0]
	pg.Server().PrivateChat(alice)
	ctx, b := newBrowser(t)
	b.open(ctx, pg.URL(), alice.ID, "Alice")
	b.send(ctx, "/newgame")
	b.waitTable(ctx, "the solo table with its app button", `[...r.querySelectorAll('.kb-btn')].some(b => b.textContent === `+js(appLabel)+`)`)
	msg, ok := pg.Server().Message(alice.ID, int(chips(t, b.table(ctx).ID)))
	require.True(t, ok)
	button, _ := msg.Button(appLabel)
	require.NotNil(t, button.WebApp, "a web_app button")

	a := b.openApp(ctx)
	require.NotEmpty(t, a.Seats)
	assert.True(t, a.Seats[0].You, "Alice's own seat: %+v", a.Seats)
	assert.Equal(t, "Alice", a.Seats[0].Name)
	assert.Contains(t, eval[string](ctx, b, `document.getElementById('miniapp-frame').src`), "/miniapp/?startapp=",
		"the page names its table in its query, as a web_app button's launch has no start_param")
}
