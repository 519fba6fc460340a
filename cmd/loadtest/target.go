package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/twentyone-bot/twentyone/bot/config"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/service"
)

// botSettings configure the bot under load, the same way whichever way it
// runs: in this process, as `loadtest bot`, or as the twentyone binary
// (through the same TWENTYONE_* variables).
type botSettings struct {
	Endpoint      string
	Token         string
	DBPath        string
	StartingChips int64
	TurnTimeout   time.Duration
	LobbyTimeout  time.Duration
	PollTimeout   time.Duration
	// RateLimits paces the bot at Telegram's limits
	// (outbox.TelegramLimits), as telegram.rate_limits does.
	RateLimits bool
	// GlobalRate is telegram.global_rate; 0 leaves the default.
	GlobalRate int
	// HTTPListen is the child's admin address (/metrics for goroutines).
	HTTPListen string
	// WebappListen, WebappURL and WebappName are webapp.listen, .url and
	// .name: the Mini App's server and the app the table buttons open
	// (all empty: no app). WebappMaxViewers is webapp.max_viewers (0: the
	// default).
	WebappListen, WebappURL, WebappName string
	WebappMaxViewers                    int
}

// env returns the settings as twentyone's environment variables.
func (s botSettings) env() []string {
	env := []string{
		"TWENTYONE_TELEGRAM_TOKEN=" + s.Token,
		"TWENTYONE_TELEGRAM_API_ENDPOINT=" + s.Endpoint,
		"TWENTYONE_TELEGRAM_RATE_LIMITS=" + strconv.FormatBool(s.RateLimits),
		"TWENTYONE_TELEGRAM_POLL_TIMEOUT=" + s.PollTimeout.String(),
		"TWENTYONE_STORAGE_PATH=" + s.DBPath,
		"TWENTYONE_HTTP_LISTEN=" + s.HTTPListen,
		"TWENTYONE_LOG_LEVEL=warn",
		"TWENTYONE_TABLE_STARTING_CHIPS=" + strconv.FormatInt(s.StartingChips, 10),
		"TWENTYONE_TABLE_TURN_TIMEOUT=" + s.TurnTimeout.String(),
		"TWENTYONE_TABLE_LOBBY_TIMEOUT=" + s.LobbyTimeout.String(),
	}
	if s.GlobalRate > 0 {
		env = append(env, "TWENTYONE_TELEGRAM_GLOBAL_RATE="+strconv.Itoa(s.GlobalRate))
	}
	if s.WebappListen != "" {
		env = append(env, "TWENTYONE_WEBAPP_LISTEN="+s.WebappListen, "TWENTYONE_WEBAPP_URL="+s.WebappURL,
			"TWENTYONE_WEBAPP_NAME="+s.WebappName)
	}
	if s.WebappMaxViewers > 0 {
		env = append(env, "TWENTYONE_WEBAPP_MAX_VIEWERS="+strconv.Itoa(s.WebappMaxViewers))
	}
	return env
}

// settingsFromEnv reads what env writes.
func settingsFromEnv(getenv func(string) string) (botSettings, error) {
	s := botSettings{
		Endpoint:     getenv("TWENTYONE_TELEGRAM_API_ENDPOINT"),
		Token:        getenv("TWENTYONE_TELEGRAM_TOKEN"),
		DBPath:       getenv("TWENTYONE_STORAGE_PATH"),
		HTTPListen:   getenv("TWENTYONE_HTTP_LISTEN"),
		WebappListen: getenv("TWENTYONE_WEBAPP_LISTEN"),
		WebappURL:    getenv("TWENTYONE_WEBAPP_URL"),
		WebappName:   getenv("TWENTYONE_WEBAPP_NAME"),
	}
	var err error
	if s.RateLimits, err = strconv.ParseBool(getenv("TWENTYONE_TELEGRAM_RATE_LIMITS")); err != nil {
		return s, fmt.Errorf("TWENTYONE_TELEGRAM_RATE_LIMITS: %w", err)
	}
	if v := getenv("TWENTYONE_TELEGRAM_GLOBAL_RATE"); v != "" {
		if s.GlobalRate, err = strconv.Atoi(v); err != nil {
			return s, fmt.Errorf("TWENTYONE_TELEGRAM_GLOBAL_RATE: %w", err)
		}
	}
	if v := getenv("TWENTYONE_WEBAPP_MAX_VIEWERS"); v != "" {
		if s.WebappMaxViewers, err = strconv.Atoi(v); err != nil {
			return s, fmt.Errorf("TWENTYONE_WEBAPP_MAX_VIEWERS: %w", err)
		}
	}
	if s.StartingChips, err = strconv.ParseInt(getenv("TWENTYONE_TABLE_STARTING_CHIPS"), 10, 64); err != nil {
		return s, fmt.Errorf("TWENTYONE_TABLE_STARTING_CHIPS: %w", err)
	}
	for name, d := range map[string]*time.Duration{
		"TWENTYONE_TABLE_TURN_TIMEOUT":    &s.TurnTimeout,
		"TWENTYONE_TABLE_LOBBY_TIMEOUT":   &s.LobbyTimeout,
		"TWENTYONE_TELEGRAM_POLL_TIMEOUT": &s.PollTimeout,
	} {
		if *d, err = time.ParseDuration(getenv(name)); err != nil {
			return s, fmt.Errorf("%s: %w", name, err)
		}
	}
	if s.Token == "" || s.Endpoint == "" || s.DBPath == "" {
		return s, errors.New("TWENTYONE_TELEGRAM_TOKEN, TWENTYONE_TELEGRAM_API_ENDPOINT and TWENTYONE_STORAGE_PATH are required")
	}
	return s, nil
}

// config returns the settings as the config twentyone would load from
// them: the same variables, read by the same loader.
func (s botSettings) config() (*config.Config, error) {
	cfg, err := config.Load("", false, s.env())
	if err != nil {
		return nil, fmt.Errorf("the bot's settings: %w", err)
	}
	return cfg, nil
}

// limits are the outgoing calls' limits the bot keeps.
func (s botSettings) limits() outbox.Limits {
	cfg, err := s.config()
	if err != nil {
		return outbox.Limits{}
	}
	return service.Limits(cfg)
}

// openBot opens the store (with fsync) and connects the bot, built from
// the settings as twentyone builds it (service.Open), with the Mini App's
// server when webapp.listen is set (service.WithApp; serveApp serves it).
func openBot(ctx context.Context, s botSettings, log *slog.Logger, onCommit func(time.Duration, int)) (*service.Service, error) {
	cfg, err := s.config()
	if err != nil {
		return nil, err
	}
	opts := []service.Option{service.WithLogger(log), service.OnCommit(onCommit)}
	if s.WebappListen != "" {
		opts = append(opts, service.WithApp())
	}
	return service.Open(ctx, cfg, opts...)
}

// target is the bot under load.
type target interface {
	// start starts the bot; it returns once the bot runs (not necessarily
	// polling yet).
	start(ctx context.Context) error
	// stop stops the bot gracefully: the pending renders are sent.
	stop(ctx context.Context) error
	// kill stops the bot as SIGKILL does.
	kill() error
	// memory returns the bot's resident and peak resident memory in bytes.
	memory() (rss, peak int64, err error)
	// goroutines returns how many goroutines the bot runs.
	goroutines(ctx context.Context) (int, error)
	// mem returns the bot's memory in detail.
	mem() (memStatus, error)
	// written returns how many bytes the bot has written to disk.
	written() (int64, error)
	// describe says what runs, for the report.
	describe() string
	// exited is closed when the bot started last stopped running.
	exited() <-chan struct{}
}

// inProcess runs the bot in this process: figures of memory and
// goroutines then include the load tool's.
type inProcess struct {
	set     botSettings
	log     *slog.Logger
	logFile io.Closer // the log's file, closed by stop
	commits atomic.Int64
	writes  atomic.Int64
	commit  *histogram // commit durations, fsync included

	svc    *service.Service
	app    *appServer
	cancel context.CancelFunc
	done   chan struct{}
}

func (t *inProcess) describe() string {
	return "in-process (memory and goroutines include the load tool's own)"
}

func (t *inProcess) start(ctx context.Context) error {
	if t.commit == nil {
		t.commit = newHistogram()
	}
	svc, err := openBot(ctx, t.set, t.log, func(d time.Duration, writes int) {
		t.commits.Add(1)
		t.writes.Add(int64(writes))
		t.commit.add(d)
	})
	if err != nil {
		return err
	}
	rctx, cancel := context.WithCancel(context.Background())
	t.svc, t.cancel, t.done = svc, cancel, make(chan struct{})
	go func() {
		defer close(t.done)
		if err := svc.Bot.Run(rctx); err != nil {
			t.log.Error("bot stopped", "err", err)
		}
	}()
	if t.app, err = serveApp(svc, t.set.WebappListen, t.log); err != nil {
		return errors.Join(err, t.stop(ctx))
	}
	return nil
}

func (t *inProcess) stop(ctx context.Context) error {
	if t.svc == nil {
		return nil
	}
	err := t.app.shutdown(ctx)
	t.cancel()
	<-t.done
	err = errors.Join(err, t.svc.Close(ctx))
	if t.logFile != nil {
		err = errors.Join(err, t.logFile.Close())
		t.logFile = nil
	}
	t.svc, t.app = nil, nil
	return err
}

func (t *inProcess) exited() <-chan struct{} { return t.done }

func (t *inProcess) kill() error {
	return errors.New("the in-process bot cannot be killed: use -process or -binary")
}

func (t *inProcess) memory() (int64, int64, error) { return procStatus("self") }

func (t *inProcess) written() (int64, error) { return procWriteBytes("self") }

func (t *inProcess) mem() (memStatus, error) { return readMem("self") }

func (t *inProcess) goroutines(context.Context) (int, error) { return runtime.NumGoroutine(), nil }

// process runs the bot as a child process: `loadtest bot` (this binary)
// or the twentyone binary.
type process struct {
	argv    []string
	set     botSettings
	logPath string

	mu    sync.Mutex
	cmd   *exec.Cmd
	done  chan struct{}
	peak  int64 // the highest VmHWM of any run
	runs  int
	kills int
}

func (t *process) exited() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.done
}

func (t *process) describe() string {
	return fmt.Sprintf("child process %s (memory and goroutines are the bot's alone)", strings.Join(t.argv, " "))
}

func (t *process) start(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.set.HTTPListen == "" {
		addr, err := freePort()
		if err != nil {
			return err
		}
		t.set.HTTPListen = addr
	}
	logf, err := os.OpenFile(t.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("the bot's log: %w", err)
	}
	fmt.Fprintf(logf, "--- start %d at %s\n", t.runs+1, time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(t.argv[0], t.argv[1:]...)
	// In the run's directory, so that a twentyone.yaml where the tool was
	// started does not configure the bot under test.
	cmd.Dir = filepath.Dir(t.logPath)
	cmd.Env = append(withoutTwentyone(os.Environ()), t.set.env()...)
	cmd.Env = append(cmd.Env, childEnv+"=bot")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		_ = logf.Close()
		return fmt.Errorf("starting %s: %w", t.argv[0], err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		_ = logf.Close()
		close(done)
	}()
	t.cmd, t.done = cmd, done
	t.runs++
	return nil
}

// sample reads the child's peak memory while it lives.
func (t *process) sample() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cmd == nil {
		return
	}
	if _, peak, err := procStatus(strconv.Itoa(t.cmd.Process.Pid)); err == nil {
		t.peak = max(t.peak, peak)
	}
}

// take samples the running bot a last time and takes it over for stopping
// it: nil when none runs.
func (t *process) take() (*exec.Cmd, chan struct{}) {
	t.sample()
	t.mu.Lock()
	defer t.mu.Unlock()
	cmd, done := t.cmd, t.done
	t.cmd = nil
	return cmd, done
}

func (t *process) stop(ctx context.Context) error {
	cmd, done := t.take()
	if cmd == nil {
		return nil
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("the bot did not stop on SIGTERM: killed: %w", ctx.Err())
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		return fmt.Errorf("the bot exited with %d (log: %s)", code, t.logPath)
	}
	return nil
}

func (t *process) kill() error {
	cmd, done := t.take()
	if cmd == nil {
		return errors.New("no bot runs")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill -9: %w", err)
	}
	<-done
	t.mu.Lock()
	t.kills++
	t.mu.Unlock()
	return nil
}

func (t *process) memory() (int64, int64, error) {
	t.mu.Lock()
	cmd := t.cmd
	t.mu.Unlock()
	if cmd == nil {
		return 0, t.peak, errors.New("no bot runs")
	}
	rss, peak, err := procStatus(strconv.Itoa(cmd.Process.Pid))
	if err != nil {
		return 0, t.peak, err
	}
	t.mu.Lock()
	t.peak = max(t.peak, peak)
	peak = t.peak
	t.mu.Unlock()
	return rss, peak, nil
}

func (t *process) mem() (memStatus, error) {
	t.mu.Lock()
	cmd := t.cmd
	t.mu.Unlock()
	if cmd == nil {
		return memStatus{}, errors.New("no bot runs")
	}
	return readMem(strconv.Itoa(cmd.Process.Pid))
}

func (t *process) written() (int64, error) {
	t.mu.Lock()
	cmd := t.cmd
	t.mu.Unlock()
	if cmd == nil {
		return 0, errors.New("no bot runs")
	}
	return procWriteBytes(strconv.Itoa(cmd.Process.Pid))
}

func (t *process) goroutines(ctx context.Context) (int, error) {
	n, err := scrapeGauge(ctx, "http://"+t.set.HTTPListen+"/metrics", "go_goroutines")
	return int(n), err
}

// withoutTwentyone drops the TWENTYONE_* variables of this environment, so
// that the child sees only ours.
func withoutTwentyone(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TWENTYONE_") && !strings.HasPrefix(kv, childEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// freePort returns a loopback address with a port free a moment ago.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("finding a free port: %w", err)
	}
	addr := l.Addr().String()
	return addr, l.Close()
}

// discardLogger drops every record.
func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
