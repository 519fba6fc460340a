package input

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// wins plays a game at the group's lobby with Bob: Alice banks, Bob bets
// the stake and draws 21, and the game is over.
func (f *fixture) wins() {
	f.t.Helper()
	f.lobby("Bob")
	f.decks("Th Ah")
	f.pressButton(f.group.ID, "Alice", callback.Start)
	f.pressButton(f.group.ID, "Bob", callback.Bet)
	f.pressButton(f.group.ID, "Bob", callback.Hit)
	v := f.view(f.group.ID)
	require.True(f.t, v.Table.Finished(), "the game is over")
}

// betting starts a game at the group's lobby with Bob: Alice banks, and
// Bob is to bet.
func (f *fixture) betting() {
	f.t.Helper()
	f.lobby("Bob")
	f.decks("Th 9h 7c")
	f.pressButton(f.group.ID, "Alice", callback.Start)
	require.Equal(f.t, game.Betting, f.table(f.group.ID).Phase())
}

// panel sends /settings as Alice (the group's admin) and returns the
// panel's message.
func (f *fixture) panel() telegramtest.ChatMessage {
	f.t.Helper()
	f.command(f.group.ID, "Alice", "settings")
	var m telegramtest.ChatMessage
	require.NoError(f.t, f.srv.WaitFor(f.ctx(), func(v *telegramtest.View) bool {
		var ok bool
		m, ok = v.LastBotMessage(f.group.ID)
		return ok && len(actionsOf(m)) > 0
	}))
	return m
}

// actionsOf returns the data of the message's buttons, by action.
func actionsOf(m telegramtest.ChatMessage) map[callback.Action][]callback.Data {
	out := map[callback.Action][]callback.Data{}
	for _, b := range m.Buttons() {
		if d, err := callback.Parse(b.CallbackData); err == nil {
			out[d.Action] = append(out[d.Action], d)
		}
	}
	return out
}

// message returns the chat's message id as the server holds it now.
func (f *fixture) message(chat int64, id int) telegramtest.ChatMessage {
	f.t.Helper()
	var m telegramtest.ChatMessage
	require.NoError(f.t, f.srv.WaitFor(f.ctx(), func(v *telegramtest.View) bool {
		var ok bool
		m, ok = v.Message(chat, id)
		return ok
	}))
	return m
}

// pressOn presses the button of the message whose data d is, as name.
func (f *fixture) pressOn(m telegramtest.ChatMessage, name string, d callback.Data) telegramtest.CallbackAnswer {
	f.t.Helper()
	return f.press(m.Chat.ID, name, m.MessageID, d.String())
}

// chatRoutes draw each button pressed on a chat's message in a state it
// shows in, press it, and check that the press did what its row says
// (button.Row.Does): a game command applied, the house seated or stood
// up, the decks sent, a setting changed, the panel moved, a setting
// explained, a group no more followed.
var chatRoutes = map[callback.Action]func(t *testing.T, f *fixture){
	callback.Join: func(t *testing.T, f *fixture) {
		f.lobby()
		a := f.pressButton(f.group.ID, "Bob", callback.Join)
		assert.Equal(t, []string{"Alice", "Bob"}, f.seated(f.group.ID))
		assert.False(t, a.ShowAlert)
		assert.Contains(t, f.tableMessage(f.group.ID).Text, "Bob")
	},
	callback.Leave: func(t *testing.T, f *fixture) {
		f.lobby("Bob")
		f.pressButton(f.group.ID, "Bob", callback.Leave)
		assert.Equal(t, []string{"Alice"}, f.seated(f.group.ID))
	},
	callback.Start: func(t *testing.T, f *fixture) {
		f.betting()
		assert.Equal(t, uint64(1), f.table(f.group.ID).Game())
	},
	callback.SeatHouse: func(t *testing.T, f *fixture) {
		f.lobby()
		a := f.pressButton(f.group.ID, "Alice", callback.SeatHouse)
		assert.Equal(t, i18n.T(i18n.EN, i18n.PopHouseSeated), a.Text)
		assert.Equal(t, []string{"Alice", "House"}, f.seated(f.group.ID))
	},
	callback.UnseatHouse: func(t *testing.T, f *fixture) {
		f.lobby()
		f.pressButton(f.group.ID, "Alice", callback.SeatHouse)
		a := f.pressButton(f.group.ID, "Alice", callback.UnseatHouse)
		assert.Equal(t, i18n.T(i18n.EN, i18n.PopHouseUnseated), a.Text)
		assert.Equal(t, []string{"Alice"}, f.seated(f.group.ID))
	},
	callback.Bet: func(t *testing.T, f *fixture) {
		f.betting()
		id, data := f.button(f.group.ID, callback.Bet)
		d, err := callback.Parse(data)
		require.NoError(t, err)
		f.press(f.group.ID, "Bob", id, data)
		tb := f.table(f.group.ID)
		assert.Equal(t, game.Drawing, tb.Phase())
		i, _ := tb.SeatOf(game.UserID(f.user("Bob").ID))
		assert.Equal(t, d.Amount, tb.Seat(i).Bet, "the bet the button names")
	},
	callback.Hit: func(t *testing.T, f *fixture) {
		f.betting()
		f.pressButton(f.group.ID, "Bob", callback.Bet)
		f.pressButton(f.group.ID, "Bob", callback.Hit)
		v := f.view(f.group.ID)
		i, _ := v.Table.SeatOf(game.UserID(f.user("Bob").ID))
		assert.Equal(t, 2, v.Table.Seat(i).Hand.Len(), "a second card")
	},
	callback.Stand: func(t *testing.T, f *fixture) {
		f.betting()
		f.pressButton(f.group.ID, "Bob", callback.Bet)
		f.pressButton(f.group.ID, "Bob", callback.Stand)
		tb := f.table(f.group.ID)
		i, turn := tb.Turn()
		assert.False(t, turn && tb.Phase() == game.Drawing && tb.Seat(i).User == game.UserID(f.user("Bob").ID),
			"Bob draws no more: the banker drew")
		assert.Contains(t, f.tableMessage(f.group.ID).Text, "Bob")
	},
	callback.NewTable: func(t *testing.T, f *fixture) {
		f.lobby()
		f.command(f.group.ID, "Alice", "cancel")
		closed := f.view(f.group.ID)
		require.Equal(t, game.Closed, closed.Table.Phase())
		f.pressButton(f.group.ID, "Bob", callback.NewTable)
		v := f.view(f.group.ID)
		assert.Equal(t, game.Lobby, v.Table.Phase())
		assert.Equal(t, []string{"Bob"}, f.seated(f.group.ID), "opened by Bob, seated")
		assert.NotEqual(t, closed.MessageID, v.MessageID, "the lobby is posted at the bottom (Repost)")
	},
	callback.Verify: func(t *testing.T, f *fixture) {
		f.wins()
		a := f.pressButton(f.group.ID, "Carol", callback.Verify)
		assert.Empty(t, a.Text)
		m, err := f.srv.WaitForEphemeralMessage(f.ctx(), f.group.ID, f.user("Carol").ID, telegramtest.TextContains("Game 1"))
		require.NoError(t, err, "the decks, to Carol alone")
		assert.Equal(t, f.user("Carol").ID, m.VisibleTo)
		a = f.pressButton(f.group.ID, "Carol", callback.Verify)
		assert.Equal(t, i18n.T(i18n.EN, i18n.PopVerifySent), a.Text, "once")
	},
	callback.Cut: func(t *testing.T, f *fixture) {
		f.lobby("Bob")
		f.decks("Th 9h 7c")
		f.pressButton(f.group.ID, "Alice", callback.Start)
		require.Equal(t, game.Cutting, f.table(f.group.ID).Phase(), "the deck waits for its cut")
		id, _ := f.button(f.group.ID, callback.Cut)
		data := callback.Data{Action: callback.Cut, Version: f.table(f.group.ID).Version(), Tap: 2}
		a := f.press(f.group.ID, "Bob", id, data.String())
		assert.Equal(t, "✂️ Deck cut · your bet first · your card 10♥ (10)", a.Text, "Bob, who cut, bets first")
		tb := f.table(f.group.ID)
		assert.Equal(t, game.Betting, tb.Phase(), "dealt")
		c, ok := tb.Cut()
		require.True(t, ok)
		assert.Equal(t, game.UserID(f.user("Bob").ID), c.By)
		assert.Equal(t, "tap:2", string(c.Cut), "the tap's text (docs/FAIRNESS.md)")
	},
	callback.SettingOpen: func(t *testing.T, f *fixture) {
		m := f.panel()
		open := actionsOf(m)[callback.SettingOpen]
		require.NotEmpty(t, open)
		f.pressOn(m, "Alice", open[0])
		assert.NotEmpty(t, actionsOf(f.message(m.Chat.ID, m.MessageID))[callback.SettingBack], "the setting's choices")
	},
	callback.Setting: func(t *testing.T, f *fixture) {
		m := f.panel()
		f.pressOn(m, "Alice", callback.Data{Action: callback.SettingOpen, Version: actionsOf(m)[callback.SettingOpen][0].Version,
			Field: "stake"})
		var choice callback.Data
		for _, d := range actionsOf(f.message(m.Chat.ID, m.MessageID))[callback.Setting] {
			if d.Field == "stake" && d.Value == "25" {
				choice = d
			}
		}
		require.Equal(t, callback.Setting, choice.Action, "a stake of 25 offered")
		f.pressOn(m, "Alice", choice)
		s, err := f.store.Settings(context.Background(), f.group.ID)
		require.NoError(t, err)
		assert.EqualValues(t, 25, s.Game.Stake)
	},
	callback.SettingBack: func(t *testing.T, f *fixture) {
		m := f.panel()
		f.pressOn(m, "Alice", actionsOf(m)[callback.SettingOpen][0])
		back := actionsOf(f.message(m.Chat.ID, m.MessageID))[callback.SettingBack]
		require.Len(t, back, 1)
		f.pressOn(m, "Alice", back[0])
		assert.NotEmpty(t, actionsOf(f.message(m.Chat.ID, m.MessageID))[callback.SettingOpen], "the list again")
	},
	callback.SettingInfo: func(t *testing.T, f *fixture) {
		// Drawn by panels before the list: their data still explains.
		m := f.panel()
		a := f.pressOn(m, "Bob", callback.Data{Action: callback.SettingInfo, Field: "stake"})
		assert.True(t, a.ShowAlert)
		assert.Equal(t, render.SettingInfo(i18n.EN, "stake"), a.Text)
	},
	callback.Unfollow: func(t *testing.T, f *fixture) {
		bob := f.user("Bob")
		dm := f.srv.PrivateChat(bob)
		f.command(dm.ID, "Bob", "start")
		f.command(f.group.ID, "Bob", "notify")
		f.command(dm.ID, "Bob", "notify")
		list := f.message(dm.ID, lastBotMessage(f, dm.ID))
		unfollow := actionsOf(list)[callback.Unfollow]
		require.Len(t, unfollow, 1, "the group followed, with its button")
		a := f.pressOn(list, "Bob", unfollow[0])
		assert.Equal(t, i18n.T(i18n.EN, i18n.PopUnfollowed), a.Text)
		fs, err := f.store.Follows(context.Background(), game.UserID(bob.ID))
		require.NoError(t, err)
		assert.Empty(t, fs)
	},
}

// lastBotMessage returns the id of the bot's last message in chat.
func lastBotMessage(f *fixture, chat int64) int {
	f.t.Helper()
	id := 0
	require.NoError(f.t, f.srv.WaitFor(f.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.LastBotMessage(chat)
		id = m.MessageID
		return ok
	}))
	return id
}

// TestEveryChatButtonRoutes: each row pressed on a chat's message is drawn
// in some state and its press does what the row says; every other verb
// pressed in a chat (the app's link's too) is a bad button.
func TestEveryChatButtonRoutes(t *testing.T) {
	for _, r := range button.Rows() {
		t.Run(r.Action.String(), func(t *testing.T) {
			var f *fixture
			if r.Action == callback.Cut {
				f = newFixture(t, cutting)
			} else {
				f = newFixture(t)
			}
			if r.Kinds&button.Chats == 0 || !r.Pressed() {
				// Not pressed in a chat (a link is pressed nowhere: its
				// forged data is refused as any other's).
				f.lobby()
				before := f.table(f.group.ID).Version()
				data := callback.Data{Action: r.Action, Version: before, Amount: 10, Entry: 100, Lang: "en", Game: 1}
				a := f.press(f.group.ID, "Bob", f.view(f.group.ID).MessageID, data.String())
				assert.Equal(t, i18n.T(i18n.EN, i18n.PopBadButton), a.Text, "%s is not pressed in a chat", r.Action)
				assert.Equal(t, before, f.table(f.group.ID).Version(), "and changes nothing")
				return
			}
			route, ok := chatRoutes[r.Action]
			require.True(t, ok, "a route of %s", r.Action)
			require.NotNil(t, chatEffects[r.Does], "input does %d", r.Does)
			route(t, f)
		})
	}
}

// TestSoloButtonsRoute: at a solo table (a private chat) Start shows once
// the house sits; Close (Leave) stands the player up with the house, and
// the table closes; New table opens a solo table again, the house seated.
func TestSoloButtonsRoute(t *testing.T) {
	f := newFixture(t)
	dm := f.srv.PrivateChat(f.user("Dave"))
	f.command(dm.ID, "Dave", "newgame")
	assert.Equal(t, []string{"Dave", "House"}, f.seated(dm.ID))
	id, _ := f.button(dm.ID, callback.Start)
	assert.Contains(t, buttonLabels(f.tableMessage(dm.ID)), i18n.T(i18n.EN, i18n.BtnClose), "Leave is Close at a solo table")
	assert.NotZero(t, id)

	f.pressButton(dm.ID, "Dave", callback.Leave)
	assert.Equal(t, game.Closed, f.table(dm.ID).Phase(), "the house stood up with its player")

	a := f.pressButton(dm.ID, "Dave", callback.NewTable)
	assert.False(t, a.ShowAlert, a.Text)
	assert.Equal(t, []string{"Dave", "House"}, f.seated(dm.ID), "a solo table: the house sits down (OpensSolo)")
	_, seated := f.table(dm.ID).SeatOf(house.ID)
	assert.True(t, seated)
}

// buttonLabels returns the labels of a message's buttons.
func buttonLabels(m telegramtest.ChatMessage) []string {
	var out []string
	for _, b := range m.Buttons() {
		out = append(out, b.Text)
	}
	return out
}
