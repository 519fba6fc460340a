package bot

import (
	"sync"
	"time"
)

// The reply quota of one user in one chat: an answer the same as the last
// one given them within quotaRepeatWindow is not given again (a command
// that only shows something, repeated while nothing changed), and past
// quotaPerMinute answers in a minute the user gets none. A group shares about 20 writes a
// minute among all its members and its table: one member's command spam
// must not spend them.
const (
	quotaRepeatWindow = 15 * time.Second
	quotaPerMinute    = 8
	// quotaPruneAt is how many users the quota remembers before it forgets,
	// at most once a minute, those who got no answer for a minute.
	quotaPruneAt = 1024
)

// quota decides which answers to commands are given. Its methods are safe for
// concurrent use.
type quota struct {
	mu     sync.Mutex
	users  map[quotaKey]*userQuota
	pruned time.Time // when prune last ran
}

type quotaKey struct{ chat, user int64 }

type userQuota struct {
	answered [quotaPerMinute]time.Time // ring of the last answers' times
	next     int
	answer   string    // the last answer given
	at       time.Time // and when
}

func newQuota() *quota { return &quota{users: make(map[quotaKey]*userQuota)} }

// allow reports whether the user gets the answer in the chat at now, and if
// so counts it. answer names it (a string that differs between answers),
// or is empty for one that is never held back as a repeat.
func (q *quota) allow(chat, user int64, answer string, now time.Time) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := quotaKey{chat, user}
	u := q.users[k]
	if u == nil {
		if len(q.users) >= quotaPruneAt && now.Sub(q.pruned) >= time.Minute {
			q.prune(now)
		}
		u = &userQuota{}
		q.users[k] = u
	}
	if answer != "" && answer == u.answer && now.Sub(u.at) < quotaRepeatWindow {
		return false
	}
	if oldest := u.answered[u.next]; !oldest.IsZero() && now.Sub(oldest) < time.Minute {
		return false
	}
	u.answered[u.next] = now
	u.next = (u.next + 1) % quotaPerMinute
	u.answer, u.at = answer, now
	return true
}

// prune forgets the users whose last answer is a minute old, into a new
// map (a Go map keeps its size after deletions); q.mu is held.
func (q *quota) prune(now time.Time) {
	kept := make(map[quotaKey]*userQuota)
	for k, u := range q.users {
		if now.Sub(u.at) < time.Minute {
			kept[k] = u
		}
	}
	q.users, q.pruned = kept, now
}

// len returns how many users the quota remembers.
func (q *quota) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.users)
}
