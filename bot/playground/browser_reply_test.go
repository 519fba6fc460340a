package playground_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// preview is a chat's preview in the chat list, as laid out.
type preview struct {
	Chat     string  `json:"chat"`
	Overflow string  `json:"overflow"`
	Cut      bool    `json:"cut"`
	Right    float64 `json:"right"`
}

// listFit is how the chat list lies on the screen.
type listFit struct {
	// Page is how wide the page lays out, Window the layout viewport (which
	// a phone's browser widens to fit a page too wide) and Screen the
	// screen.
	Page, Window, Screen float64
	// List is where the chat list ends, and Items where its widest item.
	List, Items float64
	Previews    []preview
}

// listFit measures the chat list.
func (b *browser) listFit(ctx context.Context) listFit {
	b.t.Helper()
	return eval[listFit](ctx, b, `(() => {
		const items = [...document.querySelectorAll('#chats .chat-item')];
		return {Page: document.documentElement.scrollWidth, Window: window.innerWidth, Screen: screen.width,
			List: document.getElementById('sidebar').getBoundingClientRect().right,
			Items: Math.max(...items.map(i => i.getBoundingClientRect().right)),
			Previews: items.map(i => { const p = i.querySelector('.chat-item-preview');
				return {chat: i.querySelector('.chat-item-title').textContent, overflow: getComputedStyle(p).textOverflow,
					cut: p.scrollWidth > p.clientWidth, right: p.getBoundingClientRect().right} })} })()`)
}

// chatFits checks that the open chat lies within the screen, with nothing
// to pan to sideways, and every message's bubble within it.
func (b *browser) chatFits(ctx context.Context, what string) {
	b.t.Helper()
	type fit struct{ Page, Window, Screen, Chat, Composer, Left, Right float64 }
	f := eval[fit](ctx, b, `(() => { const bubbles = [...document.querySelectorAll('#messages-inner .bubble')].map(e => e.getBoundingClientRect());
		return {Page: document.documentElement.scrollWidth, Window: window.innerWidth, Screen: screen.width,
		Chat: document.getElementById('chat').getBoundingClientRect().right,
		Composer: document.getElementById('composer').getBoundingClientRect().right,
		Left: Math.min(...bubbles.map(r => r.left)), Right: Math.max(...bubbles.map(r => r.right))} })()`)
	assert.LessOrEqual(b.t, f.Page, f.Window, "%s: the page pans sideways", what)
	assert.Equal(b.t, f.Screen, f.Window, "%s: the page laid out at the screen's width", what)
	assert.LessOrEqual(b.t, f.Chat, f.Screen, "%s: the chat within the screen", what)
	assert.LessOrEqual(b.t, f.Composer, f.Screen, "%s: the composer within the screen", what)
	assert.GreaterOrEqual(b.t, f.Left, 0.0, "%s: a message cut at the screen's left", what)
	assert.LessOrEqual(b.t, f.Right, f.Screen, "%s: a message cut at the screen's right", what)
}

// replyTo chooses a message to reply to, as a person does: on a phone, a
// tap on the message and Reply in its menu; on a wider screen, the Reply
// button that shows beside a message under the pointer. The message,
// quoted with its sender's name, then shows above the input.
func (b *browser) replyTo(ctx context.Context, id int, sender string) {
	b.t.Helper()
	row := messageRowJS(id)
	b.run(ctx, "the message in view", evalVoid(row+`.scrollIntoView({block: 'center'})`))
	if eval[bool](ctx, b, `window.matchMedia('(max-width: 720px)').matches`) {
		b.run(ctx, "tapping the message", chromedp.Click(chromedp.JSPath(row+`.querySelector('.bubble .text')`)))
		b.run(ctx, "Reply in its menu", chromedp.WaitVisible(chromedp.ID("msg-menu")), chromedp.Click(chromedp.ID("msg-reply")))
	} else {
		b.run(ctx, "the message's Reply button", chromedp.Click(chromedp.JSPath(row+`.querySelector('.reply-btn')`)))
	}
	b.waitFor(ctx, "the quote above the input", `!document.getElementById('reply-bar').hidden &&
		document.getElementById('reply-name').textContent.includes(`+js(sender)+`)`)
}

// ephemeralAnswer waits for the bot's answer to the newest message of the
// current user, a command they sent ephemerally, and returns its text: it
// checks that the command quotes the message of id and is marked as the
// user's own ephemeral message ("Visible to @twentyone_bot"), and that
// the answer is an ephemeral message to them ("Only visible to you") in
// reply to the command.
func (b *browser) ephemeralAnswer(ctx context.Context, id int) string {
	b.t.Helper()
	mine := `[...document.querySelectorAll('#messages-inner .row.out')].pop()`
	require.True(b.t, eval[bool](ctx, b, `(`+mine+`).classList.contains('ephemeral')`), "my command is sent ephemerally")
	assert.Equal(b.t, "Visible to @twentyone_bot", eval[string](ctx, b, `(`+mine+`).querySelector('.eph-plate').textContent`))
	quoted := eval[string](ctx, b, `(`+mine+`).querySelector('.reply')?.dataset.messageId || ''`)
	assert.Equal(b.t, fmt.Sprint(id), quoted, "my message quotes the message replied to")
	answer := `[...document.querySelectorAll('#messages-inner .row.ephemeral[data-from-bot]')].find(r => r.querySelector('.reply')?.dataset.ephemeralMessageId === (` + mine + `).dataset.ephemeralMessageId)`
	text := poll[string](ctx, b, "the bot's answer", `(() => { const a = `+answer+`; return a && a.querySelector('.text').textContent })()`)
	assert.Equal(b.t, "Only visible to you", eval[string](ctx, b, `(`+answer+`).querySelector('.eph-plate').textContent`), "the answer is marked as Alice's alone")
	return text
}

// TestBrowserPhoneLayout: on a phone's screen, 390×844, the page never
// pans sideways. The chat list is one screen that fits it, each chat's
// preview cut with an ellipsis; the chat is another that fits too. And a
// message can be answered in reply, as on Telegram: Alice taps Bob's
// message, picks Reply (and cancels it once with ✕), and sends /stats,
// which the page sends ephemerally (the bot declares it is_ephemeral): the
// bot answers with Bob's stats, not hers, in an ephemeral message only she
// sees, marked so; Bob sees neither.
func TestBrowserPhoneLayout(t *testing.T) {
	pg := startBrowserPlayground(t)
	ctx, b := newBrowser(t)
	night := pg.Groups()[0]
	bob := pg.Server().Users()[1]
	long := "Who's up for a round of Twenty One tonight? I'll bring the snacks, you bring your luck and your chips."
	said, err := pg.Server().SendText(night.ID, bob.ID, long)
	require.NoError(t, err)

	b.run(ctx, "opening the page on a phone",
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Navigate(pg.URL()))
	b.waitFor(ctx, "the page to load", `document.body.dataset.ready === '1' && !!document.querySelector('.chat-item')`)
	b.as(ctx, "Alice")
	b.waitFor(ctx, "Bob's message in the list", `[...document.querySelectorAll('.chat-item-preview')].some(p => p.textContent.includes("Who's up"))`)
	list := b.listFit(ctx)
	t.Logf("the chat list: %+v", list)
	assert.LessOrEqual(t, list.Page, list.Window, "the chat list pans sideways")
	assert.Equal(t, list.Screen, list.Window, "the chat list laid out at the screen's width")
	assert.LessOrEqual(t, list.List, list.Screen, "the chat list within the screen")
	assert.LessOrEqual(t, list.Items, list.Screen, "the chats within the screen")
	require.NotEmpty(t, list.Previews)
	for _, p := range list.Previews {
		assert.Equal(t, "ellipsis", p.Overflow, "%s: a preview too long ends with an ellipsis", p.Chat)
		assert.LessOrEqual(t, p.Right, list.Screen, "%s: the preview within the screen", p.Chat)
	}
	assert.True(t, list.Previews[0].Cut, "Game night's preview, Bob's long message, is cut: %+v", list.Previews[0])
	b.screenshot(ctx, "playground-phone-list.png")

	b.openChatOnPhone(ctx, night.ID)
	b.chatFits(ctx, "the chat")

	b.replyTo(ctx, said.MessageID, "Bob")
	b.chatFits(ctx, "the chat, replying")
	b.screenshot(ctx, "playground-phone-reply.png")
	b.run(ctx, "cancelling the reply", chromedp.Click(chromedp.ID("reply-cancel")))
	b.waitFor(ctx, "the quote gone", `document.getElementById('reply-bar').hidden`)
	b.replyTo(ctx, said.MessageID, "Bob")
	b.send(ctx, "/stats")
	b.waitFor(ctx, "the quote gone once sent", `document.getElementById('reply-bar').hidden`)
	assert.Equal(t, "Bob hasn't played here yet.", b.ephemeralAnswer(ctx, said.MessageID), "Bob's stats")
	b.chatFits(ctx, "the chat after the reply")
	b.screenshot(ctx, "playground-phone-answer.png")

	// Bob, whose stats they are, sees neither Alice's command nor the answer.
	b.as(ctx, "Bob")
	after, err := pg.Server().SendText(night.ID, pg.Server().Users()[2].ID, "Nice")
	require.NoError(t, err)
	b.waitFor(ctx, "a message sent after, shown to Bob", messageRowJS(after.MessageID))
	assert.Zero(t, b.count(ctx, "#messages-inner .row.ephemeral"), "Bob sees no ephemeral message")
	b.chatFits(ctx, "the chat, as Bob")
}
