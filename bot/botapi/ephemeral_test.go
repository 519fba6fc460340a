package botapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// nextUpdate returns the next update the bot has not confirmed, decoded,
// and confirms the ones before it.
func nextUpdate(t *testing.T, c *botapi.Client, offset *int) botapi.Update {
	t.Helper()
	raw, err := c.GetUpdates(context.Background(), *offset, 0, nil)
	require.NoError(t, err)
	require.NotEmpty(t, raw)
	u, err := botapi.Decode(raw[0])
	require.NoError(t, err)
	*offset = u.UpdateID + 1
	return u
}

// TestEphemeralMessage: an admin bot sends Alice an ephemeral message,
// which Bob does not see; edits it (to what it shows already: no
// failure), takes its keyboard away, and deletes it; then an edit or a
// delete of it fails as gone.
func TestEphemeralMessage(t *testing.T) {
	c, srv := newClient(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	club, err := srv.AddChat(telegramtest.ChatSpec{Type: telegramtest.ChatSupergroup, Title: "Club",
		Members: []int64{alice.ID, bob.ID}, BotStatus: telegramtest.StatusAdministrator})
	require.NoError(t, err)
	ctx := context.Background()
	m := message.Message{Text: "<b>Your chips</b>: 100", Keyboard: [][]message.Button{{{Text: "More", Data: "x"}}}}
	id, ephemeral, err := c.SendEphemeral(ctx, club.ID, 0, m, botapi.EphemeralTo{Receiver: alice.ID})
	require.NoError(t, err)
	require.True(t, ephemeral)
	got, ok := srv.EphemeralMessage(club.ID, id)
	require.True(t, ok)
	assert.Equal(t, "Your chips: 100", got.Text)
	assert.Equal(t, alice.ID, got.VisibleTo)
	assert.Equal(t, []string{"More"}, got.Labels())
	for _, seen := range srv.MessagesSeenBy(club.ID, bob.ID) {
		assert.NotEqual(t, id, seen.EphemeralMessageID, "Bob does not see it")
	}

	assert.NoError(t, c.EditEphemeral(ctx, club.ID, alice.ID, id, m), "not modified is no failure")
	require.NoError(t, c.EditEphemeral(ctx, club.ID, alice.ID, id, message.Message{Text: "200", Keyboard: m.Keyboard}))
	require.NoError(t, c.EditEphemeralKeyboard(ctx, club.ID, alice.ID, id, nil))
	got, _ = srv.EphemeralMessage(club.ID, id)
	assert.Equal(t, "200", got.Text)
	assert.Empty(t, got.Buttons(), "the keyboard taken away")
	assert.ErrorIs(t, c.EditEphemeral(ctx, club.ID, bob.ID, id, m), botapi.ErrGone, "not Bob's")

	require.NoError(t, c.DeleteEphemeral(ctx, club.ID, alice.ID, id))
	_, ok = srv.EphemeralMessage(club.ID, id)
	assert.False(t, ok)
	assert.ErrorIs(t, c.EditEphemeral(ctx, club.ID, alice.ID, id, m), botapi.ErrGone)
	assert.ErrorIs(t, c.DeleteEphemeral(ctx, club.ID, alice.ID, id), botapi.ErrGone)
}

// TestEphemeralRefused: a bot that is no admin may not send an ephemeral
// message unasked, nor may any bot in a private chat: Telegram answers
// 400.
func TestEphemeralRefused(t *testing.T) {
	c, srv := newClient(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	group := srv.NewGroup("Game night", alice)
	ctx := context.Background()
	for name, chat := range map[string]int64{"a group, no admin": group.ID, "a private chat": srv.PrivateChat(alice).ID} {
		_, _, err := c.SendEphemeral(ctx, chat, 0, message.Message{Text: "hi"}, botapi.EphemeralTo{Receiver: alice.ID})
		var tg *botapi.Error
		require.True(t, errors.As(err, &tg), "%s: %v", name, err)
		assert.Equal(t, 400, tg.Code, name)
		assert.Contains(t, tg.Description, "BOT_NOT_ADMIN", name)
	}
	assert.Empty(t, srv.EphemeralMessages(group.ID))
}

// TestEphemeralCommandAndPress: the menu declares /stats ephemeral; a
// member's ephemeral /stats comes as a message with message_id 0 and its
// ephemeral_message_id, which a bot that is no admin may answer
// ephemerally in reply; a press on that answer's button comes with the
// ephemeral message, its receiver named, and may be answered ephemerally
// by its query.
func TestEphemeralCommandAndPress(t *testing.T) {
	c, srv := newClient(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	group := srv.NewGroup("Game night", alice)
	ctx := context.Background()
	require.NoError(t, c.SetCommands(ctx, []botapi.MenuCommand{
		{Command: "stats", Description: "Your results", Ephemeral: true},
		{Command: "newgame", Description: "Open a table"},
	}, ""))
	menu := srv.Commands(telegramtest.CommandScope{}, "")
	require.Len(t, menu, 2)
	assert.True(t, menu[0].IsEphemeral)
	assert.False(t, menu[1].IsEphemeral)

	_, err := srv.SendEphemeralCommand(group.ID, alice.ID, "stats")
	require.NoError(t, err)
	offset := 0
	u := nextUpdate(t, c, &offset)
	require.NotNil(t, u.Message)
	require.NotNil(t, u.Ephemeral, "an ephemeral command")
	assert.Zero(t, u.Message.MessageID)
	assert.Equal(t, "/stats", u.Message.Text)
	answer := message.Message{Text: "Alice: 3 wins", Keyboard: [][]message.Button{{{Text: "More", Data: "more"}}}}
	id, ephemeral, err := c.SendEphemeral(ctx, group.ID, 0, answer, botapi.EphemeralTo{Receiver: alice.ID, ReplyTo: u.Ephemeral.ID})
	require.NoError(t, err)
	require.True(t, ephemeral)

	cb, err := srv.Press(telegramtest.Press{ChatID: group.ID, From: alice.ID, EphemeralMessageID: id, Label: "More"})
	require.NoError(t, err)
	p := nextUpdate(t, c, &offset)
	require.NotNil(t, p.CallbackQuery)
	require.NotNil(t, p.Ephemeral, "a press on an ephemeral message")
	assert.Equal(t, id, p.Ephemeral.ID)
	require.NotNil(t, p.Ephemeral.Receiver)
	assert.Equal(t, alice.ID, p.Ephemeral.Receiver.ID)
	assert.Equal(t, group.ID, p.Chat())
	_, _, err = c.SendEphemeral(ctx, group.ID, 0, message.Message{Text: "more"}, botapi.EphemeralTo{Receiver: alice.ID, QueryID: p.CallbackQuery.ID})
	assert.NoError(t, err, "answered within the press's window")
	require.NoError(t, c.AnswerCallback(ctx, p.CallbackQuery.ID, "", false))
	_, err = cb.Wait(ctx)
	require.NoError(t, err)

	// A message the group sees is no ephemeral one.
	_, err = srv.SendCommand(group.ID, alice.ID, "newgame")
	require.NoError(t, err)
	n := nextUpdate(t, c, &offset)
	require.NotNil(t, n.Message)
	assert.Nil(t, n.Ephemeral)
	assert.NotZero(t, n.Message.MessageID)
}

// TestOpenURL: a press answered with the bot's deep link opens it in the
// presser's client; any other link is refused.
func TestOpenURL(t *testing.T) {
	c, srv := newClient(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	group := srv.NewGroup("Game night", alice)
	ctx := context.Background()
	_, err := c.Send(ctx, group.ID, 0, message.Message{Text: "t", Keyboard: [][]message.Button{{{Text: "Check", Data: "v"}}}}, 0)
	require.NoError(t, err)
	offset := 0
	link := "https://t.me/" + c.Self().UserName + "?start=verify_x"
	for _, tt := range []struct {
		url string
		ok  bool
	}{{"https://example.com/", false}, {link, true}} {
		cb, err := srv.PressButton(group.ID, alice.ID, "Check")
		require.NoError(t, err)
		q := nextUpdate(t, c, &offset).CallbackQuery
		require.NotNil(t, q)
		err = c.OpenURL(ctx, q.ID, tt.url)
		if !tt.ok {
			assert.Error(t, err, tt.url)
			continue
		}
		require.NoError(t, err)
		a, err := cb.Wait(ctx)
		require.NoError(t, err)
		assert.Equal(t, link, a.URL)
	}
}

// TestDecodeEphemeral: ephemeral_message_id and receiver_user, which
// tgbotapi v5.5.1 does not know, are read from a message and from a
// pressed message; any other update has none.
func TestDecodeEphemeral(t *testing.T) {
	tests := []struct {
		name     string
		raw      string
		id       int
		receiver int64
	}{
		{"an ephemeral command", `{"update_id":1,"message":{"message_id":0,"ephemeral_message_id":4,"date":1,
			"chat":{"id":-5,"type":"group"},"from":{"id":7,"first_name":"Alice"},"receiver_user":{"id":99,"first_name":"Bot","is_bot":true},
			"text":"/stats"}}`, 4, 99},
		{"a press on an ephemeral message", `{"update_id":2,"callback_query":{"id":"q","from":{"id":7,"first_name":"Alice"},
			"chat_instance":"1","data":"x","message":{"message_id":0,"ephemeral_message_id":9,"date":1,
			"chat":{"id":-5,"type":"group"},"receiver_user":{"id":7,"first_name":"Alice"},"text":"t"}}}`, 9, 7},
		{"an ephemeral message naming no receiver", `{"update_id":3,"message":{"message_id":0,"ephemeral_message_id":2,"date":1,
			"chat":{"id":-5,"type":"group"},"from":{"id":7,"first_name":"Alice"},"text":"/help"}}`, 2, 0},
		{"a message", `{"update_id":4,"message":{"message_id":3,"date":1,"chat":{"id":-5,"type":"group"},
			"from":{"id":7,"first_name":"Alice"},"text":"/stats"}}`, 0, 0},
		{"a press on a message", `{"update_id":5,"callback_query":{"id":"q","from":{"id":7,"first_name":"Alice"},
			"chat_instance":"1","data":"x","message":{"message_id":3,"date":1,"chat":{"id":-5,"type":"group"},"text":"t"}}}`, 0, 0},
		{"a press on an inline message", `{"update_id":6,"callback_query":{"id":"q","from":{"id":7,"first_name":"Alice"},
			"chat_instance":"1","inline_message_id":"AA","data":"x"}}`, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := botapi.Decode([]byte(tt.raw))
			require.NoError(t, err)
			if tt.id == 0 {
				assert.Nil(t, u.Ephemeral)
				return
			}
			require.NotNil(t, u.Ephemeral)
			assert.Equal(t, tt.id, u.Ephemeral.ID)
			if tt.receiver == 0 {
				assert.Nil(t, u.Ephemeral.Receiver)
				return
			}
			require.NotNil(t, u.Ephemeral.Receiver)
			assert.Equal(t, tt.receiver, u.Ephemeral.Receiver.ID)
		})
	}
}
