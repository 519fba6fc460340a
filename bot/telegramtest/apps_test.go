package telegramtest_test

import (
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
)

// appStart is the server clock of the apps' tests, whole seconds.
var appStart = time.Date(2026, 12, 6, 7, 0, 0, 0, time.UTC)

// launchParams splits a launch's page URL into the page (without its
// fragment) and the fragment's launch parameters.
func launchParams(t *testing.T, l telegramtest.Launch) (*url.URL, url.Values) {
	t.Helper()
	u, err := url.Parse(l.URL)
	require.NoError(t, err)
	params, err := url.ParseQuery(u.EscapedFragment())
	require.NoError(t, err)
	u.Fragment, u.RawFragment = "", ""
	return u, params
}

// validInitData checks the launch's initData with the bot's token as the
// app's server does and returns what it says.
func validInitData(t *testing.T, srv *telegramtest.Server, l telegramtest.Launch) initdata.Data {
	t.Helper()
	_, params := launchParams(t, l)
	require.Equal(t, l.InitData, params.Get("tgWebAppData"), "the fragment carries the initData")
	d, err := initdata.NewSecret(srv.Token()).Validate(params.Get("tgWebAppData"), appStart, time.Minute)
	require.NoError(t, err)
	_, err = initdata.NewSecret("1:another-token").Validate(l.InitData, appStart, time.Minute)
	assert.ErrorIs(t, err, initdata.ErrBadHash, "signed with the bot's token, no other")
	return d
}

// TestAppDirectLink: a user who taps a URL button with the direct link to
// one of the bot's apps, in a group, a supergroup, the bot's private chat
// or a chat between users, loads the app's page with tgWebAppStartParam in
// its query and the launch parameters in its fragment; the initData
// validates with the bot's token and names the user, the start parameter,
// the chat's type as the docs list them and the chat's chat_instance.
func TestAppDirectLink(t *testing.T) {
	srv, api := start(t, telegramtest.WithClock(telegramtest.NewManualClock(appStart)))
	require.NoError(t, srv.RegisterApp("table", "https://app.example/play?v=1#old"))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice", LastName: "A & B", Username: "alice", LanguageCode: "ru"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	group := srv.NewGroup("Table", alice, bob)
	super := srv.NewSupergroup("Big table", alice, bob)
	private := srv.PrivateChat(alice)
	duo, err := srv.NewUserChat(alice, bob)
	require.NoError(t, err)
	_, err = srv.SendCommand(private.ID, alice.ID, "start")
	require.NoError(t, err)

	link := "https://t.me/telegramtest_bot/table?startapp=AbC_-09"
	tests := []struct {
		name     string
		chat     telegramtest.Chat
		button   bool // a URL button of the bot's message, else a link tapped (OpenAppLink)
		link     string
		wantType string
		param    string
	}{
		{"a group's button", group, true, link, "group", "AbC_-09"},
		{"a supergroup's button", super, true, link, "supergroup", "AbC_-09"},
		{"the bot's private chat", private, true, link, "sender", "AbC_-09"},
		{"a chat between users", duo, false, link, "private", "AbC_-09"},
		{"names in any case, telegram.me, no startapp", group, false, "http://telegram.me/TelegramTest_Bot/TABLE", "group", ""},
		{"an empty startapp", group, false, "https://t.me/telegramtest_bot/table?startapp=", "group", ""},
		{"the longest startapp", group, false, "https://t.me/telegramtest_bot/table?startapp=" + strings.Repeat("x", 512), "group", strings.Repeat("x", 512)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l telegramtest.Launch
			if tt.button {
				m := tgbotapi.NewMessage(tt.chat.ID, "The table")
				m.ReplyMarkup = tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
					tgbotapi.NewInlineKeyboardButtonURL("Open the table", tt.link),
					tgbotapi.NewInlineKeyboardButtonData("Hit", "h:1")))
				_, err := api.Send(m)
				require.NoError(t, err)
				l, err = srv.OpenApp(telegramtest.Press{ChatID: tt.chat.ID, From: alice.ID, Label: "Open the table"})
				require.NoError(t, err)
			} else {
				l, err = srv.OpenAppLink(tt.chat.ID, alice.ID, tt.link)
				require.NoError(t, err)
			}
			page, params := launchParams(t, l)
			assert.Equal(t, "https://app.example/play", page.Scheme+"://"+page.Host+page.Path)
			assert.Equal(t, "1", page.Query().Get("v"), "the app's own query kept")
			assert.Equal(t, tt.param, page.Query().Get("tgWebAppStartParam"))
			assert.Equal(t, tt.param != "", page.Query().Has("tgWebAppStartParam"), "only with a parameter")
			assert.Equal(t, telegramtest.AppVersion, params.Get("tgWebAppVersion"))
			assert.Equal(t, telegramtest.AppPlatform, params.Get("tgWebAppPlatform"))
			var theme map[string]string
			require.NoError(t, json.Unmarshal([]byte(params.Get("tgWebAppThemeParams")), &theme))
			assert.Equal(t, "#ffffff", theme["bg_color"])

			d := validInitData(t, srv, l)
			assert.Equal(t, initdata.User{ID: alice.ID, FirstName: "Alice", LastName: "A & B", Username: "alice", LanguageCode: "ru"}, d.User)
			assert.True(t, d.AuthDate.Equal(appStart), "auth_date is the server's clock: %v", d.AuthDate)
			assert.Equal(t, tt.param, d.StartParam)
			assert.Equal(t, tt.wantType, d.ChatType)
			instance, ok := srv.ChatInstance(tt.chat.ID)
			require.True(t, ok)
			assert.Equal(t, instance, d.ChatInstance, "the chat's chat_instance")
			assert.Empty(t, d.QueryID, "no query_id from a direct link")
			d.Hash = ""
			assert.Equal(t, l.Data, d, "Launch.Data says what the initData says")
		})
	}
}

// sendRaw sends text with a raw reply_markup, for the buttons tgbotapi
// v5.5.1 does not know (web_app).
func sendRaw(t *testing.T, srv *telegramtest.Server, chatID int64, markup string) rawResponse {
	t.Helper()
	return call(t, srv, "sendMessage", url.Values{"chat_id": {itoa64(chatID)}, "text": {"The table"}, "reply_markup": {markup}})
}

// TestAppWebAppButton: a web_app button in the bot's private chat opens
// its URL with the launch parameters in the fragment; its initData names
// the user and a query_id, and no chat nor start parameter (the docs give
// chat_type and chat_instance to direct links only).
func TestAppWebAppButton(t *testing.T) {
	srv, _ := start(t, telegramtest.WithClock(telegramtest.NewManualClock(appStart)))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice", LanguageCode: "en"})
	private := srv.PrivateChat(alice)
	_, err := srv.SendCommand(private.ID, alice.ID, "start")
	require.NoError(t, err)

	resp := sendRaw(t, srv, private.ID, `{"inline_keyboard":[[{"text":"Play","web_app":{"url":"https://app.example/solo?x=1"}}]]}`)
	require.True(t, resp.OK, resp.Description)
	var sent map[string]any
	require.NoError(t, json.Unmarshal(resp.Result, &sent))
	assert.Contains(t, string(resp.Result), `"web_app":{"url":"https://app.example/solo?x=1"}`, "the button as the Bot API writes it")

	first, err := srv.OpenApp(telegramtest.Press{ChatID: private.ID, From: alice.ID, Label: "Play"})
	require.NoError(t, err)
	page, params := launchParams(t, first)
	assert.Equal(t, "https://app.example/solo?x=1", page.String())
	assert.Equal(t, telegramtest.AppVersion, params.Get("tgWebAppVersion"))
	d := validInitData(t, srv, first)
	assert.Equal(t, alice.ID, d.User.ID)
	assert.Equal(t, "en", d.User.LanguageCode)
	assert.NotEmpty(t, d.QueryID)
	assert.Empty(t, d.ChatType)
	assert.Empty(t, d.ChatInstance)
	assert.Empty(t, d.StartParam)

	again, err := srv.OpenApp(telegramtest.Press{ChatID: private.ID, From: alice.ID, MessageID: int(sent["message_id"].(float64)), Label: "Play"})
	require.NoError(t, err)
	assert.NotEqual(t, d.QueryID, validInitData(t, srv, again).QueryID, "a query_id per launch")
}

// TestAppRefusals: what Telegram refuses is refused, and changes nothing.
func TestAppRefusals(t *testing.T) {
	srv, api := start(t, telegramtest.WithClock(telegramtest.NewManualClock(appStart)))
	require.NoError(t, srv.RegisterApp("table", "https://app.example/"))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	carol := srv.AddUser(telegramtest.User{FirstName: "Carol"})
	group := srv.NewGroup("Table", alice)
	super := srv.NewSupergroup("Big table", alice)
	private := srv.PrivateChat(alice)
	_, err := srv.SendCommand(private.ID, alice.ID, "start")
	require.NoError(t, err)

	t.Run("registering", func(t *testing.T) {
		for _, tt := range []struct{ name, url string }{
			{"ab", "https://app.example/"},
			{"a-b", "https://app.example/"},
			{strings.Repeat("a", 31), "https://app.example/"},
			{"plain", "http://app.example/"},
			{"nohost", "https:///path"},
			{"TABLE", "https://other.example/"}, // taken, in another case
		} {
			assert.ErrorIs(t, srv.RegisterApp(tt.name, tt.url), telegramtest.ErrInvalid, tt.name)
		}
		l, err := srv.OpenAppLink(group.ID, alice.ID, "https://t.me/telegramtest_bot/table")
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(l.URL, "https://app.example/#"), "the first registration kept: %s", l.URL)
	})

	t.Run("links", func(t *testing.T) {
		for _, tt := range []struct {
			name, link string
			from       int64
			want       error
		}{
			{"an unknown app", "https://t.me/telegramtest_bot/poker?startapp=x", alice.ID, telegramtest.ErrInvalid},
			{"another bot's app", "https://t.me/other_bot/table", alice.ID, telegramtest.ErrInvalid},
			{"the bot's deep link", "https://t.me/telegramtest_bot?start=x", alice.ID, telegramtest.ErrInvalid},
			{"another host", "https://example.com/telegramtest_bot/table", alice.ID, telegramtest.ErrInvalid},
			{"a dot in startapp", "https://t.me/telegramtest_bot/table?startapp=a.b", alice.ID, telegramtest.ErrInvalid},
			{"a space in startapp", "https://t.me/telegramtest_bot/table?startapp=a%20b", alice.ID, telegramtest.ErrInvalid},
			{"startapp too long", "https://t.me/telegramtest_bot/table?startapp=" + strings.Repeat("x", 513), alice.ID, telegramtest.ErrInvalid},
			{"a user not in the chat", "https://t.me/telegramtest_bot/table", carol.ID, telegramtest.ErrNotMember},
		} {
			_, err := srv.OpenAppLink(group.ID, tt.from, tt.link)
			assert.ErrorIs(t, err, tt.want, tt.name)
		}
	})

	t.Run("web_app buttons outside the bot's private chat", func(t *testing.T) {
		webApp := `{"inline_keyboard":[[{"text":"Play","web_app":{"url":"https://app.example/"}}]]}`
		for _, chat := range []telegramtest.Chat{group, super} {
			before := len(srv.Messages(chat.ID))
			resp := sendRaw(t, srv, chat.ID, webApp)
			assert.False(t, resp.OK)
			assert.Equal(t, 400, resp.ErrorCode)
			assert.Equal(t, "Bad Request: BUTTON_TYPE_INVALID", resp.Description)
			assert.Len(t, srv.Messages(chat.ID), before, "nothing sent")
		}

		club, err := srv.AddChat(telegramtest.ChatSpec{Type: telegramtest.ChatSupergroup, Title: "Club",
			Members: []int64{alice.ID}, BotStatus: telegramtest.StatusAdministrator})
		require.NoError(t, err)
		resp := call(t, srv, "sendMessage", url.Values{"chat_id": {itoa64(club.ID)}, "text": {"Only you"},
			"ephemeral_message_parameters": {`{"receiver_user_id":` + itoa64(alice.ID) + `}`}, "reply_markup": {webApp}})
		assert.Equal(t, "Bad Request: BUTTON_TYPE_INVALID", resp.Description, "an ephemeral message is in a group")

		sent, err := api.Send(tgbotapi.NewMessage(group.ID, "The table"))
		require.NoError(t, err)
		resp = call(t, srv, "editMessageReplyMarkup", url.Values{"chat_id": {itoa64(group.ID)},
			"message_id": {itoa(sent.MessageID)}, "reply_markup": {webApp}})
		assert.Equal(t, "Bad Request: BUTTON_TYPE_INVALID", resp.Description)
		got, ok := srv.Message(group.ID, sent.MessageID)
		require.True(t, ok)
		assert.Nil(t, got.ReplyMarkup, "the keyboard unchanged")
	})

	t.Run("web_app buttons the official server refuses", func(t *testing.T) {
		for _, tt := range []struct{ markup, want string }{
			{`{"inline_keyboard":[[{"text":"Play","web_app":{"url":"http://app.example/"}}]]}`,
				"Bad Request: inline keyboard button Web App URL 'http://app.example/' is invalid: Only HTTPS links are allowed"},
			{`{"inline_keyboard":[[{"text":"Play","web_app":"https://app.example/"}]]}`,
				`Bad Request: can't parse inline keyboard button: Field "web_app" must be of type Object`},
			{`{"inline_keyboard":[[{"text":"Play","web_app":{}}]]}`,
				`Bad Request: can't parse inline keyboard button: Can't find field "url"`},
			{`{"inline_keyboard":[[{"text":"Play","web_app":{"url":"https://app.example/"},"callback_data":"h:1"}]]}`,
				"Bad Request: can't parse inline keyboard button: exactly one of the optional fields must be used"},
		} {
			resp := sendRaw(t, srv, private.ID, tt.markup)
			assert.Equal(t, tt.want, resp.Description, tt.markup)
		}
	})

	t.Run("opening what opens no app", func(t *testing.T) {
		_, err := api.Send(tgbotapi.MessageConfig{BaseChat: tgbotapi.BaseChat{ChatID: group.ID, ReplyMarkup: keyboard("Hit", "h:1")}, Text: "The table"})
		require.NoError(t, err)
		_, err = srv.OpenApp(telegramtest.Press{ChatID: group.ID, From: alice.ID, Label: "Hit"})
		assert.ErrorIs(t, err, telegramtest.ErrButtonNotFound, "a callback button opens no app")
		_, err = srv.OpenApp(telegramtest.Press{ChatID: group.ID, From: alice.ID, Label: "Nothing"})
		assert.ErrorIs(t, err, telegramtest.ErrButtonNotFound)
		m := tgbotapi.NewMessage(group.ID, "Elsewhere")
		m.ReplyMarkup = tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonURL("Site", "https://example.com/")))
		_, err = api.Send(m)
		require.NoError(t, err)
		_, err = srv.OpenApp(telegramtest.Press{ChatID: group.ID, From: alice.ID, Label: "Site"})
		assert.True(t, errors.Is(err, telegramtest.ErrInvalid), "a URL button to no app of the bot's: %v", err)
	})
}
