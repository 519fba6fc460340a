package pace

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestEarlierShowed: what a start knows of the turns the process before
// showed: a turn a later call into its group followed was shown, one
// after the group's last call or after the last save was not; without a
// record to tell (nothing saved, the group's calls expired, a private
// chat, whose calls are not kept) it may have been.
func TestEarlierShowed(t *testing.T) {
	start := time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC)
	saved := start.Add(-2 * time.Second)
	e := Earlier{start: start, saved: saved, window: time.Minute,
		last: map[int64]time.Time{-1: saved.Add(-10 * time.Second)}}
	tests := []struct {
		name    string
		e       Earlier
		chat    int64
		started time.Time
		want    bool
	}{
		{"a call into the group after the turn began", e, -1, saved.Add(-20 * time.Second), true},
		{"the group's last call before the turn began", e, -1, saved.Add(-5 * time.Second), false},
		{"the turn began after the last save", e, -1, saved.Add(time.Second), false},
		{"the turn began after this start", e, 5, start, false},
		{"a group not called within the window", e, -2, saved.Add(-30 * time.Second), false},
		{"a group whose calls expired", e, -2, saved.Add(-2 * time.Minute), true},
		{"a private chat, whose calls are not kept", e, 5, saved.Add(-30 * time.Second), true},
		{"nothing saved", Earlier{start: start}, -1, saved, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.e.Showed(tt.chat, tt.started))
		})
	}
}
