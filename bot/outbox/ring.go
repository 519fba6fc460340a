package outbox

import "slices"

// ring is a FIFO of chat queues.
type ring struct {
	items []*chatQueue
	head  int
}

func (r *ring) len() int { return len(r.items) - r.head }

func (r *ring) push(q *chatQueue) {
	if r.head > 1024 && r.head*2 > len(r.items) {
		n := copy(r.items, r.items[r.head:])
		clear(r.items[n:])
		r.items, r.head = r.items[:n], 0
	}
	r.items = append(r.items, q)
}

// pushFront puts q ahead of every chat in the ring.
func (r *ring) pushFront(q *chatQueue) {
	if r.head > 0 {
		r.head--
		r.items[r.head] = q
		return
	}
	r.items = slices.Insert(r.items, 0, q)
}

func (r *ring) peek() *chatQueue { return r.items[r.head] }

func (r *ring) pop() *chatQueue {
	q := r.items[r.head]
	r.items[r.head] = nil
	if r.head++; r.head == len(r.items) {
		r.items, r.head = nil, 0 // emptied: drop what a burst grew
	}
	return q
}

// timedHeap orders chat queues by when their next op may go.
type timedHeap []*chatQueue

func (h timedHeap) Len() int           { return len(h) }
func (h timedHeap) Less(i, j int) bool { return h[i].due.Before(h[j].due) }
func (h timedHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *timedHeap) Push(x any) {
	q := x.(*chatQueue)
	q.index = len(*h)
	*h = append(*h, q)
}

func (h *timedHeap) Pop() any {
	old := *h
	q := old[len(old)-1]
	old[len(old)-1] = nil
	if *h = old[:len(old)-1]; len(*h) == 0 {
		*h = nil // emptied: drop what a burst grew
	}
	return q
}
