package render

import (
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// bankerSign marks the banker wherever a table names them; the bank is 🏦
// (in TableTitleGame), so that the two are never taken for each other.
const bankerSign = "🎩"

// game draws a game in play: the circle and the bank, the banker, every
// player's seat in the order they play, the log of this game and the deck
// in play, or waiting for its cut (deck).
func (v *view) game() []line {
	t := v.t
	lines := []line{text(bold(v.title()))}
	banker, _ := t.Banker()
	n := t.NumSeats()
	if banker >= 0 && banker < n {
		seat := t.Seat(banker)
		l := v.tr(i18n.TableBanker, v.who(seat.User, seat.Name))
		if b, ok := v.balance(seat.User); ok {
			l += " — " + b
		}
		lines = append(lines, text(bankerSign+" "+l))
	}
	if k := t.Knocks(); k > 0 {
		lines = append(lines, text(v.tr(i18n.TableKnocks, i18n.Number(int64(k)), i18n.Number(int64(t.Settings().MaxKnocks)))))
	}
	lines = append(lines, blank)
	for k := 1; k <= n; k++ {
		i := (banker + k) % n
		if i == banker {
			continue
		}
		lines = append(lines, text(v.seat(t.Seat(i), i)))
	}
	if log := v.log(true); len(log) > 0 {
		lines = append(lines, blank)
		lines = append(lines, log...)
	}
	if c, ok := t.Commitment(); ok {
		lines = append(lines, blank)
		lines = append(lines, v.deck(c)...)
	}
	return lines
}

// title is the table message's title: the lobby's, a game's (its circle
// and bank) or a closed table's.
func (v *view) title() string {
	switch t := v.t; {
	case t.Phase() == game.Lobby:
		return v.tr(i18n.TableTitleLobby)
	case t.Phase().InGame():
		return v.tr(i18n.TableTitleGame, i18n.Number(int64(t.Circle())), i18n.Number(t.Bank()))
	}
	return v.tr(i18n.TableTitleClosed)
}

// seat draws a player's seat during a game.
func (v *view) seat(s game.Seat, i int) string {
	name := v.who(s.User, s.Name)
	l := name
	if b, ok := v.balance(s.User); ok {
		l += " — " + b
	}
	turn, isTurn := v.t.Turn()
	isTurn = isTurn && turn == i
	switch {
	case isTurn && s.User == house.ID:
		// The house moves by itself within seconds: no time to show.
		if v.t.Phase() == game.Drawing {
			l += " · " + v.tr(i18n.TableSeatBet, i18n.Number(s.Bet))
		}
		l += " · " + v.hand(s.Hand, true) + " " + v.tr(i18n.TableSeatHouse, name)
	case isTurn && v.t.Phase() == game.Betting:
		l += " · " + v.hand(s.Hand, false) + " " + v.tr(i18n.TableSeatBetting, name, v.countdown())
	case isTurn:
		l += " · " + v.tr(i18n.TableSeatBet, i18n.Number(s.Bet)) + " · " + v.hand(s.Hand, true) +
			" " + v.tr(i18n.TableSeatDrawing, name, v.countdown())
	case s.State == game.Waiting && s.Hand.Len() > 0:
		l += " · " + v.hand(s.Hand, false)
	case s.State == game.Playing && s.Bet > 0:
		// Their draw waits for a reshuffled deck's cut.
		l += " · " + v.tr(i18n.TableSeatBet, i18n.Number(s.Bet)) + " · " + v.hand(s.Hand, true)
	case s.State == game.Played:
		l += " · " + v.tr(i18n.TableSeatPlayed)
	case s.State == game.SatOut:
		l += " · " + v.tr(i18n.TableSeatSatOut)
	}
	if s.Leaving {
		l += " · " + v.tr(i18n.TableSeatLeaving)
	}
	if isTurn {
		return bold(l)
	}
	return l
}

// countdown is the time left of the current turn when the message is
// drawn ("45 s"), rounded up. A turn's clock starts when the message that
// shows it goes (game.ShowTurn), so the first render of a turn shows the
// whole turn time, and a later one what is left of it then; the nudge
// tells the player again, as time runs out.
func (v *view) countdown() string {
	d := v.t.Deadline()
	if d.IsZero() {
		return "…"
	}
	return i18n.Countdown(v.lang, d.Sub(v.in.Now))
}

// hand draws cards, with their score when asked for and there is more than
// one card.
func (v *view) hand(h game.Hand, score bool) string {
	s := i18n.Hand(v.lang, h)
	if score && h.Len() > 1 {
		s += " = " + strconv.Itoa(h.Score())
	}
	return s
}
