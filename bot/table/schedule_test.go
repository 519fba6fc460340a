package table

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/storage"
)

// advance moves the clock by d, running the timers that came due, and
// returns how many timers are still armed.
func advance(c *clocktest.Clock, d time.Duration) int {
	c.Advance(d)
	return c.Armed()
}

func TestSchedulerOneTimerForEveryDeadline(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	clock := clocktest.NewClock(start)
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

	assert.Equal(t, 1, advance(clock, 0), "one clock timer, whatever the number of deadlines")
	assert.Equal(t, 1, advance(clock, 5*time.Second))
	assert.Len(t, got, 498, "the deadlines of the first five seconds fired, less the two changed")
	for _, f := range got {
		assert.Equal(t, uint64(1), f.version)
		assert.NotEqual(t, int64(-2), f.key.Chat)
	}
	advance(clock, 5*time.Second)
	assert.Len(t, got, tables-2)
	assert.Equal(t, 0, advance(clock, 30*time.Second), "nothing armed once every deadline fired")
	require.Len(t, got, tables-1)
	assert.Equal(t, fired{storage.TableKey{Chat: -1}, 2}, got[tables-2], "the replaced deadline fires at its new time, for its new version")
	assert.Zero(t, s.len())
}

func TestSchedulerHold(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	clock := clocktest.NewClock(start)
	fired := make(chan uint64, 16)
	// take returns the next n versions fired, in any order; the fires of
	// overdue timers run in a goroutine of their own (clock.AfterFunc).
	take := func(n int) []uint64 {
		var got []uint64
		deadline := time.After(10 * time.Second)
		for len(got) < n {
			select {
			case v := <-fired:
				got = append(got, v)
			case <-deadline:
				t.Fatalf("%d of %d fired", len(got), n)
			}
		}
		return got
	}
	s := newScheduler(clock, func(_ storage.TableKey, v uint64) { fired <- v },
		func(_ storage.TableKey, v uint64) { fired <- v + 100 },
		func(_ storage.TableKey, v uint64) { fired <- v + 200 })
	s.holdUntil(start.Add(10 * time.Second))
	s.set(storage.TableKey{Chat: -1}, 1, start.Add(-time.Minute)) // overdue
	s.set(storage.TableKey{Chat: -2}, 2, start.Add(5*time.Second))
	s.set(storage.TableKey{Chat: -3}, 3, start.Add(20*time.Second))
	s.setNudge(storage.TableKey{Chat: -2}, 2, start.Add(time.Second))
	s.setHouse(storage.TableKey{Chat: -3}, 3, start.Add(2*time.Second))
	advance(clock, 9*time.Second)
	assert.Empty(t, fired, "held")
	s.release()
	assert.ElementsMatch(t, []uint64{1, 2, 102, 203}, take(4), "released: the held deadlines, nudges and house moves fire")
	advance(clock, 11*time.Second)
	assert.ElementsMatch(t, []uint64{3}, take(1))

	// A hold not released ends by itself.
	s.holdUntil(clock.Now().Add(10 * time.Second))
	s.set(storage.TableKey{Chat: -1}, 4, clock.Now())
	advance(clock, 9*time.Second)
	assert.Empty(t, fired)
	advance(clock, time.Second)
	assert.Equal(t, []uint64{4}, take(1))
}

// TestSchedulerNudgesBesideDeadlines: a table's nudge and the house's
// move there are timers of their own beside its deadline, in the same
// heap: each fires its own function for its own version, setting one
// leaves the others, and clear disarms all three.
func TestSchedulerNudgesBesideDeadlines(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	clock := clocktest.NewClock(start)
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
	assert.Equal(t, 1, advance(clock, 0), "one clock timer")
	advance(clock, 2*time.Second)
	assert.Equal(t, []uint64{2}, moves)
	assert.Empty(t, nudges)
	advance(clock, 23*time.Second)
	assert.Equal(t, []uint64{2}, nudges)
	assert.Empty(t, deadlines)
	advance(clock, 35*time.Second)
	assert.Equal(t, []uint64{1}, deadlines)
	assert.Equal(t, []uint64{2}, nudges)
	assert.Equal(t, []uint64{2}, moves)
	assert.Zero(t, s.len())
}
