package input

import (
	"context"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// command is a command being handled.
type command struct {
	h    *Handler
	u    botapi.Update
	m    *tgbotapi.Message
	key  storage.TableKey
	args string
	lang i18n.Lang
	// name is the command's name, lower case; who is the sender, for the
	// reply quota: the user, or the chat they posted as.
	name string
	who  int64
	// spec is the command's entry in commands, once routed.
	spec *commandSpec
}

// route runs the command named c.name, if the bot has one by that name
// (or c.name is "name_N" of a numbered command: then it is that command
// with N before its arguments), where it works and for who may use it,
// answering everyone else.
func (c *command) route(ctx context.Context) {
	spec, ok := commandsByName[c.name]
	if !ok {
		spec, ok = c.numbered()
	}
	if !ok {
		return
	}
	c.spec = spec
	if spec.where == inGroups && !botapi.IsGroup(c.m.Chat) {
		c.tell(i18n.T(c.lang, i18n.GroupsOnly))
		return
	}
	if c.allowed(ctx) {
		spec.run(ctx, c)
	}
}

// numbered reads c.name as "name_N" of a numbered command: it returns
// that command, with c.name set to name and N put before c.args; false,
// changing nothing, when c.name is no such form.
func (c *command) numbered() (*commandSpec, bool) {
	name, n, ok := strings.Cut(c.name, "_")
	spec, known := commandsByName[name]
	if !ok || !known || !spec.numbered || n == "" || strings.Trim(n, "0123456789") != "" {
		return nil, false
	}
	c.name = name
	c.args = strings.TrimSpace(n + " " + c.args)
	return spec, true
}

// allowed reports whether the sender may use the command with its
// arguments, and if not answers why.
func (c *command) allowed(ctx context.Context) bool {
	s := c.spec
	if s.restricted != nil && !s.restricted(c.args) {
		return true
	}
	switch s.who {
	case byAdmins:
		return c.admin(ctx, s.refusal)
	case byOwners:
		return c.owner(s.refusal)
	}
	return true
}

// admin reports whether the command's sender is an admin of the chat,
// asking Telegram afresh; if not, it answers: with refusal, or that it
// cannot tell who sent the command, or that a chat (a channel) runs
// nothing, or that Telegram would not say.
func (c *command) admin(ctx context.Context, refusal i18n.Key) bool {
	var ok bool
	switch botapi.SenderOf(c.m) {
	case botapi.ByAnonymousAdmin:
		return true
	case botapi.ByNobody:
		c.tell(i18n.T(c.lang, i18n.UnknownSender))
		return false
	case botapi.ByChat:
		c.tell(i18n.T(c.lang, i18n.ChatSender))
		return false
	case botapi.ByPerson:
		var err error
		ok, err = c.h.admins.is(ctx, c.m.Chat.ID, c.m.From.ID)
		if err != nil {
			c.h.log.WarnContext(ctx, "checking an admin", "chat", c.m.Chat.ID, "err", err)
			c.tell(i18n.T(c.lang, i18n.AdminCheckFailed))
			return false
		}
	}
	if !ok {
		c.tell(i18n.T(c.lang, refusal))
	}
	return ok
}

// owner reports whether the command's sender is one of the bot's owners,
// posting as themselves; if not, it answers: that a chat (a channel) runs
// nothing, or with refusal.
func (c *command) owner(refusal i18n.Key) bool {
	switch {
	case botapi.SenderOf(c.m) == botapi.ByChat:
		c.tell(i18n.T(c.lang, i18n.ChatSender))
		return false
	case botapi.SenderOf(c.m) != botapi.ByPerson || !c.h.owners[c.m.From.ID]:
		c.tell(i18n.T(c.lang, refusal))
		return false
	}
	return true
}

// fail reports an internal error of the command (fault.Log) and tells the
// sender only that something went wrong.
func (c *command) fail(ctx context.Context, err error) {
	fault.Log(ctx, c.h.log, c.name, c.key, err)
	c.tell(i18n.T(c.lang, i18n.PopError))
}

// showsOnly reports whether the command only shows something, changing
// nothing (commandSpec.showsOnly).
func (c *command) showsOnly() bool {
	return c.spec != nil && c.spec.showsOnly != nil && c.spec.showsOnly(c.args)
}

// player returns the acting user, or false (after answering) when the
// command came from no person: an anonymous admin or a channel, who cannot
// play, or nobody the bot can tell.
func (c *command) player() (storage.User, bool) {
	switch botapi.SenderOf(c.m) {
	case botapi.ByPerson:
		return Profile(c.m.From), true
	case botapi.ByAnonymousAdmin:
		c.tell(i18n.T(c.lang, i18n.AnonymousPlay))
	case botapi.ByChat:
		c.tell(i18n.T(c.lang, i18n.ChatSender))
	default:
		c.tell(i18n.T(c.lang, i18n.UnknownSender))
	}
	return storage.User{}, false
}

// actor returns the user an admin command acts as: none for an anonymous
// admin.
func (c *command) actor() storage.User {
	if botapi.SenderOf(c.m) != botapi.ByPerson {
		return storage.User{}
	}
	return Profile(c.m.From)
}

// request is the storage request of a game command made by this message.
func (c *command) request(u storage.User, cmd game.Command) storage.ApplyRequest {
	return c.h.request(c.key, c.u.UpdateID, u, cmd)
}

// apply applies a game command made by this message.
func (c *command) apply(ctx context.Context, u storage.User, cmd game.Command) (storage.Applied, error) {
	return c.h.tables.Apply(ctx, c.request(u, cmd))
}

// sayError answers a rejected command with the reason, as a message for
// its sender alone.
func (c *command) sayError(ctx context.Context, err error, v storage.View, u storage.User) {
	text, _ := c.h.rejection(ctx, c.lang, err, v, u.ID)
	c.tellMessage(render.Plain(text))
}

// replied returns the person whose message the command replies to, or
// false when it replies to none: to no message, or to one of a bot, of an
// anonymous admin or a channel, or of nobody the bot can tell.
func (c *command) replied() (*tgbotapi.User, bool) {
	r := c.m.ReplyToMessage
	if r == nil || r.SenderChat != nil || !botapi.Person(r.From) {
		return nil, false
	}
	return r.From, true
}

// repliedToChat reports whether the command replies to a message sent on
// behalf of a chat (a channel, a linked channel's automatic forward, an
// anonymous admin), which names no player; it answers so. The first
// message of a forum topic, which Telegram puts into reply_to_message of
// every message in the topic, is no reply.
func (c *command) repliedToChat() bool {
	r := c.m.ReplyToMessage
	if r == nil || r.SenderChat == nil || c.u.Thread != 0 && r.MessageID == c.u.Thread {
		return false
	}
	c.tell(i18n.T(c.lang, i18n.ReplyToChat))
	return true
}
