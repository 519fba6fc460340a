package render

import (
	"strings"

	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/game"
)

// Words is how the table message words a table's parts, in plain text:
// the lines the message draws, made by the same functions, without their
// HTML (marks dropped, escapes decoded) and with names whole, for a page
// that lays the table out its own way (bot/webapp/view). The message's
// wording has this one place: a change of it shows in both.
type Words struct {
	// Title is the message's title: the lobby's, a game's (its circle and
	// bank) or a closed table's.
	Title string
	// Closed says why a closed table closed; "" for an open one.
	Closed string
	// Log is the record of the game in play or of the table's last game,
	// oldest first: every duel, circle sat out and knock, all of it (the
	// message leaves out the oldest lines when they do not fit; a closed
	// table's shows none, its Summary does); empty, not nil, for none.
	Log []string
	// Deck words the deck a game plays, or waits for the cut of; "" outside
	// a game.
	Deck string
	// Cut says who cut the dealt deck of the cut, as the message does
	// after its sign ("cut by Bob", "not cut"); "" while the deck waits,
	// for a deck of before the cut and outside a game.
	Cut string
	// Cutter names who cut the dealt deck of the cut, or who is asked to
	// cut the deck that waits for it; "" for nobody, for a deck of before
	// the cut and outside a game.
	Cutter string
	// Notes word each seat's state in a game, by seat (Table.Seat), as
	// its line in the message does after the cards, but for a player's
	// time left, which a page counts down itself: its bet in its duel,
	// the house thinking, "✓ played", sitting the circle out, leaving;
	// joined by " · ", "" where the line says nothing. Nil outside a game.
	Notes []string
}

// TableWords returns the words of in's table message (Words), in
// in.Lang. It reads in as Table does, but for in.Now, which it does not
// read.
func TableWords(in Input) Words {
	v := &view{in: in, t: &in.Table, lang: in.Lang}
	w := Words{Title: plainText(v.title()), Log: []string{}}
	t := v.t
	if t.Phase() == game.Closed {
		w.Closed = plainText(v.closedWhy())
	}
	for _, l := range v.log(t.Phase().InGame()) {
		w.Log = append(w.Log, plainText(l.html))
	}
	if !t.Phase().InGame() {
		return w
	}
	w.Notes = make([]string, t.NumSeats())
	for i := range w.Notes {
		w.Notes[i] = v.note(t.Seat(i), i)
	}
	c, ok := t.Commitment()
	if !ok {
		return w
	}
	w.Deck = plainText(v.deckLine(c))
	cut, ok := t.Cut()
	switch {
	case !ok:
	case cut.Waiting:
		if cut.Asked != 0 {
			w.Cutter = plainText(v.whoPlayed(cut.Asked))
		}
	default:
		w.Cut = plainText(v.cutBy(cut.By))
		if cut.By != 0 {
			w.Cutter = plainText(v.whoPlayed(cut.By))
		}
	}
	return w
}

// note is Words.Notes' note of seat i, s.
func (v *view) note(s game.Seat, i int) string {
	w := v.seatWords(s, i)
	if w.timed {
		w.turn = ""
	}
	var parts []string
	for _, p := range []string{w.bet, w.turn, w.state, w.leaving} {
		if p != "" {
			parts = append(parts, plainText(p))
		}
	}
	return strings.Join(parts, " · ")
}

// ButtonState is the button table's view of what in's table message
// shows (button.Keyboard draws its buttons from it): the table, its kind
// (a private chat's, an inline message's, a group's), the settings, the
// balances, whether the house is forbidden, in.Lang for the labels, and
// the Mini App's link.
func ButtonState(in Input) button.State {
	kind := button.Group
	switch {
	case in.Solo:
		kind = button.Solo
	case in.Inline:
		kind = button.Inline
	}
	return button.State{Table: &in.Table, Kind: kind, Settings: in.Settings, Balances: in.Balances,
		HouseForbidden: in.HouseForbidden, Lang: in.Lang, App: in.App}
}
