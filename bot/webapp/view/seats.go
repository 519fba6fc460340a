package view

import (
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// seats returns the table's seats, banker and turn being the seat indexes
// of the banker and the seat to move (-1 when none), notes their notes as
// the chat's message words them (render.Words.Notes; nil outside a game).
func (m *maker) seats(banker, turn int, notes []string) []Seat {
	seats := m.t.Seats()
	out := make([]Seat, len(seats))
	for i, s := range seats {
		note := ""
		if i < len(notes) {
			note = notes[i]
		}
		out[i] = Seat{
			Name: m.in.ShownName(s.User, s.Name), House: s.User == house.ID, You: s.User == m.in.Viewer.User,
			Balance: m.balance(s.User), Bet: s.Bet, Cards: codes(s.Hand), Points: points(s.Hand),
			State: m.state(s, i == banker, i == turn), Leaving: s.Leaving, Note: note,
		}
	}
	return out
}

// codes returns the hand's cards as codes ("Th"); empty, not nil, for none.
func codes(h game.Hand) []string {
	out := make([]string, h.Len())
	for i := range h.Len() {
		out[i] = h.Card(i).Code()
	}
	return out
}

// points returns the hand's score, 0 with no card.
func points(h game.Hand) int {
	if h.Len() == 0 {
		return 0
	}
	return h.Score()
}

// state says where a seat stands (Seat.State).
func (m *maker) state(s game.Seat, banker, turn bool) string {
	switch {
	case !m.t.Phase().InGame():
		return "seated"
	case banker:
		return "banker"
	case turn:
		return "to_move"
	}
	switch s.State {
	case game.Waiting:
		return "waiting"
	case game.Playing:
		return "playing"
	case game.Played:
		if s.Hand.Bust() {
			return "bust"
		}
		return "played"
	case game.SatOut:
		return "out"
	}
	return "seated"
}

// deck returns the deck the game plays or waits for the cut of, worded
// as the chat's message words it (w); nil when there is none.
func (m *maker) deck(w render.Words) *Deck {
	c, ok := m.t.Commitment()
	if !ok {
		return nil
	}
	d := &Deck{Commitment: c.String(), Short: c.Short(), Text: w.Deck}
	cut, ok := m.t.Cut()
	if !ok {
		return d
	}
	d.Cut = &Cut{Link: cut.Link, Head: cut.Head.String(), Waiting: cut.Waiting, AskedSeat: -1, Text: w.Cut}
	if !cut.Waiting {
		d.Cut.By = w.Cutter
		return d
	}
	d.Commitment, d.Short = cut.Commitment.String(), cut.Commitment.Short()
	d.Cut.Asked = w.Cutter
	if i, ok := m.t.SeatOf(cut.Asked); ok && cut.Asked != 0 {
		d.Cut.AskedSeat = i
	}
	return d
}
