package input

import (
	"context"
	"errors"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Press handles a button press. Nothing in the callback data is trusted:
// it is parsed strictly, and who may do what is checked against the stored
// table by game.Apply.
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
	if q.Message.Chat.IsPrivate() {
		// A private chat holds a solo table, and the list of the groups
		// the user follows, whose buttons stop a follow.
		if data, err := callback.Parse(q.Data); err == nil && data.Action == callback.Unfollow {
			h.pressUnfollow(ctx, q, data.Chat)
			return
		}
	}
	if q.Message.Date == 0 {
		h.pressInaccessible(ctx, q)
		return
	}
	key := storage.TableKey{Chat: chat, Thread: int64(u.Thread)}
	data, err := callback.Parse(q.Data)
	if err == nil && data.Action.TableAction() {
		h.pressTable(ctx, u, key, data) // the language comes with the table
		return
	}
	lang := h.presserLang(ctx, chat, q.From)
	switch {
	case err != nil:
		h.answer(ctx, q, i18n.T(lang, i18n.PopBadButton), false)
	case data.Action == callback.Setting:
		h.pressSetting(ctx, q, key, data, lang)
	case data.Action == callback.SettingOpen || data.Action == callback.SettingBack:
		h.pressSettingsLevel(ctx, q, key, data, lang)
	case data.Action == callback.SettingInfo:
		// The icon buttons of the settings panels drawn before the list.
		h.answer(ctx, q, render.SettingInfo(lang, data.Field), true)
	case data.Action == callback.Verify:
		h.pressVerify(ctx, q, key, u.Thread, data.Game, lang, h.chatLang(ctx, chat, q.From))
	default:
		h.answer(ctx, q, i18n.T(lang, i18n.PopBadButton), false)
	}
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
			h.rooms.Tables.Show(v)
			shown = true
		}
	})
}

// tableCommands maps the table buttons to game commands.
var tableCommands = map[callback.Action]game.CommandKind{
	callback.Join:       game.Join,
	callback.Leave:      game.Leave,
	callback.Start:      game.Start,
	callback.Bet:        game.Bet,
	callback.Hit:        game.Hit,
	callback.Stand:      game.Stand,
	callback.NewTable:   game.Open,
	callback.InlineOpen: game.Open,
}

// TablePress is a press of a table's button, on a chat's message or an
// inline message.
type TablePress struct {
	// Update is the press's update: its callback query.
	Update botapi.Update
	// Key is the table the pressed message shows.
	Key storage.TableKey
	// Data is the button's, parsed: a table action (TableAction), or
	// callback.InlineOpen.
	Data callback.Data
	// Chat is the chat the pressed message is in; nil for an inline
	// message, whose chat the bot is not in (no new message can go there:
	// a new table stays in the message, and no notice announces it).
	Chat *tgbotapi.Chat
	// Inline is, for an inline message, the record a press that opens the
	// table gives it (storage.ApplyRequest.Inline).
	Inline *storage.Inline
}

// pressTable applies a table button of a chat's message.
func (h *Handler) pressTable(ctx context.Context, u botapi.Update, key storage.TableKey, data callback.Data) {
	h.PressTable(ctx, TablePress{Update: u, Key: key, Data: data, Chat: u.CallbackQuery.Message.Chat})
}

// PressTable applies a table button, answers the presser and shows the
// table. Its version must be one the table had: game.Apply checks no
// version given as 0, and a press must never skip that check, but for
// callback.InlineOpen, which opens a table that was never opened (or
// seats the presser, as Join at the table's version, at one opened since
// the button was drawn). Run it on the table's chat's goroutine.
func (h *Handler) PressTable(ctx context.Context, p TablePress) {
	u, key, data := p.Update, p.Key, p.Data
	q := u.CallbackQuery
	from := Profile(q.From)
	switch {
	case botapi.StandIn(int64(from.ID)):
		h.answer(ctx, q, i18n.T(h.presserLang(ctx, key.Chat, q.From), i18n.PopAnonymous), true)
		return
	case data.Version == 0 && data.Action != callback.InlineOpen:
		h.answer(ctx, q, i18n.T(h.presserLang(ctx, key.Chat, q.From), i18n.PopBadButton), false)
		return
	case data.Action == callback.SeatHouse || data.Action == callback.UnseatHouse:
		h.pressHouse(ctx, u, key, data)
		return
	}
	cmd := game.Command{Kind: tableCommands[data.Action], User: from.ID, Name: from.Name,
		Amount: data.Amount, Version: data.Version}
	if data.Action == callback.InlineOpen {
		cmd.Amount = 0
	}
	req := h.request(key, u.UpdateID, from, cmd)
	if data.Action == callback.InlineOpen {
		req.Language = data.Lang // the language the result spoke
	}
	req.Inline = p.Inline
	// A closed table's message may be far up the chat: its New table opens
	// the lobby at the bottom, as /newgame does, and the old message stays
	// the record of its last game, or goes when it held none. An inline
	// message stays where it is.
	req.Repost = data.Action == callback.NewTable && p.Chat != nil
	if cmd.Kind == game.Open && p.Chat != nil {
		// In a private chat, New table opens a solo table, as /newgame.
		if err := h.solo(ctx, p.Chat, &req); err != nil {
			fault.Log(ctx, h.log, "new table", key, err)
			h.answer(ctx, q, i18n.T(h.presserLang(ctx, key.Chat, q.From), i18n.PopError), false)
			return
		}
	}
	res, err := h.tables.Apply(ctx, req)
	if errors.Is(err, game.ErrTableOpen) && data.Action == callback.InlineOpen {
		// Opened by another press since the button was drawn: sit down.
		cmd = game.Command{Kind: game.Join, User: from.ID, Name: from.Name, Version: res.Table.Version()}
		req = h.request(key, u.UpdateID, from, cmd)
		res, err = h.tables.Apply(ctx, req)
	}
	if err == nil && cmd.Kind == game.Open && p.Chat != nil {
		h.rooms.Notices.Opened(res.View, from, p.Chat)
	}
	lang := i18n.ForPresser(res.Settings.Language, from.Language)
	if err != nil {
		if errors.Is(err, storage.ErrDuplicate) {
			// Delivered again (after a crash, before its answer): the same
			// answer as the first time, from what storage kept of it.
			h.answer(ctx, q, pressToast(lang, data, cmd, res), false)
			return
		}
		if errors.Is(err, game.ErrOutdated) {
			if text, ok := h.presses.again(key, from.ID, data, res.Table.Version()); ok {
				// A double tap: the second press of a button the first
				// one took away. It is told nothing new: the first one's
				// toast, or nothing where that was silent.
				h.answer(ctx, q, text, false)
				return
			}
		}
		text, alert := h.rejection(ctx, lang, err, res.View, from.ID)
		h.answer(ctx, q, text, alert)
		return
	}
	text, alert := pressToast(lang, data, cmd, res), false
	if cmd.Kind == game.Open && p.Chat != nil {
		if why := h.houseAbsent(ctx, res, lang); why != "" {
			text, alert = why, true
		}
	}
	h.presses.remember(key, from.ID, data, text)
	h.answer(ctx, q, text, alert)
	h.rooms.Tables.Show(res.View)
}

// pressToast is the toast of a press that applied (render.Toast): the
// opening of an inline table seats its presser, who pressed Join.
func pressToast(lang i18n.Lang, data callback.Data, cmd game.Command, res storage.Applied) string {
	if data.Action == callback.InlineOpen {
		return i18n.T(lang, i18n.PopJoined)
	}
	return render.Toast(lang, cmd, res.Outcome, &res.Table)
}

// presses remembers each table's last button press that applied, so that
// a double tap (the second press of a button the first one took away) is
// told what the first was, not that the table moved on.
type presses struct {
	last *expiring.Cache[storage.TableKey, pressed]
}

// pressed is a table's last button press that applied: who pressed what,
// and the toast they got.
type pressed struct {
	user  game.UserID
	data  callback.Data
	toast string
}

// The bounds of presses: a double tap comes within a second or two.
const (
	pressMemory = time.Minute
	pressMost   = 10_000
)

func newPresses(c clock.Clock) *presses {
	return &presses{last: expiring.New[storage.TableKey, pressed](pressMost, pressMemory, c)}
}

// remember records the press that just applied to the table, and the toast
// it got.
func (p *presses) remember(key storage.TableKey, user game.UserID, data callback.Data, toast string) {
	p.last.Add(key, pressed{user: user, data: data, toast: toast})
}

// again returns the toast of the table's last press that applied, when a
// press by user with data repeats it and nothing else moved the table
// since (it is at the version after the button's); false otherwise, or
// when that press is forgotten (the bot restarted).
func (p *presses) again(key storage.TableKey, user game.UserID, data callback.Data, version uint64) (string, bool) {
	last, ok := p.last.Get(key)
	if !ok || last.user != user || last.data != data || version != data.Version+1 {
		return "", false
	}
	return last.toast, true
}

// checks remembers when each table's deck check was last sent, and of
// which game.
type checks struct {
	sent *expiring.Cache[storage.TableKey, uint64]
}

// verifyCooldown is how long after sending a deck check the table's button
// sends no other: a message per press would let anyone flood the chat
// (also with forged buttons naming other games), and hold up the table's
// edits behind the group's pacing.
const verifyCooldown = 2 * time.Minute

func newChecks(c clock.Clock) *checks {
	return &checks{sent: expiring.New[storage.TableKey, uint64](pressMost, verifyCooldown, c)}
}

// due says whether the deck check of a game of the table may be sent now,
// and if so records it as sent; else the answer to give instead. The
// cooldown runs from the check sent: a press meanwhile does not renew it.
// It runs on the table's chat's goroutine, one at a time for the table.
func (c *checks) due(key storage.TableKey, gameNo uint64, l i18n.Lang) (string, bool) {
	last, cooling := c.sent.Get(key)
	switch {
	case !cooling:
		c.sent.Add(key, gameNo)
		return "", true
	case last == gameNo:
		return i18n.T(l, i18n.PopVerifySent), false
	}
	return i18n.T(l, i18n.PopVerifyWait), false
}

// pressVerify answers the "Check the deck" button: it sends the revealed
// decks of the game the button names (in chatLang; the toast is in l), at most one check per table every
// verifyCooldown. A button naming a game that revealed no deck is forged
// or stale: it is refused and starts no cooldown, so that nobody can hold
// up the real button with forged ones.
func (h *Handler) pressVerify(ctx context.Context, q *tgbotapi.CallbackQuery, key storage.TableKey, thread int, gameNo uint64, l, chatLang i18n.Lang) {
	msg, found, err := h.verifyMessage(ctx, key, gameNo, chatLang)
	switch {
	case err != nil:
		h.answer(ctx, q, "", false)
		fault.Log(ctx, h.log, "verify", key, err)
		return
	case !found:
		h.answer(ctx, q, i18n.T(l, i18n.PopBadButton), false)
		return
	}
	if wait, ok := h.checks.due(key, gameNo, l); !ok {
		h.answer(ctx, q, wait, false)
		return
	}
	h.answer(ctx, q, "", false)
	h.rooms.Send.Reply(key.Chat, thread, 0, "", msg, nil)
}
