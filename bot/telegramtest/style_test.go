package telegramtest_test

import (
	"encoding/json"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestButtonStyles: a button's style (Bot API 9.4) is primary, success or
// danger, in any case, or default (none); any other is refused as the
// official server refuses it (Client::get_button_style), and the message
// answered carries the style in lower case.
func TestButtonStyles(t *testing.T) {
	srv, api := start(t)
	chat := srv.NewGroup("Table", srv.AddUser(telegramtest.User{FirstName: "Alice"}))
	tests := []struct {
		style, want, err string
	}{
		{"primary", "primary", ""},
		{"Success", "success", ""},
		{"DANGER", "danger", ""},
		{"default", "", ""},
		{"", "", ""},
		{"red", "", "Bad Request: can't parse inline keyboard button: invalid button style specified"},
		{"secondary", "", "Bad Request: can't parse inline keyboard button: invalid button style specified"},
	}
	for _, tt := range tests {
		t.Run(tt.style, func(t *testing.T) {
			p := tgbotapi.Params{}
			p.AddNonZero64("chat_id", chat.ID)
			p["text"] = "Your move"
			p["reply_markup"] = `{"inline_keyboard":[[{"text":"Hit","callback_data":"h:1","style":"` + tt.style + `"}]]}`
			resp, err := api.MakeRequest("sendMessage", p)
			if tt.err != "" {
				assert.Equal(t, tt.err, asAPIError(t, err).Message)
				return
			}
			require.NoError(t, err)
			var sent struct {
				MessageID   int `json:"message_id"`
				ReplyMarkup struct {
					InlineKeyboard [][]map[string]any `json:"inline_keyboard"`
				} `json:"reply_markup"`
			}
			require.NoError(t, json.Unmarshal(resp.Result, &sent))
			got, _ := sent.ReplyMarkup.InlineKeyboard[0][0]["style"].(string)
			assert.Equal(t, tt.want, got)
			stored, ok := srv.Message(chat.ID, sent.MessageID)
			require.True(t, ok)
			assert.Equal(t, tt.want, stored.ReplyMarkup.InlineKeyboard[0][0].Style)
		})
	}
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat.ID)
	p["text"] = "x"
	p["reply_markup"] = `{"inline_keyboard":[[{"text":"Hit","callback_data":"h:1","style":7}]]}`
	_, err := api.MakeRequest("sendMessage", p)
	assert.Equal(t, `Bad Request: can't parse inline keyboard button: Field "style" must be of type String`, asAPIError(t, err).Message)
}
