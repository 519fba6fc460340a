package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Tables on inline messages, in chats the bot is not in (issue 28): over
// HTTP with our Bot API server, which models inline and guest mode.

// inlineMode gives the harness's bot inline mode with feedback, and guest
// mode, as BotFather turns them on.
func inlineMode(o *harnessOptions) {
	o.srvOpts = append(o.srvOpts, telegramtest.WithInlineFeedback(), telegramtest.WithGuestMode())
}

// inlineTable is a table posted as an inline message: the chat it is in,
// the message, and the table's key.
type inlineTable struct {
	chat telegramtest.Chat
	im   telegramtest.InlineMessage
	key  storage.TableKey
}

// withoutBot makes a group of the named users that the bot is not in.
func (h *harness) withoutBot(title string, names ...string) telegramtest.Chat {
	h.t.Helper()
	var ids []int64
	for _, n := range names[1:] {
		ids = append(ids, h.user(n).ID)
	}
	c, err := h.srv.AddChat(telegramtest.ChatSpec{Title: title, Creator: h.user(names[0]).ID, Members: ids, BotStatus: telegramtest.StatusLeft})
	require.NoError(h.t, err)
	return c
}

// queryInline has name type "@bot query" in chat and returns the bot's
// answer.
func (h *harness) queryInline(chat telegramtest.Chat, name, query string) (*telegramtest.InlineRequest, telegramtest.InlineAnswer) {
	h.t.Helper()
	q, err := h.srv.SendInlineQuery(chat.ID, h.user(name).ID, query)
	require.NoError(h.t, err)
	a, err := q.Wait(h.ctx())
	require.NoError(h.t, err)
	return q, a
}

// postInline has name post the first table the bot offers in chat.
func (h *harness) postInline(chat telegramtest.Chat, name string) inlineTable {
	h.t.Helper()
	q, a := h.queryInline(chat, name, "")
	require.NotEmpty(h.t, a.Results)
	im, err := h.srv.ChooseInlineResult(q.ID(), a.Results[0].ID)
	require.NoError(h.t, err)
	return h.inlineAt(chat, im)
}

// inlineAt returns the inline table of the message im in chat.
func (h *harness) inlineAt(chat telegramtest.Chat, im telegramtest.InlineMessage) inlineTable {
	h.t.Helper()
	instance, ok := h.srv.ChatInstance(chat.ID)
	require.True(h.t, ok)
	return inlineTable{chat: chat, im: im, key: storage.TableKey{Chat: storage.InlineChatID(instance), Thread: storage.InlineThreadID(im.ID)}}
}

// shows waits until the inline message shows the stored table's current
// version and holds for cond, and returns it.
func (h *harness) shows(it inlineTable, cond func(telegramtest.ChatMessage) bool) telegramtest.ChatMessage {
	h.t.Helper()
	var got telegramtest.ChatMessage
	require.NoError(h.t, h.waitFor(func(v *telegramtest.View) bool {
		sv, err := h.store.View(context.Background(), it.key)
		if err != nil {
			return false
		}
		m, ok := v.Message(it.chat.ID, it.im.MessageID)
		if !ok || !showsVersion(m, sv.Table.Version()) {
			return false
		}
		got = m
		return cond == nil || cond(m)
	}), "the inline message shows its table")
	return got
}

// pressOnInline has name press the button of the inline message that
// match picks, once the message shows the table's current version with
// such a button, and returns the answer; a deck waiting for its cut is
// cut first, unless match picks a cut button (cutFirst).
func (h *harness) pressOnInline(it inlineTable, name string, match func(callback.Data) bool) telegramtest.CallbackAnswer {
	h.t.Helper()
	h.cutFirst(it.key, &it, match)
	var data string
	h.shows(it, func(m telegramtest.ChatMessage) bool {
		for _, b := range m.Buttons() {
			if d, err := callback.Parse(b.CallbackData); err == nil && match(d) {
				data = b.CallbackData
				return true
			}
		}
		return false
	})
	return h.pressInlineRaw(it, name, data)
}

// pressInlineRaw has name press data on the inline message.
func (h *harness) pressInlineRaw(it inlineTable, name, data string) telegramtest.CallbackAnswer {
	h.t.Helper()
	cb, err := h.srv.PressInline(telegramtest.InlinePress{From: h.user(name).ID, InlineMessageID: it.im.ID, Data: data})
	require.NoError(h.t, err)
	a, err := cb.Wait(h.ctx())
	require.NoError(h.t, err)
	return a
}

// inlineView returns the stored table of it.
func (h *harness) inlineView(it inlineTable) storage.View {
	h.t.Helper()
	v, err := h.store.View(context.Background(), it.key)
	require.NoError(h.t, err)
	return v
}

// inlineBalance returns name's balance in the inline table's chat.
func (h *harness) inlineBalance(it inlineTable, name string) int64 {
	h.t.Helper()
	u := h.user(name)
	acc, err := h.store.Account(context.Background(), it.key.Chat, storage.User{ID: game.UserID(u.ID), Name: u.FirstName}, h.clock.Now())
	require.NoError(h.t, err)
	return acc.Balance
}

// startInline opens the inline table with opener seated, seats the
// others and starts the game, and waits until the first player is to bet.
func (h *harness) startInline(it inlineTable, opener string, others ...string) {
	h.t.Helper()
	h.pressOnInline(it, opener, is(callback.InlineOpen))
	for _, name := range others {
		h.pressOnInline(it, name, is(callback.Join))
	}
	h.pressOnInline(it, opener, is(callback.Start))
	h.cutAt(it.key, &it)
	h.shows(it, contains("your bet,"))
}

func is(a callback.Action) func(callback.Data) bool {
	return func(d callback.Data) bool { return d.Action == a }
}

func bets(amount int64) func(callback.Data) bool {
	return func(d callback.Data) bool { return d.Action == callback.Bet && d.Amount == amount }
}

// TestInlineGame: a whole game of three players on an inline message, in
// a group the bot is not in: the results offered, the table posted via the
// bot, opened by the first Join, bets, draws, a knock, a broken bank, Play
// again; every answer a toast or an alert; the chips are the chat's and
// add up.
func TestInlineGame(t *testing.T) {
	h := newHarness(t, inlineMode)
	h.decks(
		"Kh Tc  Ts 8s  7c Td 8d", // circle 1: dealt Bob, Carol; Bob busts, Carol loses to the banker's 18
		"As 6c  Ac",              // circle 2, after the knock: Bob's Golden 21 breaks the bank
	)
	club := h.withoutBot("Book club", "Alice", "Bob", "Carol")
	q, answer := h.queryInline(club, "Alice", "")
	require.Len(t, answer.Results, 3, "a few tables")
	assert.Zero(t, answer.CacheTime)
	assert.True(t, answer.IsPersonal)
	assert.Equal(t, "🃏 A table of Twenty One · stake 10", answer.Results[0].Title)
	im, err := h.srv.ChooseInlineResult(q.ID(), answer.Results[0].ID)
	require.NoError(t, err)
	it := h.inlineAt(club, im)
	posted, ok := h.srv.InlineMessage(im.ID)
	require.True(t, ok)
	require.NotNil(t, posted.ViaBot, "posted via the bot")
	assert.Contains(t, posted.Text, "Nobody is seated yet.")
	assert.Equal(t, []string{"Join"}, posted.Labels())
	_, err = h.store.View(context.Background(), it.key)
	v := h.inlineView(it)
	require.NoError(t, err)
	assert.Equal(t, game.Closed, v.Table.Phase(), "no table before a press: no chips held")

	assert.Equal(t, "You're in.", h.pressOnInline(it, "Alice", is(callback.InlineOpen)).Text)
	h.shows(it, contains("1. Alice"))
	assert.Equal(t, "You're in.", h.pressOnInline(it, "Bob", is(callback.Join)).Text)
	assert.Equal(t, "You're in.", h.pressOnInline(it, "Carol", is(callback.Join)).Text)
	h.shows(it, contains("3. Carol"))
	v = h.inlineView(it)
	require.NotNil(t, v.Inline)
	assert.Equal(t, it.im.ID, v.Inline.MessageID)
	assert.Equal(t, "Game on · Bob cuts the deck", h.pressOnInline(it, "Alice", is(callback.Start)).Text)
	h.cutAt(it.key, &it)

	// Circle 1: Bob busts, Carol loses to the banker's 18: the bank grew
	// from 10 to 30, a knock.
	h.shows(it, contains("your bet, Bob"))
	assert.Equal(t, "Bet 10 · your card K♥ (4) · Hit or Stand?", h.pressOnInline(it, "Bob", bets(10)).Text)
	assert.Equal(t, "10♠ · 14", h.pressOnInline(it, "Bob", is(callback.Hit)).Text)
	assert.Equal(t, "8♠ · 22: bust!", h.pressOnInline(it, "Bob", is(callback.Hit)).Text)
	h.shows(it, contains("your bet, Carol"))
	h.pressOnInline(it, "Carol", bets(10))
	assert.Equal(t, "7♣ · 17", h.pressOnInline(it, "Carol", is(callback.Hit)).Text)
	assert.Equal(t, "Stand at 17 · banker 18: you lose 10", h.pressOnInline(it, "Carol", is(callback.Stand)).Text)
	m := h.shows(it, contains("Knock"))
	assert.Contains(t, m.Text, "🔔 Knock!")

	// Circle 2: Bob bets the bank and draws Golden 21; Carol never duels.
	h.pressOnInline(it, "Bob", bets(30))
	assert.Equal(t, "A♣ · Golden 21!", h.pressOnInline(it, "Bob", is(callback.Hit)).Text)
	m = h.shows(it, contains("Game over"))
	assert.Contains(t, m.Text, "Carol")
	assert.Contains(t, m.Text, "the button below", "no /verify in a chat the bot is not in")
	assert.NotContains(t, m.Text, "/verify")
	assert.Contains(t, m.Labels(), "🏆 Top")

	// The deck check opens the bot's private chat; the leaderboard is an
	// alert.
	check := h.pressOnInline(it, "Carol", is(callback.Verify))
	assert.Empty(t, check.Text)
	assert.Contains(t, check.URL, "?start=verify_")
	top := h.pressOnInline(it, "Carol", is(callback.Top))
	assert.True(t, top.ShowAlert)
	assert.Contains(t, top.Text, "1. Bob")
	assert.LessOrEqual(t, len([]rune(top.Text)), 200)

	assert.EqualValues(t, 1020, h.inlineBalance(it, "Bob"), "−10, then +30")
	assert.EqualValues(t, 990, h.inlineBalance(it, "Carol"))
	assert.EqualValues(t, 990, h.inlineBalance(it, "Alice"), "the banker's stake, lost to the broken bank")
	a, err := h.store.Audit(context.Background(), it.key.Chat)
	require.NoError(t, err)
	assert.True(t, a.OK, a.Problems)

	// Play again: the next game, with the next banker, in the same message.
	h.pressOnInline(it, "Bob", is(callback.Start))
	v = h.inlineView(it)
	require.True(t, v.Table.Phase().InGame())
	bi, _ := v.Table.Banker()
	assert.Equal(t, "Bob", v.Table.Seat(bi).Name)
	m = h.shows(it, nil)
	assert.Equal(t, it.im.MessageID, m.MessageID, "the same message: the bot can post no other")
	for _, msg := range h.srv.Messages(club.ID) {
		assert.False(t, msg.FromBot && msg.ViaBot == nil, "the bot sent nothing of its own into the chat: %q", msg.Text)
	}
}

// TestInlineDeckInPrivate: the deck check opens the bot's private chat
// (answerCallbackQuery's url, not an alert whose link nobody can tap),
// where /start shows the whole deck of the inline table's game and its
// hash.
func TestInlineDeckInPrivate(t *testing.T) {
	// The decks of before the cut: /verify's display of the cut's is
	// verify.go's.
	h := newHarness(t, inlineMode, saltDecks)
	h.decks("Kh Tc  Ts 8s", "As 6c  Ac")
	club := h.withoutBot("Book club", "Alice", "Bob")
	it := h.postInline(club, "Alice")
	h.startInline(it, "Alice", "Bob")
	h.pressOnInline(it, "Bob", bets(10))
	h.pressOnInline(it, "Bob", is(callback.Hit))
	h.pressOnInline(it, "Bob", is(callback.Hit)) // 22: bust, the bank is 20 < 30: Alice takes it
	h.shows(it, contains("Game over"))
	check := h.pressOnInline(it, "Bob", is(callback.Verify))
	assert.Empty(t, check.Text, "no alert")
	assert.False(t, check.ShowAlert)
	require.True(t, strings.HasPrefix(check.URL, "https://t.me/telegramtest_bot?start=verify_"), check.URL)
	start, err := h.srv.OpenLink(h.user("Bob").ID, check.URL)
	require.NoError(t, err)
	deck := h.privately("Bob", start.MessageID, "Text to hash")
	assert.Contains(t, deck.Text, "KhTcTs8s", "the deck as dealt")
	v := h.inlineView(it)
	c, ok := v.Table.Revealed()
	require.True(t, ok)
	assert.Contains(t, deck.Text, c.String(), "the hash to check it by")
	for _, m := range h.srv.Messages(club.ID) {
		assert.False(t, m.FromBot && m.ViaBot == nil, "nothing of the bot's own in the chat: %q", m.Text)
	}
}

// TestInlineWalletsPerChat: the chips of inline tables belong to their
// chat: a player's wallet in one chat is not the one in another.
func TestInlineWalletsPerChat(t *testing.T) {
	h := newHarness(t, inlineMode)
	h.decks("Kh Tc  Ts 8s")
	private, err := h.srv.NewUserChat(h.user("Alice"), h.user("Bob"))
	require.NoError(t, err)
	club := h.withoutBot("Book club", "Alice", "Bob", "Carol")
	one := h.postInline(private, "Alice")
	h.startInline(one, "Alice", "Bob")
	h.pressOnInline(one, "Bob", bets(10))
	h.pressOnInline(one, "Bob", is(callback.Hit))
	h.pressOnInline(one, "Bob", is(callback.Hit))
	h.shows(one, contains("Game over"))
	assert.EqualValues(t, 990, h.inlineBalance(one, "Bob"), "Bob lost 10 in the private chat")

	two := h.postInline(club, "Bob")
	assert.NotEqual(t, one.key.Chat, two.key.Chat, "another chat")
	h.pressOnInline(two, "Bob", is(callback.InlineOpen))
	h.shows(two, contains("1. Bob"))
	assert.EqualValues(t, 1000, h.inlineBalance(two, "Bob"), "a wallet of its own in the group")
	assert.EqualValues(t, 990, h.inlineBalance(one, "Bob"))
	v := h.inlineView(two)
	top := h.pressInlineRaw(two, "Bob", callback.Data{Action: callback.Top, Version: v.Table.Version()}.String())
	assert.Contains(t, top.Text, "Bob 1")
	assert.NotContains(t, top.Text, "990", "the group's leaderboard, not the private chat's")
}

// TestInlineMessageDeleted: a user deletes the inline message mid-game:
// the bot's next edit (here, when Bob's turn runs out) is refused as
// Telegram refuses it ("MESSAGE_ID_INVALID"), and the table closes with
// every chip on it given back: the bank to the banker.
func TestInlineMessageDeleted(t *testing.T) {
	h := newHarness(t, inlineMode)
	h.decks("Kh Tc  Td 8d")
	club := h.withoutBot("Book club", "Alice", "Bob", "Carol")
	it := h.postInline(club, "Alice")
	h.startInline(it, "Alice", "Bob", "Carol")
	h.pressOnInline(it, "Bob", bets(10))
	h.shows(it, contains("bet 10 · K♥"))
	require.NoError(t, h.srv.DeleteInlineMessage(h.user("Alice").ID, it.im.ID))

	// Bob's turn runs out: he stands at 4, the banker draws 18 and wins;
	// the render of Carol's turn finds the message gone.
	h.settle()
	h.clock.Advance(game.DefaultSettings().TurnTimeout)
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
		v, err := h.store.View(context.Background(), it.key)
		return err == nil && v.Table.Phase() == game.Closed
	}), "the table closed")
	h.settle()
	assert.EqualValues(t, 990, h.inlineBalance(it, "Bob"), "his duel was lost before")
	assert.EqualValues(t, 1000, h.inlineBalance(it, "Carol"), "she had not bet")
	assert.EqualValues(t, 1010, h.inlineBalance(it, "Alice"), "the bank, 20, back to the banker")
	a, err := h.store.Audit(context.Background(), it.key.Chat)
	require.NoError(t, err)
	assert.True(t, a.OK, a.Problems)
	timers, err := h.store.Timers(context.Background())
	require.NoError(t, err)
	assert.Empty(t, timers, "nothing left to fire")
}

// TestInlineCrash: kill -9 in the middle of an inline game: the table
// resumes where it was, and a press delivered again changes nothing
// twice.
func TestInlineCrash(t *testing.T) {
	h := newHarness(t, inlineMode)
	h.decks("Kh Tc  Ts 8s  7c Td 8d")
	club := h.withoutBot("Book club", "Alice", "Bob", "Carol")
	it := h.postInline(club, "Alice")
	h.startInline(it, "Alice", "Bob", "Carol")
	h.pressOnInline(it, "Bob", bets(10))
	vb := h.inlineView(it)
	before := vb.Table.Version()
	h.crash()
	v := h.inlineView(it)
	assert.Equal(t, before, v.Table.Version(), "nothing applied twice")
	h.shows(it, contains("bet 10 · K♥"))
	assert.Equal(t, "10♠ · 14", h.pressOnInline(it, "Bob", is(callback.Hit)).Text)
	h.shows(it, contains("14"))
	a, err := h.store.Audit(context.Background(), it.key.Chat)
	require.NoError(t, err)
	assert.True(t, a.OK, a.Problems)
}

// TestInlineForgedPresses: nothing in callback data is trusted on an
// inline message either: a chat's buttons there, a table opened with a
// preset the bot never offered, a version drawn for another table, and an
// inline table's buttons on a chat's message are all refused, and change
// nothing.
func TestInlineForgedPresses(t *testing.T) {
	h := newHarness(t, inlineMode)
	club := h.withoutBot("Book club", "Alice", "Bob")
	it := h.postInline(club, "Alice")
	other := h.postInline(club, "Bob")
	for _, data := range []string{"p:7:70:en", "p:10:100:xx", "p:10:101:en"} {
		a := h.pressInlineRaw(it, "Alice", data)
		assert.Equal(t, "This button doesn't work here.", a.Text, data)
	}
	closed := h.inlineView(it)
	assert.Equal(t, game.Closed, closed.Table.Phase(), "no table opened")
	h.pressOnInline(it, "Alice", is(callback.InlineOpen))
	h.pressOnInline(other, "Bob", is(callback.InlineOpen))
	h.pressOnInline(other, "Bob", is(callback.Join)) // the other table moves on: version 2 of it
	v := h.inlineView(it)
	tests := []struct{ name, data, says string }{
		{"a settings button", callback.Data{Action: callback.SettingOpen, Field: "stake"}.String(), "This button works only on a table of this chat."},
		{"a group to stop following", callback.Data{Action: callback.Unfollow, Chat: -100}.String(), "This button works only on a table of this chat."},
		{"the other table's version", callback.Data{Action: callback.Leave, Version: v.Table.Version() + 3}.String(), "This table has moved on."},
		{"junk", "zz:1", "This button doesn't work here."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.says, h.pressInlineRaw(it, "Bob", tt.data).Text)
			now := h.inlineView(it)
			assert.Equal(t, v.Table.Version(), now.Table.Version(), "nothing applied")
		})
	}
	// An inline table's buttons on the bot's own table message in a group.
	h.command("Alice", "newgame")
	lobby := h.tableMessage(contains("Alice"))
	for _, data := range []string{"p:10:100:en", callback.Data{Action: callback.Top, Version: 1}.String()} {
		assert.Equal(t, "This button doesn't work here.", h.pressRaw("Bob", lobby.MessageID, data).Text, data)
	}
}

// TestGuestGame: a mention of the bot in a chat it is not in (guest mode)
// asks for a table: the bot answers with one, posted into the chat, which
// plays as any inline table; a mention asking for anything else gets one
// line on how to ask.
func TestGuestGame(t *testing.T) {
	h := newHarness(t, inlineMode)
	club := h.withoutBot("Book club", "Alice", "Bob")
	g, err := h.srv.SendGuestMessage(club.ID, h.user("Alice").ID, "@telegramtest_bot 21")
	require.NoError(t, err)
	im, err := g.Wait(h.ctx())
	require.NoError(t, err)
	it := h.inlineAt(club, im)
	h.pressOnInline(it, "Alice", is(callback.InlineOpen))
	h.pressOnInline(it, "Bob", is(callback.Join))
	assert.Equal(t, "Game on · Bob cuts the deck", h.pressOnInline(it, "Alice", is(callback.Start)).Text)
	h.cutAt(it.key, &it)
	h.shows(it, contains("your bet, Bob"))

	help, err := h.srv.SendGuestMessage(club.ID, h.user("Bob").ID, "@telegramtest_bot what is this?")
	require.NoError(t, err)
	him, err := help.Wait(h.ctx())
	require.NoError(t, err)
	m, ok := h.srv.InlineMessage(him.ID)
	require.True(t, ok)
	assert.Contains(t, m.Text, "@telegramtest_bot 21")
	assert.Empty(t, m.Buttons())
}

// TestInlineQueryAnswers: the results speak the asker's language, put
// first the table whose stake the query names, and offer the default
// table to any other query.
func TestInlineQueryAnswers(t *testing.T) {
	h := newHarness(t, inlineMode)
	ivan, err := h.srv.AddMember(h.group.ID, telegramtest.User{FirstName: "Иван", LanguageCode: "ru"}, 0)
	require.NoError(t, err)
	h.users["Ivan"] = ivan
	club := h.withoutBot("Book club", "Alice", "Ivan")
	tests := []struct {
		name, who, query, first string
	}{
		{"no query", "Alice", "", "stake 10"},
		{"a stake", "Alice", "50", "stake 50"},
		{"anything else", "Alice", "hello", "stake 10"},
		{"in Russian", "Ivan", "", "Стол в Очко · ставка 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, a := h.queryInline(club, tt.who, tt.query)
			require.NotEmpty(t, a.Results)
			assert.Contains(t, a.Results[0].Title, tt.first)
			for _, r := range a.Results {
				assert.LessOrEqual(t, len(r.ID), 64)
			}
		})
	}
	_, a := h.queryInline(club, "Alice", "")
	assert.Len(t, a.Results, 3, "stakes 10, 50 and 100")
}

// TestPacedInlineTable: an inline message is paced as a group's message,
// under Telegram's limits on the server and in the bot: players who keep
// its table busy get at most one edit a second and 20 a minute, Telegram
// refuses none, and a 429 Telegram gives all the same is waited out: the
// message ends showing the table's last state.
func TestPacedInlineTable(t *testing.T) {
	h := newHarness(t, paced, inlineMode, func(o *harnessOptions) { o.stepped = true })
	club := h.withoutBot("Book club", "Alice", "Bob", "Carol")
	it := h.postInline(club, "Alice")
	sub := h.srv.Subscribe(4096)
	defer sub.Close()
	h.pressOnInline(it, "Alice", is(callback.InlineOpen))
	// Bob sits down and stands up again and again, as fast as the table
	// shows him the button: each press is an edit of the one message.
	for i := range 30 {
		if i == 20 {
			h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultTooManyRequests, Methods: []string{"editMessageText"}, Count: 1, RetryAfter: 5})
		}
		act := callback.Join
		if i%2 == 1 {
			act = callback.Leave
		}
		h.pressOnInline(it, "Bob", is(act))
	}
	final := h.shows(it, nil)
	v := h.inlineView(it)
	assert.True(t, showsVersion(final, v.Table.Version()), "the last state shown")
	var edits []time.Time
	for len(sub.C) > 0 {
		if e := <-sub.C; e.Kind == telegramtest.EventMessageEdited && e.ChatID == club.ID {
			edits = append(edits, e.Time)
		}
	}
	require.Greater(t, len(edits), 20, "the table kept busy for over a minute of edits")
	for i := 1; i < len(edits); i++ {
		assert.GreaterOrEqual(t, edits[i].Sub(edits[i-1]), time.Second, "edit %d a second after the one before", i)
	}
	assert.LessOrEqual(t, mostInAMinute(edits), 20, "Telegram's 20 a minute")
	limited := h.srv.Calls().Methods["editMessageText"].Codes[429]
	assert.Equal(t, 1, limited, "only the 429 injected")
}

// TestGuestAnswerWaitsOutA429: a guest answer Telegram refuses with a
// short retry_after is made once more after it, on the bot's clock; the
// chat gets its table then, once.
func TestGuestAnswerWaitsOutA429(t *testing.T) {
	h := newHarness(t, inlineMode)
	club := h.withoutBot("Book club", "Alice", "Bob")
	fault := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultTooManyRequests, Methods: []string{"answerGuestQuery"}, Count: 1, RetryAfter: 2})
	armed := h.clock.Armed()
	g, err := h.srv.SendGuestMessage(club.ID, h.user("Alice").ID, "@telegramtest_bot 21")
	require.NoError(t, err)
	deadline := time.Now().Add(wait)
	for fault.Fired() == 0 || h.clock.Armed() <= armed { // the answer refused, its retry armed on the clock
		require.True(t, time.Now().Before(deadline), "the retry was not armed")
		time.Sleep(100 * time.Microsecond) // polls a condition; the clock does not move meanwhile
	}
	_, answered := g.Answer()
	assert.False(t, answered, "not before retry_after")
	h.clock.Advance(2 * time.Second)
	im, err := g.Wait(h.ctx())
	require.NoError(t, err)
	h.inlineAt(club, im)
	// The server logs a call as it writes its result, after the answer it
	// made is visible to g.Wait: wait for the log to hold it.
	assert.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return h.srv.Calls().Count("answerGuestQuery") >= 2 }),
		"refused once, then taken")
	assert.Equal(t, 2, h.srv.Calls().Count("answerGuestQuery"), "no third call")
}
