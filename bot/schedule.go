package bot

import (
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/storage"
)

// scheduler keeps one timer per table: the table's deadline, firing a
// timeout for the version it was set for.
type scheduler struct {
	clock  Clock
	fire   func(key storage.TableKey, version uint64)
	mu     sync.Mutex
	timers map[storage.TableKey]Timer
	closed bool
}

func newScheduler(clock Clock, fire func(storage.TableKey, uint64)) *scheduler {
	return &scheduler{clock: clock, fire: fire, timers: make(map[storage.TableKey]Timer)}
}

// set arms the table's timer for deadline, replacing the one it had; a zero
// deadline only clears it.
func (s *scheduler) set(key storage.TableKey, version uint64, deadline time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.timers[key]; ok {
		t.Stop()
		delete(s.timers, key)
	}
	if deadline.IsZero() || s.closed {
		return
	}
	var t Timer
	t = s.clock.AfterFunc(deadline.Sub(s.clock.Now()), func() {
		s.mu.Lock()
		if s.timers[key] == t {
			delete(s.timers, key)
		}
		s.mu.Unlock()
		s.fire(key, version)
	})
	s.timers[key] = t
}

// len returns how many timers are armed.
func (s *scheduler) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.timers)
}

// stop clears every timer and arms no more.
func (s *scheduler) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for k, t := range s.timers {
		t.Stop()
		delete(s.timers, k)
	}
}
