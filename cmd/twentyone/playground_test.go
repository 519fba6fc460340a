package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watchedBuffer is a goroutine-safe writer that can wait for what it holds
// to match.
type watchedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{}
}

func newWatchedBuffer() *watchedBuffer { return &watchedBuffer{wrote: make(chan struct{}, 1)} }

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return w.buf.Write(p)
}

func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// waitMatch waits until the text written matches re and returns the first
// submatch.
func (w *watchedBuffer) waitMatch(t *testing.T, re *regexp.Regexp, exited <-chan int) string {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		if m := re.FindStringSubmatch(w.String()); m != nil {
			return m[1]
		}
		select {
		case <-w.wrote:
		case code := <-exited:
			t.Fatalf("exited with %d before printing %s: %s", code, re, w.String())
		case <-deadline:
			t.Fatalf("nothing matched %s: %s", re, w.String())
		}
	}
}

var (
	urlRe    = regexp.MustCompile(`Twenty One playground: (http://127\.0\.0\.1:\d+)`)
	tmpDBRe  = regexp.MustCompile(`Database: (\S+) \(temporary`)
	anyDBRe  = regexp.MustCompile(`Database: (\S+)`)
	portRe   = regexp.MustCompile(`http://127\.0\.0\.1:(\d+)`)
	stateURL = "/api/state"
)

// playgroundRun runs the CLI with args in the background; stop cancels it
// and returns its exit code.
type playgroundRun struct {
	stdout, stderr *watchedBuffer
	exited         chan int
	cancel         context.CancelFunc
}

func startCLI(t *testing.T, env []string, args ...string) *playgroundRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &playgroundRun{stdout: newWatchedBuffer(), stderr: newWatchedBuffer(), exited: make(chan int, 1), cancel: cancel}
	cli := &CLI{Stdout: r.stdout, Stderr: r.stderr, Environ: env}
	go func() { r.exited <- cli.Run(ctx, args) }()
	t.Cleanup(cancel)
	return r
}

func (r *playgroundRun) stop(t *testing.T) int {
	t.Helper()
	r.cancel()
	select {
	case code := <-r.exited:
		return code
	case <-time.After(15 * time.Second):
		t.Fatalf("did not stop; stderr: %s", r.stderr.String())
		return -1
	}
}

// getState asks the page's API for the state and returns the users' names.
func getState(t *testing.T, url string) []string {
	t.Helper()
	resp, err := http.Get(url + stateURL)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var st struct {
		Users []struct {
			FirstName string `json:"first_name"`
		} `json:"users"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	var names []string
	for _, u := range st.Users {
		names = append(names, u.FirstName)
	}
	return names
}

func TestPlaygroundSubcommand(t *testing.T) {
	r := startCLI(t, []string{"TWENTYONE_LOG_LEVEL=warn"}, "playground", "-port", "0", "-seed", "42")
	url := r.stdout.waitMatch(t, urlRe, r.exited)
	db := r.stdout.waitMatch(t, tmpDBRe, r.exited)
	assert.Contains(t, r.stdout.String(), "decks: fixed by -seed 42")
	assert.Equal(t, []string{"Alice", "Bob", "Carol", "Dave", "Иван"}, getState(t, url))
	_, err := os.Stat(db)
	require.NoError(t, err, "the temporary database")

	require.Equal(t, exitOK, r.stop(t), r.stderr.String())
	_, err = os.Stat(db)
	assert.True(t, os.IsNotExist(err), "the temporary database is removed at exit")
	_, err = http.Get(url + stateURL)
	assert.Error(t, err, "the page is no longer served")
}

// TestPlaygroundPace: -pace telegram starts the playground under
// Telegram's rate limits, and says so; the default says how to. The
// playground's own log says what it was started with.
func TestPlaygroundPace(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		says  string
		paced bool
	}{
		{[]string{"playground", "-port", "0"}, "Pace: none (-pace telegram applies Telegram's rate limits)", false},
		{[]string{"playground", "-port", "0", "-pace", "none"}, "Pace: none", false},
		{[]string{"playground", "-port", "0", "-pace", "telegram"}, "Pace: Telegram's rate limits, about 20 writes a minute into a group", true},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := startCLI(t, []string{"TWENTYONE_LOG_LEVEL=info"}, tt.args...)
			r.stdout.waitMatch(t, urlRe, r.exited)
			assert.Contains(t, r.stdout.String(), tt.says)
			started := r.stderr.waitMatch(t, regexp.MustCompile(`playground started.*(paced=\w+)`), r.exited)
			assert.Contains(t, started, fmt.Sprintf("paced=%t", tt.paced), "the playground was started so")
			require.Equal(t, exitOK, r.stop(t), r.stderr.String())
		})
	}
}

func TestPlaygroundKeepsANamedDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "play.db")
	r := startCLI(t, []string{"TWENTYONE_LOG_LEVEL=warn", "TWENTYONE_TABLE_STARTING_CHIPS=500"}, "playground", "-port", "0", "-db", db)
	r.stdout.waitMatch(t, urlRe, r.exited)
	assert.Equal(t, db, r.stdout.waitMatch(t, anyDBRe, r.exited))
	assert.NotContains(t, r.stdout.String(), "temporary")
	require.Equal(t, exitOK, r.stop(t), r.stderr.String())
	_, err := os.Stat(db)
	assert.NoError(t, err, "a database named with -db is kept")
}

// TestRunWithoutTokenStartsThePlayground: with no token, `twentyone` alone
// (what a newcomer types) explains how to get one, then starts the
// playground.
func TestRunWithoutTokenStartsThePlayground(t *testing.T) {
	for _, args := range [][]string{nil, {"-config", "twentyone.yaml"}} {
		t.Run(fmt.Sprint(args), func(t *testing.T) {
			t.Chdir(t.TempDir())
			if len(args) > 0 {
				require.NoError(t, os.WriteFile("twentyone.yaml", []byte("log:\n  level: warn\n"), 0o600))
			}
			r := startCLI(t, []string{"TWENTYONE_LOG_LEVEL=warn"}, args...)
			url := r.stdout.waitMatch(t, urlRe, r.exited)
			out := r.stdout.String()
			assert.Contains(t, out, "@BotFather")
			assert.Contains(t, out, "twentyone playground")
			assert.Less(t, strings.Index(out, "@BotFather"), strings.Index(out, url), "the hint first, then the address")
			assert.Len(t, getState(t, url), 5)
			assert.Equal(t, exitOK, r.stop(t), r.stderr.String())
		})
	}
}

// TestRunNamedWithoutTokenStops: `twentyone run`, what Docker and service
// managers start, does not hide a missing token behind a playground nobody
// can reach: it explains how to get one and exits 2, serving nothing.
func TestRunNamedWithoutTokenStops(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "bot.db")
	var stdout, stderr bytes.Buffer
	cli := &CLI{Stdout: &stdout, Stderr: &stderr, Environ: []string{"TWENTYONE_STORAGE_PATH=" + db}}
	code := cli.Run(context.Background(), []string{"run"})
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout.String(), "no playground address")
	out := stderr.String()
	assert.Contains(t, out, "@BotFather")
	assert.Contains(t, out, "twentyone playground")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Equal(t, "twentyone: config: telegram.token: not set: the bot needs a token from @BotFather (see above)", lines[len(lines)-1])
	_, err := os.Stat(db)
	assert.True(t, os.IsNotExist(err), "no database is created")
}

// TestPlaygroundPortInUse: the default port, taken, gives way to a free
// one; a port asked for with -port does not.
func TestPlaygroundPortInUse(t *testing.T) {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", defaultPlaygroundPort))
	if err == nil {
		defer l.Close()
	} // else someone else holds it: taken all the same

	r := startCLI(t, []string{"TWENTYONE_LOG_LEVEL=warn"}, "playground")
	url := r.stdout.waitMatch(t, urlRe, r.exited)
	assert.NotEqual(t, fmt.Sprint(defaultPlaygroundPort), portRe.FindStringSubmatch(url)[1])
	require.Equal(t, exitOK, r.stop(t), r.stderr.String())

	var stdout, stderr bytes.Buffer
	cli := &CLI{Stdout: &stdout, Stderr: &stderr}
	code := cli.Run(context.Background(), []string{"playground", "-port", fmt.Sprint(defaultPlaygroundPort)})
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr.String(), "address already in use")
	assert.Empty(t, stdout.String())
}

func TestPlaygroundFlags(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		env    []string
		code   int
		stderr string
	}{
		{name: "help", args: []string{"playground", "-h"}, code: exitOK, stderr: "-seed number"},
		{name: "bad port", args: []string{"playground", "-port", "http"}, code: exitUsage, stderr: "a port is a number from 0 to 65535"},
		{name: "port too large", args: []string{"playground", "-port", "70000"}, code: exitUsage, stderr: "a port is a number"},
		{name: "bad seed", args: []string{"playground", "-seed", "-1"}, code: exitUsage, stderr: "a seed is a whole number"},
		{name: "bad pace", args: []string{"playground", "-pace", "fast"}, code: exitUsage, stderr: `-pace is none or telegram, not "fast"`},
		{name: "extra argument", args: []string{"playground", "now"}, code: exitUsage, stderr: `unexpected argument "now"`},
		{name: "bad config", args: []string{"playground"}, env: []string{"TWENTYONE_TABLE_STAKE=0"}, code: exitUsage, stderr: "table.stake"},
		{name: "bad host", args: []string{"playground", "-host", "192.0.2.1", "-port", "0"}, code: exitFailure, stderr: "serving the page on 192.0.2.1:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cli := &CLI{Stdout: &stdout, Stderr: &stderr, Environ: tt.env}
			assert.Equal(t, tt.code, cli.Run(context.Background(), tt.args), stderr.String())
			assert.Contains(t, stderr.String(), tt.stderr)
		})
	}
}
