package telegramtest_test

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// Inline messages once posted: presses on them, edits by inline_message_id,
// their rate limits and their deletion.

func TestPressOnInlineMessage(t *testing.T) {
	w := newInlineWorld(t, telegramtest.WithInlineMode())
	first := w.chosen(t, w.botless.ID, "Join", "join:1")
	second := w.chosen(t, w.botless.ID, "Join", "join:2")
	elsewhere := w.chosen(t, w.duo.ID, "Join", "join:3")
	drain(t, w.api)

	instances := map[string]string{}
	for _, tt := range []struct {
		name  string
		press func() (*telegramtest.Callback, error)
		im    telegramtest.InlineMessage
		data  string
	}{
		{"by inline message id", func() (*telegramtest.Callback, error) {
			return w.srv.PressInline(telegramtest.InlinePress{From: w.bob.ID, InlineMessageID: first.ID, Label: "Join"})
		}, first, "join:1"},
		{"as a client taps it in the chat", func() (*telegramtest.Callback, error) {
			return w.srv.PressButton(w.botless.ID, w.bob.ID, "Join")
		}, second, "join:2"},
		{"in another chat", func() (*telegramtest.Callback, error) {
			return w.srv.PressInline(telegramtest.InlinePress{From: w.bob.ID, InlineMessageID: elsewhere.ID, Data: "join:3"})
		}, elsewhere, "join:3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			press, err := tt.press()
			require.NoError(t, err)
			assert.Equal(t, tt.im.ID, press.InlineMessageID())
			raw := rawUpdates(t, w.srv, 0)
			require.Len(t, raw, 1)
			cq, ok := raw[0]["callback_query"].(map[string]any)
			require.True(t, ok, "%v", raw[0])
			assert.NotContains(t, cq, "message", "a press on an inline message carries no message")
			assert.Equal(t, tt.im.ID, cq["inline_message_id"])
			assert.Equal(t, tt.data, cq["data"])
			instance, _ := cq["chat_instance"].(string)
			assert.NotEmpty(t, instance)
			instances[tt.name] = instance

			updates, err := w.api.GetUpdates(tgbotapi.UpdateConfig{})
			require.NoError(t, err)
			require.Len(t, updates, 1)
			q := updates[0].CallbackQuery
			require.NotNil(t, q)
			assert.Nil(t, q.Message)
			assert.Equal(t, tt.im.ID, q.InlineMessageID)
			_, err = w.api.Request(tgbotapi.NewCallback(q.ID, "Joined"))
			require.NoError(t, err)
			answer, err := press.Wait(deadline(t))
			require.NoError(t, err)
			assert.Equal(t, "Joined", answer.Text)
			drain(t, w.api)
		})
	}
	assert.Equal(t, instances["by inline message id"], instances["as a client taps it in the chat"],
		"one chat_instance for the inline messages of a chat")
	assert.NotEqual(t, instances["by inline message id"], instances["in another chat"])

	t.Run("an outsider cannot press", func(t *testing.T) {
		carol := w.srv.AddUser(telegramtest.User{FirstName: "Carol"})
		_, err := w.srv.PressInline(telegramtest.InlinePress{From: carol.ID, InlineMessageID: first.ID, Label: "Join"})
		assert.True(t, errors.Is(err, telegramtest.ErrNotMember), "%v", err)
		_, err = w.srv.PressInline(telegramtest.InlinePress{From: w.bob.ID, InlineMessageID: "nope", Label: "Join"})
		assert.True(t, errors.Is(err, telegramtest.ErrMessageNotFound), "%v", err)
	})
}

// unknownInlineID is a well-formed inline_message_id that names no message.
func unknownInlineID() string {
	b := make([]byte, 24)
	b[0] = 2
	b[20] = 7
	return base64.RawURLEncoding.EncodeToString(b)
}

func TestEditInlineMessage(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		form     func(im telegramtest.InlineMessage) url.Values
		prepare  func(t *testing.T, w inlineWorld, im telegramtest.InlineMessage)
		wantDesc string
		wantText string
		wantKB   []string
	}{
		{"text by inline_message_id", "editMessageText", func(im telegramtest.InlineMessage) url.Values {
			return url.Values{"inline_message_id": {im.ID}, "text": {"<i>Bob</i> joined"}, "parse_mode": {"HTML"},
				"reply_markup": {`{"inline_keyboard":[[{"text":"Leave","callback_data":"leave"}]]}`}}
		}, nil, "", "Bob joined", []string{"Leave"}},
		{"the keyboard only", "editMessageReplyMarkup", func(im telegramtest.InlineMessage) url.Values {
			return url.Values{"inline_message_id": {im.ID}, "reply_markup": {`{"inline_keyboard":[[{"text":"Start","callback_data":"go"}]]}`}}
		}, nil, "", "Table open", []string{"Start"}},
		{"no reply_markup removes the keyboard", "editMessageReplyMarkup", func(im telegramtest.InlineMessage) url.Values {
			return url.Values{"inline_message_id": {im.ID}}
		}, nil, "", "Table open", []string{}},
		{"not modified", "editMessageText", func(im telegramtest.InlineMessage) url.Values {
			return url.Values{"inline_message_id": {im.ID}, "text": {"<b>Table</b> open"}, "parse_mode": {"HTML"},
				"reply_markup": {`{"inline_keyboard":[[{"text":"Join","callback_data":"join:1"}]]}`}}
		}, nil, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message", "", nil},
		{"an unknown inline message", "editMessageText", func(telegramtest.InlineMessage) url.Values {
			return url.Values{"inline_message_id": {unknownInlineID()}, "text": {"x"}}
		}, nil, "Bad Request: MESSAGE_ID_INVALID", "", nil},
		{"a malformed inline_message_id", "editMessageText", func(telegramtest.InlineMessage) url.Values {
			return url.Values{"inline_message_id": {"AgAAAN3TAQ"}, "text": {"x"}}
		}, nil, "Bad Request: invalid inline message identifier specified", "", nil},
		{"no message named", "editMessageReplyMarkup", func(telegramtest.InlineMessage) url.Values {
			return url.Values{}
		}, nil, "Bad Request: message identifier is not specified", "", nil},
		{"a deleted inline message", "editMessageText", func(im telegramtest.InlineMessage) url.Values {
			return url.Values{"inline_message_id": {im.ID}, "text": {"x"}}
		}, func(t *testing.T, w inlineWorld, im telegramtest.InlineMessage) {
			require.NoError(t, w.srv.DeleteInlineMessage(w.alice.ID, im.ID))
		}, "Bad Request: MESSAGE_ID_INVALID", "", nil},
		{"the text is checked as in a chat", "editMessageText", func(im telegramtest.InlineMessage) url.Values {
			return url.Values{"inline_message_id": {im.ID}, "text": {"<b>x"}, "parse_mode": {"HTML"}}
		}, nil, "Bad Request: can't parse entities: Can't find end tag corresponding to start tag b", "", nil},
		{"by chat and message id it is no bot message", "editMessageText", func(im telegramtest.InlineMessage) url.Values {
			return url.Values{"chat_id": {itoa64(im.ChatID)}, "message_id": {itoa(im.MessageID)}, "text": {"x"}}
		}, nil, "Bad Request: message can't be edited", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newInlineWorld(t, telegramtest.WithInlineMode())
			im := w.chosen(t, w.group.ID, "Join", "join:1")
			if tt.prepare != nil {
				tt.prepare(t, w, im)
			}
			resp := call(t, w.srv, tt.method, tt.form(im))
			if tt.wantDesc != "" {
				assert.Equal(t, 400, resp.ErrorCode)
				assert.Equal(t, tt.wantDesc, resp.Description)
				return
			}
			require.True(t, resp.OK, resp.Description)
			assert.JSONEq(t, "true", string(resp.Result), "an inline message's edit answers True, not a Message")
			m, ok := w.srv.InlineMessage(im.ID)
			require.True(t, ok)
			assert.Equal(t, tt.wantText, m.Text)
			assert.Equal(t, tt.wantKB, m.Labels())
			assert.Equal(t, 1, m.EditCount)
		})
	}

	t.Run("through tgbotapi", func(t *testing.T) {
		w := newInlineWorld(t, telegramtest.WithInlineMode())
		im := w.chosen(t, w.duo.ID, "Join", "join:1")
		kb := keyboard("Hit", "hit")
		edit := tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: im.ID, ReplyMarkup: &kb}, Text: "Your turn"}
		resp, err := w.api.Request(edit)
		require.NoError(t, err)
		assert.JSONEq(t, "true", string(resp.Result))
		m, ok := w.srv.InlineMessage(im.ID)
		require.True(t, ok)
		assert.Equal(t, "Your turn", m.Text)
		assert.Equal(t, []string{"Hit"}, m.Labels())
	})
}

func itoa64(n int64) string { return fmt.Sprint(n) }

// TestInlineEditsAreRateLimitedLikeAGroup: an edit of an inline message
// counts as a group's message in its chat, whatever the chat, and
// against the bot's global budget, with 429 and retry_after; the 429s are
// counted in the chat the message is in.
func TestInlineEditsAreRateLimitedLikeAGroup(t *testing.T) {
	limits := telegramtest.RateLimits{
		Enabled: true,
		Global:  telegramtest.RateLimit{Limit: 5, Window: time.Second},
		Group:   telegramtest.RateLimit{Limit: 3, Window: 10 * time.Second},
		Private: telegramtest.RateLimit{Limit: 1, Window: time.Second},
	}
	type step struct {
		do        string // "edit" an inline message, "send" a bot message, "advance"
		chat      string // "duo", "group", "sender", "other"
		wantRetry int    // 0: must succeed
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"in a chat between users, a group's limit", []step{
			{do: "edit", chat: "duo"}, {do: "edit", chat: "duo"}, {do: "edit", chat: "duo"},
			{do: "edit", chat: "duo", wantRetry: 10},
			{do: "advance"},
			{do: "edit", chat: "duo"},
		}},
		{"in a group, shared with the bot's messages there", []step{
			{do: "send", chat: "group"}, {do: "send", chat: "group"}, {do: "edit", chat: "group"},
			{do: "edit", chat: "group", wantRetry: 10},
			{do: "send", chat: "group", wantRetry: 10},
		}},
		{"in the bot's private chat, apart from its own messages there", []step{
			{do: "send", chat: "sender"}, {do: "edit", chat: "sender"}, {do: "edit", chat: "sender"},
			{do: "send", chat: "sender", wantRetry: 1},
		}},
		{"the global budget", []step{
			{do: "edit", chat: "duo"}, {do: "edit", chat: "duo"}, {do: "send", chat: "other"},
			{do: "edit", chat: "group"}, {do: "send", chat: "sender"},
			{do: "edit", chat: "group", wantRetry: 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newInlineWorld(t, telegramtest.WithInlineMode())
			chats := map[string]int64{"duo": w.duo.ID, "group": w.group.ID, "sender": w.sender.ID, "other": w.supergroup.ID}
			ims := map[string]telegramtest.InlineMessage{}
			for name, id := range chats {
				ims[name] = w.chosen(t, id, "Join", "join")
			}
			w.srv.SetRateLimits(limits)
			refused := map[int64]int{}
			for i, st := range tt.steps {
				var err error
				switch st.do {
				case "advance":
					w.clock.Advance(10 * time.Second)
					continue
				case "edit":
					_, err = w.api.Request(tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: ims[st.chat].ID},
						Text: fmt.Sprintf("edit %d", i)})
				case "send":
					_, err = w.api.Send(tgbotapi.NewMessage(chats[st.chat], fmt.Sprintf("send %d", i)))
				}
				if st.wantRetry == 0 {
					require.NoError(t, err, "step %d", i)
					continue
				}
				apiErr := asAPIError(t, err)
				assert.Equal(t, 429, apiErr.Code, "step %d", i)
				assert.Equal(t, st.wantRetry, apiErr.RetryAfter, "step %d", i)
				assert.Equal(t, fmt.Sprintf("Too Many Requests: retry after %d", st.wantRetry), apiErr.Message)
				refused[chats[st.chat]]++
			}
			assert.Equal(t, refused, w.srv.RateLimitedChats(), "each 429 counted in the chat of the message")
		})
	}
}

func TestPressOnDeletedInlineMessage(t *testing.T) {
	w := newInlineWorld(t, telegramtest.WithInlineMode())
	im := w.chosen(t, w.duo.ID, "Join", "join:1")
	require.NoError(t, w.srv.DeleteInlineMessage(w.bob.ID, im.ID), "either user of a private chat deletes any message")
	_, ok := w.srv.InlineMessage(im.ID)
	assert.False(t, ok)
	drain(t, w.api)
	// A client that has not seen the deletion still shows the button.
	press, err := w.srv.PressInline(telegramtest.InlinePress{From: w.bob.ID, InlineMessageID: im.ID, Label: "Join"})
	require.NoError(t, err)
	updates, err := w.api.GetUpdates(tgbotapi.UpdateConfig{})
	require.NoError(t, err)
	require.Len(t, updates, 1)
	require.NotNil(t, updates[0].CallbackQuery)
	assert.Equal(t, im.ID, updates[0].CallbackQuery.InlineMessageID)
	assert.False(t, press.Inaccessible(), "an inline message is named by its id only, deleted or not")
	_, err = w.api.Request(tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: im.ID}, Text: "Joined"})
	assert.Equal(t, "Bad Request: MESSAGE_ID_INVALID", asAPIError(t, err).Message)

	t.Run("in a group only its sender or an admin deletes it", func(t *testing.T) {
		im := w.chosen(t, w.botless.ID, "Join", "join:2")
		err := w.srv.DeleteInlineMessage(w.bob.ID, im.ID)
		assert.True(t, errors.Is(err, telegramtest.ErrInvalid), "%v", err)
		require.NoError(t, w.srv.DeleteInlineMessage(w.alice.ID, im.ID))
	})
}
