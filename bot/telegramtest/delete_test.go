package telegramtest_test

import (
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestDeleteWithin48Hours checks the bot deletes its messages only within
// 48 hours, with the official server's texts and bounds (TDLib's
// can_delete_channel_message in supergroups: refused from the moment the
// message turns 48 hours; can_revoke_message elsewhere: past it), and that
// it may still edit them then.
func TestDeleteWithin48Hours(t *testing.T) {
	const window = 48 * time.Hour
	tests := []struct {
		chatType string
		age      time.Duration
		desc     string // "" when the message is deleted
	}{
		{telegramtest.ChatGroup, window - time.Second, ""},
		{telegramtest.ChatGroup, window, ""},
		{telegramtest.ChatGroup, window + time.Second, "Bad Request: message can't be deleted for everyone"},
		{telegramtest.ChatPrivate, window, ""},
		{telegramtest.ChatPrivate, window + time.Second, "Bad Request: message can't be deleted for everyone"},
		{telegramtest.ChatSupergroup, window - time.Second, ""},
		{telegramtest.ChatSupergroup, window, "Bad Request: message can't be deleted"},
		{telegramtest.ChatSupergroup, 30 * 24 * time.Hour, "Bad Request: message can't be deleted"},
	}
	for _, tt := range tests {
		t.Run(tt.chatType+" "+tt.age.String(), func(t *testing.T) {
			clock := telegramtest.NewManualClock(time.Date(2026, 12, 2, 18, 30, 0, 0, time.UTC))
			srv, api := start(t, telegramtest.WithClock(clock))
			alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
			var chat telegramtest.Chat
			switch tt.chatType {
			case telegramtest.ChatPrivate:
				chat = srv.PrivateChat(alice)
			case telegramtest.ChatSupergroup:
				chat = srv.NewSupergroup("Table", alice)
			default:
				chat = srv.NewGroup("Table", alice)
			}
			sent, err := api.Send(tgbotapi.NewMessage(chat.ID, "old table"))
			require.NoError(t, err)
			clock.Advance(tt.age)

			_, err = api.Request(tgbotapi.NewDeleteMessage(chat.ID, sent.MessageID))
			_, kept := srv.Message(chat.ID, sent.MessageID)
			if tt.desc == "" {
				require.NoError(t, err)
				assert.False(t, kept)
				return
			}
			assert.Equal(t, tt.desc, asAPIError(t, err).Message)
			require.True(t, kept, "a refused delete leaves the message")
			_, err = api.Send(tgbotapi.NewEditMessageText(chat.ID, sent.MessageID, "closed"))
			assert.NoError(t, err, "a bot edits its own messages at any age")
		})
	}
}
