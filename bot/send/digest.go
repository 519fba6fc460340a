package send

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
)

// Digests: the personal answers that go to a group (Tell's fallback, where
// the bot may send no ephemeral message) wait for the group's turn
// together, not each as a reply of its own: a group that asks a lot would
// spend one of its ~20 writes a minute on each, past the replies a chat
// may hold waiting (outbox.Options.MaxSays) the rest would be dropped,
// and the table's edits would wait behind them. When the group's turn
// comes, one answer waiting goes as it always did, a reply to its
// command; several go as one message (render.Digest), each headed by its
// askers and what they asked, as many as fit in a message, in the order
// they came; the rest wait for the next turn, which is queued at once.
// The same answer to several members (Slot) is one part, headed by all
// of them, in reply to the later command when it goes alone. An answer
// with buttons, or whose message the caller follows (Tell's sent), goes
// alone, as a reply (Reply): it is a message of its own.

// digestKey is a group and its forum topic: a digest goes into one.
type digestKey struct {
	chat   int64
	thread int
}

// told is an answer waiting to go to a group.
type told struct {
	slot    string
	askers  []render.Asker
	m       message.Message
	replyTo int
	part    render.DigestPart
}

// digestQueue are a topic's answers waiting to go to the group, in the
// order they came, and the ops queued in the outbox to send them that
// have not taken theirs yet (flush ops; a Late op of Tell is not
// counted: it brings its own).
type digestQueue struct {
	waiting []*told
	ops     int
}

// digests are the answers waiting to go to groups, and the way they go:
// tell queues one, and the flush ops it queues on calls (the Sender's
// Enqueue) send them, each settling its call's error as calls.Send does.
// Lock order: the outbox's lock (an op's Stale) before mu; nothing calls
// the outbox with mu held.
type digests struct {
	calls  digestCalls
	mu     sync.Mutex
	topics map[digestKey]*digestQueue
	seq    atomic.Uint64
}

// digestCalls are the Sender's calls the digests make: queue an op on the
// outbox (logged and dropped when refused), and send a message into a
// chat, its error settled.
type digestCalls interface {
	Enqueue(op outbox.Op) error
	Send(ctx context.Context, chat int64, thread int, m message.Message, replyTo int) (int, error)
}

// digestible reports whether the answer may go in a digest: it names its
// asker, has no buttons, and its caller does not follow its message.
func digestible(p Personal, m message.Message, sent func(ctx context.Context, at Sent)) bool {
	return p.Name != "" && len(m.Keyboard) == 0 && sent == nil
}

// newTold is p's answer m, named slot, waiting to go to the group.
func newTold(p Personal, slot string, m message.Message) *told {
	t := &told{slot: slot, askers: []render.Asker{{ID: p.To, Name: p.Name, Asked: p.Asked}}, m: m, replyTo: p.ReplyTo}
	t.part = render.NewDigestPart(t.askers, m.Text)
	return t
}

// add puts t among the topic's waiting answers (merged into the same
// answer waiting, if any), and returns how many flush ops to queue so
// that every waiting answer has one message's room; mu is held.
func (d *digests) add(key digestKey, t *told) (flushes int) {
	q := d.queue(key)
	q.merge(t)
	return q.room()
}

// queue returns the topic's queue, made if there is none; mu is held.
func (d *digests) queue(key digestKey) *digestQueue {
	if d.topics == nil {
		d.topics = map[digestKey]*digestQueue{}
	}
	q := d.topics[key]
	if q == nil {
		q = &digestQueue{}
		d.topics[key] = q
	}
	return q
}

// room counts the flush ops the waiting answers need beyond those
// queued (one a message, as many as DigestFits packs into each), and
// counts them as queued.
func (q *digestQueue) room() int {
	need := 0
	for rest := q.waiting; len(rest) > 0; need++ {
		rest = rest[render.DigestFits(parts(rest)):]
	}
	more := max(need-q.ops, 0)
	q.ops += more
	return more
}

// merge puts t at the end of the waiting answers, or into the same answer
// waiting, which then answers t's command too (naming an asker once).
func (q *digestQueue) merge(t *told) {
	for _, w := range q.waiting {
		if w.slot == t.slot {
			for _, a := range t.askers {
				if !slices.Contains(w.askers, a) {
					w.askers = append(w.askers, a)
				}
			}
			w.replyTo = t.replyTo
			w.part = render.NewDigestPart(w.askers, w.m.Text)
			return
		}
	}
	q.waiting = append(q.waiting, t)
}

// parts are the digest parts of answers.
func parts(answers []*told) []render.DigestPart {
	out := make([]render.DigestPart, len(answers))
	for i, t := range answers {
		out[i] = t.part
	}
	return out
}

// take takes the first of the topic's waiting answers that one message
// holds, once own (a Late op's answer, or nil) is put among them as add
// puts an answer; a flush op (own nil) counts as no longer waiting to
// take. It returns, too, how
// many flush ops to queue so that every answer left has one message's
// room.
func (d *digests) take(key digestKey, own *told) (batch []*told, flushes int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	q := d.queue(key)
	if own != nil {
		q.merge(own)
	} else if q.ops > 0 {
		q.ops--
	}
	n := render.DigestFits(parts(q.waiting))
	batch = q.waiting[:n:n]
	q.waiting = q.waiting[n:]
	flushes = q.room()
	d.forget(key, q)
	return batch, flushes
}

// idle reports whether a flush op of the topic would find nothing to send:
// then it counts as no longer waiting (it is dropped uncalled).
func (d *digests) idle(key digestKey) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	q := d.topics[key]
	if q == nil {
		return true
	}
	if len(q.waiting) > 0 {
		return false
	}
	q.ops = max(q.ops-1, 0)
	d.forget(key, q)
	return true
}

// forget drops the topic's queue once it holds nothing; mu is held.
func (d *digests) forget(key digestKey, q *digestQueue) {
	if len(q.waiting) == 0 && q.ops == 0 {
		delete(d.topics, key)
	}
}

// tell queues p's answer m (named slot) to go to the group: in the
// topic's digest, with the flush ops it needs queued.
func (d *digests) tell(p Personal, slot string, m message.Message) {
	key := digestKey{chat: p.Chat, thread: p.Thread}
	d.mu.Lock()
	flushes := d.add(key, newTold(p, slot, m))
	d.mu.Unlock()
	d.queueFlushes(key, flushes)
}

// queueFlushes queues n flush ops of the topic. One the outbox refuses
// (the chat holds as many replies waiting as it may: the safety net) is
// logged, and no longer counted: the topic's next answer queues one
// again, and its answers wait for it.
func (d *digests) queueFlushes(key digestKey, n int) {
	for range n {
		if err := d.calls.Enqueue(d.flushOp(key, nil)); err != nil {
			d.mu.Lock()
			if q := d.topics[key]; q != nil {
				q.ops = max(q.ops-1, 0)
			}
			d.mu.Unlock()
		}
	}
}

// flushOp is an op that sends, in the group's turn, the topic's first
// waiting answers that one message holds (own, when not nil, among them:
// a Late op brings the answer it stands for). Called again after a 429 or
// a 5xx, it sends the same. With nothing waiting when its turn comes, it
// is dropped uncalled, spending none of the group's writes.
func (d *digests) flushOp(key digestKey, own *told) outbox.Op {
	var batch []*told
	taken := false
	return outbox.Op{Chat: key.chat, Class: outbox.Say, Slot: "digest:" + strconv.FormatUint(d.seq.Add(1), 36),
		Stale: func() bool { return !taken && own == nil && d.idle(key) },
		Do: func(ctx context.Context) error {
			if !taken {
				var flushes int
				batch, flushes = d.take(key, own)
				taken = true
				d.queueFlushes(key, flushes)
			}
			switch len(batch) {
			case 0:
				return nil
			case 1:
				_, err := d.calls.Send(ctx, key.chat, key.thread, batch[0].m, batch[0].replyTo)
				return err
			}
			_, err := d.calls.Send(ctx, key.chat, key.thread, render.Digest(parts(batch)), 0)
			return err
		}}
}
