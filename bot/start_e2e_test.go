package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// TestLoneStartBelowTheLimit: a lone player whose balance fell below the
// entry limit pressing Start is told, as a moment before, that more
// players are needed, and the table stays open with them seated.
func TestLoneStartBelowTheLimit(t *testing.T) {
	h := newHarness(t)
	h.lobby()
	assert.Equal(t, "Need at least 2\u00a0players.", h.startGame("Alice").Text)
	h.command("Alice", "settings", "entry", "5000")
	h.botSays("Saved")
	before := h.version()
	assert.Equal(t, "Need at least 2\u00a0players.", h.startGame("Alice").Text)
	v := h.view()
	require.Equal(t, game.Lobby, v.Table.Phase(), "the table stays open")
	assert.Equal(t, before, v.Table.Version(), "nothing applied")
	_, seated := v.Table.SeatOf(game.UserID(h.user("Alice").ID))
	assert.True(t, seated)
}
