package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// The parts of a run around the load: its directory, the bot it starts,
// the first press that says the bot is up, and what a stuck run leaves.

// runDir returns the run's directory: dir, or a temporary one that done
// removes unless the run failed (then it says where the bot's log is).
func runDir(dir string, logf func(string, ...any)) (string, func(err error), error) {
	if dir != "" {
		return dir, func(error) {}, nil
	}
	dir, err := os.MkdirTemp("", "loadtest-")
	if err != nil {
		return "", nil, err
	}
	return dir, func(err error) {
		if err != nil {
			logf("kept %s: the bot's log is there", dir)
			return
		}
		_ = os.RemoveAll(dir)
	}, nil
}

// newTarget returns the bot the config asks for.
func newTarget(cfg Config, set botSettings, dir string) target {
	switch {
	case cfg.Binary != "":
		return &process{argv: []string{cfg.Binary, "run"}, set: set, logPath: filepath.Join(dir, "bot.log")}
	case cfg.Process:
		self, err := os.Executable()
		if err != nil {
			self = os.Args[0]
		}
		return &process{argv: []string{self}, set: set, logPath: filepath.Join(dir, "bot.log")}
	}
	t := &inProcess{set: set, log: discardLogger()}
	w := cfg.BotLog
	if w == nil {
		f, err := os.OpenFile(filepath.Join(dir, "bot.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return t
		}
		w, t.logFile = f, f
	}
	t.log = slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return t
}

// newProbe presses a button for the bot's first answer: a button on a
// message in a chat with no table, which the bot refuses at once. The press
// waits in the server's queue until the bot polls.
func newProbe(srv *telegramtest.Server) (*telegramtest.Callback, error) {
	u := srv.AddUser(telegramtest.User{FirstName: "Probe", LanguageCode: "en"})
	chat := srv.NewGroup("Probe", u)
	msg, err := sendAsBot(srv, chat.ID, "probe", "j:1")
	if err != nil {
		return nil, err
	}
	return srv.Press(telegramtest.Press{ChatID: chat.ID, From: u.ID, MessageID: msg, Data: "j:1"})
}

// dumpGoroutines writes the bot's goroutines to path, for a run that got
// stuck.
func dumpGoroutines(ctx context.Context, tgt target, path string, logf func(string, ...any)) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	switch t := tgt.(type) {
	case *inProcess:
		err = pprof.Lookup("goroutine").WriteTo(f, 2)
	case *process:
		err = fetch(ctx, "http://"+t.set.HTTPListen+"/debug/pprof/goroutine?debug=2", f)
	}
	if err != nil {
		// The twentyone binary serves no /debug/pprof.
		logf("stuck: the bot's goroutines could not be read: %v", err)
		_ = os.Remove(path)
		return
	}
	logf("stuck: the bot's goroutines are in %s", path)
}
