package render

import (
	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/message"
)

// keyboard returns the buttons of the table's state, as the button table
// declares them (button.Keyboard), each line laid out for a phone (rows):
// in a lobby after a game, "Play again ▶" gets a row of its own. A table
// never opened (version 0) has none but, on an inline message, the one
// that opens it: a button carries the version it was drawn for, and
// callback data never carries 0 (see package callback).
func keyboard(in Input) [][]message.Button {
	return layOut(button.Keyboard(ButtonState(in)))
}

// layOut lays each line of a keyboard out in rows that fit a phone.
func layOut(lines []button.Line) [][]message.Button {
	var kb [][]message.Button
	for _, l := range lines {
		kb = append(kb, rows(l.Buttons, l.PerRow)...)
	}
	return kb
}
