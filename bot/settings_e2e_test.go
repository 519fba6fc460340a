package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// settingsInfoButton returns the callback data of the button that starts
// field's row of the settings message.
func settingsInfoButton(t *testing.T, m telegramtest.ChatMessage, field string) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == callback.SettingInfo && d.Field == field {
			return b.CallbackData
		}
	}
	require.Failf(t, "no such button", "info %s on %q", field, m.Text)
	return ""
}

// TestSettingsWriteADurationOneWay: a duration reads the same in the list
// and on its button.
func TestSettingsWriteADurationOneWay(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings", "turn", "60")
	h.botSays("Saved")
	h.command("Alice", "settings")
	m := h.botSays("Table settings")
	assert.Contains(t, m.Text, "Turn time: 60\u00a0s")
	assert.Contains(t, m.Labels(), "60\u00a0s ✓")
}

// TestSettingsOfferTheShortestTurn: the least turn time allowed, 10 s, is
// a button of its own.
func TestSettingsOfferTheShortestTurn(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings")
	m := h.botSays("Table settings")
	a := h.pressRaw("Alice", m.MessageID, settingsButton(t, m, callback.FieldTurn, "10"))
	assert.Equal(t, "Saved.", a.Text)
	assert.Contains(t, h.messageSays(m.MessageID, "Turn time: 10\u00a0s").Labels(), "10\u00a0s ✓")
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

// TestSettingsPanelsFollowEveryChange: every settings panel open in the
// chat shows a change however it was made, typed or pressed on another
// panel, an admin's with its buttons and a member's read-only.
func TestSettingsPanelsFollowEveryChange(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings")
	admin := h.botSays("Table settings")
	h.command("Bob", "settings")
	member := h.botSays("Table settings")
	require.Empty(t, member.Buttons())

	h.command("Alice", "settings", "turn", "10s")
	h.botSays("Saved")
	m := h.messageSays(admin.MessageID, "Turn time: 10\u00a0s")
	assert.Contains(t, m.Labels(), "10\u00a0s ✓")
	assert.Empty(t, h.messageSays(member.MessageID, "Turn time: 10\u00a0s").Buttons(), "still read-only")

	a := h.pressRaw("Alice", m.MessageID, settingsButton(t, m, callback.FieldStake, "25"))
	require.Equal(t, "Saved.", a.Text)
	h.messageSays(member.MessageID, "Stake: 25")

	h.command("Alice", "lang", "ru")
	h.botSays("Язык")
	h.messageSays(admin.MessageID, "Ставка: 25")
	h.messageSays(member.MessageID, "Ставка: 25")
}

// TestSettingsRowIconsExplainTheRow: the icon that starts a row of the
// settings keyboard answers what the row sets, in the chat's language.
func TestSettingsRowIconsExplainTheRow(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings")
	m := h.botSays("Table settings")
	a := h.pressRaw("Alice", m.MessageID, settingsInfoButton(t, m, callback.FieldStake))
	assert.Equal(t, "Stake: the chips the banker puts into the bank when a game starts.", a.Text)
	a = h.pressRaw("Bob", m.MessageID, settingsInfoButton(t, m, callback.FieldTurn))
	assert.Equal(t, "Turn time: how long a player has to bet, draw or stand.", a.Text, "a member is told too")

	h.command("Alice", "lang", "ru")
	h.botSays("Язык")
	h.command("Alice", "settings")
	m = h.botSays("Настройки")
	a = h.pressRaw("Alice", m.MessageID, settingsInfoButton(t, m, callback.FieldTurn))
	assert.Equal(t, "Turn time: how long a player has to bet, draw or stand.", a.Text, "an alert speaks its presser's language")
	hans, err := h.srv.AddMember(h.group.ID, telegramtest.User{FirstName: "Hans", LanguageCode: "de"}, 0)
	require.NoError(t, err)
	h.users["Hans"] = hans
	a = h.pressRaw("Hans", m.MessageID, settingsInfoButton(t, m, callback.FieldTurn))
	assert.Equal(t, "Время хода: сколько времени есть у игрока, чтобы сделать ставку, взять карту или остановиться.", a.Text,
		"the chat's language for a presser whose language the bot does not speak")
}
