// Command twentyone runs the Twenty One Telegram bot, and backs up and
// compacts its database.
//
//	twentyone [run] [-config FILE]         run the bot (the default); with no token, "twentyone" alone starts the playground
//	twentyone playground [flags]           try the game in a local web page, no Telegram needed
//	twentyone backup -o OUT [-config FILE] copy the database, also while the bot runs
//	twentyone compact -o OUT [-config FILE] write a compacted copy (bot stopped)
//	twentyone healthcheck [-config FILE]   exit 0 when the running bot is healthy
//	twentyone verify RECORD|-              check a deck's record, as /verify shows it
//	twentyone version                      print the version
//
// The configuration is a YAML file (see config.example.yaml) whose every
// key may be overridden by an environment variable: TWENTYONE_ and the key
// path upper-cased with dots as underscores (TWENTYONE_TELEGRAM_TOKEN).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/twentyone-bot/twentyone/bot/config"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2 // a bad flag or a bad configuration
)

// shutdownTimeout bounds the shutdown after a signal: stop taking updates,
// finish the actions in flight, send the pending renders. Closing the
// database comes after, within the 10 s a container manager waits.
const shutdownTimeout = 9 * time.Second

func main() {
	ctx, stop := signalContext(context.Background())
	defer stop()
	cli := &CLI{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Environ: os.Environ(), StopSignals: stop}
	code := cli.Run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

// signalContext returns a context cancelled by SIGINT or SIGTERM. Calling
// stop restores the default handling, so that a second signal kills.
func signalContext(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

// CLI runs the subcommands.
type CLI struct {
	Stdout, Stderr io.Writer
	// Stdin is what "verify -" reads; nil reads os.Stdin.
	Stdin io.Reader
	// Environ is the environment, as os.Environ returns it.
	Environ []string
	// StopSignals, if set, restores the default signal handling once the
	// shutdown began.
	StopSignals func()
}

const usage = `twentyone hosts the card game Twenty One in Telegram group chats.

Usage:
  twentyone [run] [-config FILE]           run the bot (the default subcommand); with no token
                                           configured, "twentyone" alone starts the playground
                                           and "twentyone run" stops with how to get one
  twentyone playground [-port N] [-host HOST] [-db FILE] [-seed N] [-pace none|telegram] [-config FILE]
                                           try the game in a local web page, no Telegram needed
  twentyone backup -o OUT [-config FILE]   copy the database, also while the bot runs
  twentyone compact -o OUT [-config FILE]  write a compacted copy of the database (bot stopped)
  twentyone healthcheck [-config FILE]     exit 0 when the running bot answers /healthz
  twentyone verify RECORD | verify -       check a deck's record, the line /verify shows
                                           (docs/FAIRNESS.md): exit 0 OK, 1 it differs, 2 not a record
  twentyone version                        print the version

Run "twentyone SUBCOMMAND -h" for a subcommand's flags. Every config key can be set
by an environment variable: TWENTYONE_ + the key path upper-cased, dots as underscores
(telegram.token is TWENTYONE_TELEGRAM_TOKEN). See config.example.yaml.
`

// Run runs the subcommand args name and returns the exit code.
func (c *CLI) Run(ctx context.Context, args []string) int {
	name, named := "run", false
	if len(args) > 0 && (!strings.HasPrefix(args[0], "-") || isHelp(args[0])) {
		name, args, named = args[0], args[1:], true
	}
	var cmd func(context.Context, []string) error
	switch name {
	case "run":
		cmd = func(ctx context.Context, args []string) error { return c.run(ctx, args, !named) }
	case "backup":
		cmd = c.backup
	case "compact":
		cmd = c.compact
	case "healthcheck":
		cmd = c.healthcheck
	case "version":
		cmd = c.version
	case "verify":
		cmd = c.verify
	case "playground":
		cmd = c.playground
	case "help", "-h", "-help", "--help":
		fmt.Fprint(c.Stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(c.Stderr, "twentyone: unknown subcommand %q\n\n%s", name, usage)
		return exitUsage
	}
	err := cmd(ctx, args)
	var cerr *config.Error
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		return exitUsage // the flag package printed the problem
	case errors.As(err, &cerr):
		fmt.Fprintf(c.Stderr, "twentyone: %s\n", oneLine(err.Error()))
		return exitUsage
	}
	fmt.Fprintf(c.Stderr, "twentyone %s: %s\n", name, oneLine(err.Error()))
	return exitFailure
}

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// errUsage is a bad command line, already reported.
var errUsage = errors.New("usage error")

// flags is a subcommand's flag set with the -config flag.
type flags struct {
	*flag.FlagSet
	config         string
	configExplicit bool
}

func (c *CLI) newFlags(name, synopsis, about string, withConfig bool) *flags {
	f := &flags{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), config: config.DefaultPath}
	f.SetOutput(c.Stderr)
	f.Usage = func() {
		out := f.Output()
		fmt.Fprintf(out, "Usage: twentyone %s\n\n%s\n", synopsis, about)
		var n int
		f.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(out, "\nFlags:")
			f.PrintDefaults()
		}
	}
	if withConfig {
		f.Func("config", "the YAML config `file`; a missing "+config.DefaultPath+" is fine when not named (default "+config.DefaultPath+")", func(s string) error {
			f.config, f.configExplicit = s, true
			return nil
		})
	}
	return f
}

func (f *flags) parse(args []string) error {
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if f.NArg() > 0 {
		fmt.Fprintf(f.Output(), "twentyone %s: unexpected argument %q\n", f.Name(), f.Arg(0))
		f.Usage()
		return errUsage
	}
	return nil
}

func (c *CLI) loadConfig(f *flags) (*config.Config, error) {
	return config.Load(f.config, f.configExplicit, c.Environ)
}

const noTokenHint = `No bot token is configured, so there is no bot to run.

To get a token, open Telegram, talk to @BotFather (https://t.me/BotFather), send /newbot
and follow the questions; it answers with a token like 123456789:AAH...
Put it in the config file as telegram.token, or in the environment:

    TWENTYONE_TELEGRAM_TOKEN=123456789:AAH... twentyone run

`

// Where the no-token hint goes on: "twentyone" alone, what a newcomer
// types, starts the playground; "twentyone run", what a service manager or
// Docker runs, stops, so that a missing token is not hidden behind a
// playground nobody can reach.
const (
	noTokenPlayground = `Meanwhile, here is the game without Telegram: "twentyone playground", starting now.
`
	noTokenStop = `Meanwhile, "twentyone playground" shows the game without Telegram.
`
)

// errNoToken stops "twentyone run" when no token is configured.
var errNoToken = &config.Error{Key: "telegram.token", Msg: "not set: the bot needs a token from @BotFather (see above)"}

// run runs the bot; with no token it starts the playground when orPlayground
// (no subcommand named), and stops with errNoToken otherwise.
func (c *CLI) run(ctx context.Context, args []string, orPlayground bool) (err error) {
	f := c.newFlags("run", "[run] [-config FILE]", "Runs the bot until SIGINT or SIGTERM.", true)
	if err := f.parse(args); err != nil {
		return err
	}
	cfg, err := c.loadConfig(f)
	if err != nil {
		return err
	}
	if cfg.Telegram.Token == "" {
		if orPlayground {
			fmt.Fprint(c.Stdout, noTokenHint+noTokenPlayground)
			return c.runPlayground(ctx, cfg, defaultPlaygroundFlags())
		}
		fmt.Fprint(c.Stderr, noTokenHint+noTokenStop)
		return errNoToken
	}
	if cfg.Telegram.Mode == "webhook" && cfg.Telegram.Webhook.Secret == "" {
		cfg.Telegram.Webhook.Secret = randomSecret()
	}
	secrets := []config.Secret{cfg.Telegram.Token, cfg.Telegram.Webhook.Secret}
	defer func() {
		if err != nil {
			err = scrubError(err, secrets...)
		}
	}()
	log := newLogger(c.Stderr, cfg.Log.Level, cfg.Log.Format, secrets...)
	v := buildVersion()
	log.Info("starting", "version", v.Version, "commit", v.Commit, "config", cfg)

	m := NewMain(cfg, log)
	if err := m.Run(ctx); err != nil {
		sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if cerr := m.Close(sctx); cerr != nil {
			log.Warn("closing after a failed start", "err", cerr)
		}
		if ctx.Err() != nil {
			// A signal while starting (waiting for the Bot API, say): a
			// stop as asked, not a failure.
			log.Info("signal received while starting: stopped", "err", err)
			return nil
		}
		return err
	}
	return c.serve(ctx, m, log, "stopped")
}

// runner is what runs until a signal or its own failure: Main, or the
// playground.
type runner interface {
	// Err delivers the failure that stops the service.
	Err() <-chan error
	// Close stops the service within ctx.
	Close(ctx context.Context) error
}

// serve waits for a signal (ctx done) or s's failure, stops listening for
// signals, and closes s within shutdownTimeout, logging stopped once it
// closed. It returns the failure and the close's error, joined.
func (c *CLI) serve(ctx context.Context, s runner, log *slog.Logger, stopped string) error {
	var runErr error
	select {
	case <-ctx.Done():
		log.Info("signal received: shutting down")
	case runErr = <-s.Err():
		log.Error("stopping after a failure", "err", runErr)
	}
	if c.StopSignals != nil {
		c.StopSignals()
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	start := time.Now()
	if err := s.Close(sctx); err != nil {
		log.Error("shutdown", "err", err, "took", time.Since(start))
		return errors.Join(runErr, err)
	}
	log.Info(stopped, "took", time.Since(start))
	return runErr
}

func (c *CLI) backup(ctx context.Context, args []string) error {
	f := c.newFlags("backup", "backup -o OUT [-config FILE]",
		"Writes a consistent copy of the database to OUT (\"-\" for standard output). While the\n"+
			"bot runs, the copy comes from it, through its backup socket (http.backup_socket, by\n"+
			"default storage.path + \".sock\"); when no bot runs, from the database file itself.", true)
	out := f.String("o", "", "the `file` to write the backup to, replaced atomically; - for standard output")
	if err := f.parse(args); err != nil {
		return err
	}
	if *out == "" {
		fmt.Fprintln(f.Output(), "twentyone backup: -o OUT is required")
		f.Usage()
		return errUsage
	}
	cfg, err := c.loadConfig(f)
	if err != nil {
		return err
	}
	if config.SameFile(cfg.Storage.Path, *out) {
		// The output is replaced by a rename: over the database, it would
		// take the file from under the running bot.
		return fmt.Errorf("-o %s is the database itself", *out)
	}
	if sock := cfg.BackupSocket(); sock != "" {
		var n int64
		err := writeOutput(*out, c.Stdout, func(w io.Writer) error {
			var err error
			n, err = backupOverSocket(ctx, sock, w)
			return err
		})
		if err == nil {
			fmt.Fprintf(c.Stderr, "twentyone backup: %d bytes from the running bot written to %s\n", n, *out)
			return nil
		}
		if !errors.Is(err, errNoBot) {
			return err
		}
	}
	if err := backupDirect(ctx, cfg, *out, c.Stdout); err != nil {
		return err
	}
	fmt.Fprintf(c.Stderr, "twentyone backup: %s written to %s\n", cfg.Storage.Path, *out)
	return nil
}

func (c *CLI) compact(ctx context.Context, args []string) error {
	f := c.newFlags("compact", "compact -o OUT [-config FILE]",
		"Writes a compacted copy of the database to OUT, which must not exist. The bot must be\n"+
			"stopped; replace the database with OUT before starting it again.", true)
	out := f.String("o", "", "the `file` to write the compacted database to; must not exist")
	if err := f.parse(args); err != nil {
		return err
	}
	if *out == "" {
		fmt.Fprintln(f.Output(), "twentyone compact: -o OUT is required")
		f.Usage()
		return errUsage
	}
	cfg, err := c.loadConfig(f)
	if err != nil {
		return err
	}
	before, after, err := compactDatabase(ctx, cfg.Storage.Path, *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Stderr, "twentyone compact: %s (%d bytes) compacted to %s (%d bytes)\n", cfg.Storage.Path, before, *out, after)
	return nil
}

func (c *CLI) healthcheck(ctx context.Context, args []string) error {
	f := c.newFlags("healthcheck", "healthcheck [-config FILE]",
		"Exits 0 when the running bot answers GET /healthz with 200, else 1: its admin server\n"+
			"(http.listen), or its backup socket when the admin server is off. For Docker's\n"+
			"HEALTHCHECK, in an image with no shell.", true)
	if err := f.parse(args); err != nil {
		return err
	}
	cfg, err := c.loadConfig(f)
	if err != nil {
		return err
	}
	return healthcheck(ctx, cfg)
}

// oneLine folds a message onto one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}
