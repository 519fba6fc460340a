package table

import (
	"container/heap"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/storage"
)

// scheduler keeps each table's deadline, firing a timeout for the version
// it was set for, the time of its turn's nudge (see nudges), firing the
// nudge for the version it was set for, and the time the house moves
// there (see Keeper.houseMove), firing the move for the version it was
// set for.
// The deadlines are one heap under one clock timer, set for the earliest:
// a hundred thousand open tables cost a hundred thousand small entries (two
// or three each), not as many timers.
type scheduler struct {
	clock clock.Clock
	fire  func(key storage.TableKey, version uint64)
	nudge func(key storage.TableKey, version uint64)
	move  func(key storage.TableKey, version uint64)

	mu      sync.Mutex
	byKey   map[timerSlot]*deadline
	heap    deadlineHeap
	timer   clock.Timer // set for timerAt, the earliest deadline; nil if none
	timerAt time.Time   // the deadline timer is set for
	gen     uint64      // tells the timer set last from those it replaced
	// hold is the time before which no deadline fires (see hold).
	hold   time.Time
	closed bool
}

// timerSlot names one of a table's timers.
type timerSlot struct {
	key  storage.TableKey
	kind slotKind
}

// slotKind says which of a table's timers a slot is.
type slotKind uint8

const (
	// deadlineSlot: the table's deadline.
	deadlineSlot slotKind = iota
	// nudgeSlot: the time of its turn's nudge.
	nudgeSlot
	// houseSlot: the time the house moves.
	houseSlot
)

// deadline is a table's armed deadline (or nudge, or house move).
type deadline struct {
	slot    timerSlot
	version uint64
	at      time.Time
	index   int // in the heap
}

// newScheduler returns a scheduler that calls fire for the deadlines that
// come due, nudge for the nudges and move for the house's moves.
func newScheduler(c clock.Clock, fire, nudge, move func(storage.TableKey, uint64)) *scheduler {
	return &scheduler{clock: c, fire: fire, nudge: nudge, move: move, byKey: make(map[timerSlot]*deadline)}
}

// set arms the table's deadline, replacing the one it had; a zero deadline
// only clears it. A deadline already past fires at once.
func (s *scheduler) set(key storage.TableKey, version uint64, at time.Time) {
	s.setSlot(timerSlot{key: key, kind: deadlineSlot}, version, at)
}

// setNudge arms the time of the table's nudge as set arms its deadline.
func (s *scheduler) setNudge(key storage.TableKey, version uint64, at time.Time) {
	s.setSlot(timerSlot{key: key, kind: nudgeSlot}, version, at)
}

// setHouse arms the time the house moves at the table as set arms its
// deadline.
func (s *scheduler) setHouse(key storage.TableKey, version uint64, at time.Time) {
	s.setSlot(timerSlot{key: key, kind: houseSlot}, version, at)
}

func (s *scheduler) setSlot(slot timerSlot, version uint64, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.byKey[slot]; ok {
		heap.Remove(&s.heap, d.index)
		delete(s.byKey, slot)
	}
	if !at.IsZero() && !s.closed {
		d := &deadline{slot: slot, version: version, at: at}
		heap.Push(&s.heap, d)
		s.byKey[slot] = d
	}
	s.arm()
}

// clear disarms the table's deadline, nudge and house move, if it has
// them.
func (s *scheduler) clear(key storage.TableKey) {
	s.set(key, 0, time.Time{})
	s.setNudge(key, 0, time.Time{})
	s.setHouse(key, 0, time.Time{})
}

// holdUntil makes every deadline before t fire at t, until release.
func (s *scheduler) holdUntil(t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hold = t
	s.arm()
}

// release ends a hold: the deadlines it held fire now.
func (s *scheduler) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hold = time.Time{}
	s.arm()
}

// when is the time a deadline fires: its own, or the hold's end.
func (s *scheduler) when(d *deadline) time.Time {
	if d.at.Before(s.hold) {
		return s.hold
	}
	return d.at
}

// arm sets the clock timer for the earliest deadline; s.mu is held.
func (s *scheduler) arm() {
	if len(s.heap) == 0 {
		// A Go map and a slice keep their size after deletions: drop what
		// a burst of deadlines grew.
		s.heap, s.byKey = nil, make(map[timerSlot]*deadline)
		if s.timer != nil {
			s.timer.Stop()
			s.timer = nil
		}
		return
	}
	at := s.when(s.heap[0])
	if s.timer != nil && s.timerAt.Equal(at) {
		return
	}
	if s.timer != nil {
		s.timer.Stop()
	}
	s.timerAt = at
	s.gen++
	gen := s.gen
	s.timer = s.clock.AfterFunc(at.Sub(s.clock.Now()), func() { s.tick(gen) })
}

// tick fires the deadlines that came due and sets the timer for the next.
func (s *scheduler) tick(gen uint64) {
	s.mu.Lock()
	if s.gen != gen || s.timer == nil {
		s.mu.Unlock()
		return // replaced, or stopped
	}
	s.timer = nil
	now := s.clock.Now()
	var due []*deadline
	for len(s.heap) > 0 && !s.when(s.heap[0]).After(now) {
		d := heap.Pop(&s.heap).(*deadline)
		delete(s.byKey, d.slot)
		due = append(due, d)
	}
	s.arm()
	s.mu.Unlock()
	for _, d := range due {
		switch d.slot.kind {
		case nudgeSlot:
			s.nudge(d.slot.key, d.version)
		case houseSlot:
			s.move(d.slot.key, d.version)
		default:
			s.fire(d.slot.key, d.version)
		}
	}
}

// len returns how many deadlines, nudges and house moves are armed.
func (s *scheduler) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.heap)
}

// stop clears every deadline and arms no more.
func (s *scheduler) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	clear(s.byKey)
	s.heap = nil
	s.arm()
}

// deadlineHeap orders deadlines, earliest first.
type deadlineHeap []*deadline

func (h deadlineHeap) Len() int           { return len(h) }
func (h deadlineHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h deadlineHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *deadlineHeap) Push(x any) {
	d := x.(*deadline)
	d.index = len(*h)
	*h = append(*h, d)
}

func (h *deadlineHeap) Pop() any {
	old := *h
	d := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return d
}
