package render

import (
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

// betsPerRow is the most bet buttons that share a row.
const betsPerRow = 3

// keyboard returns the buttons of the table's phase, laid out for a phone
// (rows): in a lobby after a game, "Play again ▶" gets a row of its own. A
// table never opened
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
	var kb [][]Button
	switch t.Phase() {
	case game.Lobby:
		start := i18n.BtnStart
		if t.Finished() {
			start = i18n.BtnPlayAgain
		}
		kb = rows([]Button{btn(i18n.BtnJoin, callback.Join), btn(i18n.BtnLeave, callback.Leave), btn(start, callback.Start)}, 3)
	case game.Betting:
		kb = betRows(in)
	case game.Drawing:
		kb = rows([]Button{btn(i18n.BtnHit, callback.Hit), btn(i18n.BtnStand, callback.Stand)}, 2)
	default:
		kb = [][]Button{{btn(i18n.BtnNewTable, callback.NewTable)}}
	}
	if _, ok := t.Revealed(); ok && t.Finished() {
		kb = append(kb, []Button{{
			Text: i18n.T(in.Lang, i18n.BtnVerify),
			Data: callback.Data{Action: callback.Verify, Game: t.Game()}.String(),
		}})
	}
	return kb
}

// betRows returns the bets offered to the player whose turn it is, smallest
// first, each labelled as i18n.Bet names it ("20", "40 · ½ bank"), as many
// to a row as a phone shows whole.
func betRows(in Input) [][]Button {
	t := &in.Table
	turn, ok := t.Turn()
	if !ok {
		return nil
	}
	offers := t.Offers(in.Balances[t.Seat(turn).User])
	buttons := make([]Button, len(offers))
	for i, o := range offers {
		buttons[i] = Button{
			Text: i18n.Bet(in.Lang, o, t.Bank()),
			Data: callback.Data{Action: callback.Bet, Version: t.Version(), Amount: o.Amount}.String(),
		}
	}
	return rows(buttons, betsPerRow)
}
