package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/storage"
)

// mentionOf returns the user a bot message mentions by id (a text_mention,
// which is what Telegram makes of a tg://user?id= link), if any.
func mentionOf(m telegramtest.ChatMessage) (int64, bool) {
	if !m.FromBot {
		return 0, false
	}
	for _, e := range m.Entities {
		if e.Type == telegramtest.EntityTextMention && e.User != nil {
			return e.User.ID, true
		}
	}
	return 0, false
}

// nudges returns the chat's nudges: the bot's messages that mention a user.
func nudges(v *telegramtest.View, chat int64) []telegramtest.ChatMessage {
	var out []telegramtest.ChatMessage
	for _, m := range v.Messages(chat) {
		if _, ok := mentionOf(m); ok {
			out = append(out, m)
		}
	}
	return out
}

// nudgeFor waits for the group's nudge of the user and returns it.
func (h *harness) nudgeFor(name string) telegramtest.ChatMessage {
	h.t.Helper()
	var got telegramtest.ChatMessage
	require.NoError(h.t, h.waitFor(func(v *telegramtest.View) bool {
		for _, m := range nudges(v, h.group.ID) {
			if id, _ := mentionOf(m); id == h.user(name).ID {
				got = m
				return true
			}
		}
		return false
	}), "%s is nudged", name)
	return got
}

// dateTime returns the date_time entity of a message, if it has one.
func dateTime(m telegramtest.ChatMessage) (telegramtest.MessageEntity, bool) {
	for _, e := range m.Entities {
		if e.Type == telegramtest.EntityDateTime {
			return e, true
		}
	}
	return telegramtest.MessageEntity{}, false
}

// TestTurnNudge: the player to move who has not acted after a third of the
// turn time (60 s: 20 s) gets one message that mentions them by id, in
// reply to the table message, with the time left; whatever ends the turn
// deletes it.
func TestTurnNudge(t *testing.T) {
	tests := []struct {
		name string
		pass func(h *harness)
	}{
		{"a bet", func(h *harness) { h.bet("Bob", 10) }},
		{"the timeout", func(h *harness) { h.clock.Advance(40 * time.Second) }},
		{"a leave", func(h *harness) { h.command("Bob", "leave") }},
		{"a cancel", func(h *harness) { h.command("Alice", "cancel") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.betting("Kh Tc 9d 8s 7h 6c")
			table := h.tableMessage(contains("your bet, Bob"))
			assert.Contains(t, table.Text, "your bet, Bob (60\u00a0s)", "the table shows the time left of the turn")
			_, ok := dateTime(table)
			assert.False(t, ok, "a time left, not a clock time: %v", table.Entities)

			h.clock.Advance(19 * time.Second)
			h.command("Dave", "balance") // a barrier: a nudge would come before its answer
			h.botSays("Dave, your balance")
			require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
				assert.Empty(t, nudges(v, h.group.ID), "no nudge before a third of the turn")
				return true
			}))

			h.clock.Advance(time.Second)
			n := h.nudgeFor("Bob")
			assert.Equal(t, "Bob, your turn: 40\u00a0s left.", n.Text)
			require.NotNil(t, n.ReplyToMessage, "a reply")
			assert.Equal(t, table.MessageID, n.ReplyToMessage.MessageID, "to the table message")

			tt.pass(h)
			h.messageGone(n.MessageID)
			assert.Eventually(t, func() bool { return len(h.view().Retiring) == 0 }, wait, 10*time.Millisecond,
				"nothing owed once it is deleted")
		})
	}
}

// TestNoNudgeWhenTheTurnPassedInTime: a player who acts before the nudge
// gets none, and the next player's nudge counts from their own turn.
func TestNoNudgeWhenTheTurnPassedInTime(t *testing.T) {
	h := newHarness(t)
	h.betting("Kh Tc 9d 8s 7h 6c")
	h.clock.Advance(15 * time.Second)
	h.bet("Bob", 10)
	h.stand("Bob")
	h.tableMessage(contains("your bet, Carol"))
	h.clock.Advance(10 * time.Second) // Bob's turn would have been nudged by now
	h.command("Dave", "balance")
	h.botSays("Dave, your balance")
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		assert.Empty(t, nudges(v, h.group.ID))
		return true
	}))
	h.clock.Advance(10 * time.Second)
	n := h.nudgeFor("Carol")
	assert.True(t, strings.HasPrefix(n.Text, "Carol, your turn: 40\u00a0s left"), n.Text)
}

// TestNudgeDeletedAfterACrash: a nudge the bot sent before a crash is
// deleted by the bot that starts after it (the store owes it to the chat),
// and the chat never shows two.
func TestNudgeDeletedAfterACrash(t *testing.T) {
	h := newHarness(t)
	h.betting("Kh Tc 9d 8s 7h 6c")
	h.clock.Advance(20 * time.Second)
	n := h.nudgeFor("Bob")
	require.Eventually(t, func() bool {
		r := h.view().Retiring
		return len(r) == 1 && r[0].MessageID == n.MessageID
	}, wait, 10*time.Millisecond, "the nudge is owed to the chat once sent")
	sub := h.srv.Subscribe(1024)
	defer sub.Close()
	h.crash()
	h.messageGone(n.MessageID)
	h.bet("Bob", 10)
	h.tableMessage(contains("Bob: hit or stand?"))
	require.Eventually(t, func() bool { return len(h.view().Retiring) == 0 }, wait, 10*time.Millisecond)
	live := map[int]bool{n.MessageID: true}
	most := 1
	for len(sub.C) > 0 {
		e := <-sub.C
		if e.ChatID != h.group.ID {
			continue
		}
		switch {
		case e.Kind == telegramtest.EventMessageSent && e.Message != nil:
			if _, ok := mentionOf(*e.Message); ok {
				live[e.MessageID] = true
			}
		case e.Kind == telegramtest.EventMessageDeleted:
			delete(live, e.MessageID)
		}
		most = max(most, len(live))
	}
	assert.Equal(t, 1, most, "never two nudges at once")
	assert.Empty(t, live)
}

// toMove waits for the table at key to show a turn and returns the name of
// the player to move.
func toMove(t *testing.T, h *harness, key storage.TableKey) string {
	t.Helper()
	var name string
	h.tableAt(key, func(telegramtest.ChatMessage) bool {
		v, err := h.store.View(h.ctx(), key)
		if err != nil {
			return false
		}
		i, ok := v.Table.Turn()
		if !ok {
			return false
		}
		for n, u := range h.users {
			if u.ID == int64(v.Table.Seat(i).User) {
				name = n
			}
		}
		return name != ""
	})
	return name
}

// TestNudgeUnderTelegramLimits plays under Telegram's group limit (20
// writes a "minute", the minute scaled down to 2 s, on the server, and
// the bot's pacing of 19), in a forum: at table A Bob is to bet and waits,
// while Carol and Dave play game after game at table B. Bob's nudge still
// goes out, mentioning him by id in reply to table A's message, and is
// deleted once he bets; the chat never holds two nudges; the bot's writes
// into the group (its sends, edits and deletes, the nudge's among them)
// stay within the limit in every window, and none is refused.
func TestNudgeUnderTelegramLimits(t *testing.T) {
	const window = 2 * time.Second // Telegram's minute, scaled
	h := newHarness(t, func(o *harnessOptions) {
		o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
			return s.NewForum("Casino", users...)
		}
		o.limits = outbox.Limits{GroupPerMinute: 19, GroupWindow: window, ChatInterval: window / 60}
		o.stepped = true
	})
	h.srv.SetRateLimits(telegramtest.RateLimits{Enabled: true, Group: telegramtest.RateLimit{Limit: 20, Window: window}})
	alice := h.user("Alice").ID
	topicA, err := h.srv.CreateTopic(h.group.ID, alice, "Table A")
	require.NoError(t, err)
	topicB, err := h.srv.CreateTopic(h.group.ID, alice, "Table B")
	require.NoError(t, err)
	keyA := storage.TableKey{Chat: h.group.ID, Thread: int64(topicA)}
	keyB := storage.TableKey{Chat: h.group.ID, Thread: int64(topicB)}
	sub := h.srv.Subscribe(4096)
	defer sub.Close()
	post := func(name string, topic int, text string) {
		_, err := h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user(name).ID, ThreadID: topic, Text: text})
		require.NoError(t, err)
	}
	press := func(name string, key storage.TableKey, act callback.Action, amount int64) {
		var data string
		m := h.tableAt(key, func(m telegramtest.ChatMessage) bool {
			for _, b := range m.Buttons() {
				if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == act && (amount == 0 || d.Amount == amount) {
					data = b.CallbackData
					return true
				}
			}
			return false
		})
		h.pressRaw(name, m.MessageID, data)
		if act == callback.Start {
			h.cutAt(key, nil)
		}
	}

	post("Alice", topicA, "/newgame")
	press("Bob", keyA, callback.Join, 0)
	press("Alice", keyA, callback.Start, 0)
	tableA := h.tableAt(keyA, contains("your bet, Bob"))
	h.clock.Advance(10 * time.Second) // table B's turns start later: Bob's nudge comes first

	post("Carol", topicB, "/newgame")
	press("Dave", keyB, callback.Join, 0)
	const games = 6
	var n telegramtest.ChatMessage
	for i := range games {
		press("Carol", keyB, callback.Start, 0)
		if i == 1 {
			h.clock.Advance(10 * time.Second) // Bob has waited a third of his turn
		}
		player := toMove(t, h, keyB) // the banker changes from game to game
		press(player, keyB, callback.Bet, 10)
		press(player, keyB, callback.Stand, 0)
		h.tableAt(keyB, contains("Game over"))
		if i == 1 {
			// Table B's renders go first; the nudge goes in the first
			// lull, and stays while table B plays on.
			n = h.nudgeFor("Bob")
		}
	}
	assert.Equal(t, topicA, n.MessageThreadID, "in Bob's table's topic")
	require.NotNil(t, n.ReplyToMessage)
	assert.Equal(t, tableA.MessageID, n.ReplyToMessage.MessageID, "a reply to table A's message")
	// Due with 40 s left; each of table B's games writes its cut too, so
	// the first lull may come a second or two later.
	assert.Regexp(t, `Bob, your turn: (3[89]|40)\x{a0}s left`, n.Text)
	_, err = h.srv.WaitForBotMessage(h.ctx(), h.group.ID, func(m telegramtest.ChatMessage) bool { return m.MessageID == n.MessageID })
	require.NoError(t, err, "still there after table B's games")
	press("Bob", keyA, callback.Bet, 10)
	h.messageGone(n.MessageID)

	live := map[int]bool{}
	var writes []time.Time
	most, nudgesSent := 0, 0
	for len(sub.C) > 0 {
		e := <-sub.C
		if e.ChatID != h.group.ID {
			continue
		}
		switch e.Kind {
		case telegramtest.EventMessageSent:
			if e.Message == nil || !e.Message.FromBot {
				continue
			}
			if _, ok := mentionOf(*e.Message); ok {
				live[e.MessageID] = true
				nudgesSent++
			}
		case telegramtest.EventMessageDeleted:
			delete(live, e.MessageID)
		case telegramtest.EventMessageEdited:
		default:
			continue
		}
		writes = append(writes, e.Time)
		most = max(most, len(live))
	}
	assert.Equal(t, 1, nudgesSent, "one nudge: Bob's")
	assert.Equal(t, 1, most, "never two nudges at once")
	peak := 0
	for i := range writes {
		j := i
		for j < len(writes) && writes[j].Sub(writes[i]) < window {
			j++
		}
		peak = max(peak, j-i)
	}
	t.Logf("%d writes into the group, at most %d in a window of %s (Telegram's minute)", len(writes), peak, window)
	// The bot paces 19 call starts a window; the server stamps the answers,
	// so one more can fall in a window measured here.
	assert.LessOrEqual(t, peak, 20, "within Telegram's 20 a minute")
	assert.Greater(t, len(writes), 20, "the test pushed the limit")
	assert.Zero(t, h.srv.Calls().Methods["sendMessage"].Codes[429]+h.srv.Calls().Methods["editMessageText"].Codes[429]+
		h.srv.Calls().Methods["deleteMessage"].Codes[429], "no write refused")
}

// TestNudgeWhenTheTableMessageIsGone: a nudge whose table message was
// deleted meanwhile still goes out, as no reply (allow_sending_without_reply).
func TestNudgeWhenTheTableMessageIsGone(t *testing.T) {
	h := newHarness(t)
	h.betting("Kh Tc 9d 8s 7h 6c")
	table := h.tableMessage(contains("your bet, Bob"))
	require.NoError(t, h.srv.DeleteMessage(h.group.ID, h.user("Alice").ID, table.MessageID))
	h.clock.Advance(20 * time.Second)
	n := h.nudgeFor("Bob")
	assert.Nil(t, n.ReplyToMessage, "no reply: its message is gone")
	assert.Equal(t, 0, h.srv.Calls().Methods["sendMessage"].Codes[400], "nothing refused")
}
