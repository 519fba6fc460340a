package main

// The playground subcommand: the whole product on this machine, without
// Telegram (bot/playground). A bare `twentyone` starts it too when no
// token is configured; `run` without a token exits 2.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"

	"github.com/twentyone-bot/twentyone/bot/config"

	"github.com/twentyone-bot/twentyone/bot/playground"
)

// defaultPlaygroundPort is the page's port unless -port says otherwise;
// when it is taken and -port was not given, any free port is used.
const defaultPlaygroundPort = 8021

// playgroundFlags are the playground's own flags.
type playgroundFlags struct {
	host    string
	port    int
	portSet bool
	db      string
	seed    *uint64
	// paced: -pace telegram.
	paced bool
}

func defaultPlaygroundFlags() playgroundFlags {
	return playgroundFlags{host: "127.0.0.1", port: defaultPlaygroundPort}
}

const playgroundAbout = `Runs the game without Telegram, in this process: our own Bot API server, the real bot
polling it over HTTP with a real database, and a web page at a local address that looks
and behaves like a Telegram group chat. Play as several users in two groups; Ctrl-C stops.
A table's "🃏 Open the table" opens the Mini App beside the chat, as that player.
It reads the same config as run (table defaults, chips, owners, log level); no token is
needed, and storage.path, http.listen and webapp.listen, url and name are not used.`

func (c *CLI) playground(ctx context.Context, args []string) error {
	f := c.newFlags("playground", "playground [-port N] [-host HOST] [-db FILE] [-seed N] [-pace none|telegram] [-config FILE]", playgroundAbout, true)
	pf := defaultPlaygroundFlags()
	f.Func("port", fmt.Sprintf("the page's `port`; 0 picks a free one (default %d, or a free one when it is taken)", defaultPlaygroundPort), func(s string) error {
		n, err := strconv.ParseUint(s, 10, 16)
		if err != nil {
			return errors.New("a port is a number from 0 to 65535")
		}
		pf.port, pf.portSet = int(n), true
		return nil
	})
	f.StringVar(&pf.host, "host", pf.host, "the `address` to serve the page on; 0.0.0.0 lets the devices of your network (a phone) open it")
	f.StringVar(&pf.db, "db", "", "the database `file`, kept after exit (default: a temporary one, removed at exit)")
	f.Func("seed", "fix the decks with this `number`, for demos: the same moves deal the same cards (default: random decks)", func(s string) error {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return errors.New("a seed is a whole number from 0 to 18446744073709551615")
		}
		pf.seed = &n
		return nil
	})
	f.Func("pace", "`none` (the default: the bot's messages go as fast as they come) or telegram: Telegram's rate limits on the server and in the bot, about 20 writes a minute into a group, to feel the real speed", func(s string) error {
		switch s {
		case "none":
			pf.paced = false
		case "telegram":
			pf.paced = true
		default:
			return fmt.Errorf("-pace is none or telegram, not %q", s)
		}
		return nil
	})
	if err := f.parse(args); err != nil {
		return err
	}
	cfg, err := c.loadConfig(f)
	if err != nil {
		return err
	}
	return c.runPlayground(ctx, cfg, pf)
}

// runPlayground starts the playground, prints its address and runs it
// until ctx is done (a signal) or it fails.
func (c *CLI) runPlayground(ctx context.Context, cfg *config.Config, pf playgroundFlags) error {
	log := newLogger(c.Stderr, cfg.Log.Level, cfg.Log.Format, cfg.Telegram.Token)
	opts := playground.Options{
		Addr:   net.JoinHostPort(pf.host, strconv.Itoa(pf.port)),
		DBPath: pf.db,
		Seed:   pf.seed,
		Config: cfg,
		Logger: log,
		Paced:  pf.paced,
	}
	p, err := playground.Start(ctx, opts)
	if err != nil && !pf.portSet && errors.Is(err, syscall.EADDRINUSE) {
		log.Info("the playground's default port is taken: using a free one", "port", pf.port)
		opts.Addr = net.JoinHostPort(pf.host, "0")
		p, err = playground.Start(ctx, opts)
	}
	if err != nil {
		return err
	}
	db := p.DBPath() + " (temporary, removed at exit)"
	if pf.db != "" {
		db = p.DBPath()
	}
	decks := "random"
	if pf.seed != nil {
		decks = fmt.Sprintf("fixed by -seed %d", *pf.seed)
	}
	pace := "none (-pace telegram applies Telegram's rate limits)"
	if pf.paced {
		pace = "Telegram's rate limits, about 20 writes a minute into a group"
	}
	fmt.Fprintf(c.Stdout, `
  Twenty One playground: %s

  Open it in a browser: a Telegram-like group chat with the real bot, no Telegram needed.
  You are Alice, Bob, Carol, Dave or Иван (switch at the top left); /newgame opens a table.
  In "Alice & Bob" and "Book club", where the bot was never added, type @twentyone_bot.
  A table's 🃏 Open the table opens the Mini App beside the chat, as the player you are.
  Database: %s · decks: %s
  Pace: %s
  Ctrl-C stops.

`, p.URL(), db, decks, pace)

	return c.serve(ctx, p, log, "playground stopped")
}
