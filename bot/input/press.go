package input

import (
	"context"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Press handles a button press on a chat's message: a group's, or a
// private chat's. Nothing in the callback data is trusted: it is parsed
// strictly, routed by its button's row (button.For: a verb the chat's
// kind of message never shows is a bad button), and who may do what is
// checked against the stored state where the press is applied (game.Apply
// for a table's buttons). A press on a message Telegram no longer gives
// (pressInaccessible) is applied to nothing, but where its row needs no
// message (button.Row.AnyMessage).
func (h *Handler) Press(ctx context.Context, u botapi.Update) {
	q := u.CallbackQuery
	if why := botapi.PressProblem(q); why != "" {
		// Nobody to act for, or no chat of ours (an inline-mode message):
		// stop the client's spinner, if there is one, and skip it.
		h.log.WarnContext(ctx, "update skipped", "update_id", u.UpdateID, "kind", u.Kind(), "why", why)
		h.answer(ctx, q, "", false)
		return
	}
	chat := q.Message.Chat.ID
	if !botapi.IsGroup(q.Message.Chat) && !q.Message.Chat.IsPrivate() {
		// The bot shows no table or settings in a channel: a press there
		// is forged.
		h.answer(ctx, q, i18n.T(h.presserLang(ctx, chat, q.From), i18n.GroupsOnly), true)
		return
	}
	at, mine := pressedMessage(u)
	if !mine {
		// An ephemeral message is shown to its receiver alone: a press on
		// it by anyone else is forged.
		h.answer(ctx, q, i18n.T(h.presserLang(ctx, chat, q.From), i18n.PopBadButton), false)
		return
	}
	data, err := callback.Parse(q.Data)
	row, ok := button.For(data.Action, chatKind(q.Message.Chat))
	do := chatEffects[row.Does]
	ok = ok && err == nil && do != nil
	p := chatPress{u: u, q: q, key: storage.TableKey{Chat: chat, Thread: int64(u.Thread)}, at: at, data: data, row: row}
	switch {
	case ok && row.AnyMessage:
		do(h, ctx, p)
	case q.Message.Date == 0 && !at.Ephemeral():
		h.pressInaccessible(ctx, q)
	case !ok:
		h.answer(ctx, q, i18n.T(h.presserLang(ctx, chat, q.From), i18n.PopBadButton), false)
	default:
		do(h, ctx, p)
	}
}

// chatKind is the kind of a chat's messages (button.Kinds): a private
// chat's or a group's.
func chatKind(c *tgbotapi.Chat) button.Kinds {
	if c.IsPrivate() {
		return button.Solo
	}
	return button.Group
}

// chatPress is a press on a chat's message, routed to its row.
type chatPress struct {
	u    botapi.Update
	q    *tgbotapi.CallbackQuery
	key  storage.TableKey // the table of the chat and topic pressed in
	at   send.Sent        // the message pressed
	data callback.Data
	row  button.Row
}

// pressedMessage returns the message a press is on: the chat's, or an
// ephemeral one, whose receiver is the presser; false for a press on an
// ephemeral message of another member's (no one else is shown it). A
// press on one that names no receiver is taken as its receiver's.
func pressedMessage(u botapi.Update) (send.Sent, bool) {
	q := u.CallbackQuery
	e := u.Ephemeral
	if e == nil {
		return send.Sent{ID: q.Message.MessageID}, true
	}
	if e.Receiver != nil && e.Receiver.ID != q.From.ID {
		return send.Sent{}, false
	}
	return send.Sent{ID: e.ID, Receiver: q.From.ID}, true
}

// chatEffects do what a press on a chat's message does, by its row's
// effect (button.Effect). The language of the answer comes with the
// table for a table's button, else it is the presser's in the chat.
var chatEffects = map[button.Effect]func(h *Handler, ctx context.Context, p chatPress){
	button.Apply:     (*Handler).pressTable,
	button.House:     (*Handler).pressTable,
	button.DeckCheck: (*Handler).pressDeckCheck,
	button.ChangeSetting: func(h *Handler, ctx context.Context, p chatPress) {
		h.settings.pressSetting(ctx, p.q, p.key, p.at, p.data, h.presserLang(ctx, p.key.Chat, p.q.From))
	},
	button.MoveSettings: func(h *Handler, ctx context.Context, p chatPress) {
		h.settings.pressSettingsLevel(ctx, p.q, p.key, p.at, p.data, h.presserLang(ctx, p.key.Chat, p.q.From))
	},
	button.ExplainSetting: func(h *Handler, ctx context.Context, p chatPress) {
		// The icon buttons of the settings panels drawn before the list.
		h.answer(ctx, p.q, render.SettingInfo(h.presserLang(ctx, p.key.Chat, p.q.From), p.data.Field), true)
	},
	button.StopFollowing: func(h *Handler, ctx context.Context, p chatPress) {
		chat, from := p.q.Message.Chat.ID, p.q.From
		h.follows.pressUnfollow(ctx, p.q, p.data.Chat, h.presserLang(ctx, chat, from),
			func() i18n.Lang { return h.chatLang(ctx, chat, from) })
	},
}

// pressTable applies a table button of a chat's message (PressTable).
func (h *Handler) pressTable(ctx context.Context, p chatPress) {
	h.PressTable(ctx, TablePress{Update: p.u, Key: p.key, Data: p.data, Chat: p.q.Message.Chat})
}

// pressDeckCheck answers the deck check of a chat's table (pressVerify).
func (h *Handler) pressDeckCheck(ctx context.Context, p chatPress) {
	chat, from := p.key.Chat, p.q.From
	h.pressVerify(ctx, p.q, p.key, p.u.Thread, p.data.Game, h.presserLang(ctx, chat, from), h.chatLang(ctx, chat, from))
}

// answer answers a press (send.Sender.Answer).
func (h *Handler) answer(ctx context.Context, q *tgbotapi.CallbackQuery, text string, alert bool) {
	h.rooms.Send.Answer(ctx, q.ID, text, alert)
}

// pressInaccessible answers a press on a message Telegram no longer gives
// the bot: an InaccessibleMessage, with date 0 and nothing but its chat and
// id (Bot API; telegram-bot-api sends it for a message it cannot get:
// deleted, or too old). It names no topic, so it cannot tell which table it
// was drawn for, and the press is applied to none: a press read as one on
// the General table would move that. The table whose message it is (if
// any, and open) is shown again: edited, or where the message was deleted,
// sent anew.
func (h *Handler) pressInaccessible(ctx context.Context, q *tgbotapi.CallbackQuery) {
	chat := q.Message.Chat.ID
	h.answer(ctx, q, i18n.T(h.presserLang(ctx, chat, q.From), i18n.PopOutdated), false)
	shown := false
	h.rooms.Tables.EachTable(ctx, chat, func(v storage.View) {
		if !shown && v.MessageID == q.Message.MessageID && v.Table.Phase() != game.Closed {
			h.rooms.Tables.Reshow(v)
			shown = true
		}
	})
}
