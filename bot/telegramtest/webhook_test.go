package telegramtest_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// hookReceiver is a bot's webhook endpoint that records what it gets and
// answers with the status its policy picks.
type hookReceiver struct {
	mu      sync.Mutex
	ids     []int
	texts   []string
	secrets []string
	policy  func(n int, u telegramtest.Update) int // n counts requests from 1
	srv     *httptest.Server
}

func newHookReceiver(t *testing.T, policy func(n int, u telegramtest.Update) int) *hookReceiver {
	t.Helper()
	r := &hookReceiver{policy: policy}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		var u telegramtest.Update
		if err := json.Unmarshal(body, &u); err != nil || req.Header.Get("Content-Type") != "application/json" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.ids = append(r.ids, u.UpdateID)
		if u.Message != nil {
			r.texts = append(r.texts, u.Message.Text)
		}
		r.secrets = append(r.secrets, req.Header.Get("X-Telegram-Bot-Api-Secret-Token"))
		n := len(r.ids)
		r.mu.Unlock()
		w.WriteHeader(r.policy(n, u))
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *hookReceiver) received() ([]int, []string, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int(nil), r.ids...), append([]string(nil), r.texts...), append([]string(nil), r.secrets...)
}

func TestWebhookDeliversInOrderWithSecretAndRetries(t *testing.T) {
	srv, _ := start(t, telegramtest.WithLoopbackWebhooks(), telegramtest.WithWebhookBackoff(5*time.Millisecond, 20*time.Millisecond))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)
	// The webhook fails the second request twice (500, then a 502), then accepts.
	hook := newHookReceiver(t, func(n int, _ telegramtest.Update) int {
		switch n {
		case 2:
			return http.StatusInternalServerError
		case 3:
			return http.StatusBadGateway
		}
		return http.StatusOK
	})
	resp := call(t, srv, "setWebhook", url.Values{"url": {hook.srv.URL + "/hook"}, "secret_token": {"s3cr3t_-X"}})
	require.True(t, resp.OK, resp.Description)

	for _, text := range []string{"one", "two", "three", "four"} {
		_, err := srv.SendText(chat.ID, alice.ID, text)
		require.NoError(t, err)
	}
	require.NoError(t, srv.WaitFor(deadline(t), func(*telegramtest.View) bool { return srv.WebhookInfo().PendingUpdateCount == 0 }))

	ids, texts, secrets := hook.received()
	assert.Equal(t, []int{1, 2, 2, 2, 3, 4}, ids, "each update waits for the previous one's 2xx")
	assert.Equal(t, []string{"one", "two", "two", "two", "three", "four"}, texts)
	for _, s := range secrets {
		assert.Equal(t, "s3cr3t_-X", s)
	}
	attempts := srv.WebhookAttempts()
	require.Len(t, attempts, 6)
	assert.Equal(t, telegramtest.WebhookAttempt{UpdateID: 2, Attempt: 3, StatusCode: 200}, withoutTimes(attempts[3]))
	assert.Equal(t, "Wrong response from the webhook: 500 Internal Server Error", attempts[1].Error)
	assert.Equal(t, "Wrong response from the webhook: 502 Bad Gateway", srv.WebhookInfo().LastErrorMessage)
}

func withoutTimes(a telegramtest.WebhookAttempt) telegramtest.WebhookAttempt {
	a.At, a.Duration = time.Time{}, 0
	return a
}

func TestWebhookRejectionsAreRecordedAndKeptPending(t *testing.T) {
	srv, api := start(t, telegramtest.WithLoopbackWebhooks(), telegramtest.WithWebhookBackoff(5*time.Millisecond, 10*time.Millisecond))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)
	hook := newHookReceiver(t, func(int, telegramtest.Update) int { return http.StatusUnauthorized })
	cfg, err := tgbotapi.NewWebhook(hook.srv.URL)
	require.NoError(t, err)
	_, err = api.Request(cfg)
	require.NoError(t, err)

	_, err = srv.SendText(chat.ID, alice.ID, "knock knock")
	require.NoError(t, err)
	require.NoError(t, srv.WaitFor(deadline(t), func(*telegramtest.View) bool { return len(srv.WebhookAttempts()) >= 3 }))

	info := srv.WebhookInfo()
	assert.Equal(t, hook.srv.URL, info.URL)
	assert.Equal(t, 1, info.PendingUpdateCount)
	assert.Equal(t, "Wrong response from the webhook: 401 Unauthorized", info.LastErrorMessage)
	assert.NotZero(t, info.LastErrorDate)
	for _, a := range srv.WebhookAttempts() {
		assert.Equal(t, 401, a.StatusCode)
		assert.False(t, a.OK())
	}

	_, err = api.GetUpdates(tgbotapi.UpdateConfig{})
	apiErr := asAPIError(t, err)
	assert.Equal(t, 409, apiErr.Code)
	assert.Equal(t, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first", apiErr.Message)

	resp := call(t, srv, "deleteWebhook", url.Values{})
	assert.True(t, resp.OK)
	assert.Equal(t, "Webhook was deleted", resp.Description)
	updates, err := api.GetUpdates(tgbotapi.UpdateConfig{})
	require.NoError(t, err)
	require.Len(t, updates, 1, "undelivered updates wait for getUpdates")
	assert.Equal(t, "knock knock", updates[0].Message.Text)
	resp = call(t, srv, "deleteWebhook", url.Values{})
	assert.Equal(t, "Webhook is already deleted", resp.Description)
}

func TestWebhookSettingsAndErrors(t *testing.T) {
	srv := telegramtest.StartTest(t, telegramtest.WithLoopbackWebhooks(), telegramtest.WithWebhookBackoff(5*time.Millisecond, 10*time.Millisecond))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)
	_, err := srv.SendText(chat.ID, alice.ID, "old")
	require.NoError(t, err)

	// A port nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	deadURL := "http://" + l.Addr().String() + "/hook"
	require.NoError(t, l.Close())

	tests := []struct {
		name     string
		form     url.Values
		wantOK   bool
		wantDesc string
	}{
		{"invalid URL", url.Values{"url": {"ftp://example.com"}}, false, "Bad Request: invalid webhook URL specified"},
		{"bad secret", url.Values{"url": {deadURL}, "secret_token": {"no spaces"}}, false, "Bad Request: secret token contains unallowed characters"},
		{"set, dropping pending updates", url.Values{"url": {deadURL}, "drop_pending_updates": {"true"}, "max_connections": {"10"},
			"allowed_updates": {`["message","callback_query"]`}}, true, "Webhook was set"},
		{"same again", url.Values{"url": {deadURL}, "max_connections": {"10"}}, true, "Webhook is already set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := call(t, srv, "setWebhook", tt.form)
			assert.Equal(t, tt.wantOK, resp.OK)
			assert.Equal(t, tt.wantDesc, resp.Description)
		})
	}
	info := srv.WebhookInfo()
	assert.Equal(t, deadURL, info.URL)
	assert.Equal(t, 10, info.MaxConnections)
	assert.Equal(t, []string{"callback_query", "message"}, info.AllowedUpdates)
	assert.Equal(t, 0, info.PendingUpdateCount, "drop_pending_updates dropped the old update")

	_, err = srv.SendText(chat.ID, alice.ID, "new")
	require.NoError(t, err)
	require.NoError(t, srv.WaitFor(deadline(t), func(*telegramtest.View) bool { return srv.WebhookInfo().LastErrorMessage != "" }))
	assert.Equal(t, "Connection refused", srv.WebhookInfo().LastErrorMessage)
}

func TestSetWebhookEndsALongPoll(t *testing.T) {
	srv, api := start(t, telegramtest.WithLoopbackWebhooks())
	hook := newHookReceiver(t, func(int, telegramtest.Update) int { return http.StatusOK })
	done := make(chan error, 1)
	go func() {
		_, err := api.GetUpdates(tgbotapi.UpdateConfig{Timeout: 30})
		done <- err
	}()
	require.NoError(t, srv.WaitFor(deadline(t), func(*telegramtest.View) bool { return srv.LongPollWaiting() }))
	resp := call(t, srv, "setWebhook", url.Values{"url": {hook.srv.URL}})
	require.True(t, resp.OK)
	select {
	case err := <-done:
		apiErr := asAPIError(t, err)
		assert.Equal(t, 409, apiErr.Code)
		assert.Equal(t, "Conflict: terminated by setWebhook request", apiErr.Message)
	case <-deadline(t).Done():
		t.Fatal("long poll survived setWebhook")
	}
}

func TestWebhookDeliversRawUpdates(t *testing.T) {
	srv, _ := start(t, telegramtest.WithLoopbackWebhooks())
	hook := newHookReceiver(t, func(int, telegramtest.Update) int { return http.StatusOK })
	resp := call(t, srv, "setWebhook", url.Values{"url": {hook.srv.URL + "/hook"}})
	require.True(t, resp.OK, resp.Description)

	id, err := srv.PushRawUpdate(telegramtest.UpdateMessage, json.RawMessage(`{"message":{"message_id":3,"date":0,"text":"no chat"}}`))
	require.NoError(t, err)
	require.NoError(t, srv.WaitFor(deadline(t), func(*telegramtest.View) bool { return srv.WebhookInfo().PendingUpdateCount == 0 }))
	ids, texts, _ := hook.received()
	assert.Equal(t, []int{id}, ids)
	assert.Equal(t, []string{"no chat"}, texts)
}
