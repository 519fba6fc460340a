package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestPacedInlineTables is a short paced run of groups and inline tables
// together, under a global budget of 3 calls a second (the server's 5),
// which the ten chats contend for: the inline tables are posted (an
// inline query answered, a result chosen), opened and played by presses
// on their inline messages, games end there, each chat_instance's wallet
// audits clean, each inline message ends showing its table's latest
// version, and neither kind gets a 429 or starves.
func TestPacedInlineTables(t *testing.T) {
	// 25 s: a game at an inline table takes a dozen presses (a cut each
	// circle among them), each an edit of its message within the budget.
	cfg := short(t, 10, 25*time.Second)
	cfg.Paced = true
	cfg.GlobalRate = 3
	cfg.Inline = 0.6
	cfg.Warmup = 2 * time.Second
	res := runOK(t, cfg)
	groups, inline := res.Kinds[kindGroup], res.Kinds[kindInline]
	require.NotNil(t, groups)
	require.NotNil(t, inline)
	assert.Equal(t, 4, groups.Chats)
	assert.Equal(t, 6, inline.Chats)

	assert.Positive(t, inline.Presses, "presses on the inline messages applied in the measured part")
	assert.Positive(t, inline.Games, "games started at the inline tables")
	assert.Positive(t, inline.Finished, "games ended at the inline tables")
	assert.Positive(t, groups.Applied, "the groups played beside them")
	assert.Equal(t, res.Applied, groups.Applied+inline.Applied)
	assert.Equal(t, inline.Chats, inline.Audited, "every chat_instance's wallet audited")
	assert.Zero(t, inline.NotShowingLatest, "every inline message shows its table's latest version")
	assert.Zero(t, res.Unanswered, "every press is answered")
	assert.Zero(t, res.Rejections, "the players press what their table shows")

	require.NotNil(t, res.Paced)
	assert.Positive(t, res.Paced.Contended, "the global budget was contended")
	for k, kr := range res.Kinds {
		require.NotNil(t, kr.Paced, "%s", kind(k))
		assert.Zero(t, kr.Paced.TooMany, "no 429 at the %s", kind(k))
		assert.Positive(t, kr.Paced.FairRun, "presses showed at the %s", kind(k))
		assert.LessOrEqual(t, kr.Paced.FairMinute, starvedRatio, "none of the %s starves", kind(k))
		assert.Positive(t, kr.Paced.ToastMax, "the toasts at the %s were timed", kind(k))
		assert.LessOrEqual(t, kr.Paced.BehindMax, uint64(1), "a table is at most one press behind")
	}
	assert.Positive(t, inline.Paced.GroupMinuteMax, "the edits of the inline messages count as writes into their chats")
	assert.LessOrEqual(t, inline.Paced.GroupMinuteMax, 20, "Telegram's 20 a minute into a chat")
}

// TestReadInlineTable: the inline message a chosen result posts shows the
// one button that opens its table; its poster presses it, and once open
// the message reads as any table message.
func TestReadInlineTable(t *testing.T) {
	m := &telegramtest.ChatMessage{}
	m.MessageID = 3
	m.Text = "🃏 A table of Twenty One · stake 10\nNobody is seated yet."
	m.InlineMessageID = "AgAAAAAAAAAAAAAA"
	m.ReplyMarkup = &telegramtest.InlineKeyboardMarkup{InlineKeyboard: [][]telegramtest.InlineKeyboardButton{
		{{Text: "Join", CallbackData: "p:10:100:en"}},
	}}
	require.True(t, drawsTables(m), "an inline message, though not the bot's own")
	v, ok := readTable(m)
	require.True(t, ok)
	assert.Equal(t, phaseOpen, v.phase)
	assert.Zero(t, v.version, "no table yet")
	assert.True(t, v.settled(), "no game to play out")
	c := &chat{index: map[string]int{"Ann": 0, "Bob": 1, "Cid": 2, "Dee": 3}, rng: newRand(1)}
	who, b, ok := c.choose(&v, false)
	require.True(t, ok)
	assert.Equal(t, 0, who, "its poster opens it")
	assert.Equal(t, callback.InlineOpen, b.cb.Action)
	_, _, ok = c.choose(&v, true)
	assert.False(t, ok, "a drained table opens no more")

	m.ReplyMarkup = &telegramtest.InlineKeyboardMarkup{InlineKeyboard: [][]telegramtest.InlineKeyboardButton{
		{{Text: "Join", CallbackData: "j:1"}, {Text: "Leave", CallbackData: "l:1"}, {Text: "Start ▶", CallbackData: "s:1"}},
	}}
	m.Text = "🃏 Twenty One — table open\nStake 10\n\nSeated (1/4):\n1. Ann — 1 000\n"
	v, ok = readTable(m)
	require.True(t, ok)
	assert.Equal(t, phaseLobby, v.phase)
	assert.Equal(t, uint64(1), v.version)
	assert.Equal(t, []string{"Ann"}, v.seated)
}

// TestBotWrote: the bot's writes, as Telegram's limits count them, are
// its own messages sent and edited and its edits of inline messages; the
// posting of an inline message is its user's.
func TestBotWrote(t *testing.T) {
	own := &telegramtest.ChatMessage{}
	own.FromBot = true
	inline := &telegramtest.ChatMessage{}
	inline.InlineMessageID = "AgAAAAAAAAAAAAAA"
	user := &telegramtest.ChatMessage{}
	for _, tt := range []struct {
		name string
		e    telegramtest.Event
		want bool
	}{
		{"the bot's message sent", telegramtest.Event{Kind: telegramtest.EventMessageSent, Message: own}, true},
		{"the bot's message edited", telegramtest.Event{Kind: telegramtest.EventMessageEdited, Message: own}, true},
		{"an inline message posted", telegramtest.Event{Kind: telegramtest.EventMessageSent, Message: inline}, false},
		{"an inline message edited", telegramtest.Event{Kind: telegramtest.EventMessageEdited, Message: inline}, true},
		{"a user's message", telegramtest.Event{Kind: telegramtest.EventMessageSent, Message: user}, false},
	} {
		assert.Equal(t, tt.want, botWrote(tt.e), tt.name)
	}
	assert.False(t, drawsTables(user))
}
