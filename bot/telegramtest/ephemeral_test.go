package telegramtest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// ephemeralCommands declares /stats ephemeral and /newgame not, as a bot
// does with setMyCommands.
const ephemeralCommands = `[{"command":"stats","description":"Your stats","is_ephemeral":true},` +
	`{"command":"newgame","description":"Open a table"}]`

// declareCommands registers the commands for every chat.
func declareCommands(t *testing.T, srv *telegramtest.Server, commands string) {
	t.Helper()
	resp := call(t, srv, "setMyCommands", url.Values{"commands": {commands}})
	require.True(t, resp.OK, resp.Description)
}

// sendEphemeral calls sendMessage with ephemeral_message_parameters eph
// (none when "") and the extra parameters, given as name, value pairs.
func sendEphemeral(t *testing.T, srv *telegramtest.Server, chatID int64, eph string, extra ...string) rawResponse {
	t.Helper()
	form := url.Values{"chat_id": {strconv.FormatInt(chatID, 10)}, "text": {"Only you see this"}}
	if eph != "" {
		form.Set("ephemeral_message_parameters", eph)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		form.Set(extra[i], extra[i+1])
	}
	return call(t, srv, "sendMessage", form)
}

// receiver is ephemeral_message_parameters for the user, with more fields.
func receiver(id int64, more string) string {
	return fmt.Sprintf(`{"receiver_user_id":%d%s}`, id, more)
}

// sentMessage decodes a Message answered raw.
func sentMessage(t *testing.T, resp rawResponse) map[string]any {
	t.Helper()
	require.True(t, resp.OK, resp.Description)
	var m map[string]any
	require.NoError(t, json.Unmarshal(resp.Result, &m))
	return m
}

// postKeyboard sends a message every member sees with one button, Go.
func postKeyboard(t *testing.T, srv *telegramtest.Server, chatID int64) int {
	t.Helper()
	resp := call(t, srv, "sendMessage", url.Values{"chat_id": {strconv.FormatInt(chatID, 10)}, "text": {"Your turn"},
		"reply_markup": {`{"inline_keyboard":[[{"text":"Go","callback_data":"go"}]]}`}})
	return int(sentMessage(t, resp)["message_id"].(float64))
}

// TestEphemeralSendRules: sendMessage with ephemeral_message_parameters
// follows the docs' rules ("Ephemeral Messages and Commands"), each
// refusal with its text (the official server's where known, else our
// choice: see ephemeralsend.go).
func TestEphemeralSendRules(t *testing.T) {
	clock := telegramtest.NewManualClock(time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC))
	srv, _ := start(t, telegramtest.WithClock(clock))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	carol := srv.AddUser(telegramtest.User{FirstName: "Carol"})
	helper := srv.AddUser(telegramtest.User{FirstName: "Helper", IsBot: true, Username: "helper_bot"})
	group := srv.NewGroup("Table", alice, bob, helper)
	other := srv.NewGroup("Other table", alice, bob)
	club, err := srv.AddChat(telegramtest.ChatSpec{Type: telegramtest.ChatSupergroup, Title: "Club",
		Members: []int64{alice.ID, bob.ID}, BotStatus: telegramtest.StatusAdministrator})
	require.NoError(t, err)
	private := srv.PrivateChat(alice)
	declareCommands(t, srv, ephemeralCommands)

	pressIn := func(t *testing.T, chatID int64, by telegramtest.User) string {
		t.Helper()
		cb, err := srv.Press(telegramtest.Press{ChatID: chatID, From: by.ID, MessageID: postKeyboard(t, srv, chatID), Label: "Go"})
		require.NoError(t, err)
		return cb.ID()
	}
	command := func(t *testing.T, chatID int64, by telegramtest.User) string {
		t.Helper()
		m, err := srv.SendEphemeralCommand(chatID, by.ID, "stats")
		require.NoError(t, err)
		return `{"ephemeral_message_id":` + strconv.Itoa(m.EphemeralMessageID) + `}`
	}
	const (
		notAdmin  = "Bad Request: BOT_NOT_ADMIN"
		tooOld    = "Bad Request: query is too old and response timeout expired or query ID is invalid"
		noReplied = "Bad Request: message to be replied not found"
		replace   = "Bad Request: REPLACE_CALLBACK_QUERY_MESSAGE_INVALID"
	)
	tests := []struct {
		name string
		chat int64
		// call returns ephemeral_message_parameters and extra parameters
		// (none for a message every member sees).
		call func(t *testing.T) (string, []string)
		want string // "" for a message sent
	}{
		{"a private chat has none", private.ID, func(*testing.T) (string, []string) { return receiver(alice.ID, ""), nil }, notAdmin},
		{"no query and no ephemeral message to answer", group.ID, func(*testing.T) (string, []string) { return receiver(alice.ID, ""), nil }, notAdmin},
		{"parameters that are no JSON", group.ID, func(*testing.T) (string, []string) { return "{receiver", nil },
			"Bad Request: can't parse ephemeral message parameters JSON object"},
		{"parameters that are no object", group.ID, func(*testing.T) (string, []string) { return "[1]", nil },
			"Bad Request: object expected as ephemeral message parameters"},
		{"no receiver", group.ID, func(*testing.T) (string, []string) { return `{"callback_query_id":"1"}`, nil },
			`Bad Request: can't find field "receiver_user_id"`},
		{"a receiver that is no number", group.ID, func(*testing.T) (string, []string) { return `{"receiver_user_id":"alice"}`, nil },
			`Bad Request: field "receiver_user_id" must be a valid Number`},
		{"receiver 0", group.ID, func(*testing.T) (string, []string) { return receiver(0, ""), nil }, "Bad Request: user not found"},
		{"a receiver that is no user", group.ID, func(*testing.T) (string, []string) { return receiver(555, ""), nil }, "Bad Request: USER_ID_INVALID"},
		{"a bot as receiver", group.ID, func(*testing.T) (string, []string) { return receiver(helper.ID, ""), nil }, "Bad Request: USER_IS_BOT"},
		{"a receiver not in the chat", group.ID, func(*testing.T) (string, []string) { return receiver(carol.ID, ""), nil }, "Bad Request: USER_NOT_PARTICIPANT"},
		{"the receiver's fresh press", group.ID, func(t *testing.T) (string, []string) {
			return receiver(alice.ID, `,"callback_query_id":"`+pressIn(t, group.ID, alice)+`"`), nil
		}, ""},
		{"a press 15 s old", group.ID, func(t *testing.T) (string, []string) {
			q := pressIn(t, group.ID, alice)
			clock.Advance(15 * time.Second)
			return receiver(alice.ID, `,"callback_query_id":"`+q+`"`), nil
		}, ""},
		{"a press over 15 s old", group.ID, func(t *testing.T) (string, []string) {
			q := pressIn(t, group.ID, alice)
			clock.Advance(15*time.Second + time.Millisecond)
			return receiver(alice.ID, `,"callback_query_id":"`+q+`"`), nil
		}, tooOld},
		{"another member's press", group.ID, func(t *testing.T) (string, []string) {
			return receiver(alice.ID, `,"callback_query_id":"`+pressIn(t, group.ID, bob)+`"`), nil
		}, tooOld},
		{"a press in another chat", group.ID, func(t *testing.T) (string, []string) {
			return receiver(alice.ID, `,"callback_query_id":"`+pressIn(t, other.ID, alice)+`"`), nil
		}, tooOld},
		{"an unknown query", group.ID, func(*testing.T) (string, []string) { return receiver(alice.ID, `,"callback_query_id":"42"`), nil }, tooOld},
		{"a reply to the receiver's fresh ephemeral command", group.ID, func(t *testing.T) (string, []string) {
			return receiver(alice.ID, ""), []string{"reply_parameters", command(t, group.ID, alice)}
		}, ""},
		{"a reply to another member's ephemeral command", group.ID, func(t *testing.T) (string, []string) {
			return receiver(alice.ID, ""), []string{"reply_parameters", command(t, group.ID, bob)}
		}, noReplied},
		{"a reply to an ephemeral command over 15 s old", group.ID, func(t *testing.T) (string, []string) {
			reply := command(t, group.ID, alice)
			clock.Advance(16 * time.Second)
			return receiver(alice.ID, ""), []string{"reply_parameters", reply}
		}, noReplied},
		{"a reply to an unknown ephemeral message", group.ID, func(*testing.T) (string, []string) {
			return receiver(alice.ID, ""), []string{"reply_parameters", `{"ephemeral_message_id":999}`}
		}, noReplied},
		{"a message every member sees replying to an ephemeral one", group.ID, func(t *testing.T) (string, []string) {
			return "", []string{"reply_parameters", command(t, group.ID, alice)}
		}, noReplied},
		{"an administrator bot at any time", club.ID, func(*testing.T) (string, []string) { return receiver(bob.ID, ""), nil }, ""},
		{"an administrator bot to a non-member", club.ID, func(*testing.T) (string, []string) { return receiver(carol.ID, ""), nil },
			"Bad Request: USER_NOT_PARTICIPANT"},
		{"replace with no query", club.ID, func(*testing.T) (string, []string) {
			return receiver(bob.ID, `,"replace_callback_query_message":true`), nil
		}, replace},
		{"replace the pressed message", group.ID, func(t *testing.T) (string, []string) {
			return receiver(alice.ID, `,"callback_query_id":"`+pressIn(t, group.ID, alice)+`","replace_callback_query_message":true`), nil
		}, ""},
		{"replace on a press of an ephemeral message", club.ID, func(t *testing.T) (string, []string) {
			sent := sentMessage(t, sendEphemeral(t, srv, club.ID, receiver(alice.ID, ""),
				"reply_markup", `{"inline_keyboard":[[{"text":"More","callback_data":"more"}]]}`))
			cb, err := srv.Press(telegramtest.Press{ChatID: club.ID, From: alice.ID,
				EphemeralMessageID: int(sent["ephemeral_message_id"].(float64)), Label: "More"})
			require.NoError(t, err)
			return receiver(alice.ID, `,"callback_query_id":"`+cb.ID()+`","replace_callback_query_message":true`), nil
		}, replace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eph, extra := tt.call(t)
			before := len(srv.EphemeralMessages(tt.chat))
			resp := sendEphemeral(t, srv, tt.chat, eph, extra...)
			if tt.want != "" {
				assert.False(t, resp.OK)
				assert.Equal(t, 400, resp.ErrorCode)
				assert.Equal(t, tt.want, resp.Description)
				assert.Len(t, srv.EphemeralMessages(tt.chat), before, "a refused message is not stored")
				return
			}
			m := sentMessage(t, resp)
			assert.Len(t, srv.EphemeralMessages(tt.chat), before+1)
			assert.Equal(t, float64(0), m["message_id"])
			assert.NotZero(t, m["ephemeral_message_id"])
		})
	}
}

// TestEphemeralMessageIsSeenByItsReceiverOnly: the sent Message has
// message_id 0, ephemeral_message_id (1, 2, … in the chat) and
// receiver_user; the receiver sees it below the message that was the
// newest, other members do not, the bot sees all, and the chat's
// messages every member sees do not hold it.
func TestEphemeralMessageIsSeenByItsReceiverOnly(t *testing.T) {
	srv, _ := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice", Username: "alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	group, err := srv.AddChat(telegramtest.ChatSpec{Title: "Table", Members: []int64{alice.ID, bob.ID}, BotStatus: telegramtest.StatusAdministrator})
	require.NoError(t, err)
	sub := srv.Subscribe(16)
	defer sub.Close()

	first, err := srv.SendText(group.ID, bob.ID, "hello")
	require.NoError(t, err)
	raw := sendEphemeral(t, srv, group.ID, receiver(alice.ID, ""), "text", "Your balance: 100")
	require.Contains(t, string(raw.Result), `"message_id":0,`, "message_id is written, 0")
	m := sentMessage(t, raw)
	assert.Equal(t, float64(1), m["ephemeral_message_id"])
	assert.Equal(t, map[string]any{"id": float64(alice.ID), "is_bot": false, "first_name": "Alice", "username": "alice"}, m["receiver_user"])
	assert.Equal(t, float64(srv.Bot().ID), m["from"].(map[string]any)["id"])
	assert.Equal(t, float64(group.ID), m["chat"].(map[string]any)["id"])
	last, err := srv.SendText(group.ID, bob.ID, "anyone?")
	require.NoError(t, err)
	m2 := sentMessage(t, sendEphemeral(t, srv, group.ID, receiver(bob.ID, ""), "text", "Your balance: 50"))
	assert.Equal(t, float64(2), m2["ephemeral_message_id"])

	texts := func(msgs []telegramtest.ChatMessage) []string {
		out := make([]string, len(msgs))
		for i, m := range msgs {
			out[i] = m.Text
		}
		return out
	}
	assert.Equal(t, []string{"hello", "anyone?"}, texts(srv.Messages(group.ID)))
	assert.Equal(t, []string{"hello", "Your balance: 100", "anyone?"}, texts(srv.MessagesSeenBy(group.ID, alice.ID)))
	assert.Equal(t, []string{"hello", "anyone?", "Your balance: 50"}, texts(srv.MessagesSeenBy(group.ID, bob.ID)))
	assert.Equal(t, []string{"hello", "Your balance: 100", "anyone?", "Your balance: 50"}, texts(srv.MessagesSeenBy(group.ID, srv.Bot().ID)))
	stored, ok := srv.EphemeralMessage(group.ID, 1)
	require.True(t, ok)
	assert.Equal(t, alice.ID, stored.VisibleTo)
	assert.Equal(t, first.MessageID, stored.ShownAfter)
	assert.True(t, stored.IsEphemeral())
	_, ok = srv.Message(group.ID, 0)
	assert.False(t, ok, "an ephemeral message has no message of the chat")
	second, ok := srv.EphemeralMessage(group.ID, 2)
	require.True(t, ok)
	assert.Equal(t, last.MessageID, second.ShownAfter)

	var sent []telegramtest.Event
	for len(sent) < 4 {
		select {
		case e := <-sub.C:
			if e.Kind == telegramtest.EventMessageSent {
				sent = append(sent, e)
			}
		case <-deadline(t).Done():
			t.Fatalf("only %d message events", len(sent))
		}
	}
	assert.Equal(t, 1, sent[1].EphemeralMessageID)
	assert.Equal(t, alice.ID, sent[1].VisibleTo)
	assert.Zero(t, sent[1].MessageID)
	assert.Zero(t, sent[2].VisibleTo, "a message every member sees")
}

// TestEphemeralReplacesThePressedMessage: with
// replace_callback_query_message the presser sees the ephemeral message
// in place of the pressed one, others still see that one, and deleting
// the ephemeral message gives it back (Telegram Desktop's anchored
// messages).
func TestEphemeralReplacesThePressedMessage(t *testing.T) {
	srv, _ := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	group := srv.NewGroup("Table", alice, bob)
	table := postKeyboard(t, srv, group.ID)
	cb, err := srv.Press(telegramtest.Press{ChatID: group.ID, From: alice.ID, MessageID: table, Label: "Go"})
	require.NoError(t, err)
	m := sentMessage(t, sendEphemeral(t, srv, group.ID, receiver(alice.ID, `,"callback_query_id":"`+cb.ID()+`","replace_callback_query_message":true`),
		"text", "Settings"))
	id := int(m["ephemeral_message_id"].(float64))

	seen := func(userID int64) []string {
		var out []string
		for _, m := range srv.MessagesSeenBy(group.ID, userID) {
			out = append(out, m.Text)
		}
		return out
	}
	assert.Equal(t, []string{"Settings"}, seen(alice.ID))
	assert.Equal(t, []string{"Your turn"}, seen(bob.ID))
	stored, _ := srv.EphemeralMessage(group.ID, id)
	assert.Equal(t, table, stored.Replaces)

	resp := call(t, srv, "deleteEphemeralMessage", url.Values{"chat_id": {strconv.FormatInt(group.ID, 10)},
		"receiver_user_id": {strconv.FormatInt(alice.ID, 10)}, "ephemeral_message_id": {strconv.Itoa(id)}})
	require.True(t, resp.OK, resp.Description)
	assert.Equal(t, "true", string(resp.Result))
	assert.Equal(t, []string{"Your turn"}, seen(alice.ID))
}

// TestEphemeralMessagesCountTowardTheGlobalLimitOnly: an ephemeral
// message is no message of the group's timeline; it counts toward the
// bot's limit over all chats but not toward the group's 20 a minute nor
// a chat's one a second (our assumption, docs/TELEGRAM.md).
func TestEphemeralMessagesCountTowardTheGlobalLimitOnly(t *testing.T) {
	clock := telegramtest.NewManualClock(time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC))
	srv, _ := start(t, telegramtest.WithClock(clock))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	group, err := srv.AddChat(telegramtest.ChatSpec{Title: "Table", Members: []int64{alice.ID}, BotStatus: telegramtest.StatusAdministrator})
	require.NoError(t, err)
	srv.SetRateLimits(telegramtest.TelegramRateLimits())

	// 25 in a minute, one a second apart from the next second's: past the
	// group's 20 a minute, within the 30 a second over all chats.
	for i := range 25 {
		resp := sendEphemeral(t, srv, group.ID, receiver(alice.ID, ""))
		require.True(t, resp.OK, "ephemeral message %d: %s", i, resp.Description)
		clock.Advance(2 * time.Second)
	}
	// The group's own budget is untouched: three public messages in a row
	// (the chat's burst) go.
	for i := range 3 {
		resp := sendEphemeral(t, srv, group.ID, "")
		require.True(t, resp.OK, "public message %d: %s", i, resp.Description)
	}
	assert.Equal(t, telegramtest.RateLimitCounts{}, srv.RateLimited())

	// 30 in one second fill the global limit: the next is refused.
	clock.Advance(time.Minute)
	for range 30 {
		require.True(t, sendEphemeral(t, srv, group.ID, receiver(alice.ID, "")).OK)
	}
	resp := sendEphemeral(t, srv, group.ID, receiver(alice.ID, ""))
	assert.Equal(t, 429, resp.ErrorCode)
	assert.Equal(t, "Too Many Requests: retry after 1", resp.Description)
	assert.Equal(t, telegramtest.RateLimitCounts{Global: 1}, srv.RateLimited())
}
