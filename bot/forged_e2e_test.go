package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// TestVersionZeroButtonsAreRefused: game.Apply reads version 0 as "no
// version to check", so a button forged with 0 would skip the guard
// against double taps (two h:0 at once both drew). Every such press is a
// bad button and changes nothing.
func TestVersionZeroButtonsAreRefused(t *testing.T) {
	h := newHarness(t)
	h.betting("Kh Tc 9d  Ts 8s 7s")
	m := h.tableMessage(contains("your bet, Bob"))
	before := h.view()
	a := h.pressRaw("Bob", m.MessageID, "b:0:10")
	assert.Equal(t, "This button doesn't work here.", a.Text)
	assert.Equal(t, before.Table.Version(), h.version(), "no bet")

	h.bet("Bob", 10)
	m = h.tableMessage(nil)
	before = h.view()
	require.Equal(t, game.Drawing, before.Table.Phase())
	for range 2 {
		a = h.pressRaw("Bob", m.MessageID, "h:0")
		assert.Equal(t, "This button doesn't work here.", a.Text)
	}
	for _, data := range []string{"d:0", "j:0", "l:0", "s:0", "n:0"} {
		a = h.pressRaw("Bob", m.MessageID, data)
		assert.Equal(t, "This button doesn't work here.", a.Text, data)
	}
	after := h.view()
	assert.Equal(t, before.Table.Version(), after.Table.Version(), "no card drawn, nothing else done")
	assert.Equal(t, before.Table.Seats(), after.Table.Seats())
	assert.Equal(t, "9♦ · 13", h.hit("Bob").Text, "Bob's real button draws the next card")
	h.audit()
}
