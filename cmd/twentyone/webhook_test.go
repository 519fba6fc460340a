package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twentyone-bot/twentyone/bot/config"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const update = `{"update_id":1,"message":{"message_id":1,"chat":{"id":-100,"type":"group"},"text":"/newgame"}}`

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

func TestWebhookRequests(t *testing.T) {
	tests := []struct {
		name    string
		method  string
		path    string
		secret  *string
		body    string
		handle  error
		status  int
		handled bool
	}{
		{name: "ok", body: update, status: http.StatusOK, handled: true},
		{name: "no secret", secret: new(""), body: update, status: http.StatusUnauthorized},
		{name: "wrong secret", secret: new("wrong"), body: update, status: http.StatusUnauthorized},
		{name: "secret with a suffix", secret: new("s3cret-x"), body: update, status: http.StatusUnauthorized},
		{name: "secret prefix", secret: new("s3cre"), body: update, status: http.StatusUnauthorized},
		{name: "GET", method: http.MethodGet, status: http.StatusMethodNotAllowed},
		{name: "other path", path: "/other", body: update, status: http.StatusNotFound},
		{name: "sub path", path: "/tg/hook/x", body: update, status: http.StatusNotFound},
		{name: "not JSON", body: "update_id=1", status: http.StatusBadRequest},
		{name: "too large", body: `{"x":"` + strings.Repeat("a", maxUpdateSize) + `"}`, status: http.StatusRequestEntityTooLarge},
		{name: "handling failed", body: update, handle: errors.New("disk full"), status: http.StatusInternalServerError, handled: true},
		{name: "handling cancelled", body: update, handle: context.Canceled, status: http.StatusServiceUnavailable, handled: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var handled atomic.Bool
			h := newWebhookHandler("/tg/hook", "s3cret", func(_ context.Context, raw []byte) error {
				handled.Store(true)
				assert.JSONEq(t, update, string(raw))
				return tt.handle
			}, discardLogger())
			method, path := tt.method, tt.path
			if method == "" {
				method = http.MethodPost
			}
			if path == "" {
				path = "/tg/hook"
			}
			req := httptest.NewRequest(method, path, strings.NewReader(tt.body))
			req.Header.Set(SecretHeader, "s3cret")
			if tt.secret != nil {
				req.Header.Set(SecretHeader, *tt.secret)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, tt.status, rec.Code, rec.Body.String())
			assert.Equal(t, tt.handled, handled.Load())
		})
	}
}

// TestWebhookAnswersAfterHandled: the 200 comes only once the handler
// returned (the update's transaction committed).
func TestWebhookAnswersAfterHandled(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	var committed atomic.Bool
	h := newWebhookHandler("/", "s", func(context.Context, []byte) error {
		close(entered)
		<-release
		committed.Store(true)
		return nil
	}, discardLogger())
	srv := httptest.NewServer(h)
	defer srv.Close()

	type result struct {
		status    int
		committed bool
		err       error
	}
	done := make(chan result, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/", strings.NewReader(update))
		req.Header.Set(SecretHeader, "s")
		resp, err := srv.Client().Do(req)
		if err != nil {
			done <- result{err: err}
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		// Read committed when the answer arrived.
		done <- result{status: resp.StatusCode, committed: committed.Load()}
	}()
	<-entered
	select {
	case r := <-done:
		t.Fatalf("answered %d before the update was handled", r.status)
	default:
	}
	close(release)
	r := <-done
	require.NoError(t, r.err)
	assert.Equal(t, http.StatusOK, r.status)
	assert.True(t, r.committed, "the answer came after the commit")
}

func TestRandomSecret(t *testing.T) {
	a, b := randomSecret(), randomSecret()
	assert.NotEqual(t, a, b)
	_, err := config.Load("", false, []string{"TWENTYONE_TELEGRAM_WEBHOOK_SECRET=" + a.Reveal()})
	assert.NoError(t, err, "a secret Telegram accepts")
	assert.Len(t, a.Reveal(), 64)
}
