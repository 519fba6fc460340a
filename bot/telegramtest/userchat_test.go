package telegramtest_test

import (
	"errors"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestChatsWithoutTheBot: a private chat between two users and a group the
// bot is not in exist in the world, their users write there, and the bot
// sees none of it and cannot write there.
func TestChatsWithoutTheBot(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	carol := srv.AddUser(telegramtest.User{FirstName: "Carol"})
	duo, err := srv.NewUserChat(alice, bob)
	require.NoError(t, err)
	again, err := srv.NewUserChat(bob, alice)
	require.NoError(t, err)
	assert.Equal(t, duo.ID, again.ID, "two users have one chat")
	group, err := srv.AddChat(telegramtest.ChatSpec{Title: "No bot", Members: []int64{alice.ID, bob.ID}, BotStatus: telegramtest.StatusLeft})
	require.NoError(t, err)

	tests := []struct {
		name      string
		chat      telegramtest.Chat
		wantType  string
		wantSend  string
		writers   []int64
		outsiders []int64
	}{
		{"user chat", duo, telegramtest.ChatPrivate, "Bad Request: chat not found", []int64{alice.ID, bob.ID}, []int64{carol.ID}},
		{"group without the bot", group, telegramtest.ChatGroup, "Forbidden: bot is not a member of the group chat", []int64{alice.ID, bob.ID}, []int64{carol.ID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.wantType, tt.chat.Type)
			for _, id := range tt.writers {
				_, err := srv.SendText(tt.chat.ID, id, "/start@"+srv.Bot().Username+" hello")
				require.NoError(t, err)
			}
			for _, id := range tt.outsiders {
				_, err := srv.SendText(tt.chat.ID, id, "let me in")
				assert.True(t, errors.Is(err, telegramtest.ErrNotMember), "outsider %d: %v", id, err)
			}
			assert.Len(t, srv.Messages(tt.chat.ID), len(tt.writers))
			assert.Zero(t, srv.PendingUpdates(), "the bot gets no message of a chat it is no party to")
			_, err := api.Send(tgbotapi.NewMessage(tt.chat.ID, "hi"))
			assert.Equal(t, tt.wantSend, asAPIError(t, err).Message)
		})
	}

	t.Run("a chat with oneself or the bot is refused", func(t *testing.T) {
		_, err := srv.NewUserChat(alice, alice)
		assert.True(t, errors.Is(err, telegramtest.ErrInvalid), "%v", err)
		_, err = srv.NewUserChat(alice, srv.Bot())
		assert.True(t, errors.Is(err, telegramtest.ErrInvalid), "%v", err)
	})
}
