package input

import (
	"context"
	"errors"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/table"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// Seating the house when a seated player asks: the lobby's buttons,
// /house, or a solo table's /newgame. Its moves are the tables' (package
// table).

// houseAnswer is what a player who asked to seat or unseat the house is
// told, and whether as an alert; applied when the house sat down or stood
// up; outdated when the button was drawn for another version than the
// table's, version; err, when not applied, the error that refused it, if
// any (nil for a refusal of seatHouse's own); view, the table as it left
// or found it (the zero View when it could not be read).
type houseAnswer struct {
	text              string
	alert             bool
	applied, outdated bool
	version           uint64
	err               error
	view              storage.View
}

// seatHouse seats the house at the table at key (or, with unseat, stands
// it up from the lobby) for player, in update updateID; version, when not
// 0, is the table version the button pressed was drawn for. Only a seated
// player may ask. It shows the table and returns what to tell the player.
func (h *Handler) seatHouse(ctx context.Context, key storage.TableKey, updateID int, player game.UserID, version uint64, unseat bool, l i18n.Lang) houseAnswer {
	v, err := h.tables.View(ctx, key)
	if err != nil {
		fault.Log(ctx, h.log, "house", key, err)
		return houseAnswer{text: i18n.T(l, i18n.PopError), err: err}
	}
	if a, refused := houseRefuses(v, player, version, unseat, l); refused {
		a.view = v
		return a
	}
	t := &v.Table
	cmd, done := game.Command{Kind: game.Join, Version: t.Version()}, i18n.PopHouseSeated
	if unseat {
		cmd.Kind, done = game.Leave, i18n.PopHouseUnseated
	}
	res, err := h.tables.Apply(ctx, storage.ApplyRequest{Key: key, UpdateID: int64(updateID), User: table.HouseUser, Command: cmd, Now: h.clock.Now()})
	switch {
	case err == nil:
		h.rooms.Tables.Show(res.View)
		return houseAnswer{text: i18n.T(l, done), applied: true, view: res.View}
	case errors.Is(err, storage.ErrDuplicate):
		return houseAnswer{err: err, view: res.View} // delivered again: answered the first time
	case errors.Is(err, game.ErrBelowEntryLimit):
		return houseAnswer{text: houseNeedsChips(res.View, l), alert: true, err: err, view: res.View}
	}
	text, alert := h.rejection(ctx, l, err, res.View, player)
	return houseAnswer{text: text, alert: alert, err: err, view: res.View}
}

// houseRefuses returns the answer to a player who asks, at the table v,
// to seat the house (or, with unseat, to stand it up) with a button drawn
// for version (0: none), and true, when the table's state refuses it.
func houseRefuses(v storage.View, player game.UserID, version uint64, unseat bool, l i18n.Lang) (houseAnswer, bool) {
	t := &v.Table
	_, houseSeated := t.SeatOf(house.ID)
	i, playerSeated := t.SeatOf(player)
	switch {
	case version != 0 && version != t.Version():
		return houseAnswer{text: i18n.T(l, i18n.PopOutdated), outdated: true, version: t.Version(), err: game.ErrOutdated}, true
	case t.Phase() == game.Closed:
		return houseAnswer{text: i18n.T(l, i18n.PopNoTable)}, true
	case t.Phase().InGame() && playerSeated && !t.Seat(i).Leaving && unseat:
		return houseAnswer{text: i18n.T(l, i18n.PopHouseStays)}, true
	case t.Phase().InGame() && playerSeated && !t.Seat(i).Leaving:
		// The house joins only a lobby: told to a player, who can ask
		// again then.
		return houseAnswer{text: i18n.T(l, i18n.PopHouseInGame)}, true
	case t.Phase().InGame():
		return houseAnswer{text: i18n.T(l, i18n.PopInProgress)}, true
	case !playerSeated || t.Seat(i).Leaving:
		return houseAnswer{text: i18n.T(l, i18n.PopHousePlayersOnly)}, true
	case unseat && !houseSeated:
		return houseAnswer{text: i18n.T(l, i18n.PopHouseAbsent)}, true
	case !unseat && houseSeated:
		return houseAnswer{text: i18n.T(l, i18n.PopHouseAlready)}, true
	case !unseat && v.Settings.HouseForbidden:
		return houseAnswer{text: houseForbidden(v.Key.Chat, l), alert: true}, true
	}
	return houseAnswer{}, false
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

// seatHouseCommand handles /house: the house sits down at the open table,
// if the sender sits there. With anything after it, it only says how it
// is used.
func seatHouseCommand(ctx context.Context, c *command) {
	if c.args != "" {
		// "/house off" must not seat it.
		c.tell(i18n.T(c.lang, i18n.HouseUsage))
		return
	}
	u, ok := c.player()
	if !ok {
		return
	}
	a := c.h.seatHouse(ctx, c.key, c.u.UpdateID, u.ID, 0, false, c.lang)
	switch {
	case a.text == "":
	case a.applied:
		c.say(a.text) // the house seated: the group sees it
	default:
		c.tell(a.text)
	}
}

// solo gives a request that opens a table in chat its chained command: in a
// private chat (solo play) the house sits down with the opener, unless the
// chat forbids it. In a group it changes nothing.
func (h *Handler) solo(ctx context.Context, chat *tgbotapi.Chat, req *storage.ApplyRequest) error {
	if !chat.IsPrivate() {
		return nil
	}
	s, err := h.tables.Settings(ctx, chat.ID)
	if err != nil {
		return err
	}
	if !s.HouseForbidden {
		req.Then = &storage.Chained{User: table.HouseUser, Command: game.Command{Kind: game.Join}}
	}
	return nil
}

// houseAbsent says, in l, why the house did not sit down at the solo table
// that res opened; "" when it did, or when res is a group's.
func (h *Handler) houseAbsent(ctx context.Context, res storage.Applied, l i18n.Lang) string {
	switch {
	case res.Key.Chat < 0:
		return "" // a group: the house sits down only when asked
	case res.Settings.HouseForbidden:
		return houseForbidden(res.Key.Chat, l)
	case errors.Is(res.ThenErr, game.ErrBelowEntryLimit):
		return houseNeedsChips(res.View, l)
	case res.ThenErr != nil:
		fault.Log(ctx, h.log, "seating the house", res.Key, res.ThenErr)
	}
	return ""
}
