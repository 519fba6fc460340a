package outbox

import (
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
)

// Ephemeral ops. An ephemeral message is seen by one member of a group,
// not by the group: it is not in the group's timeline, and so, we assume,
// not within Telegram's 20 messages a minute into the group, nor its
// one a second into a chat (Telegram does not document it; our Bot API
// server models it so). It counts within the limit over all chats.
//
// So a chat's Ephemeral ops wait in a queue of their own, apart from the
// chat's renders, replies and notices (its personal queue): they take
// none of the group's pacing, wait behind none of its ops, and are called
// one at a time, in the order enqueued, before any other chat's op when
// the budget over all chats lets a call go, within their share of it
// (each is an answer that a person who just asked waits for). An
// ephemeral message may be sent only within a window of the action it
// answers (Op.Expires): one whose turn comes too late is not called, and
// its Late op (the answer sent to the group instead) is enqueued in its
// place, so that no answer is dropped unsaid.
//
// The share (Limits.EphemeralShare) is a third of the budget over all
// chats: past it, Ephemeral ops wait while any other chat has an op ready
// to go, so that the tables keep two thirds of the budget however many
// answers wait. Without it, at 1,000 groups whose players each asked once
// a minute (67 answers a second for 25 calls), the answers took every call
// and every table froze. It is a cap, not a reservation: a second in which
// fewer answers wait leaves the rest to the tables, and a call that no
// other chat is ready for goes to an answer past the share (a quiet budget
// is not kept from the answers that wait). Answers kept past their window
// so go to the group, where they wait together for its turn (a digest, in
// bot/send). Why a third: as the notices' share, it lets an answer a
// quarter of the budget asks for go at once (1,000 groups whose players
// ask once every ten minutes: 6.7 a second), while a turn of the chats
// over the budget, which bounds how soon a busy table shows a press,
// grows by half at most (two thirds of the calls left to them). Why at
// least one call: with none, while the tables are busy, no answer would
// go as asked, each waiting out its window to go to the group.
// EphemeralShare returns the Ephemeral ops' share of the budget over all
// chats: at most calls of them in any span of per go ahead of other
// chats' ops (see ephemeral.go). It is a third of PerSecond a second, at
// least one call: under 3 a second, one call in any 3/PerSecond seconds,
// still a third. Without PerSecond there is no budget to share: 0 calls.
func (l Limits) EphemeralShare() (calls int, per time.Duration) {
	switch {
	case l.PerSecond <= 0:
		return 0, 0
	case l.PerSecond < 3:
		return 1, 3 * time.Second / time.Duration(l.PerSecond)
	}
	return l.PerSecond / 3, time.Second
}

// newAnswerShare returns the window that holds the Ephemeral ops to their
// share under l; nil without one.
func newAnswerShare(l Limits) *window {
	if calls, per := l.EphemeralShare(); calls > 0 {
		return newWindow(calls, per)
	}
	return nil
}

// answerFirst reports whether a chat of personalReady goes next at now,
// the budget over all chats allowing a call: one is ready, and either the
// share has room or no other chat's op but a notice is ready (a quiet
// budget goes to the answers that wait, before any notice).
func (t *turns) answerFirst(now time.Time) bool {
	if t.personalReady.len() == 0 {
		return false
	}
	return t.ready.len() == 0 || t.answers == nil || t.answers.delay(now) == 0
}

// spend counts a call of class c made at now into the budget over all
// chats, and within its class's share of it: a Notice's, an Ephemeral
// op's. An Ephemeral op that went past its share (answerFirst) counts
// too: the share holds every answer of the span, as the window of
// Telegram's does.
func (t *turns) spend(c Class, now time.Time) {
	if t.global != nil {
		t.global.record(now)
	}
	switch {
	case c == Notice && t.notice != nil:
		t.notice.record(now)
	case c == Ephemeral && t.answers != nil:
		t.answers.record(now)
	}
}

// of returns the queue op waits in, made if there is none: the chat's, or
// for an Ephemeral op the chat's personal queue.
func (qs *queues) of(op Op, now time.Time) *chatQueue {
	if op.Class != Ephemeral {
		return qs.chat(op.Chat, now)
	}
	q := qs.personal[op.Chat]
	if q == nil {
		q = &chatQueue{id: op.Chat, personal: true}
		qs.personal[op.Chat] = q
	}
	return q
}

// expired reports whether the time of op, at the head of q, passed
// (Op.Expires) by now: then it is taken out of q and its Late op, if any,
// enqueued (or logged, when the outbox holds no room for it); o.mu is
// held.
func (o *Outbox) expired(q *chatQueue, op *item, now time.Time) bool {
	if op.expires.IsZero() || now.Before(op.expires) {
		return false
	}
	o.queues.remove(q, op)
	if op.late != nil {
		if err := o.enqueue(*op.late, now); err != nil {
			o.opts.Logger.Warn("outbox: the op in place of one too late dropped", "chat", q.id, "slot", op.slot, "err", err)
		}
	}
	return true
}

// Clock returns the clock the outbox paces by (Options.Clock).
func (o *Outbox) Clock() clock.Clock { return o.clock }
