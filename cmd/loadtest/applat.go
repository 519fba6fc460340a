package main

import (
	"sync"
	"sync/atomic"
	"time"
)

// How long an action takes to reach everyone who watches its table in
// the Mini App (-app): each action, a press in the chat or an action
// through the app, is tracked from the moment it was made until every
// viewer of its table received a version at least the one it made, and
// until the chat's table message showed it. A table's versions grow by
// one with each change, so an action taken at version v made v+1; once a
// viewer holds v+1 or later, it has seen the action (a newer view holds
// every older change).

// source is where an action was made.
type source int

const (
	srcChat source = iota // a press of the table message's button
	srcApp                // POST /api/act from the Mini App
	sources
)

func (s source) String() string { return [...]string{"chat press", "app action"}[s] }

// tracked is one action followed to its viewers and its chat.
type tracked struct {
	version  uint64    // the version it made
	at       time.Time // when it was made
	src      source
	measured bool // made in the measured part: its times count
	applied  bool // its answer said the table took it
	// allAt is when the last viewer received version or later, chatAt when
	// the chat's table message first showed it (zero: not yet).
	allAt, chatAt time.Time
}

// tableLat follows one table's actions. Its methods are safe for
// concurrent use.
type tableLat struct {
	lat *appLatency

	mu      sync.Mutex
	seen    []uint64 // the newest version each viewer received
	shown   uint64   // the newest version the chat's message showed
	pending []*tracked
}

// appLatency gathers every table's times. Its counters and histograms are
// safe for concurrent use.
type appLatency struct {
	// every[s] is from an action of source s to every viewer of its table
	// holding its version; chat[s] to the chat's message showing it.
	every, chat [sources]*histogram
	// window is action→every viewer since the last progress line.
	window atomic.Pointer[histogram]
	// missed counts the measured actions, taken, that some viewer never
	// received by the end (finish); unshown those the chat never showed.
	missed, unshown atomic.Int64
}

func newAppLatency() *appLatency {
	l := &appLatency{}
	for s := range sources {
		l.every[s], l.chat[s] = newHistogram(), newHistogram()
	}
	l.window.Store(newHistogram())
	return l
}

// table returns the follower of a table with viewers viewers.
func (l *appLatency) table(viewers int) *tableLat {
	return &tableLat{lat: l, seen: make([]uint64, viewers)}
}

// start begins following an action made at at, taken at version from:
// it makes from+1. Its answer settles it (settle).
func (t *tableLat) start(from uint64, at time.Time, src source, measured bool) *tracked {
	a := &tracked{version: from + 1, at: at, src: src, measured: measured}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending = append(t.pending, a)
	return a
}

// settle records the answer to a: applied, it is followed until everyone
// has seen it; refused, it made nothing and is dropped.
func (t *tableLat) settle(a *tracked, applied bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !applied {
		t.drop(a)
		return
	}
	a.applied = true
	t.done(a)
}

// viewerSaw records that viewer i received version at now.
func (t *tableLat) viewerSaw(i int, version uint64, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if version <= t.seen[i] {
		return
	}
	t.seen[i] = version
	least := t.seen[0]
	for _, v := range t.seen[1:] {
		least = min(least, v)
	}
	for _, a := range t.pending {
		if a.allAt.IsZero() && least >= a.version {
			a.allAt = now
		}
	}
	t.sweep()
}

// chatShowed records that the chat's table message showed version at now.
func (t *tableLat) chatShowed(version uint64, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if version <= t.shown {
		return
	}
	t.shown = version
	for _, a := range t.pending {
		if a.chatAt.IsZero() && version >= a.version {
			a.chatAt = now
		}
	}
	t.sweep()
}

// sweep records and drops the pending actions everyone has seen.
func (t *tableLat) sweep() {
	for i := 0; i < len(t.pending); {
		a := t.pending[i]
		if a.applied && !a.allAt.IsZero() && !a.chatAt.IsZero() {
			t.done(a)
			continue // done dropped it: i is the next one now
		}
		i++
	}
}

// done records a, when it is applied and everyone has seen it, and drops
// it.
func (t *tableLat) done(a *tracked) {
	if !a.applied || a.allAt.IsZero() || a.chatAt.IsZero() {
		return
	}
	t.drop(a)
	l := t.lat
	if a.measured {
		l.every[a.src].add(a.allAt.Sub(a.at))
		l.chat[a.src].add(a.chatAt.Sub(a.at))
		l.window.Load().add(a.allAt.Sub(a.at))
	}
}

// drop removes a from the pending actions.
func (t *tableLat) drop(a *tracked) {
	for i, p := range t.pending {
		if p == a {
			t.pending = append(t.pending[:i], t.pending[i+1:]...)
			return
		}
	}
}

// finish ends the table's following at the end of the run: the measured
// actions taken but not seen by every viewer, or not shown by the chat,
// are counted; the times of those seen by one and not the other still
// count.
func (t *tableLat) finish() {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.lat
	for _, a := range t.pending {
		if !a.applied {
			continue
		}
		if a.measured {
			if a.allAt.IsZero() {
				l.missed.Add(1)
			} else {
				l.every[a.src].add(a.allAt.Sub(a.at))
			}
			if a.chatAt.IsZero() {
				l.unshown.Add(1)
			} else {
				l.chat[a.src].add(a.chatAt.Sub(a.at))
			}
		}
	}
	t.pending = nil
}

// versions returns the least version the viewers received and the newest
// the chat showed.
func (t *tableLat) versions() (viewers, chat uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	viewers = t.seen[0]
	for _, v := range t.seen[1:] {
		viewers = min(viewers, v)
	}
	return viewers, t.shown
}
