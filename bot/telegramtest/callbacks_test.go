package telegramtest_test

import (
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
	srv, api := start(t, telegramtest.WithClock(clock), telegramtest.WithCallbackDeadline(15*time.Second))
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
