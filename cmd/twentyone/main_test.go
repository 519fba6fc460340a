package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/twentyone-bot/twentyone/bot/config"
	"github.com/twentyone-bot/twentyone/bot/service"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/storage"
)

// testConfig is the configuration of a bot on srv with its database at db
// and the admin server on a free port.
// testToken is a token as @BotFather gives them, for the tests that check
// it is never printed.
const testToken = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"

// writeFile writes content to a new file name in a temporary directory and
// returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

func testConfig(srv *telegramtest.Server, db string) *config.Config {
	cfg := config.Default()
	cfg.Telegram.Token = config.Secret(srv.Token())
	cfg.Telegram.APIEndpoint = srv.Endpoint()
	cfg.Telegram.RateLimits = false
	cfg.Telegram.PollTimeout = 5 * time.Second
	cfg.Storage.Path = db
	cfg.HTTP.Listen = "127.0.0.1:0"
	return &cfg
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	var body bytes.Buffer
	_, err = body.ReadFrom(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, body.String()
}

// TestMainRunAndClose: Main with the real store and bot on our Bot API
// server. While it runs, the admin server answers, the bot plays, the
// database is held (a second opening is refused with a hint) and
// `twentyone backup` gets a copy from it; Close stops the admin server and
// closes the database, and a second Close is harmless.
func TestMainRunAndClose(t *testing.T) {
	srv := telegramtest.StartTest(t)
	dir := t.TempDir()
	t.Chdir(dir)
	cfg := testConfig(srv, filepath.Join(dir, "twentyone.db"))
	m := NewMain(cfg, discardLogger())
	require.NoError(t, m.Run(context.Background()))
	t.Cleanup(func() { _ = m.Close(context.Background()) })
	base := "http://" + m.AdminAddr()

	code, _ := httpGet(t, base+"/healthz")
	assert.Equal(t, http.StatusOK, code)
	code, _ = httpGet(t, base+"/readyz")
	assert.Equal(t, http.StatusOK, code)
	code, body := httpGet(t, base+"/metrics")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "twentyone_open_tables 0")

	tb := newTable(t, srv)
	tb.open()
	_, body = httpGet(t, base+"/metrics")
	assert.Contains(t, body, "twentyone_open_tables 1")

	_, err := service.OpenStore(cfg)
	require.ErrorIs(t, err, storage.ErrInUse)
	assert.Contains(t, err.Error(), "is the bot already running?")

	sock := cfg.Storage.Path + ".sock"
	assert.Equal(t, sock, m.BackupSocketAddr(), "the backup socket is next to the database")
	out := filepath.Join(dir, "backup.db")
	code, _, stderr := runSub(t, []string{"TWENTYONE_STORAGE_PATH=" + cfg.Storage.Path, "TWENTYONE_HTTP_LISTEN=off"}, "backup", "-o", out)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "from the running bot", "through the socket, not the admin server")

	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	require.NoError(t, m.Close(ctx))
	_, err = http.Get(base + "/healthz")
	assert.Error(t, err, "the admin server is down")
	assert.NoFileExists(t, sock, "the backup socket is removed")
	auditDatabase(t, cfg.Storage.Path) // opens: it was closed
	audits := auditDatabase(t, out)
	require.Len(t, audits, 1)
	assert.EqualValues(t, 2000, audits[0].Granted)
	assert.NoError(t, m.Close(ctx), "a second Close is harmless")
}

// TestMainStartFailures: a Bot API failure while starting stops the
// program: in polling mode through Err, in webhook mode from Run.
func TestMainStartFailures(t *testing.T) {
	tests := []struct {
		mode   string
		method string
		want   string
	}{
		{mode: "polling", method: "deleteWebhook", want: "polling: bot: removing the webhook before polling"},
		{mode: "webhook", method: "setWebhook", want: "registering the webhook"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			srv := telegramtest.StartTest(t, telegramtest.WithLoopbackWebhooks())
			srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{tt.method}})
			cfg := testConfig(srv, filepath.Join(t.TempDir(), "twentyone.db"))
			cfg.Telegram.Mode = tt.mode
			var m *Main
			var err error
			for range portTries { // as startWebhook: the port picked may be taken before Run listens
				addr := freeAddr(t)
				cfg.Telegram.Webhook = config.WebhookConfig{Listen: addr, URL: "http://" + addr + "/hook", Secret: "s3cret"}
				m = NewMain(cfg, discardLogger())
				err = m.Run(context.Background())
				if !errors.Is(err, syscall.EADDRINUSE) {
					break
				}
				require.NoError(t, m.Close(context.Background()))
			}
			if err == nil {
				select {
				case err = <-m.Err():
				case <-time.After(waitLimit):
					t.Fatal("no failure reported")
				}
			}
			assert.ErrorContains(t, err, tt.want)
			assert.ErrorContains(t, err, "Internal Server Error")
			require.NoError(t, m.Close(context.Background()))
			auditDatabase(t, cfg.Storage.Path) // closed
		})
	}
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
		{name: "version", args: []string{"version"}, code: exitOK, stdout: "twentyone " + release + " (commit "},
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
		// No token: the hint, then the playground (playground_test.go).
		{name: "explicit missing config", args: []string{"run", "-config", "nope.yaml"}, code: exitUsage, stderr: "config: reading nope.yaml"},
		// In an empty directory: no bot's socket is there (TestHealthcheck
		// asks a running bot).
		{name: "healthcheck, nothing runs", args: []string{"healthcheck"}, env: []string{"TWENTYONE_HTTP_LISTEN=off"}, code: exitFailure, stderr: "twentyone healthcheck:"},
		{name: "healthcheck, nothing to ask", args: []string{"healthcheck"}, env: []string{"TWENTYONE_HTTP_LISTEN=off", "TWENTYONE_HTTP_BACKUP_SOCKET=off"},
			code: exitFailure, stderr: "http.listen and http.backup_socket are both off"},
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

// TestHealthcheck: `twentyone healthcheck` asks the running bot's admin
// server, or its backup socket when the admin server is off, and fails
// once the bot stopped.
func TestHealthcheck(t *testing.T) {
	for _, admin := range []bool{true, false} {
		t.Run(fmt.Sprintf("admin server %v", admin), func(t *testing.T) {
			srv := telegramtest.StartTest(t)
			cfg := testConfig(srv, filepath.Join(t.TempDir(), "twentyone.db"))
			if !admin {
				cfg.HTTP.Listen = ""
			}
			m := NewMain(cfg, discardLogger())
			require.NoError(t, m.Run(context.Background()))
			asked := *cfg
			if admin {
				asked.HTTP.Listen = m.AdminAddr()
			}
			assert.NoError(t, healthcheck(context.Background(), &asked))
			require.NoError(t, m.Close(context.Background()))
			assert.Error(t, healthcheck(context.Background(), &asked), "nobody answers once it stopped")
		})
	}
}

// TestRunAddressTaken: when another program holds the admin address or
// the Mini App's, Run says which and leaves the database alone: no file
// is created.
func TestRunAddressTaken(t *testing.T) {
	tests := []struct {
		name   string
		set    func(cfg *config.Config, addr string)
		server string
	}{
		{"the admin server's", func(cfg *config.Config, addr string) { cfg.HTTP.Listen = addr }, "admin server"},
		{"the app server's", func(cfg *config.Config, addr string) { cfg.WebApp.Listen = addr }, "app server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.StartTest(t)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			defer ln.Close()
			db := filepath.Join(t.TempDir(), "twentyone.db")
			cfg := testConfig(srv, db)
			tt.set(cfg, ln.Addr().String())
			m := NewMain(cfg, discardLogger())
			err = m.Run(context.Background())
			require.ErrorIs(t, err, syscall.EADDRINUSE)
			assert.Contains(t, err.Error(), tt.server)
			require.NoError(t, m.Close(context.Background()))
			assert.NoFileExists(t, db, "the database was not created")
		})
	}
}

// TestRunBackupSocketTaken: when a file that is no socket is where the
// backup socket goes, Run says so and leaves both alone: the file keeps
// its content, no database is created.
func TestRunBackupSocketTaken(t *testing.T) {
	srv := telegramtest.StartTest(t)
	db := filepath.Join(t.TempDir(), "twentyone.db")
	require.NoError(t, os.WriteFile(db+".sock", []byte("precious"), 0o600))
	m := NewMain(testConfig(srv, db), discardLogger())
	err := m.Run(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not a socket")
	require.NoError(t, m.Close(context.Background()))
	assert.NoFileExists(t, db, "the database was not created")
	data, err := os.ReadFile(db + ".sock")
	require.NoError(t, err)
	assert.Equal(t, "precious", string(data))
}
