package telegramtest_test

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestEphemeralCommandFromAMember: a member sends a command the bot
// declared is_ephemeral as a client does: the bot gets a message update
// with message_id 0, ephemeral_message_id and receiver_user the bot, no
// other member sees it, and the bot may answer it ephemerally within
// 15 s. What a client would send as an ordinary message is refused.
func TestEphemeralCommandFromAMember(t *testing.T) {
	srv, _ := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	group := srv.NewGroup("Table", alice, bob)
	lonely := srv.NewGroup("No bot", alice)
	require.NoError(t, srv.RemoveBot(lonely.ID, alice.ID))
	declareCommands(t, srv, ephemeralCommands)
	next := len(rawUpdates(t, srv, 0))

	m, err := srv.SendEphemeralCommand(group.ID, alice.ID, "stats")
	require.NoError(t, err)
	assert.Zero(t, m.MessageID)
	assert.Equal(t, 1, m.EphemeralMessageID)
	assert.Equal(t, alice.ID, m.VisibleTo)
	require.NotNil(t, m.ReceiverUser)
	assert.Equal(t, srv.Bot().ID, m.ReceiverUser.ID)

	updates := rawUpdates(t, srv, 0)
	require.Len(t, updates, next+1)
	msg := updates[next]["message"].(map[string]any)
	assert.Equal(t, float64(0), msg["message_id"])
	assert.Equal(t, float64(1), msg["ephemeral_message_id"])
	assert.Equal(t, "/stats", msg["text"])
	assert.Equal(t, float64(alice.ID), msg["from"].(map[string]any)["id"])
	assert.Equal(t, float64(srv.Bot().ID), msg["receiver_user"].(map[string]any)["id"])
	assert.Equal(t, "bot_command", msg["entities"].([]any)[0].(map[string]any)["type"])
	assert.Len(t, srv.MessagesSeenBy(group.ID, alice.ID), 1)
	assert.Empty(t, srv.MessagesSeenBy(group.ID, bob.ID))
	assert.Empty(t, srv.Messages(group.ID))

	// The bot answers it: a reply to an ephemeral message leaves
	// reply_to_message out.
	answer := sentMessage(t, sendEphemeral(t, srv, group.ID, receiver(alice.ID, ""), "reply_parameters", `{"ephemeral_message_id":1}`))
	assert.NotContains(t, answer, "reply_to_message")
	stored, ok := srv.EphemeralMessage(group.ID, 2)
	require.True(t, ok)
	assert.Equal(t, 1, stored.ReplyToEphemeralMessageID)

	hello, err := srv.SendText(group.ID, bob.ID, "hello")
	require.NoError(t, err)
	tests := []struct {
		name string
		post telegramtest.Post
		want error // nil: sent
	}{
		{"a command addressed to the bot", telegramtest.Post{ChatID: group.ID, From: bob.ID, Text: "/STATS@" + srv.Bot().Username + " all", Ephemeral: true}, nil},
		{"a command replying to a message every member sees", telegramtest.Post{ChatID: group.ID, From: bob.ID, Text: "/stats", Ephemeral: true, ReplyTo: hello.MessageID}, nil},
		{"any text replying to the bot's ephemeral message", telegramtest.Post{ChatID: group.ID, From: alice.ID, Text: "thanks", ReplyToEphemeral: 2}, nil},
		{"a command not declared ephemeral", telegramtest.Post{ChatID: group.ID, From: alice.ID, Text: "/newgame", Ephemeral: true}, telegramtest.ErrInvalid},
		{"a command of another bot", telegramtest.Post{ChatID: group.ID, From: alice.ID, Text: "/stats@helper_bot", Ephemeral: true}, telegramtest.ErrInvalid},
		{"no command", telegramtest.Post{ChatID: group.ID, From: alice.ID, Text: "stats please", Ephemeral: true}, telegramtest.ErrInvalid},
		{"in a private chat", telegramtest.Post{ChatID: alice.ID, From: alice.ID, Text: "/stats", Ephemeral: true}, telegramtest.ErrInvalid},
		{"in a group without the bot", telegramtest.Post{ChatID: lonely.ID, From: alice.ID, Text: "/stats", Ephemeral: true}, telegramtest.ErrNotMember},
		{"a reply to the bot's message to another", telegramtest.Post{ChatID: group.ID, From: bob.ID, Text: "mine?", ReplyToEphemeral: 2}, telegramtest.ErrMessageNotFound},
		{"a reply to a member's own ephemeral command", telegramtest.Post{ChatID: group.ID, From: alice.ID, Text: "again", ReplyToEphemeral: 1}, telegramtest.ErrMessageNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(srv.EphemeralMessages(group.ID)) + len(srv.EphemeralMessages(lonely.ID))
			m, err := srv.Post(tt.post)
			if tt.want != nil {
				assert.ErrorIs(t, err, tt.want)
				assert.Equal(t, before, len(srv.EphemeralMessages(group.ID))+len(srv.EphemeralMessages(lonely.ID)))
				return
			}
			require.NoError(t, err)
			assert.True(t, m.IsEphemeral())
			assert.Equal(t, tt.post.From, m.VisibleTo)
			assert.Equal(t, tt.post.ReplyToEphemeral, m.ReplyToEphemeralMessageID)
			if tt.post.ReplyTo != 0 {
				require.NotNil(t, m.ReplyToMessage)
				assert.Equal(t, tt.post.ReplyTo, m.ReplyToMessage.MessageID)
			}
		})
	}
}

// TestEphemeralEditAndDelete: editEphemeralMessageText,
// editEphemeralMessageReplyMarkup and deleteEphemeralMessage change the
// bot's ephemeral message to its receiver and answer True; each refusal
// with its text.
func TestEphemeralEditAndDelete(t *testing.T) {
	srv, _ := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	group, err := srv.AddChat(telegramtest.ChatSpec{Title: "Table", Members: []int64{alice.ID, bob.ID}, BotStatus: telegramtest.StatusAdministrator})
	require.NoError(t, err)
	declareCommands(t, srv, ephemeralCommands)
	sentMessage(t, sendEphemeral(t, srv, group.ID, receiver(alice.ID, ""), "text", "Settings",
		"reply_markup", `{"inline_keyboard":[[{"text":"Stake","callback_data":"s"}]]}`))
	_, err = srv.SendEphemeralCommand(group.ID, alice.ID, "stats")
	require.NoError(t, err)
	chat := strconv.FormatInt(group.ID, 10)
	form := func(receiver int64, id string, more ...string) url.Values {
		v := url.Values{"chat_id": {chat}, "ephemeral_message_id": {id}}
		if receiver != 0 {
			v.Set("receiver_user_id", strconv.FormatInt(receiver, 10))
		}
		for i := 0; i+1 < len(more); i += 2 {
			v.Set(more[i], more[i+1])
		}
		return v
	}
	const (
		editNotFound   = "Bad Request: message to edit not found"
		deleteNotFound = "Bad Request: message to delete not found"
	)
	keyboard := `{"inline_keyboard":[[{"text":"Back","callback_data":"b"}]]}`
	steps := []struct {
		name   string
		method string
		form   url.Values
		want   string // "" for True
		check  func(t *testing.T, m telegramtest.ChatMessage, ok bool)
	}{
		{"edit the text", "editEphemeralMessageText", form(alice.ID, "1", "text", "<b>Stake</b> 10", "parse_mode", "HTML"), "",
			func(t *testing.T, m telegramtest.ChatMessage, ok bool) {
				require.True(t, ok)
				assert.Equal(t, "Stake 10", m.Text)
				assert.Equal(t, "bold", m.Entities[0].Type)
				assert.Nil(t, m.ReplyMarkup, "an edit without reply_markup removes the keyboard")
				assert.Equal(t, 1, m.EditCount)
			}},
		{"the same text again", "editEphemeralMessageText", form(alice.ID, "1", "text", "<b>Stake</b> 10", "parse_mode", "HTML"),
			"Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message", nil},
		{"edit the keyboard", "editEphemeralMessageReplyMarkup", form(alice.ID, "1", "reply_markup", keyboard), "",
			func(t *testing.T, m telegramtest.ChatMessage, ok bool) {
				require.True(t, ok)
				assert.Equal(t, []string{"Back"}, m.Labels())
				assert.Equal(t, "Stake 10", m.Text)
			}},
		{"another receiver", "editEphemeralMessageText", form(bob.ID, "1", "text", "x"), editNotFound, nil},
		{"an unknown id", "editEphemeralMessageText", form(alice.ID, "99", "text", "x"), editNotFound, nil},
		{"the member's own message", "editEphemeralMessageText", form(alice.ID, "2", "text", "x"), editNotFound, nil},
		{"no receiver", "editEphemeralMessageText", form(0, "1", "text", "x"), "Bad Request: invalid receiver_user_id specified", nil},
		{"no id", "editEphemeralMessageReplyMarkup", form(alice.ID, ""), "Bad Request: message identifier is not specified", nil},
		{"no text", "editEphemeralMessageText", form(alice.ID, "1"), "Bad Request: message text is empty", nil},
		{"delete another receiver's", "deleteEphemeralMessage", form(bob.ID, "1"), deleteNotFound, nil},
		{"delete", "deleteEphemeralMessage", form(alice.ID, "1"), "",
			func(t *testing.T, _ telegramtest.ChatMessage, ok bool) { assert.False(t, ok) }},
		{"delete twice", "deleteEphemeralMessage", form(alice.ID, "1"), deleteNotFound, nil},
		{"edit a deleted one", "editEphemeralMessageText", form(alice.ID, "1", "text", "x"), editNotFound, nil},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			resp := call(t, srv, st.method, st.form)
			if st.want != "" {
				assert.False(t, resp.OK)
				assert.Equal(t, 400, resp.ErrorCode)
				assert.Equal(t, st.want, resp.Description)
				return
			}
			require.True(t, resp.OK, resp.Description)
			assert.Equal(t, "true", string(resp.Result))
			m, ok := srv.EphemeralMessage(group.ID, 1)
			st.check(t, m, ok)
		})
	}

	// A message its receiver deleted (or that Telegram let disappear) is
	// gone for the bot too.
	sentMessage(t, sendEphemeral(t, srv, group.ID, receiver(bob.ID, "")))
	assert.ErrorIs(t, srv.DeleteEphemeral(group.ID, alice.ID, 3), telegramtest.ErrNotMember)
	require.NoError(t, srv.DeleteEphemeral(group.ID, bob.ID, 3))
	resp := call(t, srv, "editEphemeralMessageText", form(bob.ID, "3", "text", "x"))
	assert.Equal(t, editNotFound, resp.Description)
	assert.ErrorIs(t, srv.DeleteEphemeral(group.ID, bob.ID, 3), telegramtest.ErrMessageNotFound)
}

// TestPressOnEphemeralMessage: only its receiver presses the bot's
// ephemeral message (a stale client a button of an earlier keyboard too);
// the callback_query's message is the ephemeral message; the press may
// be answered, and answered with an ephemeral message by a bot that is
// no administrator.
func TestPressOnEphemeralMessage(t *testing.T) {
	srv, _ := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	group := srv.NewGroup("Table", alice, bob)
	table := postKeyboard(t, srv, group.ID)
	first, err := srv.Press(telegramtest.Press{ChatID: group.ID, From: alice.ID, MessageID: table, Label: "Go"})
	require.NoError(t, err)
	panel := sentMessage(t, sendEphemeral(t, srv, group.ID, receiver(alice.ID, `,"callback_query_id":"`+first.ID()+`"`),
		"text", "Settings", "reply_markup", `{"inline_keyboard":[[{"text":"Stake","callback_data":"stake"}]]}`))
	id := int(panel["ephemeral_message_id"].(float64))
	resp := call(t, srv, "editEphemeralMessageReplyMarkup", url.Values{"chat_id": {strconv.FormatInt(group.ID, 10)},
		"receiver_user_id": {strconv.FormatInt(alice.ID, 10)}, "ephemeral_message_id": {strconv.Itoa(id)},
		"reply_markup": {`{"inline_keyboard":[[{"text":"Back","callback_data":"back"}]]}`}})
	require.True(t, resp.OK, resp.Description)
	next := len(rawUpdates(t, srv, 0))

	_, err = srv.Press(telegramtest.Press{ChatID: group.ID, From: bob.ID, EphemeralMessageID: id, Label: "Back"})
	assert.ErrorIs(t, err, telegramtest.ErrNotMember, "another member does not see it")
	_, err = srv.Press(telegramtest.Press{ChatID: group.ID, From: alice.ID, EphemeralMessageID: id, Label: "Nope"})
	assert.ErrorIs(t, err, telegramtest.ErrButtonNotFound)
	cb, err := srv.Press(telegramtest.Press{ChatID: group.ID, From: alice.ID, EphemeralMessageID: id, Label: "Stake"})
	require.NoError(t, err, "a stale client presses the keyboard it last saw")
	assert.Equal(t, "stake", cb.Data())
	assert.Equal(t, id, cb.EphemeralMessageID())

	updates := rawUpdates(t, srv, 0)
	require.Len(t, updates, next+1)
	q := updates[next]["callback_query"].(map[string]any)
	assert.Equal(t, cb.ID(), q["id"])
	assert.Equal(t, "stake", q["data"])
	m := q["message"].(map[string]any)
	assert.Equal(t, float64(0), m["message_id"])
	assert.Equal(t, float64(id), m["ephemeral_message_id"])
	assert.Equal(t, float64(alice.ID), m["receiver_user"].(map[string]any)["id"])
	assert.Equal(t, "Settings", m["text"])

	// The press is an eligible action: the bot, no administrator, answers
	// it with an ephemeral message, and answers the query itself.
	sentMessage(t, sendEphemeral(t, srv, group.ID, receiver(alice.ID, `,"callback_query_id":"`+cb.ID()+`"`), "text", "Stake set"))
	resp = call(t, srv, "answerCallbackQuery", url.Values{"callback_query_id": {cb.ID()}, "text": {"Saved"}})
	require.True(t, resp.OK, resp.Description)
	answer, err := cb.Wait(deadline(t))
	require.NoError(t, err)
	assert.Equal(t, "Saved", answer.Text)

	require.NoError(t, srv.DeleteEphemeral(group.ID, alice.ID, id))
	_, err = srv.Press(telegramtest.Press{ChatID: group.ID, From: alice.ID, EphemeralMessageID: id, Data: "back"})
	assert.ErrorIs(t, err, telegramtest.ErrMessageNotFound)
}
