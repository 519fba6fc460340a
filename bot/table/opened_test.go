package table

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// told records what a Sent is told.
type told struct {
	mu    sync.Mutex
	views []storage.View
	ids   []int
}

func (r *told) sent(v storage.View, id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.views, r.ids = append(r.views, v), append(r.ids, id)
}

func (r *told) calls() ([]storage.View, []int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]storage.View(nil), r.views...), append([]int(nil), r.ids...)
}

// TestKeeperOpen: Open shows the lobby as Show does, and tells its Sent of
// the lobby's first message once, after its id is stored; later shows, a
// new message of the same lobby included, tell it nothing. A lobby over
// before a message showed it (a game started, the table closed unseen)
// tells nothing, and nothing of it is kept.
func TestKeeperOpen(t *testing.T) {
	tests := []struct {
		name string
		// before changes the table after it opened, before Open shows it.
		before func(w *world)
		// after changes the table once Open showed it, and shows it.
		after func(w *world)
		// lobby: the lobby's first message is told.
		lobby bool
	}{
		{"the lobby's first message is told once", nil, func(w *world) {
			w.show(w.apply(w.key(), w.bob, game.Join))
			w.show(w.apply(w.key(), w.bob, game.Leave, func(r *storage.ApplyRequest) { r.Repost = true }))
		}, true},
		{"a game started before the message", func(w *world) {
			w.apply(w.key(), w.bob, game.Join)
			w.apply(w.key(), w.ann, game.Start)
		}, nil, false},
		{"the table closed unseen", func(w *world) {
			w.apply(w.key(), w.ann, game.Leave)
		}, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			lobby := w.apply(w.key(), w.ann, game.Open)
			if tc.before != nil {
				tc.before(w)
			}
			var r told
			w.onChat(w.group.ID, func(context.Context) { w.k.Open(lobby, r.sent) })
			first, _ := w.message(w.key())
			if tc.after != nil {
				tc.after(w)
			}
			views, ids := r.calls()
			assert.False(t, w.k.Opening(w.key()), "nothing kept of the opening")
			if !tc.lobby {
				assert.Empty(t, ids, "nothing told")
				return
			}
			require.Len(t, ids, 1, "told once")
			assert.Equal(t, first.MessageID, ids[0], "the lobby's first message, stored")
			assert.Contains(t, first.Text, "Ann")
			assert.Equal(t, game.Lobby, views[0].Table.Phase())
			assert.Equal(t, lobby.Table.Version(), views[0].Table.Version(), "the view it shows")
			assert.NotEqual(t, ids[0], w.view(w.key()).MessageID, "the repost's message is not told")
		})
	}
}

// TestKeeperOpenForgotten: a chat forgotten while the lobby's first
// message is on its way tells Open's Sent nothing.
func TestKeeperOpenForgotten(t *testing.T) {
	w := newWorld(t)
	release := make(chan struct{})
	held := w.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Methods: []string{"sendMessage"},
		Count: 1, AfterHandling: true, Hold: release})
	lobby := w.apply(w.key(), w.ann, game.Open)
	var r told
	w.host.OnChat(w.group.ID, "test", func(context.Context) { w.k.Open(lobby, r.sent) })
	require.Eventually(t, func() bool { return held.Fired() == 1 }, 15*time.Second, time.Millisecond, "the message is on its way")
	require.True(t, w.k.Opening(w.key()), "the opening waits for it")
	w.host.OnChat(w.group.ID, "test", func(context.Context) { w.k.Forget(w.group.ID) })
	require.Eventually(t, w.host.idle, 15*time.Second, time.Millisecond)
	close(release)
	w.settle()
	_, ids := r.calls()
	assert.Empty(t, ids, "nothing told")
	assert.False(t, w.k.Opening(w.key()), "nothing kept of the opening")
}
