package view

import (
	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
)

// actions returns what the viewer can do: of the buttons the chat's table
// message shows now (button.Keyboard, line by line), those whose row
// applies a game command (the app's server takes nothing else) and that
// the viewer may press (mayPress), each with the chat's button's data,
// its label in the view's language.
func (m *maker) actions() []Line {
	s := render.ButtonState(m.in.Input)
	kind := s.Kind
	out := []Line{}
	for _, l := range button.Keyboard(s) {
		var acts []Action
		for _, b := range l.Buttons {
			// The row of a button, found as a press finds it.
			d, err := callback.Parse(b.Data)
			if err != nil {
				continue
			}
			r, ok := button.For(d.Action, kind)
			if !ok || !m.mayPress(r) {
				continue
			}
			acts = append(acts, Action{Verb: d.Action.String(), Label: b.Text, Style: string(b.Style), Data: b.Data})
		}
		if len(acts) > 0 {
			out = append(out, Line{PerRow: l.PerRow, Actions: acts})
		}
	}
	return out
}

// mayPress reports whether the viewer may press the row's button, by the
// rule its row states (Row.Who), which game.Apply enforces where the press
// is applied: anyone (but one seated already, whom game.Join refuses), a
// seated player not leaving, the player whose turn it is. Only rows that
// apply a game command count (button.Apply, button.House): a deck check,
// the leaderboard and opening an inline message answer in the chat.
func (m *maker) mayPress(r button.Row) bool {
	if r.Does != button.Apply && r.Does != button.House {
		return false
	}
	seat, seated := m.t.SeatOf(m.in.Viewer.User)
	switch r.Who {
	case button.Anyone:
		return !(seated && r.Command == game.Join)
	case button.Seated:
		return seated && !m.t.Seat(seat).Leaving
	case button.OnTurn:
		turn, ok := m.t.Turn()
		return ok && seated && turn == seat
	}
	return false
}
