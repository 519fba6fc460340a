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
	"container/heap"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
)

// Limits says how fast the outbox may call. A zero field is no limit.
type Limits struct {
	// PerSecond caps the calls over all chats in any second (Telegram:
	// about 30); they go one every second/PerSecond, not a second's
	// worth at once.
	PerSecond int
	// GroupPerMinute caps the calls per GroupWindow into one group
	// (Telegram: 20 a minute).
	GroupPerMinute int
	// GroupWindow is the span GroupPerMinute counts over; default a minute.
	GroupWindow time.Duration
	// GroupBurst is how many calls may go into a group back to back (at
	// ChatInterval) before the rest are spread at one every
	// GroupWindow/(GroupPerMinute-GroupBurst+1); 0 is 3, and it is at
	// most GroupPerMinute (TelegramLimits sets 2).
	GroupBurst int
	// ChatInterval is the least time between two calls into the same chat
	// (Telegram: about one second).
	ChatInterval time.Duration
	// NoticePerSecond caps the Notice calls per second, within PerSecond,
	// so that a burst of notices leaves the rest of each second to the
	// renders and replies that come meanwhile; 0 is a third of PerSecond
	// (at least 1), or no cap without PerSecond (see NoticeRate).
	NoticePerSecond int
}

// TelegramLimits are Telegram's published limits with a margin: 25 calls a
// second over all chats (Telegram: about 30), of which notices take at most
// a third, 8, after the tables (see Notice), and answers at most a third
// ahead of them (EphemeralShare): 17 stay for the tables; and into a group
// at most 19 in any minute (Telegram: 20), a burst of 2 and then one every
// 60/18 s, at least a second apart (a burst of 3 spaced the rest 60/17 s
// apart: players who keep a table busy see it sooner with the shorter
// spacing). Raising PerSecond raises the notices' and answers' shares.
func TelegramLimits() Limits {
	return Limits{PerSecond: 25, GroupPerMinute: 19, GroupWindow: time.Minute, GroupBurst: 2,
		ChatInterval: time.Second}
}

// NoticeRate returns the notices' cap a second: NoticePerSecond, or when
// it is 0 a third of PerSecond (at least 1); 0 (no cap) with neither.
func (l Limits) NoticeRate() int {
	if l.NoticePerSecond > 0 || l.PerSecond <= 0 {
		return max(l.NoticePerSecond, 0)
	}
	return max(l.PerSecond/3, 1)
}

// GroupInterval returns the spacing of a group's calls once its burst is
// spent: GroupWindow/(GroupPerMinute-GroupBurst+1), rounded up, so that
// any span of GroupWindow holds at most GroupPerMinute calls; 0 without a
// group limit.
func (l Limits) GroupInterval() time.Duration {
	if l.GroupPerMinute <= 0 {
		return 0
	}
	w := l.GroupWindow
	if w <= 0 {
		w = time.Minute
	}
	k := time.Duration(l.GroupPerMinute - l.GroupBurstSize() + 1)
	return (w + k - 1) / k
}

// GroupBurstSize returns how many calls may go into a group back to back
// before the rest are spaced GroupInterval apart: GroupBurst, by default
// 3, at most GroupPerMinute.
func (l Limits) GroupBurstSize() int {
	b := l.GroupBurst
	if b <= 0 {
		b = 3
	}
	return min(b, l.GroupPerMinute)
}

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
	opts   Options
	clock  clock.Clock
	global *pacer // nil: no limit over all chats
	// notice caps the notices, answers the Ephemeral ops' share (nil: none).
	notice, answers *window

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
	// personal holds the queues of the Ephemeral ops, one per chat, and
	// personalReady those ready, first within their share (ephemeral.go).
	personal      map[int64]*chatQueue
	personalReady ring
	inFlight      int
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
	// pending counts the ops queued over all chats, for Pending, and
	// notices those of them that are notices, for MaxNotices.
	pending int
	notices int
	// called holds the groups called since the last TakeHistory, when
	// Options.KeepHistory is set.
	called map[int64]struct{}
	// assumed calls are counted into the pace of every group whose queue
	// is made before assumedAt+GroupWindow, all at assumedAt (Restore).
	assumed   int
	assumedAt time.Time
}

// item is a queued op of class class; gen grows each time a newer op
// replaces do, so that a render replaced while its call was in flight is
// sent again. since is when the oldest op it holds that was not called yet
// was enqueued; zero once called, until a newer op replaces it. seq orders
// the items by their enqueue (a newer op replacing one keeps its seq).
type item struct {
	slot  string
	class Class
	do    func(ctx context.Context) error
	stale func() bool
	gen   int
	since time.Time
	seq   int
	// expires and late are the op's Expires and Late.
	expires time.Time
	late    *Op
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
	retires       []*item
	ephemerals    []*item // only in a personal queue
	personal      bool    // a queue of Ephemeral ops: see ephemeral.go
	where         int
	due           time.Time // when timed: when its next op may go
	index         int       // when timed: in the heap
	paused        time.Time
	// resumed: the chat keeps its turn: when it is next ready it goes
	// first among the ready chats, not behind those that came meanwhile.
	// So after a pause for a failed call (a 429, a temporary error), whose
	// call was its turn, and for extra.
	resumed bool
	// extra: a render just went through while other chats waited for
	// the global budget, and a Retire or a reply waits that it overtook
	// or that was enqueued while it was in flight (a game's record, once
	// the new table message went), but no newer render: that op goes
	// next, as soon as the chat's own limits let it, ahead of the ready
	// chats, taking the group's last token as a render would. At their
	// back it would either take the chat's next turn, holding the
	// table's next render back a whole turn, or keep the chat queued so
	// that its next press showed sooner than the other chats' presses.
	// A newer render waiting when the render went through goes first, at
	// the chat's next turn, and the op after it; one enqueued after goes
	// at the chat's next turn, after the op. Without contention the
	// chat's own pacing orders them (see replyAfter).
	extra    bool
	pace     *pacer // nil: not a group, or no group limit
	last     time.Time
	attempts int
	// overtaken counts the renders started while a reply or a Retire
	// waited, since one of them last started (see replyAfter).
	overtaken int
	// running is the op in flight and the generation it was called at;
	// runningSay whether it is a Say or a Notice, runningExtra whether it
	// went as the chat's extra.
	running      *item
	runningGen   int
	runningSay   bool
	runningExtra bool
}

func (q *chatQueue) len() int {
	return len(q.renders) + len(q.retires) + len(q.says) + len(q.notices) + len(q.ephemerals)
}

// urgent reports whether the chat holds a render, a Retire or a reply:
// they go before every chat's notices.
func (q *chatQueue) urgent() bool { return q.len() > len(q.notices) }

// overtakable returns the op that renders may overtake, a few at most
// (see replyAfter): the first enqueued of the chat's first Retire and
// first reply; nil without either.
func (q *chatQueue) overtakable() *item {
	switch {
	case len(q.retires) > 0 && (len(q.says) == 0 || q.retires[0].seq < q.says[0].seq):
		return q.retires[0]
	case len(q.says) > 0:
		return q.says[0]
	}
	return nil
}

// list returns the chat's list of ops of class c.
func (q *chatQueue) list(c Class) *[]*item {
	switch c {
	case Say:
		return &q.says
	case Notice:
		return &q.notices
	case Retire:
		return &q.retires
	case Ephemeral:
		return &q.ephemerals
	}
	return &q.renders
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
	o := &Outbox{opts: opts, clock: opts.Clock, chats: make(map[int64]*chatQueue), ctx: ctx, cancel: cancel,
		wake: make(chan struct{}, 1), personal: make(map[int64]*chatQueue)}
	if opts.Limits.PerSecond > 0 {
		o.global = newGlobalPacer(opts.Limits)
	}
	if n := opts.Limits.NoticeRate(); n > 0 {
		o.notice = newWindow(n, time.Second)
	}
	o.answers = newAnswerShare(opts.Limits)
	if opts.KeepHistory {
		o.called = make(map[int64]struct{})
	}
	return o
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
	q := o.queueOf(op, now)
	list := q.list(op.Class)
	if op.Slot != "" {
		for _, queued := range *list {
			if queued.slot == op.Slot {
				o.replace(q, queued, op, now)
				return nil
			}
		}
	}
	if q.len() >= o.opts.MaxOps || op.Class == Say && len(q.says) >= o.opts.MaxSays ||
		op.Class == Notice && o.notices >= o.opts.MaxNotices {
		return fmt.Errorf("%w: chat %d", ErrFull, op.Chat)
	}
	*list = append(*list, &item{slot: op.Slot, class: op.Class, do: op.Do, stale: op.Stale, since: now, seq: o.enqueued,
		expires: op.Expires, late: op.Late})
	o.pending++
	if op.Class == Notice {
		o.notices++
	}
	if o.enqueued++; o.enqueued%1024 == 0 {
		o.prune(now)
	}
	if q.where == inLowReady && q.urgent() {
		// No longer notices only: it takes its turn with the other chats.
		q.where = inReady
		o.ready.push(q)
		o.kick()
	}
	o.reschedule(q, now) // a render may go sooner than the reply it was timed for
	o.schedule(q, now)
	return nil
}

// queue returns the chat's queue, made if it has none; o.mu is held.
func (o *Outbox) queue(chat int64, now time.Time) *chatQueue {
	q := o.chats[chat]
	if q != nil {
		return q
	}
	q = &chatQueue{id: chat}
	if o.opts.Limits.GroupPerMinute > 0 && chat < 0 {
		q.pace = newGroupPacer(o.opts.Limits)
		if o.assumed > 0 && now.Sub(o.assumedAt) < o.opts.Limits.GroupWindow {
			for range o.assumed {
				q.pace.record(o.assumedAt)
			}
			q.last = later(q.last, o.assumedAt)
		}
	}
	o.chats[chat] = q
	return q
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

// pick returns the chat's next op and how many tokens of the group's
// pacing it leaves the renders: its first render, else its first Retire
// or reply (see overtakable), else its first notice, a reply or a notice
// leaving renderReserve; but its first Retire or reply, as a render, once
// retireAfter or replyAfter renders went ahead of it, or right after a
// render while other chats wait (see chatQueue.extra). The chat has an
// op.
func (q *chatQueue) pick() (*item, int) {
	if len(q.ephemerals) > 0 {
		return q.ephemerals[0], 0 // a personal queue holds nothing else
	}
	held := q.overtakable()
	after := replyAfter
	if held != nil && held.class == Retire {
		after = retireAfter
	}
	switch {
	case held != nil && (q.extra || q.overtaken >= after):
		return held, 0
	case len(q.renders) > 0:
		return q.renders[0], 0
	case held != nil && held.class == Retire:
		return held, 0
	case held != nil:
		return held, renderReserve
	}
	return q.notices[0], renderReserve
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
	r := &o.lowReady
	q.where = inLowReady
	if q.personal {
		r = &o.personalReady
		q.where = inReady
	} else if q.urgent() {
		r = &o.ready
		q.where = inReady
	}
	if q.resumed {
		q.resumed = false
		r.pushFront(q)
		return
	}
	r.push(q)
}

// reschedule schedules a timed chat again, its next op having changed;
// o.mu is held.
func (o *Outbox) reschedule(q *chatQueue, now time.Time) {
	if q.where != inTimed {
		return
	}
	if due := o.due(q, now); !due.Equal(q.due) {
		heap.Remove(&o.timed, q.index)
		q.where = nowhere
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

// idle reports whether the chat's queue holds nothing the outbox must
// remember: no op, and no pacing or pause still in force; o.mu is held.
func (o *Outbox) idle(q *chatQueue, now time.Time) bool {
	if q.running != nil || q.len() > 0 || now.Before(q.paused) {
		return false
	}
	if q.last.IsZero() {
		return true
	}
	if o.opts.Limits.ChatInterval > 0 && now.Sub(q.last) < o.opts.Limits.ChatInterval && !q.personal {
		return false
	}
	return q.pace == nil || q.pace.idle(now)
}

// prune forgets chats that are idle; o.mu is held.
func (o *Outbox) prune(now time.Time) {
	for _, chats := range []map[int64]*chatQueue{o.chats, o.personal} {
		for _, q := range chats {
			if q.where == nowhere && o.idle(q, now) {
				o.forget(q)
			}
		}
	}
}

// forget drops a chat's queue, and once none is left what a burst of
// chats grew (a Go map keeps its size after deletions); o.mu is held.
func (o *Outbox) forget(q *chatQueue) {
	if q.personal {
		if delete(o.personal, q.id); len(o.personal) == 0 {
			o.personal = make(map[int64]*chatQueue)
		}
		return
	}
	if delete(o.chats, q.id); len(o.chats) == 0 {
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

// Chats returns how many queues the outbox keeps: of the chats with ops
// waiting or whose pacing is still in force, and of their ephemeral ops.
func (o *Outbox) Chats() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.chats) + len(o.personal)
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

// History is when the outbox called into one group lately: the calls
// within Limits.GroupWindow, oldest first.
type History struct {
	Chat  int64
	Calls []time.Time
}

// TakeHistory returns the history of each group called since the last
// TakeHistory (with Options.KeepHistory; else none). A group whose pacing
// the outbox forgot is left out: its calls are all older than the window.
func (o *Outbox) TakeHistory() []History {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.called) == 0 {
		return nil
	}
	now := o.clock.Now()
	out := make([]History, 0, len(o.called))
	for chat := range o.called {
		if q := o.chats[chat]; q != nil && q.pace != nil {
			out = append(out, History{Chat: chat, Calls: q.pace.calls(now)})
		}
	}
	o.called = make(map[int64]struct{})
	return out
}

// Restore counts calls made before the outbox started into its groups'
// pacing: each group's history, and assumed calls at at into every group
// (those in the histories and any other) whose queue it makes within
// Limits.GroupWindow of at, for calls a crash kept from the histories.
// Call it before the first Enqueue.
func (o *Outbox) Restore(hist []History, assumed int, at time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.opts.Limits.GroupPerMinute <= 0 {
		return
	}
	now := o.clock.Now()
	o.assumed, o.assumedAt = assumed, at
	for _, h := range hist {
		if h.Chat >= 0 || o.chats[h.Chat] != nil {
			continue
		}
		calls := slices.SortedFunc(slices.Values(h.Calls), time.Time.Compare)
		if len(calls) == 0 || now.Sub(calls[len(calls)-1]) >= o.opts.Limits.GroupWindow {
			continue
		}
		q := &chatQueue{id: h.Chat, pace: newGroupPacer(o.opts.Limits)}
		for _, t := range calls {
			q.pace.record(t)
		}
		q.last = calls[len(calls)-1]
		if assumed > 0 && now.Sub(at) < o.opts.Limits.GroupWindow {
			for range assumed {
				q.pace.record(later(at, q.last))
			}
			q.last = later(at, q.last)
		}
		o.chats[h.Chat] = q
	}
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
		if o.readyLen() == 0 && o.timed.Len() == 0 && o.inFlight == 0 {
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
// the call of the first ready chat (see nextReady), if the limits allow:
// then it reports work done. Else it returns how long until there may be
// (-1: until woken). o.mu is held.
func (o *Outbox) next(now time.Time) (time.Duration, bool) {
	for o.timed.Len() > 0 && !o.timed[0].due.After(now) {
		o.makeReady(heap.Pop(&o.timed).(*chatQueue))
	}
	o.skipMoved()
	wait := time.Duration(-1) // until woken
	if o.inFlight < o.opts.MaxInFlight {
		q, low, d := o.nextReady(now)
		if q != nil {
			o.start(q, low, now)
			return 0, true
		}
		if d > 0 {
			wait = d
		}
	}
	idle := o.readyLen() == 0
	if o.timed.Len() > 0 && (idle || o.inFlight < o.opts.MaxInFlight) {
		if d := o.timed[0].due.Sub(now); wait < 0 || d < wait {
			wait = d
		}
	}
	return wait, false
}

// nextReady takes the chat to call next, ephemeral ops first within their
// share (answerFirst), one of ready before any of lowReady (low: it is),
// when the limits allow a call now: the global limit, and for lowReady the
// notices' own. Else it returns how long until they do (0: none ready).
func (o *Outbox) nextReady(now time.Time) (*chatQueue, bool, time.Duration) {
	if o.readyLen() == 0 {
		return nil, false, 0
	}
	d := o.globalDelay(now)
	if o.ready.len() == 0 && o.personalReady.len() == 0 && o.notice != nil {
		d = max(d, o.notice.delay(now))
	}
	switch {
	case d > 0:
		return nil, false, d
	case o.answerFirst(now):
		return o.personalReady.pop(), false, 0
	case o.ready.len() > 0:
		return o.ready.pop(), false, 0
	}
	return o.lowReady.pop(), true, 0
}

// skipMoved drops the entries at the head of lowReady whose chats are no
// longer there: moved to ready, or called since; o.mu is held.
func (o *Outbox) skipMoved() {
	for o.lowReady.len() > 0 && o.lowReady.peek().where != inLowReady {
		o.lowReady.pop()
	}
}

// globalDelay returns how long until another call fits the global limit;
// o.mu is held.
func (o *Outbox) globalDelay(now time.Time) time.Duration {
	if o.global == nil {
		return 0
	}
	return o.global.delay(now, 0)
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
		if o.idle(q, now) {
			o.forget(q)
		}
		return
	}
	if o.due(q, now).After(now) || !low && !q.urgent() {
		o.schedule(q, now)
		return
	}
	op, _ := q.pick()
	if o.global != nil {
		o.global.record(now)
	}
	o.spend(op.class, now)
	if q.pace != nil {
		q.pace.record(now)
		if o.called != nil {
			o.called[q.id] = struct{}{}
		}
	}
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
		o.remove(q, op)
	}
	return false
}

// remove takes op, at the head of its list, out of the chat's queue; o.mu
// is held.
func (o *Outbox) remove(q *chatQueue, op *item) {
	list := q.list(op.class)
	if len(*list) == 0 || (*list)[0] != op {
		return
	}
	(*list)[0] = nil
	*list = (*list)[1:]
	o.pending--
	if op.class == Notice {
		o.notices--
	}
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
		o.done(q, op, gen)
		if op.class == Render && len(q.renders) == 0 && q.overtakable() != nil && o.ready.len() > 0 {
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
		o.done(q, op, gen)
		o.opts.Logger.Warn("outbox: call given up", "chat", q.id, "slot", op.slot, "err", err)
	}
	if q.len() == 0 && o.idle(q, now) {
		o.forget(q)
	}
	o.schedule(q, now)
	o.kick()
}

// retry undoes what starting op counted as done, op being tried again: a
// render that did not go overtook nothing, and an op that went as the
// chat's extra is it still, for the turn the chat keeps (see
// chatQueue.resumed).
func (q *chatQueue) retry(op *item) {
	if op.class == Render && q.overtaken > 0 {
		q.overtaken--
	}
	q.extra = q.runningExtra
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
	if op.gen == gen {
		o.remove(q, op)
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
