package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// TestHouseAskedForDuringAGame: /house during a game tells a seated player
// (the banker too) that the house sits down only between games, and
// someone not seated that a game is on; the house does not sit down.
func TestHouseAskedForDuringAGame(t *testing.T) {
	h := newHarness(t)
	h.betting("9s 8h Tc Th")
	for _, tt := range []struct{ who, says string }{
		{"Alice", "The house sits down only between games, in the lobby: ask again once this game is over."},
		{"Bob", "The house sits down only between games, in the lobby: ask again once this game is over."},
		{"Dave", "A game is in progress; join when it ends."},
	} {
		h.command(tt.who, "house")
		h.botSays(tt.says)
	}
	v := h.view()
	_, seated := v.Table.SeatOf(house.ID)
	assert.False(t, seated, "the house waits for the lobby")
}

// TestLeaveAfterBetting: /leave after a bet says the bet stays in the
// bank, as it does.
func TestLeaveAfterBetting(t *testing.T) {
	h := newHarness(t)
	h.betting("9s 8h Tc Th")
	bank := h.bank()
	h.bet("Bob", 10)
	h.command("Bob", "leave")
	h.botSays("You left; your bet of 10 stays in the bank.")
	assert.Equal(t, bank+10, h.bank(), "the bet went to the bank")
	v := h.view()
	_, seated := v.Table.SeatOf(game.UserID(h.user("Bob").ID))
	require.False(t, seated)
	h.audit()
}
