package input

import (
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
)

// The reply quota of one user in one chat: an answer the same as the last
// one given them within quotaRepeatWindow is not given again (a command
// that only shows something, repeated while nothing changed), and past
// quotaPerMinute answers in a minute the user gets none. A group shares
// about 20 writes a minute among all its members and its table: one
// member's command spam must not spend them.
const (
	quotaRepeatWindow = 15 * time.Second
	quotaPerMinute    = 8
	// quotaUsers bounds how many users the quota remembers: one who got
	// no answer for a minute is forgotten anyway.
	quotaUsers = 10_000
)

// quota decides which answers to commands are given. Its methods are safe
// for concurrent use.
type quota struct {
	clock clock.Clock
	users *expiring.Cache[quotaKey, userQuota]
}

type quotaKey struct{ chat, user int64 }

type userQuota struct {
	answered [quotaPerMinute]time.Time // ring of the last answers' times
	next     int
	answer   string    // the last answer given
	at       time.Time // and when
}

func newQuota(c clock.Clock) *quota {
	return &quota{clock: c, users: expiring.New[quotaKey, userQuota](quotaUsers, time.Minute, c)}
}

// allow reports whether the user gets the answer in the chat now, and if
// so counts it. answer names it (a string that differs between answers),
// or is empty for one that is never held back as a repeat.
func (q *quota) allow(chat, user int64, answer string) bool {
	now := q.clock.Now()
	allowed := false
	q.users.Update(quotaKey{chat, user}, func(u userQuota, known bool) (userQuota, bool) {
		if answer != "" && answer == u.answer && now.Sub(u.at) < quotaRepeatWindow {
			return u, known
		}
		if oldest := u.answered[u.next]; !oldest.IsZero() && now.Sub(oldest) < time.Minute {
			return u, known
		}
		u.answered[u.next] = now
		u.next = (u.next + 1) % quotaPerMinute
		u.answer, u.at = answer, now
		allowed = true
		return u, true
	})
	return allowed
}
