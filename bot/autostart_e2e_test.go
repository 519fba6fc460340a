package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// TestAutoStartStartsWhenTheLastSeatIsTaken: a group turns "Start when
// full" on with /settings autostart on; its lobby says the game starts by
// itself, and the fourth Join starts the game: the stake is in the bank
// and the first player is to bet, with no Start pressed, in one command.
func TestAutoStartStartsWhenTheLastSeatIsTaken(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings", "autostart", "maybe")
	h.botSays("maybe is not a value for autostart.")
	assert.False(t, h.storedSettings().Game.AutoStart, "a bad value changes nothing")

	h.command("Alice", "settings", "autostart", "on")
	h.botSays("Saved.")
	require.True(t, h.storedSettings().Game.AutoStart)

	h.lobby("Bob", "Carol")
	h.tableMessage(contains("The game starts by itself once every seat is taken"))
	lobby := h.view()
	require.Equal(t, game.Lobby, lobby.Table.Phase())
	before := lobby.Table.Version()

	a := h.join("Dave")
	assert.Equal(t, "Game on · Bob cuts the deck", a.Text, "the toast says the game started, as Start's")
	v := h.view()
	require.Equal(t, game.Cutting, v.Table.Phase(), "the fourth Join started the game: its deck waits for the cut")
	assert.Equal(t, before+1, v.Table.Version(), "one command: the seat and the start")
	require.True(t, h.cut())
	v = h.view()
	require.Equal(t, game.Betting, v.Table.Phase())
	assert.Equal(t, int64(10), v.Table.Bank(), "the banker's stake is in the bank")
	assert.Len(t, v.Table.Seats(), game.MaxSeats)
	m := h.tableMessage(func(m telegramtest.ChatMessage) bool {
		for _, b := range m.Buttons() {
			if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == callback.Bet {
				return true
			}
		}
		return false
	})
	assert.Contains(t, m.Text, "your bet")
	h.audit()
}

// TestAutoStartOnThePanelAndOff: the panel turns it on and off, and with
// it off the fourth Join leaves the lobby waiting for Start.
func TestAutoStartOnThePanelAndOff(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings")
	list := h.botSays("Table settings", "Tap a setting to change it")
	assert.Contains(t, list.Labels(), "🚀 Start when full: off")
	id := list.MessageID
	h.pressRaw("Alice", id, openButton(t, list, "autostart"))
	choices := h.panelAfter(id, 0)
	assert.Equal(t, []string{"on", "off ✓", "← Back"}, choices.Labels())
	a := h.pressRaw("Alice", id, settingsButton(t, choices, "autostart", "on"))
	assert.Equal(t, "Saved. Start when full: on", a.Text)
	require.True(t, h.storedSettings().Game.AutoStart)
	list = h.panelAfter(id, 1)
	assert.Contains(t, list.Labels(), "🚀 Start when full: on")

	h.pressRaw("Alice", id, openButton(t, list, "autostart"))
	choices = h.panelAfter(id, 2)
	a = h.pressRaw("Alice", id, settingsButton(t, choices, "autostart", "off"))
	assert.Equal(t, "Saved. Start when full: off", a.Text)
	require.False(t, h.storedSettings().Game.AutoStart)

	h.lobby("Bob", "Carol", "Dave")
	h.tableMessage(contains("Every seat is taken. A seated player starts."))
	v := h.view()
	assert.Equal(t, game.Lobby, v.Table.Phase(), "off: the lobby waits for Start")
}

// TestAutoStartWhenTheHouseTakesTheLastSeat: the house sitting down in
// the last seat starts the game as a player's Join does.
func TestAutoStartWhenTheHouseTakesTheLastSeat(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings", "autostart", "on")
	h.botSays("Saved.")
	h.lobby("Bob", "Carol")
	before := h.version()
	h.seatHouse("Alice")
	v := h.view()
	require.Equal(t, game.Cutting, v.Table.Phase(), "the house's seat started the game: its deck waits for the cut")
	assert.Equal(t, before+1, v.Table.Version())
	_, seated := v.Table.SeatOf(house.ID)
	assert.True(t, seated)
	require.True(t, h.cut())
	h.houseMoves()
	h.audit()
}
