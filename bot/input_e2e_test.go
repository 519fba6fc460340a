package bot_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/setting"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// lobby opens a table as Alice and seats the others named.
func (h *harness) lobby(names ...string) {
	h.t.Helper()
	h.command("Alice", "newgame")
	h.tableMessage(contains("Alice"))
	for _, n := range names {
		h.join(n)
	}
}

func TestEntryLimit(t *testing.T) {
	h := newHarness(t)
	h.lobby()
	// Alice, the group's creator, raises the entry limit over everyone's 1000.
	h.command("Alice", "settings", "entry", "5000")
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.LastBotMessage(h.group.ID)
		return ok && strings.Contains(m.Text, "Saved")
	}))
	before := h.version()
	a := h.join("Bob")
	assert.True(t, a.ShowAlert)
	assert.Equal(t, "You need 5\u202f000\u00a0chips to sit here; you have 1\u202f000\u00a0chips. /bonus gives 100\u00a0chips a day.", a.Text)
	assert.Equal(t, before, h.version(), "a refused join changes nothing")
	v := h.view()
	assert.Equal(t, 1, v.Table.NumSeats(), "Alice only (seated before the change)")

	// At the start, Alice (below the new limit) is stood up.
	h.command("Alice", "settings", "entry", "100")
	h.join("Bob")
	h.command("Alice", "settings", "entry", "1000")
	h.tableMessage(contains("Bob"))
	// Both have exactly 1000: the game starts.
	h.startGame("Bob")
	v = h.view()
	assert.Equal(t, game.Betting, v.Table.Phase())
}

// TestBonusWhileOnTheTable: the chips a user has on the table count
// towards the entry limit: the banker, whose stake is in the bank, is
// refused the bonus while worth the limit with it.
func TestBonusWhileOnTheTable(t *testing.T) {
	h := newHarness(t)
	h.decks("Kh Tc")
	h.lobby("Bob")
	h.command("Alice", "settings", "entry", "1000") // everyone has exactly 1000
	h.botSays("Saved")
	h.startGame("Alice")
	h.tableMessage(contains("your bet, Bob"))
	v := h.view()
	i, ok := v.Table.Banker()
	require.True(t, ok)
	require.Equal(t, h.user("Alice").FirstName, v.Table.Seat(i).Name, "Alice is the banker")
	require.EqualValues(t, 990, h.balance("Alice"), "her stake of 10 is in the bank")

	h.command("Alice", "bonus")
	h.botSays("Alice, the bonus is for balances below 1\u202f000\u00a0chips; yours is 990\u00a0chips, with 10\u00a0chips more on the table.")
	assert.EqualValues(t, 990, h.balance("Alice"), "no bonus")
	h.audit()
}

func TestStaleButtonsAndDoubleTaps(t *testing.T) {
	h := newHarness(t)
	h.lobby("Bob")
	m := h.tableMessage(contains("Bob"))
	var joinData string
	for _, b := range m.Buttons() {
		if d, _ := callback.Parse(b.CallbackData); d.Action == callback.Join {
			joinData = b.CallbackData
		}
	}
	require.NotEmpty(t, joinData)
	// Carol joins; a double tap of the same button is told what the first
	// tap was, and applies nothing.
	a := h.pressRaw("Carol", m.MessageID, joinData)
	assert.Equal(t, "You're in.", a.Text)
	v := h.version()
	a = h.pressRaw("Carol", m.MessageID, joinData)
	assert.Equal(t, "You're in.", a.Text)
	assert.Equal(t, v, h.version())
	// Dave presses the stale Join of an older render: outdated too.
	a = h.pressRaw("Dave", m.MessageID, joinData)
	assert.Equal(t, "This table has moved on.", a.Text)
	st := h.view()
	assert.Equal(t, 3, st.Table.NumSeats())
}

func TestForgedCallbackData(t *testing.T) {
	h := newHarness(t)
	h.decks("Kh Tc 9d")
	h.lobby("Bob", "Carol")
	h.startGame("Alice")
	m := h.tableMessage(func(m telegramtest.ChatMessage) bool { return len(m.Buttons()) > 0 })
	ver := strconv.FormatUint(h.version(), 10)

	// A second group with its own table, at another version.
	other := h.srv.NewGroup("Other", h.user("Alice"), h.user("Bob"))
	_, err := h.srv.SendCommand(other.ID, h.user("Alice").ID, "newgame")
	require.NoError(t, err)
	otherMsg, err := h.srv.WaitForBotMessage(h.ctx(), other.ID, telegramtest.HasButton("Join"))
	require.NoError(t, err)
	otherJoin, _ := otherMsg.Button("Join")

	before := h.view()
	beforeBalances := map[string]int64{}
	for _, n := range []string{"Alice", "Bob", "Carol", "Dave"} {
		beforeBalances[n] = h.balance(n)
	}
	tests := []struct {
		name, from, data, want string
	}{
		{"random bytes", "Bob", "\x00\xff\x13garbage", "This button doesn't work here."},
		{"another chat's table", "Bob", otherJoin.CallbackData, "This table has moved on."},
		{"a bet not offered", "Bob", "b:" + ver + ":7", "That bet isn't offered."},
		{"a negative bet", "Bob", "b:" + ver + ":-10", "This button doesn't work here."},
		{"a huge bet", "Bob", "b:" + ver + ":99999999999999999999", "This button doesn't work here."},
		{"a bet above the bank", "Bob", "b:" + ver + ":1000", "That bet isn't offered."},
		{"another user's turn", "Carol", "b:" + ver + ":10", "It's Bob's turn."},
		{"a stranger", "Dave", "b:" + ver + ":10", "You're not at this table."},
		{"the banker", "Alice", "b:" + ver + ":10", "You're the banker: the game plays your hand."},
		{"hit while betting", "Bob", "h:" + ver, "Not now."},
		{"a version from the future", "Bob", "b:" + strconv.FormatUint(h.version()+5, 10) + ":10", "This table has moved on."},
		{"trailing garbage", "Bob", "b:" + ver + ":10:x", "This button doesn't work here."},
		{"too long", "Bob", strings.Repeat("j", 65), "This button doesn't work here."},
		{"a setting by a non-admin", "Bob", "c:1:stake:25", "Only the chat's admins can change the settings."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := h.pressRaw(tt.from, m.MessageID, tt.data)
			assert.Equal(t, tt.want, a.Text)
		})
	}
	after := h.view()
	assert.Equal(t, before.Table.Version(), after.Table.Version(), "no forged press changed the table")
	for n, b := range beforeBalances {
		assert.Equal(t, b, h.balance(n), n)
	}
	s, err := h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	assert.EqualValues(t, 10, s.Game.Stake)
	h.audit()
}

// TestForgedPressInAPrivateChat: a private chat has a table once its user
// opens one (solo play); buttons forged on the bot's message there before
// that are refused as in a group, and open nothing.
func TestForgedPressInAPrivateChat(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice")
	dm, msg := h.startPrivately(alice)
	for data, want := range map[string]string{
		"n:0":          "This button doesn't work here.",
		"j:0":          "This button doesn't work here.",
		"a:1":          "This table has moved on.",
		"c:0:stake:25": "This button doesn't work here.", // no settings panel
		"v:1":          "This button doesn't work here.",
	} {
		cb, err := h.srv.Press(telegramtest.Press{ChatID: dm.ID, From: alice.ID, MessageID: msg.MessageID, Data: data})
		require.NoError(t, err)
		a, err := cb.Wait(h.ctx())
		require.NoError(t, err)
		assert.Equal(t, want, a.Text, data)
	}
	v, err := h.store.View(h.ctx(), storage.TableKey{Chat: dm.ID})
	require.NoError(t, err)
	assert.Equal(t, game.Closed, v.Table.Phase())
	assert.Zero(t, v.Table.Version(), "no table was ever opened")
	fromBot := 0
	for _, m := range h.srv.Messages(dm.ID) {
		if m.FromBot {
			fromBot++
		}
	}
	assert.Equal(t, 1, fromBot, "the bot sent nothing more")
}

// TestLongArgumentsAreQuotedShort: a reply that quotes what an admin typed
// quotes a short part of it, so that it stays within Telegram's 4096
// characters and the admin gets an answer.
func TestLongArgumentsAreQuotedShort(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("9", 4000)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"turn", long}, " is not a value for turn."},
		{[]string{"lang", long}, "…: use en, ru or uk."},
		{[]string{long, "1"}, "The settings: " + setting.Keys() + "."},
	}
	for i, tt := range tests {
		sent := h.command("Alice", "settings", tt.args...)
		m, err := h.srv.WaitForBotMessage(h.ctx(), h.group.ID, func(m telegramtest.ChatMessage) bool {
			return m.MessageID > sent.MessageID && strings.Contains(m.Text, "99…")
		})
		require.NoError(t, err, "case %d", i)
		assert.Less(t, len([]rune(m.Text)), 200, m.Text)
		assert.Contains(t, m.Text, tt.want)
	}
	h.command("Alice", "lang", long)
	_, err := h.srv.WaitForBotMessage(h.ctx(), h.group.ID, telegramtest.TextContains("99…"))
	require.NoError(t, err)
	assert.Zero(t, h.srv.Calls().Failed("sendMessage"), "no reply was refused")
}

// TestSettingsRefusedWithTheReason: an admin's invalid setting is refused
// with what is wrong, and changes nothing; a valid one made during a game
// applies from the next game, the game in progress keeping its own.
func TestSettingsRefusedWithTheReason(t *testing.T) {
	h := newHarness(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"entry", "5"}, "Not valid: the minimum balance 5 is below the stake 10"},
		{[]string{"stake", "-3"}, "Not valid: the stake must be from 1 to "},
		{[]string{"bets", "x2 x2"}, "Not valid: the bet x2 is there twice"},
		{[]string{"bets", "x1 x2 x3 x4 x5 x6 x7 x8 x9"}, "Not valid: choose 1 to "},
		{[]string{"bets", "x2 y3"}, "Not valid: write bets as x1 x2 x5 bank/2 bank"},
		{[]string{"turn", "1s"}, "Not valid: the turn time must be from "},
		{[]string{"knocks", "many"}, "Not valid: "},
	}
	for _, tt := range tests {
		h.command("Alice", "settings", tt.args...)
		h.botSays(tt.want)
	}
	s, err := h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	assert.EqualValues(t, 10, s.Game.Stake)
	assert.EqualValues(t, 100, s.Game.EntryLimit)
	assert.Equal(t, time.Minute, s.Game.TurnTimeout)

	h.decks("Kh Tc 9d Ts")
	h.lobby("Bob")
	h.startGame("Alice")
	h.command("Alice", "settings", "stake", "20")
	h.botSays("Saved. The game in progress keeps its settings.")
	v := h.view()
	assert.EqualValues(t, 10, v.Table.Bank(), "the game in progress keeps its stake")
	s, err = h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	assert.EqualValues(t, 20, s.Game.Stake)
}

// startPrivately sends /start in the user's private chat with the bot and
// returns the chat and the bot's answer.
func (h *harness) startPrivately(u telegramtest.User) (telegramtest.Chat, telegramtest.ChatMessage) {
	h.t.Helper()
	dm := h.srv.PrivateChat(u)
	_, err := h.srv.SendCommand(dm.ID, u.ID, "start")
	require.NoError(h.t, err)
	msg, err := h.srv.WaitForBotMessage(h.ctx(), dm.ID, func(telegramtest.ChatMessage) bool { return true })
	require.NoError(h.t, err)
	return dm, msg
}

// TestStartInAPrivateChat: /start in a private chat offers solo play
// against the house, and says how to add the bot to a group; a command for
// groups only says so.
func TestStartInAPrivateChat(t *testing.T) {
	h := newHarness(t)
	alice := h.user("Alice")
	dm, msg := h.startPrivately(alice)
	assert.Contains(t, msg.Text, "Play against me right here: /newgame")
	assert.Contains(t, msg.Text, "add me to a group")
	_, err := h.srv.SendCommand(dm.ID, alice.ID, "kick")
	require.NoError(t, err)
	_, err = h.srv.WaitForBotMessage(h.ctx(), dm.ID, telegramtest.TextContains("That works in group chats only."))
	require.NoError(t, err)
}

func TestNonAdminCannotChangeSettings(t *testing.T) {
	h := newHarness(t)
	// Everyone sees the settings; only admins get the buttons.
	h.command("Bob", "settings")
	ro := h.botSays("Table settings", "Stake: 10")
	assert.Empty(t, ro.Buttons(), "a member sees the settings read-only")
	h.command("Bob", "settings", "stake", "50")
	h.botSays("Only the chat's admins can change the settings.")
	// The admin's /settings shows the keyboard; Bob pressing it is refused.
	h.command("Alice", "settings")
	msg := h.botSays("Table settings")
	stakeButton := settingsButton(t, msg, "stake", "25")
	a := h.pressRaw("Bob", msg.MessageID, stakeButton)
	assert.Equal(t, "Only the chat's admins can change the settings.", a.Text)
	assert.True(t, a.ShowAlert)
	s, err := h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	assert.EqualValues(t, 10, s.Game.Stake)

	// Alice can; the keyboard is redrawn with the new value.
	a = h.pressRaw("Alice", msg.MessageID, stakeButton)
	assert.Equal(t, "Saved. Stake: 25", a.Text)
	s, err = h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	assert.EqualValues(t, 25, s.Game.Stake)
	// A double tap of the same (now stale) button changes nothing more.
	a = h.pressRaw("Alice", msg.MessageID, stakeButton)
	assert.Equal(t, "The settings have changed meanwhile; look again.", a.Text)

	// A promoted member may at once: every change asks Telegram afresh.
	require.NoError(t, h.srv.MakeAdmin(h.group.ID, h.user("Bob").ID))
	h.command("Bob", "settings", "knocks", "1")
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		s, err := h.store.Settings(h.ctx(), h.group.ID)
		return err == nil && s.Game.MaxKnocks == 1
	}))
}

func TestCommandForAnotherBotIsIgnored(t *testing.T) {
	h := newHarness(t)
	_, err := h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user("Alice").ID, Text: "/newgame@some_other_bot"})
	require.NoError(t, err)
	_, err = h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user("Alice").ID, Text: h.srv.CommandFor("balance")})
	require.NoError(t, err)
	// The /balance addressed to us is answered; the other bot's /newgame is not.
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.LastBotMessage(h.group.ID)
		return ok && strings.Contains(m.Text, "your balance")
	}))
	v := h.view()
	assert.Equal(t, game.Closed, v.Table.Phase())
	for _, m := range h.srv.Messages(h.group.ID) {
		assert.False(t, m.FromBot && len(m.Buttons()) > 0, "no table was opened: %q", m.Text)
	}
}
