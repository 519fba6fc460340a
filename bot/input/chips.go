package input

import (
	"context"
	"errors"
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/table"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// Limits of the community commands.
const (
	topSize     = 10
	historySize = 10
)

// balance handles /balance: the sender's chips in the chat.
func balance(ctx context.Context, c *command) {
	u, ok := c.player()
	if !ok {
		return
	}
	acc, err := c.h.chips.Account(ctx, c.m.Chat.ID, u, c.h.clock.Now())
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.sayMessage(render.Balance(u.Name, acc.Balance, c.lang))
}

// bonus handles /bonus: the daily bonus, or when it can next be claimed.
func bonus(ctx context.Context, c *command) {
	u, ok := c.player()
	if !ok {
		return
	}
	now := c.h.clock.Now()
	got, err := c.h.chips.ClaimBonus(ctx, c.m.Chat.ID, u, now)
	switch {
	case err == nil:
		c.sayMessage(render.BonusGranted(u.Name, bonusView(got), c.lang))
	case errors.Is(err, storage.ErrBonusTooSoon):
		c.sayMessage(render.BonusWait(u.Name, got.Next.Sub(now), c.lang))
	case errors.Is(err, storage.ErrBonusNotNeeded):
		s, _ := c.h.tables.Settings(ctx, c.m.Chat.ID)
		c.sayMessage(render.BonusNotNeeded(u.Name, s.Game.EntryLimit, bonusView(got), c.lang))
	default:
		c.fail(ctx, err)
	}
}

// grant handles /grant AMOUNT in reply to a user (the bot's owners only):
// chips out of nowhere, ledgered as a grant. In reply to one of the bot's
// own messages, it tops up the house.
func grant(ctx context.Context, c *command) {
	u, name, ok := c.grantee()
	if !ok {
		if !c.repliedToChat() {
			c.tell(i18n.T(c.lang, i18n.GrantUsage))
		}
		return
	}
	amount, err := strconv.ParseInt(c.args, 10, 64)
	if err != nil || amount < 1 || amount > storage.MaxGrant {
		c.tell(i18n.T(c.lang, i18n.GrantBad, i18n.Number(storage.MaxGrant)))
		return
	}
	bal, err := c.h.chips.Grant(ctx, c.m.Chat.ID, u, amount, int64(c.u.UpdateID), c.h.clock.Now())
	if errors.Is(err, storage.ErrDuplicate) {
		return // delivered again after a restart: granted and answered the first time
	}
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.sayMessage(render.GrantDone(name, amount, bal, c.lang))
}

// grantee returns who a /grant gives chips to, and their name: the person
// whose message it replies to, or the house for a reply to one of the
// bot's own messages; false when it replies to neither.
func (c *command) grantee() (storage.User, string, bool) {
	if who, ok := c.replied(); ok {
		return Profile(who), who.FirstName, true
	}
	if r := c.m.ReplyToMessage; r != nil && r.SenderChat == nil && r.From != nil && r.From.ID == c.h.self().ID {
		return table.HouseUser, i18n.T(c.lang, i18n.HouseName), true
	}
	return storage.User{}, "", false
}

// top handles /top: the chat's leaderboard by balance, the house apart.
func top(ctx context.Context, c *command) {
	rows, err := c.h.chips.Leaderboard(ctx, c.m.Chat.ID, topSize+1)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	players := PlayerStandings(rows)
	players = players[:min(len(players), topSize)]
	var houseRow *render.Standing
	switch st, err := c.h.chips.Standing(ctx, c.m.Chat.ID, house.ID); {
	case err == nil:
		row := standingView(st)
		houseRow = &row
	case !errors.Is(err, storage.ErrNotFound):
		fault.Log(ctx, c.h.log, "top", c.key, err)
	}
	c.sayMessage(render.Top(players, houseRow, c.lang))
}

// stats handles /stats: the results of the sender, or of the user whose
// message it replies to.
func stats(ctx context.Context, c *command) {
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
	st, err := c.h.chips.Stats(ctx, c.m.Chat.ID, game.UserID(who.ID))
	if errors.Is(err, storage.ErrNotFound) {
		c.sayMessage(render.StatsNone(who.FirstName, c.lang))
		return
	}
	if err != nil {
		c.fail(ctx, err)
		return
	}
	acc, err := c.h.chips.Account(ctx, c.m.Chat.ID, Profile(who), c.h.clock.Now())
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.sayMessage(render.Stats(who.FirstName, st, acc.Balance, c.lang))
}

// history handles /history: the sender's last chip movements.
func history(ctx context.Context, c *command) {
	u, ok := c.player()
	if !ok {
		return
	}
	// Twice the lines: a won duel's bet and payout make one line.
	entries, err := c.h.chips.History(ctx, c.m.Chat.ID, u.ID, 2*historySize+1)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		c.fail(ctx, err)
		return
	}
	c.sayMessage(render.History(u.Name, historyView(entries), historySize, c.lang))
}

// audit handles /audit (admins): whether the chat's chips add up.
func audit(ctx context.Context, c *command) {
	a, err := c.h.chips.Audit(ctx, c.m.Chat.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		c.fail(ctx, err)
		return
	}
	switch {
	case err != nil:
		a = storage.Audit{Chat: c.m.Chat.ID, OK: true} // a chat the bot knows nothing of: no chips, which add up
	case !a.OK:
		c.h.log.ErrorContext(ctx, "audit: the chips do not add up", "chat", a.Chat, "problems", a.Problems)
	}
	c.sayMessage(render.Audit(auditView(a), c.lang))
}

// verify handles "/verify N": the decks of game N of this table, revealed.
func verify(ctx context.Context, c *command) {
	var n uint64
	if c.args == "" {
		// No number: the table's last game.
		if v, err := c.h.tables.View(ctx, c.key); err == nil {
			n = v.Table.Game()
		}
	} else if x, err := strconv.ParseUint(c.args, 10, 64); err == nil {
		n = x
	}
	if n == 0 {
		c.say(i18n.T(c.lang, i18n.VerifyUsage))
		return
	}
	msg, found, err := c.h.verifyMessage(ctx, c.key, n, c.lang)
	switch {
	case err != nil:
		c.fail(ctx, err)
	case !found:
		c.verifyMissing(ctx, n)
	default:
		c.sayMessage(msg)
	}
}

// verifyMissing says why /verify N found no deck: the table never had a
// game N (it has had fewer games, or none), or game N's decks are not
// kept.
func (c *command) verifyMissing(ctx context.Context, n uint64) {
	v, err := c.h.tables.View(ctx, c.key)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	switch played := v.Table.Game(); {
	case played == 0:
		c.say(i18n.T(c.lang, i18n.VerifyNoGameYet))
	case n > played:
		c.say(i18n.T(c.lang, i18n.VerifyNoSuchGame, strconv.FormatUint(n, 10), strconv.FormatUint(played, 10)))
	default:
		c.say(i18n.T(c.lang, i18n.VerifyNone, strconv.FormatUint(n, 10)))
	}
}
