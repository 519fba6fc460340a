package playground_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/playground"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// botCall calls the Bot API server as the bot does, for what a test makes
// the bot's side do itself (declare a menu, send a message of its own),
// and returns the result.
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
// of two commands whose /stats is ephemeral: the scope all_group_chats
// comes before the default menus the bot sets.
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

// TestEphemeralFromThePage: a user sends a command the bot declares
// is_ephemeral (its own menu: setMyCommands) ephemerally, and the bot
// answers it ephemerally, in reply to it; the chat as each user sees it
// has both for that user only. The bot's ephemeral settings panel is
// pressed and deleted by that user only. Every argument is checked.
func TestEphemeralFromThePage(t *testing.T) {
	pg := startPlayground(t, playground.Options{})
	srv := pg.Server()
	users := srv.Users()
	alice, bob := users[0], users[1]
	game := pg.Groups()[0]
	base := pg.URL() + "/api/chats/" + itoa(game.ID)

	menu := func() map[int64]map[string][]telegramtest.BotCommand {
		var st struct {
			Chats []struct {
				ID       int64                                `json:"id"`
				Commands map[string][]telegramtest.BotCommand `json:"commands"`
			} `json:"chats"`
		}
		require.Equal(t, http.StatusOK, call(t, "GET", pg.URL()+"/api/state", nil, &st))
		out := map[int64]map[string][]telegramtest.BotCommand{}
		for _, c := range st.Chats {
			out[c.ID] = c.Commands
		}
		return out
	}
	declared := func(name string) (telegramtest.BotCommand, bool) {
		for _, c := range menu()[game.ID][itoa(alice.ID)] {
			if c.Command == name {
				return c, true
			}
		}
		return telegramtest.BotCommand{}, false
	}
	require.Eventually(t, func() bool { _, ok := declared("stats"); return ok }, 10*time.Second, 10*time.Millisecond, "the bot's menu, as Alice sees it in Game night")
	stats, _ := declared("stats")
	assert.Equal(t, telegramtest.BotCommand{Command: "stats", Description: i18n.T(i18n.EN, i18n.DescStats), IsEphemeral: true}, stats)
	newgame, ok := declared("newgame")
	assert.True(t, ok)
	assert.False(t, newgame.IsEphemeral, "/newgame's answer is the group's")
	assert.Empty(t, menu()[pg.GroupWithoutBot().ID], "no menu where the bot is not")

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
	// ask sends the command ephemerally as Alice, and waits for the
	// bot's ephemeral answer to it.
	ask := func(text string) (command, answer telegramtest.ChatMessage) {
		t.Helper()
		var sent sentMessage
		require.Equal(t, http.StatusOK, call(t, "POST", base+"/messages", map[string]any{"from": alice.ID, "text": text, "ephemeral": true}, &sent))
		assert.Zero(t, sent.MessageID)
		require.NotZero(t, sent.EphemeralMessageID)
		assert.Equal(t, alice.ID, sent.VisibleTo)
		require.Eventually(t, func() bool {
			for _, m := range seen("?user=" + itoa(alice.ID)) {
				if m.FromBot && m.ReplyToEphemeralMessageID == sent.EphemeralMessageID {
					answer = m
					return true
				}
			}
			return false
		}, 10*time.Second, 10*time.Millisecond, "the bot's ephemeral answer to %s", text)
		return sent.ChatMessage, answer
	}
	command, answer := ask("/stats")
	assert.Equal(t, "Alice hasn't played here yet.", answer.Text)
	assert.Equal(t, alice.ID, answer.VisibleTo)
	mine := seen("?user=" + itoa(alice.ID))
	require.Len(t, mine, 2, "Alice sees her command and the bot's answer")
	assert.Equal(t, "/stats", mine[0].Text)
	assert.Equal(t, answer.Text, mine[1].Text)
	assert.Empty(t, seen("?user="+itoa(bob.ID)), "Bob sees neither")
	assert.Empty(t, seen(""), "nor does the chat every member sees")

	// The settings panel, Alice's as the group's admin: hers to press and
	// to delete.
	_, panel := ask("/settings")
	require.NotNil(t, panel.ReplyMarkup, "the panel's buttons")
	require.NotEmpty(t, panel.ReplyMarkup.InlineKeyboard)
	data := panel.ReplyMarkup.InlineKeyboard[0][0].CallbackData
	require.NotEmpty(t, data)
	id := panel.EphemeralMessageID
	var refused apiError
	assert.Equal(t, http.StatusBadRequest, call(t, "POST", base+"/press", map[string]any{"from": bob.ID, "ephemeral_message_id": id, "data": data}, &refused))
	assert.Contains(t, refused.Error, "does not see ephemeral message")
	var pressed pressAnswer
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/press", map[string]any{"from": alice.ID, "ephemeral_message_id": id, "data": data}, &pressed))
	assert.True(t, pressed.Answered, "the bot answers Alice's press")
	require.Eventually(t, func() bool { m, ok := srv.EphemeralMessage(game.ID, id); return ok && m.EditCount > 0 }, 10*time.Second, 10*time.Millisecond,
		"the press edits the panel")

	del := base + "/ephemeral/" + strconv.Itoa(id) + "/delete"
	assert.Equal(t, http.StatusBadRequest, call(t, "POST", del, map[string]any{"from": bob.ID}, &refused))
	require.Equal(t, http.StatusOK, call(t, "POST", del, map[string]any{"from": alice.ID}, nil))
	assert.Len(t, seen("?user="+itoa(alice.ID)), 3, "the panel is gone, her /settings and the answer to /stats stay")

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
