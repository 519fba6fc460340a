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
// the budget over all chats lets a call go (each is an answer that a
// person who just asked waits for, and a member's answers are few: the
// bot's reply quota holds them). An ephemeral message may be sent only
// within a window of the action it answers (Op.Expires): one whose turn
// comes too late is not called, and its Late op (the answer sent to the
// group instead) is enqueued in its place, so that no answer is dropped
// unsaid.

// queueOf returns the queue op waits in, made if there is none: the
// chat's, or for an Ephemeral op the chat's personal queue; o.mu is held.
func (o *Outbox) queueOf(op Op, now time.Time) *chatQueue {
	if op.Class != Ephemeral {
		return o.queue(op.Chat, now)
	}
	q := o.personal[op.Chat]
	if q == nil {
		q = &chatQueue{id: op.Chat, personal: true}
		o.personal[op.Chat] = q
	}
	return q
}

// readyLen returns how many chats wait in the ready rings; o.mu is held.
func (o *Outbox) readyLen() int {
	return o.personalReady.len() + o.ready.len() + o.lowReady.len()
}

// expired reports whether the time of op, at the head of q, passed
// (Op.Expires) by now: then it is taken out of q and its Late op, if any,
// enqueued (or logged, when the outbox holds no room for it); o.mu is
// held.
func (o *Outbox) expired(q *chatQueue, op *item, now time.Time) bool {
	if op.expires.IsZero() || now.Before(op.expires) {
		return false
	}
	o.remove(q, op)
	if op.late != nil {
		if err := o.enqueue(*op.late, now); err != nil {
			o.opts.Logger.Warn("outbox: the op in place of one too late dropped", "chat", q.id, "slot", op.slot, "err", err)
		}
	}
	return true
}

// Clock returns the clock the outbox paces by (Options.Clock).
func (o *Outbox) Clock() clock.Clock { return o.clock }
