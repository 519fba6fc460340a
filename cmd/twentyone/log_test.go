package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTokenNeverLogged runs the config and logger paths with a token and
// checks that no line holds it.
func TestTokenNeverLogged(t *testing.T) {
	const secret = "hooksecret_123"
	file := writeFile(t, "c.yaml", "telegram:\n  token: \""+testToken+"\"\n  webhook:\n    secret: "+secret+"\n")
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			cfg, err := LoadConfig(file, true, []string{"TWENTYONE_LOG_FORMAT=" + format, "TWENTYONE_LOG_LEVEL=debug"})
			require.NoError(t, err)
			require.Equal(t, testToken, cfg.Telegram.Token.Reveal())

			var out bytes.Buffer
			log := newLogger(&out, cfg.Log.Level, cfg.Log.Format, cfg.Telegram.Token, cfg.Telegram.Webhook.Secret)
			// What Go's HTTP client returns: the URL, token included.
			urlErr := &url.Error{Op: "Post", URL: "https://api.telegram.org/bot" + testToken + "/getMe", Err: errors.New("dial tcp: i/o timeout")}
			log.Info("starting", "config", cfg)
			log.Debug("config struct", "cfg", *cfg, "telegram", cfg.Telegram)
			log.Error("getMe failed", "err", urlErr)
			log.Error("wrapped", "err", fmt.Errorf("connecting: %w", urlErr))
			log.Warn("message with the token " + testToken)
			log.Info("string attr", "url", "https://api.telegram.org/bot"+testToken+"/sendMessage")
			log.Info("escaped", "url", "https://x/bot"+url.PathEscape(testToken)+"/y", "q", "token="+url.QueryEscape(testToken))
			log.Info("secret", "header", secret)
			log.With("token", cfg.Telegram.Token).WithGroup("g").Info("group", "err", urlErr, "stringer", stringer("t="+testToken))
			log.Info("any", "secret", cfg.Telegram.Webhook.Secret, "raw", slog.AnyValue(cfg.Telegram.Token))

			lines := out.String()
			require.NotEmpty(t, lines)
			assert.NotContains(t, lines, testToken)
			assert.NotContains(t, lines, url.QueryEscape(testToken))
			assert.NotContains(t, lines, secret)
			assert.Contains(t, lines, "[REDACTED]")
			assert.Contains(t, lines, "dial tcp: i/o timeout", "the rest of the error is kept")
		})
	}
}

type stringer string

func (s stringer) String() string { return string(s) }

// TestTokenNotInRunErrors: a Bot API that cannot be reached fails the
// start with Go's *url.Error, whose URL holds the token; the line printed
// does not.
func TestTokenNotInRunErrors(t *testing.T) {
	var stdout, stderr bytes.Buffer
	cli := &CLI{Stdout: &stdout, Stderr: &stderr, Environ: []string{
		"TWENTYONE_TELEGRAM_TOKEN=" + testToken,
		"TWENTYONE_TELEGRAM_API_ENDPOINT=http://127.0.0.1:1/bot%s/%s", // nothing listens
		"TWENTYONE_HTTP_LISTEN=127.0.0.1:0",
		"TWENTYONE_LOG_LEVEL=debug",
	}}
	t.Chdir(t.TempDir())
	code := cli.Run(context.Background(), []string{"run"})
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr.String(), "twentyone run: connecting to the Bot API:")
	assert.Contains(t, stderr.String(), "connection refused")
	assert.NotContains(t, stderr.String(), testToken)
	assert.NotContains(t, stdout.String(), testToken)
}
