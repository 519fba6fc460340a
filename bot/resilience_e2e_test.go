package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
)

// TestBrokenPollAnswersBackOff: a getUpdates answer the Bot API never gives
// is not asked for again at once, thousands of times a second (an update_id
// that is not a number made the loop poll 17,000 times in 2 s): the bot
// waits as after a failure, doubling the wait, and plays on once the
// answers are right again.
func TestBrokenPollAnswersBackOff(t *testing.T) {
	tests := []struct{ name, body string }{
		{"update_id not a number", `{"ok":true,"result":[{"update_id":"x","message":{"text":"/rules"}}]}`},
		{"no update_id", `{"ok":true,"result":[{"message":{"text":"/rules"}}]}`},
		{"update_id zero", `{"ok":true,"result":[{"update_id":0}]}`},
		{"update_id huge", `{"ok":true,"result":[{"update_id":1e40}]}`},
		{"result not a list", `{"ok":true,"result":{"update_id":5}}`},
		{"not JSON", `<html>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			start := time.Now()
			f := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultAnswer, Methods: []string{"getUpdates"}, Body: tt.body})
			require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return f.Fired() >= 5 }))
			// The waits after the first four answers: 100, 200, 400 and 800 ms.
			assert.GreaterOrEqual(t, time.Since(start), 1500*time.Millisecond, "five broken answers are spread out")
			f.Remove()
			h.command("Alice", "newgame")
			h.tableMessage(contains("Alice"))
		})
	}
}

// TestUpdateIDsStartOver: after a week without updates Telegram numbers
// them anew, possibly lower, and answers the bot's offset from the start
// of its queue. The bot takes them: it once waited, ever longer, for ids
// past its offset that never came.
func TestUpdateIDsStartOver(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) { o.srvOpts = append(o.srvOpts, telegramtest.WithFirstUpdateID(1000)) })
	h.command("Alice", "rules")
	h.botSays("The rules in short")
	group, alice := h.group, h.user("Alice")
	body := fmt.Sprintf(`{"ok":true,"result":[{"update_id":5,"message":{"message_id":%d,"date":%d,"text":"/help",`+
		`"entities":[{"type":"bot_command","offset":0,"length":5}],"chat":{"id":%d,"type":%q,"title":%q},`+
		`"from":{"id":%d,"is_bot":false,"first_name":%q}}}]}`,
		h.said+1000, time.Now().Unix(), group.ID, group.Type, group.Title, alice.ID, alice.FirstName)
	f := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultAnswer, Methods: []string{"getUpdates"}, Body: body, Count: 1})
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return f.Fired() == 1 }))
	h.botSays("for group chats")
	h.command("Alice", "newgame")
	h.tableMessage(contains("Alice"))
}

// TestPressWhileDownBeatsTheTimer: a bet pressed in time while the bot was
// down is applied after the restart, though the turn's deadline passed
// meanwhile: the bot reads the updates that waited for it before it lets
// an overdue timer decide the turn.
func TestPressWhileDownBeatsTheTimer(t *testing.T) {
	h := newHarness(t)
	h.betting("Kh Tc 9d Ts")
	var data string
	m := h.tableMessage(func(m telegramtest.ChatMessage) bool {
		for _, b := range m.Buttons() {
			if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == callback.Bet && d.Amount == 10 {
				data = b.CallbackData
			}
		}
		return data != ""
	})
	h.stop()
	h.stop = nil
	h.clock.Advance(30 * time.Second) // half the turn: Bob bets in time
	cb, err := h.srv.Press(telegramtest.Press{ChatID: h.group.ID, From: h.user("Bob").ID, MessageID: m.MessageID, Data: data})
	require.NoError(t, err)
	h.clock.Advance(time.Minute) // the bot comes back after the deadline
	h.start()
	a, err := cb.Wait(h.ctx())
	require.NoError(t, err)
	assert.Equal(t, "Bet 10 · your card K♥ (4) · Hit or Stand?", a.Text)
	h.tableMessage(contains("Bob — 990 · bet 10"))
	v := h.view()
	i, ok := v.Table.SeatOf(game.UserID(h.user("Bob").ID))
	require.True(t, ok)
	assert.EqualValues(t, 10, v.Table.Seat(i).Bet, "Bob's bet stands")
	h.audit()
}

// TestCommandSpamDoesNotStallTheTable: one member sending 80 /rules gets
// one answer, and, with more answers waiting than the pace sends, the table
// shows the next join at once: its edit goes before any reply waiting. (With one queue for both, the join showed
// 7.8 s late at this pace; at Telegram's 19 writes a minute per group,
// about 4 minutes.)
func TestCommandSpamDoesNotStallTheTable(t *testing.T) {
	const pace = 100 * time.Millisecond
	h := newHarness(t, func(o *harnessOptions) { o.limits, o.stepped = outbox.Limits{ChatInterval: pace}, true })
	h.lobby("Bob")
	for range 80 {
		h.command("Dave", "rules")
	}
	// And answers that differ, more than the pace can send meanwhile: they
	// wait, and the table's edit must not wait behind them.
	for _, name := range []string{"Bob", "Carol"} {
		for _, cmd := range []string{"help", "top", "balance", "stats", "history"} {
			h.command(name, cmd)
		}
	}
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool { return v.PendingUpdates() == 0 }))
	before := h.srv.Calls()
	start := h.clock.Now()
	assert.Equal(t, "You're in.", h.join("Carol").Text)
	h.tableMessage(contains("Carol"))
	latency := h.clock.Now().Sub(start)
	writes := h.srv.Calls().Sub(before)
	assert.LessOrEqual(t, writes.Count("sendMessage")+writes.Count("editMessageText"), 2,
		"at most the write in flight goes before the table's edit")
	assert.Less(t, latency, 10*pace, "the join shows within a few paces")
	// Replies go out in order: once Alice's /help is answered, every
	// answer to Dave was sent.
	h.command("Alice", "help")
	h.botSays("for group chats")
	assert.Equal(t, 1, h.botMessagesSaying("The rules in short"), "eighty /rules, one answer")
	// Asked again once answered, the same answer is not given again soon.
	h.command("Dave", "rules")
	h.command("Bob", "help")
	h.botSays("for group chats")
	assert.Equal(t, 1, h.botMessagesSaying("The rules in short"), "the answer Dave just got is not repeated")
}

// botMessagesSaying counts the bot's messages in the group containing sub.
func (h *harness) botMessagesSaying(sub string) int {
	n := 0
	for _, m := range h.srv.Messages(h.group.ID) {
		if m.From != nil && m.From.IsBot && strings.Contains(m.Text, sub) {
			n++
		}
	}
	return n
}

// TestEveryChangeIsAnswered: the reply quota holds back an answer repeated
// only for a command that shows something; an admin changing one setting
// after another is told each time ("Saved." twice within seconds was
// once sent once).
func TestEveryChangeIsAnswered(t *testing.T) {
	h := newHarness(t)
	for _, s := range [][]string{{"stake", "25"}, {"turn", "60s"}, {"lobby", "5m"}} {
		h.command("Alice", "settings", s...)
		h.botSays("Saved")
	}
	h.command("Alice", "newgame")
	h.tableMessage(contains("Alice"))
	h.command("Alice", "cancel")
	h.botSays("closed")
	h.command("Alice", "newgame")
	h.tableMessage(contains("Alice"))
	h.command("Alice", "cancel")
	h.botSays("closed")
}

// TestNeverSilent: a member past the reply budget (a few answers a minute)
// is told so once, with when they get answers again, and then nothing
// until then; a change is still confirmed, every time. (An admin's
// "/settings lobby 30s" and "/settings turn 10s" after eight commands in a
// minute were applied and never answered.)
func TestNeverSilent(t *testing.T) {
	h := newHarness(t)
	for _, cmd := range []string{"help", "rules", "top", "balance", "stats", "history", "audit", "settings"} {
		sent := h.command("Alice", cmd)
		_, err := h.srv.WaitForBotMessage(h.ctx(), h.group.ID, func(m telegramtest.ChatMessage) bool {
			return m.ReplyToMessage != nil && m.ReplyToMessage.MessageID == sent.MessageID
		})
		require.NoError(t, err, "/%s is answered", cmd)
	}
	h.command("Alice", "settings", "lobby", "30s")
	h.botSays("Saved")
	h.command("Alice", "settings", "turn", "10s")
	h.botSays("Saved")
	h.command("Alice", "top")
	over := h.botSays("That's a lot of commands: I'll answer you again in")
	assert.Contains(t, over.Text, "\u00a0s")
	h.command("Alice", "stats")
	h.command("Alice", "settings", "knocks", "2") // a change after it: answered
	h.botSays("Saved")
	h.settle()
	var after []string
	for _, m := range h.srv.Messages(h.group.ID) {
		if m.MessageID > over.MessageID && m.From != nil && m.From.IsBot {
			after = append(after, m.Text)
		}
	}
	require.Len(t, after, 1, "after the notice, only the change's answer: %q", after)
	assert.Contains(t, after[0], "Saved")
	h.clock.Advance(time.Minute)
	h.command("Alice", "balance")
	h.botSays("Alice, your balance")
}
