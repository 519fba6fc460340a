package outbox

import (
	"container/heap"
	"time"
)

// turns is whose turn it is among the chats that have an op waiting, and
// the budget over all chats they share: the outbox's turn order. A chat
// whose next op may be called now waits in a ready ring, in turn: ready
// for a chat with a render, a Retire or a reply, lowReady for one that
// holds only notices (called only while ready is empty), personalReady
// for a chat's Ephemeral ops (first within their share: ephemeral.go); a
// chat whose next op waits for its pacing or a pause waits in timed until
// it is due. A chat of lowReady that gets a render or a reply moves to
// ready (hurry), and its entry left behind is skipped (chatQueue.where
// says where a chat is). take hands out the next chat to call as the
// limits over all chats allow: the global pacer, the notices' cap and
// the answers' share, which spend counts each call into.
//
// turns holds no lock: the outbox's lock is held for each of its methods.
type turns struct {
	global *pacer // nil: no limit over all chats
	// notice caps the notices, answers the Ephemeral ops' share (nil: none).
	notice, answers *window

	ready         ring
	lowReady      ring
	personalReady ring
	timed         timedHeap
}

// newTurns returns the turns of an outbox under l: no chat waiting.
func newTurns(l Limits) turns {
	t := turns{answers: newAnswerShare(l)}
	if l.PerSecond > 0 {
		t.global = newGlobalPacer(l)
	}
	if n := l.NoticeRate(); n > 0 {
		t.notice = newWindow(n, time.Second)
	}
	return t
}

// makeReady puts a chat whose next op may be called now in its ready
// ring: personalReady for a personal queue, ready when it holds a render,
// a Retire or a reply, else lowReady; first of it when the chat keeps its
// turn (chatQueue.resumed).
func (t *turns) makeReady(q *chatQueue) {
	r := &t.lowReady
	q.where = inLowReady
	if q.personal {
		r = &t.personalReady
		q.where = inReady
	} else if q.urgent() {
		r = &t.ready
		q.where = inReady
	}
	if q.resumed {
		q.resumed = false
		r.pushFront(q)
		return
	}
	r.push(q)
}

// hurry moves a chat of lowReady that is no longer notices only to the
// back of ready, where it takes its turn with the other chats, and
// reports whether it did.
func (t *turns) hurry(q *chatQueue) bool {
	if q.where != inLowReady || !q.urgent() {
		return false
	}
	q.where = inReady
	t.ready.push(q)
	return true
}

// wait puts a chat whose next op may go only at due in timed.
func (t *turns) wait(q *chatQueue, due time.Time) {
	q.where, q.due = inTimed, due
	heap.Push(&t.timed, q)
}

// unwait takes a chat of timed out of it: it is nowhere then.
func (t *turns) unwait(q *chatQueue) {
	heap.Remove(&t.timed, q.index)
	q.where = nowhere
}

// promote moves the chats of timed that came due by now to their ready
// rings, and drops the entries at the head of lowReady whose chats are no
// longer there (skipMoved).
func (t *turns) promote(now time.Time) {
	for t.timed.Len() > 0 && !t.timed[0].due.After(now) {
		t.makeReady(heap.Pop(&t.timed).(*chatQueue))
	}
	t.skipMoved()
}

// skipMoved drops the entries at the head of lowReady whose chats are no
// longer there: moved to ready, or called since.
func (t *turns) skipMoved() {
	for t.lowReady.len() > 0 && t.lowReady.peek().where != inLowReady {
		t.lowReady.pop()
	}
}

// take takes the chat to call next, ephemeral ops first within their
// share (answerFirst), one of ready before any of lowReady (low: it is),
// when the limits allow a call now: the global limit, and for lowReady the
// notices' own. Else it returns how long until they do (0: none ready).
func (t *turns) take(now time.Time) (*chatQueue, bool, time.Duration) {
	if t.len() == 0 {
		return nil, false, 0
	}
	d := t.globalDelay(now)
	if t.ready.len() == 0 && t.personalReady.len() == 0 && t.notice != nil {
		d = max(d, t.notice.delay(now))
	}
	switch {
	case d > 0:
		return nil, false, d
	case t.answerFirst(now):
		return t.personalReady.pop(), false, 0
	case t.ready.len() > 0:
		return t.ready.pop(), false, 0
	}
	return t.lowReady.pop(), true, 0
}

// globalDelay returns how long until another call fits the global limit.
func (t *turns) globalDelay(now time.Time) time.Duration {
	if t.global == nil {
		return 0
	}
	return t.global.delay(now, 0)
}

// len returns how many chats wait in the ready rings.
func (t *turns) len() int {
	return t.personalReady.len() + t.ready.len() + t.lowReady.len()
}

// nextDue returns when the first chat of timed comes due; false when none
// waits there.
func (t *turns) nextDue() (time.Time, bool) {
	if t.timed.Len() == 0 {
		return time.Time{}, false
	}
	return t.timed[0].due, true
}

// othersReady reports whether a chat with a render, a Retire or a reply
// waits for the budget over all chats (see chatQueue.extra).
func (t *turns) othersReady() bool { return t.ready.len() > 0 }
