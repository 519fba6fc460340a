package outbox

import (
	"slices"
	"time"
)

// History is when the outbox called into one group lately: the calls
// within Limits.GroupWindow, oldest first.
type History struct {
	Chat  int64
	Calls []time.Time
}

// TakeHistory returns the history of each group called since the last
// TakeHistory (with Options.KeepHistory; else none). A group whose pacing
// the outbox forgot is left out: its calls are all older than the window.
func (o *Outbox) TakeHistory() []History {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.queues.history(o.clock.Now())
}

// Restore counts calls made before the outbox started into its groups'
// pacing: each group's history, and assumed calls at at into every group
// (those in the histories and any other) whose queue it makes within
// Limits.GroupWindow of at, for calls a crash kept from the histories.
// Call it before the first Enqueue.
func (o *Outbox) Restore(hist []History, assumed int, at time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.queues.restore(hist, assumed, at, o.clock.Now())
}

// history is TakeHistory at now.
func (qs *queues) history(now time.Time) []History {
	if len(qs.called) == 0 {
		return nil
	}
	out := make([]History, 0, len(qs.called))
	for chat := range qs.called {
		if q := qs.chats[chat]; q != nil && q.pace != nil {
			out = append(out, History{Chat: chat, Calls: q.pace.calls(now)})
		}
	}
	qs.called = make(map[int64]struct{})
	return out
}

// restore is Restore at now.
func (qs *queues) restore(hist []History, assumed int, at, now time.Time) {
	if qs.limits.GroupPerMinute <= 0 {
		return
	}
	qs.assumed, qs.assumedAt = assumed, at
	for _, h := range hist {
		if h.Chat >= 0 || qs.chats[h.Chat] != nil {
			continue
		}
		calls := slices.SortedFunc(slices.Values(h.Calls), time.Time.Compare)
		if len(calls) == 0 || now.Sub(calls[len(calls)-1]) >= qs.limits.GroupWindow {
			continue
		}
		q := &chatQueue{id: h.Chat, pace: newGroupPacer(qs.limits)}
		for _, t := range calls {
			q.pace.record(t)
		}
		q.last = calls[len(calls)-1]
		if assumed > 0 && now.Sub(at) < qs.limits.GroupWindow {
			for range assumed {
				q.pace.record(later(at, q.last))
			}
			q.last = later(at, q.last)
		}
		qs.chats[h.Chat] = q
	}
}
