package playground_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// ephemeralRowJS is the newest ephemeral message of the open chat whose
// text contains the string.
func ephemeralRowJS(text string) string {
	return `[...document.querySelectorAll('#messages-inner .row.ephemeral')].filter(r => r.querySelector('.text').textContent.includes(` + js(text) + `)).pop()`
}

// TestBrowserEphemeral: in "Game night", Alice picks /stats, which the bot
// declared is_ephemeral, from the command menu, where an eye marks it: it
// is sent ephemerally and shows to her marked "Visible to
// @twentyone_bot"; the bot's ephemeral answer shows to her marked "Only
// visible to you". Bob, in the same chat, sees neither, while he sees
// what every member sees; back as Alice, both are there again.
func TestBrowserEphemeral(t *testing.T) {
	pg := startBrowserPlayground(t)
	srv := pg.Server()
	users := srv.Users()
	alice, carol := users[0], users[2]
	game := pg.Groups()[0]
	declareEphemeralStats(t, srv)
	ctx, b := newBrowser(t)
	b.open(ctx, pg.URL(), game.ID, "Alice")

	stats := `#cmd-menu .cmd[data-command="stats"]`
	b.run(ctx, "the command menu", chromedp.Click(chromedp.ID("menu-btn")), chromedp.WaitVisible(chromedp.CSS(stats)))
	assert.Equal(t, "1", eval[string](ctx, b, `document.querySelector(`+js(stats)+`).dataset.ephemeral || ''`), "/stats is marked ephemeral")
	assert.Equal(t, 1, b.count(ctx, stats+` .eye`), "with an eye")
	assert.Zero(t, b.count(ctx, `#cmd-menu .cmd[data-command="newgame"] .eye`), "/newgame is not ephemeral")
	b.run(ctx, "picking /stats", chromedp.Click(chromedp.CSS(stats)))

	mine := ephemeralRowJS("/stats")
	b.waitFor(ctx, "Alice's ephemeral /stats", mine)
	assert.True(t, eval[bool](ctx, b, `(`+mine+`).classList.contains('out')`), "sent by Alice")
	assert.Equal(t, "Visible to @twentyone_bot", eval[string](ctx, b, `(`+mine+`).querySelector('.eph-plate').textContent`))
	var command telegramtest.ChatMessage
	for _, m := range srv.EphemeralMessages(game.ID) {
		if m.From != nil && m.From.ID == alice.ID && m.Text == "/stats" {
			command = m
		}
	}
	require.NotZero(t, command.EphemeralMessageID, "the world has Alice's ephemeral command")
	assert.Empty(t, func() []telegramtest.ChatMessage {
		var public []telegramtest.ChatMessage
		for _, m := range srv.Messages(game.ID) {
			if m.Text == "/stats" {
				public = append(public, m)
			}
		}
		return public
	}(), "no member sees it in the chat")

	const secret = "Alice, your balance is yours alone"
	sendEphemeralAnswer(t, srv, game.ID, alice.ID, command.EphemeralMessageID, secret)
	answer := ephemeralRowJS(secret)
	b.waitFor(ctx, "the bot's ephemeral answer", answer)
	assert.True(t, eval[bool](ctx, b, `!!(`+answer+`).dataset.fromBot`))
	assert.Equal(t, "Only visible to you", eval[string](ctx, b, `(`+answer+`).querySelector('.eph-plate').textContent`))
	assert.Equal(t, []string{"Deck"}, eval[[]string](ctx, b, `[...(`+answer+`).querySelectorAll('.kb-btn')].map(b => b.textContent)`))
	b.screenshot(ctx, "playground-ephemeral-alice.png")

	// Bob sees the chat without them: a message every member sees, sent
	// after, shows to him, and still no ephemeral one.
	b.as(ctx, "Bob")
	_, err := srv.SendText(game.ID, carol.ID, "Carol says hi to everyone")
	require.NoError(t, err)
	b.waitFor(ctx, "Carol's message, shown to Bob", `[...document.querySelectorAll('#messages-inner .row .text')].some(t => t.textContent === 'Carol says hi to everyone')`)
	assert.Zero(t, b.count(ctx, "#messages-inner .row.ephemeral"), "Bob sees no ephemeral message")
	page := eval[string](ctx, b, `document.getElementById('messages-inner').textContent`)
	assert.NotContains(t, page, secret)
	assert.False(t, strings.Contains(page, "Visible to") || strings.Contains(page, "Only visible"), "nor any mark")
	var bobs struct {
		Messages []telegramtest.ChatMessage `json:"messages"`
	}
	call(t, "GET", pg.URL()+"/api/chats/"+itoa(game.ID)+"/messages?user="+itoa(users[1].ID), nil, &bobs)
	for _, m := range bobs.Messages {
		assert.False(t, m.IsEphemeral(), "the API gives Bob none either: %q", m.Text)
	}
	b.screenshot(ctx, "playground-ephemeral-bob.png")

	b.as(ctx, "Alice")
	b.waitFor(ctx, "Alice's view again", answer+` && `+mine)
}

// TestBrowserAnswerOpensTheBotsLink: a press whose answer carries the
// bot's deep link (answerCallbackQuery's url) opens the presser's private
// chat with the bot, which starts with "/start PARAM", as a client opens
// it. The bot's polling is held meanwhile, so that the test answers the
// press before the bot does (the bot sends no url yet: its side is built
// apart).
func TestBrowserAnswerOpensTheBotsLink(t *testing.T) {
	pg := startBrowserPlayground(t)
	srv := pg.Server()
	alice := srv.Users()[0]
	game := pg.Groups()[0]
	ctx, b := newBrowser(t)
	b.open(ctx, pg.URL(), game.ID, "Alice")

	result := botCall(t, srv, "sendMessage", url.Values{"chat_id": {itoa(game.ID)}, "text": {"Deck of table 7"},
		"reply_markup": {`{"inline_keyboard":[[{"text":"Check the deck","callback_data":"deck:7"}]]}`}})
	require.NotEmpty(t, result)
	row := `[...document.querySelectorAll('#messages-inner .row[data-from-bot]')].filter(r => r.querySelector('.text').textContent === 'Deck of table 7').pop()`
	b.waitFor(ctx, "the message with the button", row)

	release := make(chan struct{})
	held := srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Methods: []string{"getUpdates"}, Hold: release, Count: 1})
	t.Cleanup(func() { close(release) })
	require.Eventually(t, func() bool { return held.Fired() == 1 }, 10*time.Second, 10*time.Millisecond, "the bot's next poll held")
	sub := srv.Subscribe(64)
	defer sub.Close()

	b.run(ctx, "pressing Check the deck", chromedp.Click(chromedp.JSPath(`[...(`+row+`).querySelectorAll('.kb-btn')].find(b => b.textContent === 'Check the deck')`)))
	var query string
	for query == "" {
		select {
		case e := <-sub.C:
			if e.Kind == telegramtest.EventButtonPressed && e.Callback != nil && e.Callback.Data == "deck:7" {
				query = e.Callback.ID
			}
		case <-ctx.Done():
			t.Fatal("the press did not reach the server")
		}
	}
	botCall(t, srv, "answerCallbackQuery", url.Values{"callback_query_id": {query}, "url": {"https://t.me/twentyone_bot?start=verify_7"}})

	b.waitFor(ctx, "the private chat with the bot open", `document.querySelector('.chat-item.active')?.dataset.chatId === `+js(itoa(alice.ID)))
	assert.Equal(t, "Twenty One", eval[string](ctx, b, `document.getElementById('chat-title').textContent`))
	b.waitFor(ctx, "/start verify_7 sent", `[...document.querySelectorAll('#messages-inner .row.out .text')].some(t => t.textContent === '/start verify_7')`)
	last, ok := srv.LastMessage(alice.ID)
	require.True(t, ok)
	assert.Equal(t, "/start verify_7", last.Text)
	assert.Zero(t, b.count(ctx, "#toasts .toast.error"), "no error shown")
}

// TestBrowserGuestTable plays a guest-mode table to its end in the page:
// in "Book club", which the bot is not in, Carol sends "@twentyone_bot
// 21"; the bot answers with a table that names her ("for Carol Cooper"); Alice
// and Bob join through its buttons, Alice starts it, and whoever's turn
// it is bets and draws until the game is over.
func TestBrowserGuestTable(t *testing.T) {
	pg := startBrowserPlayground(t)
	club := pg.GroupWithoutBot()
	ctx, b := newBrowser(t)
	b.open(ctx, pg.URL(), club.ID, "Carol")
	b.send(ctx, "@twentyone_bot 21")

	b.waitFor(ctx, "the bot's table", tableRowJS)
	lobby := b.table(ctx)
	assert.Equal(t, []string{"Join"}, lobby.Labels)
	sender := eval[string](ctx, b, `(`+tableRowJS+`).querySelector('.sender')?.textContent || ''`)
	assert.Contains(t, sender, "Twenty One", "sent by the bot")
	assert.Equal(t, "for Carol Cooper", eval[string](ctx, b, `(`+tableRowJS+`).querySelector('.sender .caller')?.textContent || ''`), "who called it")
	stored, ok := pg.Server().InlineMessage(eval[string](ctx, b, `(`+tableRowJS+`).dataset.inlineMessageId`))
	require.True(t, ok, "a guest answer is an inline message")
	require.NotNil(t, stored.GuestBotCallerUser)
	assert.Equal(t, "Carol", stored.GuestBotCallerUser.FirstName)

	b.as(ctx, "Alice")
	open := b.pressAndWait(ctx, "Join", "You're in.")
	b.as(ctx, "Bob")
	seated := b.pressAndWait(ctx, "Join", "You're in.")
	assert.Contains(t, seated.Text, "Alice")
	assert.Contains(t, seated.Text, "Bob")
	require.Contains(t, seated.Labels, "Start ▶")
	assert.Equal(t, open.ID, seated.ID, "the table stays in its one message")

	b.as(ctx, "Alice")
	game := b.pressAndWait(ctx, "Start ▶", "")
	over := b.play(ctx, game, nil)
	assert.Contains(t, over.Text, "Game over")
	assert.Equal(t, lobby.ID, over.ID, "played in the one message")
	assert.Zero(t, b.count(ctx, "#toasts .toast.error"), "no error shown")
	b.screenshot(ctx, "playground-guest-game.png")
}
