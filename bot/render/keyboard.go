package render

import (
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// betsPerRow is the most bet buttons that share a row.
const betsPerRow = 3

// styles colour the buttons a player looks for first (Bot API 9.4): the
// move that plays on (Start, Play again, Hit, a new table) in blue, the
// one that takes a seat or keeps a hand (Join, Stand) in green. The others
// keep the app's own colour; every label means the same without colour.
var styles = map[callback.Action]message.Style{
	callback.Start:    message.Primary,
	callback.Hit:      message.Primary,
	callback.NewTable: message.Primary,
	callback.Join:     message.Success,
	callback.Stand:    message.Success,
}

// keyboard returns the buttons of the table's phase, laid out for a phone
// (rows): in a lobby after a game, "Play again ▶" gets a row of its own. A
// table never opened
// (version 0) has none: a button carries the version it was drawn for, and
// callback data never carries 0 (see package callback).
func keyboard(in Input) [][]message.Button {
	t := &in.Table
	ver := t.Version()
	if ver == 0 {
		return nil
	}
	btn := func(key i18n.Key, a callback.Action) message.Button {
		return message.Button{Text: i18n.T(in.Lang, key), Data: callback.Data{Action: a, Version: ver}.String(), Style: styles[a]}
	}
	var kb [][]message.Button
	switch phase := t.Phase(); {
	case phase == game.Lobby && in.Solo:
		kb = soloLobby(t, in.HouseForbidden, btn)
	case phase == game.Lobby:
		// A full table offers no seat: no Join.
		var lobby []message.Button
		if t.NumSeats() < game.MaxSeats {
			lobby = append(lobby, btn(i18n.BtnJoin, callback.Join))
		}
		kb = rows(append(lobby, btn(i18n.BtnLeave, callback.Leave), btn(startKey(t), callback.Start)), 3)
		_, seated := t.SeatOf(house.ID)
		switch {
		case seated:
			kb = append(kb, []message.Button{btn(i18n.BtnUnseatHouse, callback.UnseatHouse)})
		case t.NumSeats() < game.MaxSeats && !in.HouseForbidden:
			kb = append(kb, []message.Button{btn(i18n.BtnSeatHouse, callback.SeatHouse)})
		}
	case phase.InGame() && houseTurn(t):
		// The house moves by itself: nothing for anyone to press.
	case phase == game.Betting:
		kb = betRows(in)
	case phase == game.Drawing:
		kb = rows([]message.Button{btn(i18n.BtnHit, callback.Hit), btn(i18n.BtnStand, callback.Stand)}, 2)
	default:
		kb = [][]message.Button{{btn(i18n.BtnNewTable, callback.NewTable)}}
	}
	if _, ok := t.Revealed(); ok && t.Finished() {
		verify := message.Button{Text: i18n.T(in.Lang, i18n.BtnVerify), Data: callback.Data{Action: callback.Verify, Game: t.Game()}.String()}
		if in.Inline {
			// No /top in a chat the bot is not in: a button for it.
			kb = append(kb, rows([]message.Button{verify, btn(i18n.BtnTop, callback.Top)}, 2)...)
		} else {
			kb = append(kb, []message.Button{verify})
		}
	}
	return kb
}

// startKey is the label of a lobby's start: Play again after a game.
func startKey(t *game.Table) i18n.Key {
	if t.Finished() {
		return i18n.BtnPlayAgain
	}
	return i18n.BtnStart
}

// soloLobby returns the buttons of a solo lobby: Start once its player
// and the house sit, else the house's seat while it may sit, and Close,
// which stands the player up and the house with them; Join only when the
// player stood up (left in a game). No button unseats the house: the
// table is for playing it.
func soloLobby(t *game.Table, houseForbidden bool, btn func(i18n.Key, callback.Action) message.Button) [][]message.Button {
	_, houseSeated := t.SeatOf(house.ID)
	players := t.NumSeats()
	if houseSeated {
		players--
	}
	if players == 0 {
		return [][]message.Button{{btn(i18n.BtnJoin, callback.Join)}}
	}
	var row []message.Button
	switch {
	case houseSeated:
		row = append(row, btn(startKey(t), callback.Start))
	case !houseForbidden:
		row = append(row, btn(i18n.BtnSeatHouse, callback.SeatHouse))
	}
	return rows(append(row, btn(i18n.BtnClose, callback.Leave)), 2)
}

// houseTurn reports whether the house is to move at t.
func houseTurn(t *game.Table) bool {
	i, ok := t.Turn()
	return ok && t.Seat(i).User == house.ID
}

// betRows returns the bets offered to the player whose turn it is, smallest
// first, each labelled as i18n.Bet names it ("20", "40 · ½ bank"), as many
// to a row as a phone shows whole. The smallest, the bet every player can
// make whatever their luck, is coloured as the move to look for.
func betRows(in Input) [][]message.Button {
	t := &in.Table
	turn, ok := t.Turn()
	if !ok {
		return nil
	}
	offers := t.Offers(in.Balances[t.Seat(turn).User])
	buttons := make([]message.Button, len(offers))
	for i, o := range offers {
		buttons[i] = message.Button{
			Text: i18n.Bet(in.Lang, o, t.Bank()),
			Data: callback.Data{Action: callback.Bet, Version: t.Version(), Amount: o.Amount}.String(),
		}
	}
	if len(buttons) > 0 {
		buttons[0].Style = message.Primary
	}
	return rows(buttons, betsPerRow)
}
