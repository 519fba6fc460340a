package playground_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/playground"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// botCall calls the Bot API server as the bot does, for what the bot
// itself does not do yet (declare a command ephemeral, send an ephemeral
// message), and returns the result.
func botCall(t *testing.T, srv *telegramtest.Server, method string, form url.Values) json.RawMessage {
	t.Helper()
	resp, err := srv.Client().PostForm(srv.URL()+"/bot"+srv.Token()+"/"+method, form)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct {
		OK          bool            `json:"ok"`
		Result      json.RawMessage `json:"result"`
		Description string          `json:"description"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	require.True(t, out.OK, "%s: %s", method, out.Description)
	return out.Result
}

// declareEphemeralStats registers, for every group and language, a menu
// whose /stats is ephemeral, as the bot will: the scope all_group_chats
// comes before the default menus the bot sets today.
func declareEphemeralStats(t *testing.T, srv *telegramtest.Server) {
	t.Helper()
	botCall(t, srv, "setMyCommands", url.Values{"scope": {`{"type":"all_group_chats"}`},
		"commands": {`[{"command":"stats","description":"Your stats","is_ephemeral":true},{"command":"newgame","description":"Open a table"}]`}})
}

// sendEphemeralAnswer sends, as the bot, an ephemeral reply to the user's
// ephemeral message, with one button, and returns its id.
func sendEphemeralAnswer(t *testing.T, srv *telegramtest.Server, chat, user int64, replyTo int, text string) int {
	t.Helper()
	result := botCall(t, srv, "sendMessage", url.Values{"chat_id": {itoa(chat)}, "text": {text},
		"ephemeral_message_parameters": {`{"receiver_user_id":` + itoa(user) + `}`},
		"reply_parameters":             {`{"ephemeral_message_id":` + strconv.Itoa(replyTo) + `}`},
		"reply_markup":                 {`{"inline_keyboard":[[{"text":"Deck","callback_data":"deck"}]]}`}})
	var m telegramtest.Message
	require.NoError(t, json.Unmarshal(result, &m))
	require.NotZero(t, m.EphemeralMessageID)
	return m.EphemeralMessageID
}

// TestEphemeralFromThePage: a user sends a command the bot declared
// is_ephemeral ephemerally; the chat as each user sees it has it, and the
// bot's ephemeral answer, for that user only; only they press it and
// delete it. Every argument is checked.
func TestEphemeralFromThePage(t *testing.T) {
	pg := startPlayground(t, playground.Options{})
	srv := pg.Server()
	users := srv.Users()
	alice, bob := users[0], users[1]
	game := pg.Groups()[0]
	declareEphemeralStats(t, srv)
	base := pg.URL() + "/api/chats/" + itoa(game.ID)

	var st struct {
		Chats []struct {
			ID       int64                                `json:"id"`
			Commands map[string][]telegramtest.BotCommand `json:"commands"`
		} `json:"chats"`
	}
	require.Equal(t, http.StatusOK, call(t, "GET", pg.URL()+"/api/state", nil, &st))
	menu := map[int64]map[string][]telegramtest.BotCommand{}
	for _, c := range st.Chats {
		menu[c.ID] = c.Commands
	}
	require.NotEmpty(t, menu[game.ID][itoa(alice.ID)], "the menu Alice sees in Game night")
	assert.Equal(t, telegramtest.BotCommand{Command: "stats", Description: "Your stats", IsEphemeral: true}, menu[game.ID][itoa(alice.ID)][0])
	assert.Empty(t, menu[pg.GroupWithoutBot().ID], "no menu where the bot is not")

	var command sentMessage
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/messages", map[string]any{"from": alice.ID, "text": "/stats", "ephemeral": true}, &command))
	assert.Zero(t, command.MessageID)
	require.NotZero(t, command.EphemeralMessageID)
	assert.Equal(t, alice.ID, command.VisibleTo)
	answer := sendEphemeralAnswer(t, srv, game.ID, alice.ID, command.EphemeralMessageID, "Only Alice sees this")

	seen := func(query string) []telegramtest.ChatMessage {
		var got struct {
			Messages []telegramtest.ChatMessage `json:"messages"`
		}
		require.Equal(t, http.StatusOK, call(t, "GET", base+"/messages"+query, nil, &got))
		var eph []telegramtest.ChatMessage
		for _, m := range got.Messages {
			if m.IsEphemeral() {
				eph = append(eph, m)
			}
		}
		return eph
	}
	mine := seen("?user=" + itoa(alice.ID))
	require.Len(t, mine, 2, "Alice sees her command and the bot's answer")
	assert.Equal(t, "/stats", mine[0].Text)
	assert.Equal(t, "Only Alice sees this", mine[1].Text)
	assert.Empty(t, seen("?user="+itoa(bob.ID)), "Bob sees neither")
	assert.Empty(t, seen(""), "nor does the chat every member sees")

	var refused apiError
	assert.Equal(t, http.StatusBadRequest, call(t, "POST", base+"/press", map[string]any{"from": bob.ID, "ephemeral_message_id": answer, "data": "deck"}, &refused))
	assert.Contains(t, refused.Error, "does not see ephemeral message")
	var pressed pressAnswer
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/press", map[string]any{"from": alice.ID, "ephemeral_message_id": answer, "data": "deck"}, &pressed))
	assert.True(t, pressed.Answered, "the bot answers Alice's press")

	del := base + "/ephemeral/" + strconv.Itoa(answer) + "/delete"
	assert.Equal(t, http.StatusBadRequest, call(t, "POST", del, map[string]any{"from": bob.ID}, &refused))
	require.Equal(t, http.StatusOK, call(t, "POST", del, map[string]any{"from": alice.ID}, nil))
	assert.Len(t, seen("?user="+itoa(alice.ID)), 1, "the answer is gone")

	tests := []struct {
		name, method, path string
		body               any
		want               string
	}{
		{"a user that is no number", "GET", "/messages?user=alice", nil, `the user id must be a number, not "alice"`},
		{"an unknown user", "GET", "/messages?user=42", nil, "there is no user 42"},
		{"a command not declared ephemeral", "POST", "/messages", map[string]any{"from": alice.ID, "text": "/newgame", "ephemeral": true}, "is_ephemeral"},
		{"a reply to another's ephemeral message", "POST", "/messages", map[string]any{"from": bob.ID, "text": "hi", "reply_to_ephemeral_message_id": command.EphemeralMessageID}, "no ephemeral message"},
		{"deleting an unknown one", "POST", "/ephemeral/99/delete", map[string]any{"from": alice.ID}, "ephemeral message 99"},
		{"deleting id 0", "POST", "/ephemeral/0/delete", map[string]any{"from": alice.ID}, `must be a positive number, not "0"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e apiError
			assert.Equal(t, http.StatusBadRequest, call(t, tt.method, base+tt.path, tt.body, &e))
			assert.Contains(t, e.Error, tt.want)
		})
	}
}
