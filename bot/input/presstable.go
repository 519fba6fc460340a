package input

import (
	"context"
	"errors"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// TablePress is a press of a table's button, on a chat's message or an
// inline message.
type TablePress struct {
	// Update is the press's update: its callback query.
	Update botapi.Update
	// Key is the table the pressed message shows.
	Key storage.TableKey
	// Data is the button's, parsed: of a row whose effect is
	// button.Apply, button.OpenInline or button.House.
	Data callback.Data
	// Chat is the chat the pressed message is in; nil for an inline
	// message, whose chat the bot is not in (no new message can go there:
	// a new table stays in the message, and no notice announces it).
	Chat *tgbotapi.Chat
	// Inline is, for an inline message, the record a press that opens the
	// table gives it (storage.ApplyRequest.Inline).
	Inline *storage.Inline
}

// PressTable applies a table button as its row says (button.Row: its
// command, and the fields that say how), answers the presser and shows
// the table. A press by a stand-in (an anonymous admin, a channel) is
// refused; so is one of a row that carries the table's version
// (Versioned) given as 0, as game.Apply checks no version given as 0 and
// a press must never skip that check. Who may press is checked against the
// stored table by game.Apply (the house's buttons: by seatHouse). A press
// delivered again gets the answer the first one got, a double tap the
// first tap's toast. Run it on the table's chat's goroutine.
func (h *Handler) PressTable(ctx context.Context, p TablePress) {
	u, key, data := p.Update, p.Key, p.Data
	q := u.CallbackQuery
	from := Profile(q.From)
	row, ok := button.Of(data.Action)
	switch {
	case botapi.StandIn(int64(from.ID)):
		h.answer(ctx, q, i18n.T(h.presserLang(ctx, key.Chat, q.From), i18n.PopAnonymous), true)
		return
	case !ok || !tableEffects[row.Does] || row.Versioned && data.Version == 0:
		h.answer(ctx, q, i18n.T(h.presserLang(ctx, key.Chat, q.From), i18n.PopBadButton), false)
		return
	case row.Does == button.House:
		h.pressHouse(ctx, u, key, data, row.Command == game.Leave)
		return
	}
	inChat := p.Chat != nil
	cmd := game.Command{Kind: row.Command, User: from.ID, Name: from.Name, Version: data.Version}
	if row.BetAmount {
		cmd.Amount = data.Amount
	}
	if row.CutsTap {
		cmd.Text = callback.TapText(data.Tap)
	}
	req := h.request(key, u.UpdateID, from, cmd)
	if row.ButtonLang {
		req.Language = data.Lang
	}
	req.Inline = p.Inline
	// An inline message stays where it is: it cannot be posted anew.
	req.Repost = row.Repost && inChat
	if row.OpensSolo && inChat {
		if err := h.solo(ctx, p.Chat, &req); err != nil {
			fault.Log(ctx, h.log, "new table", key, err)
			h.answer(ctx, q, i18n.T(h.presserLang(ctx, key.Chat, q.From), i18n.PopError), false)
			return
		}
	}
	res, err := h.tables.Apply(ctx, req)
	if row.FallsBackToJoin && errors.Is(err, game.ErrTableOpen) {
		cmd = game.Command{Kind: game.Join, User: from.ID, Name: from.Name, Version: res.Table.Version()}
		req = h.request(key, u.UpdateID, from, cmd)
		res, err = h.tables.Apply(ctx, req)
	}
	lang := i18n.ForPresser(res.Settings.Language, from.Language)
	if err != nil {
		if errors.Is(err, storage.ErrDuplicate) {
			// Delivered again (after a crash, before its answer): the same
			// answer as the first time, from what storage kept of it.
			h.answer(ctx, q, pressToast(lang, row, cmd, res), false)
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
			if text, ok := staleCut(lang, row, &res.Table); ok {
				h.answer(ctx, q, text, false)
				return
			}
		}
		text, alert := h.rejection(ctx, lang, err, res.View, from.ID)
		h.answer(ctx, q, text, alert)
		return
	}
	text, alert := pressToast(lang, row, cmd, res), false
	if row.OpensSolo && inChat {
		if why := h.houseAbsent(ctx, res, lang); why != "" {
			text, alert = why, true
		}
	}
	h.presses.remember(key, from.ID, data, text)
	h.answer(ctx, q, text, alert)
	if row.Announces && inChat {
		h.showOpened(res.View, from, p.Chat)
		return
	}
	h.rooms.Tables.Show(res.View)
}

// tableEffects are the effects PressTable applies.
var tableEffects = map[button.Effect]bool{button.Apply: true, button.OpenInline: true, button.House: true}

// pressToast is the toast of a press that applied: the row's own
// (button.Row.Toast), or what happened (render.Toast).
func pressToast(lang i18n.Lang, row button.Row, cmd game.Command, res storage.Applied) string {
	if row.Toast != "" {
		return i18n.T(lang, row.Toast)
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
