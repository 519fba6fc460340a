package render

import (
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// betsPerRow is how many bet buttons share a row.
const betsPerRow = 3

// keyboard returns the buttons of the table's phase. A table never opened
// (version 0) has none: a button carries the version it was drawn for, and
// callback data never carries 0 (see package callback).
func keyboard(in Input) [][]Button {
	t := &in.Table
	ver := t.Version()
	if ver == 0 {
		return nil
	}
	btn := func(key i18n.Key, a callback.Action) Button {
		return Button{Text: i18n.T(in.Lang, key), Data: callback.Data{Action: a, Version: ver}.String()}
	}
	var rows [][]Button
	switch phase := t.Phase(); {
	case phase == game.Lobby:
		start := i18n.BtnStart
		if t.Finished() {
			start = i18n.BtnPlayAgain
		}
		rows = append(rows, []Button{btn(i18n.BtnJoin, callback.Join), btn(i18n.BtnLeave, callback.Leave), btn(start, callback.Start)})
		_, seated := t.SeatOf(house.ID)
		switch {
		case seated:
			rows = append(rows, []Button{btn(i18n.BtnUnseatHouse, callback.UnseatHouse)})
		case t.NumSeats() < game.MaxSeats && !in.HouseForbidden:
			rows = append(rows, []Button{btn(i18n.BtnSeatHouse, callback.SeatHouse)})
		}
	case phase.InGame() && houseTurn(t):
		// The house moves by itself: nothing for anyone to press.
	case phase == game.Betting:
		rows = betRows(in)
	case phase == game.Drawing:
		rows = append(rows, []Button{btn(i18n.BtnHit, callback.Hit), btn(i18n.BtnStand, callback.Stand)})
	default:
		rows = append(rows, []Button{btn(i18n.BtnNewTable, callback.NewTable)})
	}
	if _, ok := t.Revealed(); ok && t.Finished() {
		rows = append(rows, []Button{{
			Text: i18n.T(in.Lang, i18n.BtnVerify),
			Data: callback.Data{Action: callback.Verify, Game: t.Game()}.String(),
		}})
	}
	return rows
}

// houseTurn reports whether the house is to move at t.
func houseTurn(t *game.Table) bool {
	i, ok := t.Turn()
	return ok && t.Seat(i).User == house.ID
}

// betRows returns the bets offered to the player whose turn it is, labelled
// with the amount and the option it came from: "10 · ×1", "5 · ½",
// "40 · bank", or "35 · all in" when the player's balance caps it.
func betRows(in Input) [][]Button {
	t := &in.Table
	turn, ok := t.Turn()
	if !ok {
		return nil
	}
	offers := t.Offers(in.Balances[t.Seat(turn).User])
	var rows [][]Button
	for i, o := range offers {
		if i%betsPerRow == 0 {
			rows = append(rows, nil)
		}
		label := i18n.BetOption(in.Lang, o.Option)
		if o.Capped {
			label = i18n.T(in.Lang, i18n.BetAllIn)
			if o.Amount == t.Bank() {
				label = i18n.T(in.Lang, i18n.BetBank)
			}
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], Button{
			Text: i18n.Number(o.Amount) + " · " + label,
			Data: callback.Data{Action: callback.Bet, Version: t.Version(), Amount: o.Amount}.String(),
		})
	}
	return rows
}
