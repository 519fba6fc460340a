// Package service builds the running product from a config: the store,
// opened with the config's grants and table defaults, the bot, connected
// to the config's Bot API with its pacing and owners, and on request
// (WithApp) the Mini App's server on them.
// `twentyone run`, the playground and the load tool all build it here, the
// one way; what truly differs between them is an Option (a logger, metrics,
// a transport, fixed decks, retries while the Bot API cannot be reached).
//
// The store decides what it grants (the starting chips, the daily bonus,
// the house's chips) and the defaults of a chat nobody configured; the bot
// reads them from the store. Nothing else is told them.
package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/twentyone-bot/twentyone/bot"
	"github.com/twentyone-bot/twentyone/bot/appgate"
	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/config"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Service is the store and the bot running on it, and with WithApp the
// Mini App's server on them.
type Service struct {
	Store *storage.Store
	Bot   *bot.Bot
	// App is the Mini App's server (WithApp); nil without.
	App *App
}

// Option is a way in which one runner of the service differs from another.
type Option func(*options)

type options struct {
	log       *slog.Logger
	metrics   bot.Metrics
	onCommit  func(d time.Duration, writes int)
	transport http.RoundTripper
	rand      game.Rand
	noSync    bool
	retry     bool
	app       bool
}

// WithLogger logs the bot's work to l (default: nothing is logged).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// WithMetrics tells m what the bot does.
func WithMetrics(m bot.Metrics) Option { return func(o *options) { o.metrics = m } }

// OnCommit tells f how long each write transaction took to commit (fsync
// included) and how many writes it carried; it must be quick.
func OnCommit(f func(d time.Duration, writes int)) Option {
	return func(o *options) { o.onCommit = f }
}

// WithTransport carries the bot's HTTP requests over rt (default: a copy
// of http.DefaultTransport), for a Bot API server in this process.
func WithTransport(rt http.RoundTripper) Option { return func(o *options) { o.transport = rt } }

// WithRand shuffles the decks with r instead of crypto/rand: fixed decks,
// for demos and tests. Storage calls it from one goroutine at a time.
func WithRand(r game.Rand) Option { return func(o *options) { o.rand = r } }

// NoSync skips fsync: for a tool that prepares a file, never for the bot
// players use (a crash may then lose or damage the file).
func NoSync() Option { return func(o *options) { o.noSync = true } }

// RetryConnect makes Open try the Bot API again, with backoff, while it
// cannot be reached (no answer, a 5xx, a 429), until ctx is done: a host's
// network often comes up after the services it starts. A refusal (a wrong
// token) still fails at once.
func RetryConnect() Option { return func(o *options) { o.retry = true } }

func collect(opts []Option) options {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	return o
}

// StoreOptions returns the storage options the config and opts ask for:
// the grants, the table defaults and their language; and, for every
// runner alike, the cut: each new deck waits game.DefaultCutWait for a
// seated player's cut (docs/FAIRNESS.md), which the bot's tables ask for.
func StoreOptions(cfg *config.Config, opts ...Option) storage.Options {
	o := collect(opts)
	return storage.Options{
		CutWait:       game.DefaultCutWait,
		LockTimeout:   time.Second,
		StartingChips: cfg.Table.StartingChips,
		DailyBonus:    cfg.Table.DailyBonus,
		HouseChips:    cfg.Table.HouseChips,
		Defaults:      cfg.Table.Settings.Clone(),
		Rand:          o.rand,
		NoSync:        o.noSync,
		OnCommit:      o.onCommit,
	}
}

// Limits returns the pacing the config asks for: Telegram's limits with
// telegram.global_rate calls a second over all chats, or none.
func Limits(cfg *config.Config) outbox.Limits {
	if !cfg.Telegram.RateLimits {
		return outbox.Limits{}
	}
	limits := outbox.TelegramLimits()
	limits.PerSecond = cfg.Telegram.GlobalRate
	return limits
}

// OpenStore opens (creating or migrating) the database storage.path names,
// for a tool that needs the store alone. Its error says what to do.
func OpenStore(cfg *config.Config, opts ...Option) (*storage.Store, error) {
	s, err := storage.Open(cfg.Storage.Path, StoreOptions(cfg, opts...))
	if err != nil {
		return nil, StoreError(cfg.Storage.Path, err)
	}
	return s, nil
}

// CheckFree says, without opening it, whether another process holds the
// database.
func CheckFree(cfg *config.Config) error {
	if err := storage.CheckFree(cfg.Storage.Path); err != nil {
		return StoreError(cfg.Storage.Path, err)
	}
	return nil
}

// Open opens the store and connects the bot to the Bot API (getMe). It
// closes the store again if the bot cannot connect. Cancelling ctx aborts
// the connection (and its retries).
func Open(ctx context.Context, cfg *config.Config, opts ...Option) (*Service, error) {
	o := collect(opts)
	st, err := OpenStore(cfg, opts...)
	if err != nil {
		return nil, err
	}
	o.log.Info("database open", "path", st.Path())
	var app *appParts
	if o.app {
		if app, err = prepareApp(ctx, cfg, st, o.log); err != nil {
			return nil, errors.Join(err, st.Close())
		}
	}
	b, err := connect(ctx, cfg, st, o, app)
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	svc := &Service{Store: st, Bot: b}
	if app != nil {
		if svc.App, err = app.build(cfg, st, b, o.log); err != nil {
			return nil, errors.Join(err, b.Close(ctx), st.Close())
		}
	}
	return svc, nil
}

// Close ends the app's live streams, stops the bot within ctx (it
// finishes the actions in flight and sends the pending renders), then
// closes the database. Whoever serves App.Handler stops serving it first.
func (s *Service) Close(ctx context.Context) error {
	var errs []error
	if s.App != nil {
		s.App.Close()
	}
	if err := s.Bot.Close(ctx); err != nil {
		errs = append(errs, fmt.Errorf("closing the bot: %w", err))
	}
	if err := s.Store.Close(); err != nil {
		errs = append(errs, fmt.Errorf("closing the database: %w", err))
	}
	return errors.Join(errs...)
}

// The backoff between attempts to reach the Bot API: doubling from the
// first to the most.
const (
	firstRetry = time.Second
	mostRetry  = time.Minute
)

// connect connects the bot, retrying as RetryConnect says; with app, the
// bot tells app's hub of every version it shows.
func connect(ctx context.Context, cfg *config.Config, st *storage.Store, o options, app *appParts) (*bot.Bot, error) {
	bc := bot.Config{
		Token:       cfg.Telegram.Token.Reveal(),
		Endpoint:    cfg.Telegram.APIEndpoint,
		Transport:   o.transport,
		Store:       st,
		Logger:      o.log,
		Limits:      Limits(cfg),
		PollTimeout: cfg.Telegram.PollTimeout,
		Owners:      cfg.Owners,
		Metrics:     o.metrics,
		AppName:     cfg.WebApp.Name,
		AppURL:      cfg.WebApp.URL,
	}
	if app != nil {
		bc.Viewers = appgate.Viewers(app.hub)
	}
	wait := firstRetry
	for attempt := 1; ; attempt++ {
		b, err := bot.New(ctx, bc)
		if err == nil {
			return b, nil
		}
		if !o.retry || !unreachable(err) || ctx.Err() != nil {
			return nil, fmt.Errorf("connecting to the Bot API: %w", err)
		}
		o.log.Warn("the Bot API cannot be reached: trying again", "attempt", attempt, "in", wait, "err", err)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("connecting to the Bot API, stopped after %d attempts: %w", attempt, errors.Join(ctx.Err(), err))
		case <-t.C:
		}
		wait = min(2*wait, mostRetry)
	}
}

// unreachable reports whether a failure to connect may pass by itself:
// no answer, a 5xx, a 429.
func unreachable(err error) bool {
	return botapi.Temporary(err) || errors.Is(err, botapi.ErrTooMany)
}
