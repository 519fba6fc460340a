package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// queuedUpdate is one pending update, encoded once when it was created.
type queuedUpdate struct {
	id   int
	kind string
	raw  json.RawMessage
	// hookQueue is the webhook delivery queue of the update (see
	// webhookQueue), named when the webhook first looks at it.
	hookQueue string
}

// updateQueue holds the updates the bot has not confirmed yet, oldest
// first. It is guarded by Server.mu; sig wakes long polls and the webhook.
type updateQueue struct {
	items   []queuedUpdate
	head    int
	nextID  int
	allowed map[string]bool // nil: Telegram's default (see defaultExcluded)
	sig     signal
}

func (q *updateQueue) init(first int) { q.nextID = first }

func (q *updateQueue) pending() []queuedUpdate { return q.items[q.head:] }

func (q *updateQueue) len() int { return len(q.items) - q.head }

// isAllowed applies the bot's allowed_updates setting.
func (q *updateQueue) isAllowed(kind string) bool {
	if q.allowed == nil {
		return !defaultExcluded[kind]
	}
	return q.allowed[kind]
}

// defaultExcluded are the update types a bot gets only by naming them in
// allowed_updates (Client.h, DEFAULT_ALLOWED_UPDATE_TYPES: all but
// chat_member, message_reaction and message_reaction_count); every other
// type, inline_query, chosen_inline_result and guest_message among them,
// comes by default.
var defaultExcluded = map[string]bool{UpdateChatMember: true, "message_reaction": true, "message_reaction_count": true}

// knownUpdateTypes are the update types allowed_updates may name
// (Client.cpp, get_update_type_name).
var knownUpdateTypes = map[string]bool{
	"message": true, "edited_message": true, "channel_post": true, "edited_channel_post": true,
	"business_connection": true, "business_message": true, "edited_business_message": true,
	"deleted_business_messages": true, "message_reaction": true, "message_reaction_count": true,
	"inline_query": true, "chosen_inline_result": true, "callback_query": true, "shipping_query": true,
	"pre_checkout_query": true, "purchased_paid_media": true, "poll": true, "poll_answer": true,
	"my_chat_member": true, "chat_member": true, "chat_join_request": true, "chat_boost": true,
	"removed_chat_boost": true, "managed_bot": true, "guest_message": true,
}

// setAllowed applies an allowed_updates argument the way Telegram does:
// absent, null or malformed leaves the setting alone; a list naming no
// known type (including []) restores the default.
func (q *updateQueue) setAllowed(arg string, present bool) {
	if !present {
		return
	}
	var names []string
	if err := json.Unmarshal([]byte(arg), &names); err != nil {
		return
	}
	set := map[string]bool{}
	for _, n := range names {
		n = strings.ToLower(n)
		if knownUpdateTypes[n] {
			set[n] = true
		}
	}
	if len(set) == 0 {
		q.allowed = nil
		return
	}
	q.allowed = set
}

func (q *updateQueue) allowedList() []string {
	if q.allowed == nil {
		return nil
	}
	out := make([]string, 0, len(q.allowed))
	for k := range q.allowed {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// push encodes and appends an update; the caller holds Server.mu.
func (q *updateQueue) push(kind string, u Update) (int, bool) {
	if !q.isAllowed(kind) {
		return 0, false
	}
	u.UpdateID = q.nextID
	raw, err := json.Marshal(u)
	if err != nil {
		return 0, false
	}
	q.nextID++
	q.items = append(q.items, queuedUpdate{id: u.UpdateID, kind: kind, raw: raw})
	q.sig.broadcast()
	return u.UpdateID, true
}

// confirm drops updates the way getUpdates' offset does: a positive offset
// confirms every update with a smaller id, a negative one keeps only the
// last -offset updates.
func (q *updateQueue) confirm(offset int64) {
	switch {
	case offset > 0:
		for q.head < len(q.items) && int64(q.items[q.head].id) < offset {
			q.items[q.head] = queuedUpdate{}
			q.head++
		}
	case offset < 0:
		keep := int(-offset)
		if n := q.len(); n > keep {
			for i := q.head; i < q.head+n-keep; i++ {
				q.items[i] = queuedUpdate{}
			}
			q.head += n - keep
		}
	}
	q.compact()
}

// remove drops the update with the given id, if it is still pending: the
// webhook confirms updates one by one, not always the oldest first.
func (q *updateQueue) remove(id int) {
	i := slices.IndexFunc(q.pending(), func(it queuedUpdate) bool { return it.id == id })
	switch {
	case i < 0:
		return
	case i == 0:
		q.items[q.head] = queuedUpdate{}
		q.head++
	default:
		at := q.head + i
		copy(q.items[at:], q.items[at+1:])
		q.items[len(q.items)-1] = queuedUpdate{}
		q.items = q.items[:len(q.items)-1]
	}
	q.compact()
}

func (q *updateQueue) clear() {
	q.items = nil
	q.head = 0
}

func (q *updateQueue) compact() {
	if q.head == len(q.items) {
		q.items = q.items[:0]
		q.head = 0
		return
	}
	if q.head > 256 && q.head > len(q.items)/2 {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items = q.items[:n]
		q.head = 0
	}
}

// encode joins up to limit pending updates into a JSON array.
func (q *updateQueue) encode(limit int) (json.RawMessage, int) {
	items := q.pending()
	if len(items) > limit {
		items = items[:limit]
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it.raw)
	}
	b.WriteByte(']')
	return b.Bytes(), len(items)
}

// longPoll is the getUpdates request currently waiting; a newer one (or
// setWebhook) ends it with a 409.
type longPoll struct {
	done   chan struct{}
	reason *apiError
	parked bool
}

func (lp *longPoll) kick(reason *apiError) {
	lp.reason = reason
	close(lp.done)
}

// getUpdates implements long polling: it returns at once when updates are
// pending, else waits up to timeout seconds for the first one.
func (s *Server) getUpdates(ctx context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	if s.hook != nil {
		s.mu.Unlock()
		return nil, errWebhookActive
	}
	offset := p.integer("offset", 0)
	limit := int(p.clamped("limit", 100, 1, 100))
	timeout := time.Duration(p.clamped("timeout", 0, 0, 1<<31)) * time.Second
	timeout = min(timeout, maxPollTimeout)
	arg, present := p.jsonArg("allowed_updates")
	s.queue.setAllowed(arg, present)
	s.queue.confirm(offset)
	if s.poll != nil {
		s.poll.kick(errPollConflict)
		s.poll = nil
	}
	me := &longPoll{done: make(chan struct{})}
	s.poll = me
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	timedOut := timeout == 0
	for {
		select {
		case <-me.done:
			s.mu.Unlock()
			return nil, me.reason
		default:
		}
		if s.queue.len() > 0 || timedOut || s.isClosed() {
			raw, _ := s.queue.encode(limit)
			if s.poll == me {
				s.poll = nil
			}
			s.mu.Unlock()
			return raw, nil
		}
		wake := s.queue.sig.wait()
		me.parked = true
		s.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(timeout)
			s.change.broadcast()
		}
		select {
		case <-wake:
		case <-timer.C:
			timedOut = true
		case <-me.done:
		case <-s.closed:
		case <-ctx.Done():
			s.mu.Lock()
			if s.poll == me {
				s.poll = nil
			}
			s.mu.Unlock()
			return nil, &apiError{code: 499, description: "client closed request"}
		}
		s.mu.Lock()
	}
}

// pushRaw appends an update given as a JSON object, with update_id set to
// the next id; the caller holds Server.mu.
func (q *updateQueue) pushRaw(kind string, fields map[string]json.RawMessage) (int, error) {
	if !q.isAllowed(kind) {
		return 0, nil
	}
	id := q.nextID
	fields["update_id"] = json.RawMessage(strconv.Itoa(id))
	raw, err := json.Marshal(fields)
	if err != nil {
		return 0, fmt.Errorf("encoding the update: %w: %w", ErrInvalid, err)
	}
	q.nextID++
	q.items = append(q.items, queuedUpdate{id: id, kind: kind, raw: raw})
	q.sig.broadcast()
	return id, nil
}

// PushRawUpdate queues an arbitrary update for the bot, for tests of what
// the world never sends: a message with no chat, a press with no sender,
// fields out of range. update is a JSON object holding the field named kind
// (one of the update types allowed_updates knows, such as "message" or
// "callback_query") and whatever else it holds, delivered as it is: the
// server only sets update_id to the next id, which it returns. The update
// is delivered by getUpdates and the webhook like any other, and nothing
// of it enters the world (no message is stored, no press waits for an
// answer). When the bot's allowed_updates leave kind out, Telegram drops
// such an update: PushRawUpdate returns 0 and queues nothing. It returns an
// error wrapping ErrInvalid for an unknown kind, or an update that is not a
// JSON object holding kind.
func (s *Server) PushRawUpdate(kind string, update json.RawMessage) (int, error) {
	if !knownUpdateTypes[kind] {
		return 0, fmt.Errorf("update type %q: %w", kind, ErrInvalid)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(update, &fields); err != nil || fields == nil {
		return 0, fmt.Errorf("the update is not a JSON object: %w", ErrInvalid)
	}
	if _, ok := fields[kind]; !ok {
		return 0, fmt.Errorf("the update holds no %q field: %w", kind, ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queue.pushRaw(kind, fields)
}

// enqueueLocked adds an update for the bot and wakes whoever delivers it.
func (s *Server) enqueueLocked(kind string, u Update) {
	s.queue.push(kind, u)
}

// PendingUpdates returns how many updates the bot has not confirmed yet.
func (s *Server) PendingUpdates() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queue.len()
}
