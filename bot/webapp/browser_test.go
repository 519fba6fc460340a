package webapp_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/browsertest"
	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
)

// The browser tests drive Debian's chromium on the app's page through
// bot/browsertest, as bot/playground's do.

// browser drives one tab of a headless chromium on the app's page.
type browser struct {
	t *testing.T
	// errs fails the test on an error the page or the browser logs that
	// no step allowed (a refusal's status, logged as a failed request).
	errs *browsertest.Errors
}

// newBrowser starts chromium with a window of w×h, a phone's when mobile.
func newBrowser(t *testing.T, w, h int64, mobile bool) (context.Context, *browser) {
	t.Helper()
	tabCtx := browsertest.Start(t, int(w), int(h), time.Minute)
	b := &browser{t: t, errs: browsertest.WatchErrors(tabCtx, t)}
	vp := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
	if mobile {
		vp = []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile}
	}
	b.run(tabCtx, "sizing the window", chromedp.EmulateViewport(w, h, vp...))
	return tabCtx, b
}

// allow lets the browser log an error containing s (a refusal the step
// expects, as "status of 401"); none else is allowed.
func (b *browser) allow(s string) { b.errs.Allow(s) }

// run runs the actions in order, each step within browsertest.StepWait.
func (b *browser) run(ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	browsertest.Run(ctx, b.t, what, actions...)
}

// get runs one action and returns its value.
func get[T any](ctx context.Context, b *browser, what string, action chromedp.Action[T]) T {
	b.t.Helper()
	return browsertest.Get(ctx, b.t, what, action)
}

// poll waits until the JavaScript expression is truthy and returns it.
func poll[T any](ctx context.Context, b *browser, what, expr string) T {
	b.t.Helper()
	return browsertest.Poll[T](ctx, b.t, what, expr)
}

// eval evaluates a JavaScript expression and returns its value.
func eval[T any](ctx context.Context, b *browser, expr string) T {
	b.t.Helper()
	return browsertest.Eval[T](ctx, b.t, expr)
}

// do evaluates JavaScript for its effect.
func (b *browser) do(ctx context.Context, expr string) {
	b.t.Helper()
	b.run(ctx, expr, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[*runtime.RemoteObject](expr)(ctx, t)
		return err
	}))
}

// actAsTelegram makes every page the tab loads find a Telegram client's
// webview proxy (window.TelegramWebviewProxy, as the mobile apps inject
// it) that records the events the page posts in window.__posted.
func (b *browser) actAsTelegram(ctx context.Context) {
	b.t.Helper()
	b.run(ctx, "injecting the webview proxy", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__posted = []; window.TelegramWebviewProxy = {postEvent: (t, d) => window.__posted.push([t, d])};`,
		})
		return err
	}))
}

// open loads the page at u, and waits until it has started (its module
// ran: the notice or the table shows).
func (b *browser) open(ctx context.Context, u string) {
	b.t.Helper()
	b.run(ctx, "opening "+u, chromedp.Navigate(u))
	b.do(ctx, `window.__loaded = true`)
}

// launch is the page's URL as a Telegram client opens it for the user
// named from the group's table: a direct link to the app tapped in the
// group (our Bot API server's OpenAppLink: initData signed with the bot's
// token, the start parameter, Telegram's light theme), on the test's
// server.
func (a *app) launch(name string) string {
	a.t.Helper()
	const public = "https://app.example/"
	if err := a.tg.RegisterApp("table", public); err != nil {
		require.ErrorContains(a.t, err, "taken") // registered by an earlier launch
	}
	link := "https://t.me/" + a.tg.Bot().Username + "/table?startapp=" + a.refs.Ref(a.key())
	l, err := a.tg.OpenAppLink(a.group.ID, a.users[name].ID, link)
	require.NoError(a.t, err)
	require.True(a.t, strings.HasPrefix(l.URL, public), l.URL)
	return a.http.URL + "/" + strings.TrimPrefix(l.URL, public)
}

// withTheme replaces a launch URL's theme with theme (JSON).
func withTheme(t *testing.T, launch, theme string) string {
	t.Helper()
	page, frag, ok := strings.Cut(launch, "#")
	require.True(t, ok)
	params, err := url.ParseQuery(frag)
	require.NoError(t, err)
	require.NotEmpty(t, params.Get("tgWebAppThemeParams"))
	params.Set("tgWebAppThemeParams", theme)
	return page + "#" + params.Encode()
}

// newBrowserApp is the app for a browser: the test's clock starting now
// (so that the page's countdown, on the browser's clock, reads the
// deadlines right), and rate limits a test does not reach (its clock
// does not move: a user's bucket would never refill).
func newBrowserApp(t *testing.T) *app {
	t.Helper()
	plenty := webapp.Rate{Every: time.Millisecond, Burst: 10000}
	return newAppAt(t, time.Now().Truncate(time.Second), webapp.Limits{Reads: plenty, Acts: plenty})
}

// shown is the page as a viewer sees it, read from its DOM.
type shown struct {
	Version   uint64        `json:"version"`
	Phase     string        `json:"phase"`
	Lang      string        `json:"lang"`
	Title     string        `json:"title"`
	Status    string        `json:"status"`
	Mine      bool          `json:"mine"`
	Countdown string        `json:"countdown"`
	Deadline  string        `json:"deadline"`
	YouLabel  string        `json:"youLabel"`
	Balance   string        `json:"balance"`
	Seats     []shownSeat   `json:"seats"`
	Actions   []view.Action `json:"actions"`
	Notice    string        `json:"notice"`
	Toasts    []string      `json:"toasts"`
}

type shownSeat struct {
	Name    string      `json:"name"`
	Banker  bool        `json:"banker"`
	Turn    bool        `json:"turn"`
	You     bool        `json:"you"`
	House   bool        `json:"house"`
	Balance string      `json:"balance"`
	Cards   []shownCard `json:"cards"`
	Points  string      `json:"points"`
	Bet     string      `json:"bet"`
	Note    string      `json:"note"`
}

type shownCard struct {
	Code string `json:"code"`
	Rank string `json:"rank"`
	Suit string `json:"suit"`
	Red  bool   `json:"red"`
	Pips int    `json:"pips"`
}

// shownJS reads the page into a shown.
const shownJS = `(() => {
  const $ = (id) => document.getElementById(id);
  const text = (e) => e ? e.textContent : '';
  const t = $('table');
  return {
    version: Number(t.dataset.version || 0), phase: t.dataset.phase || '', lang: document.documentElement.lang,
    title: text($('title')), status: $('status').hidden ? '' : text($('status-text')),
    mine: $('status').classList.contains('mine'),
    countdown: $('countdown').hidden ? '' : text($('countdown')), deadline: $('countdown').dataset.deadline || '',
    youLabel: text($('you-label')), balance: text($('you-balance')),
    seats: [...document.querySelectorAll('#seats .seat')].map((li) => ({
      name: text(li.querySelector('.name')), banker: li.classList.contains('banker'),
      turn: li.classList.contains('turn'), you: li.classList.contains('you'), house: li.classList.contains('house'), balance: text(li.querySelector('.balance')),
      cards: [...li.querySelectorAll('svg.card')].map((c) => ({code: c.dataset.card, rank: text(c.querySelector('text.rank')),
        suit: c.dataset.suit || '', red: c.classList.contains('red'), pips: c.querySelectorAll('path.pip').length})),
      points: text(li.querySelector('.points')), bet: text(li.querySelector('.bet')), note: text(li.querySelector('.note')),
    })),
    actions: [...document.querySelectorAll('#actions button.act')].map((b) => ({verb: b.dataset.verb, label: b.textContent,
      style: ['primary', 'success'].find((s) => b.classList.contains(s)) || '', data: b.dataset.data})),
    notice: $('notice').hidden ? '' : $('notice').dataset.code,
    toasts: [...document.querySelectorAll('#toasts .toast-text')].map(text),
  };
})()`

// page reads the page.
func (b *browser) page(ctx context.Context) shown {
	b.t.Helper()
	return eval[shown](ctx, b, shownJS)
}

// waitVersion waits until the page shows version, and returns it.
func (b *browser) waitVersion(ctx context.Context, version uint64) shown {
	b.t.Helper()
	b.waitFor(ctx, fmt.Sprintf("version %d", version), fmt.Sprintf(`document.getElementById('table').dataset.version === '%d'`, version))
	return b.page(ctx)
}

// waitNotice waits until the page shows the notice code, and returns its text.
func (b *browser) waitNotice(ctx context.Context, code string) string {
	b.t.Helper()
	b.waitFor(ctx, "the notice "+code, `!document.getElementById('notice').hidden && document.getElementById('notice').dataset.code === `+strconv.Quote(code))
	return eval[string](ctx, b, `document.getElementById('notice-text').textContent`)
}

// waitFor waits until the JavaScript expression is truthy in the page.
func (b *browser) waitFor(ctx context.Context, what, expr string) {
	b.t.Helper()
	poll[bool](ctx, b, what, "!!("+expr+")")
}

// rankShown is how a card shows the rank of a game code ("T" is "10").
func rankShown(code string) string {
	if code[0] == 'T' {
		return "10"
	}
	return code[:1]
}

// assertShows checks that the page shows the view v: its version and
// phase, each seat (name, banker, turn, the viewer's, balance, each card
// as an SVG of its rank and suit in its colour, points, bet, note), whose
// turn it is, the deadline counted down to, the viewer's balance, and the
// actions as the view lists them.
func assertShows(t *testing.T, s shown, v view.View) {
	t.Helper()
	assert.Equal(t, v.Version, s.Version)
	assert.Equal(t, v.Phase, s.Phase)
	assert.Equal(t, v.Lang, s.Lang)
	assert.Equal(t, v.Title, s.Title)
	require.Len(t, s.Seats, len(v.Seats))
	for i, seat := range v.Seats {
		got := s.Seats[i]
		what := fmt.Sprintf("version %d, seat %d (%s)", v.Version, i, seat.Name)
		assert.Equal(t, seat.Name, got.Name, what)
		assert.Equal(t, seat.House, got.House, what)
		assert.Equal(t, i == v.Banker, got.Banker, what)
		assert.Equal(t, i == v.Turn, got.Turn, what)
		assert.Equal(t, seat.You, got.You, what)
		if seat.Balance != nil {
			assert.Equal(t, "💰 "+strconv.FormatInt(*seat.Balance, 10), got.Balance, what)
		} else {
			assert.Empty(t, got.Balance, what)
		}
		require.Len(t, got.Cards, len(seat.Cards), what)
		for j, code := range seat.Cards {
			c := got.Cards[j]
			assert.Equal(t, code, c.Code, what)
			assert.Equal(t, rankShown(code), c.Rank, what)
			assert.Equal(t, code[1:], c.Suit, what)
			assert.Equal(t, code[1] == 'h' || code[1] == 'd', c.Red, what)
			assert.Equal(t, 3, c.Pips, "%s: two corners and the middle", what)
		}
		if len(seat.Cards) > 0 {
			assert.Equal(t, strconv.Itoa(seat.Points), got.Points, what)
		}
		if seat.Bet > 0 {
			assert.Contains(t, got.Bet, strconv.FormatInt(seat.Bet, 10), what)
		}
		assert.Equal(t, seat.Note, got.Note, what)
	}
	if v.Turn >= 0 {
		assert.Equal(t, v.Turn == v.You.Seat, s.Mine, "the viewer's own turn stands out")
		if v.Turn != v.You.Seat {
			assert.Contains(t, s.Status, v.Seats[v.Turn].Name, "whose turn")
		}
	}
	if v.Phase == "closed" {
		assert.Equal(t, "0", s.Deadline)
	} else {
		assert.Equal(t, strconv.FormatInt(v.Deadline, 10), s.Deadline, "the stored deadline")
	}
	if v.You.Balance != nil {
		assert.Equal(t, strconv.FormatInt(*v.You.Balance, 10), s.Balance)
	} else {
		assert.Equal(t, "—", s.Balance)
	}
	var acts []view.Action
	for _, l := range v.Actions {
		acts = append(acts, l.Actions...)
	}
	if len(acts) == 0 {
		assert.Empty(t, s.Actions, "no action")
	} else {
		assert.Equal(t, acts, s.Actions, "the actions, in the view's order")
	}
}

// screenshotDirEnv names a directory where the browser tests keep their
// screenshots of the page (none are taken without it).
const screenshotDirEnv = "TWENTYONE_SCREENSHOT_DIR"

// shot saves a screenshot of the page as name in $TWENTYONE_SCREENSHOT_DIR.
func (b *browser) shot(ctx context.Context, name string) {
	b.t.Helper()
	dir := os.Getenv(screenshotDirEnv)
	if dir == "" {
		return
	}
	png := get(ctx, b, "screenshot", chromedp.CaptureScreenshot())
	require.NoError(b.t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
}
