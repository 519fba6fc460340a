package telegramtest_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func TestPressDeliversCallbackQueryAndAwaitsAnswer(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice", Username: "alice"})
	chat := srv.NewGroup("Table", alice)
	m := tgbotapi.NewMessage(chat.ID, "Your turn")
	m.ReplyMarkup = keyboard("Hit", "hit:7", "Stand", "stand:7")
	sent, err := api.Send(m)
	require.NoError(t, err)

	press, err := srv.PressButton(chat.ID, alice.ID, "Stand")
	require.NoError(t, err)
	assert.Equal(t, "stand:7", press.Data())
	assert.Equal(t, sent.MessageID, press.MessageID())
	_, answered := press.Answer()
	assert.False(t, answered)

	updates, err := api.GetUpdates(tgbotapi.UpdateConfig{})
	require.NoError(t, err)
	require.Len(t, updates, 1)
	q := updates[0].CallbackQuery
	require.NotNil(t, q)
	assert.Equal(t, press.ID(), q.ID)
	assert.Equal(t, "stand:7", q.Data)
	assert.Equal(t, alice.ID, q.From.ID)
	assert.Equal(t, "alice", q.From.UserName)
	assert.NotEmpty(t, q.ChatInstance)
	require.NotNil(t, q.Message)
	assert.Equal(t, sent.MessageID, q.Message.MessageID)
	assert.Equal(t, chat.ID, q.Message.Chat.ID)

	_, err = api.Request(tgbotapi.NewCallbackWithAlert(q.ID, "You stand on 17"))
	require.NoError(t, err)
	answer, err := press.Wait(deadline(t))
	require.NoError(t, err)
	assert.Equal(t, "You stand on 17", answer.Text)
	assert.True(t, answer.ShowAlert)
	assert.GreaterOrEqual(t, answer.Latency, time.Duration(0))
}

func TestCallbackAnswerErrors(t *testing.T) {
	clock := telegramtest.NewManualClock(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	srv, api := start(t, telegramtest.WithClock(clock))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	m := tgbotapi.NewMessage(chat.ID, "Your turn")
	m.ReplyMarkup = keyboard("Hit", "hit")
	_, err := api.Send(m)
	require.NoError(t, err)
	const tooOld = "Bad Request: query is too old and response timeout expired or query ID is invalid"

	tests := []struct {
		name     string
		prepare  func(t *testing.T, id string)
		answer   tgbotapi.CallbackConfig
		wantDesc string
		rejected int
	}{
		{
			name: "answered twice",
			prepare: func(t *testing.T, id string) {
				_, err := api.Request(tgbotapi.NewCallback(id, "first"))
				require.NoError(t, err)
			},
			answer:   tgbotapi.NewCallback("", "second"),
			wantDesc: tooOld,
			rejected: 1,
		},
		{
			name:     "answered after the deadline",
			prepare:  func(*testing.T, string) { clock.Advance(15*time.Second + time.Millisecond) },
			answer:   tgbotapi.NewCallback("", "late"),
			wantDesc: tooOld,
			rejected: 1,
		},
		{
			name:     "text over 200 characters",
			prepare:  func(*testing.T, string) {},
			answer:   tgbotapi.NewCallback("", strings.Repeat("ж", 201)),
			wantDesc: "Bad Request: MESSAGE_TOO_LONG",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			press, err := srv.PressButton(chat.ID, alice.ID, "Hit")
			require.NoError(t, err)
			tt.prepare(t, press.ID())
			tt.answer.CallbackQueryID = press.ID()
			_, err = api.Request(tt.answer)
			apiErr := asAPIError(t, err)
			assert.Equal(t, 400, apiErr.Code)
			assert.Equal(t, tt.wantDesc, apiErr.Message)
			assert.Equal(t, tt.rejected, press.RejectedAnswers())
		})
	}

	t.Run("answered just within the deadline", func(t *testing.T) {
		press, err := srv.PressButton(chat.ID, alice.ID, "Hit")
		require.NoError(t, err)
		clock.Advance(15 * time.Second)
		_, err = api.Request(tgbotapi.NewCallback(press.ID(), ""))
		require.NoError(t, err)
		answer, ok := press.Answer()
		require.True(t, ok)
		assert.Equal(t, 15*time.Second, answer.Latency)
	})
}

func TestStaleAndForgedPresses(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	outsider := srv.AddUser(telegramtest.User{FirstName: "Eve"})
	chat := srv.NewGroup("Table", alice, bob)
	m := tgbotapi.NewMessage(chat.ID, "Round 1")
	m.ReplyMarkup = keyboard("Hit", "hit:r1")
	sent, err := api.Send(m)
	require.NoError(t, err)
	_, err = api.Send(tgbotapi.NewEditMessageTextAndMarkup(chat.ID, sent.MessageID, "Round 2", keyboard("Next", "next:r2")))
	require.NoError(t, err)
	drain(t, api)

	tests := []struct {
		name     string
		press    telegramtest.Press
		wantData string
		wantErr  error
	}{
		{"stale button on the edited message", telegramtest.Press{ChatID: chat.ID, From: bob.ID, MessageID: sent.MessageID, Label: "Hit"}, "hit:r1", nil},
		{"current button by label", telegramtest.Press{ChatID: chat.ID, From: bob.ID, Label: "Next"}, "next:r2", nil},
		{"forged data", telegramtest.Press{ChatID: chat.ID, From: alice.ID, MessageID: sent.MessageID, Data: "stand:r9"}, "stand:r9", nil},
		{"label no longer shown anywhere", telegramtest.Press{ChatID: chat.ID, From: bob.ID, Label: "Hit"}, "", telegramtest.ErrButtonNotFound},
		{"label never shown on the message", telegramtest.Press{ChatID: chat.ID, From: bob.ID, MessageID: sent.MessageID, Label: "Fold"}, "", telegramtest.ErrButtonNotFound},
		{"missing message", telegramtest.Press{ChatID: chat.ID, From: bob.ID, MessageID: 999, Data: "x"}, "", telegramtest.ErrMessageNotFound},
		{"user not in the chat", telegramtest.Press{ChatID: chat.ID, From: outsider.ID, Label: "Next"}, "", telegramtest.ErrNotMember},
		{"unknown chat", telegramtest.Press{ChatID: -5, From: bob.ID, Label: "Next"}, "", telegramtest.ErrChatNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := srv.PendingUpdates()
			press, err := srv.Press(tt.press)
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, before, srv.PendingUpdates())
				return
			}
			require.NoError(t, err)
			updates, err := api.GetUpdates(tgbotapi.UpdateConfig{Offset: -1})
			require.NoError(t, err)
			require.Len(t, updates, 1)
			require.NotNil(t, updates[0].CallbackQuery)
			assert.Equal(t, tt.wantData, updates[0].CallbackQuery.Data)
			assert.Equal(t, press.ID(), updates[0].CallbackQuery.ID)
			assert.Equal(t, "Round 2", updates[0].CallbackQuery.Message.Text, "the query carries the message as it is now")
		})
	}
}

// TestPressOnInaccessibleMessage: a press on a deleted message, or with
// WithInaccessibleAfter on a too old one, reaches the bot with
// callback_query.message an InaccessibleMessage (message_id, chat, date
// 0: telegram-bot-api's JsonInaccessibleMessage), without its topic; the
// press can still be answered.
func TestPressOnInaccessibleMessage(t *testing.T) {
	clock := telegramtest.NewManualClock(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	srv, api := start(t, telegramtest.WithClock(clock), telegramtest.WithInaccessibleAfter(48*time.Hour))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	forum := srv.NewForum("Casino", alice)
	topic, err := srv.CreateTopic(forum.ID, alice.ID, "Table 1")
	require.NoError(t, err)
	send := func(text string, buttons ...string) int {
		markup, err := json.Marshal(keyboard(buttons...))
		require.NoError(t, err)
		resp := call(t, srv, "sendMessage", url.Values{"chat_id": {itoa(int(forum.ID))}, "message_thread_id": {itoa(topic)},
			"text": {text}, "reply_markup": {string(markup)}})
		require.True(t, resp.OK, resp.Description)
		var m telegramtest.Message
		require.NoError(t, json.Unmarshal(resp.Result, &m))
		return m.MessageID
	}
	table := send("Lobby", "Join", "j:1")
	old := send("Old lobby", "Join", "j:0")
	_, err = api.Request(tgbotapi.NewDeleteMessage(forum.ID, table))
	require.NoError(t, err)
	next := drain(t, api)

	tests := []struct {
		name     string
		press    telegramtest.Press
		advance  time.Duration
		wantGone bool
		wantData string
	}{
		{"a live message", telegramtest.Press{MessageID: old, Label: "Join"}, 0, false, "j:0"},
		{"a deleted message, by label", telegramtest.Press{MessageID: table, Label: "Join"}, 0, true, "j:1"},
		{"a deleted message, by data", telegramtest.Press{MessageID: table, Data: "forged"}, 0, true, "forged"},
		{"a message too old", telegramtest.Press{MessageID: old, Label: "Join"}, 49 * time.Hour, true, "j:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock.Advance(tt.advance)
			tt.press.ChatID, tt.press.From = forum.ID, alice.ID
			cb, err := srv.Press(tt.press)
			require.NoError(t, err)
			assert.Equal(t, tt.wantGone, cb.Inaccessible())
			raw := rawUpdates(t, srv, next)
			require.Len(t, raw, 1)
			next = int(raw[0]["update_id"].(float64)) + 1
			q := raw[0]["callback_query"].(map[string]any)
			assert.Equal(t, tt.wantData, q["data"])
			msg := q["message"].(map[string]any)
			assert.Equal(t, float64(tt.press.MessageID), msg["message_id"])
			assert.Equal(t, float64(forum.ID), msg["chat"].(map[string]any)["id"])
			if tt.wantGone {
				assert.Len(t, msg, 3, "message_id, chat and date only: %v", msg)
				assert.Equal(t, float64(0), msg["date"])
			} else {
				assert.Equal(t, float64(topic), msg["message_thread_id"])
				assert.NotZero(t, msg["date"])
			}
			_, err = api.Request(tgbotapi.NewCallback(cb.ID(), "moved on"))
			require.NoError(t, err, "a press on an inaccessible message is answered as any")
		})
	}

	_, err = srv.Press(telegramtest.Press{ChatID: forum.ID, From: alice.ID, MessageID: 999, Data: "x"})
	assert.ErrorIs(t, err, telegramtest.ErrMessageNotFound, "a message that never was")
	var ids []int
	for range 9 {
		ids = append(ids, send("Lobby", "Join", "j:2"))
	}
	for _, id := range ids {
		_, err = api.Request(tgbotapi.NewDeleteMessage(forum.ID, id))
		require.NoError(t, err)
	}
	_, err = srv.Press(telegramtest.Press{ChatID: forum.ID, From: alice.ID, MessageID: ids[0], Label: "Join"})
	assert.ErrorIs(t, err, telegramtest.ErrMessageNotFound, "the keyboards of only the last 8 deleted messages are kept")
	_, err = srv.Press(telegramtest.Press{ChatID: forum.ID, From: alice.ID, MessageID: ids[1], Label: "Join"})
	assert.NoError(t, err)
}
