package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"regexp"
	"testing"

	"github.com/twentyone-bot/twentyone/bot/config"

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
			cfg, err := config.Load(file, true, []string{"TWENTYONE_LOG_FORMAT=" + format, "TWENTYONE_LOG_LEVEL=debug"})
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

// TestTokenNotInRunErrors: a Bot API that cannot be reached fails each
// attempt to connect with Go's *url.Error, whose URL holds the token;
// neither the lines logged while the bot tries again nor the line of the
// stop show it.
func TestTokenNotInRunErrors(t *testing.T) {
	// A Bot API that hangs up on every request: nothing else on the
	// machine decides what the bot meets.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			_ = conn.Close()
		}
	}()
	stderr := newWatchedBuffer()
	var stdout bytes.Buffer
	cli := &CLI{Stdout: &stdout, Stderr: stderr, Environ: []string{
		"TWENTYONE_TELEGRAM_TOKEN=" + testToken,
		"TWENTYONE_TELEGRAM_API_ENDPOINT=http://" + ln.Addr().String() + "/bot%s/%s",
		"TWENTYONE_HTTP_LISTEN=127.0.0.1:0",
		"TWENTYONE_LOG_LEVEL=debug",
	}}
	t.Chdir(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	exited := make(chan int, 1)
	go func() { exited <- cli.Run(ctx, []string{"run"}) }()
	stderr.waitMatch(t, regexp.MustCompile(`(the Bot API cannot be reached: trying again)`), exited)
	cancel() // as SIGTERM does
	assert.Equal(t, exitOK, <-exited)
	assert.Contains(t, stderr.String(), "signal received while starting: stopped")
	assert.Contains(t, stderr.String(), "/bot[REDACTED]/getMe", "the URL is logged, the token redacted")
	assert.NotContains(t, stderr.String(), testToken)
	assert.NotContains(t, stdout.String(), testToken)
}
