package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// events records what happened, in order.
type events struct {
	mu   sync.Mutex
	list []string
}

func (e *events) add(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, s)
}

func (e *events) get() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.list...)
}

type fakeStore struct {
	ev     *events
	data   []byte
	closed chan struct{}
}

func newFakeStore() *fakeStore {
	return &fakeStore{ev: &events{}, data: []byte("a bolt database"), closed: make(chan struct{})}
}

func (s *fakeStore) Backup(_ context.Context, w io.Writer) (int64, error) {
	n, err := w.Write(s.data)
	return int64(n), err
}

func (s *fakeStore) OpenTables(context.Context) (int, error) { return 2, nil }

func (s *fakeStore) Close() error {
	s.ev.add("store closed")
	close(s.closed)
	return nil
}

type fakeBot struct {
	ev      *events
	handle  func(ctx context.Context, raw []byte) error
	running chan struct{} // closed when Run or SetWebhook was called
	once    sync.Once
	webhook [2]string
	runErr  error
}

func newFakeBot(ev *events) *fakeBot {
	return &fakeBot{ev: ev, running: make(chan struct{}), handle: func(context.Context, []byte) error { return nil }}
}

func (b *fakeBot) Run(ctx context.Context) error {
	b.ev.add("run")
	b.once.Do(func() { close(b.running) })
	if b.runErr != nil {
		return b.runErr
	}
	<-ctx.Done()
	b.ev.add("run returned")
	return nil
}

func (b *fakeBot) Start(context.Context) error { b.ev.add("start"); return nil }

func (b *fakeBot) Handle(ctx context.Context, raw []byte) error { return b.handle(ctx, raw) }

func (b *fakeBot) SetWebhook(url, secret string) error {
	b.ev.add("webhook set")
	b.webhook = [2]string{url, secret}
	b.once.Do(func() { close(b.running) })
	return nil
}

func (b *fakeBot) Close(context.Context) error { b.ev.add("bot closed"); return nil }

// fakeWire wires a Main to a fake store and bot sharing ev.
func fakeWire(st *fakeStore, b *fakeBot, got chan<- *Main) func(*Main) {
	return func(m *Main) {
		m.OpenStore = func(*Config, *Metrics, *slog.Logger) (Store, error) { return st, nil }
		m.NewBot = func(context.Context, *Config, Store, *slog.Logger, *Metrics) (Bot, error) { return b, nil }
		if got != nil {
			got <- m
		}
	}
}

func testConfig(t *testing.T, mode string) *Config {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Telegram.Token = testToken
	cfg.Telegram.Mode = mode
	cfg.HTTP.Listen = "127.0.0.1:0"
	cfg.Telegram.Webhook = WebhookConfig{Listen: "127.0.0.1:0", URL: "https://bot.example.org/tg/hook", Secret: "s3cret"}
	return &cfg
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

func postUpdate(url, secret string) (int, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(update))
	if err != nil {
		return 0, err
	}
	req.Header.Set(SecretHeader, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func TestMainPolling(t *testing.T) {
	st := newFakeStore()
	b := newFakeBot(st.ev)
	m := NewMain(testConfig(t, "polling"), discardLogger())
	fakeWire(st, b, nil)(m)
	require.NoError(t, m.Run(context.Background()))
	<-b.running
	base := "http://" + m.AdminAddr()

	code, _ := httpGet(t, base+"/healthz")
	assert.Equal(t, http.StatusOK, code)
	code, _ = httpGet(t, base+"/readyz")
	assert.Equal(t, http.StatusOK, code)
	code, body := httpGet(t, base+"/metrics")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "twentyone_open_tables 2")

	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	require.NoError(t, m.Close(ctx))
	assert.Equal(t, []string{"run", "run returned", "bot closed", "store closed"}, st.ev.get())
	_, err := http.Get(base + "/healthz")
	assert.Error(t, err, "the admin server is down")
	assert.NoError(t, m.Close(ctx), "a second Close is harmless")
}

func TestMainPollingFailure(t *testing.T) {
	st := newFakeStore()
	b := newFakeBot(st.ev)
	b.runErr = errors.New("deleteWebhook: 401 Unauthorized")
	m := NewMain(testConfig(t, "polling"), discardLogger())
	fakeWire(st, b, nil)(m)
	require.NoError(t, m.Run(context.Background()))
	err := <-m.Err()
	assert.ErrorContains(t, err, "401 Unauthorized")
	require.NoError(t, m.Close(context.Background()))
}

func TestMainWebhook(t *testing.T) {
	st := newFakeStore()
	b := newFakeBot(st.ev)
	handled := make(chan []byte, 1)
	b.handle = func(_ context.Context, raw []byte) error { handled <- raw; return nil }
	cfg := testConfig(t, "webhook")
	m := NewMain(cfg, discardLogger())
	fakeWire(st, b, nil)(m)
	require.NoError(t, m.Run(context.Background()))
	<-b.running
	assert.Equal(t, [2]string{"https://bot.example.org/tg/hook", "s3cret"}, b.webhook)

	hook := "http://" + m.WebhookAddr() + "/tg/hook"
	code, err := postUpdate(hook, "wrong")
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, code)
	code, err = postUpdate(hook, "s3cret")
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code)
	assert.JSONEq(t, update, string(<-handled))

	require.NoError(t, m.Close(context.Background()))
	assert.Equal(t, []string{"start", "webhook set", "bot closed", "store closed"}, st.ev.get())
}

// runCLI runs `twentyone run` with the environment env and a fake store
// and bot, under a context cancelled by SIGINT and SIGTERM, as main does.
// It returns the Main once it runs, and the exit code when run returns.
func runCLI(t *testing.T, env []string, st *fakeStore, b *fakeBot) (*Main, <-chan int, *bytes.Buffer) {
	t.Helper()
	ctx, stop := signalContext(context.Background())
	t.Cleanup(stop)
	got := make(chan *Main, 1)
	stderr := &lockedBuffer{}
	cli := &CLI{Stdout: io.Discard, Stderr: stderr, Environ: env, StopSignals: stop, wire: fakeWire(st, b, got)}
	t.Chdir(t.TempDir())
	code := make(chan int, 1)
	go func() { code <- cli.Run(ctx, []string{"run"}) }()
	m := <-got
	<-b.running
	return m, code, &stderr.buf
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// TestSignalStopsPolling: SIGINT stops polling, closes the bot and then the
// database, and run exits 0.
func TestSignalStopsPolling(t *testing.T) {
	st := newFakeStore()
	b := newFakeBot(st.ev)
	m, code, _ := runCLI(t, []string{"TWENTYONE_TELEGRAM_TOKEN=" + testToken, "TWENTYONE_HTTP_LISTEN=127.0.0.1:0"}, st, b)
	admin := m.AdminAddr()
	start := time.Now()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGINT))
	assert.Equal(t, exitOK, <-code)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.Equal(t, []string{"run", "run returned", "bot closed", "store closed"}, st.ev.get())
	_, err := net.Dial("tcp", admin)
	assert.Error(t, err, "the admin server is shut")
}

// TestSignalDrainsWebhook: on SIGTERM the webhook server stops taking
// connections at once, but the update in flight is handled and answered
// 200 before the bot and then the database close.
func TestSignalDrainsWebhook(t *testing.T) {
	st := newFakeStore()
	b := newFakeBot(st.ev)
	entered, release := make(chan struct{}), make(chan struct{})
	b.handle = func(context.Context, []byte) error {
		close(entered)
		<-release
		st.ev.add("update committed")
		return nil
	}
	m, code, _ := runCLI(t, []string{
		"TWENTYONE_TELEGRAM_TOKEN=" + testToken, "TWENTYONE_HTTP_LISTEN=127.0.0.1:0",
		"TWENTYONE_TELEGRAM_MODE=webhook", "TWENTYONE_TELEGRAM_WEBHOOK_LISTEN=127.0.0.1:0",
		"TWENTYONE_TELEGRAM_WEBHOOK_URL=https://bot.example.org/hook",
	}, st, b)
	secret := b.webhook[1]
	require.True(t, validWebhookSecret(secret), "a random secret was made")
	hookAddr := m.WebhookAddr()
	shuttingDown := make(chan struct{})
	m.webhook.srv.RegisterOnShutdown(func() { close(shuttingDown) })

	answered := make(chan int, 1)
	go func() {
		status, err := postUpdate("http://"+hookAddr+"/hook", secret)
		assert.NoError(t, err)
		answered <- status
	}()
	<-entered
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	<-shuttingDown
	_, err := net.Dial("tcp", hookAddr)
	assert.Error(t, err, "no new connections once shutting down")
	select {
	case <-code:
		t.Fatal("run returned with an update in flight")
	default:
	}
	close(release)
	assert.Equal(t, http.StatusOK, <-answered)
	assert.Equal(t, exitOK, <-code)
	assert.Equal(t, []string{"start", "webhook set", "update committed", "bot closed", "store closed"}, st.ev.get())
}

func TestCLI(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		env    []string
		code   int
		stdout string
		stderr string
	}{
		{name: "version", args: []string{"version"}, code: exitOK, stdout: "twentyone dev (commit "},
		{name: "help", args: []string{"help"}, code: exitOK, stdout: "Usage:"},
		{name: "-h", args: []string{"-h"}, code: exitOK, stdout: "twentyone backup -o OUT"},
		{name: "--help", args: []string{"--help"}, code: exitOK, stdout: "TWENTYONE_TELEGRAM_TOKEN"},
		{name: "flags without subcommand", args: []string{"-config", "nope.yaml"}, code: exitUsage, stderr: "config: reading nope.yaml"},
		{name: "run -h", args: []string{"run", "-h"}, code: exitOK, stderr: "-config file"},
		{name: "backup -h", args: []string{"backup", "-h"}, code: exitOK, stderr: "-o file"},
		{name: "compact -h", args: []string{"compact", "-h"}, code: exitOK, stderr: "must not exist"},
		{name: "healthcheck -h", args: []string{"healthcheck", "-h"}, code: exitOK, stderr: "HEALTHCHECK"},
		{name: "version -h", args: []string{"version", "-h"}, code: exitOK, stderr: "Usage: twentyone version"},
		{name: "unknown subcommand", args: []string{"serve"}, code: exitUsage, stderr: `unknown subcommand "serve"`},
		{name: "unknown flag", args: []string{"run", "-verbose"}, code: exitUsage, stderr: "flag provided but not defined: -verbose"},
		{name: "extra argument", args: []string{"version", "now"}, code: exitUsage, stderr: `unexpected argument "now"`},
		{name: "backup without -o", args: []string{"backup"}, code: exitUsage, stderr: "-o OUT is required"},
		{name: "compact without -o", args: []string{"compact"}, code: exitUsage, stderr: "-o OUT is required"},
		{name: "no token", args: []string{"run"}, code: exitOK, stdout: "@BotFather"},
		{name: "no token, no subcommand", args: nil, code: exitOK, stdout: "twentyone playground"},
		{name: "explicit missing config", args: []string{"run", "-config", "nope.yaml"}, code: exitUsage, stderr: "config: reading nope.yaml"},
		{name: "healthcheck, nothing runs", args: []string{"healthcheck"}, env: []string{"TWENTYONE_HTTP_LISTEN=127.0.0.1:1"}, code: exitFailure, stderr: "twentyone healthcheck:"},
		{name: "healthcheck, admin off", args: []string{"healthcheck"}, env: []string{"TWENTYONE_HTTP_LISTEN="}, code: exitFailure},
		{name: "healthcheck, bad config", args: []string{"healthcheck"}, env: []string{"TWENTYONE_LOG_LEVEL=loud"}, code: exitUsage, stderr: "log.level"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			var stdout, stderr bytes.Buffer
			cli := &CLI{Stdout: &stdout, Stderr: &stderr, Environ: tt.env}
			assert.Equal(t, tt.code, cli.Run(context.Background(), tt.args), "stderr: %s", stderr.String())
			assert.Contains(t, stdout.String(), tt.stdout)
			assert.Contains(t, stderr.String(), tt.stderr)
		})
	}
}

// TestBackupAndHealthcheckOfARunningBot: `twentyone backup` and
// `twentyone healthcheck` reach the running process's admin server.
func TestBackupAndHealthcheckOfARunningBot(t *testing.T) {
	st := newFakeStore()
	b := newFakeBot(st.ev)
	m := NewMain(testConfig(t, "polling"), discardLogger())
	fakeWire(st, b, nil)(m)
	require.NoError(t, m.Run(context.Background()))
	t.Cleanup(func() { _ = m.Close(context.Background()) })
	<-b.running

	env := []string{"TWENTYONE_HTTP_LISTEN=" + m.AdminAddr()}
	dir := t.TempDir()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	cli := &CLI{Stdout: &stdout, Stderr: &stderr, Environ: env}
	require.Equal(t, exitOK, cli.Run(context.Background(), []string{"healthcheck"}), stderr.String())

	out := filepath.Join(dir, "backup.db")
	require.NoError(t, os.WriteFile(out, []byte("an older backup"), 0o600))
	require.Equal(t, exitOK, cli.Run(context.Background(), []string{"backup", "-o", out}), stderr.String())
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, st.data, got, "replaced by the new backup")
	assert.Contains(t, stderr.String(), "from the running bot")

	stdout.Reset()
	require.Equal(t, exitOK, cli.Run(context.Background(), []string{"backup", "-o", "-"}), stderr.String())
	assert.Equal(t, st.data, stdout.Bytes())

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")
}
