package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/outbox"
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
	clock *clocktest.Clock
	o     *outbox.Outbox
	start time.Time

	mu    sync.Mutex
	calls []call
}

func newSim(t failer, opts outbox.Options) *sim {
	s := &sim{t: t, clock: clocktest.NewClock(time.Date(2026, 12, 2, 18, 30, 0, 0, time.UTC))}
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

// refusedOnce returns op as Telegram answers it: 429 (retry after 1.5 s)
// the first time, recorded as "429", and then taken.
func (s *sim) refusedOnce(op outbox.Op) outbox.Op {
	refused, do := false, op.Do
	op.Do = func(ctx context.Context) error {
		if !refused {
			refused = true
			s.mu.Lock()
			s.calls = append(s.calls, call{name: "429", at: s.clock.Now()})
			s.mu.Unlock()
			return &outbox.RetryAfterError{After: 1500 * time.Millisecond}
		}
		return do(ctx)
	}
	return op
}

// inFlight returns op with a call that, once made, enqueues each op of
// then, as the call that sends a new table message enqueues the old one's
// record; each Enqueue's error goes to the channel. The call must be made
// once.
func (s *sim) inFlight(op outbox.Op, then ...outbox.Op) (outbox.Op, <-chan error) {
	errs, do := make(chan error, len(then)), op.Do
	op.Do = func(ctx context.Context) error {
		err := do(ctx)
		for _, next := range then {
			errs <- s.o.Enqueue(next)
		}
		return err
	}
	return op, errs
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

func names(calls []call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.name
	}
	return out
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
// two, one edit at least every 60/18 s, never a pause while an edit
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
	assert.GreaterOrEqual(t, len(calls), 80, "five minutes at 18 a minute, after a burst")
	assert.Equal(t, 0, s.o.Pending())
}

// TestRepliesLeaveTheRenderItsToken: a reply does not take the last token
// of a group's bucket (a burst of 2): of three replies queued at once the
// first goes at once and the others wait for a full bucket each, and the
// table's render enqueued after them takes the token left at once, ahead
// of them.
func TestRepliesLeaveTheRenderItsToken(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	interval := outbox.TelegramLimits().GroupInterval()
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
	require.Equal(t, []string{"say1", "render", "say2", "say3"}, names)
	assert.Equal(t, 2*time.Second, calls[1].at.Sub(s.start), "the render went when it came")
	assert.Equal(t, 2*interval, calls[2].at.Sub(s.start), "the second reply waited for two tokens")
	assert.Equal(t, 3*interval, calls[3].at.Sub(s.start), "and the third")
}

// TestReplyGoesAfterRenders: while a group's table changes faster than its
// pacing lets it show, a render always waits; a reply waiting behind goes
// after replyAfter renders, and the table's renders go on after it.
func TestReplyGoesAfterRenders(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	s.enqueue(-1, outbox.Render, "table", "r0")
	// r0 goes before the replies come: whether it counts as a render that
	// went ahead of them must not hang on the dispatcher's timing.
	s.settle()
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
	require.Greater(t, len(order), 9)
	assert.Equal(t, []string{"r", "r", "r", "r", "say1", "r", "r", "r", "say2"}, order[:9], "r0, then three renders ahead of each reply")
	for _, name := range order[9:] {
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
// at the start: they spent the group's burst of 2 and more, the next call
// waits for a token and a reply after it for two; a group first called a
// minute later has its whole burst.
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
	assert.Equal(t, interval, at["render"])
	assert.Equal(t, 3*interval, at["reply"])
	assert.Equal(t, time.Minute+time.Second, at["later1"])
	assert.Equal(t, time.Minute+time.Second+interval, at["later2"], "a reply leaves the burst's last token")
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

// TestPacingProperties: whatever the limits and the ops (renders, replies,
// notices and Retires into one group), no span of GroupWindow holds more than
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
			case 3:
				class = outbox.Retire
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

// TestSharingProperties: whatever renders and Retires some chats enqueue
// under a global limit alone (renders among them that enqueue a Retire
// while in flight, as a new table message does for the old one's
// record), no second holds more than PerSecond calls, every Retire is
// called once, and while a chat's render waits no other chat makes more
// than two calls: its turn, and the Retire or reply that goes right after
// it (see chatQueue.extra). The chats share the budget in turn.
func TestSharingProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		l := outbox.Limits{PerSecond: rapid.IntRange(1, 3).Draw(rt, "per second")}
		s := newSim(rt, outbox.Options{Limits: l})
		defer s.close()
		chats := rapid.IntRange(2, 5).Draw(rt, "chats")
		n := rapid.IntRange(1, 60).Draw(rt, "ops")
		enqueued := map[string]time.Time{}
		chatOf := map[string]int64{}
		retires := map[string]int{}
		var mu sync.Mutex // the in-flight enqueues write enqueued from the outbox's goroutines
		at := time.Duration(0)
		for i := range n {
			at += time.Duration(rapid.IntRange(0, 1500).Draw(rt, fmt.Sprint("gap ms ", i))) * time.Millisecond
			chat := -int64(rapid.IntRange(1, chats).Draw(rt, fmt.Sprint("chat ", i)))
			kind := rapid.IntRange(0, 3).Draw(rt, fmt.Sprint("kind ", i))
			s.at(at)
			name := fmt.Sprint(i)
			mu.Lock()
			enqueued[name], chatOf[name] = s.clock.Now(), chat
			mu.Unlock()
			switch kind {
			case 0:
				retires[name] = 0
				s.offer(chat, outbox.Retire, name, name)
			case 1:
				// a new table message: its Do enqueues the old one's record
				// (not when a newer render replaced it before its call)
				record := name + "r"
				op := s.op(chat, outbox.Render, "table", name)
				do := op.Do
				op.Do = func(ctx context.Context) error {
					err := do(ctx)
					mu.Lock()
					enqueued[record], chatOf[record] = s.clock.Now(), chat
					retires[record] = 0 // its Do ran: the record must go, once
					mu.Unlock()
					if err := s.o.Enqueue(s.op(chat, outbox.Retire, record, record)); err != nil {
						rt.Errorf("enqueue in flight: %v", err)
					}
					return err
				}
				if err := s.o.Enqueue(op); err != nil && !errors.Is(err, outbox.ErrFull) {
					rt.Fatalf("enqueue: %v", err)
				}
			default:
				s.offer(chat, outbox.Render, "table", name)
			}
		}
		s.drain()
		calls := s.recorded()
		if most := mostInWindow(callTimes(calls), time.Second); most > l.PerSecond {
			rt.Fatalf("%d calls in a second, limit %d", most, l.PerSecond)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, c := range calls {
			if _, ok := retires[c.name]; ok {
				retires[c.name]++
			}
		}
		for name, k := range retires {
			if k != 1 {
				rt.Fatalf("Retire %s called %d times", name, k)
			}
		}
		for i, c := range calls {
			if _, ok := retires[c.name]; ok {
				continue // a render's wait only
			}
			others := map[int64]int{}
			for j := i - 1; j >= 0 && calls[j].at.After(enqueued[c.name]); j-- {
				if chat := chatOf[calls[j].name]; chat != chatOf[c.name] {
					if others[chat]++; others[chat] > 2 {
						rt.Fatalf("chat %d made %d calls while render %s of chat %d waited: %v", chat, others[chat], c.name, chatOf[c.name], names(calls))
					}
				}
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
// notice, all of them spaced by the global budget (one every 40 ms);
// notices then go at most NoticeRate (8) a second of that clock; a group's
// render that comes due by its pacing while notices wait goes ahead of
// them; and only the renders are told to OnRenderWait.
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
	const spacing = time.Second / 25 // the gate's call went at 0
	wantAt := map[string]time.Duration{"render -1": spacing, "say -2": 2 * spacing, "render -3": 3 * spacing,
		"render -1 again": time.Second + spacing, // a ChatInterval after render -1
		// A second after the first and the second notice.
		"notice 8": time.Second + 4*spacing, "notice 9": time.Second + 5*spacing}
	for i, n := range notices[:8] {
		wantAt[n] = time.Duration(i+4) * spacing // after the tables, one every 40 ms
	}
	assert.Equal(t, wantAt, at)
	assert.LessOrEqual(t, mostInWindow(noticeTimes, time.Second), outbox.TelegramLimits().NoticeRate())
	mu.Lock()
	defer mu.Unlock()
	assert.ElementsMatch(t, []time.Duration{0, spacing, 3 * spacing, 500*time.Millisecond + spacing}, waits,
		"the gate's render, the two spaced, the one paced; no reply or notice")
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
	const spacing = 10 * time.Millisecond // of the global budget
	assert.Equal(t, map[string]time.Duration{
		"notice 0": 0, "notice 1": spacing,
		"render":   500 * time.Millisecond, // the third notice is due a second after the first
		"notice 2": time.Second, "notice 3": time.Second + spacing,
		"notice 4": 2 * time.Second,
	}, at)
}

// TestGlobalSpacingProperties: whatever the global rate N and the ops
// (renders, replies and notices into private chats and groups, with
// Telegram's per-group limits or none), the calls over all chats are
// spread, measured at their starts on the outbox's clock: never more than
// N in any second, and never more than GlobalBurst ahead of one every
// second/N (any k calls span at least (k-GlobalBurst)·second/N). And the budget is
// not wasted: when each op has a chat of its own, a call starts no later
// than its enqueue, a spacing after the call before, or a second after the
// N-th call before, whichever is last.
func TestGlobalSpacingProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(rt, "per second")
		l := outbox.Limits{PerSecond: n}
		own := rapid.Bool().Draw(rt, "a chat per op")
		chats := 1
		if !own {
			chats = rapid.IntRange(1, 12).Draw(rt, "chats")
			if rapid.Bool().Draw(rt, "telegram's group limits") {
				l = outbox.TelegramLimits()
				l.PerSecond = n
			}
		}
		s := newSim(rt, outbox.Options{Limits: l, MaxInFlight: rapid.IntRange(1, 64).Draw(rt, "in flight")})
		defer s.close()
		ops := rapid.IntRange(1, 120).Draw(rt, "ops")
		enqueued := map[string]time.Duration{}
		at := time.Duration(0)
		for i := range ops {
			at += time.Duration(rapid.IntRange(0, 300).Draw(rt, "gap ms")) * time.Millisecond
			s.at(at)
			name := fmt.Sprint(i)
			enqueued[name] = at
			if own {
				s.enqueue(int64(i+1), outbox.Render, "table", name)
				continue
			}
			chat := int64(rapid.IntRange(-chats, chats).Draw(rt, "chat"))
			class := []outbox.Class{outbox.Render, outbox.Say, outbox.Notice, outbox.Retire}[rapid.IntRange(0, 3).Draw(rt, "class")]
			s.offer(chat, class, name, name)
		}
		s.drain()
		calls := s.recorded()
		times := callTimes(calls)
		slices.SortFunc(times, time.Time.Compare)
		if most := mostInWindow(times, time.Second); most > n {
			rt.Fatalf("%d calls in a second, limit %d", most, n)
		}
		spacing := (time.Second + time.Duration(n) - 1) / time.Duration(n)
		for i := range times {
			for j := i + outbox.GlobalBurst; j < len(times); j++ {
				if span, least := times[j].Sub(times[i]), time.Duration(j-i+1-outbox.GlobalBurst)*spacing; span < least {
					rt.Fatalf("calls %d to %d span %s, less than %s", i, j, span, least)
				}
			}
		}
		if !own {
			return
		}
		for i, c := range calls {
			bound := s.start.Add(enqueued[c.name])
			if i > 0 {
				bound = latest(bound, calls[i-1].at.Add(spacing))
			}
			if i >= n {
				bound = latest(bound, calls[i-n].at.Add(time.Second))
			}
			if c.at.After(bound) {
				rt.Fatalf("call %d (%s) started at %s, after %s", i, c.name, c.at.Sub(s.start), bound.Sub(s.start))
			}
		}
	})
}

// TestRetryAfterKeepsItsPlace: a chat whose call was answered 429 waits
// out retry_after and then goes first among the chats ready, not behind
// every chat that became ready meanwhile: with a thousand groups that
// would be another turn of the whole global budget.
func TestRetryAfterKeepsItsPlace(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.Limits{PerSecond: 1}})
	defer s.close()
	require.NoError(t, s.o.Enqueue(s.refusedOnce(s.op(-1, outbox.Render, "table", "-1"))))
	for chat := int64(-2); chat >= -6; chat-- {
		s.enqueue(chat, outbox.Render, "table", fmt.Sprint(chat))
	}
	s.drain()
	var order []string
	for _, c := range s.recorded() {
		order = append(order, fmt.Sprintf("%s at %s", c.name, c.at.Sub(s.start)))
	}
	assert.Equal(t, []string{"429 at 0s", "-2 at 1s", "-1 at 2s", "-3 at 3s", "-4 at 4s", "-5 at 5s", "-6 at 6s"}, order,
		"refused at 0 s, due again at 1.5 s: the next call is its")
}

// TestLiveRenderBeforeRetire: a game's record (a Retire, enqueued once
// the new game's message went) does not hold up the table: the table's
// next render goes ahead of it. While the table's renders keep coming
// faster than the group's pacing, the record goes after RetireAfter of
// them. Retires and replies go in the order enqueued: an old nudge is
// deleted before the new one is sent.
func TestLiveRenderBeforeRetire(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.TelegramLimits()})
	defer s.close()
	s.enqueue(-1, outbox.Render, "table", "new game")
	s.settle()
	s.enqueue(-1, outbox.Retire, "old", "record")
	s.at(500 * time.Millisecond)
	s.enqueue(-1, outbox.Render, "table", "move 1")
	var enqueuedAt time.Duration
	for i := range 100 {
		at := time.Second + time.Duration(i)*500*time.Millisecond
		s.at(at)
		if i == 40 { // the record went
			s.enqueue(-1, outbox.Retire, "old nudge", "old nudge deleted")
			s.enqueue(-1, outbox.Say, "nudge", "nudge")
			enqueuedAt = at
		}
		s.enqueue(-1, outbox.Render, "table", fmt.Sprint("move ", i+2))
	}
	s.drain()
	order := names(s.recorded())
	require.GreaterOrEqual(t, len(order), 3)
	assert.Equal(t, []string{"new game", "move 1"}, order[:2], "the table's render went ahead of the record")
	record := slices.Index(order, "record")
	assert.Equal(t, 1+outbox.RetireAfter, record, "the record went after %d renders: %v", outbox.RetireAfter, order)
	require.Less(t, s.recorded()[record].at.Sub(s.start), enqueuedAt, "the record went before the nudges came")
	deleted, nudge := slices.Index(order, "old nudge deleted"), slices.Index(order, "nudge")
	require.Positive(t, deleted)
	assert.Greater(t, nudge, deleted, "the old nudge is deleted first: %v", order)
	overtook := 0
	for _, c := range s.recorded()[:deleted] {
		if !c.say && c.at.Sub(s.start) > enqueuedAt {
			overtook++
		}
	}
	assert.Equal(t, outbox.RetireAfter, overtook, "renders that went ahead of the old nudge's delete")
}

// TestOvertakenKeepsTheTurn: while the global budget is shared among
// chats that all wait, a Retire that a render overtook goes right after
// it, in its chat's turn: the chat's next render waits one turn of the
// others, neither two (the Retire taking the next turn) nor less (the chat
// staying queued for the Retire while its players press).
func TestOvertakenKeepsTheTurn(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.Limits{PerSecond: 1}})
	defer s.close()
	// Another chat's call spends the first second's budget, so that all
	// of the second's ops wait, the record among them.
	s.enqueue(-9, outbox.Render, "table", "-9")
	s.enqueue(-1, outbox.Retire, "old", "record")
	for i := range 40 {
		s.at(time.Duration(i) * time.Second)
		for chat := int64(-1); chat >= -4; chat-- {
			s.enqueue(chat, outbox.Render, "table", fmt.Sprint(chat))
		}
	}
	s.drain()
	order := names(s.recorded())
	record := slices.Index(order, "record")
	require.Positive(t, record, "the record went: %v", order)
	assert.Equal(t, "-1", order[record-1], "the record follows its chat's render: %v", order)
	ahead := 0
	for _, name := range order[:record] {
		if name == "-1" {
			ahead++
		}
	}
	assert.Equal(t, 1, ahead, "renders of the chat that went ahead of the record: %v", order)
	require.Greater(t, len(order), record+4)
	assert.Equal(t, []string{"-2", "-3", "-4", "-1"}, order[record+1:record+5], "then the others' turns, then the chat's: %v", order)
}

// TestEnqueuedInFlightKeepsTheTurn: a game's record is enqueued while the
// call that sends the new table message is in flight (bot/tables.go stores
// the new message before it retires the old one). While other chats wait
// for the global budget, it goes right after that call, in the chat's
// turn: at the back of the ready chats it would keep the chat queued, and
// the table's next render, pressed meanwhile, would take its place and go
// sooner than the other chats' presses. A newer render enqueued in flight
// as well still goes before it, at the chat's next turn.
func TestEnqueuedInFlightKeepsTheTurn(t *testing.T) {
	tests := []struct {
		name   string
		render bool // a newer render is enqueued in flight too
		want   []string
	}{
		{"the record", false, []string{"-9", "-1", "record", "-2", "-3", "-4"}},
		{"the record and a newer render", true, []string{"-9", "-1", "-2", "-3", "-4", "-1 again", "record"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSim(t, outbox.Options{Limits: outbox.Limits{PerSecond: 1}})
			defer s.close()
			s.enqueue(-9, outbox.Render, "table", "-9") // spends the first second
			then := []outbox.Op{s.op(-1, outbox.Retire, "old", "record")}
			if tt.render {
				then = append(then, s.op(-1, outbox.Render, "table", "-1 again"))
			}
			newTable, enqueued := s.inFlight(s.op(-1, outbox.Render, "table", "-1"), then...)
			require.NoError(t, s.o.Enqueue(newTable))
			for chat := int64(-2); chat >= -4; chat-- {
				s.enqueue(chat, outbox.Render, "table", fmt.Sprint(chat))
			}
			s.drain()
			for range then {
				require.NoError(t, <-enqueued)
			}
			assert.Equal(t, tt.want, names(s.recorded()))
		})
	}
}

// TestRefusedExtraKeepsTheTurn: a record that went right after its
// table's render (extra) and was answered 429 is still what the chat's
// kept turn is for: a render pressed during the pause does not take that
// turn, but waits behind the chats that waited before it.
func TestRefusedExtraKeepsTheTurn(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.Limits{PerSecond: 1}})
	defer s.close()
	s.enqueue(-9, outbox.Render, "table", "-9") // spends the first second
	newTable, enqueued := s.inFlight(s.op(-1, outbox.Render, "table", "r1"),
		s.refusedOnce(s.op(-1, outbox.Retire, "old", "record")))
	require.NoError(t, s.o.Enqueue(newTable))
	for chat := int64(-2); chat >= -5; chat-- {
		s.enqueue(chat, outbox.Render, "table", fmt.Sprint(chat))
	}
	s.at(2 * time.Second) // r1 went at 1 s, the record was refused at 2 s
	require.NoError(t, <-enqueued)
	s.enqueue(-1, outbox.Render, "table", "r2") // pressed during the pause
	s.drain()
	order := names(s.recorded())
	record2, r2 := slices.Index(order, "record"), slices.Index(order, "r2")
	require.Positive(t, record2, "the record went: %v", order)
	assert.Less(t, record2, r2, "the record goes in the kept turn: %v", order)
	for chat := int64(-2); chat >= -5; chat-- {
		assert.Less(t, slices.Index(order, fmt.Sprint(chat)), r2, "chat %d waited before r2: %v", chat, order)
	}
}

// TestStaleExtraIsForgotten: a nudge enqueued while its table's render was
// in flight was to go right after it (extra), but went stale before its
// turn. Later, with no other chat waiting, the chat's next render goes
// before its next reply, as a waiting render always does.
func TestStaleExtraIsForgotten(t *testing.T) {
	l := outbox.TelegramLimits()
	l.PerSecond = 1
	s := newSim(t, outbox.Options{Limits: l})
	defer s.close()
	s.enqueue(-9, outbox.Render, "table", "-9") // spends the first second
	var stale atomic.Bool
	nudge := s.op(-1, outbox.Say, "nudge", "nudge")
	nudge.Stale = stale.Load
	render, enqueued := s.inFlight(s.op(-1, outbox.Render, "table", "r1"), nudge)
	require.NoError(t, s.o.Enqueue(render))
	s.enqueue(-2, outbox.Render, "table", "-2")
	s.enqueue(-3, outbox.Render, "table", "-3")
	s.at(1500 * time.Millisecond) // r1 went at 1 s; its nudge waits for the chat's second
	require.NoError(t, <-enqueued)
	stale.Store(true) // its turn passed
	s.drain()
	s.at(25 * time.Second)
	s.enqueue(-5, outbox.Render, "table", "-5") // spends this second: both of the chat's ops wait
	s.settle()
	s.enqueue(-1, outbox.Say, "", "reply")
	s.enqueue(-1, outbox.Render, "table", "r2")
	s.drain()
	order := names(s.recorded())
	assert.NotContains(t, order, "nudge")
	require.GreaterOrEqual(t, len(order), 2)
	assert.Equal(t, []string{"r2", "reply"}, order[len(order)-2:], "the render goes first: %v", order)
}

// TestRefusedRenderStillGoesFirst: a render refused with 429 overtook
// nothing: once its pause ends it goes before the Retire it seemed to
// overtake, while other chats wait for the global budget.
func TestRefusedRenderStillGoesFirst(t *testing.T) {
	s := newSim(t, outbox.Options{Limits: outbox.Limits{PerSecond: 1}})
	defer s.close()
	s.enqueue(-9, outbox.Render, "table", "-9") // spends the first second
	s.enqueue(-1, outbox.Retire, "old", "record")
	require.NoError(t, s.o.Enqueue(s.refusedOnce(s.op(-1, outbox.Render, "table", "-1"))))
	for chat := int64(-2); chat >= -4; chat-- {
		s.enqueue(chat, outbox.Render, "table", fmt.Sprint(chat))
	}
	s.drain()
	order := names(s.recorded())
	render, record := slices.Index(order, "-1"), slices.Index(order, "record")
	require.Positive(t, render, "the render went: %v", order)
	assert.Less(t, render, record, "the refused render went before the record: %v", order)
}

// TestNoticesAShareOfTheGlobalRate: without NoticePerSecond, notices take
// a third of PerSecond, so that raising the global rate raises theirs.
func TestNoticesAShareOfTheGlobalRate(t *testing.T) {
	tests := []struct {
		name   string
		limits outbox.Limits
		want   int
	}{
		{"telegram's", outbox.TelegramLimits(), 8},
		{"raised", outbox.Limits{PerSecond: 60}, 20},
		{"at least one", outbox.Limits{PerSecond: 2}, 1},
		{"set", outbox.Limits{PerSecond: 60, NoticePerSecond: 5}, 5},
		{"no global limit", outbox.Limits{GroupPerMinute: 19}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.limits.NoticeRate())
			if tt.want == 0 {
				return
			}
			s := newSim(t, outbox.Options{Limits: tt.limits})
			defer s.close()
			for i := range 3*tt.want + 1 {
				s.enqueue(int64(100+i), outbox.Notice, "", fmt.Sprint(i))
			}
			s.drain()
			assert.Equal(t, tt.want, mostInWindow(callTimes(s.recorded()), time.Second))
		})
	}
}
