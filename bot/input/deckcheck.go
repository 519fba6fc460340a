package input

import (
	"context"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/storage"
)

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
