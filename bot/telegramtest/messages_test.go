package telegramtest_test

import (
	"net/url"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func TestSendMessageWithKeyboardIsStoredAndReturned(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)

	msg := tgbotapi.NewMessage(chat.ID, "<b>Dealer</b> shows 10 &amp; waits")
	msg.ParseMode = tgbotapi.ModeHTML
	msg.ReplyMarkup = keyboard("Hit", "hit:1", "Stand", "stand:1")
	sent, err := api.Send(msg)
	require.NoError(t, err)

	assert.Equal(t, "Dealer shows 10 & waits", sent.Text)
	assert.Equal(t, []tgbotapi.MessageEntity{{Type: "bold", Offset: 0, Length: 6}}, sent.Entities)
	require.NotNil(t, sent.ReplyMarkup)
	assert.Equal(t, "hit:1", *sent.ReplyMarkup.InlineKeyboard[0][0].CallbackData)
	assert.Equal(t, api.Self.ID, sent.From.ID)
	assert.Equal(t, "group", sent.Chat.Type)

	stored, ok := srv.LastBotMessage(chat.ID)
	require.True(t, ok)
	assert.Equal(t, sent.MessageID, stored.MessageID)
	assert.Equal(t, "Dealer shows 10 & waits", stored.Text)
	assert.Equal(t, []string{"Hit", "Stand"}, stored.Labels())
	assert.True(t, stored.FromBot)
	assert.Zero(t, stored.EditCount)
}

func TestEditsApplyAndKeyboardDisappearsWithoutReplyMarkup(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	m := tgbotapi.NewMessage(chat.ID, "Your turn")
	m.ReplyMarkup = keyboard("Hit", "hit")
	sent, err := api.Send(m)
	require.NoError(t, err)

	edit := tgbotapi.NewEditMessageTextAndMarkup(chat.ID, sent.MessageID, "Your turn (17)", keyboard("Hit", "hit", "Stand", "stand"))
	edited, err := api.Send(edit)
	require.NoError(t, err)
	assert.Equal(t, "Your turn (17)", edited.Text)
	assert.NotZero(t, edited.EditDate)

	// Like Telegram, an editMessageText without reply_markup removes the keyboard.
	_, err = api.Send(tgbotapi.NewEditMessageText(chat.ID, sent.MessageID, "Busted"))
	require.NoError(t, err)
	stored, ok := srv.Message(chat.ID, sent.MessageID)
	require.True(t, ok)
	assert.Equal(t, "Busted", stored.Text)
	assert.Nil(t, stored.ReplyMarkup)
	assert.Equal(t, 2, stored.EditCount)

	_, err = api.Request(tgbotapi.NewDeleteMessage(chat.ID, sent.MessageID))
	require.NoError(t, err)
	_, ok = srv.Message(chat.ID, sent.MessageID)
	assert.False(t, ok, "deleted messages are gone")
}

func TestSendAndEditErrorsMatchTelegram(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	userMsg, err := srv.SendText(chat.ID, alice.ID, "hello")
	require.NoError(t, err)
	base := tgbotapi.NewMessage(chat.ID, "Your turn")
	base.ReplyMarkup = keyboard("Hit", "hit")
	botMsg, err := api.Send(base)
	require.NoError(t, err)

	longData := strings.Repeat("x", 65)
	tests := []struct {
		name     string
		req      tgbotapi.Chattable
		wantCode int
		wantDesc string
	}{
		{"empty text", tgbotapi.NewMessage(chat.ID, ""), 400, "Bad Request: message text is empty"},
		{"text over 4096", tgbotapi.NewMessage(chat.ID, strings.Repeat("a", 4097)), 400, "Bad Request: message is too long"},
		{"4096 UTF-16 units counted after parsing", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "<b>"+strings.Repeat("😀", 2049)+"</b>")
			m.ParseMode = tgbotapi.ModeHTML
			return m
		}(), 400, "Bad Request: message is too long"},
		{"unknown chat", tgbotapi.NewMessage(-999, "hi"), 400, "Bad Request: chat not found"},
		{"unknown HTML tag", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "a <marquee>b</marquee>")
			m.ParseMode = tgbotapi.ModeHTML
			return m
		}(), 400, `Bad Request: can't parse entities: Unsupported start tag "marquee" at byte offset 2`},
		{"unclosed HTML tag", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "<b>bold")
			m.ParseMode = tgbotapi.ModeHTML
			return m
		}(), 400, "Bad Request: can't parse entities: Can't find end tag corresponding to start tag b"},
		{"MarkdownV2 is not modelled", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "*21*")
			m.ParseMode = tgbotapi.ModeMarkdownV2
			return m
		}(), 400, "Bad Request: parse_mode MarkdownV2 is not modelled by telegramtest"},
		{"entities are not modelled", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "21")
			m.Entities = []tgbotapi.MessageEntity{{Type: "bold", Offset: 0, Length: 2}}
			return m
		}(), 400, "Bad Request: the entities parameter is not modelled by telegramtest"},
		{"unknown parse_mode", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "21")
			m.ParseMode = "BBCode"
			return m
		}(), 400, "Bad Request: unsupported parse_mode"},
		{"callback data over 64 bytes", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "x")
			m.ReplyMarkup = keyboard("Hit", longData)
			return m
		}(), 400, "Bad Request: BUTTON_DATA_INVALID"},
		{"button without action", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "x")
			m.ReplyMarkup = tgbotapi.NewInlineKeyboardMarkup([]tgbotapi.InlineKeyboardButton{{Text: "Hit"}})
			return m
		}(), 400, "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"},
		{"login buttons are not modelled", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "x")
			m.ReplyMarkup = tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
				tgbotapi.NewInlineKeyboardButtonLoginURL("Log in", tgbotapi.LoginURL{URL: "https://example.com"})))
			return m
		}(), 400, "Bad Request: inline keyboard button with login_url is not modelled by telegramtest"},
		{"URL button of another scheme", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "x")
			m.ReplyMarkup = tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonURL("Rules", "ftp://example.com")))
			return m
		}(), 400, "Bad Request: inline keyboard button URL 'ftp://example.com' is invalid: Unsupported URL protocol"},
		{"reply keyboards are not modelled", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "x")
			m.ReplyMarkup = tgbotapi.NewReplyKeyboard(tgbotapi.NewKeyboardButtonRow(tgbotapi.NewKeyboardButton("Hit")))
			return m
		}(), 400, "Bad Request: reply_markup with keyboard is not modelled by telegramtest"},
		{"reply to a missing message", func() tgbotapi.Chattable {
			m := tgbotapi.NewMessage(chat.ID, "x")
			m.ReplyToMessageID = 9999
			return m
		}(), 400, "Bad Request: message to be replied not found"},
		{"edit to the same content", tgbotapi.NewEditMessageTextAndMarkup(chat.ID, botMsg.MessageID, "Your turn", keyboard("Hit", "hit")),
			400, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"},
		{"edit a missing message", tgbotapi.NewEditMessageText(chat.ID, 9999, "x"), 400, "Bad Request: message to edit not found"},
		{"edit a user's message", tgbotapi.NewEditMessageText(chat.ID, userMsg.MessageID, "x"), 400, "Bad Request: message can't be edited"},
		{"edit to empty text", tgbotapi.NewEditMessageText(chat.ID, botMsg.MessageID, ""), 400, "Bad Request: message text is empty"},
		{"delete a missing message", tgbotapi.NewDeleteMessage(chat.ID, 9999), 400, "Bad Request: message to delete not found"},
		{"delete a user's message without admin rights", tgbotapi.NewDeleteMessage(chat.ID, userMsg.MessageID), 400, "Bad Request: message can't be deleted for everyone"},
		{"answer to an unknown query", tgbotapi.NewCallback("123", "ok"), 400, "Bad Request: query is too old and response timeout expired or query ID is invalid"},
		{"a URL answer to an unknown query", tgbotapi.CallbackConfig{CallbackQueryID: "123", URL: "https://t.me/telegramtest_bot?start=21"},
			400, "Bad Request: query is too old and response timeout expired or query ID is invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(srv.Messages(chat.ID))
			_, err := api.Request(tt.req)
			apiErr := asAPIError(t, err)
			assert.Equal(t, tt.wantCode, apiErr.Code)
			assert.Equal(t, tt.wantDesc, apiErr.Message)
			assert.Len(t, srv.Messages(chat.ID), before, "a failed request changes nothing")
		})
	}
	stored, ok := srv.Message(chat.ID, botMsg.MessageID)
	require.True(t, ok)
	assert.Equal(t, "Your turn", stored.Text)
	assert.Zero(t, stored.EditCount)
}

func TestTextIsTrimmedAndEntitiesAreDetected(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)
	sent, err := api.Send(tgbotapi.NewMessage(chat.ID, "  \nType /hit or /stand@"+api.Self.UserName+", see https://example.com/rules #blackjack \n"))
	require.NoError(t, err)
	assert.Equal(t, "Type /hit or /stand@"+api.Self.UserName+", see https://example.com/rules #blackjack", sent.Text)
	var types []string
	for _, e := range sent.Entities {
		types = append(types, e.Type)
	}
	assert.Equal(t, []string{"bot_command", "bot_command", "url", "hashtag"}, types)
	assert.Equal(t, 5, sent.Entities[0].Offset)
	assert.Equal(t, 4, sent.Entities[0].Length)
}

func TestRawErrorShapeCarriesParametersOnlyWhenRelevant(t *testing.T) {
	srv := telegramtest.StartTest(t)
	resp := call(t, srv, "sendMessage", url.Values{"chat_id": {"-1"}, "text": {"x"}})
	assert.Equal(t, 400, resp.Status)
	assert.False(t, resp.OK)
	assert.Equal(t, 400, resp.ErrorCode)
	assert.Equal(t, "Bad Request: chat not found", resp.Description)
	assert.Nil(t, resp.Parameters)

	resp = call(t, srv, "sendMessage", url.Values{"text": {"x"}})
	assert.Equal(t, "Bad Request: chat_id is empty", resp.Description)
}

func TestReturnedMessagesAreCopies(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	m := tgbotapi.NewMessage(chat.ID, "<b>Hit</b> or stand")
	m.ParseMode = tgbotapi.ModeHTML
	m.ReplyMarkup = keyboard("Hit", "hit")
	_, err := api.Send(m)
	require.NoError(t, err)

	got, ok := srv.LastBotMessage(chat.ID)
	require.True(t, ok)
	got.ReplyMarkup.InlineKeyboard[0][0].Text = "Tampered"
	got.Entities[0].Type = "italic"
	got.From.FirstName = "Mallory"

	again, ok := srv.LastBotMessage(chat.ID)
	require.True(t, ok)
	assert.Equal(t, []string{"Hit"}, again.Labels())
	assert.Equal(t, "bold", again.Entities[0].Type)
	assert.Equal(t, api.Self.FirstName, again.From.FirstName)
}

// TestUserDeletesMessage: a user deletes their own message, an admin any;
// the bot hears nothing of it, and its edit of a deleted message fails as
// on Telegram.
func TestUserDeletesMessage(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	chat := srv.NewGroup("Table", alice, bob)
	sent, err := api.Send(tgbotapi.NewMessage(chat.ID, "Lobby"))
	require.NoError(t, err)
	mine, err := srv.SendText(chat.ID, bob.ID, "mine")
	require.NoError(t, err)

	assert.ErrorIs(t, srv.DeleteMessage(chat.ID, bob.ID, sent.MessageID), telegramtest.ErrInvalid, "a member, another's message")
	require.NoError(t, srv.DeleteMessage(chat.ID, bob.ID, mine.MessageID))
	require.NoError(t, srv.DeleteMessage(chat.ID, alice.ID, sent.MessageID), "the creator")
	assert.ErrorIs(t, srv.DeleteMessage(chat.ID, alice.ID, sent.MessageID), telegramtest.ErrMessageNotFound)
	assert.Empty(t, srv.Messages(chat.ID))
	assert.Zero(t, srv.PendingUpdates(), "no update tells the bot")

	_, err = api.Send(tgbotapi.NewEditMessageText(chat.ID, sent.MessageID, "Lobby, again"))
	assert.Equal(t, "Bad Request: message to edit not found", asAPIError(t, err).Message)
}
