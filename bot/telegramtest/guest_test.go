package telegramtest_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// mention is a text that summons the bot.
func mention(srv *telegramtest.Server, rest string) string {
	return "@" + srv.Bot().Username + " " + rest
}

// guestResult is a result for answerGuestQuery, with a keyboard.
func guestResult(t *testing.T, id, html string) string {
	t.Helper()
	a := article(id, "Table", html, "Join", "join:1")
	b, err := json.Marshal(a)
	require.NoError(t, err)
	return string(b)
}

func TestGuestMessageAnswerAndEdit(t *testing.T) {
	w := newInlineWorld(t, telegramtest.WithGuestMode())
	tests := []struct {
		name     string
		chat     telegramtest.Chat
		wantChat int64 // the chat id the bot is shown
		wantType string
	}{
		{"a group without the bot", w.botless, w.botless.ID, telegramtest.ChatGroup},
		{"a chat between users, shown as the chat with the other", w.duo, w.bob.ID, telegramtest.ChatPrivate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := w.srv.SendGuestMessage(tt.chat.ID, w.alice.ID, mention(w.srv, "deal me in"))
			require.NoError(t, err)
			assert.Equal(t, mention(w.srv, "deal me in"), g.Message().Text)

			raw := rawUpdates(t, w.srv, 0)
			require.Len(t, raw, 1)
			gm, ok := raw[0]["guest_message"].(map[string]any)
			require.True(t, ok, "%v", raw[0])
			assert.Equal(t, g.ID(), gm["guest_query_id"])
			assert.Equal(t, mention(w.srv, "deal me in"), gm["text"])
			assert.Equal(t, float64(w.alice.ID), gm["from"].(map[string]any)["id"])
			chat := gm["chat"].(map[string]any)
			assert.Equal(t, float64(tt.wantChat), chat["id"])
			assert.Equal(t, tt.wantType, chat["type"])
			drain(t, w.api)

			resp, err := w.api.MakeRequest("answerGuestQuery", tgbotapi.Params{"guest_query_id": g.ID(),
				"result": guestResult(t, "g1", "<b>Table</b> open")})
			require.NoError(t, err)
			var sent struct {
				InlineMessageID string `json:"inline_message_id"`
			}
			require.NoError(t, json.Unmarshal(resp.Result, &sent))
			im, err := g.Wait(deadline(t))
			require.NoError(t, err)
			assert.Equal(t, sent.InlineMessageID, im.ID, "SentGuestMessage names the posted inline message")
			assert.Equal(t, tt.chat.ID, im.ChatID)

			m, ok := w.srv.InlineMessage(im.ID)
			require.True(t, ok)
			require.NotNil(t, m.From)
			assert.Equal(t, w.srv.Bot().ID, m.From.ID, "the bot posts its answer itself")
			assert.True(t, m.FromBot)
			assert.Nil(t, m.ViaBot)
			require.NotNil(t, m.GuestBotCallerUser)
			assert.Equal(t, w.alice.ID, m.GuestBotCallerUser.ID)
			assert.Equal(t, "Table open", m.Text)
			assert.Equal(t, []string{"Join"}, m.Labels())
			assert.Zero(t, w.srv.PendingUpdates(), "the bot gets no update of its own answer")

			press, err := w.srv.PressInline(telegramtest.InlinePress{From: w.bob.ID, InlineMessageID: im.ID, Label: "Join"})
			require.NoError(t, err)
			updates, err := w.api.GetUpdates(tgbotapi.UpdateConfig{})
			require.NoError(t, err)
			require.Len(t, updates, 1)
			require.NotNil(t, updates[0].CallbackQuery)
			assert.Equal(t, im.ID, updates[0].CallbackQuery.InlineMessageID)
			assert.Nil(t, updates[0].CallbackQuery.Message)
			assert.Equal(t, press.ID(), updates[0].CallbackQuery.ID)
			drain(t, w.api)

			edited, err := w.api.Request(tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: im.ID}, Text: "Bob joined"})
			require.NoError(t, err)
			assert.JSONEq(t, "true", string(edited.Result))
			m, ok = w.srv.InlineMessage(im.ID)
			require.True(t, ok)
			assert.Equal(t, "Bob joined", m.Text)
			assert.Empty(t, m.Labels())
		})
	}
}

func TestAnswerGuestQueryErrors(t *testing.T) {
	w := newInlineWorld(t, telegramtest.WithGuestMode())
	ok := guestResult(t, "g1", "Table")
	tests := []struct {
		name     string
		prepare  func(t *testing.T, id string) string // returns the id to answer
		result   string
		wantDesc string
	}{
		{"answered", func(*testing.T, string) string { return "" }, ok, ""},
		{"answered just within 10 s", func(*testing.T, string) string { w.clock.Advance(10 * time.Second); return "" }, ok, ""},
		{"answered after 10 s", func(*testing.T, string) string {
			w.clock.Advance(10*time.Second + time.Millisecond)
			return ""
		}, ok, tooOld},
		{"answered twice", func(t *testing.T, id string) string {
			resp := call(t, w.srv, "answerGuestQuery", url.Values{"guest_query_id": {id}, "result": {ok}})
			require.True(t, resp.OK, resp.Description)
			return ""
		}, ok, tooOld},
		{"an unknown query", func(*testing.T, string) string { return "777" }, ok, tooOld},
		{"no result", func(*testing.T, string) string { return "" }, "", "Bad Request: result isn't specified"},
		{"a result that is no JSON", func(*testing.T, string) string { return "" }, "{", "Bad Request: can't parse JSON encoded web view query results"},
		{"a result without id", func(*testing.T, string) string { return "" }, `{"type":"article","title":"T","input_message_content":{"message_text":"x"}}`,
			`Bad Request: can't find field "id"`},
		{"an unknown parse_mode", func(*testing.T, string) string { return "" },
			`{"type":"article","id":"g","title":"T","input_message_content":{"message_text":"x","parse_mode":"XML"}}`,
			"Bad Request: unsupported parse_mode"},
		{"an id of 65 bytes", func(*testing.T, string) string { return "" },
			`{"type":"article","id":"` + strings.Repeat("i", 65) + `","title":"T","input_message_content":{"message_text":"x"}}`,
			"Bad Request: RESULT_ID_INVALID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := w.srv.SendGuestMessage(w.botless.ID, w.alice.ID, mention(w.srv, "play"))
			require.NoError(t, err)
			id := tt.prepare(t, g.ID())
			if id == "" {
				id = g.ID()
			}
			resp := call(t, w.srv, "answerGuestQuery", url.Values{"guest_query_id": {id}, "result": {tt.result}})
			if tt.wantDesc == "" {
				require.True(t, resp.OK, resp.Description)
				_, answered := g.Answer()
				assert.True(t, answered)
				return
			}
			assert.Equal(t, 400, resp.ErrorCode)
			assert.Equal(t, tt.wantDesc, resp.Description)
		})
	}

	t.Run("rate limited as a write into the chat", func(t *testing.T) {
		w.srv.SetRateLimits(telegramtest.RateLimits{Enabled: true, Group: telegramtest.RateLimit{Limit: 1, Window: time.Minute}})
		t.Cleanup(func() { w.srv.SetRateLimits(telegramtest.RateLimits{}) })
		first, err := w.srv.SendGuestMessage(w.botless.ID, w.alice.ID, mention(w.srv, "one"))
		require.NoError(t, err)
		second, err := w.srv.SendGuestMessage(w.botless.ID, w.bob.ID, mention(w.srv, "two"))
		require.NoError(t, err)
		resp := call(t, w.srv, "answerGuestQuery", url.Values{"guest_query_id": {first.ID()}, "result": {ok}})
		require.True(t, resp.OK, resp.Description)
		resp = call(t, w.srv, "answerGuestQuery", url.Values{"guest_query_id": {second.ID()}, "result": {ok}})
		assert.Equal(t, 429, resp.ErrorCode)
		assert.Equal(t, float64(60), resp.Parameters["retry_after"])
		_, answered := second.Answer()
		assert.False(t, answered, "a refused answer may come again")
	})
}

func TestWhichMessagesSummonAGuest(t *testing.T) {
	tests := []struct {
		name      string
		guest     bool
		chat      func(w inlineWorld) telegramtest.Chat
		text      func(srv *telegramtest.Server) string
		wantGuest bool
	}{
		{"a mention in a group without the bot", true, func(w inlineWorld) telegramtest.Chat { return w.botless },
			func(srv *telegramtest.Server) string { return "hey " + mention(srv, "") }, true},
		{"a mention in any case", true, func(w inlineWorld) telegramtest.Chat { return w.duo },
			func(srv *telegramtest.Server) string { return "@" + strings.ToUpper(srv.Bot().Username) }, true},
		{"no mention", true, func(w inlineWorld) telegramtest.Chat { return w.botless },
			func(*telegramtest.Server) string { return "just chatting" }, false},
		{"another bot's mention", true, func(w inlineWorld) telegramtest.Chat { return w.botless },
			func(srv *telegramtest.Server) string { return "@" + srv.Bot().Username + "x hi" }, false},
		{"a group with the bot", true, func(w inlineWorld) telegramtest.Chat { return w.group },
			func(srv *telegramtest.Server) string { return mention(srv, "hi") }, false},
		{"no guest mode", false, func(w inlineWorld) telegramtest.Chat { return w.botless },
			func(srv *telegramtest.Server) string { return mention(srv, "hi") }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []telegramtest.Option
			if tt.guest {
				opts = append(opts, telegramtest.WithGuestMode())
			}
			w := newInlineWorld(t, opts...)
			chat, text := tt.chat(w), tt.text(w.srv)
			g, err := w.srv.SendGuestMessage(chat.ID, w.alice.ID, text)
			if !tt.wantGuest {
				assert.True(t, errors.Is(err, telegramtest.ErrInvalid), "%v", err)
				assert.Empty(t, w.srv.Messages(chat.ID), "SendGuestMessage posts nothing that summons no guest")
				_, err = w.srv.SendText(chat.ID, w.alice.ID, text)
				require.NoError(t, err)
				for _, u := range rawUpdates(t, w.srv, 0) {
					assert.NotContains(t, u, "guest_message")
				}
				return
			}
			require.NoError(t, err)
			assert.NotEmpty(t, g.ID())
			// Post summons the same way.
			_, err = w.srv.SendText(chat.ID, w.bob.ID, text)
			require.NoError(t, err)
			raw := rawUpdates(t, w.srv, 0)
			require.Len(t, raw, 2)
			for _, u := range raw {
				assert.Contains(t, u, "guest_message")
			}
		})
	}

	t.Run("getMe tells guest mode", func(t *testing.T) {
		w := newInlineWorld(t, telegramtest.WithGuestMode())
		me := getMe(t, w.srv)
		assert.Equal(t, true, me["supports_guest_queries"])
		assert.Equal(t, false, me["supports_inline_queries"])
	})
}

// TestWebhookCarriesInlineAndGuestUpdates: a webhook gets the new kinds
// as getUpdates does, allowed_updates filtering them alike.
func TestWebhookCarriesInlineAndGuestUpdates(t *testing.T) {
	w := newInlineWorld(t, telegramtest.WithLoopbackWebhooks(), telegramtest.WithInlineFeedback(), telegramtest.WithGuestMode())
	var mu sync.Mutex
	var kinds []string
	hook := newHookReceiver(t, func(_ int, u telegramtest.Update) int {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case u.InlineQuery != nil:
			kinds = append(kinds, telegramtest.UpdateInlineQuery)
		case u.ChosenInlineResult != nil:
			kinds = append(kinds, telegramtest.UpdateChosenInlineResult)
		case u.GuestMessage != nil:
			kinds = append(kinds, telegramtest.UpdateGuestMessage+":"+u.GuestMessage.GuestQueryID)
		case u.CallbackQuery != nil:
			kinds = append(kinds, telegramtest.UpdateCallbackQuery+":"+u.CallbackQuery.InlineMessageID)
		default:
			kinds = append(kinds, "other")
		}
		return http.StatusOK
	})
	received := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), kinds...)
	}
	setHook := func(allowed string) {
		resp := call(t, w.srv, "setWebhook", url.Values{"url": {hook.srv.URL}, "allowed_updates": {allowed}})
		require.True(t, resp.OK, resp.Description)
	}

	setHook(`["inline_query","chosen_inline_result","guest_message","callback_query"]`)
	q, err := w.srv.SendInlineQuery(w.duo.ID, w.alice.ID, "table")
	require.NoError(t, err)
	require.NoError(t, w.answer(t, q.ID(), article("t1", "T", "Table", "Join", "join")))
	im, err := w.srv.ChooseInlineResult(q.ID(), "t1")
	require.NoError(t, err)
	_, err = w.srv.PressInline(telegramtest.InlinePress{From: w.bob.ID, InlineMessageID: im.ID, Label: "Join"})
	require.NoError(t, err)
	g, err := w.srv.SendGuestMessage(w.botless.ID, w.alice.ID, mention(w.srv, "play"))
	require.NoError(t, err)
	require.NoError(t, w.srv.WaitFor(deadline(t), func(v *telegramtest.View) bool {
		return len(received()) == 4 && v.PendingUpdates() == 0
	}))
	assert.ElementsMatch(t, []string{telegramtest.UpdateInlineQuery, telegramtest.UpdateChosenInlineResult,
		telegramtest.UpdateCallbackQuery + ":" + im.ID, telegramtest.UpdateGuestMessage + ":" + g.ID()}, received())

	setHook(`["message"]`)
	_, err = w.srv.SendInlineQuery(w.duo.ID, w.alice.ID, "table")
	require.NoError(t, err)
	_, err = w.srv.SendGuestMessage(w.botless.ID, w.alice.ID, mention(w.srv, "again"))
	require.NoError(t, err)
	assert.Zero(t, w.srv.WebhookInfo().PendingUpdateCount, "updates a bot did not ask for are not even queued")
	assert.Len(t, received(), 4)
}
