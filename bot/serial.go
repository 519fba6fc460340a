package bot

import "sync"

// serial runs functions one at a time per chat, in the order they were
// given, and many chats in parallel: at most its limit at once, the chats
// with work taking turns one function each. An idle serial runs no
// goroutine, and forgets a chat as soon as its queue is empty.
type serial struct {
	limit int

	mu      sync.Mutex
	queues  map[int64]*serialQueue // the chats with work, running or waiting
	ready   []*serialQueue         // the chats waiting for a worker, in turn
	head    int                    // ready[head:] wait
	workers int
	// idle is signalled when the last worker stops. Wait waits on it, not
	// on a WaitGroup, so that Go may be called while another goroutine
	// waits (a render sent during Close queues work on its chat).
	idle sync.Cond
}

type serialQueue struct {
	chat int64
	fns  []func()
}

// serialWorkers is how many functions a serial runs at once by default:
// enough to keep storage's group commit full, few enough that a flood of
// chats (100,000 lobbies timing out together) does not become a flood of
// goroutines.
const serialWorkers = 128

func newSerial(limit int) *serial {
	s := &serial{limit: limit, queues: make(map[int64]*serialQueue)}
	s.idle.L = &s.mu
	return s
}

// Go queues fn to run on chat's turn. fn must not wait for another
// function of the serial.
func (s *serial) Go(chat int64, fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queues[chat]
	if q != nil {
		q.fns = append(q.fns, fn) // running or waiting: it keeps its turn
		return
	}
	q = &serialQueue{chat: chat, fns: []func(){fn}}
	s.queues[chat] = q
	s.push(q)
	if s.workers < s.limit {
		s.workers++
		go s.work()
	}
}

// push puts a chat at the end of the ready line; s.mu is held.
func (s *serial) push(q *serialQueue) {
	if s.head > 1024 && s.head*2 > len(s.ready) {
		n := copy(s.ready, s.ready[s.head:])
		clear(s.ready[n:])
		s.ready, s.head = s.ready[:n], 0
	}
	s.ready = append(s.ready, q)
}

// work runs the ready chats' functions, one per turn, until none waits.
func (s *serial) work() {
	s.mu.Lock()
	for s.head < len(s.ready) {
		q := s.ready[s.head]
		s.ready[s.head] = nil
		s.head++
		fn := q.fns[0]
		s.mu.Unlock()
		fn()
		s.mu.Lock()
		q.fns[0] = nil
		q.fns = q.fns[1:]
		if len(q.fns) > 0 {
			s.push(q)
		} else if delete(s.queues, q.chat); len(s.queues) == 0 {
			// Nothing left to do: drop what a burst of chats grew (a Go
			// map and a slice keep their size after deletions).
			s.queues, s.ready, s.head = make(map[int64]*serialQueue), nil, 0
		}
	}
	if s.workers--; s.workers == 0 {
		s.idle.Broadcast()
	}
	s.mu.Unlock()
}

// len returns how many chats have work.
func (s *serial) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queues)
}

// Wait waits until no function is queued or running. Functions queued while
// it waits are waited for too; it may be called concurrently with Go.
func (s *serial) Wait() {
	s.mu.Lock()
	for s.workers > 0 {
		s.idle.Wait()
	}
	s.mu.Unlock()
}
