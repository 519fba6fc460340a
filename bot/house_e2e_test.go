package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// seatHouse presses the lobby's button that seats the house, as the user.
func (h *harness) seatHouse(name string) telegramtest.CallbackAnswer {
	return h.pressData(name, action(callback.SeatHouse))
}

// houseToMove reports whether the stored table waits for the house's move.
func (h *harness) houseToMove() bool {
	h.t.Helper()
	v := h.view()
	i, ok := v.Table.Turn()
	return ok && v.Table.Seat(i).User == house.ID
}

// houseMoves lets the house make its moves: while it is to move, the clock
// moves on by the longest it thinks, and the test waits for the move. It
// returns how many moves the house made.
func (h *harness) houseMoves() int {
	h.t.Helper()
	moves := 0
	for h.houseToMove() {
		require.Less(h.t, moves, 12, "the house keeps moving")
		before := h.version()
		h.clock.Advance(house.MinDelay + house.DelaySpread)
		require.NoError(h.t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
			v, err := h.store.View(context.Background(), h.key())
			return err == nil && v.Table.Version() > before
		}), "the house moves")
		moves++
	}
	return moves
}

// houseBalance returns the house's stored balance in the chat.
func (h *harness) houseBalance() int64 {
	h.t.Helper()
	st, err := h.store.Standing(context.Background(), h.group.ID, house.ID)
	require.NoError(h.t, err)
	return st.Balance
}

// TestSeatAndUnseatTheHouse: a seated player seats the house with the
// lobby's button or /house, and unseats it with the button; nobody else
// can. Its account is granted the house's chips once.
func TestSeatAndUnseatTheHouse(t *testing.T) {
	h := newHarness(t)
	h.lobby()
	assert.Equal(t, "Only a player at the table can seat or unseat the house.", h.seatHouse("Bob").Text)
	assert.Equal(t, "The house sits down.", h.seatHouse("Alice").Text)
	m := h.tableMessage(contains("2. 🤖 House — 10\u202f000"))
	assert.Contains(t, m.Labels(), "🤖 Unseat the house")
	assert.NotContains(t, m.Labels(), "🤖 Seat the house")

	assert.Equal(t, "Only a player at the table can seat or unseat the house.",
		h.pressData("Bob", action(callback.UnseatHouse)).Text)
	assert.Equal(t, "The house stands up.", h.pressData("Alice", action(callback.UnseatHouse)).Text)
	m = h.tableMessage(func(m telegramtest.ChatMessage) bool { return !contains("House")(m) })
	assert.Contains(t, m.Labels(), "🤖 Seat the house")

	h.command("Alice", "house", "off")
	h.botSays("/house takes nothing after it")
	v := h.view()
	_, seated := v.Table.SeatOf(house.ID)
	assert.False(t, seated, "an argument seats nobody")
	h.command("Alice", "house")
	h.botSays("The house sits down.")
	h.tableMessage(contains("🤖 House"))
	h.command("Alice", "house")
	h.botSays("The house is already at the table.")
	h.command("Bob", "house")
	h.botSays("Only a player at the table can seat or unseat the house.")

	h.command("Bob", "top")
	h.botSays("1. Alice — 1\u202f000", "🤖 House — 10\u202f000\u00a0chips · net 0 · games: 0")
	a, err := h.store.Audit(context.Background(), h.group.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(1000+10_000), a.Granted, "the house's chips were granted once")
	h.audit()
}

// houseToBet seats the house with Alice, who banks, and starts a game in
// which the house is dealt 7♠, will draw 6♥ (13) and J♣ (15) and stand,
// and Alice draws 10♦ 8♦ = 18: the house is to bet. It returns the table
// message.
func (h *harness) houseToBet() telegramtest.ChatMessage {
	h.t.Helper()
	h.decks("7s 6h Jc Td 8d")
	h.lobby()
	h.seatHouse("Alice")
	h.startGame("Alice")
	return h.tableMessage(contains("🤖 House is thinking…"))
}

// TestHousePlaysAGame: the house bets half the bank and draws to 15, each
// move a second or two after the last, with no button to press meanwhile;
// the banker's hand is drawn by the rules. Chips add up.
func TestHousePlaysAGame(t *testing.T) {
	h := newHarness(t)
	m := h.houseToBet()
	assert.Empty(t, m.Buttons(), "nothing to press while the house thinks")
	before := h.version()
	h.clock.Advance(house.MinDelay - time.Millisecond)
	assert.Equal(t, before, h.version(), "the house thinks for a second at least")

	assert.Equal(t, 4, h.houseMoves(), "bet, hit, hit, stand")
	h.tableMessage(contains("Game over"))
	v := h.view()
	log := v.Table.Log()
	require.Len(t, log, 1)
	assert.Equal(t, int64(5), log[0].Bet, "half the bank")
	assert.Equal(t, "7♠ 6♥ J♣", log[0].Hand.String())
	assert.Equal(t, game.BankerHigher, log[0].Result)
	assert.EqualValues(t, 1005, h.balance("Alice"))
	assert.EqualValues(t, 9995, h.houseBalance())
	h.audit()
}

// TestHouseBanks: as banker the house decides nothing: the player's duel
// is played against the hand the rules draw for it.
func TestHouseBanks(t *testing.T) {
	h := newHarness(t)
	// Alice is dealt 9♠, bets 10, draws 10♦ and stands at 19; the house
	// draws 8♥ 7♣ 6♦ = 21.
	h.decks("9s Td 8h 7c 6d")
	h.deck.Banker = 1
	h.lobby()
	h.seatHouse("Alice")
	h.startGame("Alice")
	h.tableMessage(contains("Banker: 🤖 House"))
	h.bet("Alice", 10)
	h.hit("Alice")
	assert.Equal(t, "Stand at 19 · banker 21: you lose 10", h.stand("Alice").Text, "the toast tells the duel against the house")
	h.tableMessage(contains("🤖 House, the banker, takes the bank: 20 back on a stake of 10 (+10)."))
	assert.EqualValues(t, 990, h.balance("Alice"))
	assert.EqualValues(t, 10_010, h.houseBalance())
	h.audit()
}

// TestHouseBelowTheEntryLimit: a house whose chips are below the entry
// limit cannot sit, and says so; an owner's /grant in reply to the bot's
// message tops it up.
func TestHouseBelowTheEntryLimit(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) { o.owners = []string{"Alice"} })
	m := h.command("Alice", "settings", "entry", "20000")
	h.botSays("Saved.")
	h.reply("Alice", m.MessageID, "/grant 19000")
	h.botSays("Alice got 19\u202f000")
	h.lobby()
	a := h.seatHouse("Alice")
	assert.Equal(t, "The house has 10\u202f000\u00a0chips; the table needs 20\u202f000\u00a0chips. "+
		"A bot owner can top it up with /grant in reply to my message.", a.Text)
	assert.True(t, a.ShowAlert)
	_, err := h.store.Standing(context.Background(), h.group.ID, house.ID)
	require.ErrorIs(t, err, storage.ErrNotFound, "the house that did not sit has no account")

	table := h.tableMessage(nil)
	h.reply("Alice", table.MessageID, "/grant 10000")
	h.botSays("🤖 House got 10\u202f000\u00a0chips. Balance: 20\u202f000\u00a0chips.")
	assert.Equal(t, "The house sits down.", h.seatHouse("Alice").Text)
	h.tableMessage(contains("🤖 House — 20\u202f000"))
	h.audit()
}

// TestHouseForbidden: the chat's admins turn the house off in /settings:
// the lobby offers it no more, it cannot be seated, and where it sits it
// stands up at the next safe moment: at once in the lobby, after its duel
// in a game.
func TestHouseForbidden(t *testing.T) {
	h := newHarness(t)
	h.decks("7s 6h Jc Td 8d")
	h.lobby()
	h.seatHouse("Alice")
	h.command("Alice", "settings", "house", "off")
	h.botSays("Saved.")
	m := h.tableMessage(func(m telegramtest.ChatMessage) bool { return !contains("House")(m) })
	assert.NotContains(t, m.Labels(), "🤖 Seat the house", "stood up at once, and no longer offered")
	h.command("Alice", "house")
	h.botSays("The admins of this chat have turned the house off (/settings).")

	// Turned on again, it sits and plays; turned off in its duel, it
	// finishes it and then stands up.
	h.command("Alice", "settings", "house", "on")
	h.botSays("Saved.")
	h.seatHouse("Alice")
	h.startGame("Alice")
	h.tableMessage(contains("🤖 House is thinking…"))
	h.command("Alice", "settings", "house", "off")
	h.botSays("Saved. The game in progress keeps its settings.")
	h.tableMessage(contains("leaving"))
	h.houseMoves()
	m = h.tableMessage(contains("Game over"))
	assert.NotContains(t, m.Text, "2. 🤖 House", "its seat is freed after the game")
	assert.EqualValues(t, 9995, h.houseBalance(), "it played its duel to the end")
	h.audit()
}

// TestHouseMoveAfterRestart: the house's pending move is a timer stored
// with the table: a new bot on the same file, after a crash mid-turn, makes
// it.
func TestHouseMoveAfterRestart(t *testing.T) {
	h := newHarness(t)
	h.houseToBet()
	timers, err := h.store.Timers(context.Background())
	require.NoError(t, err)
	require.Len(t, timers, 1)
	assert.False(t, timers[0].HouseAt.IsZero(), "the house's move is stored")

	h.crash()
	assert.Equal(t, 4, h.houseMoves(), "the new bot moves for the house to the end")
	h.tableMessage(contains("Game over"))
	assert.EqualValues(t, 9995, h.houseBalance())
	h.audit()
}

// inPrivate makes the harness's chat Alice's private chat with the bot.
func inPrivate(o *harnessOptions) {
	o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
		return s.PrivateChat(users[0])
	}
}

// TestSoloPlay: /newgame in a private chat opens a table with the house
// seated; its user starts and plays as in a group, with the same records:
// the deck check, the leaderboard, the audit. Nobody is nudged there.
func TestSoloPlay(t *testing.T) {
	h := newHarness(t, inPrivate)
	h.decks("9s Td 8h 7c 6d")
	h.deck.Banker = 1
	h.command("Alice", "newgame")
	m := h.tableMessage(contains("2. 🤖 House — 10\u202f000"))
	assert.Contains(t, m.Text, "You against 🤖 House · stake 10")
	assert.Equal(t, []string{"Start ▶", "Close ✖"}, m.Labels(), "no Join, no unseating the house")
	h.startGame("Alice")
	h.tableMessage(contains("your bet, Alice"))
	h.clock.Advance(40 * time.Second) // past the time a group's turn is nudged
	h.bet("Alice", 10)
	h.hit("Alice")
	h.stand("Alice")
	m = h.tableMessage(contains("🤖 House, the banker, takes the bank: 20 back on a stake of 10 (+10)."))
	assert.Contains(t, m.Text, "/verify_1")
	assert.Zero(t, h.srv.Calls().Count("deleteMessage"), "no nudge was sent, so none deleted")

	h.command("Alice", "verify_1")
	h.botSays("Game 1: the decks")
	h.command("Alice", "top")
	h.botSays("1. Alice — 990", "🤖 House — 10\u202f010")
	h.command("Alice", "audit")
	h.botSays("The chips add up")
	h.audit()

	// Alice is the admin of her own chat: she may turn the house off, and
	// the next /newgame opens a table without it, saying why.
	h.command("Alice", "settings", "house", "off")
	h.botSays("Saved.")
	h.tableMessage(func(m telegramtest.ChatMessage) bool { return !contains("2. 🤖 House")(m) })
	h.command("Alice", "cancel")
	h.botSays("Table closed.")
	h.command("Alice", "newgame")
	h.botSays("You turned the house off: /settings house on lets it play again.")
	m = h.tableMessage(contains("You turned the house off"))
	assert.Equal(t, []string{"Close ✖"}, m.Labels(), "nothing to start without the house")
	h.command("Alice", "house")
	h.botSays("You turned the house off: /settings house on lets it play again.")
}

// TestSoloNewTable: in a private chat, a closed table's New table opens a
// solo table as /newgame does, the house seated; with the house turned
// off, the press says why it is not.
func TestSoloNewTable(t *testing.T) {
	h := newHarness(t, inPrivate)
	h.command("Alice", "newgame")
	h.tableMessage(contains("2. 🤖 House"))
	h.command("Alice", "cancel")
	h.botSays("Table closed.")
	h.pressData("Alice", action(callback.NewTable))
	m := h.tableMessage(contains("2. 🤖 House — 10\u202f000"))
	assert.Equal(t, []string{"Start ▶", "Close ✖"}, m.Labels())

	h.command("Alice", "cancel")
	h.botSays("Table closed.")
	h.command("Alice", "settings", "house", "off")
	h.botSays("Saved.")
	a := h.pressData("Alice", action(callback.NewTable))
	assert.Equal(t, "You turned the house off: /settings house on lets it play again.", a.Text)
	assert.True(t, a.ShowAlert)
	h.tableMessage(func(m telegramtest.ChatMessage) bool { return contains("1. Alice")(m) && !contains("2. 🤖 House")(m) })
	h.audit()
}

// soloBet opens a solo table whose house banks, starts its game and
// places Alice's bet of 10.
func (h *harness) soloBet() {
	h.t.Helper()
	h.decks("9s Td 8h 7c 6d")
	h.deck.Banker = 1
	h.command("Alice", "newgame")
	h.tableMessage(contains("2. 🤖 House"))
	h.startGame("Alice")
	h.bet("Alice", 10)
}

// TestSoloClose: a solo lobby's Close stands its player up and the house
// with them: the table closes, saying so. /leave in a game does the same
// once the game ends: the player's bet is lost to the bank, and the house,
// left alone, stands up too.
func TestSoloClose(t *testing.T) {
	h := newHarness(t, inPrivate)
	h.command("Alice", "newgame")
	h.tableMessage(contains("2. 🤖 House"))
	assert.Equal(t, "You left the table.", h.pressData("Alice", action(callback.Leave)).Text)
	m := h.tableMessage(contains("You closed the table."))
	assert.Equal(t, []string{"New table"}, m.Labels())
	v := h.view()
	assert.Equal(t, game.Closed, v.Table.Phase())
	assert.Zero(t, v.Table.NumSeats())

	h.soloBet()
	h.command("Alice", "leave")
	h.botSays("You left; your bet of 10 stays in the bank.")
	m = h.tableMessage(contains("You closed the table."))
	assert.Contains(t, m.Text, "Alice −10")
	v = h.view()
	assert.Equal(t, game.Closed, v.Table.Phase())
	assert.EqualValues(t, 990, h.balance("Alice"))
	assert.EqualValues(t, 10_010, h.houseBalance())
	h.audit()
}

// TestSoloTableCancelledWhenBlocked: a user who blocks the bot mid-game
// in their private chat has their solo table cancelled, as a group's
// tables are when the bot is removed: the bets go back, the house stops
// moving, and nothing more is sent there.
func TestSoloTableCancelledWhenBlocked(t *testing.T) {
	h := newHarness(t, inPrivate)
	h.soloBet()
	require.EqualValues(t, 990, h.balance("Alice"))

	require.NoError(t, h.srv.BlockBot(h.user("Alice").ID, true))
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
		v, err := h.store.View(context.Background(), h.key())
		return err == nil && v.Table.Phase() == game.Closed
	}), "the solo table is cancelled")
	assert.EqualValues(t, 1000, h.balance("Alice"), "the bet is refunded")
	assert.EqualValues(t, 10_000, h.houseBalance(), "the bank goes back to the house")
	timers, err := h.store.Timers(context.Background())
	require.NoError(t, err)
	assert.Empty(t, timers, "nothing left to fire")
	h.audit()
}

// TestHouseForbiddenThroughACrash: the house setting turned off just
// before a crash, with the house still seated (the setting and the stand
// are two transactions): the restarted bot stands it up.
func TestHouseForbiddenThroughACrash(t *testing.T) {
	h := newHarness(t)
	h.lobby()
	h.seatHouse("Alice")
	h.tableMessage(contains("🤖 House"))
	h.crash(func() {
		st, err := storage.Open(h.dbPath, storage.Options{NoSync: true})
		require.NoError(t, err)
		_, err = st.UpdateSettings(context.Background(), h.group.ID, func(s *storage.ChatSettings) error {
			s.HouseForbidden = true
			return nil
		})
		require.NoError(t, err)
		require.NoError(t, st.Close())
	})
	m := h.tableMessage(func(m telegramtest.ChatMessage) bool { return !contains("House")(m) })
	assert.NotContains(t, m.Labels(), "🤖 Seat the house")
	h.audit()
}

// TestForgedHousePresses: the house's buttons with data no table showed
// are refused, each with its reason, and change nothing.
func TestForgedHousePresses(t *testing.T) {
	h := newHarness(t)
	h.lobby("Bob")
	lobby := h.tableMessage(nil)
	v := h.version()
	data := func(a callback.Action, version uint64) string {
		return callback.Data{Action: a, Version: version}.String()
	}
	tests := []struct {
		name, data, says string
	}{
		{"unseat an absent house", data(callback.UnseatHouse, v), "The house isn't at the table."},
		{"an old version", data(callback.SeatHouse, v-1), "This table has moved on."},
		{"a version to come", data(callback.SeatHouse, v+5), "This table has moved on."},
		{"version 0", "a:0", "This button doesn't work here."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.says, h.pressRaw("Alice", lobby.MessageID, tc.data).Text)
			assert.Equal(t, v, h.version(), "nothing applied")
		})
	}

	h.seatHouse("Alice")
	h.startGame("Alice")
	in := h.version()
	assert.Equal(t, "The house stands up only between games: it plays this game to the end.",
		h.pressRaw("Alice", lobby.MessageID, data(callback.UnseatHouse, in)).Text)
	assert.Equal(t, in, h.version(), "the house stays in its game")
	h.audit()
}
