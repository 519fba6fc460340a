package input

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/button"
)

// TestEveryChatButtonHasItsEffect: each row pressed on a chat's message
// has what it does here (a link, never pressed, has none), each effect
// here is some such row's, and PressTable takes exactly the table's
// effects.
func TestEveryChatButtonHasItsEffect(t *testing.T) {
	used := map[button.Effect]bool{}
	for _, r := range button.Rows() {
		if !r.Pressed() {
			assert.Nil(t, chatEffects[r.Does], "%s: a link, never pressed", r.Action)
		}
		if r.Kinds&button.Chats != 0 && r.Pressed() {
			assert.NotNil(t, chatEffects[r.Does], "%s: what it does on a chat's message", r.Action)
			used[r.Does] = true
		}
		table := r.Does == button.Apply || r.Does == button.OpenInline || r.Does == button.House
		assert.Equal(t, table, tableEffects[r.Does], "%s: PressTable's", r.Action)
	}
	for e := range chatEffects {
		assert.True(t, used[e], "effect %d is no chat row's", e)
	}
}
