package bot

import (
	"context"
	"errors"
	"slices"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// Limits of the community commands.
const (
	topSize     = 10
	historySize = 10
)

// top handles /top: the chat's leaderboard by balance, the house apart.
func (c *command) top(ctx context.Context) {
	rows, err := c.b.store.Leaderboard(ctx, c.m.Chat.ID, topSize+1)
	if err != nil {
		c.b.internal("top", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	rows = slices.DeleteFunc(rows, func(s storage.Standing) bool { return s.User == house.ID })
	rows = rows[:min(len(rows), topSize)]
	var houseRow *storage.Standing
	switch st, err := c.b.store.Standing(ctx, c.m.Chat.ID, house.ID); {
	case err == nil:
		houseRow = &st
	case !errors.Is(err, storage.ErrNotFound):
		c.b.internal("top", err)
	}
	c.sayMessage(render.Top(rows, houseRow, c.lang))
}

// replied returns the person whose message the command replies to, or
// false when it replies to none: to no message, or to one of a bot, of an
// anonymous admin or a channel, or of nobody the bot can tell.
func (c *command) replied() (*tgbotapi.User, bool) {
	r := c.m.ReplyToMessage
	if r == nil || r.SenderChat != nil || !person(r.From) {
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
	if r == nil || r.SenderChat == nil || c.u.thread != 0 && r.MessageID == c.u.thread {
		return false
	}
	c.say(i18n.T(c.lang, i18n.ReplyToChat))
	return true
}

// stats handles /stats: the results of the sender, or of the user whose
// message it replies to.
func (c *command) stats(ctx context.Context) {
	who, ok := c.replied()
	if !ok {
		if c.repliedToChat() {
			return
		}
		if _, ok := c.player(); !ok {
			return
		}
		who = c.m.From
	}
	st, err := c.b.store.Stats(ctx, c.m.Chat.ID, game.UserID(who.ID))
	if errors.Is(err, storage.ErrNotFound) {
		c.sayMessage(render.StatsNone(who.FirstName, c.lang))
		return
	}
	if err != nil {
		c.b.internal("stats", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	acc, err := c.b.store.Account(ctx, c.m.Chat.ID, user(who), c.b.clock.Now())
	if err != nil {
		c.b.internal("stats", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	c.sayMessage(render.Stats(who.FirstName, st, acc.Balance, c.lang))
}

// history handles /history: the sender's last chip movements.
func (c *command) history(ctx context.Context) {
	u, ok := c.player()
	if !ok {
		return
	}
	entries, err := c.b.store.History(ctx, c.m.Chat.ID, u.ID, historySize)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		c.b.internal("history", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	c.sayMessage(render.History(u.Name, entries, c.lang))
}

// audit handles /audit (admins): whether the chat's chips add up.
func (c *command) audit(ctx context.Context) {
	a, err := c.b.store.Audit(ctx, c.m.Chat.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		c.b.internal("audit", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	switch {
	case err != nil:
		a = storage.Audit{Chat: c.m.Chat.ID, OK: true} // a chat the bot knows nothing of: no chips, which add up
	case !a.OK:
		c.b.log.Error("audit: the chips do not add up", "chat", a.Chat, "problems", a.Problems)
	}
	c.sayMessage(render.Audit(a, c.lang))
}

// kick handles /kick in reply to a player (admins): the player is stood up
// at the next safe moment.
func (c *command) kick(ctx context.Context) {
	who, replied := c.replied()
	if !replied {
		if !c.repliedToChat() {
			c.say(i18n.T(c.lang, i18n.KickUsage))
		}
		return
	}
	admin := c.actor()
	res, err := c.apply(ctx, admin, game.Command{Kind: game.Kick, User: admin.ID, Target: game.UserID(who.ID)})
	switch {
	case err == nil:
		c.b.show(res.View)
		c.sayMessage(render.KickDone(who.FirstName, c.lang))
	case errors.Is(err, game.ErrNotSeated), errors.Is(err, game.ErrNoTable):
		c.sayMessage(render.KickNotSeated(who.FirstName, c.lang))
	case errors.Is(err, storage.ErrDuplicate):
	default:
		c.sayError(err, res.View, admin)
	}
}

// grant handles /grant AMOUNT in reply to a user (the bot's owners only):
// chips out of nowhere, ledgered as a grant. In reply to one of the bot's
// own messages, it tops up the house.
func (c *command) grant(ctx context.Context) {
	u, name, ok := c.grantee()
	if !ok {
		if !c.repliedToChat() {
			c.say(i18n.T(c.lang, i18n.GrantUsage))
		}
		return
	}
	amount, err := strconv.ParseInt(c.args, 10, 64)
	if err != nil || amount < 1 || amount > storage.MaxGrant {
		c.say(i18n.T(c.lang, i18n.GrantBad, i18n.Number(storage.MaxGrant)))
		return
	}
	bal, err := c.b.store.Grant(ctx, c.m.Chat.ID, u, amount, int64(c.u.UpdateID), c.b.clock.Now())
	if errors.Is(err, storage.ErrDuplicate) {
		return // delivered again after a restart: granted and answered the first time
	}
	if err != nil {
		c.b.internal("grant", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	c.sayMessage(render.GrantDone(name, amount, bal, c.lang))
}

// grantee returns who a /grant gives chips to, and their name: the person
// whose message it replies to, or the house for a reply to one of the
// bot's own messages; false when it replies to neither.
func (c *command) grantee() (storage.User, string, bool) {
	if who, ok := c.replied(); ok {
		return user(who), who.FirstName, true
	}
	if r := c.m.ReplyToMessage; r != nil && r.SenderChat == nil && r.From != nil && r.From.ID == c.b.ID() {
		return houseUser, i18n.T(c.lang, i18n.HouseName), true
	}
	return storage.User{}, "", false
}
