package telegramtest_test

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestAnswerCallbackQueryURL: an answer may carry the bot's deep link,
// t.me/<bot>?start=…, for any callback button (here a message's and an
// ephemeral message's); the server records it, and the presser's
// client follows it (OpenLink): "/start PARAM" in their private chat with
// the bot. Any other url is refused as Telegram refuses it, URL_INVALID,
// and the press stays unanswered.
func TestAnswerCallbackQueryURL(t *testing.T) {
	srv := telegramtest.StartTest(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	group := srv.NewGroup("Table", alice)
	message := postKeyboard(t, srv, group.ID)
	const invalid = "Bad Request: URL_INVALID"
	tests := []struct {
		name, url, want string
	}{
		{"the bot's deep link", "https://t.me/telegramtest_bot?start=verify_12", ""},
		{"on telegram.me, the name in another case", "http://telegram.me/TelegramTest_Bot?start=verify_12", ""},
		{"without a scheme, as the docs write it", "t.me/telegramtest_bot?start=verify_12", ""},
		{"no start parameter", "https://t.me/telegramtest_bot", invalid},
		{"a start parameter of other characters", "https://t.me/telegramtest_bot?start=a+b", invalid},
		{"another bot's", "https://t.me/other_bot?start=verify_12", invalid},
		{"a web page", "https://example.com/verify", invalid},
		{"a tg link", "tg://resolve?domain=telegramtest_bot&start=verify_12", invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cb, err := srv.Press(telegramtest.Press{ChatID: group.ID, From: alice.ID, MessageID: message, Label: "Go"})
			require.NoError(t, err)
			resp := call(t, srv, "answerCallbackQuery", url.Values{"callback_query_id": {cb.ID()}, "url": {tt.url}})
			if tt.want != "" {
				assert.Equal(t, tt.want, resp.Description)
				_, answered := cb.Answer()
				assert.False(t, answered)
				return
			}
			require.True(t, resp.OK, resp.Description)
			answer, err := cb.Wait(deadline(t))
			require.NoError(t, err)
			assert.Equal(t, tt.url, answer.URL)
			started, err := srv.OpenLink(alice.ID, answer.URL)
			require.NoError(t, err)
			assert.Equal(t, "/start verify_12", started.Text)
			assert.Equal(t, alice.ID, started.Chat.ID)
		})
	}

	t.Run("a press on an ephemeral message", func(t *testing.T) {
		first, err := srv.Press(telegramtest.Press{ChatID: group.ID, From: alice.ID, MessageID: message, Label: "Go"})
		require.NoError(t, err)
		panel := sentMessage(t, sendEphemeral(t, srv, group.ID, receiver(alice.ID, `,"callback_query_id":"`+first.ID()+`"`),
			"reply_markup", `{"inline_keyboard":[[{"text":"Deck","callback_data":"deck"}]]}`))
		cb, err := srv.Press(telegramtest.Press{ChatID: group.ID, From: alice.ID,
			EphemeralMessageID: int(panel["ephemeral_message_id"].(float64)), Label: "Deck"})
		require.NoError(t, err)
		resp := call(t, srv, "answerCallbackQuery", url.Values{"callback_query_id": {cb.ID()}, "url": {"https://t.me/telegramtest_bot?start=deck_7"}})
		require.True(t, resp.OK, resp.Description)
		answer, _ := cb.Answer()
		assert.Equal(t, "https://t.me/telegramtest_bot?start=deck_7", answer.URL)
	})
}
