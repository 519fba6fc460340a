package botapi_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// newClient returns a client of a new bot on a new server, and the
// server.
func newClient(t *testing.T) (*botapi.Client, *telegramtest.Server) {
	t.Helper()
	srv := telegramtest.StartTest(t)
	c, err := botapi.New(context.Background(), botapi.Options{Token: srv.Token(), Endpoint: srv.Endpoint(),
		Transport: srv.Client().Transport, CallTimeout: 10 * time.Second})
	require.NoError(t, err)
	return c, srv
}

func TestNewKnowsItsBot(t *testing.T) {
	c, srv := newClient(t)
	assert.Equal(t, srv.Bot().ID, c.Self().ID)
	assert.NotEmpty(t, c.Self().UserName)
}

// TestErrorKinds: the official server's answers read as the kinds the bot
// acts on, and only those.
func TestErrorKinds(t *testing.T) {
	tests := []struct {
		name      string
		err       *botapi.Error
		kinds     []error
		temporary bool
	}{
		{"an edit of a deleted message", &botapi.Error{Code: 400, Description: "Bad Request: message to edit not found"}, []error{botapi.ErrGone}, false},
		{"an edit of a message too old for the bot", &botapi.Error{Code: 400, Description: "Bad Request: message can't be edited"}, []error{botapi.ErrGone}, false},
		{"an unknown inline message", &botapi.Error{Code: 400, Description: "Bad Request: MESSAGE_ID_INVALID"}, []error{botapi.ErrGone}, false},
		{"a delete of a deleted message", &botapi.Error{Code: 400, Description: "Bad Request: message to delete not found"}, []error{botapi.ErrGone}, false},
		{"a delete too late", &botapi.Error{Code: 400, Description: "Bad Request: message can't be deleted for everyone"}, []error{botapi.ErrCannotDelete}, false},
		{"a chat that is not there", &botapi.Error{Code: 400, Description: "Bad Request: chat not found"}, []error{botapi.ErrChatNotFound}, false},
		{"a user who blocked the bot", &botapi.Error{Code: 403, Description: "Forbidden: bot was blocked by the user"}, []error{botapi.ErrForbidden}, false},
		{"a group that became a supergroup", &botapi.Error{Code: 400, Description: "Bad Request: group chat was upgraded to a supergroup chat", MigrateTo: -1001}, []error{botapi.ErrMoved}, false},
		{"flood control", &botapi.Error{Code: 429, Description: "Too Many Requests: retry after 3", RetryAfter: 3 * time.Second}, []error{botapi.ErrTooMany}, false},
		{"a server error", &botapi.Error{Code: 502, Description: "Bad Gateway"}, nil, true},
		{"another bad request", &botapi.Error{Code: 400, Description: "Bad Request: text is too long"}, nil, false},
	}
	all := []error{botapi.ErrGone, botapi.ErrCannotDelete, botapi.ErrForbidden, botapi.ErrMoved, botapi.ErrTooMany, botapi.ErrChatNotFound}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := fmt.Errorf("wrapped: %w", tt.err)
			for _, kind := range all {
				want := false
				for _, k := range tt.kinds {
					want = want || k == kind
				}
				assert.Equal(t, want, errors.Is(err, kind), "%v", kind)
			}
			assert.Equal(t, tt.temporary, botapi.Temporary(err))
		})
	}
}

// TestCallsAreCancelledByTheirContext: a call whose context is cancelled
// returns at once, as a cancellation, with no token in its text.
func TestCallsAreCancelledByTheirContext(t *testing.T) {
	srv := telegramtest.StartTest(t)
	sent := make(chan struct{}, 16)
	c, err := botapi.New(context.Background(), botapi.Options{Token: srv.Token(), Endpoint: srv.Endpoint(),
		Transport: signalling{srv.Client().Transport, sent}, CallTimeout: time.Minute})
	require.NoError(t, err)
	<-sent // getMe's
	group := srv.NewGroup("Game night", srv.AddUser(telegramtest.User{FirstName: "Alice"}))
	held := srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Methods: []string{"sendMessage"}, Delay: time.Minute})
	defer held.Remove()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Send(ctx, group.ID, 0, message.Message{Text: "hello"}, 0)
		done <- err
	}()
	<-sent // the call is on its way
	cancel()
	select {
	case err := <-done:
		require.Error(t, err)
		assert.ErrorIs(t, err, context.Canceled)
		assert.False(t, botapi.Temporary(err), "a cancelled call is not tried again")
		assert.NotContains(t, err.Error(), srv.Token())
	case <-time.After(10 * time.Second):
		t.Fatal("the call was not cancelled")
	}
}

// signalling is a transport that signals each request it sends.
type signalling struct {
	next http.RoundTripper
	sent chan<- struct{}
}

func (s signalling) RoundTrip(r *http.Request) (*http.Response, error) {
	s.sent <- struct{}{}
	return s.next.RoundTrip(r)
}

// TestTransportFailureHoldsNoToken: a call Telegram does not answer fails
// as temporary, and its text (Go's *url.Error carries the whole URL) holds
// no token.
func TestTransportFailureHoldsNoToken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nobody listens there now
	const token = "123456:SECRET-token"
	_, err = botapi.New(context.Background(), botapi.Options{Token: token, Endpoint: "http://" + addr + "/bot%s/%s"})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "SECRET")
	assert.Contains(t, err.Error(), "getMe")
	assert.True(t, botapi.Temporary(err))
	var ue *url.Error
	assert.False(t, errors.As(err, &ue), "no *url.Error, whose URL holds the token, is reachable")
}

// TestEditAndDelete: an edit to what a message shows already succeeds; an
// edit or a delete of a deleted message fails as gone.
func TestEditAndDelete(t *testing.T) {
	c, srv := newClient(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	group := srv.NewGroup("Game night", alice)
	ctx := context.Background()
	m := message.Message{Text: "<b>hello</b>", Keyboard: [][]message.Button{{{Text: "Join", Data: "j"}}}}
	id, err := c.Send(ctx, group.ID, 0, m, 0)
	require.NoError(t, err)
	assert.NoError(t, c.Edit(ctx, group.ID, id, m), "not modified is no failure")
	assert.NoError(t, c.Edit(ctx, group.ID, id, message.Message{Text: "bye"}))
	got, ok := srv.Message(group.ID, id)
	require.True(t, ok)
	assert.Equal(t, "bye", got.Text)
	assert.Empty(t, got.Buttons(), "the edit without a keyboard takes it away")

	require.NoError(t, c.Delete(ctx, group.ID, id))
	assert.ErrorIs(t, c.Edit(ctx, group.ID, id, m), botapi.ErrGone)
	assert.ErrorIs(t, c.Delete(ctx, group.ID, id), botapi.ErrGone)
	assert.ErrorIs(t, c.Delete(ctx, group.ID, id), botapi.ErrGone, "again")
}

func TestScrub(t *testing.T) {
	const secret = "123:ABC/def+"
	urlErr := &url.Error{Op: "Post", URL: "https://api.telegram.org/bot" + secret + "/getMe", Err: context.DeadlineExceeded}
	tests := []struct {
		name    string
		err     error
		same    bool
		isCause error
	}{
		{"a *url.Error", urlErr, false, context.DeadlineExceeded},
		{"one wrapped", fmt.Errorf("starting: %w", urlErr), false, context.DeadlineExceeded},
		{"the secret escaped in a URL", errors.New("GET /bot" + url.PathEscape(secret) + "/x"), false, nil},
		{"no secret", errors.New("no such host"), true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := botapi.Scrub(tt.err, secret, "")
			if tt.same {
				assert.Equal(t, tt.err, got)
				return
			}
			assert.NotContains(t, got.Error(), "ABC")
			assert.Contains(t, got.Error(), "[REDACTED]")
			if tt.isCause != nil {
				assert.ErrorIs(t, got, tt.isCause)
			}
			var ue *url.Error
			assert.False(t, errors.As(got, &ue), "the *url.Error is not reachable")
			assert.False(t, strings.Contains(fmt.Sprintf("%+v", got), "ABC"))
		})
	}
	assert.Nil(t, botapi.Scrub(nil, secret))
}

// TestButtonsAsSent: a keyboard goes with each button's action and style,
// as the server stores it.
func TestButtonsAsSent(t *testing.T) {
	c, srv := newClient(t)
	group := srv.NewGroup("Game night", srv.AddUser(telegramtest.User{FirstName: "Alice"}))
	m := message.Message{Text: "Your move", Keyboard: [][]message.Button{
		{{Text: "Hit", Data: "h:3", Style: message.Primary}, {Text: "Stand", Data: "s:3"}},
		{{Text: "Rules", URL: "https://t.me/telegramtest_bot", Style: message.Success}},
	}}
	id, err := c.Send(context.Background(), group.ID, 0, m, 0)
	require.NoError(t, err)
	got, ok := srv.Message(group.ID, id)
	require.True(t, ok)
	require.NotNil(t, got.ReplyMarkup)
	assert.Equal(t, [][]telegramtest.InlineKeyboardButton{
		{{Text: "Hit", CallbackData: "h:3", Style: "primary"}, {Text: "Stand", CallbackData: "s:3"}},
		{{Text: "Rules", URL: "https://t.me/telegramtest_bot", Style: "success"}},
	}, got.ReplyMarkup.InlineKeyboard)
}

// TestWebAppButtonAsSent: a web_app button goes as one (tgbotapi v5.5.1
// has no field for it) in the bot's private chat, where the server keeps
// it; a group refuses it, as Telegram does.
func TestWebAppButtonAsSent(t *testing.T) {
	c, srv := newClient(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	private := srv.PrivateChat(alice)
	page := "https://app.example/?startapp=ref"
	m := message.Message{Text: "Your table", Keyboard: [][]message.Button{{{Text: "Open", WebApp: page}}}}
	id, err := c.Send(context.Background(), private.ID, 0, m, 0)
	require.NoError(t, err)
	got, ok := srv.Message(private.ID, id)
	require.True(t, ok)
	require.NotNil(t, got.ReplyMarkup)
	assert.Equal(t, [][]telegramtest.InlineKeyboardButton{{{Text: "Open", WebApp: &telegramtest.WebAppInfo{URL: page}}}},
		got.ReplyMarkup.InlineKeyboard)

	group := srv.NewGroup("Game night", alice)
	_, err = c.Send(context.Background(), group.ID, 0, m, 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "BUTTON_TYPE_INVALID")
}
