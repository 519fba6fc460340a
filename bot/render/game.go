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
	l := v.who(s.User, s.Name)
	if b, ok := v.balance(s.User); ok {
		l += " — " + b
	}
	w := v.seatWords(s, i)
	if w.bet != "" {
		l += " · " + w.bet
	}
	if w.cards {
		l += " · " + v.hand(s.Hand, w.score)
	}
	if w.turn != "" {
		l += " " + w.turn
	}
	for _, p := range []string{w.state, w.leaving} {
		if p != "" {
			l += " · " + p
		}
	}
	if w.turn != "" {
		return bold(l)
	}
	return l
}

// seatWords are the words of a seat's line in a game after the player's
// name and balance, in their order: each "" when the line says nothing of
// it.
type seatWords struct {
	// bet is the bet in the seat's duel ("bet 5").
	bet string
	// cards: the line shows the seat's cards, with their score when score.
	cards, score bool
	// turn says it is the seat's turn: the house thinking, or a player's
	// bet or draw with the time left (timed).
	turn  string
	timed bool
	// state is where the seat stands once its duel is played or sat out;
	// leaving says the player leaves.
	state, leaving string
}

// seatWords words seat i's state in a game (seat's line, Words.Notes).
func (v *view) seatWords(s game.Seat, i int) seatWords {
	var w seatWords
	turn, isTurn := v.t.Turn()
	isTurn = isTurn && turn == i
	name := v.who(s.User, s.Name)
	switch {
	case isTurn && s.User == house.ID:
		// The house moves by itself within seconds: no time to show.
		if v.t.Phase() == game.Drawing {
			w.bet = v.tr(i18n.TableSeatBet, i18n.Number(s.Bet))
		}
		w.cards, w.score, w.turn = true, true, v.tr(i18n.TableSeatHouse, name)
	case isTurn && v.t.Phase() == game.Betting:
		w.cards, w.turn, w.timed = true, v.tr(i18n.TableSeatBetting, name, v.countdown()), true
	case isTurn:
		w.bet = v.tr(i18n.TableSeatBet, i18n.Number(s.Bet))
		w.cards, w.score, w.turn, w.timed = true, true, v.tr(i18n.TableSeatDrawing, name, v.countdown()), true
	case s.State == game.Waiting && s.Hand.Len() > 0:
		w.cards = true
	case s.State == game.Playing && s.Bet > 0:
		// Their draw waits for a reshuffled deck's cut.
		w.bet, w.cards, w.score = v.tr(i18n.TableSeatBet, i18n.Number(s.Bet)), true, true
	case s.State == game.Played:
		w.state = v.tr(i18n.TableSeatPlayed)
	case s.State == game.SatOut:
		w.state = v.tr(i18n.TableSeatSatOut)
	}
	if s.Leaving {
		w.leaving = v.tr(i18n.TableSeatLeaving)
	}
	return w
}

// countdown is the time left of the current turn (or cut wait) when the
// message is drawn ("45 s"), rounded up. A turn's clock starts when the
// message that shows it goes (game.ShowTurn), so the first render of a
// turn shows the whole turn time (of a cut wait, the whole wait), and a
// later one what is left of it then; the nudge tells the player again, as
// time runs out.
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
