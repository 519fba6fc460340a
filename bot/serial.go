package bot

import "sync"

// serial runs functions one at a time per chat, in the order they were
// given, and many chats in parallel. A chat's goroutine lives while it has
// work.
type serial struct {
	mu     sync.Mutex
	queues map[int64]*serialQueue
	wg     sync.WaitGroup
}

type serialQueue struct {
	fns     []func()
	running bool
}

func newSerial() *serial { return &serial{queues: make(map[int64]*serialQueue)} }

// Go queues fn to run on chat's goroutine.
func (s *serial) Go(chat int64, fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queues[chat]
	if q == nil {
		q = &serialQueue{}
		s.queues[chat] = q
	}
	q.fns = append(q.fns, fn)
	if !q.running {
		q.running = true
		s.wg.Add(1)
		go s.run(chat, q)
	}
}

func (s *serial) run(chat int64, q *serialQueue) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		if len(q.fns) == 0 {
			q.running = false
			delete(s.queues, chat)
			s.mu.Unlock()
			return
		}
		fn := q.fns[0]
		q.fns[0] = nil
		q.fns = q.fns[1:]
		s.mu.Unlock()
		fn()
	}
}

// Wait waits until every queued function has run.
func (s *serial) Wait() { s.wg.Wait() }
