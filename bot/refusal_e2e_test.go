package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/game"
)

// TestDoubleTapSaysNothingNew: the second press of a button the first press
// took away (a double tap: the same player, the same button, the table one
// step on) is answered as the first was, not "This table has moved on.";
// another's press of it is told the table moved on.
func TestDoubleTapSaysNothingNew(t *testing.T) {
	h := newHarness(t)
	h.betting("Kh Tc 6s 7s 6h 7h 8s 9s")

	msg, bet := h.buttonOf(func(d callback.Data) bool { return d.Action == callback.Bet && d.Amount == 10 })
	assert.Equal(t, "Bet 10 · your card K♥ (4) · Hit or Stand?", h.pressRaw("Bob", msg, bet).Text)
	assert.Equal(t, "Bet 10 · your card K♥ (4) · Hit or Stand?", h.pressRaw("Bob", msg, bet).Text, "the bet's second tap")

	msg, hit := h.buttonOf(action(callback.Hit))
	before := h.version()
	first := h.pressRaw("Bob", msg, hit)
	assert.Equal(t, "6♠ · 10", first.Text)
	again := h.pressRaw("Bob", msg, hit)
	assert.Equal(t, first.Text, again.Text, "the hit's second tap")
	assert.Equal(t, before+1, h.version(), "the second tap applied nothing")
	assert.Equal(t, "This table has moved on.", h.pressRaw("Carol", msg, hit).Text)

	// A tap twice stale is no double tap.
	assert.Equal(t, "7♠ · 17", h.hit("Bob").Text)
	assert.Equal(t, "This table has moved on.", h.pressRaw("Bob", msg, hit).Text)

	// The lobby's house buttons too.
	h = newHarness(t)
	h.lobby()
	msg, seat := h.buttonOf(action(callback.SeatHouse))
	assert.Equal(t, "The house sits down.", h.pressRaw("Alice", msg, seat).Text)
	assert.Equal(t, "The house sits down.", h.pressRaw("Alice", msg, seat).Text, "the seat's second tap")
	msg, unseat := h.buttonOf(action(callback.UnseatHouse))
	assert.Equal(t, "The house stands up.", h.pressRaw("Alice", msg, unseat).Text)
	assert.Equal(t, "The house stands up.", h.pressRaw("Alice", msg, unseat).Text, "the unseat's second tap")
}

// TestTurnButtonsOfOthers: a turn button pressed by someone not seated, or
// by the banker, says so, not whose turn it is; by another player, whose
// turn it is.
func TestTurnButtonsOfOthers(t *testing.T) {
	h := newHarness(t)
	h.betting("Kh Tc 6s 7s 6h 7h 8s 9s")
	before := h.version()
	bet := func(d callback.Data) bool { return d.Action == callback.Bet }
	assert.Equal(t, "You're not at this table.", h.pressData("Dave", bet).Text)
	assert.Equal(t, "You're the banker: the game plays your hand.", h.pressData("Alice", bet).Text)
	assert.Equal(t, "It's Bob's turn.", h.pressData("Carol", bet).Text)
	assert.Equal(t, before, h.version(), "nothing applied")

	h.bet("Bob", 10)
	assert.Equal(t, "You're not at this table.", h.hit("Dave").Text)
	assert.Equal(t, "You're the banker: the game plays your hand.", h.stand("Alice").Text)
	assert.Equal(t, "It's Bob's turn.", h.hit("Carol").Text)
}

// TestLeaveIsAnswered: /leave says that the sender left, or that they were
// not at the table.
func TestLeaveIsAnswered(t *testing.T) {
	h := newHarness(t)
	h.lobby("Bob")
	h.command("Bob", "leave")
	h.botSays("You left the table.")
	v := h.view()
	_, seated := v.Table.SeatOf(game.UserID(h.user("Bob").ID))
	assert.False(t, seated)
	h.command("Dave", "leave")
	h.botSays("You're not at this table.")
}
