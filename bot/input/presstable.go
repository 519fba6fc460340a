package input

import (
	"context"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
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

// PressTable applies a table button (Handler.Act, which says how) and
// answers the presser: the callback query's front end of Act. A press
// delivered again gets the answer the first one got, a double tap the
// first tap's toast. Run it on the table's chat's goroutine.
func (h *Handler) PressTable(ctx context.Context, p TablePress) {
	q := p.Update.CallbackQuery
	_, _ = h.Act(ctx, Act{Key: p.Key, From: Profile(q.From), Data: p.Data, UpdateID: p.Update.UpdateID,
		Chat: p.Chat, Inline: p.Inline, Answer: func(ctx context.Context, text string, alert bool) {
			h.answer(ctx, q, text, alert)
		}})
}

// tableEffects are the effects Act applies.
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
