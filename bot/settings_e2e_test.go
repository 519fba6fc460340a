package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/panel"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// panelButton returns the callback data of the settings panel's button
// whose data match, and fails the test without one.
func panelButton(t *testing.T, m telegramtest.ChatMessage, what string, match func(callback.Data) bool) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if d, err := callback.Parse(b.CallbackData); err == nil && match(d) {
			return b.CallbackData
		}
	}
	require.Failf(t, "no such button", "%s on %q, buttons %q", what, m.Text, m.Labels())
	return ""
}

// openButton returns the callback data of the list's button that opens
// field's choices.
func openButton(t *testing.T, m telegramtest.ChatMessage, field string) string {
	t.Helper()
	return panelButton(t, m, "open "+field, func(d callback.Data) bool { return d.Action == callback.SettingOpen && d.Field == field })
}

// backButton returns the callback data of the choices' ← Back.
func backButton(t *testing.T, m telegramtest.ChatMessage) string {
	t.Helper()
	return panelButton(t, m, "back", func(d callback.Data) bool { return d.Action == callback.SettingBack })
}

// stamp returns the settings stamp a settings panel's buttons carry.
func stamp(t *testing.T, m telegramtest.ChatMessage) uint64 {
	t.Helper()
	d, err := callback.Parse(panelButton(t, m, "any", func(d callback.Data) bool {
		return d.Action == callback.SettingOpen || d.Action == callback.SettingBack
	}))
	require.NoError(t, err)
	return d.Version
}

// storedSettings returns the group's stored settings.
func (h *harness) storedSettings() storage.ChatSettings {
	h.t.Helper()
	s, err := h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(h.t, err)
	return s
}

// panelAfter waits until the settings panel id was edited more than
// edits times and the bot is quiet, and returns it.
func (h *harness) panelAfter(id, edits int) telegramtest.ChatMessage {
	h.t.Helper()
	require.NoError(h.t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.Message(h.group.ID, id)
		return ok && m.EditCount > edits
	}), "panel %d edited", id)
	h.settle()
	return h.messageSays(id)
}

// TestSettingsPanelHasTwoLevels: an admin's /settings is the list of the
// settings as buttons that show their values; one opens that setting's
// choices, explained, and ← Back returns to the list, each move one edit
// of the panel that changes nothing; choosing a value saves it, says so
// and returns the panel to the list, which shows the new value. The bet
// options' choices stay while they are toggled.
func TestSettingsPanelHasTwoLevels(t *testing.T) {
	h := newHarness(t)
	before := h.storedSettings()
	h.command("Alice", "settings")
	list := h.botSays("Table settings", "Tap a setting to change it")
	assert.Equal(t, []string{"💰 Stake: 10", "🚪 Min. balance: 100", "🎲 Bets: ×1 · ×2 · ×5 · ½ · bank", "⏱ Turn time: 60\u00a0s",
		"⏳ Lobby time: 10\u00a0min", "🔔 Knocks: 3", "🚀 Start when full: off", "🤖 The house: on", "🌐 Language: English"}, list.Labels())
	id := list.MessageID

	a := h.pressRaw("Alice", id, openButton(t, list, "stake"))
	assert.Empty(t, a.Text, "moving needs no words")
	stake := h.panelAfter(id, 0)
	assert.Equal(t, 1, stake.EditCount, "one edit")
	assert.Equal(t, "💰 Stake: 10\nThe chips the banker puts into the bank when a game starts.", stake.Text)
	assert.Equal(t, []string{"5", "10 ✓", "25", "50", "100", "← Back"}, stake.Labels())
	assert.Equal(t, before, h.storedSettings(), "opening changes nothing")

	h.pressRaw("Alice", id, backButton(t, stake))
	back := h.panelAfter(id, 1)
	assert.Equal(t, 2, back.EditCount, "one edit")
	assert.Equal(t, list.Text, back.Text)
	assert.Equal(t, list.Labels(), back.Labels())
	assert.Equal(t, before, h.storedSettings(), "going back changes nothing")

	h.pressRaw("Alice", id, openButton(t, back, "stake"))
	stake = h.panelAfter(id, 2)
	a = h.pressRaw("Alice", id, settingsButton(t, stake, "stake", "25"))
	assert.Equal(t, "Saved. Stake: 25", a.Text)
	assert.EqualValues(t, 25, h.storedSettings().Game.Stake)
	list = h.panelAfter(id, 3)
	assert.Equal(t, 4, list.EditCount, "the change is one edit, back at the list")
	assert.Contains(t, list.Text, "Tap a setting to change it")
	assert.Equal(t, "💰 Stake: 25", list.Labels()[0])
	assert.Equal(t, before.Game.EntryLimit, h.storedSettings().Game.EntryLimit, "nothing else changed")

	// The bet options are toggles: their choices stay on the panel.
	h.pressRaw("Alice", id, openButton(t, list, "bets"))
	bets := h.panelAfter(id, 4)
	a = h.pressRaw("Alice", id, settingsButton(t, bets, "bets", "x10"))
	assert.Equal(t, "Saved. Bets: ×1 · ×2 · ×5 · ×10 · ½ · bank", a.Text)
	bets = h.panelAfter(id, 5)
	assert.Contains(t, bets.Labels(), "×10 ✓")
	assert.Contains(t, bets.Labels(), "← Back")
	opts, err := game.ParseBetOptions("x1 x2 x5 x10 bank/2 bank")
	require.NoError(t, err)
	assert.Equal(t, opts, h.storedSettings().Game.BetOptions)
}

// TestSettingsWriteADurationOneWay: a duration reads the same in the list
// and on its choice.
func TestSettingsWriteADurationOneWay(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings", "turn", "60")
	h.botSays("Saved")
	h.command("Alice", "settings")
	m := h.botSays("Table settings")
	assert.Contains(t, m.Labels(), "⏱ Turn time: 60\u00a0s")
	h.pressRaw("Alice", m.MessageID, openButton(t, m, "turn"))
	turn := h.messageSays(m.MessageID, "Turn time: 60\u00a0s\n")
	assert.Contains(t, turn.Labels(), "60\u00a0s ✓")
}

// TestSettingsOfferTheShortestTurn: the least turn time allowed, 10 s, is
// a choice of its own.
func TestSettingsOfferTheShortestTurn(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings")
	m := h.botSays("Table settings")
	h.pressRaw("Alice", m.MessageID, openButton(t, m, "turn"))
	turn := h.messageSays(m.MessageID, "How long a player has")
	a := h.pressRaw("Alice", m.MessageID, settingsButton(t, turn, "turn", "10"))
	assert.Equal(t, "Saved. Turn time: 10\u00a0s", a.Text)
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.Message(h.group.ID, m.MessageID)
		return ok && len(m.Labels()) > 3 && m.Labels()[3] == "⏱ Turn time: 10\u00a0s"
	}), "the list shows 10 s")
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
// panel, each at its level: an admin's list, an admin's choices, and a
// member's read-only list.
func TestSettingsPanelsFollowEveryChange(t *testing.T) {
	h := newHarness(t)
	require.NoError(t, h.srv.MakeAdmin(h.group.ID, h.user("Carol").ID))
	h.command("Alice", "settings")
	admin := h.botSays("Table settings")
	h.command("Carol", "settings")
	choices := h.botSays("Table settings")
	h.pressRaw("Carol", choices.MessageID, openButton(t, choices, "turn"))
	h.messageSays(choices.MessageID, "Turn time: 60\u00a0s\n")
	h.command("Bob", "settings")
	member := h.botSays("Table settings")
	require.Empty(t, member.Buttons())

	h.command("Alice", "settings", "turn", "10s")
	h.botSays("Saved")
	m := h.messageSays(choices.MessageID, "Turn time: 10\u00a0s\n")
	assert.Contains(t, m.Labels(), "10\u00a0s ✓", "the choices stay, the new value marked")
	assert.Empty(t, h.messageSays(member.MessageID, "Turn time: 10\u00a0s").Buttons(), "still read-only")
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.Message(h.group.ID, admin.MessageID)
		return ok && len(m.Labels()) > 3 && m.Labels()[3] == "⏱ Turn time: 10\u00a0s"
	}), "the list shows 10 s")

	h.pressRaw("Alice", admin.MessageID, openButton(t, h.messageSays(admin.MessageID), "stake"))
	stake := h.messageSays(admin.MessageID, "Stake: 10\n")
	a := h.pressRaw("Alice", admin.MessageID, settingsButton(t, stake, "stake", "25"))
	require.Equal(t, "Saved. Stake: 25", a.Text)
	h.messageSays(member.MessageID, "Stake: 25")
	h.messageSays(choices.MessageID, "Turn time: 10\u00a0s\n")

	h.command("Alice", "lang", "ru")
	h.botSays("Язык")
	h.messageSays(admin.MessageID, "Нажми на настройку")
	h.messageSays(choices.MessageID, "Время хода: 10\u00a0с\n")
	h.messageSays(member.MessageID, "Ставка: 25")
}

// TestSettingsChangedMeanwhileShowTheChoicesAsTheyAre: a press on a panel
// drawn for older settings (forgotten over a restart, so not redrawn by
// the change) is told so, changes nothing, and shows the pressed panel
// what it asked for as the settings are now: a stale choice, the
// setting's choices with the new value marked; a stale move, the level
// asked for.
func TestSettingsChangedMeanwhileShowTheChoicesAsTheyAre(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings")
	list := h.botSays("Table settings")
	id := list.MessageID
	h.pressRaw("Alice", id, openButton(t, list, "stake"))
	stake := h.messageSays(id, "Stake: 10\n")
	old := stamp(t, stake)

	// The press confirmed to the server, so that the new bot does not get
	// it again (a move stores nothing to skip it by).
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool { return v.PendingUpdates() == 0 }))
	h.settle()
	h.restart()
	h.command("Alice", "settings", "stake", "50")
	h.botSays("Saved")
	h.settle()
	require.Equal(t, stake.Text, h.messageSays(id).Text, "forgotten: not redrawn")

	a := h.pressRaw("Alice", id, settingsButton(t, stake, "stake", "25"))
	assert.Equal(t, "The settings have changed meanwhile; look again.", a.Text)
	m := h.messageSays(id, "Stake: 50\n")
	assert.Contains(t, m.Labels(), "50 ✓")
	assert.Contains(t, m.Labels(), "← Back")
	assert.NotEqual(t, old, stamp(t, m), "drawn for the settings as they are")
	assert.EqualValues(t, 50, h.storedSettings().Game.Stake, "the stale choice changed nothing")

	// A move drawn for older settings goes where it asked to.
	staleOpen := callback.Data{Action: callback.SettingOpen, Version: old, Field: "knocks"}.String()
	a = h.pressRaw("Alice", id, staleOpen)
	assert.Equal(t, "The settings have changed meanwhile; look again.", a.Text)
	m = h.messageSays(id, "Knocks: 3\n")
	assert.Equal(t, stamp(t, m), h.settingsStamp())
	a = h.pressRaw("Alice", id, callback.Data{Action: callback.SettingBack, Version: old}.String())
	assert.Equal(t, "The settings have changed meanwhile; look again.", a.Text)
	m = h.messageSays(id, "Tap a setting")
	assert.Equal(t, "💰 Stake: 50", m.Labels()[0])
}

// settingsStamp is the stamp of the group's stored settings.
func (h *harness) settingsStamp() uint64 {
	h.t.Helper()
	return callback.Stamp(panel.Edited(h.storedSettings()))
}

// TestSettingsPanelMovesOnlyForAdmins: a member pressing an admin's
// panel, to move it or to choose, is refused, and the panel stays.
func TestSettingsPanelMovesOnlyForAdmins(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings")
	list := h.botSays("Table settings")
	id := list.MessageID
	for _, data := range []string{
		openButton(t, list, "stake"),
		callback.Data{Action: callback.SettingBack, Version: stamp(t, list)}.String(),
		settingsButton(t, list, "stake", "25"),
	} {
		a := h.pressRaw("Bob", id, data)
		assert.Equal(t, "Only the chat's admins can change the settings.", a.Text, data)
		assert.True(t, a.ShowAlert)
	}
	h.settle()
	m := h.messageSays(id)
	assert.Zero(t, m.EditCount, "the panel stays")
	assert.Equal(t, list.Labels(), m.Labels())
	assert.EqualValues(t, 10, h.storedSettings().Game.Stake)
}

// TestSettingsChoicesExplainTheSetting: a setting's choices say what it
// is, in the chat's language; the icon buttons of panels drawn before the
// list still answer what their row set, to anyone.
func TestSettingsChoicesExplainTheSetting(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "settings")
	m := h.botSays("Table settings")
	h.pressRaw("Alice", m.MessageID, openButton(t, m, "entry"))
	h.messageSays(m.MessageID, "Min. balance: 100\nThe balance a player needs to sit down: only checked, not paid.")

	info := callback.Data{Action: callback.SettingInfo, Field: "stake"}.String()
	a := h.pressRaw("Bob", m.MessageID, info)
	assert.Equal(t, "Stake: the chips the banker puts into the bank when a game starts.", a.Text, "a member is told too")

	h.command("Alice", "lang", "ru")
	h.botSays("Язык")
	h.command("Alice", "settings")
	m = h.botSays("Настройки")
	h.pressRaw("Alice", m.MessageID, openButton(t, m, "turn"))
	h.messageSays(m.MessageID, "Время хода: 60\u00a0с\nСколько времени есть у игрока")
	info = callback.Data{Action: callback.SettingInfo, Field: "turn"}.String()
	a = h.pressRaw("Alice", m.MessageID, info)
	assert.Equal(t, "Turn time: how long a player has to bet, draw or stand.", a.Text, "an alert speaks its presser's language")
	hans, err := h.srv.AddMember(h.group.ID, telegramtest.User{FirstName: "Hans", LanguageCode: "de"}, 0)
	require.NoError(t, err)
	h.users["Hans"] = hans
	a = h.pressRaw("Hans", m.MessageID, info)
	assert.Equal(t, "Время хода: сколько времени есть у игрока, чтобы сделать ставку, взять карту или остановиться.", a.Text,
		"the chat's language for a presser whose language the bot does not speak")
}

// TestSettingsPressesOnlyOnAPanel: settings buttons forged onto another
// message (the table's), with the settings' current stamp, by an admin,
// are refused: the table stays a table, and no setting changes.
func TestSettingsPressesOnlyOnAPanel(t *testing.T) {
	h := newHarness(t)
	h.lobby("Bob")
	table := h.tableMessage(contains("Bob"))
	s := h.settingsStamp()
	for _, d := range []callback.Data{
		{Action: callback.SettingOpen, Version: s, Field: "stake"},
		{Action: callback.SettingBack, Version: s},
		{Action: callback.Setting, Version: s, Field: "stake", Value: "25"},
	} {
		a := h.pressRaw("Alice", table.MessageID, d.String())
		assert.Equal(t, "This button doesn't work here.", a.Text, d.String())
	}
	h.settle()
	after := h.messageSays(table.MessageID)
	assert.Equal(t, table.Text, after.Text, "the table stays a table")
	assert.Equal(t, table.Labels(), after.Labels())
	assert.EqualValues(t, 10, h.storedSettings().Game.Stake)
}
