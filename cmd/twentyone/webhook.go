package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"

	"github.com/twentyone-bot/twentyone/bot/config"
)

// SecretHeader is the header Telegram sends a webhook's secret_token in.
const SecretHeader = "X-Telegram-Bot-Api-Secret-Token"

// maxUpdateSize bounds the body of a webhook POST. Telegram's updates are a
// few kilobytes at most.
const maxUpdateSize = 1 << 20

// newWebhookHandler returns the handler of Telegram's webhook POSTs at path.
// A request without the right secret gets 401. handle is called with the
// raw update and must return only once the update's effects are committed
// (bot.Bot.Handle does); the answer is 200 when it returned nil and 500
// when it failed, so that Telegram delivers the update again.
func newWebhookHandler(path, secret string, handle func(ctx context.Context, raw []byte) error, log *slog.Logger) http.Handler {
	want := []byte(secret)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if subtle.ConstantTimeCompare([]byte(r.Header.Get(SecretHeader)), want) != 1 {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxUpdateSize))
		if err != nil {
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				http.Error(w, "update too large", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "reading the update failed", http.StatusBadRequest)
			return
		}
		if !json.Valid(raw) {
			http.Error(w, "the body is not JSON", http.StatusBadRequest)
			return
		}
		if err := handle(r.Context(), raw); err != nil {
			status := http.StatusInternalServerError
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				status = http.StatusServiceUnavailable
			}
			log.Warn("webhook update failed; Telegram will deliver it again", "err", err, "status", status)
			http.Error(w, http.StatusText(status), status)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
}

// randomSecret returns a random webhook secret: 64 hex digits.
func randomSecret() config.Secret {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return config.Secret(hex.EncodeToString(b[:]))
}
