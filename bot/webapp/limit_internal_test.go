package webapp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
)

// TestLimiter: a user's bucket gives Burst at once, then one each Every,
// says how long until the next, and the buckets remembered stay within
// their bound.
func TestLimiter(t *testing.T) {
	c := clocktest.NewClock(time.Date(2026, 12, 2, 18, 30, 0, 0, time.UTC))
	l := newLimiter(Rate{Every: 3 * time.Second, Burst: 2}, 3, c)
	assert.Zero(t, l.take(1))
	assert.Zero(t, l.take(1))
	assert.Equal(t, 3*time.Second, l.take(1), "empty: the next token in one Every")
	assert.Equal(t, 3*time.Second, l.take(1), "a refusal takes nothing")
	c.Advance(time.Second)
	assert.Equal(t, 2*time.Second, l.take(1))
	c.Advance(2 * time.Second)
	assert.Zero(t, l.take(1), "refilled by one")
	assert.Equal(t, 3*time.Second, l.take(1))
	c.Advance(time.Hour)
	assert.Zero(t, l.take(1), "long idle: full")
	assert.Zero(t, l.take(1))
	assert.NotZero(t, l.take(1), "but never past Burst")

	for u := int64(2); u < 100; u++ {
		assert.Zero(t, l.take(u), "user %d has a bucket of their own", u)
	}
	assert.LessOrEqual(t, l.next.Len(), 3, "at most Users buckets remembered")
}

// TestLimitsDefaults: what a zero Limits means.
func TestLimitsDefaults(t *testing.T) {
	l := Limits{}.withDefaults()
	assert.Equal(t, Rate{Every: 200 * time.Millisecond, Burst: 5}, l.Acts, "5 actions a second")
	assert.Equal(t, Rate{Every: 500 * time.Millisecond, Burst: 5}, l.Reads, "2 reads a second")
	assert.Equal(t, 100_000, l.Users)
	assert.Equal(t, 10*time.Second, l.ActTimeout)
	set := Limits{Acts: Rate{Every: time.Second, Burst: 1}, Users: 7, ActTimeout: time.Second}.withDefaults()
	assert.Equal(t, Rate{Every: time.Second, Burst: 1}, set.Acts, "what is set stays")
	assert.Equal(t, 7, set.Users)
}
