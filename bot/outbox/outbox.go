// Package outbox sends the bot's outgoing Bot API calls at the pace Telegram
// allows: one queue per chat in which a newer render of a message replaces an
// older one still waiting, a global limit on calls per second, per-chat pacing
// under Telegram's group limits, and waiting out 429's retry_after before
// trying again.
//
// An Op is a function that makes one call. The outbox does not look inside:
// it orders, paces, coalesces and retries, and the caller's function does the
// Bot API call and reports how it went through its error: nil, a
// *RetryAfterError (429), a temporary error (Temporary) or anything else
// (given up, logged).
package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Limits says how fast the outbox may call. A zero field is no limit.
type Limits struct {
	// PerSecond caps the calls per second over all chats (Telegram: about 30).
	PerSecond int
	// GroupPerMinute caps the calls per GroupWindow into one group
	// (Telegram: 20 a minute).
	GroupPerMinute int
	// GroupWindow is the span GroupPerMinute counts over; default a minute.
	GroupWindow time.Duration
	// ChatInterval is the least time between two calls into the same chat
	// (Telegram: about one second).
	ChatInterval time.Duration
}

// TelegramLimits are Telegram's published limits with a margin.
func TelegramLimits() Limits {
	return Limits{PerSecond: 25, GroupPerMinute: 19, ChatInterval: time.Second}
}

// Op is one outgoing call into a chat.
type Op struct {
	// Chat is the chat the call goes to; ops of one chat run one at a time,
	// in order.
	Chat int64
	// Slot, when not empty, names what the op renders (a table message):
	// enqueuing an op with the slot of one still waiting replaces it in its
	// place, so only the newest render is sent.
	Slot string
	// Do makes the call.
	Do func(ctx context.Context) error
}

// RetryAfterError is what Do returns when Telegram answered 429.
type RetryAfterError struct {
	After time.Duration
}

func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("too many requests: retry after %s", e.After)
}

// temporaryError marks an error worth retrying.
type temporaryError struct{ err error }

func (e temporaryError) Error() string { return e.err.Error() }
func (e temporaryError) Unwrap() error { return e.err }

// Temporary marks err as worth retrying (a 5xx answer, a dropped connection).
func Temporary(err error) error {
	if err == nil {
		return nil
	}
	return temporaryError{err}
}

// IsTemporary reports whether err was marked by Temporary.
func IsTemporary(err error) bool {
	var t temporaryError
	return errors.As(err, &t)
}

// ErrClosed is returned by Enqueue after Close.
var ErrClosed = errors.New("outbox closed")

// Options configure an Outbox.
type Options struct {
	Limits Limits
	// MaxAttempts bounds how often an op failing with a temporary error is
	// tried; default 5.
	MaxAttempts int
	// Backoff is the first wait after a temporary error, doubling each time;
	// default 200 ms.
	Backoff time.Duration
	// Logger receives the ops given up; default slog.Default().
	Logger *slog.Logger
	// OnRetryAfter, if set, is told of every 429.
	OnRetryAfter func(chat int64, after time.Duration)
}

// Outbox queues and paces ops. Its methods are safe for concurrent use.
type Outbox struct {
	opts   Options
	global *window

	mu     sync.Mutex
	chats  map[int64]*chatQueue
	closed bool
	// ctx is cancelled by Close when its deadline passes, to stop the
	// workers' waiting.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// enqueued counts Enqueue calls, to prune idle chats now and then.
	enqueued int
	// pending counts the ops queued over all chats, for Pending.
	pending int
}

// item is a queued op; gen grows each time a newer render replaces do, so
// that a render replaced while its call was in flight is sent again.
type item struct {
	slot string
	do   func(ctx context.Context) error
	gen  int
}

type chatQueue struct {
	ops     []*item
	running bool
	paused  time.Time
	pace    *window
	last    time.Time
}

// New returns an Outbox.
func New(opts Options) *Outbox {
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 5
	}
	if opts.Backoff <= 0 {
		opts.Backoff = 200 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	o := &Outbox{opts: opts, chats: make(map[int64]*chatQueue), ctx: ctx, cancel: cancel}
	if opts.Limits.PerSecond > 0 {
		o.global = newWindow(opts.Limits.PerSecond, time.Second)
	}
	return o
}

// Enqueue adds op to its chat's queue.
func (o *Outbox) Enqueue(op Op) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	q := o.chats[op.Chat]
	if q == nil {
		q = &chatQueue{}
		if n := o.opts.Limits.GroupPerMinute; n > 0 && op.Chat < 0 {
			per := o.opts.Limits.GroupWindow
			if per <= 0 {
				per = time.Minute
			}
			q.pace = newWindow(n, per)
		}
		o.chats[op.Chat] = q
	}
	if op.Slot != "" {
		for _, queued := range q.ops {
			if queued.slot == op.Slot {
				queued.do = op.Do
				queued.gen++
				return nil
			}
		}
	}
	q.ops = append(q.ops, &item{slot: op.Slot, do: op.Do})
	o.pending++
	if o.enqueued++; o.enqueued%1024 == 0 {
		o.prune(time.Now())
	}
	if !q.running {
		q.running = true
		o.wg.Add(1)
		go o.work(op.Chat, q)
	}
	return nil
}

// prune forgets chats that have been idle for longer than any pacing
// window; o.mu is held.
func (o *Outbox) prune(now time.Time) {
	for id, q := range o.chats {
		if !q.running && len(q.ops) == 0 && now.Sub(q.last) > time.Minute && now.After(q.paused) {
			delete(o.chats, id)
		}
	}
}

// Pending returns how many ops wait, over all chats (the one running in
// each chat included). It is cheap: callers may poll it.
func (o *Outbox) Pending() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.pending
}

// Close stops taking ops and sends those queued until ctx is done; then it
// abandons the rest and returns ctx's error.
func (o *Outbox) Close(ctx context.Context) error {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	done := make(chan struct{})
	go func() {
		o.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		o.cancel()
		return nil
	case <-ctx.Done():
		o.cancel()
		<-done
		return fmt.Errorf("outbox: %d ops not sent: %w", o.Pending(), ctx.Err())
	}
}

// work runs the chat's ops until its queue is empty.
func (o *Outbox) work(chat int64, q *chatQueue) {
	defer o.wg.Done()
	attempts := 0
	for {
		o.mu.Lock()
		if len(q.ops) == 0 || o.ctx.Err() != nil {
			q.running = false
			o.mu.Unlock()
			return
		}
		op := q.ops[0]
		wait := time.Until(q.paused)
		if o.opts.Limits.ChatInterval > 0 {
			wait = max(wait, time.Until(q.last.Add(o.opts.Limits.ChatInterval)))
		}
		if q.pace != nil {
			wait = max(wait, q.pace.delay(time.Now()))
		}
		o.mu.Unlock()

		if wait > 0 && !Sleep(o.ctx, wait) {
			continue
		}
		if o.global != nil && !o.global.wait(o.ctx) {
			continue
		}
		o.mu.Lock()
		if q.pace != nil {
			if d := q.pace.delay(time.Now()); d > 0 {
				o.mu.Unlock()
				continue
			}
			q.pace.record(time.Now())
		}
		q.last = time.Now()
		do, gen := op.do, op.gen // a newer render may have replaced it while we waited
		o.mu.Unlock()

		err := do(o.ctx)

		o.mu.Lock()
		var ra *RetryAfterError
		switch {
		case err == nil:
			attempts = 0
			o.done(q, op, gen)
		case errors.As(err, &ra):
			q.paused = time.Now().Add(ra.After)
			if o.opts.OnRetryAfter != nil {
				o.opts.OnRetryAfter(chat, ra.After)
			}
		case IsTemporary(err) && attempts+1 < o.opts.MaxAttempts:
			attempts++
			q.paused = time.Now().Add(o.opts.Backoff << (attempts - 1))
		default:
			attempts = 0
			o.done(q, op, gen)
			o.opts.Logger.Warn("outbox: call given up", "chat", chat, "slot", op.slot, "err", err)
		}
		o.mu.Unlock()
	}
}

// done takes the op that ran at generation gen out of the queue, unless a
// newer render replaced it in the meantime: then it stays, to be sent next.
// o.mu is held.
func (o *Outbox) done(q *chatQueue, op *item, gen int) {
	if op.gen == gen && len(q.ops) > 0 && q.ops[0] == op {
		q.ops[0] = nil
		q.ops = q.ops[1:]
		o.pending--
	}
}

// Sleep waits d, or until ctx is done; it reports whether d passed. The
// outbox waits with it, and so may its callers.
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// window allows at most n events in any span of length per.
type window struct {
	mu    sync.Mutex
	n     int
	per   time.Duration
	times []time.Time // ring of the last n events
	next  int
}

func newWindow(n int, per time.Duration) *window {
	return &window{n: n, per: per, times: make([]time.Time, n)}
}

// delay returns how long until another event fits.
func (w *window) delay(now time.Time) time.Duration {
	oldest := w.times[w.next] // the n-th most recent event
	if oldest.IsZero() {
		return 0
	}
	return oldest.Add(w.per).Sub(now)
}

func (w *window) record(now time.Time) {
	w.times[w.next] = now
	w.next = (w.next + 1) % w.n
}

// wait blocks until an event fits, records it, and reports whether it did
// before ctx was done.
func (w *window) wait(ctx context.Context) bool {
	for {
		w.mu.Lock()
		now := time.Now()
		d := w.delay(now)
		if d <= 0 {
			w.record(now)
			w.mu.Unlock()
			return true
		}
		w.mu.Unlock()
		if !Sleep(ctx, d) {
			return false
		}
	}
}
