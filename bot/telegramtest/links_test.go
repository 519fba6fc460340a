package telegramtest_test

import (
	"encoding/json"
	"net/url"
	"strconv"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestURLButtons: a URL button is kept with its url and no callback_data,
// as the Bot API writes it, and pressing it sends the bot nothing.
func TestURLButtons(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	m := tgbotapi.NewMessage(chat.ID, "Start me in private")
	m.ReplyMarkup = tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonURL("Open", "https://t.me/telegramtest_bot?start=notify_42"),
		tgbotapi.NewInlineKeyboardButtonData("Hit", "h:1")))
	sent, err := api.Send(m)
	require.NoError(t, err)

	got, ok := srv.Message(chat.ID, sent.MessageID)
	require.True(t, ok)
	assert.Equal(t, []telegramtest.InlineKeyboardButton{
		{Text: "Open", URL: "https://t.me/telegramtest_bot?start=notify_42"},
		{Text: "Hit", CallbackData: "h:1"},
	}, got.Buttons())
	raw, err := json.Marshal(got.ReplyMarkup)
	require.NoError(t, err)
	assert.JSONEq(t, `{"inline_keyboard":[[{"text":"Open","url":"https://t.me/telegramtest_bot?start=notify_42"},{"text":"Hit","callback_data":"h:1"}]]}`, string(raw))

	_, err = srv.Press(telegramtest.Press{ChatID: chat.ID, From: alice.ID, MessageID: sent.MessageID, Label: "Open"})
	assert.ErrorIs(t, err, telegramtest.ErrButtonNotFound, "a URL button opens its link: no callback query")
	_, err = srv.PressButton(chat.ID, alice.ID, "Open")
	assert.ErrorIs(t, err, telegramtest.ErrButtonNotFound)
}

// TestOpenLinkStartsTheBot: the bot's deep link opens the user's private
// chat with the bot and sends "/start PARAMETER" there (a bare "/start"
// when the parameter is not valid), unblocking a bot the user blocked;
// after it the bot may write to the user.
func TestOpenLinkStartsTheBot(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	_, err := api.Send(tgbotapi.NewMessage(alice.ID, "hi"))
	require.Equal(t, "Forbidden: bot can't initiate conversation with a user", asAPIError(t, err).Message)

	m, err := srv.OpenLink(alice.ID, "https://t.me/telegramtest_bot?start=notify_42")
	require.NoError(t, err)
	assert.Equal(t, "/start notify_42", m.Text)
	assert.Equal(t, alice.ID, m.Chat.ID)
	assert.Equal(t, telegramtest.ChatPrivate, m.Chat.Type)
	require.Len(t, m.Entities, 1)
	assert.Equal(t, telegramtest.MessageEntity{Type: "bot_command", Offset: 0, Length: 6}, m.Entities[0])
	_, err = api.Send(tgbotapi.NewMessage(alice.ID, "hi"))
	require.NoError(t, err, "started: the bot may write")

	require.NoError(t, srv.BlockBot(alice.ID, true))
	m, err = srv.OpenLink(alice.ID, "https://telegram.me/TelegramTest_Bot?start="+url.QueryEscape("bad param!"))
	require.NoError(t, err)
	assert.Equal(t, "/start", m.Text, "an invalid parameter is dropped")
	_, err = api.Send(tgbotapi.NewMessage(alice.ID, "hi"))
	require.NoError(t, err, "Start unblocks the bot")

	raw := rawUpdates(t, srv, 0)
	var kinds []string
	for _, u := range raw {
		for k := range u {
			if k != "update_id" {
				kinds = append(kinds, k)
			}
		}
	}
	assert.Equal(t, []string{"message", "my_chat_member", "my_chat_member", "message"}, kinds,
		"the start, the block, the unblock, the start")

	for _, link := range []string{"https://t.me/other_bot?start=x", "https://example.com/telegramtest_bot?start=x", "tg://resolve?domain=x"} {
		_, err := srv.OpenLink(alice.ID, link)
		assert.ErrorIs(t, err, telegramtest.ErrInvalid, link)
	}

	// A deleted account takes no message, blocked or not.
	require.NoError(t, srv.DeleteAccount(alice.ID))
	_, err = api.Send(tgbotapi.NewMessage(alice.ID, "hi"))
	assert.Equal(t, "Forbidden: user is deactivated", asAPIError(t, err).Message)
	_, err = srv.OpenLink(alice.ID, "https://t.me/telegramtest_bot?start=x")
	assert.ErrorIs(t, err, telegramtest.ErrUserNotFound, "a deleted user acts no more")
}

// TestGetChat: getChat answers with the chat's title and type; it needs
// only read access: a basic group the bot left still answers, a
// supergroup it left does not.
func TestGetChat(t *testing.T) {
	srv, _ := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	group := srv.NewGroup("Game night", alice)
	super := srv.NewSupergroup("Casino", alice)

	type chatInfo struct {
		ID               int64  `json:"id"`
		Type             string `json:"type"`
		Title            string `json:"title"`
		MaxReactionCount int    `json:"max_reaction_count"`
	}
	get := func(id int64) (chatInfo, rawResponse) {
		resp := call(t, srv, "getChat", url.Values{"chat_id": {strconv.FormatInt(id, 10)}})
		var c chatInfo
		if resp.OK {
			require.NoError(t, json.Unmarshal(resp.Result, &c))
		}
		return c, resp
	}
	c, resp := get(group.ID)
	require.True(t, resp.OK, resp.Description)
	assert.Equal(t, chatInfo{ID: group.ID, Type: "group", Title: "Game night", MaxReactionCount: 11}, c)

	require.NoError(t, srv.RemoveBot(group.ID, alice.ID))
	require.NoError(t, srv.RemoveBot(super.ID, alice.ID))
	c, resp = get(group.ID)
	require.True(t, resp.OK, resp.Description)
	assert.Equal(t, "Game night", c.Title)
	_, resp = get(super.ID)
	assert.Equal(t, 403, resp.ErrorCode)
	assert.Equal(t, "Forbidden: bot is not a member of the supergroup chat", resp.Description)
	_, resp = get(-999)
	assert.Equal(t, "Bad Request: chat not found", resp.Description)
}
