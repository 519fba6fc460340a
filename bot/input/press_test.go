package input

import (
	"context"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// pop is a toast's text in English.
func pop(key i18n.Key, args ...any) string { return i18n.T(i18n.EN, key, args...) }

// TestPressRefuses: a press that may not apply, by who pressed, what the
// data says, or when, is told why, and changes nothing.
func TestPressRefuses(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fixture)
		// press presses, and returns the answer.
		press func(f *fixture) telegramtest.CallbackAnswer
		want  string
		alert bool
	}{
		{"data that does not parse", (*fixture).lobbyBob, func(f *fixture) telegramtest.CallbackAnswer {
			return f.press(f.group.ID, "Bob", f.view(f.group.ID).MessageID, "zz:1")
		}, pop(i18n.PopBadButton), false},
		{"a table's version forged as 0", (*fixture).lobbyBob, func(f *fixture) telegramtest.CallbackAnswer {
			return f.press(f.group.ID, "Carol", f.view(f.group.ID).MessageID, "j:0")
		}, pop(i18n.PopBadButton), false},
		{"a verb no chat shows", (*fixture).lobbyBob, func(f *fixture) telegramtest.CallbackAnswer {
			return f.press(f.group.ID, "Carol", f.view(f.group.ID).MessageID, "p:10:100:en")
		}, pop(i18n.PopBadButton), false},
		{"a button drawn for an older table", (*fixture).lobbyBob, func(f *fixture) telegramtest.CallbackAnswer {
			id, leave := f.button(f.group.ID, callback.Leave)
			f.pressButton(f.group.ID, "Carol", callback.Join)
			return f.press(f.group.ID, "Bob", id, leave)
		}, pop(i18n.PopOutdated), false},
		{"a seated player's button by one not seated", (*fixture).lobbyBob, func(f *fixture) telegramtest.CallbackAnswer {
			return f.pressButton(f.group.ID, "Carol", callback.Leave)
		}, pop(i18n.PopNotSeated), false},
		{"the house's seat by one not seated", (*fixture).lobbyBob, func(f *fixture) telegramtest.CallbackAnswer {
			return f.pressButton(f.group.ID, "Carol", callback.SeatHouse)
		}, pop(i18n.PopHousePlayersOnly), false},
		{"a bet by the banker", (*fixture).betting, func(f *fixture) telegramtest.CallbackAnswer {
			return f.pressButton(f.group.ID, "Alice", callback.Bet)
		}, pop(i18n.PopBanker), false},
		{"a bet by one not seated", (*fixture).betting, func(f *fixture) telegramtest.CallbackAnswer {
			return f.pressButton(f.group.ID, "Carol", callback.Bet)
		}, pop(i18n.PopNotSeated), false},
		{"a bet the table does not offer", (*fixture).betting, func(f *fixture) telegramtest.CallbackAnswer {
			id, _ := f.button(f.group.ID, callback.Bet)
			d := callback.Data{Action: callback.Bet, Version: f.table(f.group.ID).Version(), Amount: 7}
			return f.press(f.group.ID, "Bob", id, d.String())
		}, pop(i18n.PopNotOffered), false},
		{"the settings by a member", func(f *fixture) { f.panel() }, func(f *fixture) telegramtest.CallbackAnswer {
			m := f.message(f.group.ID, lastBotMessage(f, f.group.ID))
			return f.pressOn(m, "Bob", actionsOf(m)[callback.SettingOpen][0])
		}, pop(i18n.SettingsAdminOnly), true},
		{"a setting's button forged onto the table", (*fixture).lobbyBob, func(f *fixture) telegramtest.CallbackAnswer {
			d := callback.Data{Action: callback.SettingBack, Version: 1}
			return f.press(f.group.ID, "Alice", f.view(f.group.ID).MessageID, d.String())
		}, pop(i18n.PopBadButton), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.setup(f)
			before := f.view(f.group.ID)
			a := tt.press(f)
			assert.Equal(t, tt.want, a.Text)
			assert.Equal(t, tt.alert, a.ShowAlert)
			after := f.view(f.group.ID)
			assert.Equal(t, before.Table.Version()+uint64(joinedMeanwhile(tt.name)), after.Table.Version(), "nothing changed")
		})
	}
}

// joinedMeanwhile is how many presses a case of TestPressRefuses makes
// that apply before its refused one.
func joinedMeanwhile(name string) int {
	if name == "a button drawn for an older table" {
		return 1
	}
	return 0
}

// lobbyBob opens the group's table with Alice and Bob seated.
func (f *fixture) lobbyBob() { f.lobby("Bob") }

// TestADoubleTapIsToldWhatTheFirstWas: the second press of a button the
// first took away is answered as the first was, and applies nothing.
func TestADoubleTapIsToldWhatTheFirstWas(t *testing.T) {
	f := newFixture(t)
	f.lobby()
	id, join := f.button(f.group.ID, callback.Join)
	first := f.press(f.group.ID, "Bob", id, join)
	version := f.table(f.group.ID).Version()
	second := f.press(f.group.ID, "Bob", id, join)
	assert.Equal(t, first.Text, second.Text)
	assert.NotEqual(t, pop(i18n.PopOutdated), second.Text)
	assert.Equal(t, version, f.table(f.group.ID).Version())
	// Another's press of that button is no double tap.
	third := f.press(f.group.ID, "Carol", id, join)
	assert.Equal(t, pop(i18n.PopOutdated), third.Text)
}

// take returns the updates the server holds, without handling them.
func (f *fixture) take() []botapi.Update {
	f.t.Helper()
	raws, err := f.api.GetUpdates(f.ctx(), f.offset, 0, nil)
	require.NoError(f.t, err)
	var out []botapi.Update
	for _, raw := range raws {
		u, err := botapi.Decode(raw)
		require.NoError(f.t, err)
		f.offset = u.UpdateID + 1
		out = append(out, u)
	}
	return out
}

// pressTaken presses data on the table message of the group as name and
// returns the press's update, not handled, and its handle.
func (f *fixture) pressTaken(name, data string) (botapi.Update, *telegramtest.Callback) {
	f.t.Helper()
	cb, err := f.srv.Press(telegramtest.Press{ChatID: f.group.ID, From: f.user(name).ID, MessageID: f.view(f.group.ID).MessageID, Data: data})
	require.NoError(f.t, err)
	us := f.take()
	require.Len(f.t, us, 1)
	return us[0], cb
}

// TestPressTableChecksWhatTheDataCannot: what a press carries besides its
// data is checked too: a stand-in (an anonymous admin) cannot play, a
// table's button given version 0 is a bad button (game.Apply would check
// no version), a press with nobody to act for is answered and skipped, a
// press in a channel is refused; and a press delivered again applies once.
func TestPressTableChecksWhatTheDataCannot(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(u *botapi.Update)
		want   string
		alert  bool
		moves  uint64
	}{
		{"as delivered", func(*botapi.Update) {}, "", false, 1},
		{"by an anonymous admin", func(u *botapi.Update) {
			u.CallbackQuery.From = &tgbotapi.User{ID: telegramtest.AnonymousAdminID, IsBot: true, FirstName: "Group"}
		}, pop(i18n.PopAnonymous), true, 0},
		{"with nobody to act for", func(u *botapi.Update) { u.CallbackQuery.From = nil }, "", false, 0},
		{"in a channel", func(u *botapi.Update) { u.CallbackQuery.Message.Chat.Type = "channel" }, pop(i18n.GroupsOnly), true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.lobby()
			_, join := f.button(f.group.ID, callback.Join)
			before := f.table(f.group.ID).Version()
			u, cb := f.pressTaken("Bob", join)
			tt.tamper(&u)
			f.handle(u)
			f.settle()
			a, ok := cb.Answer()
			require.True(t, ok, "answered")
			if tt.moves == 0 {
				assert.Equal(t, tt.want, a.Text)
			} else {
				assert.Equal(t, pop(i18n.PopJoined), a.Text, "Join's toast")
			}
			assert.Equal(t, tt.alert, a.ShowAlert)
			assert.Equal(t, before+tt.moves, f.table(f.group.ID).Version())
			// Delivered again: nothing more applies.
			f.handle(u)
			f.settle()
			assert.Equal(t, before+tt.moves, f.table(f.group.ID).Version(), "applied once")
		})
	}

	f := newFixture(t)
	f.lobby()
	u, cb := f.pressTaken("Bob", "j:1")
	d, err := callback.Parse(u.CallbackQuery.Data)
	require.NoError(t, err)
	d.Version = 0 // no version: a check game.Apply would skip
	f.host.mu.Lock()
	f.h.PressTable(context.Background(), TablePress{Update: u, Key: f.view(f.group.ID).Key, Data: d, Chat: u.CallbackQuery.Message.Chat})
	f.host.mu.Unlock()
	f.settle()
	a, ok := cb.Answer()
	require.True(t, ok)
	assert.Equal(t, pop(i18n.PopBadButton), a.Text)
	assert.Equal(t, []string{"Alice"}, f.seated(f.group.ID))
}

// TestAPressOnAMessageGoneIsAppliedToNothing: a press on a message
// Telegram no longer gives names no topic: it is told the table moved on
// and the table is shown again, in a message of its own; but a button
// whose row needs no message (Unfollow) still works there.
func TestAPressOnAMessageGoneIsAppliedToNothing(t *testing.T) {
	f := newFixture(t)
	f.lobby()
	id, join := f.button(f.group.ID, callback.Join)
	require.NoError(t, f.srv.DeleteMessage(f.group.ID, f.user("Alice").ID, id))
	version := f.table(f.group.ID).Version()
	a := f.press(f.group.ID, "Bob", id, join)
	assert.Equal(t, pop(i18n.PopOutdated), a.Text)
	assert.Equal(t, version, f.table(f.group.ID).Version(), "applied to nothing")
	assert.NotEqual(t, id, f.view(f.group.ID).MessageID, "shown again, anew")
	f.tableMessage(f.group.ID)

	dm := f.srv.PrivateChat(f.user("Bob"))
	f.command(dm.ID, "Bob", "start")
	gone := lastBotMessage(f, dm.ID)
	require.NoError(t, f.srv.DeleteMessage(dm.ID, f.user("Bob").ID, gone))
	a = f.press(dm.ID, "Bob", gone, callback.Data{Action: callback.Unfollow, Chat: f.group.ID}.String())
	assert.Equal(t, pop(i18n.PopNotFollowing), a.Text, "Unfollow needs no message")
}
