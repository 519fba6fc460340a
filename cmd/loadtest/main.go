// Command loadtest puts numbers on the bot's speed and reliability. It
// starts our Bot API server (bot/telegramtest, rate limits off) and the real
// bot with a real BoltDB file that fsyncs, then plays N chats × 4 simulated
// players who press random legal buttons as fast as the bot answers (or at
// a paced rate), and prints presses per second, press-to-edit latency, Bot
// API calls per press, memory and goroutines, each next to a floor measured
// in the same run: a bare bbolt commit of a table's size and a bare HTTP
// round trip to the same server. At the end every game in progress is
// played to its end and the run is checked: the audit of every chat, every
// chat showing its table's latest version, no press applied twice, every
// press answered.
//
// With -paced it measures what players see under Telegram's limits instead:
// the server enforces them (telegramtest.TelegramRateLimits), the bot paces
// below them, the players take a person's time over each choice, and it
// reports the time from a press to the table showing it, the time to the
// toast, the writes per group and over all, how evenly the global budget
// is shared, and how far the tables shown lag behind; any 429 or a starved
// group fails the run. With -asks R the players of each group also send
// personal commands (/balance, /stats, /history, /bonus), R a minute each,
// ephemerally where the bot's menu declares them so, and it reports the
// writes per game the group sees, the answers only their asker saw, and
// the time from an ask to its answer; an ask never answered fails the run.
//
// With -inline F a share F of the chats are inline tables instead of
// groups: in a group the bot is not in, the first player types @bot (an
// inline query), chooses one of the tables the bot answers with, and
// opens the table the server posts from them "via @bot"; the four players
// then press on that inline message as on a group's table message, by its
// inline_message_id and with the chat's chat_instance, whose wallet holds
// the chips, and the bot edits it paced as a group's message. The checks
// cover them too (the audit of each chat_instance's wallet, each inline
// message showing its table's latest version), and the report puts the
// groups' and the inline tables' figures side by side; in a paced run a
// 429 on an inline message or a starved inline table fails it as a
// group's does.
//
// With -app V every group's table is watched in the Mini App: the bot
// serves its app (webapp.listen, .url, .name) and V viewers of each table,
// its four players and V-4 more members, each hold its stream
// (/api/stream, initData signed with the bot's token, the table named by
// the ref its message's app button carries), read as the page reads it.
// The players make a share of their choices (-app-share) through the app
// (/api/act with a button's callback data), the rest in the chat, at a
// person's pace; with -app-flat every choice goes through the app, each as
// soon as the player's viewer holds the version the last action made.
// It reports, for presses in the chat and actions through the app apart,
// the time from each action to every viewer of its table holding its
// version and to the chat's message showing it, the bytes per update and
// per second over all streams, and the streams refused or broken; an
// action that never reached every viewer, a viewer not holding the
// stored version at the end, or a stream refused or broken fails the run.
//
//	loadtest [flags]                          a load run
//	loadtest -app 4 -chats 1000               the Mini App: 4 viewers a table, half the choices through the app
//	loadtest -app 4 -app-flat -paced          every choice through the app, flat out; the chat under Telegram's limits
//	loadtest -rate 500                        at a steady 500 presses/s, for latency
//	loadtest -paced -chats 1000 -duration 5m  human players under Telegram's limits: what they see
//	loadtest -paced -chats 100 -inline 0.5    half of the chats inline tables, beside the groups
//	loadtest -paced -chats 10 -asks 1         players who ask for their chips: the writes per game into a group
//	loadtest -process -preload 10000          memory and start-up with 10,000 stored tables
//	loadtest -chaos-kills 20 -duration 60s    kill -9 the bot at random moments
//	loadtest -faults                          5xx, dropped connections, slow answers, 429 bursts
//	loadtest -soak 10m -rate 500 -process     a steady soak: memory and goroutines at start and end
//	loadtest -lobbies 100000 -process         memory when 100,000 chats open a table once and every lobby times out
//	loadtest bot                              (internal) run the bot as a child, configured by TWENTYONE_*
//
// The bot runs in this process by default, as a child process of this
// binary with -process, or as the twentyone binary with -binary PATH (built
// with `go build ./cmd/twentyone`). Chaos kills need a child process.
//
// It exits 0 when every check passed, 1 when one failed, 2 on bad flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	if os.Getenv(childEnv) == "bot" || len(os.Args) > 1 && os.Args[1] == "bot" {
		os.Exit(runChild())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(cli(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// cli runs the load tool with args and returns the exit code.
func cli(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg Config
	var soak time.Duration
	var quiet bool
	var lobbies int
	fs.IntVar(&cfg.Chats, "chats", 100, "chats playing at once, 4 players each")
	fs.Float64Var(&cfg.Inline, "inline", 0, "the `share` (0 to 1) of the chats that are inline tables: posted via @bot into a group the bot is not in and played on that inline message, chips per chat_instance; the rest are groups")
	fs.DurationVar(&cfg.Duration, "duration", 10*time.Second, "length of the measured part")
	fs.DurationVar(&cfg.Warmup, "warmup", 2*time.Second, "length of the unmeasured start")
	fs.Float64Var(&cfg.Rate, "rate", 0, "presses per second over all chats; 0: as fast as the bot answers")
	fs.BoolVar(&cfg.Paced, "paced", false, "under Telegram's limits, enforced by the server and kept by the bot, with players who take 1 to 4 s a choice (5 %: 10 to 40 s); reports what they see")
	fs.IntVar(&cfg.GlobalRate, "global-rate", 0, "with -paced, the bot's telegram.global_rate in calls a second (0: Telegram's, 25); the server's global limit moves with it")
	fs.Float64Var(&cfg.Asks, "asks", 0, "with -paced, each player of a group sends a personal command (/balance, /stats, /history, /bonus) this many `times` a minute on average, ephemerally where the bot's menu declares it so, and waits for its answer; reports the writes per game into a group, the answers only their asker saw, ask→answer; an ask never answered fails the run")
	fs.IntVar(&cfg.App, "app", 0, "watch every group's table in the Mini App with `V` viewers (at least the 4 players; the rest more members), each holding a stream; the players act through the app (-app-share) or in the chat, at a person's pace; reports action→every viewer, bytes per update, streams refused or broken")
	fs.Float64Var(&cfg.AppShare, "app-share", 0.5, "with -app, the `share` (0 to 1) of the players' choices made through the app, the rest in the chat")
	fs.Float64Var(&cfg.Think, "think", 1, "the `share` (above 0, at most 1) of a person's time the players take over a choice where they take their time (-paced, -app without -app-flat): below 1, a faster crowd")
	fs.BoolVar(&cfg.AppFlat, "app-flat", false, "with -app, every choice through the app and flat out: a player acts as soon as their viewer holds the version the last action made")
	fs.StringVar(&cfg.DB, "db", "", "the database `file` (default: a temporary one)")
	fs.StringVar(&cfg.Dir, "dir", "", "keep the database, scratch files and the bot's log in this `directory` (default: a temporary one, removed)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the players' choices and the injected faults")
	fs.IntVar(&cfg.Preload, "preload", 0, "fill the database with `N` tables in progress before the bot starts")
	fs.BoolVar(&cfg.Process, "process", false, "run the bot as a child process of this binary (memory and goroutines are then the bot's alone)")
	fs.StringVar(&cfg.Binary, "binary", "", "run this twentyone `binary` as the bot (`go build ./cmd/twentyone`)")
	fs.IntVar(&cfg.ChaosKills, "chaos-kills", 0, "kill -9 the bot `N` times at random moments, restarting it each time (implies -process)")
	fs.BoolVar(&cfg.Faults, "faults", false, "inject 5 % 5xx, 1 % dropped connections, 5 % slow answers and 429 bursts")
	fs.DurationVar(&soak, "soak", 0, "a soak of this length: sets -duration, and -rate 500 unless given")
	fs.DurationVar(&cfg.TurnTimeout, "turn-timeout", 10*time.Minute, "the tables' turn timeout")
	fs.DurationVar(&cfg.DrainTimeout, "drain-timeout", 2*time.Minute, "how long the end may take to play every game out")
	fs.DurationVar(&cfg.FloorSpan, "floor", 2*time.Second, "how long each floor is measured")
	fs.DurationVar(&cfg.Progress, "progress", 2*time.Second, "interval of the progress line")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the measured part to `file` (in-process: bot, server and players)")
	fs.IntVar(&lobbies, "lobbies", 0, "instead of a load run: `N` chats open a table once and never play; the bot is stopped once every lobby is shown and started again after their timeout (2 min), so that every table closes at once; reports the bot's peak memory and goroutines and its memory after (use with -process or -binary)")
	fs.BoolVar(&quiet, "q", false, "no progress lines")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "loadtest: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if err := checkFlags(cfg, soak, lobbies); err != nil {
		fmt.Fprintf(stderr, "loadtest: %v\n", err)
		return 2
	}
	if cfg.Binary != "" {
		bin, err := resolveBinary(cfg.Binary)
		if err != nil {
			fmt.Fprintf(stderr, "loadtest: -binary: %v\n", err)
			return 2
		}
		cfg.Binary = bin
	}
	if soak > 0 {
		cfg.Duration = soak
		if cfg.Rate == 0 && !cfg.Paced {
			cfg.Rate = 500
		}
	}
	if cfg.ChaosKills > 0 && cfg.Binary == "" {
		cfg.Process = true
	}
	if !quiet {
		cfg.Log = stderr
	}
	if cfg.Dir != "" {
		dir, err := keptDir(cfg.Dir)
		if err != nil {
			fmt.Fprintf(stderr, "loadtest: %v\n", err)
			return 1
		}
		cfg.Dir = dir
	}
	if lobbies > 0 {
		cfg.defaults()
		res, err := runLobbies(ctx, cfg, lobbies)
		if err != nil {
			fmt.Fprintf(stderr, "loadtest: %v\n", err)
			return 1
		}
		res.print(stdout)
		if len(res.problems()) > 0 {
			return 1
		}
		return 0
	}
	res, err := run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "loadtest: %v\n", err)
		return 1
	}
	res.print(stdout, cfg)
	if len(res.problems(cfg.Faults)) > 0 {
		return 1
	}
	return 0
}

// checkFlags refuses the values no run can use, so that a typo is not
// quietly replaced by a default.
func checkFlags(cfg Config, soak time.Duration, lobbies int) error {
	positive := []struct {
		name string
		ok   bool
	}{
		{"-chats", cfg.Chats > 0},
		{"-duration", cfg.Duration > 0},
		{"-turn-timeout", cfg.TurnTimeout > 0},
		{"-drain-timeout", cfg.DrainTimeout > 0},
		{"-floor", cfg.FloorSpan > 0},
		{"-progress", cfg.Progress > 0},
	}
	for _, p := range positive {
		if !p.ok {
			return fmt.Errorf("%s must be above 0", p.name)
		}
	}
	switch {
	case cfg.Warmup < 0:
		return errors.New("-warmup must not be negative")
	case cfg.Rate < 0:
		return errors.New("-rate must not be negative (0: as fast as the bot answers)")
	case cfg.Preload < 0 || cfg.Preload > maxPreload:
		return fmt.Errorf("-preload must be 0 to %d", maxPreload)
	case cfg.ChaosKills < 0:
		return errors.New("-chaos-kills must not be negative")
	case soak < 0:
		return errors.New("-soak must not be negative")
	case cfg.Process && cfg.Binary != "":
		return errors.New("-process and -binary both say how to run the bot: give one")
	case lobbies < 0 || lobbies > maxPreload:
		return fmt.Errorf("-lobbies must be 0 to %d", maxPreload)
	case cfg.Paced && cfg.Rate > 0:
		return errors.New("-paced players press at their own pace: -rate does not apply")
	case cfg.Paced && cfg.Faults:
		return errors.New("-paced counts every 429 as a failure: -faults injects them")
	case cfg.Paced && lobbies > 0:
		return errors.New("-lobbies is a run of its own: -paced does not apply")
	case cfg.GlobalRate < 0 || cfg.GlobalRate > 1000:
		return errors.New("-global-rate must be 0 to 1000 calls a second (0: Telegram's)")
	case cfg.GlobalRate > 0 && !cfg.Paced:
		return errors.New("-global-rate paces the bot: it needs -paced")
	case !(cfg.Think > 0 && cfg.Think <= 1):
		return errors.New("-think must be a share of a person's time, above 0 and at most 1")
	case cfg.Think != 1 && (cfg.AppFlat || !cfg.Paced && cfg.App == 0):
		return errors.New("-think scales the players' time over a choice: it needs -paced, or -app without -app-flat")
	case !(cfg.Asks >= 0 && cfg.Asks <= maxAsks):
		return fmt.Errorf("-asks must be 0 to %d a minute: past 8 answers a minute the bot holds a member's answers back by design", maxAsks)
	case cfg.Asks > 0 && !cfg.Paced:
		return errors.New("-asks counts the writes into a group under Telegram's limits: it needs -paced")
	case !(cfg.Inline >= 0 && cfg.Inline <= 1):
		return errors.New("-inline must be a share of the chats, 0 to 1")
	case cfg.Inline > 0 && lobbies > 0:
		return errors.New("-lobbies is a run of its own: -inline does not apply")
	}
	if err := checkAppFlags(cfg, lobbies); err != nil {
		return err
	}
	if cfg.CPUProfile != "" {
		f, err := os.OpenFile(cfg.CPUProfile, os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		_ = f.Close()
	}
	return nil
}

// checkAppFlags refuses -app's flags where they do not apply.
func checkAppFlags(cfg Config, lobbies int) error {
	switch {
	case cfg.App < 0 || cfg.App > maxAppViewers:
		return fmt.Errorf("-app must be 0 to %d viewers a table", maxAppViewers)
	case cfg.App > 0 && cfg.App < len(playerNames):
		return fmt.Errorf("-app: the %d players of a table watch it: at least %d viewers", len(playerNames), len(playerNames))
	case !(cfg.AppShare >= 0 && cfg.AppShare <= 1):
		return errors.New("-app-share must be a share of the choices, 0 to 1")
	case cfg.App == 0 && cfg.AppFlat:
		return errors.New("-app-flat acts through the app: it needs -app")

	case cfg.App > 0 && (lobbies > 0 || cfg.Inline > 0 || cfg.Rate > 0 || cfg.ChaosKills > 0):
		return errors.New("-app watches the groups' tables played at a person's pace or flat out: -lobbies, -inline, -rate and -chaos-kills do not apply")
	}
	return nil
}

// keptDir makes -dir's directory and returns it as an absolute path: the
// bot under test runs in it, and a relative path would name another
// directory there (its database, its backup socket).
func keptDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return abs, os.MkdirAll(abs, 0o755)
}

// resolveBinary returns the bot's binary as the child process is started
// with it, whatever directory it runs in (the run's scratch directory): a
// path made absolute, or a bare name looked up in PATH. One that is not an
// executable file is an error.
func resolveBinary(name string) (string, error) {
	if !strings.ContainsRune(name, filepath.Separator) {
		return exec.LookPath(name)
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", err
	case info.IsDir() || info.Mode()&0o111 == 0:
		return "", fmt.Errorf("%s is not an executable file", abs)
	}
	return abs, nil
}
