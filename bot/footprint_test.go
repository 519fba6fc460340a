package bot

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestManyChatsLeaveNothingBehind: chats that open a table once, and whose
// lobbies all time out at the same moment, neither run a goroutine each
// nor leave anything behind in the bot once their tables closed (a
// hundred thousand such chats peaked at 103,000 goroutines and 3.5 GB):
// no timer armed, no chat queued, no outgoing queue. What each room
// remembers of a closed table is its own tests' (bot/table's
// TestKeeperForgetsClosedTables, which covers the notices of a table just
// opened, bot/panel's, bot/input's caches; bot/notice remembers nothing).
// cmd/loadtest -lobbies measures the same at scale.
func TestManyChatsLeaveNothingBehind(t *testing.T) {
	const chats = 2000
	srv := telegramtest.StartTest(t)
	opener := srv.AddUser(telegramtest.User{FirstName: "Ann", LanguageCode: "en"})
	ids := make([]int64, chats)
	for i := range ids {
		ids[i] = srv.NewGroup(fmt.Sprint("group ", i), opener).ID
	}
	st, err := storage.Open(filepath.Join(t.TempDir(), "twentyone.db"), storage.Options{NoSync: true})
	require.NoError(t, err)
	clock := clocktest.NewClock(time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC))
	b, err := New(context.Background(), Config{
		Token: srv.Token(), Endpoint: srv.Endpoint(), Transport: srv.Client().Transport,
		Store: st, Clock: clock, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), PollTimeout: time.Second,
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-ran)
		cctx, ccancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer ccancel()
		require.NoError(t, b.Close(cctx))
		require.NoError(t, st.Close())
	})

	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	before := srv.Calls()
	for _, id := range ids {
		_, err := srv.SendCommand(id, opener.ID, "newgame")
		require.NoError(t, err)
	}
	require.NoError(t, srv.WaitFor(wctx, func(v *telegramtest.View) bool {
		// A table's deadline is armed before its render is queued.
		return srv.Calls().Sub(before).OK("sendMessage") == chats && b.out.Pending() == 0 && v.PendingUpdates() == 0
	}), "every lobby shown, its deadline armed")
	assert.Equal(t, chats, srv.Calls().Sub(before).OK("sendMessage"), "a lobby each")
	assert.Positive(t, clock.Armed(), "the deadlines' timer")

	var most atomic.Int64
	sampling, stop := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampling)
		for {
			most.Store(max(most.Load(), int64(runtime.NumGoroutine())))
			select {
			case <-stop:
				return
			default:
				runtime.Gosched()
			}
		}
	}()
	before = srv.Calls()
	clock.Advance(10*time.Minute + time.Second) // every lobby times out at once
	require.NoError(t, srv.WaitFor(wctx, func(*telegramtest.View) bool {
		return srv.Calls().Sub(before).OK("editMessageText") == chats && b.out.Pending() == 0 && b.chats.len() == 0
	}), "every table closed")
	close(stop)
	<-sampling

	assert.Less(t, most.Load(), int64(1000), "goroutines at the peak")
	assert.Zero(t, clock.Armed(), "no deadline left, nor any other timer")
	assert.Zero(t, b.chats.len(), "no chat queued")
	assert.Zero(t, b.out.Chats(), "no outgoing queue left")
}
