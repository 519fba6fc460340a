package main

// Helpers of the end-to-end tests (e2e_test.go): the binary, built once per
// test run with the script the Docker image's build runs, started as a
// child process against our Bot API server (bot/telegramtest), and a game
// played through that server's chats only: while the binary runs it holds
// the database, so the tests see what a player sees.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// The version and commit the test binary is stamped with.
const (
	testVersion = "v9.9.9-test"
	testCommit  = "0123abc"
)

// waitLimit bounds every wait of the end-to-end tests.
const waitLimit = 20 * time.Second

var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// twentyoneBinary returns the binary, built on the first call of the test
// run by scripts/build-static.sh (as the Dockerfile builds it). It skips
// the test in -short mode.
func twentyoneBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the binary's tests use sh and SIGTERM")
	}
	built.once.Do(func() {
		if _, err := exec.LookPath("sh"); err != nil {
			built.err = fmt.Errorf("scripts/build-static.sh needs sh: %w", err)
			return
		}
		built.dir, built.err = os.MkdirTemp("", "twentyone-e2e-")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "twentyone")
		start := time.Now()
		cmd := exec.Command("sh", filepath.Join("..", "..", "scripts", "build-static.sh"), built.path)
		cmd.Env = append(os.Environ(), "VERSION="+testVersion, "COMMIT="+testCommit)
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("scripts/build-static.sh: %w\n%s", err, out)
			return
		}
		t.Logf("built %s in %s", built.path, time.Since(start).Round(time.Millisecond))
	})
	require.NoError(t, built.err)
	return built.path
}

// waitCtx returns a context that ends after waitLimit or with the test.
func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	t.Cleanup(cancel)
	return ctx
}

// botEnv is the environment of a binary that talks to srv and keeps its
// database at db: no rate limits, JSON logs, the admin server on a free
// port. extra is added last (a later variable wins).
func botEnv(srv *telegramtest.Server, db string, extra ...string) []string {
	return append([]string{
		"TWENTYONE_TELEGRAM_TOKEN=" + srv.Token(),
		"TWENTYONE_TELEGRAM_API_ENDPOINT=" + srv.Endpoint(),
		"TWENTYONE_TELEGRAM_RATE_LIMITS=false",
		"TWENTYONE_TELEGRAM_POLL_TIMEOUT=5s",
		"TWENTYONE_STORAGE_PATH=" + db,
		"TWENTYONE_HTTP_LISTEN=127.0.0.1:0",
		"TWENTYONE_LOG_FORMAT=json",
	}, extra...)
}

// freeAddr returns a loopback address with a port free at the time of the
// call, for a listener whose address must be known before it starts (the
// webhook, whose URL is registered with the Bot API). Another process may
// take the port before the listener does: see startWebhook.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// portTries is how many ports startWebhook tries.
const portTries = 5

// startWebhook starts the binary with env in webhook mode, listening on a
// loopback port picked free (freeAddr) with its webhook's URL there, and
// returns it once its webhook server listens, with that URL. The webhook's
// port cannot be left to the system (port 0): the binary registers its
// URL, port included, from its configuration. So when another process
// took the port between its pick and the binary's listen, which the
// binary reports by exiting with "address already in use", another port
// is tried.
func startWebhook(t *testing.T, env []string) (*proc, string) {
	t.Helper()
	for range portTries {
		addr := freeAddr(t)
		hook := "http://" + addr + "/telegram"
		p := startBinary(t, append(slices.Clip(env), "TWENTYONE_TELEGRAM_MODE=webhook",
			"TWENTYONE_TELEGRAM_WEBHOOK_LISTEN="+addr, "TWENTYONE_TELEGRAM_WEBHOOK_URL="+hook))
		if p.logged("webhook server listening") {
			return p, hook
		}
		require.Contains(t, p.stderr.String(), "address already in use", "the binary exited before its webhook server listened")
		t.Logf("%s was taken before the binary listened on it: trying another port", addr)
	}
	t.Fatalf("no port of %d tried was free long enough", portTries)
	return nil, ""
}

// proc is the binary running as a child process.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stderr *lines
	stdout lockedBuffer
	exited chan struct{} // closed once the process exited and its stderr was read
	admin  string        // the admin server's base URL, once known
}

// startBinary starts the binary with args and exactly the environment env,
// in an empty working directory. The process is killed at the end of the
// test if it still runs; its stderr is logged if the test failed, and must
// never hold the bot token.
func startBinary(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(twentyoneBinary(t), args...)
	cmd.Env = env
	cmd.Dir = t.TempDir()
	p := &proc{t: t, cmd: cmd, stderr: newLines(), exited: make(chan struct{})}
	cmd.Stdout = &p.stdout
	pipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	go func() {
		defer close(p.exited)
		sc := bufio.NewScanner(pipe)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.stderr.add(sc.Text())
		}
		p.stderr.close()
		_ = cmd.Wait() // after the last read from the pipe, as os/exec asks
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = cmd.Process.Kill()
			<-p.exited
		}
		logs := p.stderr.String()
		if t.Failed() {
			t.Logf("twentyone %s, stderr:\n%s", strings.Join(args, " "), logs)
		}
		for _, kv := range env {
			if token, ok := strings.CutPrefix(kv, "TWENTYONE_TELEGRAM_TOKEN="); ok && token != "" && strings.Contains(logs, token) {
				t.Errorf("the bot token appears in the logs")
			}
		}
	})
	return p
}

// runBinary runs the binary to its end and returns its exit code, stdout
// and stderr.
func runBinary(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	bin := twentyoneBinary(t) // before the deadline starts: the first call builds
	ctx := waitCtx(t)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.Dir = t.TempDir()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "twentyone %s did not end", strings.Join(args, " "))
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return ee.ExitCode(), out.String(), errOut.String()
	}
	require.NoError(t, err)
	return 0, out.String(), errOut.String()
}

// logged waits for a JSON log line whose msg is msg and reports whether
// one came; false when the process ended first.
func (p *proc) logged(msg string) bool {
	p.t.Helper()
	ctx := waitCtx(p.t)
	_, err := p.stderr.wait(ctx, func(line string) bool {
		var rec map[string]any
		return json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == msg
	})
	require.NoError(p.t, ctx.Err(), "waiting for the log line %q", msg)
	if err == nil {
		return true
	}
	select {
	case <-p.exited: // the stream ends just before
	case <-ctx.Done():
		p.t.Fatalf("the binary's stderr ended but it did not exit")
	}
	return false
}

// logRecord waits for the first JSON log line whose msg is msg and
// returns it decoded.
func (p *proc) logRecord(msg string) map[string]any {
	p.t.Helper()
	var rec map[string]any
	_, err := p.stderr.wait(waitCtx(p.t), func(line string) bool {
		rec = nil
		return json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == msg
	})
	require.NoError(p.t, err, "waiting for the log line %q", msg)
	return rec
}

// waitReady waits until the admin server answers /readyz with 200 and
// returns its base URL.
func (p *proc) waitReady() string {
	p.t.Helper()
	addr, _ := p.logRecord("admin server listening")["addr"].(string)
	require.NotEmpty(p.t, addr)
	p.admin = "http://" + addr
	poll(p.t, "/readyz answers 200", func() bool {
		select {
		case <-p.exited:
			p.t.Fatalf("the binary exited before it was ready")
		default:
		}
		resp, err := http.Get(p.admin + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return p.admin
}

// poll calls cond every few milliseconds until it holds, for conditions
// that only an HTTP endpoint or a counter tells; the test fails if it does
// not hold within waitLimit. cond runs in the test's goroutine.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, waitLimit)
		}
		<-tick.C
	}
}

// adminAddr returns the admin server's host:port.
func (p *proc) adminAddr() string { return strings.TrimPrefix(p.admin, "http://") }

// signal sends sig to the process.
func (p *proc) signal(sig os.Signal) {
	p.t.Helper()
	require.NoError(p.t, p.cmd.Process.Signal(sig))
}

// kill kills the process with SIGKILL and waits until it is gone.
func (p *proc) kill() {
	p.t.Helper()
	require.NoError(p.t, p.cmd.Process.Kill())
	select {
	case <-p.exited:
	case <-time.After(waitLimit):
		p.t.Fatalf("the binary still runs %s after SIGKILL", waitLimit)
	}
}

// waitExit waits up to limit for the process to end and returns its exit
// code.
func (p *proc) waitExit(limit time.Duration) int {
	p.t.Helper()
	select {
	case <-p.exited:
	case <-time.After(limit):
		p.t.Fatalf("the binary still runs after %s", limit)
	}
	if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		p.t.Fatalf("the binary was killed by %s", ws.Signal())
	}
	return p.cmd.ProcessState.ExitCode()
}

// lines collects a stream's lines and lets a test wait for one.
type lines struct {
	mu     sync.Mutex
	list   []string
	ended  bool
	change chan struct{} // closed and replaced on every change
}

func newLines() *lines { return &lines{change: make(chan struct{})} }

func (l *lines) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.list = append(l.list, line)
	close(l.change)
	l.change = make(chan struct{})
}

func (l *lines) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ended = true
	close(l.change)
	l.change = make(chan struct{})
}

// wait returns the first line that matches, waiting for it until ctx ends
// or the stream ends.
func (l *lines) wait(ctx context.Context, match func(string) bool) (string, error) {
	next := 0
	for {
		l.mu.Lock()
		for ; next < len(l.list); next++ {
			if match(l.list[next]) {
				line := l.list[next]
				l.mu.Unlock()
				return line, nil
			}
		}
		ended, change := l.ended, l.change
		l.mu.Unlock()
		if ended {
			return "", errors.New("the process ended first")
		}
		select {
		case <-change:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.list, "\n")
}

// count returns how many of the lines so far are JSON log records whose
// msg is msg.
func (l *lines) count(msg string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.list {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == msg {
			n++
		}
	}
	return n
}

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// table is a group chat with two players, Alice and Bob, on our Bot API
// server. Its methods play through the chat only, as the players would:
// they read the table message and press its buttons.
type table struct {
	t          *testing.T
	srv        *telegramtest.Server
	group      telegramtest.Chat
	alice, bob telegramtest.User
}

func newTable(t *testing.T, srv *telegramtest.Server) *table {
	tb := &table{t: t, srv: srv}
	tb.alice = srv.AddUser(telegramtest.User{FirstName: "Alice", LanguageCode: "en"})
	tb.bob = srv.AddUser(telegramtest.User{FirstName: "Bob", LanguageCode: "en"})
	tb.group = srv.NewGroup("Game night", tb.alice, tb.bob)
	return tb
}

// command sends "/name args" to the group as u.
func (tb *table) command(u telegramtest.User, name string, args ...string) {
	tb.t.Helper()
	_, err := tb.srv.SendCommand(tb.group.ID, u.ID, name, args...)
	require.NoError(tb.t, err)
}

// message waits for the newest bot message with a button of action a whose
// text contains every one of texts.
func (tb *table) message(a callback.Action, texts ...string) telegramtest.ChatMessage {
	tb.t.Helper()
	m, err := tb.srv.WaitForBotMessage(waitCtx(tb.t), tb.group.ID, func(m telegramtest.ChatMessage) bool {
		if _, ok := button(m, a); !ok {
			return false
		}
		for _, s := range texts {
			if !strings.Contains(m.Text, s) {
				return false
			}
		}
		return true
	})
	require.NoError(tb.t, err)
	return m
}

// button returns the callback data of m's button of action a; for Bet,
// the smallest bet.
func button(m telegramtest.ChatMessage, a callback.Action) (string, bool) {
	var best string
	var amount int64
	for _, b := range m.Buttons() {
		d, err := callback.Parse(b.CallbackData)
		if err != nil || d.Action != a {
			continue
		}
		if best == "" || d.Amount < amount {
			best, amount = b.CallbackData, d.Amount
		}
	}
	return best, best != ""
}

// press presses m's button of action a as u without waiting for the
// answer.
func (tb *table) press(u telegramtest.User, m telegramtest.ChatMessage, a callback.Action) *telegramtest.Callback {
	tb.t.Helper()
	data, ok := button(m, a)
	require.True(tb.t, ok, "no %s button on %q", a, m.Text)
	cb, err := tb.srv.Press(telegramtest.Press{ChatID: tb.group.ID, From: u.ID, MessageID: m.MessageID, Data: data})
	require.NoError(tb.t, err)
	return cb
}

// pressAndWait presses m's button of action a as u and returns the answer.
func (tb *table) pressAndWait(u telegramtest.User, m telegramtest.ChatMessage, a callback.Action) string {
	tb.t.Helper()
	answer, err := tb.press(u, m, a).Wait(waitCtx(tb.t))
	require.NoError(tb.t, err)
	return answer.Text
}

// open opens the table as Alice and seats Bob.
func (tb *table) open() {
	tb.t.Helper()
	tb.command(tb.alice, "newgame")
	lobby := tb.message(callback.Join, "Alice")
	require.Equal(tb.t, "You're in.", tb.pressAndWait(tb.bob, lobby, callback.Join))
	tb.message(callback.Start, "Alice", "Bob")
}

var bankerRE = regexp.MustCompile(`Banker: (\S+)`)

// start starts the game as Alice and returns the player whose duel comes:
// of two players, the one who is not the banker.
func (tb *table) start() telegramtest.User {
	tb.t.Helper()
	tb.pressAndWait(tb.alice, tb.message(callback.Start, "Bob"), callback.Start)
	// The deck waits for its cut: Alice, seated, taps ¼.
	tb.pressAndWait(tb.alice, tb.message(callback.Cut), callback.Cut)
	m := tb.message(callback.Bet)
	banker := bankerRE.FindStringSubmatch(m.Text)
	require.NotNil(tb.t, banker, "no banker in %q", m.Text)
	if banker[1] == tb.alice.FirstName {
		return tb.bob
	}
	return tb.alice
}

// bet bets the smallest amount offered as u and returns the answer.
func (tb *table) bet(u telegramtest.User) string {
	tb.t.Helper()
	return tb.pressAndWait(u, tb.message(callback.Bet), callback.Bet)
}

// stand stands as u, which ends a game of two, and returns the game-over
// table message.
func (tb *table) stand(u telegramtest.User) telegramtest.ChatMessage {
	tb.t.Helper()
	require.Contains(tb.t, tb.pressAndWait(u, tb.message(callback.Stand), callback.Stand), "Stand at")
	return tb.message(callback.Start, gameOver)
}

// gameOver starts the table message of a game that ended.
const gameOver = "🏁 Game over"
