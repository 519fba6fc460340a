// Package send makes the bot's calls into chats, and is the rooms' one way
// to the Bot API: each call into a chat (Send, Edit, EditInline, Delete,
// Chat, Member) settles its error in the same call, so that no caller can
// forget to: what the error says of the chat is reported to the bot above
// (a group that became a supergroup, a user who blocked the bot), and a
// call made in an outbox op returns what the outbox acts on (a 429 waited
// out and tried again, a 5xx or a dropped connection tried again).
// Messages go through the outbox (paced, coalesced, retried): Reply, Tell
// (an answer only one member of a group sees, an ephemeral message where
// Telegram lets the bot send one, else to the group: a Reply, or, with
// other members' answers waiting for the group's turn, one message with
// them, a digest), or an op of the caller's own (Enqueue) whose Do makes
// the calls. Callback
// answers go straight to the Bot API: they are not rate limited, and a
// player must see a toast at once even while the table's edit waits. The
// calls into no chat (the bot's own user, its command menu, the answers to
// inline queries and guest messages) go straight too, and have nothing to
// settle.
package send

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"strconv"
	"time"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/outbox"
)

// Chats is told what the calls into chats found out about them. The bot
// above acts on it, each on the chat's own goroutine.
type Chats interface {
	// Moved is told that the group chat became the supergroup to.
	Moved(chat, to int64)
	// Refused is told that the private chat refused a message with 403:
	// its user blocked the bot, never started it, or is deactivated.
	Refused(chat int64)
}

// Sender makes the calls into chats. Its methods are safe for concurrent
// use.
type Sender struct {
	api   *botapi.Client
	out   *outbox.Outbox
	chats Chats
	log   *slog.Logger
	// eph is the ephemeral way (Tell): what is remembered of the groups'
	// ephemeral messages, and the personal answers waiting to go to
	// groups in digests (digest.go).
	eph *ephemerals
}

// New returns a Sender calling api through out, telling chats what the
// calls find out.
func New(api *botapi.Client, out *outbox.Outbox, chats Chats, log *slog.Logger) *Sender {
	s := &Sender{api: api, out: out, chats: chats, log: log}
	s.eph = newEphemerals(s, out.Clock(), log)
	return s
}

// Enqueue queues op on the outbox. An op the outbox refuses (the chat's
// queue is full, or the outbox closed) is logged and dropped, and its
// error returned.
func (s *Sender) Enqueue(op outbox.Op) error {
	err := s.out.Enqueue(op)
	if err != nil {
		s.log.Warn("outgoing call dropped", "chat", op.Chat, "err", err)
	}
	return err
}

// settle acts on the error of a call into chat made in an outbox op, and
// returns what the outbox acts on: what the error says of the chat is
// reported (report); a 429 becomes an outbox.RetryAfterError, a 5xx or a
// transport failure temporary (outbox.Temporary). Any other error is
// returned as report returned it: errors.Is finds the Bot API's kind in
// it (botapi.ErrGone, botapi.ErrCannotDelete, ...).
func (s *Sender) settle(chat int64, err error) error {
	err = s.report(chat, err)
	var tg *botapi.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &tg) && errors.Is(tg, botapi.ErrTooMany):
		return &outbox.RetryAfterError{After: max(tg.RetryAfter, time.Second)}
	case botapi.Temporary(err):
		return outbox.Temporary(err)
	}
	return err
}

// report tells Chats what the error of a call into chat says of it: a
// group that became a supergroup is reported moved (and the error returned
// says so, wrapping err), a private chat that answers 403 refused.
func (s *Sender) report(chat int64, err error) error {
	if err == nil {
		return nil
	}
	var tg *botapi.Error
	switch {
	case errors.As(err, &tg) && tg.MigrateTo != 0:
		s.chats.Moved(chat, tg.MigrateTo)
		return fmt.Errorf("chat %d moved to %d: %w", chat, tg.MigrateTo, err)
	case errors.Is(err, botapi.ErrForbidden) && chat > 0:
		s.chats.Refused(chat)
	}
	return err
}

// Retried reports whether the outbox tries an op that failed with err
// (as a call into a chat returned it) again: after a 429 or a temporary
// failure.
func Retried(err error) bool {
	var ra *outbox.RetryAfterError
	return errors.As(err, &ra) || outbox.IsTemporary(err)
}

// Reply sends a message into a chat (and forum topic thread), in reply to
// message replyTo when it is not 0. It waits behind the chat's renders,
// and a message the same as one still waiting is sent once, in reply to
// the later. slot names it for that (Slot), "" to compute it; sent, when
// not nil, is called with the message's id once it is sent.
func (s *Sender) Reply(chat int64, thread, replyTo int, slot string, m message.Message, sent func(ctx context.Context, id int)) {
	if slot == "" {
		slot = Slot(thread, m)
	}
	s.Enqueue(s.replyOp(chat, thread, replyTo, slot, m, sent))
}

// replyOp is the op of Reply.
func (s *Sender) replyOp(chat int64, thread, replyTo int, slot string, m message.Message, sent func(ctx context.Context, id int)) outbox.Op {
	return outbox.Op{Chat: chat, Class: outbox.Say, Slot: slot, Do: func(ctx context.Context) error {
		id, err := s.Send(ctx, chat, thread, m, replyTo)
		if err == nil && sent != nil {
			sent(ctx, id)
		}
		return err
	}}
}

// Slot names a message by its topic, text and buttons, so that the outbox
// sends a message once however often it waits.
func Slot(thread int, m message.Message) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s", thread, m.Text)
	for _, row := range m.Keyboard {
		for _, btn := range row {
			fmt.Fprintf(h, "\x00%s\x00%s\x00%s", btn.Text, btn.Data, btn.URL)
		}
	}
	return "say:" + strconv.FormatUint(h.Sum64(), 36)
}

// Answer answers a button press with a toast, or an alert, straight to the
// Bot API, not through the outbox. A failure worth a retry (a 5xx, a
// dropped connection) is retried at once, up to answerAttempts in all,
// while answerRetryWithin has not passed since the first try: an
// unanswered press leaves the player's client spinning until it gives up,
// but a slow failure (a timeout) is not worth the chat's queue waiting for
// it again, and Telegram refuses late answers anyway.
func (s *Sender) Answer(ctx context.Context, queryID, text string, alert bool) {
	s.answer(ctx, func(ctx context.Context) error { return s.api.AnswerCallback(ctx, queryID, text, alert) })
}

// answer makes the call that answers a press, retried as Answer says.
func (s *Sender) answer(ctx context.Context, call func(ctx context.Context) error) {
	start := time.Now()
	var err error
	for range answerAttempts {
		err = call(ctx)
		if err == nil || !botapi.Temporary(err) || time.Since(start) > answerRetryWithin {
			break
		}
	}
	if err != nil {
		s.log.WarnContext(ctx, "answering a button press", "err", err)
	}
}

// answerAttempts bounds the tries of one callback answer, and
// answerRetryWithin the time after the first try within which a failure is
// tried again.
const (
	answerAttempts    = 3
	answerRetryWithin = 2 * time.Second
)
