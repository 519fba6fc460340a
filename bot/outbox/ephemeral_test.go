package outbox_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/outbox"
)

// ephemeralOp returns an Ephemeral op of chat that records its call, whose
// time ends at expires (zero: never), with late recorded as its Late op.
func (s *sim) ephemeralOp(chat int64, name string, expires time.Time, late string) outbox.Op {
	op := s.op(chat, outbox.Ephemeral, "", name)
	op.Expires = expires
	if late != "" {
		l := s.op(chat, outbox.Say, "", late)
		op.Late = &l
	}
	return op
}

// TestEphemeralTakesNoGroupPacing: a group whose table changes faster
// than its pacing lets it show gets ephemeral answers at once, each as
// soon as the budget over all chats lets it go: they wait neither for the
// group's tokens nor behind its renders, nor one second apart; and the
// table's renders go exactly when they would without them, at most 19 in
// any minute.
func TestEphemeralTakesNoGroupPacing(t *testing.T) {
	// run returns the calls of the renders and of the answers, at their
	// time since the start.
	run := func(withAnswers bool) (renders, answers []call) {
		s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
		defer s.close()
		for i := range 60 {
			s.at(time.Duration(i) * time.Second)
			s.enqueue(-1, outbox.Render, "table", fmt.Sprint("render ", i))
			if withAnswers && i%5 == 2 {
				for k := range 3 {
					require.NoError(t, s.o.Enqueue(s.ephemeralOp(-1, fmt.Sprintf("answer %d.%d", i, k), time.Time{}, "")))
				}
			}
		}
		s.drain()
		for _, c := range s.recorded() {
			c.at = time.Time{}.Add(c.at.Sub(s.start))
			if c.say {
				answers = append(answers, c)
			} else {
				renders = append(renders, c)
			}
		}
		return renders, answers
	}
	alone, none := run(false)
	require.Empty(t, none)
	renders, answers := run(true)
	assert.Equal(t, callTimes(alone), callTimes(renders), "the renders went as they did without the answers")
	assert.LessOrEqual(t, mostInWindow(callTimes(renders), time.Minute), 19, "the group's writes")
	require.Len(t, answers, 36, "every answer went")
	spacing := time.Second / time.Duration(outbox.TelegramLimits().PerSecond)
	for i, a := range answers {
		asked := time.Time{}.Add(time.Duration((i/3)*5+2) * time.Second)
		assert.LessOrEqual(t, a.at.Sub(asked), 3*spacing, "%s waited for the budget over all chats only", a.name)
	}
}

// TestEphemeralGoesBeforeOtherChats: while many chats' renders wait for
// the budget over all chats, an ephemeral answer goes at the next call
// the budget allows, before all of them.
func TestEphemeralGoesBeforeOtherChats(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	for chat := range int64(100) {
		s.enqueue(-1-chat, outbox.Render, "table", fmt.Sprint("render ", chat))
	}
	s.settle()
	require.NoError(t, s.o.Enqueue(s.ephemeralOp(-50, "answer", time.Time{}, "")))
	s.drain()
	calls := s.recorded()
	require.Len(t, calls, 101)
	at := slicesIndex(names(calls), "answer")
	assert.LessOrEqual(t, at, 2, "the answer went at the first call the budget allowed: %v", names(calls)[:at+1])
	assert.LessOrEqual(t, mostInWindow(callTimes(calls), time.Second), outbox.TelegramLimits().PerSecond)
}

func slicesIndex(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// TestEphemeralTooLateGoesToTheGroup: an ephemeral answer whose window
// passes while it waits (Telegram answered 429 and asked for longer) is
// not sent: its Late op, the answer to the group, goes in its place, as a
// reply of the group's; one still in time is sent.
func TestEphemeralTooLateGoesToTheGroup(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	first := s.refusedOnce(s.ephemeralOp(-1, "first", s.start.Add(time.Second), "first to the group"))
	require.NoError(t, s.o.Enqueue(first))
	require.NoError(t, s.o.Enqueue(s.ephemeralOp(-1, "second", s.start.Add(10*time.Second), "second to the group")))
	s.drain()
	assert.Equal(t, []string{"429", "second", "first to the group"}, names(s.recorded()),
		"the first waited out the 429 past its time, and went to the group; the second kept its turn behind it")
	assert.Zero(t, s.o.Pending())
}

// TestEphemeralNotAfterItsTime: an answer enqueued after its time is never
// called; its Late op goes, and one without a Late op is dropped.
func TestEphemeralNotAfterItsTime(t *testing.T) {
	s := newSim(t, outbox.Options{})
	defer s.close()
	s.at(time.Minute)
	require.NoError(t, s.o.Enqueue(s.ephemeralOp(-1, "late", s.start, "to the group")))
	require.NoError(t, s.o.Enqueue(s.ephemeralOp(-1, "an edit too late", s.start, "")))
	require.NoError(t, s.o.Enqueue(s.ephemeralOp(-1, "in time", time.Time{}, "")))
	s.drain()
	assert.ElementsMatch(t, []string{"to the group", "in time"}, names(s.recorded()))
}

// TestEphemeralNotOneASecond: the answers into one chat are not spaced by
// the least time between two calls into a chat (Limits.ChatInterval), and
// their queue is not kept once empty.
func TestEphemeralNotOneASecond(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.Limits{ChatInterval: time.Hour}})
	defer s.close()
	for _, n := range []string{"a", "b", "c"} {
		require.NoError(t, s.o.Enqueue(s.ephemeralOp(-1, n, time.Time{}, "")))
	}
	s.settle()
	calls := s.recorded()
	require.Equal(t, []string{"a", "b", "c"}, names(calls), "in the order enqueued, with no time passing")
	assert.Zero(t, s.o.Pending())
	assert.Zero(t, s.o.Chats(), "nothing kept")
}
