package table

import (
	"context"
	"errors"

	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// The house: the bot as a player. To the rules it is one more seat; the
// bot seats it when a seated player asks (package input), and moves for it
// by its strategy (package game/house) after a short delay:
//
//   - Its move is a timer of the table in the scheduler, at house.MoveAt
//     of the table, set by every show of the table and stored by storage
//     with the deadline (Timer.HouseAt), so that a restart re-arms it. When
//     it fires, the move is made if the table is still at the version it
//     was set for, through the same storage call and render as a player's.
//   - Like a player, it moves only once its turn is shown: while the
//     render that first shows the turn waits for Telegram's pacing, its
//     move waits too, and a render that shows the turn late starts the
//     turn's clock again (messages), the house's move with it.
//   - Its chips are an account of the chat (house.ID), granted
//     storage.Options.HouseChips on its first seat there.
//   - The chat's admins may forbid it (the house setting): it is not
//     seated, and when turned off it is stood up at every table of the
//     chat at the next safe moment, as /kick does (UnseatHouse).

// HouseUser is the house as storage keeps its profile; every render shows
// its name in the chat's language instead (i18n.HouseName).
var HouseUser = storage.User{ID: house.ID, Name: "House"}

// UnseatHouse stands the house up at every table of the chat where it
// sits though the chat forbids it, at the next safe moment (a /kick), and
// shows each table it stood up from. Run it on the chat's goroutine.
func (k *Keeper) UnseatHouse(ctx context.Context, chat int64) {
	k.EachTable(ctx, chat, func(v storage.View) {
		if v, stood := k.houseStandsUp(ctx, v); stood {
			k.Show(v)
		}
	})
}

// houseStandsUp stands the house up at the table of v, at the next safe
// moment, where it sits though the chat forbids it, and returns the table
// as it is then, and whether it changed. The setting and the stand are two
// transactions: a restart checks every open table again (see Restore).
func (k *Keeper) houseStandsUp(ctx context.Context, v storage.View) (storage.View, bool) {
	i, ok := v.Table.SeatOf(house.ID)
	if !ok || v.Table.Seat(i).Leaving || !v.Settings.HouseForbidden {
		return v, false
	}
	res, err := k.store.Apply(ctx, storage.ApplyRequest{Key: v.Key, User: HouseUser,
		Command: game.Command{Kind: game.Kick, Target: house.ID, Version: v.Table.Version()}, Now: k.clock.Now()})
	if err != nil {
		fault.Log(ctx, k.log, "unseat the house", v.Key, err)
		return v, false
	}
	return res.View, true
}

// houseMove makes the house's move at the table, if the table is still at
// version (the move was armed for it) and the house is to move: the
// command its strategy picks, applied and shown as a player's.
func (k *Keeper) houseMove(ctx context.Context, key storage.TableKey, version uint64) {
	v, err := k.store.View(ctx, key)
	if err != nil {
		fault.Log(ctx, k.log, "house", key, err)
		k.timers.setHouse(key, version, k.clock.Now().Add(retryAfterFailure))
		return
	}
	if v.Table.Version() != version {
		return // the table moved on; its show armed what is due now
	}
	switch at := house.MoveAt(&v.Table); {
	case at.IsZero():
		// Not the house's turn. A deck waiting for its cut is none
		// either, though its wait has a clock (TurnStarted): the house
		// never cuts.
		return
	case at.After(k.clock.Now()):
		// The turn's clock started again since the move was armed (a
		// render showed the turn late): the move follows it.
		k.timers.setHouse(key, version, at)
		return
	}
	if k.msgs.notShown(key, clockOf(&v.Table)) {
		// Its turn is not shown yet: the house moves as a player would,
		// after seeing it. The render that shows it late starts the
		// turn's clock again, and with it the house's move (arm).
		k.timers.setHouse(key, version, k.clock.Now().Add(notShownRecheck))
		return
	}
	cmd, ok := house.Move(&v.Table, house.ID, v.Balances[house.ID])
	if !ok {
		return
	}
	res, err := k.store.Apply(ctx, storage.ApplyRequest{Key: key, User: HouseUser, Command: cmd, Now: k.clock.Now()})
	switch {
	case err == nil:
		k.Show(res.View)
	case errors.Is(err, game.ErrOutdated), errors.Is(err, game.ErrNoTable):
	default:
		// A storage failure: try again later rather than leave the turn
		// to its timeout. A table that moved on answers ErrOutdated.
		fault.Log(ctx, k.log, "house", key, err)
		k.timers.setHouse(key, version, k.clock.Now().Add(retryAfterFailure))
	}
}
