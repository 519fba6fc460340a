package input

import (
	"context"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/storage"
)

// checks remembers when each presser's deck check of a table was last
// sent, and of which game.
type checks struct {
	sent *expiring.Cache[checkKey, uint64]
}

// checkKey is a table and a presser of its deck check.
type checkKey struct {
	table storage.TableKey
	user  int64
}

// verifyCooldown is how long after sending a deck check the table's button
// sends its presser no other: a message per press would let anyone spend
// the bot's budget (also with forged buttons naming other games), or,
// where the check goes to the group, flood it and hold up the table's
// edits behind the group's pacing.
const verifyCooldown = 2 * time.Minute

func newChecks(c clock.Clock) *checks {
	return &checks{sent: expiring.New[checkKey, uint64](pressMost, verifyCooldown, c)}
}

// due says whether the deck check of a game of the table may be sent to
// user now, and if so records it as sent; else the answer to give
// instead. The cooldown runs from the check sent: a press meanwhile does
// not renew it. It runs on the table's chat's goroutine, one at a time
// for the table.
func (c *checks) due(key storage.TableKey, user int64, gameNo uint64, l i18n.Lang) (string, bool) {
	k := checkKey{table: key, user: user}
	last, cooling := c.sent.Get(k)
	switch {
	case !cooling:
		c.sent.Add(k, gameNo)
		return "", true
	case last == gameNo:
		return i18n.T(l, i18n.PopVerifySent), false
	}
	return i18n.T(l, i18n.PopVerifyWait), false
}

// pressVerify answers the "Check the deck" button: it sends the revealed
// decks of the game the button names (in chatLang; the toast is in l), at
// most one check to a presser of the table every verifyCooldown: in a
// group, as an ephemeral message only the presser sees (answering the
// press: send.Sender.Tell), where Telegram lets the bot send one, else to
// the group. A button naming a game that revealed no deck is forged or
// stale: it is refused and starts no cooldown, so that nobody can hold up
// the real button with forged ones.
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
	if wait, ok := h.checks.due(key, q.From.ID, gameNo, l); !ok {
		h.answer(ctx, q, wait, false)
		return
	}
	h.answer(ctx, q, "", false)
	if !botapi.IsGroup(q.Message.Chat) {
		h.rooms.Send.Reply(key.Chat, thread, 0, "", msg, nil)
		return
	}
	h.rooms.Send.Tell(send.Personal{Chat: key.Chat, Thread: thread, To: q.From.ID, QueryID: q.ID,
		Name: Profile(q.From).Name, Asked: i18n.T(chatLang, i18n.BtnVerify)}, "", msg, nil)
}
