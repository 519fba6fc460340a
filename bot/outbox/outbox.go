// Package outbox sends the bot's outgoing Bot API calls at the pace Telegram
// allows: one queue per chat in which a newer render of a message replaces an
// older one still waiting and renders go before replies, a global limit on
// calls per second shared in turn among the chats that have something to
// send, notices sent only with what the chats leave of it, per-chat pacing
// under Telegram's group limits, and waiting out 429's retry_after before
// trying again.
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
	"container/heap"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
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
	// NoticePerSecond caps the Notice calls per second, within PerSecond,
	// so that a burst of notices leaves the rest of each second to the
	// renders and replies that come meanwhile.
	NoticePerSecond int
}

// TelegramLimits are Telegram's published limits with a margin. Notices
// take at most 8 of the 25 calls a second: 17 stay for the tables, which
// never wait behind a notice (see Notice).
func TelegramLimits() Limits {
	return Limits{PerSecond: 25, GroupPerMinute: 19, ChatInterval: time.Second, NoticePerSecond: 8}
}

// Class orders the waiting ops of a chat: every waiting Render goes before
// any waiting Say, so that a chat's table is never held up by replies, and
// every Say before any Notice. Notices also yield to every other chat's
// renders and replies (see Notice).
type Class uint8

const (
	// Render is a call that brings a message the bot keeps up to date to
	// its latest state: the table, a settings panel, an old table message
	// turned into its record.
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
)

// Op is one outgoing call into a chat.
type Op struct {
	// Chat is the chat the call goes to; ops of one chat run one at a time,
	// renders in the order enqueued, then replies in the order enqueued.
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

// maxBackoff caps the wait before an op that failed is tried again.
const maxBackoff = 30 * time.Second

// ErrClosed is returned by Enqueue after Close.
var ErrClosed = errors.New("outbox closed")

// ErrFull is returned by Enqueue when the op's chat holds as many ops (or,
// for a Say, as many replies) as it may, or when a Notice finds
// Options.MaxNotices waiting: the op is dropped.
var ErrFull = errors.New("outbox: the chat's queue is full")

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
}

// Outbox queues and paces ops. Its methods are safe for concurrent use.
type Outbox struct {
	opts   Options
	global *window // nil: no limit over all chats
	notice *window // nil: no limit of the notices' own

	mu    sync.Mutex
	chats map[int64]*chatQueue
	// ready holds the chats whose next op may be called now, in turn, and
	// lowReady those whose next op may too but who hold only notices,
	// called only while ready is empty; timed holds those whose next op
	// waits for their pacing or a pause. A chat of lowReady that gets a
	// render or a reply moves to ready, and its entry left behind is
	// skipped (chatQueue.where says where a chat is).
	ready    ring
	lowReady ring
	timed    timedHeap
	inFlight int
	// dispatching is whether the dispatcher runs; wake tells it that
	// something changed.
	dispatching bool
	wake        chan struct{}
	closed      bool
	// ctx is cancelled by Close when its deadline passes, to stop the
	// waiting and the calls.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// enqueued counts Enqueue calls, to prune idle chats now and then.
	enqueued int
	// pending counts the ops queued over all chats, for Pending, and
	// notices those of them that are notices, for MaxNotices.
	pending int
	notices int
}

// item is a queued op; gen grows each time a newer op replaces do, so that
// a render replaced while its call was in flight is sent again.
type item struct {
	slot   string
	do     func(ctx context.Context) error
	stale  func() bool
	gen    int
	notice bool
}

// Where a chat's queue is scheduled.
const (
	nowhere = iota
	inReady
	inLowReady
	inTimed
)

type chatQueue struct {
	id            int64
	renders, says []*item
	notices       []*item
	where         int
	due           time.Time // when timed: when its next op may go
	paused        time.Time
	pace          *window
	last          time.Time
	attempts      int
	// running is the op in flight and the generation it was called at;
	// runningSay whether it is a Say or a Notice.
	running    *item
	runningGen int
	runningSay bool
}

func (q *chatQueue) len() int { return len(q.renders) + len(q.says) + len(q.notices) }

// urgent reports whether the chat holds a render or a reply: they go
// before every chat's notices.
func (q *chatQueue) urgent() bool { return len(q.renders)+len(q.says) > 0 }

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
	ctx, cancel := context.WithCancel(context.Background())
	o := &Outbox{opts: opts, chats: make(map[int64]*chatQueue), ctx: ctx, cancel: cancel,
		wake: make(chan struct{}, 1)}
	if opts.Limits.PerSecond > 0 {
		o.global = newWindow(opts.Limits.PerSecond, time.Second)
	}
	if opts.Limits.NoticePerSecond > 0 {
		o.notice = newWindow(opts.Limits.NoticePerSecond, time.Second)
	}
	return o
}

// Enqueue adds op to its chat's queue. It returns ErrFull, dropping op,
// when the chat holds as many ops as it may, and ErrClosed after Close.
func (o *Outbox) Enqueue(op Op) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	q := o.chats[op.Chat]
	if q == nil {
		q = &chatQueue{id: op.Chat}
		if n := o.opts.Limits.GroupPerMinute; n > 0 && op.Chat < 0 {
			q.pace = newWindow(n, o.opts.Limits.GroupWindow)
		}
		o.chats[op.Chat] = q
	}
	list := &q.renders
	switch op.Class {
	case Say:
		list = &q.says
	case Notice:
		list = &q.notices
	}
	if op.Slot != "" {
		for _, queued := range *list {
			if queued.slot == op.Slot {
				queued.do, queued.stale = op.Do, op.Stale
				queued.gen++
				return nil
			}
		}
	}
	if q.len() >= o.opts.MaxOps || op.Class == Say && len(q.says) >= o.opts.MaxSays ||
		op.Class == Notice && o.notices >= o.opts.MaxNotices {
		return fmt.Errorf("%w: chat %d", ErrFull, op.Chat)
	}
	*list = append(*list, &item{slot: op.Slot, do: op.Do, stale: op.Stale, notice: op.Class == Notice})
	o.pending++
	if op.Class == Notice {
		o.notices++
	}
	if o.enqueued++; o.enqueued%1024 == 0 {
		o.prune(time.Now())
	}
	if q.where == inLowReady && q.urgent() {
		// No longer notices only: it takes its turn with the other chats.
		q.where = inReady
		o.ready.push(q)
		o.kick()
	}
	o.schedule(q, time.Now())
	return nil
}

// schedule puts a chat that has ops waiting, and none running, in the ready
// ring or in the timed heap; o.mu is held.
func (o *Outbox) schedule(q *chatQueue, now time.Time) {
	if q.running != nil || q.where != nowhere || q.len() == 0 {
		return
	}
	due := q.paused
	if o.opts.Limits.ChatInterval > 0 && !q.last.IsZero() {
		due = later(due, q.last.Add(o.opts.Limits.ChatInterval))
	}
	if q.pace != nil {
		due = later(due, now.Add(q.pace.delay(now)))
	}
	if due.After(now) {
		q.where, q.due = inTimed, due
		heap.Push(&o.timed, q)
	} else {
		o.makeReady(q)
	}
	o.kick()
}

// makeReady puts a chat whose next op may be called now in the ready ring,
// or in lowReady when it holds only notices; o.mu is held.
func (o *Outbox) makeReady(q *chatQueue) {
	if q.urgent() {
		q.where = inReady
		o.ready.push(q)
		return
	}
	q.where = inLowReady
	o.lowReady.push(q)
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
	if !o.dispatching {
		o.dispatching = true
		o.wg.Add(1)
		go o.dispatch()
		return
	}
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// idle reports whether the chat's queue holds nothing the outbox must
// remember: no op, and no pacing or pause still in force; o.mu is held.
func (o *Outbox) idle(q *chatQueue, now time.Time) bool {
	if q.running != nil || q.len() > 0 || now.Before(q.paused) {
		return false
	}
	if q.last.IsZero() {
		return true
	}
	if o.opts.Limits.ChatInterval > 0 && now.Sub(q.last) < o.opts.Limits.ChatInterval {
		return false
	}
	return q.pace == nil || now.Sub(q.last) >= o.opts.Limits.GroupWindow
}

// prune forgets chats that are idle; o.mu is held.
func (o *Outbox) prune(now time.Time) {
	for id, q := range o.chats {
		if q.where == nowhere && o.idle(q, now) {
			o.forget(id)
		}
	}
}

// forget drops a chat's queue, and once none is left what a burst of
// chats grew (a Go map keeps its size after deletions); o.mu is held.
func (o *Outbox) forget(chat int64) {
	if delete(o.chats, chat); len(o.chats) == 0 {
		o.chats = make(map[int64]*chatQueue)
	}
}

// Pending returns how many ops wait, over all chats (the one running in
// each chat included). It is cheap: callers may poll it.
func (o *Outbox) Pending() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.pending
}

// Chats returns how many chats the outbox keeps a queue for: those with
// ops waiting and those whose pacing is still in force.
func (o *Outbox) Chats() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.chats)
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
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		o.mu.Lock()
		if o.ctx.Err() != nil {
			o.dispatching = false
			o.mu.Unlock()
			return
		}
		now := time.Now()
		for o.timed.Len() > 0 && !o.timed[0].due.After(now) {
			o.makeReady(heap.Pop(&o.timed).(*chatQueue))
		}
		o.skipMoved()
		wait := time.Duration(-1) // until woken
		if o.inFlight < o.opts.MaxInFlight {
			q, d := o.nextReady(now)
			if q != nil {
				o.start(q, now)
				o.mu.Unlock()
				continue
			}
			if d > 0 {
				wait = d
			}
		}
		idle := o.ready.len() == 0 && o.lowReady.len() == 0
		if idle && o.timed.Len() == 0 && o.inFlight == 0 {
			o.dispatching = false
			o.mu.Unlock()
			return
		}
		if o.timed.Len() > 0 && (idle || o.inFlight < o.opts.MaxInFlight) {
			if d := o.timed[0].due.Sub(now); wait < 0 || d < wait {
				wait = d
			}
		}
		o.mu.Unlock()
		if wait < 0 {
			select {
			case <-o.wake:
			case <-o.ctx.Done():
			}
			continue
		}
		timer.Reset(wait)
		select {
		case <-o.wake:
		case <-timer.C:
		case <-o.ctx.Done():
		}
		timer.Stop()
	}
}

// globalDelay returns how long until another call fits the global limit;
// o.mu is held.
func (o *Outbox) globalDelay(now time.Time) time.Duration {
	if o.global == nil {
		return 0
	}
	return o.global.delay(now)
}

// nextReady takes the chat to call next, one of ready before any of
// lowReady, when the limits allow a call now; else it returns how long
// until they do (0: no chat is ready). o.mu is held.
func (o *Outbox) nextReady(now time.Time) (*chatQueue, time.Duration) {
	if o.ready.len() == 0 && o.lowReady.len() == 0 {
		return nil, 0
	}
	d := o.globalDelay(now)
	if o.ready.len() == 0 && o.notice != nil {
		d = max(d, o.notice.delay(now))
	}
	switch {
	case d > 0:
		return nil, d
	case o.ready.len() > 0:
		return o.ready.pop(), 0
	}
	return o.lowReady.pop(), 0
}

// skipMoved drops the entries at the head of lowReady whose chats are no
// longer there: moved to ready, or called since; o.mu is held.
func (o *Outbox) skipMoved() {
	for o.lowReady.len() > 0 && o.lowReady.peek().where != inLowReady {
		o.lowReady.pop()
	}
}

// start calls the next op of a ready chat in a goroutine of its own, its
// renders first; o.mu is held.
func (o *Outbox) start(q *chatQueue, now time.Time) {
	q.where = nowhere
	if !o.dropStale(q) {
		if o.idle(q, now) {
			o.forget(q.id)
		}
		return
	}
	op := q.next()
	if o.global != nil {
		o.global.record(now)
	}
	if o.notice != nil && op.notice {
		o.notice.record(now)
	}
	if q.pace != nil {
		q.pace.record(now)
	}
	q.last = now
	q.running, q.runningGen, q.runningSay = op, op.gen, len(q.renders) == 0
	o.inFlight++
	o.wg.Add(1)
	go o.call(q, op.do)
}

// dropStale drops the ops at the head of the chat's queue that report
// themselves stale (Op.Stale), and reports whether an op is left to call;
// o.mu is held. An op in flight is not at the head: the chat runs none.
func (o *Outbox) dropStale(q *chatQueue) bool {
	for q.len() > 0 {
		op := q.next()
		if op.stale == nil || !op.stale() {
			return true
		}
		o.drop(q.head())
	}
	return false
}

// next returns the chat's next op: its first render, else its first reply,
// else its first notice.
func (q *chatQueue) next() *item { return (*q.head())[0] }

// head returns the list that holds the chat's next op.
func (q *chatQueue) head() *[]*item {
	switch {
	case len(q.renders) > 0:
		return &q.renders
	case len(q.says) > 0:
		return &q.says
	}
	return &q.notices
}

// drop takes the first op out of one of a chat's lists; o.mu is held.
func (o *Outbox) drop(list *[]*item) {
	if (*list)[0].notice {
		o.notices--
	}
	(*list)[0] = nil
	*list = (*list)[1:]
	o.pending--
}

// call makes one call and acts on its result.
func (o *Outbox) call(q *chatQueue, do func(context.Context) error) {
	defer o.wg.Done()
	err := o.safely(q.id, do)
	o.mu.Lock()
	defer o.mu.Unlock()
	now := time.Now()
	o.inFlight--
	op, gen := q.running, q.runningGen
	q.running = nil
	var ra *RetryAfterError
	switch {
	case err == nil:
		q.attempts = 0
		o.done(q, op, gen)
	case errors.As(err, &ra):
		q.paused = now.Add(ra.After)
		if o.opts.OnRetryAfter != nil {
			o.opts.OnRetryAfter(q.id, ra.After)
		}
	case IsTemporary(err) && (!q.runningSay || q.attempts+1 < o.opts.MaxAttempts):
		q.attempts++
		q.paused = now.Add(min(o.opts.Backoff<<min(q.attempts-1, 16), maxBackoff))
	default:
		q.attempts = 0
		o.done(q, op, gen)
		o.opts.Logger.Warn("outbox: call given up", "chat", q.id, "slot", op.slot, "err", err)
	}
	if q.len() == 0 && o.idle(q, now) {
		o.forget(q.id)
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

// done takes the op that ran at generation gen out of its queue, unless a
// newer op replaced it in the meantime: then it stays, to be sent next.
// o.mu is held.
func (o *Outbox) done(q *chatQueue, op *item, gen int) {
	if op.gen != gen {
		return
	}
	for _, list := range []*[]*item{&q.renders, &q.says, &q.notices} {
		if len(*list) > 0 && (*list)[0] == op {
			o.drop(list)
			return
		}
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
	return max(oldest.Add(w.per).Sub(now), 0)
}

func (w *window) record(now time.Time) {
	w.times[w.next] = now
	w.next = (w.next + 1) % w.n
}

// ring is a FIFO of chat queues.
type ring struct {
	items []*chatQueue
	head  int
}

func (r *ring) len() int { return len(r.items) - r.head }

func (r *ring) push(q *chatQueue) {
	if r.head > 1024 && r.head*2 > len(r.items) {
		n := copy(r.items, r.items[r.head:])
		clear(r.items[n:])
		r.items, r.head = r.items[:n], 0
	}
	r.items = append(r.items, q)
}

func (r *ring) peek() *chatQueue { return r.items[r.head] }

func (r *ring) pop() *chatQueue {
	q := r.items[r.head]
	r.items[r.head] = nil
	if r.head++; r.head == len(r.items) {
		r.items, r.head = nil, 0 // emptied: drop what a burst grew
	}
	return q
}

// timedHeap orders chat queues by when their next op may go.
type timedHeap []*chatQueue

func (h timedHeap) Len() int           { return len(h) }
func (h timedHeap) Less(i, j int) bool { return h[i].due.Before(h[j].due) }
func (h timedHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *timedHeap) Push(x any)        { *h = append(*h, x.(*chatQueue)) }

func (h *timedHeap) Pop() any {
	old := *h
	q := old[len(old)-1]
	old[len(old)-1] = nil
	if *h = old[:len(old)-1]; len(*h) == 0 {
		*h = nil // emptied: drop what a burst grew
	}
	return q
}
