package input

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
)

func TestQuota(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	type ask struct {
		at      time.Duration // since start; the asks come in time order
		user    int64
		command string
		change  bool
		want    verdict
	}
	budget := func(user int64) []ask {
		var asks []ask
		for i := range quotaPerMinute {
			asks = append(asks, ask{time.Duration(i), user, string(rune('a' + i)), false, give})
		}
		return asks
	}
	tests := []struct {
		name string
		asks []ask
		wait time.Duration // what the last ask says of when answers come again
	}{
		{"a repeat within the window gets no answer", []ask{
			{0, 1, "rules", false, give}, {time.Second, 1, "rules", false, repeated}, {14 * time.Second, 1, "rules", false, repeated},
			{15 * time.Second, 1, "rules", false, give}}, 0},
		{"another answer, or another user, is no repeat", []ask{
			{0, 1, "rules", false, give}, {time.Second, 1, "help", false, give}, {2 * time.Second, 2, "help", false, give},
			{3 * time.Second, 1, "rules", false, give}}, 0},
		{"an answer not named is never held back as a repeat", []ask{
			{0, 1, "", false, give}, {time.Second, 1, "", false, give}}, 0},
		{"arguments make another answer", []ask{
			{0, 1, "settings stake 20", false, give}, {time.Second, 1, "settings entry 200", false, give}}, 0},
		{"past the budget: told once, then nothing until the minute passes", append(budget(1),
			ask{8, 1, "i", false, overBudget}, ask{2 * time.Second, 2, "a", false, give},
			ask{30 * time.Second, 1, "j", false, held}, ask{time.Minute, 1, "k", false, give},
			ask{time.Minute + 1, 1, "l", false, give}, ask{time.Minute + 2, 1, "m", false, give}), 0},
		{"told when answers come again", append(budget(1), ask{20 * time.Second, 1, "i", false, overBudget}), 40 * time.Second},
		{"a change is always answered, past the budget too", append(budget(1),
			ask{10, 1, "settings stake 20", true, give}, ask{11, 1, "settings stake 20", true, give},
			ask{12, 1, "rules", false, overBudget}), time.Minute + 2 - 12}, // the changes count: the oldest answer left is at 2
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clocktest.NewClock(start)
			q := newQuota(clock)
			var wait time.Duration
			for i, a := range tt.asks {
				clock.Set(start.Add(a.at))
				var got verdict
				got, wait = q.allow(-1, a.user, a.command, a.change)
				assert.Equal(t, a.want, got, "ask %d: %+v", i, a)
			}
			if tt.wait != 0 {
				assert.Equal(t, tt.wait, wait)
			}
		})
	}
}

// TestQuotaIsBounded: however many users it answers, the quota remembers
// at most quotaUsers of them, and a user it forgot gets their answer.
func TestQuotaIsBounded(t *testing.T) {
	clock := clocktest.NewClock(time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC))
	q := newQuota(clock)
	for u := range int64(quotaUsers + 100) {
		v, _ := q.allow(-1, u, "rules", false)
		assert.Equal(t, give, v)
	}
	assert.Equal(t, quotaUsers, q.users.Len())
	v, _ := q.allow(-1, 0, "rules", false)
	assert.Equal(t, give, v, "the first user was forgotten: no repeat")
	v, _ = q.allow(-1, quotaUsers+99, "rules", false)
	assert.Equal(t, repeated, v, "the last is remembered: a repeat")
}
