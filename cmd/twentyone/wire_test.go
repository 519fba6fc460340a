package main

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/storage"
)

// newDatabase creates a database at dir/twentyone.db and returns its path.
func newDatabase(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "twentyone.db")
	s, err := storage.Open(path, storage.Options{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	return path
}

// checkDatabase asserts that path is a database storage opens.
func checkDatabase(t *testing.T, path string) {
	t.Helper()
	s, err := storage.Open(path, storage.Options{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

func runSub(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cli := &CLI{Stdout: &stdout, Stderr: &stderr, Environ: env}
	code := cli.Run(context.Background(), args)
	return code, stdout.String(), stderr.String()
}

// noAdmin is an http.listen where nothing listens.
const noAdmin = "TWENTYONE_HTTP_LISTEN=127.0.0.1:1"

func TestBackupOpensTheFileWhenNoBotRuns(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := newDatabase(t, dir)
	env := []string{"TWENTYONE_STORAGE_PATH=" + db, noAdmin}

	out := filepath.Join(dir, "backup.db")
	code, _, stderr := runSub(t, env, "backup", "-o", out)
	require.Equal(t, exitOK, code, stderr)
	checkDatabase(t, out)

	code, stdout, stderr := runSub(t, env, "backup", "-o", "-")
	require.Equal(t, exitOK, code, stderr)
	fromStdout := filepath.Join(dir, "stdout.db")
	require.NoError(t, os.WriteFile(fromStdout, []byte(stdout), 0o600))
	checkDatabase(t, fromStdout)

	code, _, stderr = runSub(t, env, "backup", "-o", db)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "is the database itself")

	code, _, stderr = runSub(t, []string{"TWENTYONE_STORAGE_PATH=" + filepath.Join(dir, "none.db"), noAdmin}, "backup", "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "no database to open")
	assert.NoFileExists(t, filepath.Join(dir, "none.db"), "backup creates no database")
}

func TestBackupOfAFileInUse(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := newDatabase(t, dir)
	s, err := storage.Open(db, storage.Options{NoSync: true})
	require.NoError(t, err)
	defer s.Close()

	code, _, stderr := runSub(t, []string{"TWENTYONE_STORAGE_PATH=" + db, noAdmin}, "backup", "-o", filepath.Join(dir, "b.db"))
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "held by a running process")
	assert.Equal(t, 1, bytes.Count([]byte(stderr), []byte("\n")), stderr)
}

func TestCompact(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := newDatabase(t, dir)
	env := []string{"TWENTYONE_STORAGE_PATH=" + db}
	out := filepath.Join(dir, "compact.db")

	code, _, stderr := runSub(t, env, "compact", "-o", out)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "compacted to")
	checkDatabase(t, out)

	code, _, stderr = runSub(t, env, "compact", "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "exists")

	s, err := storage.Open(db, storage.Options{NoSync: true})
	require.NoError(t, err)
	defer s.Close()
	code, _, stderr = runSub(t, env, "compact", "-o", filepath.Join(dir, "c2.db"))
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "stop the bot")
}

// TestRealStoreThroughMain: the real store behind Main: the admin server's
// backup is a database, the open tables gauge reads it, and a second
// process on the file is refused.
func TestRealStoreThroughMain(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cfg := testConfig(t, "polling")
	cfg.Storage.Path = filepath.Join(dir, "twentyone.db")
	ev := &events{}
	b := newFakeBot(ev)
	m := NewMain(cfg, discardLogger())
	m.NewBot = func(context.Context, *Config, Store, *slog.Logger, *Metrics) (Bot, error) { return b, nil }
	require.NoError(t, m.Run(context.Background()))
	<-b.running

	code, body := httpGet(t, "http://"+m.AdminAddr()+"/metrics")
	assert.Equal(t, 200, code)
	assert.Contains(t, body, "twentyone_open_tables 0")

	out := filepath.Join(dir, "backup.db")
	code, _, stderr := runSub(t, []string{"TWENTYONE_HTTP_LISTEN=" + m.AdminAddr(), "TWENTYONE_STORAGE_PATH=" + cfg.Storage.Path}, "backup", "-o", out)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "from the running bot")

	_, err := openStore(cfg, NewMetrics(), discardLogger())
	require.ErrorIs(t, err, storage.ErrInUse)
	assert.Contains(t, err.Error(), "is the bot already running?")

	require.NoError(t, m.Close(context.Background()))
	checkDatabase(t, out)
}

func TestStoreOptions(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Table.Language = "en"
	cfg.Table.StartingChips = 700
	opts := storeOptions(&cfg)
	assert.Equal(t, int64(700), opts.StartingChips)
	assert.Equal(t, int64(100), opts.DailyBonus)
	assert.Equal(t, "en", opts.Defaults.Language)
	assert.True(t, cfg.Table.Game().Equal(opts.Defaults.Game))
}

// runAgainstTestServer runs `twentyone run` with the real store and bot
// against our Bot API test server, opens a table, and stops on SIGTERM.
func runAgainstTestServer(t *testing.T, srv *telegramtest.Server, env ...string) {
	t.Helper()
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice", LanguageCode: "en"})
	group := srv.NewGroup("Table", alice)
	dir := t.TempDir()
	t.Chdir(dir)
	ctx, stop := signalContext(context.Background())
	t.Cleanup(stop)
	stderr := &lockedBuffer{}
	var stdout bytes.Buffer
	cli := &CLI{Stdout: &stdout, Stderr: stderr, StopSignals: stop, Environ: append([]string{
		"TWENTYONE_TELEGRAM_TOKEN=" + srv.Token(),
		"TWENTYONE_TELEGRAM_API_ENDPOINT=" + srv.Endpoint(),
		"TWENTYONE_TELEGRAM_RATE_LIMITS=false",
		"TWENTYONE_TELEGRAM_POLL_TIMEOUT=5s",
		"TWENTYONE_HTTP_LISTEN=127.0.0.1:0",
		"TWENTYONE_STORAGE_PATH=" + filepath.Join(dir, "twentyone.db"),
		"TWENTYONE_LOG_LEVEL=debug",
		"TWENTYONE_LOG_FORMAT=json",
	}, env...)}
	code := make(chan int, 1)
	go func() { code <- cli.Run(ctx, []string{"run"}) }()

	wctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := srv.SendCommand(group.ID, alice.ID, "newgame")
	require.NoError(t, err)
	_, err = srv.WaitForBotMessage(wctx, group.ID, func(telegramtest.ChatMessage) bool { return true })
	require.NoError(t, err, "the bot answers /newgame")

	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	assert.Equal(t, exitOK, <-code)
	stderr.mu.Lock()
	defer stderr.mu.Unlock()
	logs := stderr.buf.String()
	assert.Contains(t, logs, `"msg":"stopped"`)
	assert.NotContains(t, logs, srv.Token())
	checkDatabase(t, filepath.Join(dir, "twentyone.db"))
}

func TestRunPollingAgainstTestServer(t *testing.T) {
	runAgainstTestServer(t, telegramtest.StartTest(t))
}

func TestRunWebhookAgainstTestServer(t *testing.T) {
	// Telegram needs the URL before we listen: take a free port.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	runAgainstTestServer(t, telegramtest.StartTest(t),
		"TWENTYONE_TELEGRAM_MODE=webhook",
		"TWENTYONE_TELEGRAM_WEBHOOK_LISTEN="+addr,
		"TWENTYONE_TELEGRAM_WEBHOOK_URL=http://"+addr+"/telegram")
}
