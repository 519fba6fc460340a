package send

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/outbox"
)

// Ephemeral messages: an answer that one member of a group sees, and the
// group does not (botapi.SendEphemeral). Tell sends one where Telegram
// lets the bot, and where it does not, the answer goes to the group as a
// reply, as before ephemeral messages: no answer is lost to a refusal.

// Sent names a message the bot sent into a chat: one of the chat's
// (Receiver 0), whose message_id is ID, or an ephemeral one that only
// Receiver sees, whose ephemeral_message_id is ID.
type Sent struct {
	ID       int
	Receiver int64
}

// Ephemeral reports whether the message is an ephemeral one.
func (m Sent) Ephemeral() bool { return m.Receiver != 0 }

// Class returns the outbox class of a call that edits or deletes the
// message: class for one of the chat's, outbox.Ephemeral for an
// ephemeral one, which the group's pacing does not hold.
func (m Sent) Class(class outbox.Class) outbox.Class {
	if m.Ephemeral() {
		return outbox.Ephemeral
	}
	return class
}

// String names the message, for an outbox slot: its id, and its
// receiver's for an ephemeral one.
func (m Sent) String() string {
	if m.Ephemeral() {
		return strconv.FormatInt(m.Receiver, 10) + "/" + strconv.Itoa(m.ID)
	}
	return strconv.Itoa(m.ID)
}

// SendEphemeral sends m into the group chat (and forum topic thread) as
// an ephemeral message to.Receiver sees (botapi.SendEphemeral), and
// returns it: a message of the chat's where the Bot API server, older
// than ephemeral messages, sent it as one. Its error is settled as
// Send's; a refusal is a 400 (see Refused).
func (s *Sender) SendEphemeral(ctx context.Context, chat int64, thread int, m message.Message, to botapi.EphemeralTo) (Sent, error) {
	id, ephemeral, err := s.api.SendEphemeral(ctx, chat, thread, m, to)
	if !ephemeral {
		return Sent{ID: id}, s.settle(chat, err)
	}
	return Sent{ID: id, Receiver: to.Receiver}, s.settle(chat, err)
}

// EditEphemeral replaces the text and keyboard of the ephemeral message
// id of receiver in chat. As Edit: one that is gone fails with
// botapi.ErrGone.
func (s *Sender) EditEphemeral(ctx context.Context, chat, receiver int64, id int, m message.Message) error {
	return s.settle(chat, s.api.EditEphemeral(ctx, chat, receiver, id, m))
}

// DeleteEphemeral deletes the ephemeral message id of receiver in chat.
// One that is gone fails with botapi.ErrGone.
func (s *Sender) DeleteEphemeral(ctx context.Context, chat, receiver int64, id int) error {
	return s.settle(chat, s.api.DeleteEphemeral(ctx, chat, receiver, id))
}

// EditSent replaces the text and keyboard of the message at: Edit, or
// EditEphemeral for an ephemeral one.
func (s *Sender) EditSent(ctx context.Context, chat int64, at Sent, m message.Message) error {
	if at.Ephemeral() {
		return s.EditEphemeral(ctx, chat, at.Receiver, at.ID, m)
	}
	return s.Edit(ctx, chat, at.ID, m)
}

// DeleteSent deletes the message at: Delete, or DeleteEphemeral for an
// ephemeral one.
func (s *Sender) DeleteSent(ctx context.Context, chat int64, at Sent) error {
	if at.Ephemeral() {
		return s.DeleteEphemeral(ctx, chat, at.Receiver, at.ID)
	}
	return s.Delete(ctx, chat, at.ID)
}

// Refused reports whether Telegram refused an ephemeral message with err:
// a 400, whatever it says (the texts of these refusals come from
// Telegram's servers and are documented nowhere: BOT_NOT_ADMIN for a
// bot that may not send one there, a window passed, a chat that has
// none). A group that moved is no refusal: it is reported moved.
func Refused(err error) bool {
	var tg *botapi.Error
	return errors.As(err, &tg) && tg.Code == http.StatusBadRequest && tg.MigrateTo == 0
}

// Personal is an answer for one member of a group: to whom, and what lets
// the bot send it as an ephemeral message.
type Personal struct {
	// Chat and Thread are the group and its forum topic (0 for none).
	Chat   int64
	Thread int
	// To is the member the answer is for.
	To int64
	// Ephemeral is the ephemeral_message_id of the member's ephemeral
	// message (an ephemeral command) that it answers, and QueryID the
	// callback query; Telegram takes the answer within Window of them.
	// With neither, the bot sends it as an admin of the chat, which
	// Telegram lets it do at any time.
	Ephemeral int
	QueryID   string
	// ReplyTo is the message of the chat that the answer replies to when
	// it goes to the group instead, 0 for none.
	ReplyTo int
	// Name, the member's name, and Asked, what they asked (the command,
	// or the label of the button pressed, in the chat's language), head
	// the answer in a digest when it goes to the group together with
	// others (digest.go); an answer without Name goes alone.
	Name, Asked string
}

// window reports whether Telegram takes the answer only within Window.
func (p Personal) window() bool { return p.Ephemeral != 0 || p.QueryID != "" }

// Window is how long after a member's action (an ephemeral command, a
// button press) Telegram lets a bot that is no admin send them an
// ephemeral message (Bot API, "Ephemeral Messages and Commands": 15
// seconds). Tell counts it from its call, less windowMargin: the time
// the action took to reach the bot, and the call to reach Telegram.
const (
	Window       = 15 * time.Second
	windowMargin = 2 * time.Second
)

// What the Sender remembers of the groups, for refusedFor, of at most
// refusedChats of them: where Telegram refused an ephemeral message, by
// the way it was sent (within a window, or as an admin), so that their
// next answers go to the group at once, not after another refusal each;
// and whether the bot is an admin there, so that an answer it may send
// only as one goes to the group at once where it is none.
const (
	refusedFor   = 10 * time.Minute
	refusedChats = 10_000
)

// refusal names the chats, and the way, that refused an ephemeral message.
type refusal struct {
	chat   int64
	window bool
}

// ephemerals is the Sender's ephemeral way (Tell): what it remembers of
// the groups' ephemeral messages (the refusals, whether the bot is an
// admin) and how an answer goes, as an ephemeral message through calls or
// to the group (a reply, or in a digest: dig). Its methods are safe for
// concurrent use.
type ephemerals struct {
	calls   ephemeralCalls
	dig     *digests
	clock   clock.Clock
	log     *slog.Logger
	refused *expiring.Cache[refusal, struct{}]
	admin   *expiring.Cache[int64, bool]
}

// ephemeralCalls are the Sender's calls the ephemeral way makes, each
// settling its error as the Sender's calls do: queue an op on the outbox,
// the op of a reply, send an ephemeral message, ask whether a member is
// an admin, and the bot's own user.
type ephemeralCalls interface {
	digestCalls
	replyOp(chat int64, thread, replyTo int, slot string, m message.Message, sent func(ctx context.Context, id int)) outbox.Op
	SendEphemeral(ctx context.Context, chat int64, thread int, m message.Message, to botapi.EphemeralTo) (Sent, error)
	Member(ctx context.Context, chat, user int64) (botapi.Member, error)
	Self() tgbotapi.User
}

func newEphemerals(calls ephemeralCalls, c clock.Clock, log *slog.Logger) *ephemerals {
	return &ephemerals{calls: calls, dig: &digests{calls: calls}, clock: c, log: log,
		refused: expiring.New[refusal, struct{}](refusedChats, refusedFor, c),
		admin:   expiring.New[int64, bool](refusedChats, refusedFor, c)}
}

// BotStatus tells the Sender that the bot is, or is not, an admin of the
// group chat now (a my_chat_member update): an answer it may send only as
// an admin is tried again at once where it became one.
func (s *Sender) BotStatus(chat int64, admin bool) {
	s.eph.admin.Add(chat, admin)
	if admin {
		s.eph.refused.Remove(refusal{chat: chat})
	}
}

// botAdmin reports whether the bot is an admin of the group chat: as
// remembered, else as Telegram says (getChatMember of the bot itself).
func (e *ephemerals) botAdmin(ctx context.Context, chat int64) (bool, error) {
	if admin, ok := e.admin.Get(chat); ok {
		return admin, nil
	}
	m, err := e.calls.Member(ctx, chat, e.calls.Self().ID)
	if err != nil {
		return false, err
	}
	e.admin.Add(chat, m.Admin())
	return m.Admin(), nil
}

// Tell sends m to the member p names as an ephemeral message, through the
// outbox (it spends no group's pacing: outbox.Ephemeral), and where that
// cannot be, to the group: at once in a chat that refused one lately the
// same way; where the bot, asked to send one as an admin, is none (as
// remembered, or as getChatMember of the bot says, or does not say); when
// Telegram refuses it (Refused: the chat is remembered, so that its next
// answers do not try in vain); and when its window passes while it waits.
// To the group it goes in the group's turn: alone, as Reply sends it (in
// reply to p.ReplyTo), or, when other members' answers wait with it, in
// one message with them (a digest: digest.go; an answer with buttons, or
// whose message sent follows, or without p.Name, always goes alone). slot
// names the message as Reply's does ("" to compute it); an ephemeral one
// is sent once however often it waits for the same member, and the same
// answer to several members going to the group is sent once. sent, when
// not nil, is called with the message once it is sent, whichever way.
func (s *Sender) Tell(p Personal, slot string, m message.Message, sent func(ctx context.Context, at Sent)) {
	s.eph.tell(p, slot, m, sent)
}

// tell is Tell.
func (e *ephemerals) tell(p Personal, slot string, m message.Message, sent func(ctx context.Context, at Sent)) {
	if slot == "" {
		slot = Slot(p.Thread, m)
	}
	toGroup, late := e.groupWay(p, slot, m, sent)
	way := refusal{chat: p.Chat, window: p.window()}
	_, refused := e.refused.Get(way)
	if admin, known := e.admin.Get(p.Chat); refused || !way.window && known && !admin {
		toGroup()
		return
	}
	to := botapi.EphemeralTo{Receiver: p.To, QueryID: p.QueryID, ReplyTo: p.Ephemeral}
	op := outbox.Op{Chat: p.Chat, Class: outbox.Ephemeral, Slot: strconv.FormatInt(p.To, 10) + ":" + slot, Late: &late,
		Do: func(ctx context.Context) error {
			if !way.window {
				if admin, err := e.botAdmin(ctx, p.Chat); err != nil || !admin {
					toGroup() // Telegram would refuse it, or did not say
					return nil
				}
			}
			at, err := e.calls.SendEphemeral(ctx, p.Chat, p.Thread, m, to)
			switch {
			case Refused(err):
				e.refused.Add(way, struct{}{})
				e.log.InfoContext(ctx, "an ephemeral message refused: answered in the chat", "chat", p.Chat, "err", err)
				toGroup()
				return nil
			case err == nil && sent != nil:
				sent(ctx, at)
			}
			return err
		}}
	if p.window() {
		op.Expires = e.clock.Now().Add(Window - windowMargin)
	}
	e.calls.Enqueue(op)
}

// groupWay returns how tell sends p's answer m to the group instead:
// toGroup queues it, and late is the op that sends it when its window
// passes while it waits. An answer that may go in a digest waits for the
// group's turn with the others (digests.tell); any other goes alone, as
// Reply sends it, calling sent.
func (e *ephemerals) groupWay(p Personal, slot string, m message.Message, sent func(ctx context.Context, at Sent)) (toGroup func(), late outbox.Op) {
	if digestible(p, m, sent) {
		return func() { e.dig.tell(p, slot, m) }, e.dig.flushOp(digestKey{chat: p.Chat, thread: p.Thread}, newTold(p, slot, m))
	}
	public := e.calls.replyOp(p.Chat, p.Thread, p.ReplyTo, slot, m, func(ctx context.Context, id int) {
		if sent != nil {
			sent(ctx, Sent{ID: id})
		}
	})
	return func() { e.calls.Enqueue(public) }, public
}

// OpenURL answers a button press by opening url in the presser's client
// (a t.me/<bot>?start= link into the bot's private chat), straight to the
// Bot API as Answer is, and retried as it is.
func (s *Sender) OpenURL(ctx context.Context, queryID, url string) {
	s.answer(ctx, func(ctx context.Context) error { return s.api.OpenURL(ctx, queryID, url) })
}
