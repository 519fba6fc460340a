package webapp

import (
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
)

// Rate is a token bucket: one request each Every, Burst at once at most.
type Rate struct {
	Every time.Duration
	Burst int
}

// Limits bound each user's requests; a field left zero (or negative) takes
// its default.
type Limits struct {
	// Acts is the rate of a user's actions (default 5 a second, 5 at
	// once): a human taps far slower.
	Acts Rate
	// Reads is the rate of a user's views and stream opens together
	// (default 2 a second, 5 at once: a page opens with one of each, and
	// reconnects a broken stream after a second).
	Reads Rate
	// Users bounds how many users' buckets are remembered (default
	// 100,000; the least recently seen are forgotten first, which refills
	// their buckets). A bucket idle long enough to be full is forgotten
	// too: it would refill all the same.
	Users int
	// ActTimeout is how long an action may wait for the table's answer
	// (default 10 s; 503 past it).
	ActTimeout time.Duration
}

// withDefaults returns l with every unset field at its default.
func (l Limits) withDefaults() Limits {
	rate := func(r *Rate, every time.Duration, burst int) {
		if r.Every <= 0 {
			r.Every = every
		}
		if r.Burst <= 0 {
			r.Burst = burst
		}
	}
	rate(&l.Acts, time.Second/5, 5)
	rate(&l.Reads, time.Second/2, 5)
	if l.Users <= 0 {
		l.Users = 100_000
	}
	if l.ActTimeout <= 0 {
		l.ActTimeout = 10 * time.Second
	}
	return l
}

// limiter is a token bucket per user, kept as the time its bucket is
// next full of one more token (the generic cell rate algorithm): a
// request at now takes a token when that time minus now is within
// (Burst-1)·Every, and moves it on by Every.
type limiter struct {
	rate  Rate
	clock clock.Clock
	next  *expiring.Cache[int64, time.Time]
}

func newLimiter(r Rate, users int, c clock.Clock) *limiter {
	// After Burst·Every idle, a bucket is full: forgetting it changes
	// nothing.
	return &limiter{rate: r, clock: c, next: expiring.New[int64, time.Time](users, time.Duration(r.Burst)*r.Every, c)}
}

// take takes one of user's tokens: 0 when there was one, else how long
// until there is (and nothing is taken).
func (l *limiter) take(user int64) time.Duration {
	now := l.clock.Now()
	slack := time.Duration(l.rate.Burst-1) * l.rate.Every
	var wait time.Duration
	l.next.Update(user, func(next time.Time, ok bool) (time.Time, bool) {
		if !ok || next.Before(now) {
			next = now
		}
		if ahead := next.Sub(now); ahead > slack {
			wait = ahead - slack
			return next, true
		}
		return next.Add(l.rate.Every), true
	})
	return wait
}
