// Package outbox sends the bot's outgoing Bot API calls at the pace Telegram
// allows: one queue per chat in which a newer render of a message replaces an
// older one still waiting and renders go before replies (a reply waits
// behind at most replyAfter renders), a global limit on calls per second,
// its calls spread evenly over each second (see pacer) and shared in turn
// among the chats that have something to send, notices sent only with
// what the chats leave of it (see Notice), per-group pacing that spreads a
// group's calls evenly under Telegram's limit of 20 a minute (see pacer),
// ephemeral messages apart from their group's pacing, first within a share
// of the global limit (see Ephemeral), and waiting out 429's retry_after
// before trying again. A group's recent calls can be kept across a restart
// (TakeHistory, Restore), so that a new process does not spend a budget
// the old one spent; all on the clock it is given (Options.Clock).
//
// An Op is a function that makes one call. The outbox does not look inside:
// it orders, paces, coalesces and retries, and the caller's function does the
// Bot API call and reports how it went through its error: nil, a
// *RetryAfterError (429), a temporary error (Temporary) or anything else
// (given up, logged). An op may also say, when its turn comes, that it went
// stale (Op.Stale): it is then dropped without a call.
//
// An idle outbox runs no goroutine: one dispatcher runs while any op waits,
// and one goroutine per call in flight, at most Options.MaxInFlight.
package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
)

// Class orders the waiting ops of a chat: a waiting Render goes before any
// waiting Retire or Say, so that a chat's live messages are never held up
// by old ones or by replies, and the Retires and Says go in the order
// enqueued; but once replyAfter renders went ahead of a waiting Say
// (retireAfter of a Retire), it goes next, so that a table that changes
// all the time starves neither. Every Say goes before any Notice, and
// notices also yield to every other chat's renders and replies (see
// Notice). Into a group, a Say or a Notice leaves the renders their
// reserve of the group's pacing (renderReserve), but for a Say that
// replyAfter renders overtook. While other chats wait for the global
// budget, a Retire or Say that a render overtook, or that was enqueued
// while the render was in flight, goes right after it, in the chat's
// turn, as one overtaken enough would (taking the renders' reserve),
// unless a newer render waited when it went through (see
// chatQueue.extra).
type Class uint8

const (
	// Render is a call that brings a live message the bot keeps up to date
	// to its latest state: the table, a settings panel.
	Render Class = iota
	// Say sends a message said once: a reply, an announcement. A chat holds
	// at most Options.MaxSays of them waiting.
	Say
	// Notice sends a message the bot says unasked, that may wait: a
	// private message that a table opened in a group the user follows. A
	// chat whose next op is a notice is called only while no chat has a
	// render or a reply ready to go, and notices take at most
	// Limits.NoticePerSecond calls a second: however many wait, no table
	// waits for them. At most Options.MaxNotices wait over all chats.
	Notice
	// Retire brings a message that is no longer live to its last state:
	// an old table message turned into its record, a nudge deleted. Like
	// a Render it is tried until it succeeds or fails for good and takes
	// the group's last token; it goes after the chat's renders, so that
	// the table's next move does not wait behind the last game's record.
	Retire
	// Ephemeral sends, edits or deletes an ephemeral message, which one
	// member of a group sees (see ephemeral.go): it spends the budget over
	// all chats only, not the group's, waits behind no op of the group's,
	// and goes before other chats' ops within its share of that budget.
	Ephemeral
)

// replyAfter is how many renders may go ahead of a waiting reply, and
// retireAfter of a waiting Retire: then it goes next, as a render would
// (a reply may then take the renders' reserve). A Retire waits longer: in
// a group whose players keep its table busy, each Retire that goes holds
// the table's next render back by a spacing of the group's pacing.
const (
	replyAfter  = 3
	retireAfter = 6
)

// Op is one outgoing call into a chat.
type Op struct {
	// Chat is the chat the call goes to; ops of one chat run one at a time,
	// each class in the order enqueued (see Class).
	Chat int64
	// Slot, when not empty, names what the op renders or says: enqueuing
	// an op with the slot of one still waiting replaces it in its place,
	// so only the newest render is sent and a reply identical to one
	// waiting is sent once.
	Slot string
	// Class is the op's class; the zero value is Render.
	Class Class
	// Do makes the call.
	Do func(ctx context.Context) error
	// Stale, when set, is asked just before each call of the op (its
	// retries included); an op it reports stale is dropped uncalled and
	// costs none of the chat's pacing. It is for a message worth sending
	// only while it is still true. It is called with the outbox's lock
	// held: it must be quick and must not call the outbox.
	Stale func() bool
	// Expires, when not zero, is when the op may no longer be called (an
	// ephemeral message's window): one whose turn comes later is dropped
	// uncalled, and Late, when not nil, enqueued in its place.
	Expires time.Time
	Late    *Op
}

// maxBackoff caps the wait before an op that failed is tried again.
const maxBackoff = 30 * time.Second

// Options configure an Outbox.
type Options struct {
	Limits Limits
	// MaxAttempts bounds how often a Say failing with a temporary error is
	// tried. A render is tried until it succeeds or fails for good: it
	// shows the newest state, and a table left behind looks frozen.
	// tried; default 5.
	MaxAttempts int
	// Backoff is the first wait after a temporary error, doubling each time;
	// default 200 ms.
	Backoff time.Duration
	// MaxSays bounds the replies waiting in one chat; default 8.
	MaxSays int
	// MaxOps bounds the ops waiting in one chat, renders included; default
	// 64.
	MaxOps int
	// MaxNotices bounds the notices waiting over all chats; default 10000.
	MaxNotices int
	// MaxInFlight bounds the calls made at once over all chats; default 64.
	MaxInFlight int
	// Logger receives the ops given up; default slog.Default().
	Logger *slog.Logger
	// OnRetryAfter, if set, is told of every 429.
	OnRetryAfter func(chat int64, after time.Duration)
	// OnRenderWait, if set, is told how long each render waited, from
	// the enqueue of the oldest op it holds that was not called yet (a
	// render replacing a waiting one keeps its place and its time) to the
	// start of its call. It is called with the outbox's lock held: it must
	// be quick and must not call the outbox.
	OnRenderWait func(waited time.Duration)
	// OnCoalesce, if set, is told of each render replaced by a newer one
	// before it was called; like OnRenderWait, with the lock held.
	OnCoalesce func()
	// Clock is the clock the outbox paces by (every limit, the notices'
	// included); default the system clock.
	Clock clock.Clock
	// KeepHistory makes the outbox remember which groups it called since
	// the last TakeHistory.
	KeepHistory bool
}

// Outbox queues and paces ops. Its methods are safe for concurrent use.
type Outbox struct {
	opts  Options
	clock clock.Clock

	mu sync.Mutex
	// queues are the chats' queues (queues.go), and turns whose turn it
	// is among those with an op waiting, under the budget over all chats
	// (turns.go).
	queues   queues
	turns    turns
	inFlight int
	// dispatching is whether the dispatcher runs; wake tells it that
	// something changed; parked is whether it waits for wake with its
	// timer set, having nothing to do before (see kick).
	dispatching bool
	parked      bool
	wake        chan struct{}
	closed      bool
	// ctx is cancelled by Close when its deadline passes, to stop the
	// waiting and the calls.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// enqueued counts Enqueue calls, to prune idle chats now and then.
	enqueued int
}

// New returns an Outbox.
func New(opts Options) *Outbox {
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 5
	}
	if opts.Backoff <= 0 {
		opts.Backoff = 200 * time.Millisecond
	}
	if opts.MaxSays <= 0 {
		opts.MaxSays = 8
	}
	if opts.MaxOps <= 0 {
		opts.MaxOps = 64
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = 64
	}
	if opts.MaxNotices <= 0 {
		opts.MaxNotices = 10000
	}
	if opts.Limits.GroupWindow <= 0 {
		opts.Limits.GroupWindow = time.Minute
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Outbox{opts: opts, clock: opts.Clock, ctx: ctx, cancel: cancel, wake: make(chan struct{}, 1),
		queues: newQueues(opts.Limits, opts.KeepHistory), turns: newTurns(opts.Limits)}
}

// Enqueue adds op to its chat's queue. It returns ErrFull, dropping op,
// when the chat holds as many ops as it may (or a notice finds
// Options.MaxNotices waiting), and ErrClosed after Close.
func (o *Outbox) Enqueue(op Op) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	return o.enqueue(op, o.clock.Now())
}

// enqueue is Enqueue with o.mu held.
func (o *Outbox) enqueue(op Op, now time.Time) error {
	q := o.queues.of(op, now)
	list := q.list(op.Class)
	if op.Slot != "" {
		for _, queued := range *list {
			if queued.slot == op.Slot {
				o.replace(q, queued, op, now)
				return nil
			}
		}
	}
	if o.queues.full(q, op, o.opts) {
		return fmt.Errorf("%w: chat %d", ErrFull, op.Chat)
	}
	o.queues.add(list, &item{slot: op.Slot, class: op.Class, do: op.Do, stale: op.Stale, since: now, seq: o.enqueued,
		expires: op.Expires, late: op.Late})
	if o.enqueued++; o.enqueued%1024 == 0 {
		o.queues.prune(now)
	}
	if o.turns.hurry(q) {
		// No longer notices only: it takes its turn with the other chats.
		o.kick()
	}
	o.reschedule(q, now) // a render may go sooner than the reply it was timed for
	o.schedule(q, now)
	return nil
}

// replace puts op in the place of the queued item with its slot; o.mu is
// held. A render replaced before its call counts as coalesced; one
// replaced while its call is in flight is sent again, waiting from now.
func (o *Outbox) replace(q *chatQueue, queued *item, op Op, now time.Time) {
	inFlight := queued == q.running && queued.gen == q.runningGen
	if !inFlight && op.Class == Render && o.opts.OnCoalesce != nil {
		o.opts.OnCoalesce()
	}
	if queued.since.IsZero() {
		queued.since = now
	}
	queued.do, queued.stale, queued.expires, queued.late = op.Do, op.Stale, op.Expires, op.Late
	queued.gen++
	o.reschedule(q, now) // a render may go sooner than the reply it was timed for
}

// due returns when the chat's next op may go, by its pacing and pauses;
// the chat has an op, and none in flight. o.mu is held.
func (o *Outbox) due(q *chatQueue, now time.Time) time.Time {
	due := q.paused
	if o.opts.Limits.ChatInterval > 0 && !q.last.IsZero() && !q.personal {
		due = later(due, q.last.Add(o.opts.Limits.ChatInterval))
	}
	if q.pace != nil {
		_, reserve := q.pick()
		due = later(due, now.Add(q.pace.delay(now, reserve)))
	}
	return due
}

// schedule puts a chat that has ops waiting, and none running, in the ready
// ring or in the timed heap; o.mu is held.
func (o *Outbox) schedule(q *chatQueue, now time.Time) {
	if q.running != nil || q.where != nowhere || q.len() == 0 {
		return
	}
	if due := o.due(q, now); due.After(now) {
		o.turns.wait(q, due)
	} else {
		o.turns.makeReady(q)
	}
	o.kick()
}

// reschedule schedules a timed chat again, its next op having changed;
// o.mu is held.
func (o *Outbox) reschedule(q *chatQueue, now time.Time) {
	if q.where != inTimed {
		return
	}
	if due := o.due(q, now); !due.Equal(q.due) {
		o.turns.unwait(q)
		o.schedule(q, now)
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// kick makes the dispatcher look at the queues again, starting it if it
// does not run; o.mu is held.
func (o *Outbox) kick() {
	o.parked = false
	if !o.dispatching {
		o.dispatching = true
		o.wg.Add(1)
		go o.dispatch()
		return
	}
	o.poke()
}

// alarm wakes the dispatcher when its timer fires.
func (o *Outbox) alarm() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.parked = false
	o.poke()
}

// poke wakes the dispatcher.
func (o *Outbox) poke() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Pending returns how many ops wait, over all chats (the one running in
// each chat included). It is cheap: callers may poll it.
func (o *Outbox) Pending() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.queues.pending
}

// Chats returns how many queues the outbox keeps: of the chats with ops
// waiting or whose pacing is still in force, and of their ephemeral ops.
func (o *Outbox) Chats() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.queues.count()
}

// Quiet reports whether the outbox calls nothing until its clock moves or
// it is given an op: no call in flight, and the dispatcher (if it runs)
// waiting with its timer set, as no op may go before (a chat ready waits
// for the limits over all chats). A test that moves the outbox's clock by
// hand waits for it before moving the clock again.
func (o *Outbox) Quiet() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return (!o.dispatching || o.parked) && o.inFlight == 0
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

// dispatch starts the calls of the ready chats in turn, as the global limit
// and MaxInFlight allow, and moves the timed chats to the ready ring when
// they come due. It returns when nothing waits and nothing is in flight.
func (o *Outbox) dispatch() {
	defer o.wg.Done()
	var timer clock.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		o.mu.Lock()
		if o.ctx.Err() != nil {
			o.dispatching, o.parked = false, false
			o.mu.Unlock()
			return
		}
		now := o.clock.Now()
		wait, work := o.next(now)
		if work {
			o.mu.Unlock()
			continue
		}
		if _, timed := o.turns.nextDue(); o.turns.len() == 0 && !timed && o.inFlight == 0 {
			o.dispatching, o.parked = false, false
			o.mu.Unlock()
			return
		}
		if timer != nil {
			timer.Stop()
			timer = nil
		}
		if wait >= 0 {
			timer = o.clock.AfterFunc(wait, o.alarm)
		}
		o.parked = true
		o.mu.Unlock()
		select {
		case <-o.wake:
		case <-o.ctx.Done():
		}
	}
}

// next moves the timed chats that came due to the ready rings and starts
// the call of the first ready chat (see turns.take), if the limits allow:
// then it reports work done. Else it returns how long until there may be
// (-1: until woken). o.mu is held.
func (o *Outbox) next(now time.Time) (time.Duration, bool) {
	o.turns.promote(now)
	wait := time.Duration(-1) // until woken
	if o.inFlight < o.opts.MaxInFlight {
		q, low, d := o.turns.take(now)
		if q != nil {
			o.start(q, low, now)
			return 0, true
		}
		if d > 0 {
			wait = d
		}
	}
	idle := o.turns.len() == 0
	if due, ok := o.turns.nextDue(); ok && (idle || o.inFlight < o.opts.MaxInFlight) {
		if d := due.Sub(now); wait < 0 || d < wait {
			wait = d
		}
	}
	return wait, false
}

// start calls the next op of a ready chat in a goroutine of its own (see
// pick); low says the chat was taken from lowReady, and o.mu is held. A
// chat whose next op is not due yet, as its ops changed since it was
// scheduled, is scheduled again; one taken from ready whose renders and
// replies all went stale waits in lowReady for the notices' turn.
func (o *Outbox) start(q *chatQueue, low bool, now time.Time) {
	q.where = nowhere
	left := o.dropStale(q, now)
	if q.overtakable() == nil {
		q.extra = false // the op it was for went stale
	}
	if !left {
		if o.queues.idle(q, now) {
			o.queues.forget(q)
		}
		return
	}
	if o.due(q, now).After(now) || !low && !q.urgent() {
		o.schedule(q, now)
		return
	}
	op, _ := q.pick()
	o.turns.spend(op.class, now)
	o.queues.paced(q, now)
	q.runningExtra, q.extra = q.extra && op.class != Render, false
	if op.class == Render && q.overtakable() != nil {
		q.overtaken++
	} else {
		q.overtaken = 0 // a Retire or a reply goes, or none waits
	}
	if op.class == Render && !op.since.IsZero() && o.opts.OnRenderWait != nil {
		o.opts.OnRenderWait(now.Sub(op.since))
	}
	op.since = time.Time{}
	q.last = now
	q.running, q.runningGen, q.runningSay = op, op.gen, op.class == Say || op.class == Notice || op.class == Ephemeral
	o.inFlight++
	o.wg.Add(1)
	go o.call(q, op.do)
}

// dropStale drops the ops at the head of the chat's queue that report
// themselves stale (Op.Stale) or whose time passed (Op.Expires: their Late
// op takes their place), and reports whether an op is left to call; o.mu
// is held. An op in flight is not at the head: the chat runs none.
func (o *Outbox) dropStale(q *chatQueue, now time.Time) bool {
	for q.len() > 0 {
		op, _ := q.pick()
		if o.expired(q, op, now) {
			continue
		}
		if op.stale == nil || !op.stale() {
			return true
		}
		o.queues.remove(q, op)
	}
	return false
}

// call makes one call and acts on its result.
func (o *Outbox) call(q *chatQueue, do func(context.Context) error) {
	defer o.wg.Done()
	err := o.safely(q.id, do)
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.clock.Now()
	o.inFlight--
	op, gen := q.running, q.runningGen
	q.running = nil
	var ra *RetryAfterError
	switch {
	case err == nil:
		q.attempts = 0
		o.queues.done(q, op, gen)
		if op.class == Render && len(q.renders) == 0 && q.overtakable() != nil && o.turns.othersReady() {
			q.extra, q.resumed = true, true // see extra
		}
	case errors.As(err, &ra):
		q.paused, q.resumed = now.Add(ra.After), true
		q.retry(op)
		if o.opts.OnRetryAfter != nil {
			o.opts.OnRetryAfter(q.id, ra.After)
		}
	case IsTemporary(err) && (!q.runningSay || q.attempts+1 < o.opts.MaxAttempts):
		q.attempts++
		q.paused = now.Add(min(o.opts.Backoff<<min(q.attempts-1, 16), maxBackoff))
		q.resumed = true
		q.retry(op)
	default:
		q.attempts = 0
		o.queues.done(q, op, gen)
		o.opts.Logger.Warn("outbox: call given up", "chat", q.id, "slot", op.slot, "err", err)
	}
	if q.len() == 0 && o.queues.idle(q, now) {
		o.queues.forget(q)
	}
	o.schedule(q, now)
	o.kick()
}

// safely runs do, turning a panic into an error that gives the op up.
func (o *Outbox) safely(chat int64, do func(context.Context) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			o.opts.Logger.Error("outbox: call panicked", "chat", chat, "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("outbox: call panicked: %v", r)
		}
	}()
	return do(o.ctx)
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
