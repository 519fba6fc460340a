package pace

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/storage"
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

// TestEarlierCurrent: a table message is current when the version saved
// as shown is the table's; nothing saved tells nothing.
func TestEarlierCurrent(t *testing.T) {
	a, b := storage.TableKey{Chat: -1}, storage.TableKey{Chat: -1, Thread: 4}
	e := Earlier{shown: map[storage.TableKey]uint64{a: 7}}
	assert.True(t, e.Current(a, 7))
	assert.False(t, e.Current(a, 8), "moved on since")
	assert.False(t, e.Current(b, 7), "another table")
	assert.False(t, Earlier{}.Current(a, 7), "nothing saved")
}
