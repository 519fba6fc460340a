package main

import (
	"io"
	"math"
	"time"
)

// Config is one load run.
type Config struct {
	// Chats is how many chats play at once, four players each: groups, and
	// inline tables (Inline).
	Chats int
	// Inline is the share of the chats, 0 to 1, that are inline tables: a
	// table posted via the bot into a group it is not in, played on that
	// inline message (see inline.go).
	Inline float64
	// Duration is how long the measured part runs; Warmup runs before it.
	Duration, Warmup time.Duration
	// Rate caps the presses per second over all chats; 0 presses as fast
	// as the bot answers.
	Rate float64
	// Paced runs under Telegram's limits: the bot paces with
	// outbox.TelegramLimits, the server answers 429 past
	// telegramtest.TelegramRateLimits, and the players take their time
	// over each choice (thinkTime) and stop at the end of the measured
	// part rather than play every game out.
	Paced bool
	// GlobalRate, with Paced, is the bot's telegram.global_rate (0:
	// Telegram's, 25), and the server's global limit is as far above it
	// as Telegram's 30 is above 25 (see serverLimits).
	GlobalRate int
	// Asks, with Paced, is how often each player of a group sends one of
	// the personal commands (askCommands), on average, a minute: 0 for
	// never (see asks.go).
	Asks float64
	// App, when above 0, watches every group's table in the Mini App with
	// this many viewers (at least the four players; see app.go): the
	// bot serves its app on webapp.listen, each viewer holds a stream,
	// and every action is timed to every viewer. The players act through
	// the app with the share AppShare of their choices (the rest in the
	// chat), at a person's pace, or all through the app and flat out
	// with AppFlat: each as soon as their viewer holds the version the
	// previous action made.
	App      int
	AppShare float64
	AppFlat  bool
	// Think is the share of a person's time (thinkTime) the players take
	// over each choice where they take their time (Paced, App without
	// AppFlat): 1 is a person's pace, less a faster crowd, to find where
	// a figure crosses its aim. The zero Config's 0 means 1.
	Think float64
	// DB is the database file; empty for one in Dir.
	DB string
	// Dir holds the database, the floor's scratch files and the bot's log;
	// empty for a temporary directory removed at the end.
	Dir string
	// Seed makes the players' choices and the injected faults
	// reproducible (the decks come from the bot's crypto source).
	Seed uint64
	// Preload fills the database with this many tables in progress before
	// the bot starts.
	Preload int
	// Process runs the bot as a child process of this binary (`loadtest
	// bot`); Binary runs that twentyone binary instead. Neither: the bot
	// runs in this process.
	Process bool
	Binary  string
	// ChaosKills kills the bot with SIGKILL this many times at random
	// moments of the measured part, restarting it each time.
	ChaosKills int
	// Faults makes the server fail 5 % of calls with 5xx, drop 1 % of
	// connections, answer 5 % slowly, and answer 429 in bursts.
	Faults bool
	// TurnTimeout and LobbyTimeout are the tables' timeouts: long, so that
	// the players, not the timers, move every table.
	TurnTimeout, LobbyTimeout time.Duration
	// PressTimeout is how long a player waits for the table to move after
	// a press before reading the chat again (a stall).
	PressTimeout time.Duration
	// DrainTimeout bounds the end of the run, when every game in progress
	// is played to its end.
	DrainTimeout time.Duration
	// FloorSpan is how long each floor is measured.
	FloorSpan time.Duration
	// Progress is the interval of the progress line; 0 for none.
	Progress time.Duration
	// CPUProfile writes a CPU profile of the measured part (in-process:
	// the bot, the server and the players together).
	CPUProfile string
	// Log receives the progress lines; BotLog the in-process bot's log.
	Log    io.Writer
	BotLog io.Writer
}

// inlineChats returns how many of the chats are inline tables.
func (c *Config) inlineChats() int { return int(math.Round(c.Inline * float64(c.Chats))) }

// defaults fills the zero fields.
func (c *Config) defaults() {
	if c.Chats <= 0 {
		c.Chats = 100
	}
	if c.Duration <= 0 {
		c.Duration = 10 * time.Second
	}
	if c.TurnTimeout <= 0 {
		c.TurnTimeout = 10 * time.Minute
	}
	if c.LobbyTimeout <= 0 {
		c.LobbyTimeout = 10 * time.Minute
	}
	if c.PressTimeout <= 0 {
		c.PressTimeout = 30 * time.Second
		if c.Paced {
			// Under the global budget a render may wait for every other
			// group's: a minute with 1,000 groups.
			c.PressTimeout = 3 * time.Minute
		}
	}
	if c.DrainTimeout <= 0 {
		c.DrainTimeout = 2 * time.Minute
	}
	if c.FloorSpan <= 0 {
		c.FloorSpan = 2 * time.Second
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.ChaosKills > 0 && c.Binary == "" {
		c.Process = true
	}
}

// thinking returns a person's time over a choice, d, as the run's players
// take it (Think).
func (c Config) thinking(d time.Duration) time.Duration {
	if c.Think <= 0 || c.Think == 1 {
		return d
	}
	return time.Duration(float64(d) * c.Think)
}
