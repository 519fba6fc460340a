package telegramtest_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func TestGetMeReturnsConfiguredIdentity(t *testing.T) {
	tests := []struct {
		name string
		opts []telegramtest.Option
		want telegramtest.User
	}{
		{name: "defaults", want: telegramtest.DefaultBot},
		{
			name: "custom bot",
			opts: []telegramtest.Option{
				telegramtest.WithBot(telegramtest.User{ID: 42, FirstName: "Dealer", Username: "dealer_bot"}),
			},
			want: telegramtest.User{ID: 42, IsBot: true, FirstName: "Dealer", Username: "dealer_bot"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, api := start(t, tt.opts...)
			assert.Equal(t, tt.want.ID, api.Self.ID)
			assert.True(t, api.Self.IsBot)
			assert.Equal(t, tt.want.FirstName, api.Self.FirstName)
			assert.Equal(t, tt.want.Username, api.Self.UserName)
			assert.Equal(t, 1, srv.Calls().Count("getMe"))
		})
	}
}

func TestAnswersUnauthorizedAndNotFoundLikeTelegram(t *testing.T) {
	srv := telegramtest.StartTest(t)
	tests := []struct {
		name     string
		path     string
		wantCode int
		wantDesc string
	}{
		{"wrong token", "/bot1:wrong/getMe", 401, "Unauthorized"},
		{"unknown method", "/bot" + srv.Token() + "/sendHologram", 404, "Not Found"},
		{"no method", "/bot" + srv.Token() + "/", 404, "Not Found"},
		{"not a bot path", "/getMe", 404, "Not Found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(srv.URL()+tt.path, "application/x-www-form-urlencoded", nil)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			assert.Equal(t, tt.wantCode, resp.StatusCode)
			assert.JSONEq(t, `{"ok":false,"error_code":`+itoa(tt.wantCode)+`,"description":"`+tt.wantDesc+`"}`, string(body))
		})
	}
	_, err := tgbotapi.NewBotAPIWithClient("1:wrong", srv.Endpoint(), srv.Client())
	apiErr := asAPIError(t, err)
	assert.Equal(t, 401, apiErr.Code)
	assert.Equal(t, "Unauthorized", apiErr.Message)
}

func TestAcceptsEveryRequestEncoding(t *testing.T) {
	srv := telegramtest.StartTest(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	base := srv.URL() + "/bot" + srv.Token()
	markup := `{"inline_keyboard":[[{"text":"Hit","callback_data":"hit"}]]}`
	tests := []struct {
		name string
		do   func() (*http.Response, error)
	}{
		{"form, mixed-case method", func() (*http.Response, error) {
			return http.PostForm(base+"/SENDmessage", url.Values{"chat_id": {itoa(int(chat.ID))}, "text": {"form"}, "reply_markup": {markup}, "entities": {"null"}})
		}},
		{"json body", func() (*http.Response, error) {
			body := `{"chat_id":` + itoa(int(chat.ID)) + `,"text":"json","reply_markup":` + markup + `,"entities":null}`
			return http.Post(base+"/sendMessage", "application/json", strings.NewReader(body))
		}},
		{"query string", func() (*http.Response, error) {
			return http.Get(base + "/sendMessage?chat_id=" + itoa(int(chat.ID)) + "&text=query&reply_markup=" + url.QueryEscape(markup))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(srv.Messages(chat.ID))
			resp, err := tt.do()
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode)
			msgs := srv.Messages(chat.ID)
			require.Len(t, msgs, before+1)
			last := msgs[len(msgs)-1]
			assert.True(t, last.FromBot)
			assert.Equal(t, []string{"Hit"}, last.Labels())
		})
	}
	assert.Equal(t, 3, srv.Calls().OK("sendMessage"), "mixed-case names are logged under the canonical name")
}

func TestWorldListings(t *testing.T) {
	srv := telegramtest.StartTest(t)
	users := srv.NewUsers("Alice", "Bob")
	group := srv.NewGroup("Table", users...)
	dm := srv.PrivateChat(users[0])
	assert.Equal(t, users, srv.Users())
	chats := srv.Chats()
	require.Len(t, chats, 2)
	assert.Equal(t, group.ID, chats[0].ID, "groups have negative ids")
	assert.Equal(t, dm.ID, chats[1].ID)
	assert.Equal(t, users[0].ID, dm.ID, "a private chat has its user's id")
	got, ok := srv.Chat(group.ID)
	require.True(t, ok)
	assert.Equal(t, "Table", got.Title)
	_, err := srv.AddChat(telegramtest.ChatSpec{ID: group.ID})
	assert.ErrorIs(t, err, telegramtest.ErrInvalid)
	_, err = srv.AddChat(telegramtest.ChatSpec{Members: []int64{424242}})
	assert.ErrorIs(t, err, telegramtest.ErrUserNotFound)
}
