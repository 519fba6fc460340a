package telegramtest_test

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestReplyAndLinkPreviewParameters checks sendMessage and editMessageText
// read reply_parameters and link_preview_options as the official server
// does (Client::get_reply_parameters, get_link_preview_options), still
// read the legacy parameters, and name those in the call log.
func TestReplyAndLinkPreviewParameters(t *testing.T) {
	srv := telegramtest.StartTest(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	said, err := srv.SendText(chat.ID, alice.ID, "hello")
	require.NoError(t, err)
	chatID, msgID := itoa(int(chat.ID)), itoa(said.MessageID)

	tests := []struct {
		name string
		args url.Values
		// desc is the error description, "" for success; replyTo the id
		// of the message replied to then (0: none).
		desc    string
		replyTo int
		legacy  []string
	}{
		{"reply_parameters", url.Values{"reply_parameters": {`{"message_id":` + msgID + `}`}}, "", said.MessageID, nil},
		{"reply_parameters with the id as a string", url.Values{"reply_parameters": {`{"message_id":"` + msgID + `"}`}}, "", said.MessageID, nil},
		{"reply_parameters naming this chat", url.Values{"reply_parameters": {`{"chat_id":` + chatID + `,"message_id":` + msgID + `}`}}, "", said.MessageID, nil},
		{"reply_parameters to a missing message", url.Values{"reply_parameters": {`{"message_id":9999}`}},
			"Bad Request: message to be replied not found", 0, nil},
		{"reply_parameters to a missing message, allowed", url.Values{"reply_parameters": {`{"message_id":9999,"allow_sending_without_reply":true}`}}, "", 0, nil},
		{"reply_parameters empty", url.Values{"reply_parameters": {""}}, "", 0, nil},
		{"reply_parameters an empty object", url.Values{"reply_parameters": {"{}"}}, "", 0, nil},
		{"reply_parameters win over reply_to_message_id", url.Values{"reply_parameters": {"{}"}, "reply_to_message_id": {"9999"}}, "", 0,
			[]string{"reply_to_message_id"}},
		{"reply_parameters not JSON", url.Values{"reply_parameters": {"{"}}, "Bad Request: can't parse reply parameters JSON object", 0, nil},
		{"reply_parameters not an object", url.Values{"reply_parameters": {"[1]"}}, "Bad Request: object expected as reply parameters", 0, nil},
		{"reply_parameters without message_id", url.Values{"reply_parameters": {`{"chat_id":1}`}}, `Bad Request: can't find field "message_id"`, 0, nil},
		{"reply_parameters with a Boolean message_id", url.Values{"reply_parameters": {`{"message_id":true}`}}, `Bad Request: field "message_id" must be a Number`, 0, nil},
		{"reply_parameters with a fractional message_id", url.Values{"reply_parameters": {`{"message_id":1.5}`}}, `Bad Request: field "message_id" must be a valid Number`, 0, nil},
		{"reply_parameters with a string allow_sending_without_reply", url.Values{"reply_parameters": {`{"message_id":9999,"allow_sending_without_reply":"true"}`}},
			`Bad Request: field "allow_sending_without_reply" must be of type Boolean`, 0, nil},
		{"legacy reply_to_message_id", url.Values{"reply_to_message_id": {msgID}}, "", said.MessageID, []string{"reply_to_message_id"}},
		{"legacy reply to a missing message, allowed", url.Values{"reply_to_message_id": {"9999"}, "allow_sending_without_reply": {"true"}}, "", 0,
			[]string{"reply_to_message_id", "allow_sending_without_reply"}},
		{"link_preview_options", url.Values{"link_preview_options": {`{"is_disabled":true}`}}, "", 0, nil},
		{"link_preview_options not JSON", url.Values{"link_preview_options": {"nope"}}, "Bad Request: can't parse link preview options JSON object", 0, nil},
		{"link_preview_options not an object", url.Values{"link_preview_options": {"true"}}, "Bad Request: object expected as link preview options", 0, nil},
		{"link_preview_options with a string is_disabled", url.Values{"link_preview_options": {`{"is_disabled":"yes"}`}},
			`Bad Request: field "is_disabled" must be of type Boolean`, 0, nil},
		{"legacy disable_web_page_preview", url.Values{"disable_web_page_preview": {"true"}}, "", 0, []string{"disable_web_page_preview"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			form := url.Values{"chat_id": {chatID}, "text": {"x"}}
			for k, v := range tt.args {
				form[k] = v
			}
			srv.ResetCalls()
			resp := call(t, srv, "sendMessage", form)
			calls := srv.RecentCalls()
			require.Len(t, calls, 1)
			assert.Equal(t, tt.legacy, calls[0].Legacy)
			if tt.desc != "" {
				assert.False(t, resp.OK)
				assert.Equal(t, tt.desc, resp.Description)
				return
			}
			require.True(t, resp.OK, resp.Description)
			var sent telegramtest.Message
			require.NoError(t, json.Unmarshal(resp.Result, &sent))
			if tt.replyTo == 0 {
				assert.Nil(t, sent.ReplyToMessage)
			} else if assert.NotNil(t, sent.ReplyToMessage) {
				assert.Equal(t, tt.replyTo, sent.ReplyToMessage.MessageID)
			}
		})
	}

	// editMessageText reads link_preview_options first, like sendMessage.
	sent, ok := srv.LastBotMessage(chat.ID)
	require.True(t, ok)
	resp := call(t, srv, "editMessageText", url.Values{"chat_id": {chatID}, "message_id": {itoa(sent.MessageID)}, "text": {"y"},
		"link_preview_options": {"[]"}})
	assert.Equal(t, "Bad Request: object expected as link preview options", resp.Description)
	resp = call(t, srv, "editMessageText", url.Values{"chat_id": {chatID}, "message_id": {itoa(sent.MessageID)}, "text": {"y"},
		"link_preview_options": {`{"is_disabled":true}`}})
	assert.True(t, resp.OK, resp.Description)
}
