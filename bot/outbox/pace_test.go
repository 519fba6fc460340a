package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/outbox/outboxtest"
)

// call is a call an op of a sim made; say: of a Say or a Notice.
type call struct {
	name string
	at   time.Time
	say  bool
}

// failer is what a sim needs of a test: a *testing.T or a *rapid.T.
type failer interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	FailNow()
}

// sim runs an outbox on a manual clock and records its calls.
type sim struct {
	t     failer
	clock *outboxtest.Clock
	o     *outbox.Outbox
	start time.Time

	mu    sync.Mutex
	calls []call
}

func newSim(t failer, opts outbox.Options) *sim {
	s := &sim{t: t, clock: outboxtest.NewClock(time.Date(2026, 12, 2, 18, 30, 0, 0, time.UTC))}
	s.start = s.clock.Now()
	opts.Clock = s.clock
	s.o = outbox.New(opts)
	return s
}

// settle waits until the outbox settled.
func (s *sim) settle() {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !s.o.Quiet() {
		if time.Now().After(deadline) {
			s.t.Fatalf("the outbox did not settle")
		}
		time.Sleep(50 * time.Microsecond) // polls a condition; the clock does not move meanwhile
	}
}

// at moves the clock to start+d, through every timer due before.
func (s *sim) at(d time.Duration) {
	s.t.Helper()
	to := s.start.Add(d)
	for {
		s.settle()
		next, ok := s.clock.Next()
		if !ok || next.After(to) {
			break
		}
		s.clock.Set(next)
	}
	s.clock.Set(to)
	s.settle()
}

// drain moves the clock until nothing waits.
func (s *sim) drain() {
	s.t.Helper()
	for range 100000 {
		s.settle()
		if s.o.Pending() == 0 {
			return
		}
		next, ok := s.clock.Next()
		if !ok {
			s.t.Fatalf("%d ops wait and no timer is set", s.o.Pending())
		}
		s.clock.Set(next)
	}
	s.t.Fatalf("the outbox did not drain")
}

// op returns an op of chat that records its call.
func (s *sim) op(chat int64, class outbox.Class, slot, name string) outbox.Op {
	return outbox.Op{Chat: chat, Class: class, Slot: slot, Do: func(context.Context) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.calls = append(s.calls, call{name: name, at: s.clock.Now(), say: class != outbox.Render})
		return nil
	}}
}

func (s *sim) enqueue(chat int64, class outbox.Class, slot, name string) {
	s.t.Helper()
	require.NoError(s.t, s.o.Enqueue(s.op(chat, class, slot, name)))
}

// offer enqueues an op that the chat's queue may refuse as full.
func (s *sim) offer(chat int64, class outbox.Class, slot, name string) {
	s.t.Helper()
	if err := s.o.Enqueue(s.op(chat, class, slot, name)); err != nil && !errors.Is(err, outbox.ErrFull) {
		s.t.Fatalf("enqueue: %v", err)
	}
}

func (s *sim) recorded() []call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

func (s *sim) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = s.o.Close(ctx)
}

// latest returns the later of a and b.
func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// mostInWindow returns the most calls in any span [t, t+per).
func mostInWindow(times []time.Time, per time.Duration) int {
	times = slices.SortedFunc(slices.Values(times), time.Time.Compare)
	most := 0
	for i := range times {
		j := sort.Search(len(times), func(j int) bool { return !times[j].Before(times[i].Add(per)) })
		most = max(most, j-i)
	}
	return most
}

func callTimes(calls []call) []time.Time {
	out := make([]time.Time, len(calls))
	for i, c := range calls {
		out[i] = c.at
	}
	return out
}

// TestGroupNeverFreezes: under Telegram's limits, a table whose players
// press every 2 s for five minutes is edited throughout: after a burst of
// three, one edit at least every 60/17 s, never a pause while an edit
// waits; at most 19 writes in any minute. (A sliding window of 19 alone
// spent its budget in 19 s and froze the table for 41.)
func TestGroupNeverFreezes(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	interval := outbox.TelegramLimits().GroupInterval()
	const presses = 150
	for i := range presses {
		s.at(time.Duration(i) * 2 * time.Second)
		s.enqueue(-1, outbox.Render, "table", fmt.Sprint("render ", i))
	}
	s.drain()
	calls := s.recorded()
	require.NotEmpty(t, calls)
	assert.LessOrEqual(t, mostInWindow(callTimes(calls), time.Minute), 19)
	worst := time.Duration(0)
	for i := 1; i < len(calls); i++ {
		worst = max(worst, calls[i].at.Sub(calls[i-1].at))
	}
	assert.LessOrEqual(t, worst, interval, "the longest pause between edits while one waited")
	assert.GreaterOrEqual(t, len(calls), 80, "five minutes at 17 a minute, after a burst")
	assert.Equal(t, 0, s.o.Pending())
}

// TestRepliesLeaveTheRenderItsToken: a reply does not take the last token
// of a group's bucket: three replies queued at once go two at the pace of
// one a second, and the table's render enqueued after them takes the third
// token at once, ahead of the third reply.
func TestRepliesLeaveTheRenderItsToken(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	for _, n := range []string{"say1", "say2", "say3"} {
		s.enqueue(-1, outbox.Say, "", n)
	}
	s.at(2 * time.Second)
	s.enqueue(-1, outbox.Render, "table", "render")
	s.drain()
	calls := s.recorded()
	var names []string
	for _, c := range calls {
		names = append(names, c.name)
	}
	require.Equal(t, []string{"say1", "say2", "render", "say3"}, names)
	assert.Equal(t, 2*time.Second, calls[2].at.Sub(s.start), "the render went when it came")
	assert.Greater(t, calls[3].at.Sub(calls[2].at), time.Second, "the third reply waited for two tokens")
}

// TestReplyGoesAfterRenders: while a group's table changes faster than its
// pacing lets it show, a render always waits; a reply waiting behind goes
// after replyAfter renders, and the table's renders go on after it.
func TestReplyGoesAfterRenders(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	s.enqueue(-1, outbox.Render, "table", "r0")
	s.enqueue(-1, outbox.Say, "", "say1")
	s.enqueue(-1, outbox.Say, "", "say2")
	for i := 1; i < 40; i++ {
		s.at(time.Duration(i)*time.Second - 500*time.Millisecond)
		s.enqueue(-1, outbox.Render, "table", fmt.Sprint("r", i))
	}
	s.drain()
	var order []string
	for _, c := range s.recorded() {
		if c.say {
			order = append(order, c.name)
		} else {
			order = append(order, "r")
		}
	}
	require.Greater(t, len(order), 8)
	assert.Equal(t, []string{"r", "r", "r", "say1", "r", "r", "r", "say2"}, order[:8])
	for _, name := range order[8:] {
		assert.Equal(t, "r", name)
	}
}

// TestRestoredHistoryCounts: calls made before a restart count in the new
// outbox's pacing: a group that had 19 calls in the last minute gets its
// next call only once the oldest leaves the minute, and the spacing goes
// on from there; a group without history goes at once.
func TestRestoredHistoryCounts(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	var hist []time.Time
	for i := range 19 {
		hist = append(hist, s.start.Add(time.Duration(i-50)*time.Second)) // 50 to 32 s ago
	}
	s.o.Restore([]outbox.History{{Chat: -1, Calls: hist}}, 0, s.start)
	s.enqueue(-1, outbox.Render, "table", "full")
	s.enqueue(-2, outbox.Render, "table", "free")
	s.drain()
	at := map[string]time.Duration{}
	for _, c := range s.recorded() {
		at[c.name] = c.at.Sub(s.start)
	}
	assert.InDelta(t, 10*time.Second, at["full"], float64(time.Millisecond), "when the oldest restored call leaves the minute")
	assert.Zero(t, at["free"])
}

// TestAssumedCalls: calls a crash may have kept from the history are
// assumed in every group whose queue is made within a minute of the start,
// at the start: a second between them and the next call, and a reply
// waits for two tokens of the one left; a group first called a minute
// later has its whole burst.
func TestAssumedCalls(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	interval := outbox.TelegramLimits().GroupInterval()
	s.o.Restore(nil, 2, s.start)
	s.enqueue(-1, outbox.Render, "table", "render")
	s.enqueue(-1, outbox.Say, "", "reply")
	s.at(time.Minute + time.Second)
	s.enqueue(-2, outbox.Say, "", "later1")
	s.enqueue(-2, outbox.Say, "", "later2")
	s.drain()
	at := map[string]time.Duration{}
	for _, c := range s.recorded() {
		at[c.name] = c.at.Sub(s.start)
	}
	assert.Equal(t, time.Second, at["render"])
	assert.Equal(t, 2*interval, at["reply"])
	assert.Equal(t, time.Minute+time.Second, at["later1"])
	assert.Equal(t, time.Minute+2*time.Second, at["later2"])
}

// TestTakeHistory: the history of the groups called since the last take,
// and nothing of private chats.
func TestTakeHistory(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits(), KeepHistory: true})
	defer s.close()
	s.enqueue(-1, outbox.Render, "table", "a")
	s.enqueue(5, outbox.Say, "", "private")
	s.at(2 * time.Second)
	s.enqueue(-1, outbox.Render, "table", "b")
	s.at(4 * time.Second)
	h := s.o.TakeHistory()
	require.Len(t, h, 1)
	assert.Equal(t, int64(-1), h[0].Chat)
	assert.Equal(t, []time.Time{s.start, s.start.Add(2 * time.Second)}, h[0].Calls)
	assert.Empty(t, s.o.TakeHistory(), "nothing called since")
}

// TestWaitAndCoalesceObserved: the outbox tells how long each render
// waited, from the enqueue of the oldest op it held, and of each render
// replaced before its call.
func TestWaitAndCoalesceObserved(t *testing.T) {
	var mu sync.Mutex
	var waits []time.Duration
	coalesced := 0
	s := newSim(t, outbox.Options{Limits: outbox.Limits{GroupPerMinute: 1, GroupWindow: 10 * time.Second},
		OnRenderWait: func(d time.Duration) { mu.Lock(); waits = append(waits, d); mu.Unlock() },
		OnCoalesce:   func() { mu.Lock(); coalesced++; mu.Unlock() }})
	defer s.close()
	s.enqueue(-1, outbox.Render, "table", "r1") // at once
	s.settle()
	s.enqueue(-1, outbox.Render, "table", "r2") // waits 10 s
	s.at(3 * time.Second)
	s.enqueue(-1, outbox.Render, "table", "r3") // replaces r2, keeps its place and time
	s.enqueue(-1, outbox.Say, "", "say")        // not a render
	s.drain()
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []time.Duration{0, 10 * time.Second}, waits)
	assert.Equal(t, 1, coalesced)
}

// TestPacingProperties: whatever the limits and the ops (renders, replies
// and notices into one group), no span of GroupWindow holds more than
// GroupPerMinute calls into a group (those restored from before a start
// included), no second more than NoticePerSecond notices, calls into a
// chat are at least ChatInterval apart, and without a history to honour a
// render is called at most the group's interval (or ChatInterval) after
// the later of its enqueue and the chat's previous call: the table never
// freezes.
func TestPacingProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		l := outbox.Limits{
			GroupPerMinute: rapid.IntRange(1, 30).Draw(rt, "per minute"),
			GroupWindow:    time.Duration(rapid.IntRange(1, 120).Draw(rt, "window s")) * time.Second,
			GroupBurst:     rapid.IntRange(0, 5).Draw(rt, "burst"),
			ChatInterval:   time.Duration(rapid.IntRange(0, 2000).Draw(rt, "interval ms")) * time.Millisecond,

			NoticePerSecond: rapid.IntRange(0, 2).Draw(rt, "notices a second"),
		}
		s := newSim(rt, outbox.Options{Limits: l})
		defer s.close()
		var hist []time.Time
		restored := rapid.Bool().Draw(rt, "restored")
		if restored {
			n := rapid.IntRange(0, l.GroupPerMinute).Draw(rt, "history")
			for range n {
				ago := time.Duration(rapid.Int64Range(1, int64(l.GroupWindow)).Draw(rt, "ago"))
				hist = append(hist, s.start.Add(-ago))
			}
			s.o.Restore([]outbox.History{{Chat: -1, Calls: hist}}, 0, s.start)
		}
		type arrival struct {
			at    time.Duration
			class outbox.Class
		}
		n := rapid.IntRange(1, 40).Draw(rt, "ops")
		var arrivals []arrival
		at := time.Duration(0)
		for i := range n {
			at += time.Duration(rapid.IntRange(0, 5000).Draw(rt, fmt.Sprint("gap ms ", i))) * time.Millisecond
			class := outbox.Render
			switch rapid.IntRange(0, 7).Draw(rt, fmt.Sprint("class ", i)) {
			case 0, 1:
				class = outbox.Say
			case 2:
				class = outbox.Notice
			}
			arrivals = append(arrivals, arrival{at, class})
		}
		enqueued := map[string]time.Time{}
		notice := map[string]bool{}
		for i, a := range arrivals {
			s.at(a.at)
			name := fmt.Sprint(i)
			slot := "table"
			if a.class != outbox.Render {
				slot = name
			}
			enqueued[name] = s.clock.Now()
			notice[name] = a.class == outbox.Notice
			s.offer(-1, a.class, slot, name)
		}
		s.drain()
		calls := s.recorded()
		times := append(slices.Clone(hist), callTimes(calls)...)
		if most := mostInWindow(times, l.GroupWindow); most > l.GroupPerMinute {
			rt.Fatalf("%d calls in a span of %s, limit %d", most, l.GroupWindow, l.GroupPerMinute)
		}
		var notices []time.Time
		for _, c := range calls {
			if notice[c.name] {
				notices = append(notices, c.at)
			}
		}
		if most := mostInWindow(notices, time.Second); l.NoticePerSecond > 0 && most > l.NoticePerSecond {
			rt.Fatalf("%d notices in a second, limit %d", most, l.NoticePerSecond)
		}
		interval := l.GroupInterval()
		for i := 1; i < len(calls); i++ {
			gap := calls[i].at.Sub(calls[i-1].at)
			if gap < l.ChatInterval {
				rt.Fatalf("calls %d and %d %s apart", i-1, i, gap)
			}
			if restored || calls[i].say {
				continue
			}
			// The render called holds the newest op of the slot: it waited
			// since that op's enqueue at the latest.
			from := latest(calls[i-1].at, enqueued[calls[i].name])
			if wait := calls[i].at.Sub(from); wait > max(interval, l.ChatInterval) {
				rt.Fatalf("render %s waited %s after the chat's previous call (interval %s)", calls[i].name, wait, interval)
			}
		}
	})
}

// TestTelegramLimitsHold: with Telegram's limits, any arrivals, replies
// among them, and a history a crash cut short (the calls it lost assumed),
// no minute holds more than 20 calls into a group (Telegram's limit),
// none two within a second.
func TestTelegramLimitsHold(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := newSim(rt, outbox.Options{Limits: outbox.TelegramLimits()})
		defer s.close()
		// The old process paced at the same limits: its calls up to the
		// crash; the record kept them up to a second before it.
		var old []time.Time
		at := -time.Duration(rapid.IntRange(0, 70).Draw(rt, "old since s")) * time.Second
		for at < 0 {
			old = append(old, s.start.Add(at))
			at += time.Duration(rapid.IntRange(3200, 8000).Draw(rt, "old gap ms")) * time.Millisecond
		}
		if mostInWindow(old, time.Minute) > 19 {
			return // not a history this pacing makes
		}
		var kept []time.Time
		for _, t := range old {
			if s.start.Sub(t) > time.Second {
				kept = append(kept, t)
			}
		}
		s.o.Restore([]outbox.History{{Chat: -1, Calls: kept}}, 2, s.start)
		n := rapid.IntRange(1, 60).Draw(rt, "ops")
		at = 0
		for i := range n {
			at += time.Duration(rapid.IntRange(0, 3000).Draw(rt, "gap ms")) * time.Millisecond
			s.at(at)
			if rapid.IntRange(0, 4).Draw(rt, "say") == 0 {
				s.offer(-1, outbox.Say, "", fmt.Sprint(i))
			} else {
				s.offer(-1, outbox.Render, "table", fmt.Sprint(i))
			}
		}
		s.drain()
		times := append(old, callTimes(s.recorded())...)
		if most := mostInWindow(times, time.Minute); most > 20 {
			rt.Fatalf("%d calls into the group in a minute", most)
		}
		slices.SortFunc(times, time.Time.Compare)
		for i := 1; i < len(times); i++ {
			if d := times[i].Sub(times[i-1]); d < time.Second {
				rt.Fatalf("two calls %s apart", d)
			}
		}
	})
}

// TestNoticesYieldUnderPacing: under Telegram's limits, one call at a
// time, on the outbox's clock: the renders and replies ready go before any
// notice; notices then go at most NoticePerSecond a second of that clock;
// a group's render that comes due by its pacing while notices wait goes
// ahead of them; and only the renders are told to OnRenderWait.
func TestNoticesYieldUnderPacing(t *testing.T) {
	var mu sync.Mutex
	var waits []time.Duration
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits(), MaxInFlight: 1,
		OnRenderWait: func(d time.Duration) { mu.Lock(); waits = append(waits, d); mu.Unlock() }})
	defer s.close()
	release := make(chan struct{})
	require.NoError(t, s.o.Enqueue(outbox.Op{Chat: 500, Do: func(context.Context) error {
		<-release // holds the only call in flight while the rest queue up
		return nil
	}}))
	var notices []string
	for i := range 10 {
		notices = append(notices, fmt.Sprint("notice ", i))
		s.enqueue(int64(100+i), outbox.Notice, "", notices[i])
	}
	s.enqueue(-1, outbox.Render, "table", "render -1")
	s.enqueue(-2, outbox.Say, "", "say -2")
	s.enqueue(-3, outbox.Render, "table", "render -3")
	close(release)
	s.at(500 * time.Millisecond)
	s.enqueue(-1, outbox.Render, "table", "render -1 again") // due a ChatInterval after the first
	s.drain()

	var order []string
	at := map[string]time.Duration{}
	var noticeTimes []time.Time
	for _, c := range s.recorded() {
		order = append(order, c.name)
		at[c.name] = c.at.Sub(s.start)
		if _, err := fmt.Sscanf(c.name, "notice %d", new(int)); err == nil {
			noticeTimes = append(noticeTimes, c.at)
		}
	}
	want := append([]string{"render -1", "say -2", "render -3"}, notices[:8]...)
	want = append(append(want, "render -1 again"), notices[8:]...)
	assert.Equal(t, want, order)
	for _, n := range notices[:8] {
		assert.Zero(t, at[n], "%s: the first 8 notices go at once, after the tables", n)
	}
	for _, n := range append([]string{"render -1 again"}, notices[8:]...) {
		assert.Equal(t, time.Second, at[n], "%s: a second later by the outbox's clock", n)
	}
	assert.LessOrEqual(t, mostInWindow(noticeTimes, time.Second), outbox.TelegramLimits().NoticePerSecond)
	mu.Lock()
	defer mu.Unlock()
	assert.ElementsMatch(t, []time.Duration{0, 0, 0, 500 * time.Millisecond}, waits,
		"the gate's render, the two at once, the one paced; no reply or notice")
}

// TestNoticesCappedPerSecond: notices take at most NoticePerSecond calls a
// second of the outbox's clock, and a render that comes meanwhile goes at
// once, not after them.
func TestNoticesCappedPerSecond(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.Limits{PerSecond: 100, NoticePerSecond: 2}})
	defer s.close()
	for i := range 5 {
		s.enqueue(int64(10+i), outbox.Notice, "", fmt.Sprint("notice ", i))
	}
	s.at(500 * time.Millisecond)
	s.enqueue(-1, outbox.Render, "table", "render")
	s.drain()
	at := map[string]time.Duration{}
	for _, c := range s.recorded() {
		at[c.name] = c.at.Sub(s.start)
	}
	assert.Equal(t, map[string]time.Duration{
		"notice 0": 0, "notice 1": 0,
		"render":   500 * time.Millisecond, // the third notice is due a second after the first
		"notice 2": time.Second, "notice 3": time.Second,
		"notice 4": 2 * time.Second,
	}, at)
}
