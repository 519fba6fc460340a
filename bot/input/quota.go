package input

import (
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
)

// The reply quota of one user in one chat: an answer the same as the last
// one given them within quotaRepeatWindow is not given again (a command
// that only shows something, repeated while nothing changed), and past
// quotaPerMinute answers in a minute the user gets one short answer saying
// so and when to try again, then none until the minute passes. A change
// is always answered. A group shares about 20 writes a minute among all
// its members and its table: one member's command spam must not spend
// them.
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
	told     time.Time // until when the user was told they are over the budget
}

// verdict is what the quota decides of an answer.
type verdict int

const (
	// give: the answer goes.
	give verdict = iota
	// repeated: the same answer went moments ago; nothing goes.
	repeated
	// overBudget: the user is past their budget; they are told so, once,
	// with when they get answers again.
	overBudget
	// held: past the budget and told so already; nothing goes.
	held
)

func newQuota(c clock.Clock) *quota {
	return &quota{clock: c, users: expiring.New[quotaKey, userQuota](quotaUsers, time.Minute, c)}
}

// allow decides whether the user gets the answer in the chat now, counting
// it if so, and when the user's budget has room again (for overBudget).
// answer names it (a string that differs between answers), or is empty
// for one that is never held back as a repeat. An answer to a change (a
// command that changes something, or tries to) always goes, and counts.
func (q *quota) allow(chat, user int64, answer string, change bool) (verdict, time.Duration) {
	now := q.clock.Now()
	v, wait := give, time.Duration(0)
	q.users.Update(quotaKey{chat, user}, func(u userQuota, known bool) (userQuota, bool) {
		if !change && answer != "" && answer == u.answer && now.Sub(u.at) < quotaRepeatWindow {
			v = repeated
			return u, known
		}
		if oldest := u.answered[u.next]; !change && !oldest.IsZero() && now.Sub(oldest) < time.Minute {
			v, wait = held, oldest.Add(time.Minute).Sub(now)
			if !now.Before(u.told) {
				v, u.told = overBudget, now.Add(wait)
			}
			return u, true
		}
		u.answered[u.next] = now
		u.next = (u.next + 1) % quotaPerMinute
		u.answer, u.at = answer, now
		return u, true
	})
	return v, wait
}
