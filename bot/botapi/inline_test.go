package botapi_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// inlineClient returns a client of a bot with inline and guest mode, on a
// new server, and two users with a private chat between them, which the
// bot is not in.
func inlineClient(t *testing.T) (*botapi.Client, *telegramtest.Server, telegramtest.Chat, telegramtest.User, telegramtest.User) {
	t.Helper()
	srv := telegramtest.StartTest(t, telegramtest.WithInlineFeedback(), telegramtest.WithGuestMode())
	c, err := botapi.New(context.Background(), botapi.Options{Token: srv.Token(), Endpoint: srv.Endpoint(), Transport: srv.Client().Transport})
	require.NoError(t, err)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice", LanguageCode: "en"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob", LanguageCode: "en"})
	chat, err := srv.NewUserChat(alice, bob)
	require.NoError(t, err)
	return c, srv, chat, alice, bob
}

var lobby = message.Message{Text: "<b>Table open</b> · stake 10", Keyboard: [][]message.Button{{{Text: "Join", Data: "j:1", Style: message.Success}}}}

// TestInlineMessage: an inline query answered with an article, the result
// chosen and posted via the bot with its keyboard, edited by its
// inline_message_id; once a user deletes it, an edit fails as gone.
func TestInlineMessage(t *testing.T) {
	c, srv, chat, alice, _ := inlineClient(t)
	ctx := context.Background()
	q, err := srv.SendInlineQuery(chat.ID, alice.ID, "")
	require.NoError(t, err)
	require.NoError(t, c.AnswerInline(ctx, q.ID(), []botapi.Article{{ID: "t:10", Title: "Open a table", Description: "stake 10", Message: lobby}}, 0, true))
	answer, ok := q.Answer()
	require.True(t, ok)
	require.Len(t, answer.Results, 1)
	assert.Equal(t, "Table open · stake 10", answer.Results[0].Text)
	assert.True(t, answer.IsPersonal)
	assert.Zero(t, answer.CacheTime)

	im, err := srv.ChooseInlineResult(q.ID(), "t:10")
	require.NoError(t, err)
	posted, ok := srv.InlineMessage(im.ID)
	require.True(t, ok)
	assert.Equal(t, []string{"Join"}, posted.Labels())
	assert.Equal(t, "success", posted.ReplyMarkup.InlineKeyboard[0][0].Style)

	require.NoError(t, c.EditInline(ctx, im.ID, message.Message{Text: "Alice sits down"}))
	require.NoError(t, c.EditInline(ctx, im.ID, message.Message{Text: "Alice sits down"}), "not modified is no failure")
	posted, _ = srv.InlineMessage(im.ID)
	assert.Equal(t, "Alice sits down", posted.Text)

	require.NoError(t, srv.DeleteInlineMessage(alice.ID, im.ID))
	assert.ErrorIs(t, c.EditInline(ctx, im.ID, lobby), botapi.ErrGone)
}

// TestGuestAnswer: a guest message answered with an article, posted as an
// inline message whose id comes back, and edited by it.
func TestGuestAnswer(t *testing.T) {
	c, srv, chat, alice, _ := inlineClient(t)
	ctx := context.Background()
	g, err := srv.SendGuestMessage(chat.ID, alice.ID, "@"+c.Self().UserName+" 21")
	require.NoError(t, err)
	id, err := c.AnswerGuest(ctx, g.ID(), botapi.Article{ID: "t:10", Title: "Open a table", Message: lobby})
	require.NoError(t, err)
	im, ok := g.Answer()
	require.True(t, ok)
	assert.Equal(t, im.ID, id)
	require.NoError(t, c.EditInline(ctx, id, message.Message{Text: "edited"}))
	posted, _ := srv.InlineMessage(id)
	assert.Equal(t, "edited", posted.Text)
	_, err = c.AnswerGuest(ctx, g.ID(), botapi.Article{ID: "t:10", Title: "again", Message: lobby})
	assert.Error(t, err, "a guest message is answered once")
}

// TestDecodeInlineUpdates: a press on an inline message names no chat,
// only its chat_instance; a guest message belongs to its chat, an inline
// query to its user.
func TestDecodeInlineUpdates(t *testing.T) {
	press := func(instance, message string) botapi.Update {
		raw, err := json.Marshal(map[string]any{"update_id": 1, "callback_query": map[string]any{
			"id": "1", "from": map[string]any{"id": 7, "first_name": "Alice"}, "inline_message_id": message,
			"chat_instance": instance, "data": "j:1"}})
		require.NoError(t, err)
		u, err := botapi.Decode(raw)
		require.NoError(t, err)
		return u
	}
	a1, b := press("-123", "AAAA"), press("-456", "AAAA")
	assert.Equal(t, "-123", a1.ChatInstance())
	assert.Equal(t, "-456", b.ChatInstance())
	assert.Zero(t, a1.Chat(), "no chat is named")
	assert.Equal(t, "callback_query", a1.Kind())

	u, err := botapi.Decode([]byte(`{"update_id":2,"guest_message":{"message_id":5,"date":1,"chat":{"id":-100200,"type":"supergroup"},
		"from":{"id":7,"first_name":"Alice"},"text":"@bot 21","guest_query_id":"g1"}}`))
	require.NoError(t, err)
	require.NotNil(t, u.Guest)
	assert.Equal(t, "g1", u.Guest.QueryID)
	assert.Equal(t, "@bot 21", u.Guest.Message.Text)
	assert.Equal(t, int64(-100200), u.Chat())
	assert.Equal(t, "guest_message", u.Kind())

	u, err = botapi.Decode([]byte(`{"update_id":3,"inline_query":{"id":"q","from":{"id":9,"first_name":"Bob"},"query":"","offset":""}}`))
	require.NoError(t, err)
	assert.Equal(t, int64(9), u.Chat())
	assert.Equal(t, "inline_query", u.Kind())
}
