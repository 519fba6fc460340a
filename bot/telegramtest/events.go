package telegramtest

import (
	"sync"
	"sync/atomic"
	"time"
)

// EventKind names what changed in the world.
type EventKind string

// Event kinds reported to subscribers.
const (
	// EventMessageSent: a new message (from a user, the bot, or a service message).
	EventMessageSent EventKind = "message_sent"
	// EventMessageEdited: the bot edited a message's text or keyboard.
	EventMessageEdited EventKind = "message_edited"
	// EventMessageDeleted: a message was deleted.
	EventMessageDeleted EventKind = "message_deleted"
	// EventButtonPressed: a user pressed an inline button (a callback_query was queued).
	EventButtonPressed EventKind = "button_pressed"
	// EventCallbackAnswered: the bot answered a callback query.
	EventCallbackAnswered EventKind = "callback_answered"
	// EventMemberChanged: a user's or the bot's membership changed.
	EventMemberChanged EventKind = "member_changed"
	// EventChatMigrated: a group was upgraded to a supergroup.
	EventChatMigrated EventKind = "chat_migrated"
	// EventCommandsChanged: the bot changed its command lists.
	EventCommandsChanged EventKind = "commands_changed"
	// EventWebhookDelivery: a webhook delivery attempt finished.
	EventWebhookDelivery EventKind = "webhook_delivery"
)

// CallbackInfo describes a press and, once answered, its answer.
type CallbackInfo struct {
	// ID is the callback query id the bot received.
	ID string `json:"id"`
	// From is the user who pressed.
	From User `json:"from"`
	// Data is the callback data sent to the bot.
	Data string `json:"data"`
	// PressedAt is the server clock's time of the press.
	PressedAt time.Time `json:"pressed_at"`
	// Answer is the bot's answer, on EventCallbackAnswered.
	Answer *CallbackAnswer `json:"answer,omitempty"`
}

// Event is one change in the world, in the order it happened.
type Event struct {
	// Seq numbers events from 1 in the order they happened.
	Seq uint64 `json:"seq"`
	// Kind says what changed.
	Kind EventKind `json:"kind"`
	// Time is the server clock's time of the change.
	Time time.Time `json:"time"`
	// ChatID is the chat the change happened in (0 for bot-wide changes).
	ChatID int64 `json:"chat_id,omitempty"`
	// MessageID is the message concerned, if any.
	MessageID int `json:"message_id,omitempty"`
	// EphemeralMessageID is the ephemeral message concerned, if one is
	// (MessageID is then 0).
	EphemeralMessageID int `json:"ephemeral_message_id,omitempty"`
	// VisibleTo is, for an ephemeral message, the one member who sees it
	// (besides the bot): a page showing the chat as another member leaves
	// the event out.
	VisibleTo int64 `json:"visible_to,omitempty"`
	// Message is the message after the change (sent or edited).
	Message *ChatMessage `json:"message,omitempty"`
	// Callback is set for presses and answers.
	Callback *CallbackInfo `json:"callback,omitempty"`
	// Member is the new membership for member changes.
	Member *ChatMember `json:"member,omitempty"`
	// MigrateToChatID is the new supergroup for migrations.
	MigrateToChatID int64 `json:"migrate_to_chat_id,omitempty"`
	// Webhook describes a webhook delivery attempt.
	Webhook *WebhookAttempt `json:"webhook,omitempty"`
}

// Subscription receives events on C. Delivery never blocks the server:
// when C's buffer is full the event is dropped and counted in Dropped, so
// size the buffer for the subscriber's speed. C is closed by Close and
// when the server closes.
type Subscription struct {
	// C delivers the events; it is closed by Close and when the server closes.
	C <-chan Event

	ch      chan Event
	dropped atomic.Uint64
	hub     *eventHub
}

// Dropped returns how many events were dropped because C was full.
func (sub *Subscription) Dropped() uint64 { return sub.dropped.Load() }

// Close stops delivery and closes C.
func (sub *Subscription) Close() { sub.hub.remove(sub) }

type eventHub struct {
	mu     sync.Mutex
	subs   map[*Subscription]struct{}
	seq    uint64
	closed bool
}

func newEventHub() *eventHub { return &eventHub{subs: map[*Subscription]struct{}{}} }

func (h *eventHub) add(buffer int) *Subscription {
	ch := make(chan Event, max(buffer, 0))
	sub := &Subscription{C: ch, ch: ch, hub: h}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		close(ch)
		return sub
	}
	h.subs[sub] = struct{}{}
	return sub
}

func (h *eventHub) remove(sub *Subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[sub]; ok {
		delete(h.subs, sub)
		close(sub.ch)
	}
}

func (h *eventHub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for sub := range h.subs {
		close(sub.ch)
	}
	clear(h.subs)
}

// publish numbers the event and offers it to every subscriber without
// blocking. Callers hold Server.mu, which keeps events in world order.
func (h *eventHub) publish(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	e.Seq = h.seq
	for sub := range h.subs {
		select {
		case sub.ch <- e:
		default:
			sub.dropped.Add(1)
		}
	}
}

// Subscribe returns a subscription to every change in the world, with a
// channel buffer of the given size (see Subscription for the drop policy).
func (s *Server) Subscribe(buffer int) *Subscription { return s.events.add(buffer) }

// emitLocked publishes an event stamped with the server clock and wakes
// WaitFor callers. The caller holds Server.mu.
func (s *Server) emitLocked(e Event) {
	if e.Time.IsZero() {
		e.Time = s.now()
	}
	s.events.publish(e)
	s.change.broadcast()
}
