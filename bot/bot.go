// Package bot is the bot's life: New connects it to the Bot API; Run polls
// for updates, or Start and Handle take them from a webhook; each update
// is handled on its chat's goroutine, one at a time per chat, confirmed to
// Telegram only once handled; Start restores what a restart left (the
// deadlines, the table messages); the bot acts on a chat's lifecycle (a
// group upgraded to a supergroup, the bot removed or blocked); Close ends
// it. Everything else lives in the rooms below it (packages of bot/ with
// one job each): see docs/ARCHITECTURE.md.
//
// The words the rooms use, each for one idea:
//   - table message: the one message a table is shown in, edited in
//     place; a render brings it to the table as it is when the render's
//     turn in the outbox comes (a newer render replaces a queued one).
//   - shown: what the table message displays to the players. A turn is
//     shown once a render that draws it went out; its clock runs only
//     from then (package table).
//   - retire: what becomes of an old message of a table (the one a table
//     moved out of, a turn's nudge): edited into the record of its game,
//     or deleted. Storage keeps the messages to retire until they are
//     retired, so that a restart finishes them.
//   - follow: a user follows a group, and is told in private when a table
//     opens there (package notice).
//   - nudge: the short message that mentions the player to move.
//   - the house: the bot seated as a player.
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/appgate"
	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/inline"
	"github.com/twentyone-bot/twentyone/bot/input"
	"github.com/twentyone-bot/twentyone/bot/notice"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/pace"
	"github.com/twentyone-bot/twentyone/bot/panel"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/bot/table"
	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/storage"
)

// Metrics is told what the bot does. Every method must be safe for
// concurrent use and quick.
type Metrics interface {
	// UpdateHandled counts an update, or work of the bot's own (a
	// timeout, a nudge, a move of the house, ...), by kind.
	UpdateHandled(kind string)
	// UpdateFailed counts an update or work whose handling panicked
	// (recovered, confirmed and skipped), or an update that did not
	// decode ("undecodable").
	UpdateFailed(kind string)
	// ActionDone observes how long an update or work took, commit
	// included.
	ActionDone(kind string, d time.Duration)
	// APICall counts a Bot API call by method and result ("ok", "429",
	// "400", "error") and observes its duration.
	APICall(method, result string, d time.Duration)
	// RenderWaited observes how long a render (of a table, a settings
	// panel, an old table message) waited in the outbox before its call
	// started: the pacing under Telegram's limits, when they bind.
	RenderWaited(d time.Duration)
	// RenderCoalesced counts a render replaced by a newer one of the same
	// message while it waited: a state nobody saw.
	RenderCoalesced()
}

type noMetrics struct{}

func (noMetrics) UpdateHandled(string)                  {}
func (noMetrics) UpdateFailed(string)                   {}
func (noMetrics) ActionDone(string, time.Duration)      {}
func (noMetrics) APICall(string, string, time.Duration) {}
func (noMetrics) RenderWaited(time.Duration)            {}
func (noMetrics) RenderCoalesced()                      {}

// Config configures a Bot.
type Config struct {
	// Token is the bot's token from @BotFather.
	Token string
	// Endpoint is the Bot API endpoint in tgbotapi's format
	// (".../bot%s/%s"); empty for Telegram's.
	Endpoint string
	// Transport carries the HTTP requests; nil for a copy of
	// http.DefaultTransport.
	Transport http.RoundTripper
	// Store is the database. Each of the bot's rooms declares the few
	// methods it calls.
	Store  *storage.Store
	Logger *slog.Logger
	// Clock drives everything that waits: the timeouts, the pacing, the
	// caches' expiry. Nil for the system clock.
	Clock clock.Clock
	// Limits pace the outgoing calls; the zero value is no pacing (use
	// outbox.TelegramLimits() against Telegram). With a limit per group,
	// the bot keeps its recent calls into each group in storage, so that
	// a restart does not spend a group's budget twice.
	Limits outbox.Limits
	// PollTimeout is the long-polling timeout of getUpdates; default 25 s.
	PollTimeout time.Duration
	// CallTimeout bounds every other call; default 15 s.
	CallTimeout time.Duration
	// AdminCacheTTL is how long a chat member's admin status is trusted
	// for what only changes a display (whether /settings shows buttons);
	// every admin action asks Telegram afresh. Default one minute.
	AdminCacheTTL time.Duration
	// Owners are the user ids of the bot's owners (owner commands).
	Owners []int64
	// Metrics, if set, is told what the bot does.
	Metrics Metrics
	// Viewers, if set, are told of every version of every table as it is
	// shown, and of a turn's clock started again (table.Viewers): the Mini
	// App's live push. Nil: nobody is told.
	Viewers table.Viewers
	// AppName is BotFather's short name of the Mini App (webapp.name): the
	// table message links to it. Empty: no app button.
	AppName string
	// AppURL is the Mini App's page, its public HTTPS URL (webapp.url):
	// the web_app button of a solo table (the bot's private chat) opens
	// it. Empty: no app button at solo tables.
	AppURL string
}

// Bot is a running bot. Create it with New, then call Run (polling) or
// Start and Handle (webhook), and Close.
type Bot struct {
	cfg     Config
	api     *botapi.Client
	store   *storage.Store
	log     *slog.Logger
	clock   clock.Clock
	metrics Metrics
	out     *outbox.Outbox
	chats   *serial // the updates and the bot's own work, one at a time per chat

	// The rooms.
	send    *send.Sender
	pace    *pace.Keeper
	tables  *table.Keeper
	notices *notice.Notices
	panels  *panel.Panels
	input   *input.Handler
	inline  *inline.Handler
	app     *appgate.Actor   // the Mini App's actions
	members *appgate.Members // who may open a table in the Mini App

	// started is closed once Start armed the stored deadlines: the Mini
	// App's actions wait for it, as the updates wait for Start.
	started     chan struct{}
	startedOnce sync.Once

	// restoring tracks the re-rendering after Start; stopRestore (set by
	// Start, under mu), called first thing by Close, stops it.
	mu          sync.Mutex
	restoring   sync.WaitGroup
	stopRestore context.CancelFunc
	// base is the context the bot's work runs in, for the bot's life: it
	// is not cancelled when Run's is, so that actions in flight finish,
	// and Close cancels it last.
	base   context.Context
	cancel context.CancelFunc
}

// New connects to the Bot API (getMe) and returns a Bot. Cancelling ctx
// aborts the connection attempt.
func New(ctx context.Context, cfg Config) (*Bot, error) {
	if cfg.Store == nil {
		return nil, errors.New("bot: no store")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.PollTimeout <= 0 {
		cfg.PollTimeout = 25 * time.Second
	}
	if cfg.AdminCacheTTL <= 0 {
		cfg.AdminCacheTTL = time.Minute
	}
	if cfg.Metrics == nil {
		cfg.Metrics = noMetrics{}
	}
	api, err := botapi.New(ctx, botapi.Options{Token: cfg.Token, Endpoint: cfg.Endpoint, Transport: cfg.Transport,
		CallTimeout: cfg.CallTimeout, Observer: cfg.Metrics})
	if err != nil {
		return nil, fmt.Errorf("bot API %w", err)
	}
	b := &Bot{cfg: cfg, api: api, store: cfg.Store, log: cfg.Logger, clock: cfg.Clock, metrics: cfg.Metrics,
		chats: newSerial(serialWorkers), stopRestore: func() {}, started: make(chan struct{})}
	b.base, b.cancel = context.WithCancel(context.Background())
	b.out = outbox.New(outbox.Options{
		Limits: cfg.Limits,
		Logger: cfg.Logger,
		OnRetryAfter: func(chat int64, after time.Duration) {
			b.log.Info("rate limited by Telegram", "chat", chat, "retry_after", after)
		},
		OnRenderWait: cfg.Metrics.RenderWaited,
		OnCoalesce:   cfg.Metrics.RenderCoalesced,
		Clock:        cfg.Clock,
		KeepHistory:  cfg.Limits.GroupPerMinute > 0,
	})
	h := host{b}
	b.send = send.New(api, b.out, h, b.log)
	b.tables = table.New(b.store, b.send, b.clock, b.log, h, cfg.Viewers)
	if err := b.linkApp(ctx); err != nil {
		return nil, err
	}
	b.pace = pace.New(b.store, b.tables, b.out, b.clock, cfg.Limits, b.log)
	b.notices = notice.New(b.store, b.send, b.clock, b.log, h)
	b.panels = panel.New(b.store, b.send, b.clock, b.tables)
	b.input = input.New(b.store, b.store, b.store,
		input.Rooms{Send: b.send, Tables: b.tables, Notices: b.notices, Panels: b.panels}, b.clock, b.log,
		input.Options{Owners: cfg.Owners, AdminTTL: cfg.AdminCacheTTL})
	b.inline = inline.New(b.store, b.send, b.input, b.clock, b.log, b.store.Defaults().Game)
	b.app = appgate.NewActor(b.store, b.input, h, b.send, b.started)
	b.members = appgate.NewMembers(b.store, b.send, b.clock)
	return b, nil
}

// linkApp makes the table messages link to the Mini App (AppName), when
// there is one and the bot has a username, reading the app's key from the
// store once: the references in the links are made with it.
func (b *Bot) linkApp(ctx context.Context) error {
	if b.cfg.AppName == "" || b.Username() == "" {
		return nil
	}
	raw, err := b.store.AppKey(ctx)
	if err != nil {
		return fmt.Errorf("bot: the Mini App's key: %w", err)
	}
	refs, err := tableref.KeyFrom(raw)
	if err != nil {
		return fmt.Errorf("bot: the Mini App's key: %w", err)
	}
	b.tables.SetApp(table.App{Bot: b.Username(), Name: b.cfg.AppName, URL: b.cfg.AppURL, Refs: refs})
	return nil
}

// App returns what takes the Mini App's actions (webapp.Actor): each on
// the one path of a press, on its table's chat's goroutine, counted as
// work of kind appgate.Kind, once the bot started.
func (b *Bot) App() *appgate.Actor { return b.app }

// AppMembers returns who may open a table in the Mini App
// (webapp.Members): its seated players and its chat's members, asking
// Telegram (getChatMember) through the bot's sender.
func (b *Bot) AppMembers() *appgate.Members { return b.members }

// Username returns the bot's username, without the @.
func (b *Bot) Username() string { return b.api.Self().UserName }

// ID returns the bot's user id.
func (b *Bot) ID() int64 { return b.api.Self().ID }

// allowedUpdates are the update kinds the bot asks for: inline queries,
// the results chosen and guest messages come only to a bot whose inline
// mode (and inline feedback, and guest mode) BotFather turned on.
var allowedUpdates = []string{"message", "callback_query", "my_chat_member", "inline_query", "chosen_inline_result", "guest_message"}

// Start registers the commands, re-arms the stored deadlines (and the
// house's pending moves) and, in the background, re-renders every open
// table (a render may have been lost in a crash) and every table that has
// an old message to retire (the render retires it). Run calls it; call it
// yourself in webhook mode. It returns once the deadlines are armed: the
// re-renders yield to the live ones (see restore), so that a bot
// restarted with many open tables answers at once.
//
// No deadline fires before startGrace has passed since the start, or Run
// has handled the updates that waited for the bot, whichever is first: a
// press made in time while the bot was down is applied before the timer
// can decide the turn.
func (b *Bot) Start(ctx context.Context) error {
	earlier, err := b.pace.Restore(ctx)
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	if err := b.input.RegisterCommands(ctx); err != nil {
		b.log.Warn("registering commands", "err", err)
	}
	b.restoring.Add(1) // before the tables know of the start: see Restored
	keys, err := b.tables.Start(ctx, earlier, startGrace)
	if err != nil {
		b.restoring.Done()
		return fmt.Errorf("bot: %w", err)
	}
	b.startedOnce.Do(func() { close(b.started) })
	rctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	b.mu.Lock()
	b.stopRestore = stop
	b.mu.Unlock()
	go func() {
		defer b.restoring.Done()
		b.restore(rctx, keys)
	}()
	b.log.Info("bot started", "username", b.Username(), "tables", len(keys))
	return nil
}

// startGrace is how long after a start the deadlines wait, at the most,
// for the updates queued while the bot was down.
const startGrace = 10 * time.Second

// Restoring the renders after a start: at most restoreBacklog calls wait in
// the outbox while restore adds one, and it waits at most restoreMaxWait
// for the backlog to shrink, so that it neither starves nor is starved.
const (
	restoreBacklog = 16
	restoreMaxWait = time.Second
)

// restore re-renders the tables one after the other, each on its chat's
// goroutine (so that it is ordered with the chat's updates and a newer
// render replaces it), while the outbox is not busy with live renders. It
// returns once every table's render was queued, or ctx is done.
func (b *Bot) restore(ctx context.Context, keys []storage.TableKey) {
	for _, key := range keys {
		for waited := time.Duration(0); b.out.Pending() >= restoreBacklog && waited < restoreMaxWait; waited += 10 * time.Millisecond {
			if !outbox.Sleep(ctx, 10*time.Millisecond) {
				return
			}
		}
		if ctx.Err() != nil {
			return
		}
		done := make(chan struct{})
		b.onChat(key.Chat, "restore", func(ctx context.Context) {
			defer close(done)
			b.tables.Restore(ctx, key)
		}, "table", key)
		select {
		case <-done:
		case <-ctx.Done():
			return
		}
	}
}

// onChat runs fn on the chat's goroutine (see serial), in the bot's
// context, counted as work of kind. A panic in fn is recovered: it is
// logged with attrs and the stack, counted as a failed update of the kind,
// and the chat goes on with its next update. Deferred calls in fn run, so
// that an update is still confirmed.
func (b *Bot) onChat(chat int64, kind string, fn func(ctx context.Context), attrs ...any) {
	b.chats.Go(chat, func() {
		defer func() {
			if r := recover(); r != nil {
				b.log.Error("handling failed", append(attrs, "kind", kind, "chat", chat,
					"panic", fmt.Sprint(r), "stack", string(debug.Stack()))...)
				b.metrics.UpdateFailed(kind)
			}
		}()
		start := time.Now()
		fn(b.base)
		b.metrics.UpdateHandled(kind)
		b.metrics.ActionDone(kind, time.Since(start))
	})
}

// Close stops the re-rendering and the timers, waits until every update
// and timeout queued on a chat was handled, sends the pending renders until
// ctx is done, and saves the pace. It does not close the store.
func (b *Bot) Close(ctx context.Context) error {
	b.mu.Lock()
	stop := b.stopRestore
	b.mu.Unlock()
	stop()
	b.restoring.Wait()
	b.tables.Stop()
	waited := make(chan struct{})
	go func() {
		b.chats.Wait()
		close(waited)
	}()
	select {
	case <-waited:
	case <-ctx.Done():
	}
	err := b.out.Close(ctx)
	b.pace.Close(ctx)
	b.cancel()
	return err
}
