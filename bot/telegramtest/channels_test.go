package telegramtest_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestChannelSenders checks the updates of a message sent on behalf of a
// channel and of a linked channel's automatic forward carry what the
// official server puts in them.
func TestChannelSenders(t *testing.T) {
	srv := telegramtest.StartTest(t, telegramtest.WithPrivacyMode(false))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	group := srv.NewSupergroup("Discussion", alice, bob)
	basic := srv.NewGroup("Basic", alice)
	news, err := srv.NewChannel("News", group.ID, alice)
	require.NoError(t, err)
	assert.Equal(t, telegramtest.ChatChannel, news.Type)

	_, err = srv.Post(telegramtest.Post{ChatID: group.ID, From: alice.ID, SenderChat: news.ID, Text: "/balance"})
	require.NoError(t, err)
	post, forward, err := srv.PostInChannel(news.ID, alice.ID, "/newgame tonight")
	require.NoError(t, err)
	assert.Equal(t, news.ID, post.Chat.ID)
	assert.Equal(t, group.ID, forward.Chat.ID)

	updates := rawUpdates(t, srv, 0)
	require.Len(t, updates, 2, "the bot is not in the channel: it gets no channel_post")
	asChannel := updates[0]["message"].(map[string]any)
	assert.Equal(t, map[string]any{"id": float64(136817688), "is_bot": true, "first_name": "Channel", "username": "Channel_Bot"}, asChannel["from"])
	assert.Equal(t, float64(news.ID), asChannel["sender_chat"].(map[string]any)["id"])
	assert.Equal(t, "channel", asChannel["sender_chat"].(map[string]any)["type"])
	assert.Nil(t, asChannel["is_automatic_forward"])

	auto := updates[1]["message"].(map[string]any)
	assert.Equal(t, map[string]any{"id": float64(777000), "is_bot": false, "first_name": "Telegram"}, auto["from"])
	assert.Equal(t, float64(news.ID), auto["sender_chat"].(map[string]any)["id"])
	assert.Equal(t, true, auto["is_automatic_forward"])
	origin := auto["forward_origin"].(map[string]any)
	assert.Equal(t, "channel", origin["type"])
	assert.Equal(t, float64(post.MessageID), origin["message_id"])
	assert.Equal(t, float64(news.ID), auto["forward_from_chat"].(map[string]any)["id"])
	assert.Equal(t, float64(post.MessageID), auto["forward_from_message_id"])
	assert.Equal(t, "/newgame tonight", auto["text"])
	entities := auto["entities"].([]any)
	require.Len(t, entities, 1)
	assert.Equal(t, "bot_command", entities[0].(map[string]any)["type"])

	refused := []struct {
		name string
		err  error
		want error
	}{
		{"in a basic group", func() error {
			_, err := srv.Post(telegramtest.Post{ChatID: basic.ID, From: alice.ID, SenderChat: news.ID, Text: "hi"})
			return err
		}(), telegramtest.ErrInvalid},
		{"as a channel not administered", func() error {
			_, err := srv.Post(telegramtest.Post{ChatID: group.ID, From: bob.ID, SenderChat: news.ID, Text: "hi"})
			return err
		}(), telegramtest.ErrNotMember},
		{"a post by a non-admin", func() error {
			_, _, err := srv.PostInChannel(news.ID, bob.ID, "hi")
			return err
		}(), telegramtest.ErrNotMember},
		{"a user's message in the channel", func() error {
			_, err := srv.Post(telegramtest.Post{ChatID: news.ID, From: alice.ID, Text: "hi"})
			return err
		}(), telegramtest.ErrInvalid},
		{"a channel discussed in a basic group", func() error {
			_, err := srv.NewChannel("Old", basic.ID, alice)
			return err
		}(), telegramtest.ErrInvalid},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			assert.True(t, errors.Is(tt.err, tt.want), "got %v", tt.err)
		})
	}
}
