package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/callback"
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

// TestSettingsOfferTheShortestTurn: the least turn time allowed, 10 s, is
// a button of its own.
func TestSettingsOfferTheShortestTurn(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings")
	m := h.botSays("Table settings")
	a := h.pressRaw("Alice", m.MessageID, settingsButton(t, m, callback.FieldTurn, "10"))
	assert.Equal(t, "Saved.", a.Text)
	assert.Contains(t, h.messageSays(m.MessageID, "Turn time: 10 s").Labels(), "10 s ✓")
}

// TestMemberLanguageChangeIsRefusedAsOne: a member's /lang is refused in
// words about the language, and changes nothing.
func TestMemberLanguageChangeIsRefusedAsOne(t *testing.T) {
	h := newHarness(t)
	h.command("Bob", "lang", "ru")
	h.botSays("Only chat admins can change the language.")
	h.command("Bob", "lang")
	h.botSays("Language: English.")
}
