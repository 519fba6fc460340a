package bot_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// asked is a command a member asked, and the answer it got.
type asked struct {
	name string
	cmd  telegramtest.ChatMessage
	// answer is the bot's message that holds the answer, once found:
	// public when the group saw it, a digest when it holds others' too.
	answer telegramtest.ChatMessage
	found  bool
}

// answered finds the answer to each ask: a reply to the command the group
// sees, an ephemeral message replying to the ephemeral command, or a
// digest of the group's with a part headed by the asker and the command.
func (h *harness) answered(asks []*asked) int {
	n := 0
	for _, a := range asks {
		if !a.found {
			for _, m := range h.srv.MessagesSeenBy(h.group.ID, h.user(a.name).ID) {
				public := a.cmd.MessageID != 0 && m.ReplyToMessage != nil && m.ReplyToMessage.MessageID == a.cmd.MessageID
				ephemeral := a.cmd.EphemeralMessageID != 0 && m.ReplyToEphemeralMessageID == a.cmd.EphemeralMessageID
				digest := a.cmd.MessageID != 0 && m.MessageID > a.cmd.MessageID && headsPart(m.Text, a.name, a.cmd.Text)
				if m.FromBot && (public || ephemeral || digest) {
					a.answer, a.found = m, true
					break
				}
			}
		}
		if a.found {
			n++
		}
	}
	return n
}

// headsPart reports whether a line of a digest's text heads a part that
// answers name's command cmd: "Alice, /balance:", or "Bob, Alice, /help:"
// for an answer the same for several.
func headsPart(text, name, cmd string) bool {
	for _, line := range strings.Split(text, "\n") {
		names, ok := strings.CutSuffix(line, ", "+cmd+":")
		if ok && slices.Contains(strings.Split(names, ", "), name) {
			return true
		}
	}
	return false
}

// groupWrites counts the bot's writes into the group's timeline among
// the events: messages sent and edited, ephemeral ones left out; answers
// are the messages of the asks' answers.
func groupWrites(events []telegramtest.Event, group int64, asks []*asked) (answers, others int) {
	answer := map[int]bool{}
	for _, a := range asks {
		if a.found && !a.answer.IsEphemeral() {
			answer[a.answer.MessageID] = true
		}
	}
	for _, e := range events {
		if e.ChatID != group || e.EphemeralMessageID != 0 || e.Message == nil || !e.Message.FromBot ||
			e.Kind != telegramtest.EventMessageSent && e.Kind != telegramtest.EventMessageEdited {
			continue
		}
		if e.Kind == telegramtest.EventMessageSent && answer[e.Message.MessageID] {
			answers++
		} else {
			others++
		}
	}
	return answers, others
}

// drained returns the events the subscription holds now.
func drained(sub *telegramtest.Subscription) []telegramtest.Event {
	var out []telegramtest.Event
	for {
		select {
		case e := <-sub.C:
			out = append(out, e)
		default:
			return out
		}
	}
}

// TestAGroupThatAsksALot: under Telegram's limits, eight members of a
// group where the bot is no admin ask three personal commands each, one
// every half second, while a lobby fills. Typed, every ask is answered in
// the group, in the group's turns: the answers waiting go together, in
// digests, in the order asked, so that the 24 take two of the group's
// writes (as a reply each, 15 were dropped past the replies a chat may
// hold waiting, outbox.Options.MaxSays, and the 9 took 9 writes, the last
// 33.6 s after its ask); sent as ephemeral commands, every ask is answered
// at once, ephemerally, taking none of the group's writes. The lobby shows
// each join within the group's spacing either way: renders go before
// replies. A member who asks more than the reply quota gets eight answers
// and is told once, ephemerally, that that is a lot.
func TestAGroupThatAsksALot(t *testing.T) {
	h := newHarness(t, paced)
	_, err := h.srv.AddMember(h.group.ID, h.user("Eve"), 0)
	require.NoError(t, err)
	for _, n := range []string{"Fay", "Gus", "Hal", "Ida"} {
		u, err := h.srv.AddMember(h.group.ID, telegramtest.User{FirstName: n, LanguageCode: "en"}, 0)
		require.NoError(t, err)
		h.users[n] = u
	}
	h.handled()
	sub := h.srv.Subscribe(1 << 16)
	defer sub.Close()
	askers := []string{"Alice", "Bob", "Carol", "Dave", "Eve", "Fay", "Gus", "Ida"}
	cmds := []string{"balance", "stats", "history"}
	joins := []string{"Bob", "Carol", "Dave"}

	// phase asks, every asker a command each half second, and presses a
	// join every few seconds; once nothing waits to be sent, it returns
	// the asks, how many were answered, the writes into the group, and
	// the longest wait of an answer and of a join to show.
	phase := func(ephemeral bool) (asks []*asked, answered, answerWrites, tableWrites int, answerWait, joinWait time.Duration) {
		h.command("Alice", "newgame")
		h.handled()
		h.see()
		drained(sub)
		joined := 0
		for i := range len(cmds) * len(askers) {
			name, cmd := askers[i%len(askers)], cmds[i/len(askers)]
			a := &asked{name: name}
			if ephemeral {
				a.cmd = h.ephemeral(name, cmd)
			} else {
				a.cmd = h.command(name, cmd)
			}
			asks = append(asks, a)
			h.handled()
			if i%6 == 5 && joined < len(joins) {
				m, _, _ := h.see()
				h.pressOn(m, joins[joined], action(callback.Join))
				joined++
				_, _, took := h.see()
				joinWait = max(joinWait, took)
			}
			h.advance(500*time.Millisecond, step)
		}
		h.handled()
		h.drain()
		answered = h.answered(asks)
		for _, a := range asks {
			if a.found {
				answerWait = max(answerWait, a.answer.SentAt.Sub(a.cmd.SentAt))
				assert.Equal(t, ephemeral, a.answer.IsEphemeral(), "%s's %s", a.name, a.cmd.Text)
			}
		}
		answerWrites, tableWrites = groupWrites(drained(sub), h.group.ID, asks)
		h.command("Alice", "cancel")
		h.handled()
		h.advance(2*time.Minute, step) // past the reply quota and the group's minute
		return asks, answered, answerWrites, tableWrites, answerWait, joinWait
	}

	before, beforeAnswered, beforeWrites, beforeTable, beforeWait, beforeJoin := phase(false)
	after, afterAnswered, afterWrites, afterTable, afterWait, afterJoin := phase(true)
	t.Logf("%d asks. Typed: %d answered, %d of the group's writes for the answers (%d for the table), the last answer after %s, "+
		"a join shown within %s. Ephemeral: %d answered, %d writes (%d), %s, %s", len(before), beforeAnswered, beforeWrites, beforeTable,
		beforeWait, beforeJoin, afterAnswered, afterWrites, afterTable, afterWait, afterJoin)
	assert.Equal(t, len(before), beforeAnswered, "typed: every ask answered")
	// In each message, the answers in the order asked.
	at := map[int]int{}
	for _, a := range before {
		i := strings.Index(a.answer.Text, a.name+", "+a.cmd.Text+":")
		assert.Greater(t, i, at[a.answer.MessageID]-1, "%s's %s after the answers asked before it", a.name, a.cmd.Text)
		at[a.answer.MessageID] = i
	}
	assert.Len(t, at, beforeWrites, "typed: one write a message of answers")
	assert.LessOrEqual(t, beforeWrites, 3, "typed: the answers waiting share the group's writes, in digests")
	assert.Len(t, after, len(before))
	assert.Equal(t, len(after), afterAnswered, "ephemeral: every ask answered")
	assert.Zero(t, afterWrites, "ephemeral: no write of the group's")
	assert.LessOrEqual(t, afterWait, 5*step, "ephemeral: each answer at once")
	spacing := outbox.TelegramLimits().GroupInterval() + step
	assert.LessOrEqual(t, beforeJoin, spacing, "typed: the joins show within the group's spacing")
	assert.LessOrEqual(t, afterJoin, spacing, "ephemeral: the joins show within the group's spacing")

	// Hal asks ten things at once: eight answers, then told once.
	var spam []*asked
	for _, cmd := range []string{"rules", "help", "balance", "stats", "history", "lang", "verify", "settings", "audit", "help"} {
		spam = append(spam, &asked{name: "Hal", cmd: h.ephemeral("Hal", cmd)})
		h.handled()
		h.advance(100*time.Millisecond, step)
	}
	h.drain()
	assert.Equal(t, 9, h.answered(spam), "eight answers and the quota's word")
	var words []string
	for _, a := range spam {
		if a.found {
			assert.True(t, a.answer.IsEphemeral())
			words = append(words, a.answer.Text)
		}
	}
	require.NotEmpty(t, words)
	assert.Contains(t, words[len(words)-1], "That's a lot of commands")
	assert.Equal(t, 1, len(slices.DeleteFunc(words, func(w string) bool { return !holds(w, []string{"That's a lot"}) })), "told once")
}
