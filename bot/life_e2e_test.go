package bot_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

func TestTurnTimeout(t *testing.T) {
	h := newHarness(t)
	h.betting("Kh Tc 9d  Ts")

	// Bob does not bet in time: he sits the circle out, no chips move.
	h.clock.Advance(61 * time.Second)
	h.tableMessage(contains("your bet, Carol"))
	assert.EqualValues(t, 1000, h.balance("Bob"))

	// Carol bets, then does not draw in time: she stands at 10; the banker
	// draws 9♦ 10♠ = 19 and wins.
	h.bet("Carol", 10)
	h.tableMessage(contains("Carol: hit or stand?")) // her clock runs once she sees her turn
	h.clock.Advance(61 * time.Second)
	h.tableMessage(contains("Game over"))
	v := h.view()
	assert.Equal(t, game.Lobby, v.Table.Phase())
	assert.EqualValues(t, 990, h.balance("Carol"))
	h.audit()

	// The lobby times out too, and the table closes.
	h.clock.Advance(11 * time.Minute)
	h.tableMessage(contains("closed"))
}

// TestTimeoutsStayInTheRecord: a player who lets the turn time run out is
// in the record with what the clock did, in the table message the game
// ends in and in the record that message becomes once the next game has a
// message of its own.
func TestTimeoutsStayInTheRecord(t *testing.T) {
	h := newHarness(t)
	h.betting("Kh Tc 9d  Ts")
	h.decks("Kh Tc 9d  Ts")
	h.clock.Advance(61 * time.Second) // Bob does not bet
	h.tableMessage(contains("your bet, Carol"))
	assert.Equal(t, "Bet 10 · your card 10♣ (10) · Hit or Stand?", h.bet("Carol", 10).Text)
	// Her clock runs once she sees her turn; she does not draw: she stands at 10.
	h.tableMessage(contains("Carol: hit or stand?"))
	h.clock.Advance(61 * time.Second)
	lines := []string{
		"Bob: K♥ → out of time: sat the circle out",
		"Carol: 10♣ = 10 (out of time, stood) · banker: 9♦ 10♠ = 19 → the bank takes 10",
		"Game over. Alice, the banker, takes the bank: 20 back on a stake of 10 (+10).",
	}
	end := h.tableMessage(contains("Game over"))
	for _, l := range lines {
		assert.Contains(t, end.Text, l, "the lobby after the game")
	}

	h.startGame("Bob")
	next := h.tableMessage(contains("your bet, Carol"))
	require.NotEqual(t, end.MessageID, next.MessageID, "the next game has a message of its own")
	record := h.messageSays(end.MessageID, append(lines, "Twenty One — game 1")...)
	assert.NotContains(t, record.Text, "Seated", "a record, not a lobby")
	h.audit()
}

// TestNewGameAfterClose: /newgame over a closed table opens the lobby in a
// new message at the bottom of the chat, where the command was typed. The
// closed table's message becomes the record of its last game, or goes
// when it held none.
func TestNewGameAfterClose(t *testing.T) {
	t.Run("after a game", func(t *testing.T) {
		h := newHarness(t)
		h.bobWins()
		h.clock.Advance(11 * time.Minute)
		h.tableMessage(contains("closed"))
		closed := h.view().MessageID
		h.command("Carol", "newgame")
		m := h.tableMessage(contains("Carol"))
		require.NotEqual(t, closed, m.MessageID, "the lobby has a message of its own")
		h.messageSays(closed, "Twenty One — game 1") // the record of the last game
		assert.Contains(t, m.Labels(), "Join")
	})
	t.Run("the button, after a game", func(t *testing.T) {
		// The same through the closed table's own button: the record of
		// the last game is kept there too.
		h := newHarness(t)
		h.bobWins()
		h.clock.Advance(11 * time.Minute)
		h.tableMessage(contains("closed"))
		closed := h.view().MessageID
		tm, ok := h.srv.Message(h.group.ID, closed)
		require.True(t, ok)
		b, ok := tm.Button("New table")
		require.True(t, ok)
		h.pressRaw("Carol", closed, b.CallbackData)
		m := h.tableMessage(contains("Carol"))
		require.NotEqual(t, closed, m.MessageID, "the lobby has a message of its own")
		h.messageSays(closed, "Twenty One — game 1")
	})
	t.Run("the button, no game played", func(t *testing.T) {
		// Pressed far up the chat, the closed table's button opens the
		// lobby at the bottom too, not in its own message off screen.
		h := newHarness(t)
		h.lobby("Bob")
		h.clock.Advance(11 * time.Minute)
		h.tableMessage(contains("closed"))
		closed := h.view().MessageID
		tm, ok := h.srv.Message(h.group.ID, closed)
		require.True(t, ok)
		b, ok := tm.Button("New table")
		require.True(t, ok)
		h.pressRaw("Carol", closed, b.CallbackData)
		m := h.tableMessage(contains("Carol"))
		require.NotEqual(t, closed, m.MessageID, "the lobby has a message of its own")
		h.messageGone(closed)
	})
	t.Run("no game played", func(t *testing.T) {
		h := newHarness(t)
		h.lobby("Bob")
		h.clock.Advance(11 * time.Minute)
		h.tableMessage(contains("closed"))
		closed := h.view().MessageID
		h.command("Carol", "newgame")
		m := h.tableMessage(contains("Carol"))
		require.NotEqual(t, closed, m.MessageID)
		h.messageGone(closed) // no game to keep a record of
	})
}

// TestNewGameMovesTheOpenTableDown: /newgame while the table is open
// brings it to the bottom of the chat in a new message and deletes the old
// one, even when the bot crashes before the delete.
func TestNewGameMovesTheOpenTableDown(t *testing.T) {
	h := newHarness(t)
	h.lobby("Bob")
	old := h.view().MessageID
	failing := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{"deleteMessage"}})
	h.command("Carol", "newgame")
	m := h.tableMessage(func(m telegramtest.ChatMessage) bool { return m.MessageID > h.said })
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return failing.Fired() > 0 }),
		"the old message's delete is tried")
	h.crash(failing.Remove)
	h.messageGone(old)
	assert.Equal(t, m.MessageID, h.tableMessage(nil).MessageID)
	assert.Contains(t, m.Labels(), "Join")
}

// TestTurnTimerAfterRestart: the turn timer of a game in progress is armed
// again by a new bot on the same file.
func TestTurnTimerAfterRestart(t *testing.T) {
	// Stepped: a deadline that comes due while the restart's render of
	// its table is in hand is put off a second of the clock (seen armed
	// again at now+1s): the clock must move on for it to fire.
	h := newHarness(t, func(o *harnessOptions) { o.stepped = true })
	h.betting("Kh Tc 9d Ts")
	h.restart()
	h.clock.Advance(61 * time.Second)
	h.tableMessage(contains("your bet, Carol"))
	assert.EqualValues(t, 1000, h.balance("Bob"), "Bob sat the circle out")
	h.audit()
}

// bobToDraw stacks K♥ 10♠ 8♠, seats Bob with Alice (the banker), starts
// the game, and Bob bets 10: he is to draw, 10♠ next.
func (h *harness) bobToDraw() {
	h.t.Helper()
	h.decks("Kh Ts 8s")
	h.lobby("Bob")
	h.startGame("Bob")
	h.bet("Bob", 10)
}

func TestRestartMidGame(t *testing.T) {
	h := newHarness(t)
	h.bobToDraw()
	assert.Equal(t, "10♠ · 14", h.hit("Bob").Text)

	h.restart()

	// A new bot on the same file shows the same table and finishes the game.
	m := h.tableMessage(contains("K♥ 10♠ = 14"))
	assert.Contains(t, m.Labels(), "Hit 🂠")
	assert.Equal(t, "8♠ · 22: bust!", h.hit("Bob").Text)
	h.tableMessage(contains("Game over"))
	assert.EqualValues(t, 990, h.balance("Bob"))
	assert.EqualValues(t, 1010, h.balance("Alice"))
	h.audit()

	// The timers were re-armed: the lobby still times out after the restart.
	h.restart()
	h.clock.Advance(11 * time.Minute)
	h.tableMessage(contains("closed"))
}

// hitThroughCrash presses Hit as name; the bot crashes after the Hit was
// committed and before its answer reached Telegram, and the press, never
// confirmed, is delivered again to the next bot. It returns the answer
// the press got.
func (h *harness) hitThroughCrash(name string) telegramtest.CallbackAnswer {
	h.t.Helper()
	var data string
	m := h.tableMessage(func(m telegramtest.ChatMessage) bool {
		b, ok := m.Button("Hit 🂠")
		data = b.CallbackData
		return ok
	})
	held := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Methods: []string{"answerCallbackQuery"}, Delay: wait})
	cb, err := h.srv.Press(telegramtest.Press{ChatID: h.group.ID, From: h.user(name).ID, MessageID: m.MessageID, Data: data})
	require.NoError(h.t, err)
	require.Eventually(h.t, func() bool { return held.Fired() == 1 }, wait, 10*time.Millisecond, "the Hit is committed, its answer on its way")
	h.crash(held.Remove)
	a, err := cb.Wait(h.ctx())
	require.NoError(h.t, err)
	return a
}

// TestHitAnsweredAfterCrash: the bot crashes after a Hit was committed
// and before its answer reached Telegram. The press, never confirmed, is
// delivered again to the next bot, which answers it as the first would
// have: with the card drawn, not an empty toast.
func TestHitAnsweredAfterCrash(t *testing.T) {
	h := newHarness(t)
	h.bobToDraw()
	a := h.hitThroughCrash("Bob")
	assert.Equal(t, "10♠ · 14", a.Text, "the answer names the card, as the first would have")
	m := h.tableMessage(contains("K♥ 10♠ = 14"))
	assert.Contains(t, m.Labels(), "Stand ✋")
	assert.EqualValues(t, 990, h.balance("Bob"), "the Hit was applied once")
	h.audit()
}

func TestSupergroupMigration(t *testing.T) {
	h := newHarness(t)
	h.decks("Kh Ts 8s")
	h.lobby("Bob")
	h.startGame("Alice")
	h.bet("Bob", 10)
	old := h.group.ID
	super, err := h.srv.UpgradeToSupergroup(old, h.user("Alice").ID)
	require.NoError(t, err)
	h.group = super

	// The table, the bet and the chips moved; the table shows in the new chat.
	m := h.tableMessage(contains("bet 10"))
	assert.Contains(t, m.Labels(), "Hit 🂠")
	assert.Equal(t, "10♠ · 14", h.hit("Bob").Text)
	assert.Equal(t, "8♠ · 22: bust!", h.hit("Bob").Text)
	h.tableMessage(contains("Game over"))
	assert.EqualValues(t, 990, h.balance("Bob"))
	h.audit()
	oldView, err := h.store.View(h.ctx(), storage.TableKey{Chat: old})
	if err == nil {
		assert.NotEqual(t, game.Betting, oldView.Table.Phase(), "nothing is left behind in the old chat")
	}
}

func TestBotKickedMidGame(t *testing.T) {
	h := newHarness(t)
	h.decks("Kh Tc 9d")
	h.lobby("Bob", "Carol")
	h.startGame("Alice")
	h.bet("Bob", 10)
	assert.EqualValues(t, 990, h.balance("Bob"))

	require.NoError(t, h.srv.KickBot(h.group.ID, h.user("Alice").ID))
	// Every bet is refunded and the bank returned to the banker. Nothing
	// shows in the chat the bot has left: watch the store.
	require.Eventually(t, func() bool {
		v := h.view()
		return v.Table.Phase() == game.Closed
	}, wait, 5*time.Millisecond)
	assert.EqualValues(t, 1000, h.balance("Bob"))
	assert.EqualValues(t, 1000, h.balance("Alice"))
	v := h.view()
	assert.Equal(t, game.Closed, v.Table.Phase())
	h.audit()
}

func TestAnonymousAdmin(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) {
		o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
			return s.NewSupergroup("Anon", users...)
		}
	})
	// An anonymous admin may change the settings…
	_, err := h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user("Alice").ID, Anonymous: true, Text: "/settings stake 25"})
	require.NoError(t, err)
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		s, err := h.store.Settings(h.ctx(), h.group.ID)
		return err == nil && s.Game.Stake == 25
	}))
	// …but cannot sit down.
	_, err = h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user("Alice").ID, Anonymous: true, Text: "/newgame"})
	require.NoError(t, err)
	_, err = h.srv.WaitForBotMessage(h.ctx(), h.group.ID, telegramtest.TextContains("Anonymous admins can't play"))
	require.NoError(t, err)
}

func TestCommandsRegisteredInEnglishAndRussian(t *testing.T) {
	h := newHarness(t)
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		return len(h.srv.Commands(telegramtest.CommandScope{}, "ru")) > 0 && len(h.srv.Commands(telegramtest.CommandScope{}, "")) > 0
	}))
	names := func(lang string) (out []string) {
		for _, c := range h.srv.Commands(telegramtest.CommandScope{}, lang) {
			out = append(out, c.Command)
		}
		return out
	}
	for _, want := range []string{"newgame", "leave", "balance", "bonus", "rules", "help", "settings", "cancel", "lang"} {
		assert.Contains(t, names(""), want)
		assert.Contains(t, names("ru"), want)
	}
	ru := h.srv.Commands(telegramtest.CommandScope{}, "ru")
	en := h.srv.Commands(telegramtest.CommandScope{}, "")
	require.Equal(t, len(en), len(ru))
	assert.NotEqual(t, en[0].Description, ru[0].Description)
}

// TestRateLimitStormDuringPlay plays three tables at once while Telegram's
// flood limits are on with short windows and 429s are injected on top; every
// table ends showing its final state and no press was lost. Time passes as
// the players wait for their tables (harnessOptions.stepped): the bot
// waits out each retry_after, the server's windows free.
func TestRateLimitStormDuringPlay(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) {
		o.limits = outbox.Limits{} // the bot does not pace: it must recover from 429s
		o.stepped = true           // and wait them out as the clock moves
	})
	h.srv.SetRateLimits(telegramtest.RateLimits{Enabled: true,
		Group: telegramtest.RateLimit{Limit: 3, Window: 300 * time.Millisecond}})
	fault := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultTooManyRequests,
		Methods: []string{"editMessageText", "sendMessage"}, Rate: 0.3, Count: 20, RetryAfter: 1})

	groups := []telegramtest.Chat{h.group}
	for i := 0; i < 2; i++ {
		groups = append(groups, h.srv.NewGroup(fmt.Sprintf("Table %d", i), h.user("Alice"), h.user("Bob")))
	}
	var wg sync.WaitGroup
	for _, g := range groups {
		wg.Add(1)
		go func(g telegramtest.Chat) {
			defer wg.Done()
			playQuickGame(t, h, g)
		}(g)
	}
	wg.Wait()
	assert.Positive(t, fault.Fired(), "the storm hit")
	for _, g := range groups {
		key := storage.TableKey{Chat: g.ID}
		require.NoError(t, h.waitFor(func(v *telegramtest.View) bool {
			sv, err := h.store.View(context.Background(), key)
			if err != nil {
				return false
			}
			m, ok := v.Message(g.ID, sv.MessageID)
			return ok && showsVersion(m, sv.Table.Version()) && strings.Contains(m.Text, "Game over")
		}), "chat %d shows its final state", g.ID)
		a, err := h.store.Audit(h.ctx(), g.ID)
		require.NoError(t, err)
		assert.True(t, a.OK)
	}
}

// playQuickGame plays Alice (banker) against Bob in group g: Bob bets the
// stake and stands at once. Its waits move the clock (h.waitFor), in turn
// with the other players' when several play at once.
func playQuickGame(t *testing.T, h *harness, g telegramtest.Chat) {
	ctx := h.ctx()
	key := storage.TableKey{Chat: g.ID}
	pressWhenShown := func(user string, action string) {
		var msgID int
		var data string
		require.NoError(t, h.waitFor(func(v *telegramtest.View) bool {
			sv, err := h.store.View(context.Background(), key)
			if err != nil || sv.MessageID == 0 {
				return false
			}
			m, ok := v.Message(g.ID, sv.MessageID)
			if !ok || !showsVersion(m, sv.Table.Version()) {
				return false
			}
			for _, b := range m.Buttons() {
				if strings.HasPrefix(b.CallbackData, action) {
					msgID, data = m.MessageID, b.CallbackData
					return true
				}
			}
			return false
		}))
		cb, err := h.srv.Press(telegramtest.Press{ChatID: g.ID, From: h.user(user).ID, MessageID: msgID, Data: data})
		require.NoError(t, err)
		_, err = cb.Wait(ctx)
		require.NoError(t, err)
	}
	_, err := h.srv.SendCommand(g.ID, h.user("Alice").ID, "newgame")
	require.NoError(t, err)
	pressWhenShown("Bob", "j:")
	pressWhenShown("Alice", "s:")
	pressWhenShown("Bob", "b:")
	pressWhenShown("Bob", "d:")
}

// TestAnswerNotHeldByPacing: the bot paces its edits of a group under
// Telegram's limit, but answers every press at once. On the harness's
// clock, which does not move: the window never frees while the test looks.
func TestAnswerNotHeldByPacing(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) {
		o.limits = outbox.Limits{GroupPerMinute: 2, GroupWindow: 2 * time.Second}
	})
	h.command("Alice", "newgame") // the table message: 1 of the 2 calls
	h.tableMessage(contains("Alice"))
	m, _ := h.srv.LastBotMessage(h.group.ID)
	join, _ := m.Button("Join")
	a := h.pressRaw("Bob", m.MessageID, join.CallbackData) // its edit: 2 of 2
	assert.Equal(t, "You're in.", a.Text)
	h.tableMessage(contains("Bob"))
	m, _ = h.srv.LastBotMessage(h.group.ID)
	join, _ = m.Button("Join")
	// Carol's edit waits for the window; her answer does not.
	a = h.pressRaw("Carol", m.MessageID, join.CallbackData)
	assert.Equal(t, "You're in.", a.Text)
	v := h.view()
	assert.Equal(t, 3, v.Table.NumSeats())
	h.settle()
	m, _ = h.srv.LastBotMessage(h.group.ID)
	assert.NotContains(t, m.Text, "Carol", "the edit is held back by the pacing")
	h.advance(2*time.Second, time.Second)
	h.tableMessage(contains("Carol")) // and goes once the window frees
}

func TestCancelByAdmin(t *testing.T) {
	h := newHarness(t)
	h.decks("Kh Tc")
	h.lobby("Bob", "Carol")
	h.startGame("Alice")
	h.bet("Bob", 10)
	assert.EqualValues(t, 990, h.balance("Bob"))
	h.command("Bob", "cancel")
	h.botSays("Only chat admins can do that.")
	v := h.view()
	require.Equal(t, game.Drawing, v.Table.Phase())

	h.command("Alice", "cancel")
	h.botSays("Game cancelled: every bet refunded")
	h.tableMessage(contains("table closed"))
	for _, n := range []string{"Alice", "Bob", "Carol"} {
		assert.EqualValues(t, 1000, h.balance(n), n)
	}
	h.audit()
	h.command("Alice", "cancel")
	h.botSays("There is nothing to cancel.")
}

// TestAnswerRetried: an answer to a press that fails at once (a 5xx, a
// dropped connection) is tried again, so the player's client does not
// spin until it gives up.
func TestAnswerRetried(t *testing.T) {
	h := newHarness(t)
	h.command("Alice", "newgame")
	h.tableMessage(contains("Alice"))
	m, _ := h.srv.LastBotMessage(h.group.ID)
	join, _ := m.Button("Join")
	h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{"answerCallbackQuery"}, Count: 1})
	h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDropConnection, Methods: []string{"answerCallbackQuery"}, Count: 1})
	a := h.pressRaw("Bob", m.MessageID, join.CallbackData)
	assert.Equal(t, "You're in.", a.Text, "answered at the third try")
}
