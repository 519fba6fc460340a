package bot

import (
	"context"
	"errors"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// The house: the bot as a player. To the rules it is one more seat; the
// bot seats it when a seated player asks (the lobby's button, /house, or a
// solo table's /newgame), and moves for it by its strategy (package
// game/house) after a short delay:
//
//   - Its move is a timer of the table in the scheduler, at house.MoveAt
//     of the table, set by every show of the table and stored by storage
//     with the deadline (Timer.HouseAt), so that a restart re-arms it. When
//     it fires, the move is made if the table is still at the version it
//     was set for, through the same storage call and render as a player's.
//   - Like a player, it moves only once its turn is shown: while the
//     render that first shows the turn waits for Telegram's pacing, its
//     move waits too, and a render that shows the turn late starts the
//     turn's clock again (tableMessages), the house's move with it.
//   - Its chips are an account of the chat (house.ID), granted
//     storage.Options.HouseChips on its first seat there.
//   - The chat's admins may forbid it (the house setting): it is not
//     seated, and when turned off it is stood up at every table of the
//     chat at the next safe moment, as /kick does.

// houseUser is the house as storage keeps its profile; every render shows
// its name in the chat's language instead (i18n.HouseName).
var houseUser = storage.User{ID: house.ID, Name: "House"}

// houseAnswer is what a player who asked to seat or unseat the house is
// told, and whether as an alert; applied when the house sat down or stood
// up; outdated when the button was drawn for another version than the
// table's, version.
type houseAnswer struct {
	text              string
	alert             bool
	applied, outdated bool
	version           uint64
}

// seatHouse seats the house at the table at key (or, with unseat, stands
// it up from the lobby) for player, in update updateID; version, when not
// 0, is the table version the button pressed was drawn for. Only a seated
// player may ask. It shows the table and returns what to tell the player.
func (b *Bot) seatHouse(ctx context.Context, key storage.TableKey, updateID int, player game.UserID, version uint64, unseat bool, l i18n.Lang) houseAnswer {
	v, err := b.store.View(ctx, key)
	if err != nil {
		b.internal("house", err)
		return houseAnswer{text: i18n.T(l, i18n.PopError)}
	}
	t := &v.Table
	_, houseSeated := t.SeatOf(house.ID)
	i, playerSeated := t.SeatOf(player)
	switch {
	case version != 0 && version != t.Version():
		return houseAnswer{text: i18n.T(l, i18n.PopOutdated), outdated: true, version: t.Version()}
	case t.Phase() == game.Closed:
		return houseAnswer{text: i18n.T(l, i18n.PopNoTable)}
	case t.Phase().InGame():
		return houseAnswer{text: i18n.T(l, i18n.PopInProgress)}
	case !playerSeated || t.Seat(i).Leaving:
		return houseAnswer{text: i18n.T(l, i18n.PopHousePlayersOnly)}
	case unseat && !houseSeated:
		return houseAnswer{text: i18n.T(l, i18n.PopHouseAbsent)}
	case !unseat && houseSeated:
		return houseAnswer{text: i18n.T(l, i18n.PopHouseAlready)}
	case !unseat && v.Settings.HouseForbidden:
		return houseAnswer{text: houseForbidden(key.Chat, l), alert: true}
	}
	cmd, done := game.Command{Kind: game.Join, Version: t.Version()}, i18n.PopHouseSeated
	if unseat {
		cmd.Kind, done = game.Leave, i18n.PopHouseUnseated
	}
	res, err := b.store.Apply(ctx, storage.ApplyRequest{Key: key, UpdateID: int64(updateID), User: houseUser, Command: cmd, Now: b.clock.Now()})
	switch {
	case err == nil:
		b.show(res.View)
		return houseAnswer{text: i18n.T(l, done), applied: true}
	case errors.Is(err, storage.ErrDuplicate):
		return houseAnswer{} // delivered again: answered the first time
	case errors.Is(err, game.ErrBelowEntryLimit):
		return houseAnswer{text: houseNeedsChips(res.View, l), alert: true}
	}
	text, alert := b.rejection(l, err, res.View, player)
	return houseAnswer{text: text, alert: alert}
}

// houseForbidden says that the chat's admins turned the house off: in a
// private chat, its one user did.
func houseForbidden(chat int64, l i18n.Lang) string {
	if chat > 0 {
		return i18n.T(l, i18n.PopHouseOffSolo)
	}
	return i18n.T(l, i18n.PopHouseForbidden)
}

// houseNeedsChips says that the house cannot meet the entry limit of the
// view's chat: its balance and the limit.
func houseNeedsChips(v storage.View, l i18n.Lang) string {
	return i18n.T(l, i18n.PopHouseNeedChips, i18n.Chips(l, v.Balances[house.ID]), i18n.Chips(l, v.Settings.Game.EntryLimit))
}

// pressHouse handles the lobby's buttons that seat and unseat the house.
// A double tap is answered as the first tap was (see pressedAgain).
func (b *Bot) pressHouse(ctx context.Context, u update, key storage.TableKey, data callback.Data) {
	q := u.CallbackQuery
	l := b.chatLang(ctx, key.Chat, q.From)
	player := game.UserID(q.From.ID)
	a := b.seatHouse(ctx, key, u.UpdateID, player, data.Version, data.Action == callback.UnseatHouse, l)
	switch {
	case a.applied:
		b.remember(key, player, data, a.text)
	case a.outdated:
		if text, ok := b.pressedAgain(key, player, data, a.version); ok {
			b.answer(q, text, false)
			return
		}
	}
	b.answer(q, a.text, a.alert)
}

// house handles /house: the house sits down at the open table, if the
// sender sits there. With anything after it, it only says how it is used.
func (c *command) house(ctx context.Context) {
	if c.args != "" {
		// "/house off" must not seat it.
		c.say(i18n.T(c.lang, i18n.HouseUsage))
		return
	}
	u, ok := c.player()
	if !ok {
		return
	}
	a := c.b.seatHouse(ctx, c.key, c.u.UpdateID, u.ID, 0, false, c.lang)
	if a.text != "" {
		c.say(a.text)
	}
}

// soloThen gives a request that opens a table in chat its follow-up: in
// a private chat (solo play) the house sits down with the opener, unless
// the chat forbids it. In a group it changes nothing.
func (b *Bot) soloThen(ctx context.Context, chat *tgbotapi.Chat, req *storage.ApplyRequest) error {
	if !chat.IsPrivate() {
		return nil
	}
	s, err := b.store.Settings(ctx, chat.ID)
	if err != nil {
		return err
	}
	if !s.HouseForbidden {
		req.Then = &storage.FollowUp{User: houseUser, Command: game.Command{Kind: game.Join}}
	}
	return nil
}

// houseAbsent says why the house did not sit down at the solo table that
// res opened; "" when it did, or when res is a group's.
func (b *Bot) houseAbsent(res storage.Applied) string {
	l := lang(res.Settings)
	switch {
	case res.Key.Chat < 0:
		return "" // a group: the house sits down only when asked
	case res.Settings.HouseForbidden:
		return houseForbidden(res.Key.Chat, l)
	case errors.Is(res.ThenErr, game.ErrBelowEntryLimit):
		return houseNeedsChips(res.View, l)
	case res.ThenErr != nil:
		b.internal("seating the house", res.ThenErr)
	}
	return ""
}

// unseatHouse stands the house up at every table of the chat where it
// sits, at the next safe moment (a /kick): the chat's admins forbade it.
func (b *Bot) unseatHouse(ctx context.Context, chat int64) {
	b.eachTable(ctx, chat, func(v storage.View) {
		if v, stood := b.houseStandsUp(ctx, v); stood {
			b.show(v)
		}
	})
}

// houseStandsUp stands the house up at the table of v, at the next safe
// moment, where it sits though the chat forbids it, and returns the table
// as it is then, and whether it changed. The setting and the stand are two
// transactions: a restart checks every open table again (see restore).
func (b *Bot) houseStandsUp(ctx context.Context, v storage.View) (storage.View, bool) {
	i, ok := v.Table.SeatOf(house.ID)
	if !ok || v.Table.Seat(i).Leaving || !v.Settings.HouseForbidden {
		return v, false
	}
	res, err := b.store.Apply(ctx, storage.ApplyRequest{Key: v.Key, User: houseUser,
		Command: game.Command{Kind: game.Kick, Target: house.ID, Version: v.Table.Version()}, Now: b.clock.Now()})
	if err != nil {
		b.internal("unseat the house", err)
		return v, false
	}
	return res.View, true
}

// fireHouse runs the house's move at a table on its chat's goroutine.
func (b *Bot) fireHouse(key storage.TableKey, version uint64) {
	b.fireTimer("house", key, version, b.houseMove)
}

// houseMove makes the house's move at the table, if the table is still at
// version (the move was armed for it) and the house is to move: the
// command its strategy picks, applied and shown as a player's.
func (b *Bot) houseMove(ctx context.Context, key storage.TableKey, version uint64) {
	v, err := b.store.View(ctx, key)
	if err != nil {
		b.internal("house", err)
		b.timers.setHouse(key, version, b.clock.Now().Add(timeoutRetry))
		return
	}
	if v.Table.Version() != version {
		return // the table moved on; its show armed what is due now
	}
	if at := house.MoveAt(&v.Table); at.After(b.clock.Now()) {
		// The turn's clock started again since the move was armed (a
		// render showed the turn late): the move follows it.
		b.timers.setHouse(key, version, at)
		return
	}
	if b.tables.hidden(key, v.Table.TurnStarted()) {
		// Its turn is not shown yet: the house moves as a player would,
		// after seeing it. The render that shows it late starts the
		// turn's clock again, and with it the house's move (Bot.arm).
		b.timers.setHouse(key, version, b.clock.Now().Add(hiddenRecheck))
		return
	}
	cmd, ok := house.Move(&v.Table, house.ID, v.Balances[house.ID])
	if !ok {
		return
	}
	res, err := b.store.Apply(ctx, storage.ApplyRequest{Key: key, User: houseUser, Command: cmd, Now: b.clock.Now()})
	switch {
	case err == nil:
		b.show(res.View)
	case errors.Is(err, game.ErrOutdated), errors.Is(err, game.ErrNoTable):
	default:
		// A storage failure: try again later rather than leave the turn
		// to its timeout. A table that moved on answers ErrOutdated.
		b.internal("house", err)
		b.timers.setHouse(key, version, b.clock.Now().Add(timeoutRetry))
	}
}
