package playground_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/playground"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// inlineAnswer is the answer of GET /api/inline/queries/{id}.
type inlineAnswer struct {
	ID       string                      `json:"id"`
	ChatID   int64                       `json:"chat_id"`
	From     int64                       `json:"from"`
	Query    string                      `json:"query"`
	Answered bool                        `json:"answered"`
	Results  []telegramtest.InlineResult `json:"results"`
}

// pressAnswer is the answer of a press.
type pressAnswer struct {
	CallbackID string                       `json:"callback_id"`
	Answered   bool                         `json:"answered"`
	Answer     *telegramtest.CallbackAnswer `json:"answer"`
}

// sentMessage is the answer of POST /api/chats/{chat}/messages.
type sentMessage struct {
	telegramtest.ChatMessage
	GuestQueryID string `json:"guest_query_id"`
}

// inlineFixture is a playground for a test of inline mode, as Alice and
// Bob in their private chat.
type inlineFixture struct {
	pg                *playground.Playground
	duo, club         telegramtest.Chat
	alice, bob, carol telegramtest.User
	dave              telegramtest.User // in neither duo nor club
}

func inlinePlayground(t *testing.T) inlineFixture {
	t.Helper()
	pg := startPlayground(t, playground.Options{})
	users := pg.Server().Users()
	return inlineFixture{pg: pg, duo: pg.UserChat(), club: pg.GroupWithoutBot(), alice: users[0], bob: users[1], carol: users[2], dave: users[3]}
}

// query sends an inline query through the API and returns its id.
func (f inlineFixture) query(t *testing.T, chat int64, from int64, q string) string {
	t.Helper()
	var sent struct {
		ID       string `json:"id"`
		ChatType string `json:"chat_type"`
	}
	require.Equal(t, http.StatusOK, call(t, "POST", f.pg.URL()+"/api/chats/"+itoa(chat)+"/inline", map[string]any{"from": from, "query": q}, &sent))
	require.NotEmpty(t, sent.ID)
	assert.Equal(t, map[int64]string{f.duo.ID: "private", f.club.ID: "group"}[chat], sent.ChatType, "the query's chat_type")
	return sent.ID
}

// results reads the bot's answer to an inline query, which must be one.
func (f inlineFixture) results(t *testing.T, id string) inlineAnswer {
	t.Helper()
	var a inlineAnswer
	require.Equal(t, http.StatusOK, call(t, "GET", f.pg.URL()+"/api/inline/queries/"+id, nil, &a))
	require.True(t, a.Answered, "the bot answers inline query %s", id)
	require.NotEmpty(t, a.Results, "the bot offers a table")
	return a
}

// post posts a table through the bot's inline mode, as the user: the
// query, and the first of its results.
func (f inlineFixture) post(t *testing.T, chat, from int64) telegramtest.ChatMessage {
	t.Helper()
	id := f.query(t, chat, from, "")
	var posted telegramtest.ChatMessage
	require.Equal(t, http.StatusOK, call(t, "POST", f.pg.URL()+"/api/inline/queries/"+id+"/choose",
		map[string]any{"from": from, "result_id": f.results(t, id).Results[0].ID}, &posted))
	return posted
}

// press presses a button of an inline message through the API, by its
// label, and returns the bot's answer.
func (f inlineFixture) press(t *testing.T, m telegramtest.ChatMessage, from int64, label string) telegramtest.CallbackAnswer {
	t.Helper()
	b, ok := m.Button(label)
	require.True(t, ok, "a %s button on %q", label, m.Text)
	var pressed pressAnswer
	require.Equal(t, http.StatusOK, call(t, "POST", f.pg.URL()+"/api/inline/messages/"+m.InlineMessageID+"/press",
		map[string]any{"from": from, "data": b.CallbackData}, &pressed))
	assert.NotEmpty(t, pressed.CallbackID)
	require.True(t, pressed.Answered, "the bot answers the press of %s", label)
	return *pressed.Answer
}

// TestSeededChatsWithoutTheBot: the playground starts with a private chat
// between Alice and Bob and a group the bot is not in, "Book club", which
// the state lists with their members and without the bot; the bot's
// username is the one the page completes, in inline mode.
func TestSeededChatsWithoutTheBot(t *testing.T) {
	f := inlinePlayground(t)
	var st struct {
		Bot   telegramtest.User `json:"bot"`
		Chats []struct {
			ID        int64   `json:"id"`
			Type      string  `json:"type"`
			Title     string  `json:"title"`
			Kind      string  `json:"kind"`
			BotMember bool    `json:"bot_member"`
			Members   []int64 `json:"members"`
		} `json:"chats"`
	}
	require.Equal(t, http.StatusOK, call(t, "GET", f.pg.URL()+"/api/state", nil, &st))
	assert.Equal(t, "twentyone_bot", st.Bot.Username)
	type row struct {
		Title, Kind, Type string
		BotMember         bool
		Members           int
	}
	var got []row
	for _, c := range st.Chats {
		got = append(got, row{c.Title, c.Kind, c.Type, c.BotMember, len(c.Members)})
	}
	assert.Equal(t, []row{
		{"Game night", "group", "group", true, 4},
		{"Office", "group", "group", true, 3},
		{"Book club", "group", "group", false, 4},
		{"Alice & Bob", "users", "private", false, 2},
	}, got)
	require.Len(t, st.Chats, 4)
	assert.Equal(t, f.club.ID, st.Chats[2].ID)
	assert.Equal(t, f.duo.ID, st.Chats[3].ID)
	assert.Equal(t, []int64{f.alice.ID, f.bob.ID}, st.Chats[3].Members)
	assert.Equal(t, f.alice.ID, st.Chats[2].Members[0], "Alice created Book club")

	for _, chat := range []int64{f.duo.ID, f.club.ID} {
		m, err := f.pg.Server().Member(chat, playground.Bot.ID)
		require.NoError(t, err)
		assert.Equal(t, telegramtest.StatusLeft, m.Status, "the bot is not in chat %d", chat)
	}
}

// TestInlineQueryChooseAndPress: Alice types "@twentyone_bot 50" in her
// chat with Bob; the API gives the query's id, and the bot's results once
// it answered, the table of stake 50 first; Alice chooses it, and it is
// posted from her "via" the bot, with its inline_message_id; Alice and
// Bob press Join through that id, and the bot's edits of the message
// reach the page's event stream.
func TestInlineQueryChooseAndPress(t *testing.T) {
	f := inlinePlayground(t)
	pg := f.pg
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	events := subscribe(t, ctx, pg)

	id := f.query(t, f.duo.ID, f.alice.ID, "50")
	answer := f.results(t, id)
	assert.Equal(t, "50", answer.Query)
	assert.Equal(t, f.duo.ID, answer.ChatID)
	assert.Equal(t, f.alice.ID, answer.From)
	for _, r := range answer.Results {
		assert.NotEmpty(t, r.Title, "result %s", r.ID)
		assert.NotEmpty(t, r.Description, "result %s", r.ID)
	}
	assert.Contains(t, answer.Results[0].Title, "stake 50", "the stake asked for first")

	var posted telegramtest.ChatMessage
	require.Equal(t, http.StatusOK, call(t, "POST", pg.URL()+"/api/inline/queries/"+id+"/choose",
		map[string]any{"from": f.alice.ID, "result_id": answer.Results[0].ID}, &posted))
	assert.Equal(t, answer.Results[0].Text, posted.Text, "the result's message")
	require.NotNil(t, posted.From)
	assert.Equal(t, f.alice.ID, posted.From.ID, "posted by Alice")
	require.NotNil(t, posted.ViaBot)
	assert.Equal(t, "twentyone_bot", posted.ViaBot.Username, "via the bot")
	assert.False(t, posted.FromBot)
	require.NotEmpty(t, posted.InlineMessageID)
	var msgs messagesAnswer
	require.Equal(t, http.StatusOK, call(t, "GET", pg.URL()+"/api/chats/"+itoa(f.duo.ID)+"/messages", nil, &msgs))
	require.Len(t, msgs.Messages, 1)
	assert.Equal(t, posted.InlineMessageID, msgs.Messages[0].InlineMessageID, "the chat shows it with its inline_message_id")

	// Alice opens the table with its Join, Bob sits down: the bot edits
	// the message by its inline_message_id, and the page hears of it.
	assert.Equal(t, "You're in.", f.press(t, posted, f.alice.ID, "Join").Text)
	edited := events.next(t, func(e telegramtest.Event) bool {
		return e.Kind == telegramtest.EventMessageEdited && strings.Contains(e.Message.Text, "Alice")
	})
	assert.Equal(t, f.duo.ID, edited.ChatID)
	assert.Equal(t, posted.MessageID, edited.MessageID)
	assert.Equal(t, posted.InlineMessageID, edited.Message.InlineMessageID)
	assert.Equal(t, "You're in.", f.press(t, *edited.Message, f.bob.ID, "Join").Text)
	events.next(t, func(e telegramtest.Event) bool {
		return e.Kind == telegramtest.EventMessageEdited && e.MessageID == posted.MessageID && strings.Contains(e.Message.Text, "Bob")
	})
}

// TestDeleteInlineMessage: an inline message is deleted as a user deletes
// one in a client: in a group, by its sender (not by another member); in
// a private chat, by either user. The chat loses it, and a client that has
// not seen the deletion may still press it: the bot answers.
func TestDeleteInlineMessage(t *testing.T) {
	f := inlinePlayground(t)
	pg := f.pg
	del := func(id string, from int64) (int, string) {
		t.Helper()
		var e apiError
		code := call(t, "POST", pg.URL()+"/api/inline/messages/"+id+"/delete", map[string]any{"from": from}, &e)
		return code, e.Error
	}

	inClub := f.post(t, f.club.ID, f.alice.ID)
	code, msg := del(inClub.InlineMessageID, f.bob.ID)
	assert.Equal(t, http.StatusBadRequest, code, "Bob, a member, may not delete Alice's message")
	assert.Contains(t, msg, "may not delete")
	code, msg = del(inClub.InlineMessageID, f.dave.ID)
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, msg, "not a member", "Dave is not in Book club")
	var deleted struct {
		ChatID    int64 `json:"chat_id"`
		MessageID int   `json:"message_id"`
	}
	require.Equal(t, http.StatusOK, call(t, "POST", pg.URL()+"/api/inline/messages/"+inClub.InlineMessageID+"/delete", map[string]any{"from": f.alice.ID}, &deleted))
	assert.Equal(t, f.club.ID, deleted.ChatID)
	assert.Equal(t, inClub.MessageID, deleted.MessageID)

	inDuo := f.post(t, f.duo.ID, f.alice.ID)
	code, _ = del(inDuo.InlineMessageID, f.bob.ID)
	assert.Equal(t, http.StatusOK, code, "either user of a private chat deletes")
	_, found := pg.Server().Message(f.duo.ID, inDuo.MessageID)
	assert.False(t, found, "the chat lost it")
	code, msg = del(inDuo.InlineMessageID, f.bob.ID)
	assert.Equal(t, http.StatusBadRequest, code, "deleted already")
	assert.Contains(t, msg, "or it is deleted")
	f.press(t, inDuo, f.alice.ID, "Join") // a stale client: the bot answers
}

// TestGuestMessageFromThePage: a message that mentions the bot, posted
// through the API in a chat the bot is not in, reaches the bot as a guest
// message (the answer names its guest query): the bot answers it with a
// table, an inline message in the chat that Carol called it to, pressed as
// any. The same text where the bot is a member is an ordinary message.
func TestGuestMessageFromThePage(t *testing.T) {
	f := inlinePlayground(t)
	pg := f.pg
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var summon sentMessage
	require.Equal(t, http.StatusOK, call(t, "POST", pg.URL()+"/api/chats/"+itoa(f.club.ID)+"/messages",
		map[string]any{"from": f.carol.ID, "text": "@twentyone_bot 21"}, &summon))
	assert.Equal(t, "@twentyone_bot 21", summon.Text)
	assert.NotEmpty(t, summon.GuestQueryID, "a guest message")

	answer, err := pg.Server().WaitForBotMessage(ctx, f.club.ID, telegramtest.HasButton("Join"))
	require.NoError(t, err, "the bot answers with a table")
	require.NotEmpty(t, answer.InlineMessageID)
	require.NotNil(t, answer.GuestBotCallerUser)
	assert.Equal(t, f.carol.ID, answer.GuestBotCallerUser.ID, "Carol called it")
	assert.Equal(t, "You're in.", f.press(t, answer, f.bob.ID, "Join").Text)

	var plain sentMessage
	require.Equal(t, http.StatusOK, call(t, "POST", pg.URL()+"/api/chats/"+itoa(pg.Groups()[0].ID)+"/messages",
		map[string]any{"from": f.carol.ID, "text": "@twentyone_bot 21"}, &plain))
	assert.Empty(t, plain.GuestQueryID, "the bot is in Game night: no guest message")
	assert.NotZero(t, plain.MessageID)
}

// TestInlineValidation: every argument of the inline calls is checked,
// with a 400 that says what is wrong.
func TestInlineValidation(t *testing.T) {
	f := inlinePlayground(t)
	pg := f.pg
	duo := "/api/chats/" + itoa(f.duo.ID) + "/inline"
	answered := f.query(t, f.duo.ID, f.alice.ID, "")
	result := f.results(t, answered).Results[0].ID
	posted := f.post(t, f.duo.ID, f.alice.ID)
	inline := "/api/inline/messages/" + posted.InlineMessageID

	tests := []struct {
		name   string
		method string
		path   string
		body   any
		want   string
	}{
		{"query in an unknown chat", "POST", "/api/chats/-42/inline", map[string]any{"from": f.alice.ID, "query": "10"}, "there is no chat -42"},
		{"query as nobody", "POST", duo, map[string]any{"from": 7, "query": "10"}, "there is no user 7"},
		{"query without from", "POST", duo, map[string]any{"query": "10"}, `"from" is required`},
		{"query as the bot", "POST", duo, map[string]any{"from": playground.Bot.ID, "query": "10"}, "there is no user"},
		{"query where not a member", "POST", duo, map[string]any{"from": f.carol.ID, "query": "10"}, "not a member"},
		{"query too long", "POST", duo, map[string]any{"from": f.alice.ID, "query": strings.Repeat("ы", 257)}, "over 256"},
		{"query with an unknown field", "POST", duo, map[string]any{"from": f.alice.ID, "q": "10"}, `unknown field "q"`},
		{"results of an unknown query", "GET", "/api/inline/queries/42", nil, `there is no inline query "42"`},
		{"choose of an unknown query", "POST", "/api/inline/queries/42/choose", map[string]any{"from": f.alice.ID, "result_id": result}, `there is no inline query "42"`},
		{"choose as another user", "POST", "/api/inline/queries/" + answered + "/choose", map[string]any{"from": f.bob.ID, "result_id": result}, "only they choose"},
		{"choose as nobody", "POST", "/api/inline/queries/" + answered + "/choose", map[string]any{"from": 7, "result_id": result}, "there is no user 7"},
		{"choose nothing", "POST", "/api/inline/queries/" + answered + "/choose", map[string]any{"from": f.alice.ID}, `"result_id" is required`},
		{"choose an unknown result", "POST", "/api/inline/queries/" + answered + "/choose", map[string]any{"from": f.alice.ID, "result_id": "x"}, `has no result "x"`},
		{"press an unknown inline message", "POST", "/api/inline/messages/AgAAAA/press", map[string]any{"from": f.alice.ID, "data": "j"}, `there is no inline message "AgAAAA"`},
		{"press without data", "POST", inline + "/press", map[string]any{"from": f.alice.ID}, "callback data must be 1 to 64 bytes"},
		{"press with too much data", "POST", inline + "/press", map[string]any{"from": f.alice.ID, "data": strings.Repeat("d", 65)}, "callback data must be 1 to 64 bytes"},
		{"press as nobody", "POST", inline + "/press", map[string]any{"from": 7, "data": "j"}, "there is no user 7"},
		{"press where not a member", "POST", inline + "/press", map[string]any{"from": f.dave.ID, "data": "j"}, "not a member"},
		{"delete an unknown inline message", "POST", "/api/inline/messages/AgAAAA/delete", map[string]any{"from": f.alice.ID}, `there is no inline message "AgAAAA"`},
		{"delete as nobody", "POST", inline + "/delete", map[string]any{"from": 7}, "there is no user 7"},
		{"delete where not a member", "POST", inline + "/delete", map[string]any{"from": f.dave.ID}, "not a member"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e apiError
			assert.Equal(t, http.StatusBadRequest, call(t, tt.method, pg.URL()+tt.path, tt.body, &e))
			assert.Contains(t, e.Error, tt.want)
		})
	}
	_, found := pg.Server().InlineMessage(posted.InlineMessageID)
	assert.True(t, found, "no refused call deleted the inline message")
}

// messagesAnswer is the answer of GET /api/chats/{chat}/messages.
type messagesAnswer struct {
	Chat     telegramtest.Chat          `json:"chat"`
	Messages []telegramtest.ChatMessage `json:"messages"`
}
