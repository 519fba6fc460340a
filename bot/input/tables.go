package input

import (
	"context"
	"errors"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// newGame handles /newgame: it opens a table, or brings the open one to
// the bottom of the chat. In a private chat the house sits down at once:
// solo play.
func newGame(ctx context.Context, c *command) {
	u, ok := c.player()
	if !ok {
		return
	}
	// Typed at the bottom of the chat: the lobby goes there, and the closed
	// table's message goes, or stays as the record of its last game.
	req := c.request(u, game.Command{Kind: game.Open, User: u.ID, Name: u.Name})
	req.Repost = true
	if err := c.h.solo(ctx, c.m.Chat, &req); err != nil {
		c.fail(ctx, err)
		return
	}
	res, err := c.h.tables.Apply(ctx, req)
	switch {
	case err == nil:
		c.h.showOpened(res.View, u, c.m.Chat)
		if why := c.h.houseAbsent(ctx, res, i18n.OfChat(res.Settings.Language)); why != "" {
			c.tell(why)
		}
	case errors.Is(err, game.ErrTableOpen):
		// Bring the open table to the bottom of the chat: a new message,
		// within the sender's quota like an answer.
		if !c.within("repost:"+c.key.String(), false) {
			return // moved down moments ago: it is right there
		}
		v, err := c.h.tables.Repost(ctx, c.key, int64(c.u.UpdateID), c.h.clock.Now())
		if errors.Is(err, storage.ErrDuplicate) {
			return // delivered again: moved down the first time
		}
		if err != nil {
			c.fail(ctx, err)
			return
		}
		c.h.rooms.Tables.Show(v)
	case errors.Is(err, storage.ErrDuplicate):
	default:
		c.sayError(ctx, err, res.View, u)
	}
}

// showOpened shows the table that by just opened in chat, its lobby v: the
// one way a command or a press shows a table it opened. In a group, the
// lobby is announced to the group's followers once its first message is
// sent (package notice; the table keeper tells it of the message).
func (h *Handler) showOpened(v storage.View, by storage.User, chat *tgbotapi.Chat) {
	h.rooms.Tables.Open(v, h.rooms.Notices.Opened(by, chat))
}

// leave handles /leave: the sender stands up, as the Leave button does.
func leave(ctx context.Context, c *command) {
	u, ok := c.player()
	if !ok {
		return
	}
	cmd := game.Command{Kind: game.Leave, User: u.ID}
	res, err := c.apply(ctx, u, cmd)
	switch {
	case err == nil:
		c.h.rooms.Tables.Show(res.View)
		// Told as the Leave button is, them alone: the table's edit names
		// nobody.
		c.tell(render.Toast(c.lang, cmd, res.Outcome, &res.Table))
	case errors.Is(err, storage.ErrDuplicate):
	default:
		c.sayError(ctx, err, res.View, u)
	}
}

// cancel handles /cancel (admins): the table's game is called off, every
// bet returned and the bank to the banker; a lobby is closed.
func cancel(ctx context.Context, c *command) {
	u := c.actor()
	before, err := c.h.tables.View(ctx, c.key)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	res, err := c.apply(ctx, u, game.Command{Kind: game.Cancel, User: u.ID})
	switch {
	case err == nil:
		c.h.rooms.Tables.Show(res.View)
		if before.Table.Phase().InGame() {
			c.say(i18n.T(c.lang, i18n.CancelDone))
		} else {
			c.say(i18n.T(c.lang, i18n.CancelLobby))
		}
	case errors.Is(err, game.ErrNoTable):
		c.tell(i18n.T(c.lang, i18n.CancelNothing))
	case errors.Is(err, storage.ErrDuplicate):
	default:
		c.sayError(ctx, err, res.View, u)
	}
}

// kick handles /kick in reply to a player (admins): the player is stood up
// at the next safe moment.
func kick(ctx context.Context, c *command) {
	who, replied := c.replied()
	if !replied {
		if !c.repliedToChat() {
			c.tell(i18n.T(c.lang, i18n.KickUsage))
		}
		return
	}
	admin := c.actor()
	res, err := c.apply(ctx, admin, game.Command{Kind: game.Kick, User: admin.ID, Target: game.UserID(who.ID)})
	switch {
	case err == nil:
		c.h.rooms.Tables.Show(res.View)
		c.sayMessage(render.KickDone(who.FirstName, c.lang))
	case errors.Is(err, game.ErrNotSeated), errors.Is(err, game.ErrNoTable):
		c.tellMessage(render.KickNotSeated(who.FirstName, c.lang))
	case errors.Is(err, storage.ErrDuplicate):
	default:
		c.sayError(ctx, err, res.View, admin)
	}
}
