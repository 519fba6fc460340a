package playground_test

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inlineRowJS is the newest inline message of the open chat: one posted
// through the bot, which it knows by its inline_message_id only.
const inlineRowJS = `[...document.querySelectorAll('#messages-inner .row[data-inline-message-id]')].pop()`

// inlineResult is an inline result as the page lists it.
type inlineResult struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// inlineResults waits for the bot's results above the input and returns
// them; it checks that the list lies on the screen, above the input.
func (b *browser) inlineResults(ctx context.Context) []inlineResult {
	b.t.Helper()
	b.waitFor(ctx, "the bot's results above the input", `document.querySelectorAll('#inline-results .inline-result').length > 0`)
	type fit struct{ Left, Right, Top, Bottom, Input, Width float64 }
	f := eval[fit](ctx, b, `(() => { const r = document.getElementById('inline-results').getBoundingClientRect();
		return {Left: r.left, Right: r.right, Top: r.top, Bottom: r.bottom, Input: document.getElementById('input').getBoundingClientRect().top,
			Width: window.innerWidth} })()`)
	assert.GreaterOrEqual(b.t, f.Left, 0.0, "the results within the screen: %+v", f)
	assert.LessOrEqual(b.t, f.Right, f.Width, "the results within the screen: %+v", f)
	assert.GreaterOrEqual(b.t, f.Top, 0.0, "the results within the screen: %+v", f)
	assert.LessOrEqual(b.t, f.Bottom, f.Input, "the results above the input: %+v", f)
	return eval[[]inlineResult](ctx, b, `[...document.querySelectorAll('#inline-results .inline-result')].map(r =>
		({id: r.dataset.resultId, title: r.querySelector('.inline-title').textContent, description: r.querySelector('.inline-desc')?.textContent || ''}))`)
}

// inlineChanged waits until the inline message rowJS finds is not the one
// of signature before any more (an edit), and returns it.
func (b *browser) inlineChanged(ctx context.Context, before table, what string) table {
	b.t.Helper()
	b.waitFor(ctx, what, `(() => { const r = `+inlineRowJS+`; return !!r && r.dataset.messageId + '/' + r.dataset.edits !== `+js(before.sig())+` })()`)
	after := b.tableOf(ctx, inlineRowJS)
	assert.Equal(b.t, before.ID, after.ID, "%s: the inline message is edited in place", what)
	return after
}

// TestBrowserInlineTable plays a table in the private chat between Alice
// and Bob, where the bot is not, at 1280×800 and on a phone's screen,
// 390×844: Alice types @twentyone_bot, the bot's results show above the
// input, she picks the first, a table, which is posted "via
// @twentyone_bot"; she and Bob join through its buttons (pressed by its
// inline_message_id) and she starts the game: the inline message's text
// changes at each step, in place. Then she deletes it from its menu.
func TestBrowserInlineTable(t *testing.T) {
	for _, tt := range []struct {
		name          string
		width, height int64
		phone         bool
	}{
		{"1280x800", 1280, 800, false},
		{"390x844", 390, 844, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pg := startBrowserPlayground(t)
			ctx, b := newBrowser(t)
			duo := pg.UserChat()
			if tt.phone {
				b.run(ctx, "opening the page on a phone",
					chromedp.EmulateViewport(tt.width, tt.height, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Navigate(pg.URL()))
			} else {
				b.run(ctx, "opening the page", chromedp.EmulateViewport(tt.width, tt.height), chromedp.Navigate(pg.URL()))
			}
			b.waitFor(ctx, "the page to load", `document.body.dataset.ready === '1' && !!document.querySelector('.chat-item')`)
			b.as(ctx, "Alice")
			if tt.phone {
				b.openChatOnPhone(ctx, duo.ID)
				b.chatFits(ctx, "the chat with Bob")
			} else {
				b.openChat(ctx, duo.ID)
			}
			assert.Equal(t, "Bob Baker", eval[string](ctx, b, `document.getElementById('chat-title').textContent`), "Alice sees the chat as Bob's")
			assert.True(t, eval[bool](ctx, b, `document.getElementById('menu-btn').hidden`), "no bot, no bot menu")

			b.run(ctx, "typing @twentyone_bot", chromedp.SendKeys(chromedp.ID("input"), "@twentyone_bot"))
			results := b.inlineResults(ctx)
			require.NotEmpty(t, results)
			for _, r := range results {
				assert.Contains(t, r.Title, "Twenty One", "result %s", r.ID)
				assert.NotEmpty(t, r.Description, "result %s", r.ID)
			}
			assert.Contains(t, results[0].Title, "stake 10", "the default table first")
			b.screenshot(ctx, "playground-inline-results-"+tt.name+".png")

			b.run(ctx, "picking the first result", chromedp.Click(chromedp.CSS(`#inline-results .inline-result`)))
			b.waitFor(ctx, "the table posted", inlineRowJS)
			b.waitFor(ctx, "the input cleared and the results gone", `document.getElementById('input').value === '' && document.getElementById('inline-results').hidden`)
			lobby := b.tableOf(ctx, inlineRowJS)
			assert.Equal(t, []string{"Join"}, lobby.Labels)
			assert.True(t, eval[bool](ctx, b, `(`+inlineRowJS+`).classList.contains('out')`), "posted by Alice")
			assert.Equal(t, "via @twentyone_bot", eval[string](ctx, b, `(`+inlineRowJS+`).querySelector('.via')?.textContent || ''`))
			stored := pg.Server().Messages(duo.ID)
			require.Len(t, stored, 1)
			require.NotNil(t, stored[0].ViaBot, "the world has it via the bot")
			assert.Equal(t, stored[0].InlineMessageID, eval[string](ctx, b, `(`+inlineRowJS+`).dataset.inlineMessageId`))

			b.pressOn(ctx, inlineRowJS, "Join", "You're in.")
			open := b.inlineChanged(ctx, lobby, "the table opened by Alice's Join")
			assert.Contains(t, open.Text, "Alice")

			b.as(ctx, "Bob")
			assert.Equal(t, "Alice Archer", eval[string](ctx, b, `document.getElementById('chat-title').textContent`), "Bob sees the chat as Alice's")
			assert.Equal(t, "Alice Archer via @twentyone_bot", eval[string](ctx, b, `(`+inlineRowJS+`).querySelector('.sender').textContent`))
			b.pressOn(ctx, inlineRowJS, "Join", "You're in.")
			seated := b.inlineChanged(ctx, open, "Bob seated")
			assert.Contains(t, seated.Text, "Bob")
			require.Contains(t, seated.Labels, "Start ▶")

			b.as(ctx, "Alice")
			b.pressOn(ctx, inlineRowJS, "Start ▶", "")
			asked := b.inlineChanged(ctx, seated, "the game started")
			assert.NotEqual(t, seated.Text, asked.Text)
			g := cutRe.FindStringSubmatch(asked.Text)
			require.NotNil(t, g, "the deck waits for its cut: %s", asked.Text)
			assert.NotContains(t, asked.Text, "/cut", "an inline table asks for a tap only")
			b.as(ctx, g[1])
			b.pressOn(ctx, inlineRowJS, "✂️ ¼", "Deck cut")
			game := b.inlineChanged(ctx, asked, "the deck cut and dealt")
			assert.Regexp(t, bettingRe, game.Text, "someone is to bet")
			if tt.phone {
				b.fitsPhone(ctx, inlineRowJS, "the inline table")
				b.chatFits(ctx, "the chat with the table")
			}
			b.clearToasts(ctx)
			b.screenshot(ctx, "playground-inline-game-"+tt.name+".png")

			// Alice deletes it from its menu: a tap on a phone, a right
			// click elsewhere.
			id := game.ID
			bubble := inlineRowJS + `.querySelector('.bubble .text')`
			if tt.phone {
				b.run(ctx, "tapping the table", chromedp.Click(chromedp.JSPath(bubble)))
			} else {
				type point struct{ X, Y float64 }
				p := eval[point](ctx, b, `(() => { const r = (`+bubble+`).getBoundingClientRect(); return {X: r.left + r.width / 2, Y: r.top + r.height / 2} })()`)
				b.run(ctx, "right-clicking the table", chromedp.MouseClickXY(p.X, p.Y, chromedp.ButtonRight))
			}
			b.run(ctx, "Delete in its menu", chromedp.WaitVisible(chromedp.ID("msg-delete")), chromedp.Click(chromedp.ID("msg-delete")))
			b.waitFor(ctx, "the table gone", `!document.querySelector('#messages-inner .row[data-message-id="`+id+`"]')`)
			assert.Empty(t, pg.Server().Messages(duo.ID), "deleted in the world")
			assert.Zero(t, b.count(ctx, "#toasts .toast.error"), "no error shown")
		})
	}
}
