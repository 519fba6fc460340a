package playground_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/browsertest"
	"github.com/twentyone-bot/twentyone/bot/playground"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// screenshotEnv, set to 1, makes TestBrowserGame write docs/playground.png
// and TestBrowserPhone docs/playground-phone.png.
const screenshotEnv = "TWENTYONE_UPDATE_SCREENSHOT"

// screenshotDirEnv names a directory to keep the screenshots in (default:
// the test's temporary directory).
const screenshotDirEnv = "TWENTYONE_SCREENSHOT_DIR"

// browserSeed fixes the decks, so that the game and its screenshot are the
// same at every run.
const browserSeed = 21

// browser drives one tab of a headless chromium on the playground's page
// (through bot/browsertest). Its methods take the tab's context first, as
// chromedp's actions do.
type browser struct {
	t *testing.T
}

// wait is how long one step may take before the test fails.
const wait = browsertest.StepWait

func newBrowser(t *testing.T) (context.Context, *browser) {
	t.Helper()
	tabCtx := browsertest.Start(t, 1280, 800, 2*time.Minute)
	browsertest.WatchErrors(tabCtx, t)
	return tabCtx, &browser{t: t}
}

// run runs the actions in order, each step within the time one step may take.
func (b *browser) run(ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	browsertest.Run(ctx, b.t, what, actions...)
}

// get runs one action and returns its value.
func get[T any](ctx context.Context, b *browser, what string, action chromedp.Action[T]) T {
	b.t.Helper()
	return browsertest.Get(ctx, b.t, what, action)
}

// poll waits until the JavaScript expression is truthy in the page and
// returns its value.
func poll[T any](ctx context.Context, b *browser, what, expr string) T {
	b.t.Helper()
	return browsertest.Poll[T](ctx, b.t, what, expr)
}

// waitFor waits until the JavaScript expression is truthy in the page.
func (b *browser) waitFor(ctx context.Context, what, expr string) {
	b.t.Helper()
	poll[bool](ctx, b, what, "!!("+expr+")")
}

// eval evaluates a JavaScript expression and returns its value.
func eval[T any](ctx context.Context, b *browser, expr string) T {
	b.t.Helper()
	return get(ctx, b, "evaluating "+expr, chromedp.Evaluate[T](expr))
}

// js quotes a string as a JavaScript literal.
func js(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

// The page's structure, as the test reads it.
const (
	// tableRowJS is the newest bot message with an inline keyboard: the table.
	tableRowJS = `[...document.querySelectorAll('#messages-inner .row[data-from-bot]')].filter(r => r.querySelector('.kb') && r.querySelector('.text').textContent.includes('Twenty One —')).pop()`
	// currentTableJS is the newest table message, with or without buttons
	// (it has none while the house thinks).
	currentTableJS = `[...document.querySelectorAll('#messages-inner .row[data-from-bot]')].filter(r => r.querySelector('.text').textContent.includes('Twenty One —')).pop()`
	// toastsJS are the texts of the pop-ups on screen.
	toastsJS = `[...document.querySelectorAll('#toasts .toast')].map(t => t.textContent)`
)

// messageRowJS is the row of a message, by its id.
func messageRowJS(id int) string {
	return fmt.Sprintf(`document.querySelector('#messages-inner .row[data-message-id="%d"]')`, id)
}

// as switches to the user with this first name: in the sidebar, or on a
// phone, where the chat hides the sidebar, in the chat's header.
func (b *browser) as(ctx context.Context, name string) {
	b.t.Helper()
	if eval[bool](ctx, b, `getComputedStyle(document.getElementById('sidebar')).display === 'none'`) {
		sel := `#who-menu .who-item[data-user-name=` + js(name) + `]`
		b.run(ctx, "the switcher", chromedp.Click(chromedp.ID("who-btn")), chromedp.WaitVisible(chromedp.ID("who-menu")))
		b.run(ctx, "switching to "+name, chromedp.Click(chromedp.CSS(sel)), chromedp.WaitNotVisible(chromedp.ID("who-menu")))
		b.waitFor(ctx, name+" selected", `document.querySelector(`+js(sel)+`)?.getAttribute('aria-checked') === 'true'`)
		return
	}
	sel := `.sidebar .user[data-user-name=` + js(name) + `]`
	b.run(ctx, "switching to "+name, chromedp.Click(chromedp.CSS(sel)))
	b.waitFor(ctx, name+" selected", `document.querySelector(`+js(sel)+`)?.getAttribute('aria-checked') === 'true'`)
}

// open loads the page at url, as the user with this first name, in the
// chat.
func (b *browser) open(ctx context.Context, url string, chat int64, name string) {
	b.t.Helper()
	b.run(ctx, "opening the page", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(url))
	b.waitFor(ctx, "the page to load", `document.body.dataset.ready === '1' && !!document.querySelector('.chat-item')`)
	b.as(ctx, name)
	b.openChat(ctx, chat)
}

// openChat opens a chat from the chat list.
func (b *browser) openChat(ctx context.Context, id int64) {
	b.t.Helper()
	sel := fmt.Sprintf(`.chat-item[data-chat-id="%d"]`, id)
	b.run(ctx, "opening a chat", chromedp.Click(chromedp.CSS(sel)))
	b.waitFor(ctx, "the chat open", `document.querySelector(`+js(sel)+`)?.classList.contains('active')`)
}

// send types a message in the composer and sends it, then waits until it
// shows as the current user's bubble.
func (b *browser) send(ctx context.Context, text string) {
	b.t.Helper()
	before := b.count(ctx, `#messages-inner .row.out`)
	b.run(ctx, "typing "+text,
		chromedp.SendKeys(chromedp.ID("input"), text),
		chromedp.Click(chromedp.ID("send")))
	b.waitFor(ctx, "my message "+text, fmt.Sprintf(`(() => { const out = [...document.querySelectorAll('#messages-inner .row.out')];
		return out.length > %d && out.pop().querySelector('.text').textContent === %s })()`, before, js(text)))
}

func (b *browser) count(ctx context.Context, selector string) int {
	b.t.Helper()
	return eval[int](ctx, b, `document.querySelectorAll(`+js(selector)+`).length`)
}

// table is the table message as the page shows it.
type table struct {
	ID     string   `json:"id"`
	Edits  string   `json:"edits"`
	Text   string   `json:"text"`
	Labels []string `json:"labels"`
}

func (t table) sig() string { return t.ID + "/" + t.Edits }

func (b *browser) table(ctx context.Context) table {
	b.t.Helper()
	return b.tableOf(ctx, tableRowJS)
}

// tableOf is the table message as the page shows it, found by rowJS; an
// ephemeral message's id is "e" and its ephemeral_message_id.
func (b *browser) tableOf(ctx context.Context, rowJS string) table {
	b.t.Helper()
	return eval[table](ctx, b, `(() => { const r = `+rowJS+`; if (!r) return {id: '', edits: '', text: '', labels: []};
		return {id: r.dataset.messageId || 'e' + r.dataset.ephemeralMessageId, edits: r.dataset.edits, text: r.querySelector('.text').innerText,
			labels: [...r.querySelectorAll('.kb-btn')].map(b => b.textContent)} })()`)
}

// waitTable waits until the table message satisfies cond (a JavaScript
// expression over r, the table's row element).
func (b *browser) waitTable(ctx context.Context, what, cond string) table {
	b.t.Helper()
	b.waitFor(ctx, what, `(() => { const r = `+tableRowJS+`; return !!r && (`+cond+`) })()`)
	return b.table(ctx)
}

// press clicks the table's button with this label, as the current user,
// and waits for the bot's answer to show as a toast containing answer
// (for an empty answer, only until the press is done).
func (b *browser) press(ctx context.Context, label, answer string) {
	b.t.Helper()
	b.pressOn(ctx, tableRowJS, label, answer)
}

// pressOn is press on the message rowJS finds.
func (b *browser) pressOn(ctx context.Context, rowJS, label, answer string) {
	b.t.Helper()
	btn := `[...(` + rowJS + `).querySelectorAll('.kb-btn')].find(b => b.textContent === ` + js(label) + `)`
	b.clearToasts(ctx)
	b.run(ctx, "pressing "+label, chromedp.Click(chromedp.JSPath(btn)))
	if answer == "" {
		b.waitFor(ctx, "the press of "+label+" answered", `!document.querySelector('.kb-btn.loading')`)
		return
	}
	b.waitFor(ctx, fmt.Sprintf("the answer %q to %s", answer, label), toastsJS+`.some(t => t.includes(`+js(answer)+`))`)
}

// pressAndWait presses a button and waits until the table message changed.
func (b *browser) pressAndWait(ctx context.Context, label, answer string) table {
	b.t.Helper()
	before := b.table(ctx).sig()
	b.press(ctx, label, answer)
	return b.waitTable(ctx, "the table to change after "+label,
		`r.dataset.messageId + '/' + r.dataset.edits !== `+js(before))
}

func (b *browser) clearToasts(ctx context.Context) {
	b.t.Helper()
	b.run(ctx, "clearing the toasts", evalVoid(`document.querySelectorAll('#toasts .toast').forEach(t => t.remove())`))
}

// evalVoid evaluates JavaScript for its effect.
func evalVoid(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[*runtime.RemoteObject](expr)(ctx, t)
		return err
	})
}

// screenshot takes a screenshot of the page and saves it.
func (b *browser) screenshot(ctx context.Context, name string) {
	b.t.Helper()
	b.save(ctx, name, get(ctx, b, "screenshot", chromedp.CaptureScreenshot()))
}

// save writes a screenshot to the test's temporary directory, or to
// $TWENTYONE_SCREENSHOT_DIR.
func (b *browser) save(ctx context.Context, name string, png []byte) {
	b.t.Helper()
	dir := os.Getenv(screenshotDirEnv)
	if dir == "" {
		dir = b.t.TempDir()
	}
	path := filepath.Join(dir, name)
	require.NoError(b.t, os.WriteFile(path, png, 0o644))
	b.t.Logf("screenshot: %s", path)
}

// keep saves a screenshot as save does and, when $TWENTYONE_UPDATE_SCREENSHOT
// is 1, as the picture of that name in docs/.
func (b *browser) keep(ctx context.Context, name string, png []byte) {
	b.t.Helper()
	b.save(ctx, name, png)
	if os.Getenv(screenshotEnv) == "1" {
		require.NoError(b.t, os.WriteFile(filepath.Join("..", "..", "docs", name), png, 0o644))
		b.t.Logf("docs/%s updated", name)
	}
}

func chips(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(notDigitRe.ReplaceAllString(s, ""), 10, 64)
	require.NoError(t, err, "chips %q", s)
	return n
}

// startBrowserPlayground starts a playground with a database of its own
// and the decks of browserSeed.
func startBrowserPlayground(t *testing.T) *playground.Playground {
	t.Helper()
	seed := uint64(browserSeed)
	return startPlayground(t, playground.Options{DBPath: filepath.Join(t.TempDir(), "playground.db"), Seed: &seed})
}

// TestBrowserGame plays a game in the page with a real browser: Alice opens
// a table in "Game night", Bob and Carol join, and whoever's turn it is bets
// and draws until the game is over; the balances the page shows must be
// the database's. Then a refused join in "Office" shows an alert, a player
// added in the page is escaped, and the page fits a phone.
func TestBrowserGame(t *testing.T) {
	pg := startBrowserPlayground(t)
	ctx, b := newBrowser(t)
	night, office := pg.Groups()[0], pg.Groups()[1]
	ids := map[string]int64{}
	for _, u := range pg.Server().Users() {
		ids[u.FirstName] = u.ID
	}

	b.open(ctx, pg.URL(), night.ID, "Alice")
	b.waitFor(ctx, "the bot's welcome", `[...document.querySelectorAll('#messages-inner .row[data-from-bot] .text')].some(t => t.textContent.includes('I host Twenty One'))`)

	// A word first, then Alice opens a table; Bob and Carol sit down.
	b.send(ctx, "Who's up for a round of Twenty One?")
	b.as(ctx, "Bob")
	b.send(ctx, "Deal me in!")
	b.as(ctx, "Carol")
	b.send(ctx, "Me too")
	b.as(ctx, "Alice")
	b.send(ctx, "/newgame")
	b.waitTable(ctx, "the lobby", `r.innerText.includes('Join')`)
	// The buttons' colours (Bot API 9.4): Join green, Start blue, Leave the
	// app's own.
	colours := eval[map[string]string](ctx, b, `Object.fromEntries([...(`+tableRowJS+`).querySelectorAll('.kb-btn')]
		.map(b => [b.textContent, getComputedStyle(b).backgroundColor]))`)
	assert.Equal(t, "rgb(49, 162, 76)", colours["Join"], "Join is green")
	assert.Equal(t, "rgb(51, 144, 236)", colours["Start ▶"], "Start is blue")
	assert.NotContains(t, []string{colours["Join"], colours["Start ▶"]}, colours["Leave"], "Leave keeps the app's colour")
	b.as(ctx, "Bob")
	b.pressAndWait(ctx, "Join", "You're in.")
	b.as(ctx, "Carol")
	tb := b.pressAndWait(ctx, "Join", "You're in.")
	require.Contains(t, tb.Text, "Carol")
	b.as(ctx, "Alice")
	tb = b.pressAndWait(ctx, "Start ▶", "")

	// The README's picture is the last moment of the game where someone
	// bets after a duel was decided.
	var png []byte
	refused := false
	tb = b.play(ctx, tb, func(tb table, m move) {
		if !m.betting {
			return
		}
		if !refused {
			// Someone else pressing the player's bet gets a pop-up.
			other := "Bob"
			if m.player == "Bob" {
				other = "Carol"
			}
			b.as(ctx, other)
			b.press(ctx, tb.Labels[0], "It's "+m.player+"'s turn.")
			require.Equal(t, tb.sig(), b.table(ctx).sig(), "a refused press changes nothing")
			refused = true
		}
		if resultRe.MatchString(tb.Text) {
			b.as(ctx, m.player)
			b.clearToasts(ctx)
			png = get(ctx, b, "screenshot", chromedp.CaptureScreenshot())
		}
	})
	require.NotNil(t, png, "a moment to take the screenshot")
	b.keep(ctx, "playground.png", png)

	// The balances the table shows are the database's.
	dbCtx := context.Background()
	board, err := pg.Store().Leaderboard(dbCtx, night.ID, 10)
	require.NoError(t, err)
	stored := map[string]int64{}
	for _, s := range board {
		stored[s.Name] = s.Balance
	}
	shown := map[string]int64{}
	for _, m := range seatedRe.FindAllStringSubmatch(tb.Text, -1) {
		shown[m[1]] = chips(t, m[2])
	}
	require.Len(t, shown, 3, "the seated players after the game:\n%s", tb.Text)
	assert.Equal(t, stored, shown)
	var total int64
	for _, v := range shown {
		total += v
	}
	assert.EqualValues(t, 3000, total, "chips are conserved between the players")
	audit, err := pg.Store().Audit(dbCtx, night.ID)
	require.NoError(t, err)
	assert.True(t, audit.OK, "audit: %v", audit.Problems)

	// And /balance says the same, to each player alone (an ephemeral
	// answer: each sees their own only).
	for _, name := range []string{"Alice", "Bob", "Carol"} {
		b.as(ctx, name)
		b.send(ctx, "/balance")
		text := poll[string](ctx, b, name+"'s balance",
			`[...document.querySelectorAll('#messages-inner .row.ephemeral[data-from-bot] .text')].map(t => t.textContent).filter(t => t.startsWith(`+js(name+", your balance")+`)).pop()`)
		assert.Equal(t, 1, eval[int](ctx, b, `[...document.querySelectorAll('#messages-inner .row[data-from-bot] .text')].filter(t => t.textContent.includes(', your balance')).length`), "%s sees their balance alone", name)
		m := balanceRe.FindStringSubmatch(text)
		require.NotNil(t, m, "a balance answer: %q", text)
		acc, err := pg.Store().Account(dbCtx, night.ID, storage.User{ID: game.UserID(ids[name]), Name: name}, time.Time{})
		require.NoError(t, err)
		assert.Equal(t, acc.Balance, chips(t, m[2]), name)
		assert.Equal(t, stored[name], acc.Balance, name)
	}

	// Alice asks for Bob's stats, in reply to his message.
	b.as(ctx, "Alice")
	deal := eval[int](ctx, b, `Number([...document.querySelectorAll('#messages-inner .row[data-from]')].find(r => r.querySelector('.text').textContent === 'Deal me in!').dataset.messageId)`)
	b.replyTo(ctx, deal, "Bob")
	b.send(ctx, "/stats")
	stats := b.ephemeralAnswer(ctx, deal)
	assert.True(t, strings.HasPrefix(stats, "📊 Bob\nGames: 1 "), "Bob's stats: %q", stats)

	// "Office" has a table and chips of its own; a join refused there comes
	// as an alert. Bob never saw Alice's question about him, nor its answer.
	b.as(ctx, "Bob")
	assert.NotContains(t, eval[string](ctx, b, `document.getElementById('messages-inner').textContent`), "📊 Bob", "Alice's answer is hers")
	b.openChat(ctx, office.ID)
	b.send(ctx, "/newgame")
	b.waitTable(ctx, "Office's lobby", `r.innerText.includes('Bob — 1')`)
	b.send(ctx, "/settings entry 5000")
	b.waitFor(ctx, "the settings saved", `[...document.querySelectorAll('#messages-inner .row[data-from-bot] .text')].some(t => t.textContent.includes('Saved'))`)
	b.as(ctx, "Carol")
	b.run(ctx, "pressing Join", chromedp.Click(chromedp.JSPath(`[...(`+tableRowJS+`).querySelectorAll('.kb-btn')].find(b => b.textContent === 'Join')`)))
	b.run(ctx, "the alert", chromedp.WaitVisible(chromedp.ID("alert")))
	alert := get(ctx, b, "the alert's text", chromedp.Text(chromedp.ID("alert-text")))
	assert.Contains(t, alert, "You need 5\u202f000\u00a0chips to sit here; you have 1\u202f000\u00a0chips.")
	b.run(ctx, "closing the alert", chromedp.Click(chromedp.ID("alert-ok")), chromedp.WaitNotVisible(chromedp.ID("alert")))
	carol, err := pg.Store().Account(dbCtx, office.ID, storage.User{ID: game.UserID(ids["Carol"]), Name: "Carol"}, time.Time{})
	require.NoError(t, err)
	assert.EqualValues(t, 1000, carol.Balance, "Carol's chips in Office are not Game night's")

	// A player added in the page, with a name that is HTML, shows as text.
	name := `<img src=x onerror="document.body.dataset.pwned=1">`
	b.run(ctx, "adding a player",
		chromedp.Click(chromedp.ID("add-user-btn")),
		chromedp.WaitVisible(chromedp.ID("add-user")),
		chromedp.SendKeys(chromedp.ID("new-first"), name),
		chromedp.Click(chromedp.ID("add-user-ok")))
	b.waitFor(ctx, "the new player selected", `document.querySelector('.sidebar .user[aria-checked="true"]')?.dataset.userName === `+js(name))
	b.waitFor(ctx, "the new player's arrival", `[...document.querySelectorAll('#messages-inner .service-row')].some(r => r.textContent === `+js(name+" joined the group")+`)`)
	injected := eval[bool](ctx, b, `!!document.querySelector('#messages-inner img, .users img') || document.body.dataset.pwned === '1'`)
	assert.False(t, injected, "names are text, never HTML")

	// A phone-sized window: the chat fits, nothing scrolls sideways.
	b.run(ctx, "a phone-sized window", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile))
	b.openChatOnPhone(ctx, night.ID)
	b.chatFits(ctx, "the chat on a phone")
	b.waitFor(ctx, "the table's buttons on screen", `(() => { const k = (`+tableRowJS+`).querySelector('.kb').getBoundingClientRect(); return k.left >= 0 && k.right <= window.innerWidth })()`)
	b.screenshot(ctx, "playground-phone-chat.png")

	// On a phone, who you are is switched from the chat's header.
	b.run(ctx, "the switcher on a phone", chromedp.Click(chromedp.ID("who-btn")), chromedp.WaitVisible(chromedp.ID("who-menu")))
	b.run(ctx, "switching to Dave", chromedp.Click(chromedp.CSS(`#who-menu .who-item[data-user-name="Dave"]`)), chromedp.WaitNotVisible(chromedp.ID("who-menu")))
	b.waitFor(ctx, "Dave selected", `document.querySelector('#who-menu .who-item[data-user-name="Dave"]').getAttribute('aria-checked') === 'true' && document.getElementById('input').placeholder === 'Message as Dave'`)
}

// settingsRowJS is the newest settings panel.
const settingsRowJS = `[...document.querySelectorAll('#messages-inner .row[data-from-bot]')].filter(r => r.querySelector('.kb') && r.querySelector('.text').textContent.includes('⚙️')).pop()`

// phoneFit is what keeps a message from fitting a phone's screen.
type phoneFit struct {
	// Cut are the labels of buttons too narrow for them, which the page
	// ellipsizes as Telegram does.
	Cut []string `json:"cut"`
	// Overflow is how far, in px, the widest run of text that no line may
	// break in (a word, a number, a hash) reaches past the message.
	Overflow float64 `json:"overflow"`
	// Right is where the message ends, in px from the screen's left.
	Right float64 `json:"right"`
}

// phoneFit measures the message that rowJS finds.
func (b *browser) phoneFit(ctx context.Context, rowJS string) phoneFit {
	b.t.Helper()
	return eval[phoneFit](ctx, b, `(() => { const r = `+rowJS+`;
		const cut = [...r.querySelectorAll('.kb-btn')].filter(k => k.scrollWidth > k.clientWidth).map(k => k.textContent);
		// Lines break at spaces only, as in Telegram: the page's own
		// overflow-wrap would break a word anywhere instead.
		const t = r.querySelector('.text');
		const els = [t, ...t.querySelectorAll('*')];
		const kept = els.map(e => e.style.overflowWrap);
		els.forEach(e => { e.style.overflowWrap = 'normal' });
		const overflow = t.scrollWidth - t.clientWidth;
		els.forEach((e, i) => { e.style.overflowWrap = kept[i] });
		return {cut, overflow, right: r.querySelector('.stack').getBoundingClientRect().right} })()`)
}

// fitsPhone checks that the message rowJS finds shows whole on the phone's
// screen: every button's label, every line of its text.
func (b *browser) fitsPhone(ctx context.Context, rowJS, what string) {
	b.t.Helper()
	f := b.phoneFit(ctx, rowJS)
	width := eval[float64](ctx, b, `window.innerWidth`)
	assert.Empty(b.t, f.Cut, "%s: labels cut on a phone", what)
	assert.LessOrEqual(b.t, f.Overflow, 0.0, "%s: a line wider than the message on a phone", what)
	assert.LessOrEqual(b.t, f.Right, width, "%s: the message within the screen", what)
}

// deckLines counts the lines the deck's commitment takes in the table, from
// its 🔐 to the end of its hash.
func (b *browser) deckLines(ctx context.Context) int {
	b.t.Helper()
	return eval[int](ctx, b, `(() => { const t = (`+tableRowJS+`).querySelector('.text');
		const code = [...t.querySelectorAll('code')].find(c => /^[0-9a-f]+…$/.test(c.textContent));
		const before = code && code.previousSibling;
		if (!before || before.nodeType !== Node.TEXT_NODE || !before.textContent.includes('🔐')) return 0;
		const range = document.createRange();
		range.setStart(before, before.textContent.lastIndexOf('🔐'));
		range.setEndAfter(code);
		const tops = [...range.getClientRects()].map(q => q.top).sort((x, y) => x - y);
		return 1 + tops.filter((top, i) => i > 0 && top - tops[i - 1] > 10).length })()`)
}

// TestBrowserPhone plays a game on a phone's screen, 390×844: before every
// move and once the game is over, no button's label is cut (Telegram gives
// the buttons of a row equal widths and ellipsizes a label too long for
// its share), no line of the table is wider than the message, and the
// deck's commitment takes one line. The settings panel, in English and in
// Russian, keeps its labels whole too. With $TWENTYONE_UPDATE_SCREENSHOT=1
// the game over is docs/playground-phone.png.
func TestBrowserPhone(t *testing.T) {
	pg := startBrowserPlayground(t)
	ctx, b := newBrowser(t)
	night, office := pg.Groups()[0], pg.Groups()[1]
	b.run(ctx, "opening the page on a phone",
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Navigate(pg.URL()))
	b.waitFor(ctx, "the page to load", `document.body.dataset.ready === '1' && !!document.querySelector('.chat-item')`)
	b.openChatOnPhone(ctx, night.ID)
	b.as(ctx, "Alice")
	b.send(ctx, "/newgame")
	b.waitTable(ctx, "the lobby", `r.innerText.includes('Join')`)
	b.fitsPhone(ctx, tableRowJS, "the lobby")
	b.as(ctx, "Bob")
	b.pressAndWait(ctx, "Join", "You're in.")
	b.as(ctx, "Carol")
	b.pressAndWait(ctx, "Join", "You're in.")
	b.as(ctx, "Alice")
	tb := b.pressAndWait(ctx, "Start ▶", "")

	moves := 0
	tb = b.play(ctx, tb, func(tb table, m move) {
		moves++
		what := fmt.Sprintf("move %d, %s's (%q)", moves, m.player, tb.Labels)
		b.fitsPhone(ctx, tableRowJS, what)
		assert.Equal(t, 1, b.deckLines(ctx), "%s: the deck's commitment on one line", what)
	})
	require.Contains(t, tb.Labels, "Play again ▶")
	b.fitsPhone(ctx, tableRowJS, "the game over")
	b.as(ctx, "Alice")
	b.clearToasts(ctx)
	b.run(ctx, "the game over in view", evalVoid(`(`+tableRowJS+`).querySelector('.kb').scrollIntoView({block: 'end'})`))
	b.keep(ctx, "playground-phone.png", get(ctx, b, "screenshot", chromedp.CaptureScreenshot()))

	b.send(ctx, "/settings")
	b.waitFor(ctx, "the settings panel", `(`+settingsRowJS+`)?.querySelectorAll('.kb-btn').length >= 8`)
	b.fitsPhone(ctx, settingsRowJS, "the settings")

	// In Russian, in Office, where Bob is the admin (and Alice no member).
	b.run(ctx, "back to the chats", chromedp.Click(chromedp.ID("back")))
	b.as(ctx, "Bob")
	b.openChatOnPhone(ctx, office.ID)
	b.send(ctx, "/lang ru")
	b.waitFor(ctx, "the language set", `[...document.querySelectorAll('#messages-inner .row[data-from-bot] .text')].some(t => t.textContent === 'Язык: русский.')`)
	b.send(ctx, "/settings")
	b.waitFor(ctx, "the Russian settings panel", `(`+settingsRowJS+`)?.textContent.includes('Настройки стола')`)
	b.fitsPhone(ctx, settingsRowJS, "the settings in Russian")
}

// openChatOnPhone opens a chat in the phone layout, where the chat list
// and the chat are two screens.
func (b *browser) openChatOnPhone(ctx context.Context, id int64) {
	b.t.Helper()
	if !eval[bool](ctx, b, `getComputedStyle(document.getElementById('sidebar')).display !== 'none'`) {
		b.run(ctx, "back to the chats", chromedp.Click(chromedp.ID("back")))
	}
	b.openChat(ctx, id)
	b.waitFor(ctx, "the chat screen", `getComputedStyle(document.getElementById('sidebar')).display === 'none' && getComputedStyle(document.getElementById('chat')).display !== 'none'`)
}

// nudgeRowJS is the newest bot message that mentions a user: the turn's
// nudge.
const nudgeRowJS = `[...document.querySelectorAll('#messages-inner .row[data-from-bot]')].filter(r => r.querySelector('.text').textContent.includes(', your turn:')).pop()`

// shownTime is a date_time entity as the page shows it.
type shownTime struct {
	Unix  int64  `json:"unix"`
	Text  string `json:"text"`
	Title string `json:"title"`
}

// digits keeps the digits of s: a time's figures, whatever the locale
// puts between them.
func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// TestBrowserTurnNudge: the table shows when the turn ends in the reader's
// own time zone (the browser's, Asia/Tokyo here, not the UTC text inside
// the tag), and the player who lets a third of the turn pass (20 s: 10 s,
// the least) sees a nudge that mentions them, in reply to the table; it is
// gone from the page once they bet.
func TestBrowserTurnNudge(t *testing.T) {
	pg := startBrowserPlayground(t)
	ctx, b := newBrowser(t)
	tokyo := b.inZone(ctx, "Asia/Tokyo")
	night := pg.Groups()[0]
	b.open(ctx, pg.URL(), night.ID, "Alice")
	b.send(ctx, "/settings turn 20")
	b.waitFor(ctx, "the settings saved", `[...document.querySelectorAll('#messages-inner .row[data-from-bot] .text')].some(t => t.textContent.includes('Saved'))`)
	b.send(ctx, "/newgame")
	b.waitTable(ctx, "the lobby", `r.innerText.includes('Join')`)

	// The lobby's closing time, in Tokyo's time, as a client writes it.
	closes := poll[shownTime](ctx, b, "the lobby's closing time", `(() => { const s = (`+tableRowJS+`).querySelector('.date-time');
		return s && {unix: Number(s.dataset.unixTime), text: s.textContent, title: s.title} })()`)
	local := time.Unix(closes.Unix, 0).In(tokyo)
	assert.Contains(t, digits(closes.Text), local.Format("04"), "minutes: %q", closes.Text)
	h := local.Hour() % 12
	if h == 0 {
		h = 12
	}
	assert.True(t, strings.HasPrefix(digits(closes.Text), strconv.Itoa(h)) || strings.HasPrefix(digits(closes.Text), local.Format("15")),
		"Tokyo's hour in %q (%s)", closes.Text, local)
	assert.NotContains(t, closes.Text, "UTC", "not the text for clients without the entity")
	assert.Contains(t, closes.Title, "UTC", "which the page keeps as the title")

	b.as(ctx, "Bob")
	b.pressAndWait(ctx, "Join", "You're in.")
	b.as(ctx, "Alice")
	tb := b.cutIfAsked(ctx, b.pressAndWait(ctx, "Start ▶", ""))
	m := bettingRe.FindStringSubmatch(tb.Text)
	require.NotNil(t, m, "someone is to bet: %s", tb.Text)
	player := m[1]
	assert.Contains(t, tb.Text, "← your bet, "+player+" (20\u00a0s)", "the turn reads as the time left")
	assert.NotContains(t, tb.Text, "UTC")

	// The nudge, after 10 s.
	nudge := poll[string](ctx, b, "the nudge", `(() => { const r = `+nudgeRowJS+`; const a = r && r.querySelector('.text .link');
		return a && r.querySelector('.reply') && r.dataset.messageId + ' ' + a.textContent })()`)
	id, name, _ := strings.Cut(nudge, " ")
	assert.Equal(t, player, name, "it mentions the player to move")
	text := eval[string](ctx, b, `(`+nudgeRowJS+`).querySelector('.text').textContent`)
	assert.Contains(t, text, player+", your turn: ")
	b.screenshot(ctx, "playground-nudge.png")

	b.as(ctx, player)
	b.pressAndWait(ctx, tb.Labels[0], "Bet ")
	b.waitFor(ctx, "the nudge gone", `!document.querySelector('#messages-inner .row[data-message-id="`+id+`"]')`)
}

// TestBrowserNotify: /notify in a group, for a user who never started the
// bot, shows its deep link; the link's button opens the user's private chat
// with the bot in the page, where the bot confirms, and where a table
// opened later is told. Nobody else sees that chat.
func TestBrowserNotify(t *testing.T) {
	pg := startPlayground(t, playground.Options{})
	ctx, b := newBrowser(t)
	night := pg.Groups()[0]
	bob := pg.Server().Users()[1]
	private := fmt.Sprintf(`.chat-item[data-chat-id="%d"]`, bob.ID)
	botSaid := func(sub string) string {
		return `[...document.querySelectorAll('#messages-inner .row[data-from-bot] .text')].some(t => t.textContent.includes(` + js(sub) + `))`
	}
	b.run(ctx, "opening the page", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(pg.URL()))
	b.waitFor(ctx, "the page to load", `document.body.dataset.ready === '1' && !!document.querySelector('.chat-item')`)
	b.as(ctx, "Bob")
	b.openChat(ctx, night.ID)
	b.send(ctx, "/notify")
	startButton := `[...document.querySelectorAll('#messages-inner .kb-btn.url')].find(b => b.textContent === '🔔 Start me in private')`
	b.waitFor(ctx, "the deep link's button", startButton)
	b.run(ctx, "tapping the deep link", chromedp.Click(chromedp.JSPath(startButton)))
	b.waitFor(ctx, "the private chat open", `document.querySelector(`+js(private)+`)?.classList.contains('active')`)
	b.waitFor(ctx, "the bot's confirmation", botSaid("Done: I'll write to you here when a table opens in Game night."))
	assert.Equal(t, playground.Bot.FirstName, eval[string](ctx, b, `document.getElementById('chat-title').textContent`))
	assert.True(t, strings.HasPrefix(eval[string](ctx, b, `document.getElementById('chat-sub').textContent`), "bot"))

	b.as(ctx, "Alice")
	assert.Zero(t, b.count(ctx, private), "Bob's private chat is Bob's")
	b.openChat(ctx, night.ID)
	b.send(ctx, "/newgame")
	b.waitTable(ctx, "the lobby", `r.innerText.includes('Join')`)
	b.as(ctx, "Bob")
	b.openChat(ctx, bob.ID)
	b.waitFor(ctx, "the notice", botSaid("Game night: Alice opened a table."))
	assert.True(t, eval[bool](ctx, b, botSaid("Open the group to sit down.")), "a basic group's notice has no link")
}

// bankerRe reads the banker of a game from the table, and houseSeatRe the
// house's seat in the lobby.
var (
	bankerRe    = regexp.MustCompile(`Banker: (.+?) — `)
	houseSeatRe = regexp.MustCompile(`(?m)^\d+\. 🤖 House — ([\d\x{202F}]+)$`)
)

// TestBrowserHouseGame plays against the house in the page: Alice opens a
// table, seats the house with the lobby's button and plays two games, so
// that each of them banks once. The house moves by itself, a second or
// two after its turn began, with no button on the table meanwhile; the
// chips add up.
func TestBrowserHouseGame(t *testing.T) {
	pg := startBrowserPlayground(t)
	ctx, b := newBrowser(t)
	night := pg.Groups()[0]
	b.open(ctx, pg.URL(), night.ID, "Alice")
	b.send(ctx, "/newgame")
	tb := b.waitTable(ctx, "the lobby", `r.innerText.includes('🤖 Seat the house')`)
	tb = b.pressAndWait(ctx, "🤖 Seat the house", "The house sits down.")
	require.Contains(t, tb.Text, "2. 🤖 House — 10\u202f000")
	require.Contains(t, tb.Labels, "🤖 Unseat the house")

	bankers := map[string]bool{}
	thought := false
	for round := 0; round < 2; round++ {
		start := "Start ▶"
		if round > 0 {
			start = "Play again ▶"
		}
		before := tb.sig()
		b.press(ctx, start, "")
		tb = b.changed(ctx, before)
		m := bankerRe.FindStringSubmatch(tb.Text)
		require.NotNil(t, m, "a banker: %s", tb.Text)
		bankers[m[1]] = true
		for step := 0; !strings.Contains(tb.Text, "Game over"); step++ {
			require.Less(t, step, 40, "the game should be over by now; the table: %s", tb.Text)
			before := tb.sig()
			switch {
			case strings.Contains(tb.Text, "🤖 House is thinking…"):
				thought = true
				assert.Equal(t, []string{appLabel}, tb.Labels, "nothing to press while the house thinks: the app's link alone")
			case cutRe.MatchString(tb.Text):
				b.press(ctx, "✂️ ½", "Deck cut")
			case bettingRe.MatchString(tb.Text):
				b.press(ctx, tb.Labels[0], "Bet ")
			default:
				d := drawingRe.FindStringSubmatch(tb.Text)
				require.NotNil(t, d, "whose turn is it? The table:\n%s", tb.Text)
				if score, _ := strconv.Atoi(d[2]); score < 16 {
					b.press(ctx, "Hit 🂠", " · ")
				} else {
					b.press(ctx, "Stand ✋", "Stand at")
				}
			}
			tb = b.changed(ctx, before)
		}
	}
	assert.Equal(t, map[string]bool{"Alice": true, "🤖 House": true}, bankers, "each banked once")
	assert.True(t, thought, "the page showed the house thinking")

	dbCtx := context.Background()
	st, err := pg.Store().Standing(dbCtx, night.ID, house.ID)
	require.NoError(t, err)
	shown := houseSeatRe.FindStringSubmatch(tb.Text)
	require.NotNil(t, shown, "the house's seat:\n%s", tb.Text)
	assert.Equal(t, st.Balance, chips(t, shown[1]), "the house's balance on the table is the database's")
	audit, err := pg.Store().Audit(dbCtx, night.ID)
	require.NoError(t, err)
	assert.True(t, audit.OK, "audit: %v", audit.Problems)
}

// changed waits until the newest table message, with buttons or without,
// is not the one of signature before, and returns it.
func (b *browser) changed(ctx context.Context, before string) table {
	b.t.Helper()
	b.waitFor(ctx, "the table to change", `(() => { const r = `+currentTableJS+`; return !!r && r.dataset.messageId + '/' + r.dataset.edits !== `+js(before)+` })()`)
	return b.tableOf(ctx, currentTableJS)
}
