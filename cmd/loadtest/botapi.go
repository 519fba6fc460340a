package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// sendAsBot sends a message with one inline button into a chat through the
// server's Bot API, as the bot would, and returns its id.
func sendAsBot(srv *telegramtest.Server, chat int64, text, data string) (int, error) {
	markup, err := json.Marshal(map[string]any{
		"inline_keyboard": [][]map[string]string{{{"text": text, "callback_data": data}}},
	})
	if err != nil {
		return 0, err
	}
	resp, err := srv.Client().PostForm(fmt.Sprintf(srv.Endpoint(), srv.Token(), "sendMessage"), url.Values{
		"chat_id":      {strconv.FormatInt(chat, 10)},
		"text":         {text},
		"reply_markup": {string(markup)},
	})
	if err != nil {
		return 0, fmt.Errorf("sendMessage: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		OK     bool `json:"ok"`
		Result struct {
			MessageID int `json:"message_id"`
		} `json:"result"`
		Description string `json:"description"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return 0, fmt.Errorf("sendMessage: %w", err)
	}
	if !out.OK || resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("sendMessage: %s", out.Description)
	}
	return out.Result.MessageID, nil
}
