package input

import (
	"context"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/send"
)

// The answers to a command, and who sees them. An answer for its sender
// alone (a personal command's, by its row: commandSpec.personal; and any
// command's refusal, usage or error: tell) goes in a group as an
// ephemeral message, which the sender and the bot alone see: in reply to
// the sender's ephemeral command, within its window, or, to a command
// sent as a message the group sees (typed by hand, or from a client that
// sends no ephemeral commands), as the bot may send one when it is an
// admin of the group. Where Telegram refuses it (the bot is no admin, the
// window passed) it goes to the group, in reply to the command, as every
// answer did before ephemeral messages, and the group is remembered for a
// while (send.Sender.Tell). In a private chat (solo play) nothing
// changes: there the sender is the only one to see it. Every other answer
// (an admin's change announced, /top, the house seated) goes to the
// group. Both are within the sender's reply quota (quota.allow).

// say answers the command with an HTML message: for the sender alone when
// the command's row says its answers are (commandSpec.personal), else to
// the group, in reply to it.
func (c *command) say(text string) { c.sayMessage(message.Message{Text: text}) }

// sayMessage answers the command with a message, as say does, within the
// sender's reply quota: a command that changes something, or tries to,
// is always told how it went; for one that only shows something, the
// answer they were just given to the same command is not given again, and
// past their budget they are told once that they are, and when they get
// answers again, then nothing until then.
func (c *command) sayMessage(m message.Message) { c.sayMessageThen(m, nil) }

// sayMessageThen is sayMessage, calling sent, when not nil, with the
// message once it is sent (an ephemeral one, or the chat's).
func (c *command) sayMessageThen(m message.Message, sent func(ctx context.Context, at send.Sent)) {
	c.answer(m, c.personal(), sent)
}

// tell answers the command with an HTML message for its sender alone,
// whatever its row says: a refusal, how the command is used, an error.
func (c *command) tell(text string) { c.tellMessage(message.Message{Text: text}) }

// tellMessage is tell with a message.
func (c *command) tellMessage(m message.Message) { c.answer(m, true, nil) }

// answer sends m, for the sender alone when personal, within the sender's
// reply quota (see sayMessage).
func (c *command) answer(m message.Message, personal bool, sent func(ctx context.Context, at send.Sent)) {
	slot := send.Slot(c.u.Thread, m)
	shows := c.showsOnly()
	repeat := ""
	if shows {
		repeat = c.name + " " + c.args + " " + slot
	}
	if c.within(repeat, !shows) {
		c.deliver(m, slot, personal, sent)
	}
}

// deliver sends m, slot naming it (send.Slot): to the sender alone when
// personal and in a group the bot may try (send.Sender.Tell), else to the
// chat, in reply to the command.
func (c *command) deliver(m message.Message, slot string, personal bool, sent func(ctx context.Context, at send.Sent)) {
	s := c.h.rooms.Send
	if p, ok := c.personalTo(); personal && ok {
		s.Tell(p, slot, m, sent)
		return
	}
	var then func(ctx context.Context, id int)
	if sent != nil {
		then = func(ctx context.Context, id int) { sent(ctx, send.Sent{ID: id}) }
	}
	s.Reply(c.m.Chat.ID, c.u.Thread, c.m.MessageID, slot, m, then)
}

// personalTo returns to whom, and how, an answer for the sender alone may
// go as an ephemeral message: in a group, to a person (no anonymous
// admin, no channel: no one to show it to), in reply to their ephemeral
// command if it is one; false elsewhere. Where it goes to the group
// instead, with others' answers in one message, it is headed by the
// sender's name and the command's name.
func (c *command) personalTo() (send.Personal, bool) {
	if !botapi.IsGroup(c.m.Chat) || botapi.SenderOf(c.m) != botapi.ByPerson {
		return send.Personal{}, false
	}
	p := send.Personal{Chat: c.m.Chat.ID, Thread: c.u.Thread, To: c.m.From.ID, ReplyTo: c.m.MessageID,
		Name: Profile(c.m.From).Name, Asked: "/" + c.name}
	if e := c.u.Ephemeral; e != nil {
		p.Ephemeral = e.ID
	}
	return p, true
}

// personal reports whether the command's answers are for its sender alone
// (commandSpec.personal).
func (c *command) personal() bool {
	return c.spec != nil && c.spec.personal != nil && c.spec.personal(c.args)
}

// within reports whether the sender's reply quota lets an answer named
// answer go (quota.allow); past their budget, it tells them so, once,
// them alone.
func (c *command) within(answer string, change bool) bool {
	v, wait := c.h.quota.allow(c.m.Chat.ID, c.who, answer, change)
	if v == overBudget {
		over := message.Message{Text: i18n.T(c.lang, i18n.QuotaOver, i18n.Countdown(c.lang, wait))}
		c.deliver(over, send.Slot(c.u.Thread, over), true, nil)
	}
	return v == give
}
