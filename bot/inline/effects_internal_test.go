package inline

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/button"
)

// TestEveryInlineButtonHasItsEffect: each row pressed on an inline message
// has what it does here (a link, never pressed, has none), and nothing
// else does: a press of another row is
// refused as a chat's button (bot's TestEveryInlineButtonRoutes presses
// each).
func TestEveryInlineButtonHasItsEffect(t *testing.T) {
	used := map[button.Effect]bool{}
	for _, r := range button.Rows() {
		if !r.Pressed() {
			assert.Nil(t, effects[r.Does], "%s: a link, never pressed", r.Action)
		}
		if r.Kinds.Has(button.Inline) && r.Pressed() {
			assert.NotNil(t, effects[r.Does], "%s: what it does on an inline message", r.Action)
			used[r.Does] = true
		}
	}
	for e := range effects {
		assert.True(t, used[e], "effect %d is no inline row's", e)
	}
}
