package webapp_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/browsertest"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestPageOnPhone: Bob opens the table's app on a phone (390×844), as
// Telegram opens it from the group's link. The page tells the client it
// is ready and asks for the theme and viewport, takes the client's light
// theme, and shows Bob's view of the table; Bob joins with the page's
// button (the answer as a toast, the table redrawn from the stream);
// Carol's join and Alice's start, pressed in the chat, show in the page
// without a reload; then a game is played, each move in the app when it
// is Bob's and in the chat else, and at every step the page shows the
// table as the server's view says: the seats, the banker, whose turn with
// its countdown, each card as an SVG of its rank and suit, the bets, Bob's
// balance and his actions.
func TestPageOnPhone(t *testing.T) {
	a := newBrowserApp(t)
	a.command("Alice", "newgame")
	ctx, b := newBrowser(t, 390, 844, true)
	b.actAsTelegram(ctx)
	b.open(ctx, a.launch("Bob"))

	v := a.getView("Bob")
	require.Equal(t, "lobby", v.Phase)
	s := b.waitVersion(ctx, v.Version)
	assertShows(t, s, v)
	assert.Equal(t, "Waiting for players", s.Status)
	assert.Equal(t, "Your chips", s.YouLabel)
	posted := eval[[]string](ctx, b, `window.__posted.map((e) => e[0])`)
	assert.Subset(t, posted, []string{"web_app_ready", "web_app_expand", "web_app_request_theme", "web_app_request_viewport"})
	assert.Equal(t, "rgb(255, 255, 255)", eval[string](ctx, b, `getComputedStyle(document.body).backgroundColor`),
		"Telegram's light theme")
	assert.Equal(t, "light", eval[string](ctx, b, `document.documentElement.dataset.scheme`))
	b.fits(ctx, "the lobby")
	b.shot(ctx, "app-phone-lobby.png")

	// Bob joins in the app.
	before := v.Version
	b.run(ctx, "pressing Join", chromedp.Click(chromedp.CSS(`#actions button[data-verb="join"]`)))
	toast := poll[string](ctx, b, "the answer", `document.querySelector('#toasts .toast-text')?.textContent`)
	v = a.getView("Bob")
	require.Greater(t, v.Version, before)
	require.GreaterOrEqual(t, v.You.Seat, 0, "Bob is seated")
	assert.Equal(t, i18n.T(i18n.EN, i18n.PopJoined), toast, "a press's own toast")
	assertShows(t, b.waitVersion(ctx, v.Version), v)

	// Carol joins in the chat; Alice starts the game there.
	for _, p := range []struct{ name, verb string }{{"Carol", "join"}, {"Alice", "start"}} {
		act, ok := a.getView(p.name).Action(p.verb)
		require.True(t, ok, "%s can %s", p.name, p.verb)
		a.press(p.name, act.Label)
		v = a.getView("Bob")
		assertShows(t, b.waitVersion(ctx, v.Version), v)
	}
	require.True(t, eval[bool](ctx, b, `window.__loaded === true`), "no reload")
	require.Len(t, v.Seats, 3)

	// Games, each move where its player is, until Bob has played in the
	// app (the banker has no move: the next game, which Bob starts in the
	// app, has another).
	moves, mine, counted, cards := 0, 0, false, 0
	for games := 1; mine == 0; games++ {
		require.LessOrEqual(t, games, 4, "Bob never had a move")
		if games > 1 {
			again, ok := v.Action("start")
			require.True(t, ok, "Bob can start the next game: %+v", v.Actions)
			b.click(ctx, again, v.Version)
			v = a.getView("Bob")
			assertShows(t, b.waitVersion(ctx, v.Version), v)
		}
		for ; inGame(v.Phase); moves++ {
			require.Less(t, moves, 80, "the games end")
			mover, act := a.nextMove()
			if mover == "Bob" {
				mine++
				b.click(ctx, act, v.Version)
			} else {
				a.press(mover, act.Label)
			}
			v = a.getView("Bob")
			s = b.waitVersion(ctx, v.Version)
			assertShows(t, s, v)
			if v.Turn >= 0 && v.Deadline > 0 && !counted {
				counted = true
				assertCountdown(t, s.Countdown, v)
			}
			b.fits(ctx, "move "+strconv.Itoa(moves))
			b.shot(ctx, "app-phone-move-"+strconv.Itoa(moves)+".png")
			cards = max(cards, eval[int](ctx, b, `document.querySelectorAll('#seats svg.card').length`))
		}
	}
	assert.True(t, counted, "a turn was counted down")
	assert.GreaterOrEqual(t, cards, 3, "cards drawn")
	require.True(t, eval[bool](ctx, b, `window.__loaded === true`), "no reload")
	assert.Empty(t, a.sentTableRefs(), "initData names the table: no X-Table-Ref")
	t.Logf("%d moves, %d of them in the app", moves, mine)
}

// click presses the page's button of the action, and waits until the
// page shows a version past the one it was drawn for.
func (b *browser) click(ctx context.Context, act view.Action, version uint64) {
	b.t.Helper()
	b.run(ctx, "pressing "+act.Label, chromedp.Click(chromedp.CSS(`#actions button[data-data="`+act.Data+`"]`)))
	b.waitFor(ctx, "the table to move on", `Number(document.getElementById('table').dataset.version) > `+strconv.FormatUint(version, 10))
}

// inGame: a game is in play in that phase.
func inGame(phase string) bool {
	return phase == "betting" || phase == "drawing" || phase == "cutting"
}

// nextMove returns who moves next in the group's game and the action
// they take: a bet (the first offered), a hit while they have under 17,
// else a stand; a cut.
func (a *app) nextMove() (string, view.Action) {
	a.t.Helper()
	for _, name := range []string{"Bob", "Alice", "Carol"} {
		v := a.getView(name)
		if act, ok := v.Action("cut", "bet"); ok {
			return name, act
		}
		hit, canHit := v.Action("hit")
		stand, canStand := v.Action("stand")
		switch {
		case canHit && (v.Seats[v.You.Seat].Points < 17 || !canStand):
			return name, hit
		case canStand:
			return name, stand
		}
	}
	a.t.Fatal("nobody can move")
	return "", view.Action{}
}

// assertCountdown checks the countdown the page shows for a turn: m:ss,
// within the time left to the view's deadline.
func assertCountdown(t *testing.T, countdown string, v view.View) {
	t.Helper()
	m := regexp.MustCompile(`^⏱ (\d+):(\d\d)$`).FindStringSubmatch(countdown)
	require.NotNil(t, m, "the countdown %q", countdown)
	minutes, _ := strconv.Atoi(m[1])
	seconds, _ := strconv.Atoi(m[2])
	shown := time.Duration(minutes*60+seconds) * time.Second
	left := time.Until(time.UnixMilli(v.Deadline))
	assert.Positive(t, shown)
	assert.LessOrEqual(t, shown, left+time.Second, "no more than is left")
	assert.Greater(t, shown, left-5*time.Second, "counted from the stored deadline")
}

// fits checks that nothing of the page is wider than the screen.
func (b *browser) fits(ctx context.Context, what string) {
	b.t.Helper()
	over := eval[[]string](ctx, b, `[...document.querySelectorAll('#page *')].filter((e) => {
	  const r = e.getBoundingClientRect();
	  return r.width > 0 && (r.right > document.documentElement.clientWidth + 0.5 || r.left < -0.5);
	}).map((e) => e.id || e.className.baseVal || e.className)`)
	assert.Empty(b.t, over, "%s: wider than the screen", what)
}

// darkTheme is a dark theme as a Telegram client sends it.
const darkTheme = `{"bg_color":"#17212b","text_color":"#f5f5f5","hint_color":"#708499","link_color":"#6ab3f3",` +
	`"button_color":"#5288c1","button_text_color":"#ffffff","secondary_bg_color":"#232e3c"}`

// TestPageOnDesktop: on a desktop (1280×800), a chat that speaks Russian
// and a client with a dark theme. Opened outside Telegram the page says
// how to open it and posts nothing; opened by Telegram it shows Bob's
// view in Russian on the dark theme, the seats side by side; the client's
// theme_changed and viewport_changed apply; a reload that lost the
// fragment keeps the launch (sessionStorage); initData too old says to
// reopen the app, in the viewer's language, and a table that is gone says
// so; the console shows no error (no CSP violation) but the refusals'.
func TestPageOnDesktop(t *testing.T) {
	a := newBrowserApp(t)
	a.command("Alice", "lang ru")
	a.command("Alice", "newgame")
	for _, p := range []struct{ name, verb string }{{"Bob", "join"}, {"Carol", "join"}, {"Alice", "start"}} {
		act, ok := a.getView(p.name).Action(p.verb)
		require.True(t, ok, "%s can %s", p.name, p.verb)
		a.press(p.name, act.Label)
	}
	ctx, b := newBrowser(t, 1280, 800, false)
	b.actAsTelegram(ctx)

	b.open(ctx, a.http.URL+"/")
	assert.Equal(t, "Open this page with the table's button in Telegram.", b.waitNotice(ctx, "outside"))
	assert.Empty(t, eval[[]string](ctx, b, `window.__posted.map((e) => e[0])`), "nothing posted outside Telegram")

	launch := withTheme(t, a.launch("Bob"), darkTheme)
	b.open(ctx, launch)
	v := a.getView("Bob")
	require.Equal(t, "ru", v.Lang)
	s := b.waitVersion(ctx, v.Version)
	assertShows(t, s, v)
	assert.Equal(t, "Твои фишки", s.YouLabel)
	assert.Contains(t, []string{"Твой ход", "Ходит " + v.Seats[max(v.Turn, 0)].Name}, s.Status)
	assert.Equal(t, "rgb(23, 33, 43)", eval[string](ctx, b, `getComputedStyle(document.body).backgroundColor`), "the dark theme")
	assert.Equal(t, "dark", eval[string](ctx, b, `document.documentElement.dataset.scheme`))
	assert.Equal(t, "grid", eval[string](ctx, b, `getComputedStyle(document.getElementById('table')).display`))
	assert.True(t, eval[bool](ctx, b, `(() => { const s = document.querySelectorAll('#seats .seat');
	  return s.length > 1 && s[0].getBoundingClientRect().top === s[1].getBoundingClientRect().top; })()`), "seats side by side")
	b.fits(ctx, "the desktop")
	b.shot(ctx, "app-desktop-dark.png")

	b.do(ctx, `Telegram.WebView.receiveEvent('theme_changed', {theme_params: {bg_color: '#ffffff', text_color: '#000000', secondary_bg_color: '#efeff3'}})`)
	assert.Equal(t, "rgb(255, 255, 255)", eval[string](ctx, b, `getComputedStyle(document.body).backgroundColor`), "the light theme")
	assert.Equal(t, "light", eval[string](ctx, b, `document.documentElement.dataset.scheme`))
	b.do(ctx, `Telegram.WebView.receiveEvent('viewport_changed', {height: 700, is_expanded: true, is_state_stable: true})`)
	assert.Equal(t, "700px", eval[string](ctx, b, `getComputedStyle(document.getElementById('page')).minHeight`))

	// The stream's parser, on chunks cut anywhere (a CR LF cut in two).
	type event struct {
		Type  string  `json:"type"`
		Data  *string `json:"data"`
		ID    *string `json:"id"`
		Retry *int    `json:"retry"`
	}
	parsed := get(ctx, b, "parsing events", chromedp.Evaluate[[]event](`(async () => {
	  const {EventParser} = await import('./net.js');
	  const got = [];
	  const p = new EventParser((e) => got.push(e));
	  for (const c of ['retry: 2000\r', '\n\r\n: heartbeat\n\nid: 7\nda', 'ta: {"a":\ndata:1}\n', '\n',
	    'event: replaced\r\ndata: {}\r\r', 'id: 8\nretry: x\ndata\n\n']) p.push(c);
	  return got;
	})()`, chromedp.EvalAwaitPromise))
	str := func(s string) *string { return &s }
	retry := 2000
	assert.Equal(t, []event{{Type: "message", Retry: &retry}, {Type: "message", Data: str("{\"a\":\n1}"), ID: str("7")},
		{Type: "replaced", Data: str("{}")}, {Type: "message", Data: str(""), ID: str("8")}}, parsed)

	// The connection broken: the page streams again from the version it
	// has, and a move in the chat shows.
	asked := len(a.streamsAsked())
	require.Positive(t, asked)
	b.allow("net::ERR_INCOMPLETE_CHUNKED_ENCODING") // the browser logs the stream cut
	a.http.CloseClientConnections()
	require.Eventually(t, func() bool { return len(a.streamsAsked()) > asked }, browsertest.StepWait, 10*time.Millisecond,
		"the page streams again")
	assert.Equal(t, strconv.FormatUint(v.Version, 10), a.streamsAsked()[asked], "from the version it has")
	mover, act := a.nextMove()
	a.press(mover, act.Label)
	v = a.getView("Bob")
	assertShows(t, b.waitVersion(ctx, v.Version), v)

	// Bob opens the table elsewhere: the page says so, and takes it back
	// when asked.
	other, err := http.NewRequestWithContext(ctx, http.MethodGet, a.http.URL+"/api/stream", nil)
	require.NoError(t, err)
	other.Header.Set("Authorization", "tma "+a.initData("Bob", 0))
	resp, err := a.http.Client().Do(other)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "Этот стол открыт в другом окне.", b.waitNotice(ctx, "replaced"))
	b.run(ctx, "showing it here", chromedp.Click(chromedp.ID("notice-button")))
	b.waitFor(ctx, "the notice gone", `document.getElementById('notice').hidden`)
	mover, act = a.nextMove()
	a.press(mover, act.Label)
	v = a.getView("Bob")
	assertShows(t, b.waitVersion(ctx, v.Version), v)
	rest, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Contains(t, string(rest), "event: replaced", "the other stream ends, replaced")

	// A reload that lost the fragment: the launch and the theme are kept.
	page, _, _ := strings.Cut(launch, "#")
	b.open(ctx, page+"&reload=1")
	assertShows(t, b.waitVersion(ctx, v.Version), v)
	assert.Equal(t, "rgb(255, 255, 255)", eval[string](ctx, b, `getComputedStyle(document.body).backgroundColor`), "the theme kept")
	b.shot(ctx, "app-desktop-light.png")

	// initData a day old, of a viewer who speaks Ukrainian.
	b.allow("status of 401")
	old := a.secret.Sign(initdata.Data{AuthDate: a.clock.Now().Add(-25 * time.Hour),
		User:       initdata.User{ID: a.users["Bob"].ID, FirstName: "Bob", LanguageCode: "uk"},
		StartParam: a.refs.Ref(a.key()), ChatType: "group", ChatInstance: "-42"})
	b.open(ctx, a.http.URL+"/?n=2#tgWebAppData="+url.QueryEscape(old))
	assert.Equal(t, "Це вікно застаріло: закрий його і знову відкрий стіл із чату.", b.waitNotice(ctx, "expired"))
	b.shot(ctx, "app-desktop-expired.png")
	assert.True(t, eval[bool](ctx, b, `document.getElementById('table').hidden`))

	// A table that is no more.
	b.allow("status of 404")
	gone := a.secret.Sign(initdata.Data{AuthDate: a.clock.Now(),
		User:       initdata.User{ID: a.users["Bob"].ID, FirstName: "Bob", LanguageCode: "en"},
		StartParam: a.refs.Ref(storage.TableKey{Chat: a.group.ID, Thread: 77})})
	b.open(ctx, a.http.URL+"/?n=3#tgWebAppData="+url.QueryEscape(gone))
	assert.Contains(t, b.waitNotice(ctx, "no_table"), "There is no such table")
	assert.Empty(t, a.sentTableRefs(), "initData named the table")

	// Someone outside the group, with the table's link, in Russian.
	b.allow("status of 403")
	outside := a.secret.Sign(initdata.Data{AuthDate: a.clock.Now(),
		User:       initdata.User{ID: a.users["Dave"].ID, FirstName: "Dave", LanguageCode: "ru"},
		StartParam: a.refs.Ref(a.key())})
	b.open(ctx, a.http.URL+"/?n=4#tgWebAppData="+url.QueryEscape(outside))
	assert.Equal(t, "Этот стол — стол своего чата: открыть его могут только участники чата.", b.waitNotice(ctx, "not_member"))
	assert.True(t, eval[bool](ctx, b, `document.getElementById('table').hidden`))

	// A web_app button's launch: initData names no table, the page's
	// startapp parameter does, sent as X-Table-Ref.
	ref := a.refs.Ref(a.key())
	button := a.secret.Sign(initdata.Data{AuthDate: a.clock.Now(), QueryID: "AAQ1",
		User: initdata.User{ID: a.users["Bob"].ID, FirstName: "Bob", LanguageCode: "en"}})
	b.open(ctx, a.http.URL+"/?startapp="+ref+"#tgWebAppData="+url.QueryEscape(button))
	b.waitFor(ctx, "the table", `document.getElementById('table').dataset.version === '`+
		strconv.FormatUint(v.Version, 10)+`'`)
	assert.Contains(t, a.sentTableRefs(), ref)
}
