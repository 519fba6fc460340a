package outbox

import (
	"context"
	"time"
)

// queues are the outbox's queues of the chats and what it counts of them:
// a chat's queue (chat, of: made when an op first comes, with the group's
// pacing, which Restore's assumed calls fill) kept while it holds an op or
// a pace or pause still in force (idle), then forgotten (prune, forget);
// the ops waiting over all chats (pending) and the notices among them;
// and, with Options.KeepHistory, the groups called since the last
// TakeHistory (history.go).
//
// queues holds no lock: the outbox's lock is held for each of its methods.
type queues struct {
	limits Limits
	chats  map[int64]*chatQueue
	// personal holds the queues of the Ephemeral ops, one per chat
	// (ephemeral.go).
	personal map[int64]*chatQueue
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

// newQueues returns the queues of an outbox under l, none made yet;
// history says whether it keeps the groups called (Options.KeepHistory).
func newQueues(l Limits, history bool) queues {
	qs := queues{limits: l, chats: make(map[int64]*chatQueue), personal: make(map[int64]*chatQueue)}
	if history {
		qs.called = make(map[int64]struct{})
	}
	return qs
}

// chat returns the chat's queue, made if it has none.
func (qs *queues) chat(chat int64, now time.Time) *chatQueue {
	q := qs.chats[chat]
	if q != nil {
		return q
	}
	q = &chatQueue{id: chat}
	if qs.limits.GroupPerMinute > 0 && chat < 0 {
		q.pace = newGroupPacer(qs.limits)
		if qs.assumed > 0 && now.Sub(qs.assumedAt) < qs.limits.GroupWindow {
			for range qs.assumed {
				q.pace.record(qs.assumedAt)
			}
			q.last = later(q.last, qs.assumedAt)
		}
	}
	qs.chats[chat] = q
	return q
}

// add appends it to list, one of q's (chatQueue.list), and counts it.
func (qs *queues) add(list *[]*item, it *item) {
	*list = append(*list, it)
	qs.pending++
	if it.class == Notice {
		qs.notices++
	}
}

// full reports whether q may hold no more ops, or no more of op's class
// (a reply past Options.MaxSays, a notice past Options.MaxNotices over
// all chats), under opts.
func (qs *queues) full(q *chatQueue, op Op, opts Options) bool {
	return q.len() >= opts.MaxOps || op.Class == Say && len(q.says) >= opts.MaxSays ||
		op.Class == Notice && qs.notices >= opts.MaxNotices
}

// paced counts a call into q made at now into its group's pacing, and
// remembers the group as called (Options.KeepHistory); nothing for a chat
// without pacing.
func (qs *queues) paced(q *chatQueue, now time.Time) {
	if q.pace == nil {
		return
	}
	q.pace.record(now)
	if qs.called != nil {
		qs.called[q.id] = struct{}{}
	}
}

// idle reports whether the chat's queue holds nothing the outbox must
// remember: no op, and no pacing or pause still in force.
func (qs *queues) idle(q *chatQueue, now time.Time) bool {
	if q.running != nil || q.len() > 0 || now.Before(q.paused) {
		return false
	}
	if q.last.IsZero() {
		return true
	}
	if qs.limits.ChatInterval > 0 && now.Sub(q.last) < qs.limits.ChatInterval && !q.personal {
		return false
	}
	return q.pace == nil || q.pace.idle(now)
}

// prune forgets chats that are idle and not scheduled.
func (qs *queues) prune(now time.Time) {
	for _, chats := range []map[int64]*chatQueue{qs.chats, qs.personal} {
		for _, q := range chats {
			if q.where == nowhere && qs.idle(q, now) {
				qs.forget(q)
			}
		}
	}
}

// forget drops a chat's queue, and once none is left what a burst of
// chats grew (a Go map keeps its size after deletions).
func (qs *queues) forget(q *chatQueue) {
	if q.personal {
		if delete(qs.personal, q.id); len(qs.personal) == 0 {
			qs.personal = make(map[int64]*chatQueue)
		}
		return
	}
	if delete(qs.chats, q.id); len(qs.chats) == 0 {
		qs.chats = make(map[int64]*chatQueue)
	}
}

// count returns how many queues are kept: the chats' and their ephemeral
// ops'.
func (qs *queues) count() int { return len(qs.chats) + len(qs.personal) }

// remove takes op, at the head of its list, out of the chat's queue.
func (qs *queues) remove(q *chatQueue, op *item) {
	list := q.list(op.class)
	if len(*list) == 0 || (*list)[0] != op {
		return
	}
	(*list)[0] = nil
	*list = (*list)[1:]
	qs.pending--
	if op.class == Notice {
		qs.notices--
	}
}

// done takes the op that ran at generation gen out of its queue, unless a
// newer op replaced it in the meantime: then it stays, to be sent next.
func (qs *queues) done(q *chatQueue, op *item, gen int) {
	if op.gen == gen {
		qs.remove(q, op)
	}
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
