package outbox_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/twentyone-bot/twentyone/bot/outbox"
)

// The Ephemeral ops' share of the budget over all chats (ephemeral.go).

// quiet is a logger for the ops a full queue refuses, which these tests
// make on purpose.
func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestEphemeralShareOfTheGlobalRate: answers take a third of PerSecond at
// most ahead of the other chats, at least one call (a third still, over
// a longer span, under 3 a second), and none without a global limit; a
// flood of answers beside tables that always wait takes exactly that.
func TestEphemeralShareOfTheGlobalRate(t *testing.T) {
	tests := []struct {
		name   string
		limits outbox.Limits
		calls  int
		per    time.Duration
	}{
		{"telegram's", outbox.TelegramLimits(), 8, time.Second},
		{"raised", outbox.Limits{PerSecond: 60}, 20, time.Second},
		{"three", outbox.Limits{PerSecond: 3}, 1, time.Second},
		{"two", outbox.Limits{PerSecond: 2}, 1, 1500 * time.Millisecond},
		{"one", outbox.Limits{PerSecond: 1}, 1, 3 * time.Second},
		{"no global limit", outbox.Limits{GroupPerMinute: 19}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, per := tt.limits.EphemeralShare()
			assert.Equal(t, tt.calls, calls)
			assert.Equal(t, tt.per, per)
			if calls == 0 {
				return
			}
			s := newSim(t, outbox.Options{Limits: tt.limits, MaxOps: 10000})
			defer s.close()
			const span = 12 * time.Second
			// Tables: a private chat each, with a render ready all along.
			for tick := time.Duration(0); tick < span; tick += 100 * time.Millisecond {
				s.at(tick)
				for chat := range int64(30) {
					s.enqueue(1+chat, outbox.Render, "table", fmt.Sprint("render ", chat))
				}
				for i := range 5 { // 50 a second, more than any share here
					require.NoError(t, s.o.Enqueue(s.ephemeralOp(-1, fmt.Sprint("answer ", tick, i), time.Time{}, "")))
				}
			}
			var answers []time.Time
			for _, c := range s.recorded() {
				if strings.HasPrefix(c.name, "answer") && c.at.Before(s.start.Add(span)) {
					answers = append(answers, c.at)
				}
			}
			assert.LessOrEqual(t, mostInWindow(answers, per), calls, "in any span of %s", per)
			spans := int(span / per)
			assert.GreaterOrEqual(t, len(answers), (spans-1)*calls, "the answers took their share all along")
		})
	}
}

// TestEphemeralShareThenTheTables: with a hundred tables waiting for the
// budget over all chats, answers enqueued at once take the next calls up
// to their share, one every 40 ms; the next waits, behind the tables, for
// a second after the first, and goes then before them again.
func TestEphemeralShareThenTheTables(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	for chat := range int64(100) {
		s.enqueue(-1-chat, outbox.Render, "table", fmt.Sprint("render ", chat))
	}
	s.settle() // the first render went at 0
	for i := range 10 {
		require.NoError(t, s.o.Enqueue(s.ephemeralOp(-1-int64(i), fmt.Sprint("answer ", i), time.Time{}, "")))
	}
	s.drain()
	const spacing = time.Second / 25
	var order []string
	at := map[string]time.Duration{}
	for _, c := range s.recorded() {
		order = append(order, c.name)
		at[c.name] = c.at.Sub(s.start)
	}
	for i := range 8 {
		assert.Equal(t, time.Duration(i+1)*spacing, at[fmt.Sprint("answer ", i)], "answer %d went at once", i)
	}
	assert.Equal(t, time.Second+spacing, at["answer 8"], "a second after the first answer")
	assert.Equal(t, time.Second+2*spacing, at["answer 9"])
	assert.Equal(t, "render 1", order[9], "the tables' turn once the share is spent: %v", order[:12])
	assert.Equal(t, 9*spacing, at["render 1"])
	assert.Len(t, order, 110)
}

// TestEphemeralUsesAQuietBudget: answers with no other chat's op ready go
// at the whole budget over all chats, past their share, one every 40 ms
// (a group's table waiting for its own pacing holds nothing back); and a
// table that comes due meanwhile goes at the next call, ahead of them,
// the answers' share being spent.
func TestEphemeralUsesAQuietBudget(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	s.enqueue(-1, outbox.Render, "table", "render")
	s.enqueue(-1, outbox.Say, "", "reply") // waits for the group's pacing, leaving a token
	s.settle()
	for i := range 40 {
		require.NoError(t, s.o.Enqueue(s.ephemeralOp(-2-int64(i%4), fmt.Sprint("answer ", i), time.Time{}, "")))
	}
	s.at(500 * time.Millisecond)
	s.enqueue(-5, outbox.Render, "table", "render -5")
	s.drain()
	const spacing = time.Second / 25
	at := map[string]time.Duration{}
	var answers []time.Time
	for _, c := range s.recorded() {
		at[c.name] = c.at.Sub(s.start)
		if strings.HasPrefix(c.name, "answer") {
			answers = append(answers, c.at)
		}
	}
	for i := range 12 {
		assert.Equal(t, time.Duration(i+1)*spacing, at[fmt.Sprint("answer ", i)], "answer %d", i)
	}
	assert.Equal(t, 13*spacing, at["render -5"], "the table ready at 500 ms went at the next call")
	assert.Equal(t, 14*spacing, at["answer 12"], "then the answers again, none other being ready")
	assert.Equal(t, 25, mostInWindow(answers, time.Second), "a second of the whole budget")
	assert.Equal(t, outbox.TelegramLimits().GroupInterval(), at["reply"], "the reply went at its group's pacing")
}

// digests stands for the bot's digest (bot/send): an answer whose window
// passed while it waited goes to its group with the others that did, in
// one Say of the group's, whose slot a later one takes while it waits.
type digests struct {
	s       *sim
	mu      sync.Mutex
	waiting map[int64][]asked // by chat: not yet sent
}

type asked struct {
	name    string
	expires time.Time
}

// answer returns an answer to chat, with a window of 13 s from now, whose
// Late op is the group's digest.
func (d *digests) answer(chat int64, name string) outbox.Op {
	now := d.s.clock.Now()
	expires := now.Add(13 * time.Second)
	d.mu.Lock()
	d.waiting[chat] = append(d.waiting[chat], asked{name, expires})
	d.mu.Unlock()
	op := d.s.ephemeralOp(chat, name, expires, "")
	op.Late = &outbox.Op{Chat: chat, Class: outbox.Say, Slot: "digest", Do: func(context.Context) error {
		d.mu.Lock()
		var took []string
		d.waiting[chat] = slices.DeleteFunc(d.waiting[chat], func(a asked) bool {
			gone := !d.s.clock.Now().Before(a.expires) // never to be sent as asked
			if gone {
				took = append(took, a.name)
			}
			return gone
		})
		d.mu.Unlock()
		d.s.mu.Lock()
		defer d.s.mu.Unlock()
		d.s.calls = append(d.s.calls, call{name: "digest " + strings.Join(took, ","), at: d.s.clock.Now(), say: true})
		return nil
	}}
	do := op.Do
	op.Do = func(ctx context.Context) error {
		d.mu.Lock()
		d.waiting[chat] = slices.DeleteFunc(d.waiting[chat], func(a asked) bool { return a.name == name })
		d.mu.Unlock()
		return do(ctx)
	}
	return op
}

// TestEphemeralFloodBesideBusyTables: a hundred groups whose players keep
// their tables busy, and twice the answers the whole budget holds (one
// every 20 ms, each with a window of 13 s, past which it goes to its
// group's digest): for a minute and a half, no second holds more than
// the share of answers (8), nor a minute more than 480; every second the
// tables' calls take the rest, 17 of 25; each table is rendered again
// within 20 s all along (a turn of the hundred groups at 17 calls a
// second, one in four of them a digest); and every answer went once, as
// asked or in a digest. (Answers first with no share took every call,
// and no table moved.)
func TestEphemeralFloodBesideBusyTables(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	d := &digests{s: s, waiting: map[int64][]asked{}}
	const groups, span = 100, 90 * time.Second
	asked := 0
	for tick := time.Duration(0); tick < span; tick += 20 * time.Millisecond {
		s.at(tick)
		if tick%time.Second == 0 {
			for g := range int64(groups) {
				s.enqueue(-1-g, outbox.Render, "table", fmt.Sprint("render ", g, " ", tick))
			}
		}
		require.NoError(t, s.o.Enqueue(d.answer(-1-int64(asked%groups), fmt.Sprint("answer ", asked))))
		asked++
	}
	s.drain()
	var answers, tables []time.Time
	went := map[string]int{}
	lastRender := map[string]time.Time{}
	for _, c := range s.recorded() {
		if took, ok := strings.CutPrefix(c.name, "digest "); ok {
			for _, name := range strings.Split(took, ",") {
				went[name]++
			}
		} else if strings.HasPrefix(c.name, "answer") {
			went[c.name]++
		}
		if c.at.Sub(s.start) >= span {
			continue // the drain, the tables quiet
		}
		if strings.HasPrefix(c.name, "answer") {
			answers = append(answers, c.at)
			continue
		}
		tables = append(tables, c.at)
		if g, ok := strings.CutPrefix(c.name, "render "); ok {
			g = strings.Fields(g)[0]
			if last, seen := lastRender[g]; seen {
				assert.LessOrEqual(t, c.at.Sub(last), 20*time.Second, "group %s's table waited, at %s", g, c.at.Sub(s.start))
			}
			lastRender[g] = c.at
		}
	}
	assert.LessOrEqual(t, mostInWindow(answers, time.Second), 8, "answers in a second")
	assert.LessOrEqual(t, mostInWindow(answers, time.Minute), 480, "answers in a minute")
	assert.GreaterOrEqual(t, len(answers), 8*int(span/time.Second)-8, "the answers kept their share")
	assert.Len(t, lastRender, groups, "every table rendered")
	for sec := time.Duration(0); sec < span; sec += time.Second {
		from, to := s.start.Add(sec), s.start.Add(sec+time.Second)
		n := 0
		for _, c := range tables {
			if !c.Before(from) && c.Before(to) {
				n++
			}
		}
		assert.GreaterOrEqual(t, n, 16, "the tables' calls in the second from %s", sec)
	}
	for i := range asked {
		assert.Equal(t, 1, went[fmt.Sprint("answer ", i)], "answer %d went once, as asked or in a digest", i)
	}
}

// TestEphemeralShareProperties: whatever renders, Retires and replies some
// groups enqueue beside answers (some of them with a window that may pass,
// their Late op a reply), under a global limit alone: no second holds more
// than PerSecond calls; an answer goes past its share (more than the share
// in its span) only while no other op waits; while a chat's render waits
// no other chat makes more than two calls but answers (its turn, and the
// Retire or reply right after it); and every answer goes once, as asked,
// or to the group when its window passed.
func TestEphemeralShareProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		l := outbox.Limits{PerSecond: rapid.IntRange(1, 12).Draw(rt, "per second")}
		share, per := l.EphemeralShare()
		s := newSim(rt, outbox.Options{Limits: l, Logger: quiet(), MaxSays: 1000, MaxOps: 1000})
		defer s.close()
		chats := rapid.IntRange(1, 5).Draw(rt, "chats")
		n := rapid.IntRange(1, 80).Draw(rt, "ops")
		enqueued := map[string]time.Time{}
		chatOf := map[string]int64{}
		answers := map[string]bool{} // those with a window: true
		renders := map[string]bool{}
		at := time.Duration(0)
		for i := range n {
			at += time.Duration(rapid.IntRange(0, 400).Draw(rt, fmt.Sprint("gap ms ", i))) * time.Millisecond
			s.at(at)
			chat := -int64(rapid.IntRange(1, chats).Draw(rt, fmt.Sprint("chat ", i)))
			name := fmt.Sprint(i)
			enqueued[name], chatOf[name] = s.clock.Now(), chat
			switch rapid.IntRange(0, 5).Draw(rt, fmt.Sprint("kind ", i)) {
			case 0:
				s.offer(chat, outbox.Retire, name, name)
			case 1:
				s.offer(chat, outbox.Say, name, name)
			case 2, 3:
				renders[name] = true
				s.offer(chat, outbox.Render, "table", name)
			default:
				name = "answer " + name
				var expires time.Time
				if answers[name] = rapid.Bool().Draw(rt, fmt.Sprint("window ", i)); answers[name] {
					expires = s.clock.Now().Add(time.Duration(rapid.IntRange(0, 5000).Draw(rt, fmt.Sprint("window ms ", i))) * time.Millisecond)
				}
				chatOf[name] = chat
				require.NoError(rt, s.o.Enqueue(s.ephemeralOp(chat, name, expires, "late "+name)))
			}
		}
		s.drain()
		calls := s.recorded()
		if most := mostInWindow(callTimes(calls), time.Second); most > l.PerSecond {
			rt.Fatalf("%d calls in a second, limit %d", most, l.PerSecond)
		}
		went := map[string]int{}
		var answered []time.Time
		for i, c := range calls {
			name, late := strings.CutPrefix(c.name, "late ")
			if _, ok := answers[name]; ok {
				if went[name]++; late && !answers[name] {
					rt.Fatalf("%s, with no window, went to the group", name)
				}
			}
			if !strings.HasPrefix(c.name, "answer") {
				continue
			}
			answered = append(answered, c.at)
			if mostInWindow(inSpan(answered, c.at, per), per) <= share {
				continue
			}
			// Past its share: no other op (a Late one's enqueue unknown)
			// may have waited, from before it to after it.
			for _, o := range calls[i+1:] {
				if e, ok := enqueued[o.name]; ok && e.Before(c.at) && o.at.After(c.at) {
					rt.Fatalf("%s went at %s past its share (%d in %s) while %s waited: %v", c.name, c.at.Sub(s.start), share, per, o.name, names(calls))
				}
			}
		}
		for name := range answers {
			if went[name] != 1 {
				rt.Fatalf("%s went %d times", name, went[name])
			}
		}
		for i, c := range calls {
			if !renders[c.name] {
				continue // a render's wait only
			}
			others := map[int64]int{}
			for j := i - 1; j >= 0 && calls[j].at.After(enqueued[c.name]); j-- {
				o := calls[j].name
				if _, ok := enqueued[o]; !ok || strings.HasPrefix(o, "answer") || chatOf[o] == chatOf[c.name] {
					continue // answers have their share; Late ops are replies as any
				}
				if others[chatOf[o]]++; others[chatOf[o]] > 2 {
					rt.Fatalf("chat %d made %d calls while %s of chat %d waited: %v", chatOf[o], others[chatOf[o]], c.name, chatOf[c.name], names(calls))
				}
			}
		}
	})
}

// inSpan returns the times within per up to at: (at-per, at].
func inSpan(times []time.Time, at time.Time, per time.Duration) []time.Time {
	return slices.DeleteFunc(slices.Clone(times), func(t time.Time) bool { return !t.After(at.Add(-per)) || t.After(at) })
}
