package telegramtest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestAppLoopback: a Mini App served over plain http on the machine (the
// playground's) is refused as BotFather and the Bot API refuse it, unless
// the server was started WithLoopbackApps; then it is registered, a direct
// link to it launches its http page, and the bot's private chat takes a
// web_app button to it. Another host's http page is refused either way.
func TestAppLoopback(t *testing.T) {
	const page = "http://127.0.0.1:8021/app/"
	for _, tt := range []struct {
		name     string
		opts     []telegramtest.Option
		loopback bool
	}{
		{"as Telegram", nil, false},
		{"WithLoopbackApps", []telegramtest.Option{telegramtest.WithLoopbackApps()}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := start(t, append([]telegramtest.Option{telegramtest.WithClock(telegramtest.NewManualClock(appStart))}, tt.opts...)...)
			alice := srv.AddUser(telegramtest.User{FirstName: "Alice", LanguageCode: "en"})
			group := srv.NewGroup("Table", alice)
			private := srv.PrivateChat(alice)
			_, err := srv.SendCommand(private.ID, alice.ID, "start")
			require.NoError(t, err)

			assert.ErrorIs(t, srv.RegisterApp("other", "http://app.example/"), telegramtest.ErrInvalid, "another host: never")
			resp := sendRaw(t, srv, private.ID, `{"inline_keyboard":[[{"text":"Play","web_app":{"url":"http://app.example/"}}]]}`)
			assert.Equal(t, "Bad Request: inline keyboard button Web App URL 'http://app.example/' is invalid: Only HTTPS links are allowed",
				resp.Description, "another host: never")

			err = srv.RegisterApp("table", page)
			resp = sendRaw(t, srv, private.ID, `{"inline_keyboard":[[{"text":"Solo","web_app":{"url":"http://localhost:8021/app/?startapp=x"}}]]}`)
			if !tt.loopback {
				assert.ErrorIs(t, err, telegramtest.ErrInvalid)
				assert.Equal(t, "Bad Request: inline keyboard button Web App URL 'http://localhost:8021/app/?startapp=x' is invalid: Only HTTPS links are allowed",
					resp.Description)
				_, err = srv.OpenAppLink(group.ID, alice.ID, "https://t.me/telegramtest_bot/table?startapp=abc")
				assert.ErrorIs(t, err, telegramtest.ErrInvalid, "no such app")
				return
			}
			require.NoError(t, err)
			require.True(t, resp.OK, resp.Description)

			l, err := srv.OpenAppLink(group.ID, alice.ID, "https://t.me/telegramtest_bot/table?startapp=abc")
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(l.URL, page+"?tgWebAppStartParam=abc#tgWebAppData="), l.URL)
			assert.Equal(t, "abc", validInitData(t, srv, l).StartParam)

			solo, err := srv.OpenApp(telegramtest.Press{ChatID: private.ID, From: alice.ID, Label: "Solo"})
			require.NoError(t, err)
			u, _ := launchParams(t, solo)
			assert.Equal(t, "http://localhost:8021/app/?startapp=x", u.String())
			assert.Equal(t, alice.ID, validInitData(t, srv, solo).User.ID)
		})
	}
}
