package telegramtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWebhookQueue(t *testing.T) {
	tests := []struct {
		kind string
		raw  string
		want string
	}{
		{"message", `{"update_id":5,"message":{"message_id":1,"chat":{"id":-100},"from":{"id":7},"text":"/join"}}`, "0:-100"},
		{"edited_message", `{"update_id":5,"edited_message":{"message_id":1,"chat":{"id":-100},"from":{"id":7}}}`, "0:-100"},
		{"callback_query", `{"update_id":5,"callback_query":{"id":"1","from":{"id":7},"message":{"chat":{"id":-100}}}}`, "3:7"},
		{"my_chat_member", `{"update_id":5,"my_chat_member":{"chat":{"id":-100},"from":{"id":7},"old_chat_member":{"user":{"id":9}}}}`, "5:-100"},
		{"chat_member", `{"update_id":5,"chat_member":{"chat":{"id":-100},"from":{"id":7},"old_chat_member":{"user":{"id":9}}}}`, "6:9"},
		{"chat_join_request", `{"update_id":5,"chat_join_request":{"chat":{"id":-100},"from":{"id":9}}}`, "6:9"},
		{"message_reaction", `{"update_id":5,"message_reaction":{"chat":{"id":-100},"user":{"id":7}}}`, "8:-100"},
		{"business_connection", `{"update_id":5,"business_connection":{"id":"b","user":{"id":7}}}`, "10:7"},
		{"poll_answer", `{"update_id":5,"poll_answer":{"poll_id":"42","user":{"id":7}}}`, `13:"42"`},
		{"message", `{"update_id":5,"message":{"message_id":1,"text":"no chat"}}`, "update:5"},
		{"callback_query", `{"update_id":5,"callback_query":{"id":"1","from":null}}`, "update:5"},
		{"message", `not json`, "update:5"},
	}
	for _, tt := range tests {
		t.Run(tt.kind+" "+tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, webhookQueue(queuedUpdate{id: 5, kind: tt.kind, raw: []byte(tt.raw)}))
		})
	}
}
