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
		want    bool
	}
	tests := []struct {
		name string
		asks []ask
	}{
		{"a repeat within the window gets no answer", []ask{
			{0, 1, "rules", true}, {time.Second, 1, "rules", false}, {14 * time.Second, 1, "rules", false},
			{15 * time.Second, 1, "rules", true}}},
		{"another answer, or another user, is no repeat", []ask{
			{0, 1, "rules", true}, {time.Second, 1, "help", true}, {2 * time.Second, 2, "help", true},
			{3 * time.Second, 1, "rules", true}}},
		{"an answer not named is never held back as a repeat", []ask{
			{0, 1, "", true}, {time.Second, 1, "", true}}},
		{"arguments make another answer", []ask{
			{0, 1, "settings stake 20", true}, {time.Second, 1, "settings entry 200", true}}},
		{"a budget a minute", []ask{
			{0, 1, "a", true}, {1, 1, "b", true}, {2, 1, "c", true}, {3, 1, "d", true},
			{4, 1, "e", true}, {5, 1, "f", true}, {6, 1, "g", true}, {7, 1, "h", true},
			{8, 1, "i", false}, {2 * time.Second, 2, "a", true}, {30 * time.Second, 1, "j", false},
			{time.Minute, 1, "k", true}, {time.Minute + 1, 1, "l", true}, {time.Minute + 2, 1, "m", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clocktest.NewClock(start)
			q := newQuota(clock)
			for i, a := range tt.asks {
				clock.Set(start.Add(a.at))
				assert.Equal(t, a.want, q.allow(-1, a.user, a.command), "ask %d: %+v", i, a)
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
		assert.True(t, q.allow(-1, u, "rules"))
	}
	assert.Equal(t, quotaUsers, q.users.Len())
	assert.True(t, q.allow(-1, 0, "rules"), "the first user was forgotten: no repeat")
	assert.False(t, q.allow(-1, quotaUsers+99, "rules"), "the last is remembered: a repeat")
}
