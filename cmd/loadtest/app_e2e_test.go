package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAppLoad is the short -app run: the real bot serving its Mini App,
// each group's table watched by its four players and a fifth member over
// real streams. Flat out every choice goes through the app; at a person's
// pace half of them do, the rest are pressed in the chat: either way each
// action reaches every viewer (none missed, every viewer holding the
// stored version at the end), no stream is refused or broken, and the
// run's own checks pass (the audit, every chat showing its table).
func TestAppLoad(t *testing.T) {
	tests := []struct {
		name  string
		flat  bool
		chats int
		d     time.Duration
	}{
		{"flat out", true, 4, 3 * time.Second},
		{"at a person's pace", false, 6, 8 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := short(t, tt.chats, tt.d)
			cfg.App, cfg.AppShare, cfg.AppFlat = 5, 0.5, tt.flat
			res := runOK(t, cfg)
			require.NotNil(t, res.App)
			a := res.App
			assert.Equal(t, tt.chats, a.Tables)
			assert.Positive(t, a.Every[srcApp].N, "app actions reached every viewer")
			assert.Positive(t, a.Chat[srcApp].N, "and the chat")
			if !tt.flat {
				assert.Positive(t, a.Every[srcChat].N, "presses in the chat reached every viewer")
			} else {
				assert.Zero(t, a.Every[srcChat].N, "flat out, nobody presses in the chat")
			}
			assert.Zero(t, a.Missed, "no action missed a viewer")
			assert.Zero(t, a.NotLatest, "every viewer holds the stored version")
			assert.Zero(t, a.Refused+a.Dropped, "no stream refused or broken")
			assert.Zero(t, a.ActsTooMany+a.ActsBusy+a.ActsFailed, "every action answered")
			assert.Equal(t, int64(tt.chats*5), a.Opened, "one stream a viewer")
			assert.Positive(t, a.Events)
			assert.Greater(t, a.EventBytes, a.Events*100, "each view is a whole view")
			assert.GreaterOrEqual(t, a.WireBytes, a.EventBytes)
			assert.Zero(t, res.Rejections, "the players act on what their view shows")
		})
	}
}
