package bot

import (
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/storage"
)

func TestSerialOrdersEachChatAndBoundsWorkers(t *testing.T) {
	const limit, chats, each = 4, 50, 20
	s := newSerial(limit)
	var running, most atomic.Int32
	var mu sync.Mutex
	got := map[int64][]int{}
	for i := range each {
		for c := range int64(chats) {
			s.Go(c, func() {
				n := running.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				mu.Lock()
				got[c] = append(got[c], i)
				mu.Unlock()
				running.Add(-1)
			})
		}
	}
	s.Wait()
	assert.LessOrEqual(t, most.Load(), int32(limit), "never more functions at once than the limit")
	for c := range int64(chats) {
		require.Len(t, got[c], each)
		for i, v := range got[c] {
			assert.Equal(t, i, v, "chat %d runs its functions in order", c)
		}
	}
	assert.Zero(t, s.len(), "an idle serial keeps no chat")
}

func TestSerialChatsTakeTurns(t *testing.T) {
	s := newSerial(1)
	release := make(chan struct{})
	started := make(chan struct{})
	var order []string
	s.Go(1, func() { close(started); <-release })
	<-started
	for _, n := range []string{"a1", "a2"} {
		s.Go(1, func() { order = append(order, n) })
	}
	for _, n := range []string{"b1", "b2"} {
		s.Go(2, func() { order = append(order, n) })
	}
	close(release)
	s.Wait()
	assert.Equal(t, []string{"b1", "a1", "b2", "a2"}, order, "a busy chat does not hold up the others")
}

// manualClock is a Clock whose timers run when the test advances it.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*manualTimer
}

type manualTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &manualTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *manualTimer) Stop() bool { was := !t.stopped; t.stopped = true; return was }

// advance moves the clock and runs the timers that came due, and returns
// how many timers are still armed.
func (c *manualClock) advance(d time.Duration) int {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*manualTimer
	keep := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case t.stopped:
		case !t.at.After(c.now):
			due = append(due, t)
		default:
			keep = append(keep, t)
		}
	}
	c.timers = keep
	c.mu.Unlock()
	for _, t := range due {
		t.f()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	armed := 0
	for _, t := range c.timers {
		if !t.stopped {
			armed++
		}
	}
	return armed
}

func TestSchedulerOneTimerForEveryDeadline(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	clock := &manualClock{now: start}
	type fired struct {
		key     storage.TableKey
		version uint64
	}
	var got []fired
	s := newScheduler(clock, func(k storage.TableKey, v uint64) { got = append(got, fired{k, v}) },
		func(storage.TableKey, uint64) { t.Error("no nudge was armed") },
		func(storage.TableKey, uint64) { t.Error("no move of the house was armed") })
	const tables = 1000
	for i := range int64(tables) {
		s.set(storage.TableKey{Chat: -i - 1}, 1, start.Add(time.Duration(i%10+1)*time.Second))
	}
	assert.Equal(t, tables, s.len())
	// Replaced and cleared deadlines do not fire.
	s.set(storage.TableKey{Chat: -1}, 2, start.Add(30*time.Second))
	s.set(storage.TableKey{Chat: -2}, 0, time.Time{})

	assert.Equal(t, 1, clock.advance(0), "one clock timer, whatever the number of deadlines")
	assert.Equal(t, 1, clock.advance(5*time.Second))
	assert.Len(t, got, 498, "the deadlines of the first five seconds fired, less the two changed")
	for _, f := range got {
		assert.Equal(t, uint64(1), f.version)
		assert.NotEqual(t, int64(-2), f.key.Chat)
	}
	clock.advance(5 * time.Second)
	assert.Len(t, got, tables-2)
	assert.Equal(t, 0, clock.advance(30*time.Second), "nothing armed once every deadline fired")
	require.Len(t, got, tables-1)
	assert.Equal(t, fired{storage.TableKey{Chat: -1}, 2}, got[tables-2], "the replaced deadline fires at its new time, for its new version")
	assert.Zero(t, s.len())
}

func TestSchedulerHold(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	clock := &manualClock{now: start}
	var got []uint64
	s := newScheduler(clock, func(_ storage.TableKey, v uint64) { got = append(got, v) },
		func(_ storage.TableKey, v uint64) { got = append(got, v+100) },
		func(_ storage.TableKey, v uint64) { got = append(got, v+200) })
	s.holdUntil(start.Add(10 * time.Second))
	s.set(storage.TableKey{Chat: -1}, 1, start.Add(-time.Minute)) // overdue
	s.set(storage.TableKey{Chat: -2}, 2, start.Add(5*time.Second))
	s.set(storage.TableKey{Chat: -3}, 3, start.Add(20*time.Second))
	s.setNudge(storage.TableKey{Chat: -2}, 2, start.Add(time.Second))
	s.setHouse(storage.TableKey{Chat: -3}, 3, start.Add(2*time.Second))
	clock.advance(9 * time.Second)
	assert.Empty(t, got, "held")
	s.release()
	clock.advance(0)
	assert.ElementsMatch(t, []uint64{1, 2, 102, 203}, got, "released: the held deadlines, nudges and house moves fire")
	got = got[:0]
	clock.advance(11 * time.Second)
	assert.ElementsMatch(t, []uint64{3}, got)

	// A hold not released ends by itself.
	got = nil
	s.holdUntil(clock.Now().Add(10 * time.Second))
	s.set(storage.TableKey{Chat: -1}, 4, clock.Now())
	clock.advance(9 * time.Second)
	assert.Empty(t, got)
	clock.advance(time.Second)
	assert.Equal(t, []uint64{4}, got)
}

// TestSchedulerNudgesBesideDeadlines: a table's nudge and the house's
// move there are timers of their own beside its deadline, in the same
// heap: each fires its own function for its own version, setting one
// leaves the others, and clear disarms all three.
func TestSchedulerNudgesBesideDeadlines(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	clock := &manualClock{now: start}
	var deadlines, nudges, moves []uint64
	s := newScheduler(clock, func(_ storage.TableKey, v uint64) { deadlines = append(deadlines, v) },
		func(_ storage.TableKey, v uint64) { nudges = append(nudges, v) },
		func(_ storage.TableKey, v uint64) { moves = append(moves, v) })
	a, b := storage.TableKey{Chat: -1}, storage.TableKey{Chat: -2}
	s.set(a, 1, start.Add(60*time.Second))
	s.setNudge(a, 1, start.Add(20*time.Second))
	s.setNudge(a, 2, start.Add(25*time.Second)) // replaces the nudge, not the deadline
	s.setHouse(a, 2, start.Add(2*time.Second))
	s.set(b, 5, start.Add(60*time.Second))
	s.setNudge(b, 5, start.Add(20*time.Second))
	s.setHouse(b, 5, start.Add(time.Second))
	assert.Equal(t, 6, s.len())
	s.clear(b)
	assert.Equal(t, 3, s.len(), "clear disarms the deadline, the nudge and the house's move")
	assert.Equal(t, 1, clock.advance(0), "one clock timer")
	clock.advance(2 * time.Second)
	assert.Equal(t, []uint64{2}, moves)
	assert.Empty(t, nudges)
	clock.advance(23 * time.Second)
	assert.Equal(t, []uint64{2}, nudges)
	assert.Empty(t, deadlines)
	clock.advance(35 * time.Second)
	assert.Equal(t, []uint64{1}, deadlines)
	assert.Equal(t, []uint64{2}, nudges)
	assert.Equal(t, []uint64{2}, moves)
	assert.Zero(t, s.len())
}

// countedFailures is a Metrics that counts failed updates by kind.
type countedFailures struct {
	noMetrics
	mu     sync.Mutex
	failed map[string]int
}

func (m *countedFailures) UpdateFailed(kind string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failed[kind]++
}

func TestOnChatRecoversAPanic(t *testing.T) {
	var logged strings.Builder
	var logMu sync.Mutex
	m := &countedFailures{failed: map[string]int{}}
	b := &Bot{chats: newSerial(2), metrics: m,
		log: slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logged}, nil))}
	confirmed := make(chan struct{})
	b.onChat(-5, "message", func() {
		defer close(confirmed) // as dispatch's done: it still runs
		var m map[string]int
		m["boom"]++ // a nil map: panics
	}, "update_id", 77)
	var next atomic.Bool
	b.onChat(-5, "message", func() { next.Store(true) }, "update_id", 78)
	<-confirmed
	b.chats.Wait()
	assert.True(t, next.Load(), "the chat goes on with its next update")
	assert.Equal(t, 1, m.failed["message"])
	logMu.Lock()
	defer logMu.Unlock()
	assert.Contains(t, logged.String(), "update_id=77")
	assert.Contains(t, logged.String(), "assignment to entry in nil map")
	assert.Contains(t, logged.String(), "serial_test.go", "the stack is logged")
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestQuota(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	type ask struct {
		at      time.Duration
		user    int64
		command string
		want    bool
	}
	tests := []struct {
		name string
		asks []ask
	}{
		{"a repeat within the window gets no answer", []ask{
			{0, 1, "rules", true}, {time.Second, 1, "rules", false}, {14 * time.Second, 1, "rules", false},
			{15 * time.Second, 1, "rules", true}}},
		{"another answer, or another user, is no repeat", []ask{
			{0, 1, "rules", true}, {time.Second, 1, "help", true}, {2 * time.Second, 2, "help", true},
			{3 * time.Second, 1, "rules", true}}},
		{"an answer not named is never held back as a repeat", []ask{
			{0, 1, "", true}, {time.Second, 1, "", true}}},
		{"arguments make another answer", []ask{
			{0, 1, "settings stake 20", true}, {time.Second, 1, "settings entry 200", true}}},
		{"a budget a minute", []ask{
			{0, 1, "a", true}, {1, 1, "b", true}, {2, 1, "c", true}, {3, 1, "d", true},
			{4, 1, "e", true}, {5, 1, "f", true}, {6, 1, "g", true}, {7, 1, "h", true},
			{8, 1, "i", false}, {30 * time.Second, 1, "j", false}, {2 * time.Second, 2, "a", true},
			{time.Minute, 1, "k", true}, {time.Minute + 1, 1, "l", true}, {time.Minute + 2, 1, "m", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := newQuota()
			for i, a := range tt.asks {
				assert.Equal(t, a.want, q.allow(-1, a.user, a.command, start.Add(a.at)), "ask %d: %+v", i, a)
			}
		})
	}
}

func TestQuotaForgetsIdleUsers(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	q := newQuota()
	for u := range int64(quotaPruneAt) {
		require.True(t, q.allow(-1, u, "rules", start))
	}
	assert.Equal(t, quotaPruneAt, q.len())
	require.True(t, q.allow(-1, quotaPruneAt, "rules", start.Add(time.Minute)))
	assert.Equal(t, 1, q.len(), "the users answered a minute ago are forgotten")
}

// TestSerialGoWhileWaiting: Go may be called while another goroutine waits
// in Wait (as a render sent during Close queues work on its chat), and Wait
// returns only once nothing is queued or running.
func TestSerialGoWhileWaiting(t *testing.T) {
	s := newSerial(4)
	for i := range 200 {
		var ran atomic.Int32
		s.Go(1, func() { ran.Add(1) })
		done := make(chan struct{})
		go func() {
			s.Go(int64(i%3+2), func() { ran.Add(1) })
			close(done)
		}()
		s.Wait()
		<-done
		s.Wait()
		require.Equal(t, int32(2), ran.Load(), "round %d", i)
	}
	assert.Zero(t, s.len(), "nothing left queued")
}
