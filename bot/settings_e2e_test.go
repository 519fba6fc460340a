package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSettingsWriteADurationOneWay: a duration reads the same in the list
// and on its button.
func TestSettingsWriteADurationOneWay(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings", "turn", "60")
	h.botSays("Saved")
	h.command("Alice", "settings")
	m := h.botSays("Table settings")
	assert.Contains(t, m.Text, "Turn time: 60 s")
	assert.Contains(t, m.Labels(), "60 s ✓")
}
