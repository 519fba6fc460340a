// Package bot is the Telegram adapter: it turns updates into game commands,
// checks who may do what, applies them one chat at a time through storage,
// renders each table into one message it edits in place, answers button
// presses, fires timeouts, and keeps within Telegram's limits.
package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Store is what the bot needs of storage.
type Store interface {
	Apply(ctx context.Context, req storage.ApplyRequest) (storage.Applied, error)
	View(ctx context.Context, key storage.TableKey) (storage.View, error)
	ChatTables(ctx context.Context, chat int64) ([]storage.TableKey, error)
	SetMessage(ctx context.Context, key storage.TableKey, messageID int) error
	Repost(ctx context.Context, key storage.TableKey, update int64, now time.Time) (storage.View, error)
	Retired(ctx context.Context, key storage.TableKey, messageID int) error
	Owe(ctx context.Context, key storage.TableKey, messageID int) error
	Retiring(ctx context.Context) ([]storage.TableKey, error)
	Account(ctx context.Context, chat int64, u storage.User, now time.Time) (storage.Account, error)
	ClaimBonus(ctx context.Context, chat int64, u storage.User, now time.Time) (storage.Bonus, error)
	Settings(ctx context.Context, chat int64) (storage.ChatSettings, error)
	UpdateSettings(ctx context.Context, chat int64, fn func(*storage.ChatSettings) error) (storage.ChatSettings, error)
	MigrateChat(ctx context.Context, from, to int64) error
	CancelAll(ctx context.Context, chat int64, now time.Time) ([]storage.Applied, error)
	Timers(ctx context.Context) ([]storage.Timer, error)
	TableReveals(ctx context.Context, key storage.TableKey, game uint64) ([]storage.Reveal, error)
	Leaderboard(ctx context.Context, chat int64, n int) ([]storage.Standing, error)
	Standing(ctx context.Context, chat int64, user game.UserID) (storage.Standing, error)
	Stats(ctx context.Context, chat int64, user game.UserID) (storage.Stats, error)
	History(ctx context.Context, chat int64, user game.UserID, limit int) ([]storage.LedgerEntry, error)
	Audit(ctx context.Context, chat int64) (storage.Audit, error)
	Grant(ctx context.Context, chat int64, u storage.User, amount, update int64, now time.Time) (int64, error)
	StartedPrivate(ctx context.Context, u storage.User, now time.Time) error
	ToggleFollow(ctx context.Context, chat int64, u storage.User, title string, update int64, now time.Time) (bool, error)
	Follow(ctx context.Context, chat int64, u storage.User, title string, now time.Time) (bool, error)
	Unfollow(ctx context.Context, chat int64, user game.UserID) (bool, error)
	Follows(ctx context.Context, user game.UserID) ([]storage.Follow, error)
	StopPrivate(ctx context.Context, user game.UserID) (int, error)
	MemberLeft(ctx context.Context, chat int64, user game.UserID, update int64, now time.Time) (bool, error)
	Announce(ctx context.Context, chat int64, opener game.UserID, title string, now time.Time, quiet time.Duration) ([]storage.Follower, error)
	ShowTurn(ctx context.Context, key storage.TableKey, version uint64, now time.Time, late time.Duration) (storage.View, error)
	SavePace(ctx context.Context, p storage.Pace, expire time.Time) error
	LoadPace(ctx context.Context) (storage.Pace, error)
}

// Metrics is told what the bot does. Every method must be safe for
// concurrent use and quick.
type Metrics interface {
	// UpdateHandled counts an update by kind (message, callback_query, ...).
	UpdateHandled(kind string)
	// UpdateFailed counts an update whose handling panicked (recovered,
	// confirmed and skipped), or one that did not decode ("undecodable").
	UpdateFailed(kind string)
	// ActionDone observes how long an update took to handle, commit included.
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
	// Transport carries the HTTP requests; nil for http.DefaultTransport.
	Transport http.RoundTripper
	Store     Store
	Logger    *slog.Logger
	// Clock drives timeouts; nil for the system clock.
	Clock Clock
	// PaceClock is the clock the outgoing calls are paced by; nil for the
	// system clock. It must tell the time Clock tells (a test moving Clock
	// by hand while the pacing runs in real time restarts no bot).
	PaceClock Clock
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
	// StartingChips and DailyBonus are what storage grants, for the texts
	// that mention them.
	StartingChips, DailyBonus int64
	// Metrics, if set, is told what the bot does.
	Metrics Metrics
}

// Bot is a running bot. Create it with New, then call Run (polling) or
// Start and Handle (webhook), and Close.
type Bot struct {
	cfg     Config
	api     *api
	store   Store
	log     *slog.Logger
	clock   Clock
	metrics Metrics
	out     *outbox.Outbox
	chats   *serial // the updates, timeouts and restores, one at a time per chat
	timers  *scheduler
	tables  *tableMessages
	nudges  *nudges
	notices *notices
	quota   *quota
	owners  map[int64]bool

	// restoring tracks the re-rendering after Start; stopRestore (set by
	// Start, under mu), called first thing by Close, stops it.
	restoring   sync.WaitGroup
	stopRestore context.CancelFunc
	// paceClock is the clock the outbox paces by (Config.PaceClock).
	paceClock Clock
	// stopPace (set by Start, under mu) stops saving the pace; pacing
	// tracks the goroutine that saves it (see restorePace).
	stopPace context.CancelFunc
	pacing   sync.WaitGroup
	// base is the context handlers run in: it is not cancelled when Run's
	// is, so that actions in flight finish.
	base   context.Context
	cancel context.CancelFunc

	// mu guards the state that is neither one chat's nor a component's
	// with a lock of its own: what Start and Close share, and the small
	// caches that any chat's handler reads and writes.
	mu       sync.Mutex
	admins   map[adminKey]adminEntry         // the admin statuses isAdmin got
	verified map[storage.TableKey]verifySent // the tables' last deck checks
	pressed  map[storage.TableKey]pressed    // the tables' last presses that applied

	panels settingsPanels // the chats' open settings panels
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
		cfg.Clock = SystemClock{}
	}
	if cfg.PaceClock == nil {
		cfg.PaceClock = SystemClock{}
	}
	if cfg.PollTimeout <= 0 {
		cfg.PollTimeout = 25 * time.Second
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 15 * time.Second
	}
	if cfg.AdminCacheTTL <= 0 {
		cfg.AdminCacheTTL = time.Minute
	}
	if cfg.Metrics == nil {
		cfg.Metrics = noMetrics{}
	}
	b := &Bot{
		cfg:      cfg,
		store:    cfg.Store,
		log:      cfg.Logger,
		clock:    cfg.Clock,
		metrics:  cfg.Metrics,
		chats:    newSerial(serialWorkers),
		owners:   make(map[int64]bool),
		admins:   make(map[adminKey]adminEntry),
		quota:    newQuota(),
		verified: make(map[storage.TableKey]verifySent),
		pressed:  make(map[storage.TableKey]pressed),
	}
	b.paceClock = cfg.PaceClock
	for _, id := range cfg.Owners {
		b.owners[id] = true
	}
	var err error
	b.api, err = newAPI(ctx, cfg.Token, cfg.Endpoint, cfg.Transport, cfg.PollTimeout, cfg.CallTimeout, b.observeCall)
	if err != nil {
		return nil, err
	}
	b.out = outbox.New(outbox.Options{
		Limits: cfg.Limits,
		Logger: cfg.Logger,
		OnRetryAfter: func(chat int64, after time.Duration) {
			b.log.Info("rate limited by Telegram", "chat", chat, "retry_after", after)
		},
		OnRenderWait: cfg.Metrics.RenderWaited,
		OnCoalesce:   cfg.Metrics.RenderCoalesced,
		Clock:        cfg.PaceClock,
		KeepHistory:  cfg.Limits.GroupPerMinute > 0,
	})
	b.nudges = newNudges()
	b.notices = newNotices()
	b.tables = &tableMessages{api: b.api, store: b.store, clock: b.clock, log: b.log,
		enqueue: b.enqueue, chatError: b.chatError, ids: make(map[storage.TableKey]int),
		renders: make(map[storage.TableKey]*renderState),
		keep:    b.nudges.live, retired: b.nudges.retired, shown: b.turnShown, sent: b.tableSent}
	b.base, b.cancel = context.WithCancel(context.Background())
	b.stopRestore = func() {} // until Start
	b.timers = newScheduler(b.clock, b.fireTimeout, b.fireNudge, b.fireHouse)
	return b, nil
}

// Username returns the bot's username, without the @.
func (b *Bot) Username() string { return b.api.self.UserName }

// ID returns the bot's user id.
func (b *Bot) ID() int64 { return b.api.self.ID }

func (b *Bot) observeCall(method string, err error, d time.Duration) {
	result := "ok"
	if err != nil {
		result = "error"
		if tg, ok := tgError(err); ok {
			result = fmt.Sprint(tg.Code)
		}
	}
	b.metrics.APICall(method, result, d)
}

// allowedUpdates are the update kinds the bot asks for.
var allowedUpdates = []string{"message", "callback_query", "my_chat_member"}

// Start registers the commands, re-arms the stored deadlines (and the
// house's pending moves) and, in the
// background, re-renders every open table (a render may have been lost in a
// crash) and every table that owes its chat an old message (the render
// retires it). Run calls it; call it yourself in webhook mode. It returns
// once the deadlines are armed: the re-renders yield to the live ones (see
// restore), so that a bot restarted with many open tables answers at once.
//
// No deadline fires before startGrace has passed since the start, or Run
// has handled the updates that waited for the bot, whichever is first: a
// press made in time while the bot was down is applied before the timer
// can decide the turn.
func (b *Bot) Start(ctx context.Context) error {
	before, err := b.restorePace(ctx)
	if err != nil {
		return err
	}
	if err := b.registerCommands(); err != nil {
		b.log.Warn("registering commands", "err", err)
	}
	timers, err := b.store.Timers(ctx)
	if err != nil {
		return fmt.Errorf("bot: loading deadlines: %w", err)
	}
	keys := make([]storage.TableKey, len(timers))
	b.timers.holdUntil(b.clock.Now().Add(startGrace))
	for i, t := range timers {
		b.timers.set(t.Key, t.Version, t.Deadline)
		b.timers.setHouse(t.Key, t.Version, t.HouseAt)
		keys[i] = t.Key
	}
	if keys, err = b.withRetiring(ctx, keys); err != nil {
		return err
	}
	rctx, stop := context.WithCancel(context.Background())
	b.mu.Lock()
	b.stopRestore = stop
	b.mu.Unlock()
	b.restoring.Add(1)
	b.tables.setEarlier(before) // before any render: the restore's are the first
	go func() {
		defer b.restoring.Done()
		b.restore(rctx, keys)
	}()
	b.log.Info("bot started", "username", b.Username(), "open_tables", len(timers))
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
		b.onChat(key.Chat, "restore", func() {
			defer close(done)
			v, err := b.store.View(b.base, key)
			if err != nil {
				b.log.Warn("re-rendering a table", "table", key, "err", err)
				return
			}
			// The house setting may have been turned off just before a
			// crash, with the house still seated.
			v, _ = b.houseStandsUp(b.base, v)
			b.show(v)
		}, "table", key)
		select {
		case <-done:
		case <-ctx.Done():
			return
		}
	}
}

// Run starts the bot and polls for updates until ctx is done. It returns
// after the updates in hand were handled; Close sends what is left.
// Updates are handled as they come, up to the 100 a poll returns at once,
// and confirmed to Telegram only once handled.
func (b *Bot) Run(ctx context.Context) error {
	if err := b.api.deleteWebhook(); err != nil {
		return fmt.Errorf("bot: removing the webhook before polling: %w", err)
	}
	if err := b.Start(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return err
	}
	stopPoll := context.AfterFunc(ctx, b.api.stopPolling)
	defer stopPoll()
	w := newInFlight()
	defer w.wait()
	backoff := firstPollBackoff
	caughtUp := false // the updates that waited for the start were handled
	for ctx.Err() == nil {
		// Nothing below the offset is unhandled: getUpdates confirms only
		// what was handled, and a crash loses nothing. While updates are in
		// hand the poll does not wait (it would return them at once), and
		// what it returns again is skipped.
		offset, busy := w.offset()
		if busy > pollLimit/2 {
			// A poll would return the updates in hand first, to be
			// decoded again, and few new ones: wait until half the window
			// is free.
			w.waitFreed(ctx, pollPause)
			continue
		}
		timeout := b.cfg.PollTimeout
		if busy > 0 || !caughtUp {
			timeout = 0
		}
		raws, err := b.api.getUpdates(offset, timeout, allowedUpdates)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			wait := backoff
			if tg, ok := tgError(err); ok && tg.RetryAfter > 0 {
				wait = time.Duration(tg.RetryAfter) * time.Second
			}
			b.log.Warn("getUpdates failed", "err", err, "retry_in", wait)
			if !outbox.Sleep(ctx, wait) {
				break
			}
			backoff = min(2*backoff, 30*time.Second)
			continue
		}
		taken := b.takeUpdates(w, raws, offset, busy)
		if len(raws) > 0 && taken == 0 && busy == 0 {
			// Nothing new though nothing was in hand: updates without an
			// id, which the Bot API never sends. Polling again at once
			// would get the same answer, thousands of times a second: wait
			// as after a failure.
			if !outbox.Sleep(ctx, backoff) {
				break
			}
			backoff = min(2*backoff, 30*time.Second)
			continue
		}
		backoff = firstPollBackoff
		if !caughtUp && len(raws) < pollLimit {
			w.waitIdle(ctx, startGrace)
			b.timers.release()
			caughtUp = true
		}
		if len(raws) < pollLimit {
			// Telegram had no more: let the updates in hand be handled, so
			// that the next poll confirms them and waits for new ones
			// instead of returning them again at once. A full answer means
			// more wait: poll again at once.
			w.waitIdle(ctx, pollPause)
		}
	}
	return nil
}

// takeUpdates dispatches the updates of one getUpdates answer that are new to w,
// and returns how many it dispatched. An update without an id is logged
// and counted as undecodable; updates below the offset while none was in
// hand (busy 0) make w start over at the lowest of them.
func (b *Bot) takeUpdates(w *inFlight, raws []json.RawMessage, offset, busy int) int {
	ids := make([]int, len(raws))
	lowest := 0
	for i, raw := range raws {
		id, err := updateID(raw)
		if err != nil {
			b.log.Warn("update without an id skipped", "err", err, "update", quote(raw))
			b.metrics.UpdateFailed("undecodable")
			continue
		}
		ids[i] = id
		if lowest == 0 || id < lowest {
			lowest = id
		}
	}
	if busy == 0 && lowest != 0 && lowest < offset {
		// Updates below the offset though none was in hand: Telegram
		// numbers anew after a week without updates ("the identifier
		// of the next update will be chosen randomly", Bot API,
		// getUpdates), possibly lower, and answers an offset past its
		// queue's end from its start (telegram-bot-api's TQueue::get,
		// "Specified from_id is in the future"). Start over at the
		// lowest; storage still tells a redelivery by the chat's last
		// update and its time.
		b.log.Info("update ids started over", "offset", offset, "lowest", lowest)
		w.startAt(lowest)
	}
	taken := 0
	for i, raw := range raws {
		if ids[i] == 0 {
			continue
		}
		if done, ok := w.take(ids[i]); ok {
			taken++
			b.dispatch(raw, done)
		}
	}
	return taken
}

// firstPollBackoff is the wait after a failed getUpdates, doubling with
// each failure in a row up to 30 s: short, because every chat waits while
// polling does, and a lone 5xx or dropped connection is common and passes
// at once.
const firstPollBackoff = 100 * time.Millisecond

// pollPause bounds how long Run waits for the updates in hand before
// polling again.
const pollPause = 50 * time.Millisecond

// inFlight tracks the updates Run dispatched and not yet handled, so that
// it can poll for more while they are handled, not waiting for a batch's
// slowest update, without confirming an unhandled one.
type inFlight struct {
	mu    sync.Mutex
	ids   map[int]struct{}
	next  int // the id after the highest taken
	freed chan struct{}
	all   sync.WaitGroup
}

func newInFlight() *inFlight {
	return &inFlight{ids: map[int]struct{}{}, freed: make(chan struct{}, 1)}
}

// offset returns the getUpdates offset that confirms only handled updates,
// and how many are in hand.
func (w *inFlight) offset() (int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	off := w.next
	for id := range w.ids {
		off = min(off, id)
	}
	return off, len(w.ids)
}

// take records an update as in hand and returns the function to call once
// it was handled; false when it was taken before.
func (w *inFlight) take(id int) (func(), bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if id < w.next {
		return nil, false
	}
	w.next = id + 1
	w.ids[id] = struct{}{}
	w.all.Add(1)
	return func() {
		w.mu.Lock()
		delete(w.ids, id)
		w.mu.Unlock()
		select {
		case w.freed <- struct{}{}:
		default:
		}
		w.all.Done()
	}, true
}

// startAt makes id the next update to take, when none is in hand: the
// update ids started over.
func (w *inFlight) startAt(id int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.ids) == 0 {
		w.next = id
	}
}

// waitIdle waits until every update in hand was handled, ctx is done or d
// passed.
func (w *inFlight) waitIdle(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		w.mu.Lock()
		n := len(w.ids)
		w.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-w.freed:
		case <-t.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// waitFreed waits until an update was handled since the last call, ctx is
// done or d passed.
func (w *inFlight) waitFreed(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-w.freed:
	case <-t.C:
	case <-ctx.Done():
	}
}

// wait waits until every update taken was handled.
func (w *inFlight) wait() { w.all.Wait() }

// Handle handles one raw update (webhook mode) and returns once it was
// handled: its effects are committed.
func (b *Bot) Handle(ctx context.Context, raw []byte) error {
	done := make(chan struct{})
	if err := b.dispatch(raw, func() { close(done) }); err != nil {
		return err
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SetWebhook registers url as the bot's webhook, with the secret Telegram
// sends back in X-Telegram-Bot-Api-Secret-Token (a field tgbotapi v5.5.1
// does not have), and how many updates Telegram may post at once (1 to
// 100; 0: Telegram's default, 40). Telegram posts them in parallel, a
// queue per chat for messages and per user for presses, so a chat's
// updates may come in any order: Handle takes each as it comes, and
// storage tells a redelivery from a late one.
func (b *Bot) SetWebhook(url, secret string, maxConnections int) error {
	return b.api.setWebhook(url, secret, maxConnections, allowedUpdates)
}

// updateID returns the update_id of a raw update: a positive number, as
// the Bot API sends.
func updateID(raw []byte) (int, error) {
	var id struct {
		UpdateID *int `json:"update_id"`
	}
	if err := json.Unmarshal(raw, &id); err != nil {
		return 0, fmt.Errorf("decoding an update's id: %w", err)
	}
	if id.UpdateID == nil || *id.UpdateID <= 0 {
		return 0, errors.New("an update without a positive update_id")
	}
	return *id.UpdateID, nil
}

// quote is the start of a raw update, for a log line.
func quote(raw []byte) string {
	const most = 200
	if len(raw) > most {
		return string(raw[:most]) + "…"
	}
	return string(raw)
}

// dispatch queues a raw update on its chat's goroutine and calls done when
// it was handled, or its handling failed. An update that does not decode is
// logged and skipped at once: delivering it again would not help.
func (b *Bot) dispatch(raw []byte, done func()) error {
	u, err := decodeUpdate(raw)
	if err != nil {
		b.log.Warn("undecodable update skipped", "err", err, "update", quote(raw))
		b.metrics.UpdateFailed("undecodable")
		done()
		return nil
	}
	b.onChat(u.chat(), u.kind(), func() {
		defer done()
		start := time.Now()
		b.handle(b.base, u)
		b.metrics.UpdateHandled(u.kind())
		b.metrics.ActionDone(u.kind(), time.Since(start))
	}, "update_id", u.UpdateID)
	return nil
}

// onChat runs fn on the chat's goroutine (see serial). A panic in fn is
// recovered: it is logged with attrs and the stack, counted as a failed
// update of the kind, and the chat goes on with its next update. Deferred
// calls in fn run, so that an update is still confirmed.
func (b *Bot) onChat(chat int64, kind string, fn func(), attrs ...any) {
	b.chats.Go(chat, func() {
		defer func() {
			if r := recover(); r != nil {
				b.log.Error("handling failed", append(attrs, "kind", kind, "chat", chat,
					"panic", fmt.Sprint(r), "stack", string(debug.Stack()))...)
				b.metrics.UpdateFailed(kind)
			}
		}()
		fn()
	})
}

// Close stops the re-rendering and the timers, waits until every update
// and timeout queued on a chat was handled, sends the pending renders until
// ctx is done, and closes the connection to the Bot API. It does not close
// the store.
func (b *Bot) Close(ctx context.Context) error {
	b.mu.Lock()
	stop := b.stopRestore
	b.mu.Unlock()
	stop()
	b.restoring.Wait()
	b.timers.stop()
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
	b.closePace(ctx)
	b.cancel()
	b.api.close()
	return err
}

// fireTimeout runs a table's timeout on its chat's goroutine.
func (b *Bot) fireTimeout(key storage.TableKey, version uint64) {
	b.fireTimer("timeout", key, version, b.timeout)
}

// fireTimer runs act, a table's timer come due for version, on its chat's
// goroutine, counted as an update of kind.
func (b *Bot) fireTimer(kind string, key storage.TableKey, version uint64, act func(context.Context, storage.TableKey, uint64)) {
	b.onChat(key.Chat, kind, func() {
		start := time.Now()
		act(b.base, key, version)
		b.metrics.UpdateHandled(kind)
		b.metrics.ActionDone(kind, time.Since(start))
	}, "table", key, "version", version)
}
