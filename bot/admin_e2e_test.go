package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
)

// settingsButton returns the callback data of the settings panel's
// button that sets field to value: on field's choices, the button; on the
// list, the one field's choices show, drawn for the list's settings.
func settingsButton(t *testing.T, m telegramtest.ChatMessage, field, value string) string {
	t.Helper()
	for _, b := range m.Buttons() {
		d, err := callback.Parse(b.CallbackData)
		switch {
		case err != nil || d.Field != field:
		case d.Action == callback.Setting && d.Value == value:
			return b.CallbackData
		case d.Action == callback.SettingOpen:
			return callback.Data{Action: callback.Setting, Version: d.Version, Field: field, Value: value}.String()
		}
	}
	require.Failf(t, "no such button", "%s=%s on %q", field, value, m.Text)
	return ""
}

// TestDemotedAdminLosesPowerAtOnce: the bot gets no chat_member updates
// unless it is an admin, so it cannot be told of a demotion; every admin
// action asks Telegram afresh, and an admin demoted right after acting is
// refused at once, typed or through the settings menu they still have.
// The clock never moves: no cached answer expires.
func TestDemotedAdminLosesPowerAtOnce(t *testing.T) {
	h := newHarness(t)
	bob := h.user("Bob")
	require.NoError(t, h.srv.MakeAdmin(h.group.ID, bob.ID))
	h.lobby("Carol")
	carolMsg := h.command("Carol", "balance")
	h.botSays("Carol, your balance")

	h.command("Bob", "settings")
	menu := h.botSays("Table settings")
	require.NotEmpty(t, menu.Buttons(), "an admin gets the buttons")
	a := h.pressRaw("Bob", menu.MessageID, settingsButton(t, menu, "stake", "25"))
	require.Equal(t, "Saved. Stake: 25", a.Text)
	s, err := h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	require.EqualValues(t, 25, s.Game.Stake)
	// The menu is redrawn for the new settings: its buttons are current.
	stamp := callback.Stamp(game.ChatSettings{Game: s.Game, Language: "en"})
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.Message(h.group.ID, menu.MessageID)
		if !ok {
			return false
		}
		d, err := callback.Parse(settingsButton(t, m, "lang", "ru"))
		menu = m
		return err == nil && d.Version == stamp
	}))

	require.NoError(t, h.srv.SetMemberStatus(h.group.ID, bob.ID, telegramtest.StatusMember))

	a = h.pressRaw("Bob", menu.MessageID, settingsButton(t, menu, "lang", "ru"))
	assert.Equal(t, "Only the chat's admins can change the settings.", a.Text)
	assert.True(t, a.ShowAlert)
	for _, typed := range []struct{ cmd, args, refusal string }{
		{"settings", "knocks 1", "Only the chat's admins can change the settings."},
		{"lang", "ru", "Only chat admins can change the language."},
		{"cancel", "", "Only chat admins can do that."},
		{"audit", "", "Only chat admins can do that."},
	} {
		if typed.args == "" {
			h.command("Bob", typed.cmd)
		} else {
			h.command("Bob", typed.cmd, typed.args)
		}
		h.botSays(typed.refusal)
	}
	h.reply("Bob", carolMsg.MessageID, "/kick")
	h.botSays("Only chat admins can do that.")

	after, err := h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	assert.Equal(t, s, after, "no setting, no language changed")
	v := h.view()
	assert.Equal(t, game.Lobby, v.Table.Phase(), "not cancelled")
	_, seated := v.Table.SeatOf(game.UserID(h.user("Carol").ID))
	assert.True(t, seated, "not kicked")
	// The settings Bob sees now are read-only.
	h.command("Bob", "settings")
	assert.Empty(t, h.botSays("Table settings").Buttons())
}

// TestAdminCheckFailureIsAnswered: getChatMember on other users is
// guaranteed only when the bot is an admin; when Telegram does not say, an
// admin action is refused with the reason, not with "admins only" or
// silence.
func TestAdminCheckFailureIsAnswered(t *testing.T) {
	h := newHarness(t)
	h.lobby("Bob")
	h.command("Alice", "settings")
	menu := h.botSays("Table settings")
	stake := settingsButton(t, menu, "stake", "25")

	fault := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{"getChatMember"}})
	const cannot = "I couldn't check with Telegram that you're an admin here"
	a := h.pressRaw("Alice", menu.MessageID, stake)
	assert.Contains(t, a.Text, cannot)
	assert.True(t, a.ShowAlert)
	for _, cmd := range [][]string{{"cancel"}, {"settings", "stake", "25"}, {"lang", "ru"}, {"audit"}} {
		h.command("Alice", cmd[0], cmd[1:]...)
		h.botSays(cannot)
	}
	assert.Positive(t, fault.Fired())
	s, err := h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	assert.EqualValues(t, 10, s.Game.Stake)
	v := h.view()
	assert.Equal(t, game.Lobby, v.Table.Phase(), "not cancelled")

	fault.Remove()
	h.command("Alice", "cancel")
	h.botSays("Table closed.")
}
