package live_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/webapp/live"
)

// TestEveryVersionReachesEveryViewer: each viewer gets its own view of
// its table; in step, every version in order and none skipped; in a
// burst from several tables at once, the versions in order, skipping
// only those a newer one replaced, and always the newest.
func TestEveryVersionReachesEveryViewer(t *testing.T) {
	h := newHarness(t, live.Limits{})
	chats := []int64{-100, -200, -300}
	users := []int64{1, 2, 3}
	streams := map[int64]map[int64]*client{}
	for _, chat := range chats {
		h.tables.set(key(chat), 1)
		streams[chat] = map[int64]*client{}
		for _, u := range users {
			c := h.open(chat, u, "")
			v, data := c.view()
			require.Equal(t, uint64(1), v)
			require.Equal(t, view(chat, u, 1), data, "the viewer's own view of its table")
			streams[chat][u] = c
		}
	}
	require.Equal(t, 9, h.hub.Viewers())

	// In step: each change is read before the next.
	for want := uint64(2); want <= 20; want++ {
		for _, chat := range chats {
			require.Equal(t, want, h.change(chat))
		}
		for _, chat := range chats {
			for _, u := range users {
				v, data := streams[chat][u].view()
				require.Equal(t, want, v, "user %d on table %d: none skipped", u, chat)
				require.Equal(t, view(chat, u, want), data)
			}
		}
	}

	// A burst: 200 changes of each table, the tables at once.
	const burst = 200
	var wg sync.WaitGroup
	for _, chat := range chats {
		wg.Go(func() {
			for range burst {
				h.change(chat)
			}
		})
	}
	wg.Wait()
	for _, chat := range chats {
		for _, u := range users {
			prev := uint64(20)
			for prev < 20+burst {
				v, data := streams[chat][u].view()
				require.Greater(t, v, prev, "user %d on table %d: in order", u, chat)
				require.Equal(t, view(chat, u, v), data)
				prev = v
			}
			assert.Equal(t, uint64(20+burst), prev, "the newest arrives")
		}
	}
}

// TestSlowViewerDelaysNobody: a viewer that never reads does not delay
// another viewer of the same table, nor the changes; when it reads at
// last it gets the newest version, having skipped the ones replaced while
// it was stuck.
func TestSlowViewerDelaysNobody(t *testing.T) {
	h := newHarness(t, live.Limits{WriteTimeout: time.Minute})
	h.tables.setPad(256 << 10) // 256 KiB a view: the sockets' buffers fill at once
	const chat = -100
	h.tables.set(key(chat), 1)
	fast := h.open(chat, 1, "")
	v, _ := fast.view()
	require.Equal(t, uint64(1), v)
	slow := dialSlow(t, h.url(chat, 2))
	require.Eventually(t, func() bool { return h.hub.Watching(key(chat)) == 2 }, wait, time.Millisecond)

	const last = 64 // 16 MiB offered to the slow viewer, far past what the sockets hold (about 4 MiB)
	for want := uint64(2); want <= last; want++ {
		require.Equal(t, want, h.change(chat)) // Changed returns: it waits on no viewer
		v, _ := fast.view()
		require.Equal(t, want, v, "the reading viewer gets every version, in time")
	}
	require.Equal(t, 2, h.hub.Watching(key(chat)), "the slow viewer is still there: stuck, not dropped")

	got := slow.readUntil(t, last)
	require.NotEmpty(t, got)
	for i := 1; i < len(got); i++ {
		require.Greater(t, got[i], got[i-1], "in order")
	}
	assert.Equal(t, uint64(last), got[len(got)-1], "the newest arrives")
	assert.Less(t, len(got), last, "it was stuck: versions replaced while it waited were skipped (got %v)", got)
}

// TestStuckViewerIsDropped: a viewer whose write takes longer than the
// write timeout is dropped; the other viewers stay and go on getting
// every version.
func TestStuckViewerIsDropped(t *testing.T) {
	// Long enough for the reading viewer's writes, on a busy machine.
	h := newHarness(t, live.Limits{WriteTimeout: 500 * time.Millisecond})
	h.tables.setPad(256 << 10)
	const chat = -100
	h.tables.set(key(chat), 1)
	fast := h.open(chat, 1, "")
	fast.view()
	slow := dialSlow(t, h.url(chat, 2))
	require.Eventually(t, func() bool { return h.hub.Watching(key(chat)) == 2 }, wait, time.Millisecond)

	deadline := time.Now().Add(wait)
	for h.hub.Watching(key(chat)) == 2 {
		require.False(t, time.Now().After(deadline), "the stuck viewer was not dropped")
		want := h.change(chat)
		v, _ := fast.view()
		require.Equal(t, want, v)
	}
	assert.Equal(t, 1, h.hub.Viewers())
	want := h.change(chat)
	v, _ := fast.view()
	assert.Equal(t, want, v, "the other viewer goes on")
	slow.requireClosed(t)
}

// TestBoundsRefuse: past the bound of a table or of all tables, a stream
// is refused with 503 and Retry-After, and nothing else changes: the open
// streams stay and get every version; a viewer who has a stream already
// replaces it even at the bound.
func TestBoundsRefuse(t *testing.T) {
	h := newHarness(t, live.Limits{MaxPerTable: 2, MaxViewers: 3, RetryAfter: 1500 * time.Millisecond})
	for _, chat := range []int64{-1, -2} {
		h.tables.set(key(chat), 1)
	}
	open := map[int64]*client{ // by user
		1: h.open(-1, 1, ""),
		2: h.open(-1, 2, ""),
	}
	for _, tc := range []struct {
		name       string
		chat, user int64
		error      string
		after      func()
	}{
		{name: "the table is full", chat: -1, user: 3, error: "too many viewers",
			after: func() { open[4] = h.open(-2, 4, "") }},
		{name: "all tables are full", chat: -2, user: 5, error: "too many viewers"},
		{name: "all tables full, a new table", chat: -3, user: 6, error: "too many viewers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := h.hub.Viewers()
			status, retryAfter, body := h.refused(tc.chat, tc.user, "")
			assert.Equal(t, http.StatusServiceUnavailable, status)
			assert.Equal(t, "2", retryAfter, "whole seconds, rounded up")
			assert.JSONEq(t, `{"error":"`+tc.error+`"}`, body)
			assert.Equal(t, before, h.hub.Viewers(), "nothing opened")
			if tc.after != nil {
				tc.after()
			}
		})
	}
	for _, c := range open {
		c.view() // version 1
	}
	// At the bound, user 1 opens a second stream on its table: it replaces the first.
	again := h.open(-1, 1, "1")
	assert.Equal(t, event{Name: "replaced", Data: "{}", ID: "1"}, open[1].next())
	open[1].ended()
	open[1] = again
	assert.Equal(t, 3, h.hub.Viewers())
	for _, chat := range []int64{-1, -2} {
		h.change(chat)
	}
	for u, c := range open {
		v, _ := c.view()
		assert.Equal(t, uint64(2), v, "user %d", u)
	}
}

// TestReconnectFromLastEventID: a stream sends the current view at once
// only when it is newer than the version the client says it has; a
// Last-Event-ID that is no version is refused and opens nothing.
func TestReconnectFromLastEventID(t *testing.T) {
	h := newHarness(t, live.Limits{})
	for i, tc := range []struct {
		name   string
		lastID string
		first  uint64 // the first version the stream sends
		change int    // changes made before it
	}{
		{name: "a new stream", lastID: "", first: 5},
		{name: "an older version", lastID: "3", first: 5},
		{name: "version zero", lastID: "0", first: 5},
		{name: "the current version", lastID: "5", first: 6, change: 1},
		{name: "a version ahead", lastID: "9", first: 10, change: 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chat := int64(-1 - i)
			h.tables.set(key(chat), 5)
			c := h.open(chat, 7, tc.lastID)
			for range tc.change {
				h.change(chat)
			}
			v, data := c.view()
			assert.Equal(t, tc.first, v)
			assert.Equal(t, view(chat, 7, tc.first), data)
		})
	}
	open := h.hub.Viewers()
	for _, bad := range []string{"abc", "-1", "+5", "5 5", "1.5", "0x10", "18446744073709551616"} {
		t.Run("refused "+bad, func(t *testing.T) {
			status, _, body := h.refused(-1, 8, bad)
			assert.Equal(t, http.StatusBadRequest, status)
			assert.JSONEq(t, `{"error":"Last-Event-ID is not a version"}`, body)
			assert.Equal(t, open, h.hub.Viewers(), "nothing opened, nothing replaced")
		})
	}
}

// TestChangedAgain: telling the Hub of a version a viewer has, twice, or
// of an older one sends nothing again.
func TestChangedAgain(t *testing.T) {
	h := newHarness(t, live.Limits{})
	h.tables.set(key(-1), 1)
	c := h.open(-1, 7, "")
	c.view()
	made := h.tables.views()
	h.hub.Changed(key(-1), 1) // the version it opened with, told late
	require.Eventually(t, func() bool { return h.tables.views() == made+1 }, wait, time.Millisecond, "the stream looked")
	v := h.change(-1)
	h.hub.Changed(key(-1), v)
	h.hub.Changed(key(-1), v-1)
	got, _ := c.view()
	assert.Equal(t, v, got)
	v = h.change(-1)
	got, _ = c.view()
	assert.Equal(t, v, got, "each version once")
}

// TestRearmed: a view that changed at the version a viewer has (a turn's
// clock started again) is sent again under the same id; Changed of that
// version alone sends nothing.
func TestRearmed(t *testing.T) {
	h := newHarness(t, live.Limits{})
	h.tables.set(key(-1), 3)
	c := h.open(-1, 7, "")
	got, _ := c.view()
	require.Equal(t, uint64(3), got)
	h.tables.setBody(key(-1), `{"deadline":"later"}`)
	h.hub.Changed(key(-1), 3)
	h.hub.Rearmed(key(-2), 3) // another table's: nothing here
	h.hub.Rearmed(key(-1), 3)
	got, data := c.view()
	assert.Equal(t, uint64(3), got, "the same version")
	assert.Equal(t, `{"deadline":"later"}`, data, "drawn again")
	v := h.change(-1)
	got, _ = c.view()
	assert.Equal(t, v, got, "then the next version, as ever")
}

// TestNewerStreamReplacesOlder: a second stream of the same user on the
// same table ends the first, which is told so; the same user on another
// table keeps both.
func TestNewerStreamReplacesOlder(t *testing.T) {
	h := newHarness(t, live.Limits{})
	h.tables.set(key(-1), 1)
	h.tables.set(key(-2), 1)
	first := h.open(-1, 7, "")
	first.view()
	second := h.open(-1, 7, "")
	v, _ := second.view()
	assert.Equal(t, uint64(1), v, "the new stream starts afresh")
	assert.Equal(t, event{Name: "replaced", Data: "{}", ID: "1"}, first.next())
	assert.Empty(t, first.ended(), "nothing after replaced")
	assert.Equal(t, 1, h.hub.Watching(key(-1)), "the older's end leaves the newer in place")

	other := h.open(-2, 7, "")
	other.view()
	assert.Equal(t, 2, h.hub.Viewers())
	h.change(-1)
	h.change(-2)
	v, _ = second.view()
	assert.Equal(t, uint64(2), v)
	v, _ = other.view()
	assert.Equal(t, uint64(2), v)
}

// TestClientGoneLeaves: a viewer that hangs up is gone from the Hub.
func TestClientGoneLeaves(t *testing.T) {
	h := newHarness(t, live.Limits{})
	h.tables.set(key(-1), 1)
	c := h.open(-1, 7, "")
	c.view()
	require.Equal(t, 1, h.hub.Viewers())
	c.close()
	require.Eventually(t, func() bool { return h.hub.Viewers() == 0 }, wait, time.Millisecond)
	h.change(-1) // nobody to tell
}

// TestCloseEndsEveryStream: Close ends every stream (no "replaced":
// clients may come back) and refuses new ones with 503.
func TestCloseEndsEveryStream(t *testing.T) {
	h := newHarness(t, live.Limits{})
	var streams []*client
	for _, chat := range []int64{-1, -2} {
		h.tables.set(key(chat), 1)
		for u := range int64(2) {
			c := h.open(chat, u, "")
			c.view()
			streams = append(streams, c)
		}
	}
	h.within("Close", h.hub.Close)
	assert.Equal(t, 0, h.hub.Viewers())
	for _, c := range streams {
		assert.Empty(t, c.ended(), "ended, without an event")
	}
	h.change(-1) // harmless
	h.within("a second Close", h.hub.Close)
	status, retryAfter, body := h.refused(-1, 9, "")
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Equal(t, "5", retryAfter)
	assert.JSONEq(t, `{"error":"the live push is closed"}`, body)
}

// TestMovedEndsTheGroupsStreams: Moved ends the streams of the tables of
// the chat that moved (no "replaced": their pages come back, and are named
// the new chat's table), and no other.
func TestMovedEndsTheGroupsStreams(t *testing.T) {
	h := newHarness(t, live.Limits{})
	h.tables.set(key(-1), 1)
	h.tables.set(key(-2), 1)
	moved := []*client{h.open(-1, 7, ""), h.open(-1, 8, "")}
	other := h.open(-2, 7, "")
	for _, c := range append(moved, other) {
		c.view()
	}
	h.within("Moved", func() { h.hub.Moved(-1, -1001) })
	for _, c := range moved {
		assert.Empty(t, c.ended(), "ended, without an event")
	}
	require.Eventually(t, func() bool { return h.hub.Viewers() == 1 }, wait, time.Millisecond)
	assert.Equal(t, 1, h.hub.Watching(key(-2)))
	v := h.change(-2)
	got, _ := other.view()
	assert.Equal(t, v, got, "the other chat's stream goes on")
}

// TestHeartbeat: a stream quiet for a whole heartbeat (on the Hub's
// clock) sends a comment line; one that sent a view meanwhile does not.
func TestHeartbeat(t *testing.T) {
	const every = 15 * time.Second
	h := newHarness(t, live.Limits{Heartbeat: every})
	h.tables.set(key(-1), 1)
	c := h.open(-1, 7, "")
	c.view()
	// beat moves the clock a heartbeat on, and waits until the stream
	// has taken the tick (it arms the next one first).
	beat := func() {
		h.clock.Advance(every)
		require.Eventually(t, func() bool {
			next, ok := h.clock.Next()
			return ok && next.After(h.clock.Now())
		}, wait, time.Millisecond)
	}
	heartbeat := event{Comment: "heartbeat"}

	beat()
	assert.Equal(t, heartbeat, c.next(), "quiet for a beat")
	h.change(-1)
	v, _ := c.view()
	assert.Equal(t, uint64(2), v)
	beat() // a view was sent in this beat: no heartbeat
	h.change(-1)
	v, _ = c.view()
	assert.Equal(t, uint64(3), v, "no heartbeat came before it")
	beat() // again a view in this beat
	beat()
	assert.Equal(t, heartbeat, c.next())
	h.change(-1)
	v, _ = c.view()
	assert.Equal(t, uint64(4), v, "one heartbeat per quiet beat")
}

// TestViewLines: a view with line breaks goes as several data lines,
// which a client joins with LF.
func TestViewLines(t *testing.T) {
	h := newHarness(t, live.Limits{})
	h.tables.set(key(-1), 1)
	h.tables.setBody(key(-1), "a\nb\r\nc\rd\n")
	c := h.open(-1, 7, "")
	_, data := c.view()
	assert.Equal(t, "a\nb\nc\nd\n", data)
}

// TestViewFails: a view that cannot be made refuses the stream with 500,
// or ends an open one; either way the viewer is gone.
func TestViewFails(t *testing.T) {
	h := newHarness(t, live.Limits{})
	h.tables.set(key(-1), 1)
	c := h.open(-1, 7, "")
	c.view()
	h.tables.setFail(errors.New("the store is gone"))
	h.change(-1)
	assert.Empty(t, c.ended())
	require.Eventually(t, func() bool { return h.hub.Viewers() == 0 }, wait, time.Millisecond)

	status, _, body := h.refused(-1, 8, "")
	assert.Equal(t, http.StatusInternalServerError, status)
	assert.JSONEq(t, `{"error":"the table cannot be shown"}`, body, "the store's error stays inside")
	assert.Equal(t, 0, h.hub.Viewers())

	h.tables.setFail(fmt.Errorf("key -1: %w", live.ErrNoTable))
	status, _, body = h.refused(-1, 8, "")
	assert.Equal(t, http.StatusNotFound, status, "no such table: not the server's fault")
	assert.JSONEq(t, `{"error":"no_table"}`, body)
	assert.Equal(t, 0, h.hub.Viewers())
}

// TestNoWriteDeadlineNoStream: a ResponseWriter that cannot set a write
// deadline (a wrapper without Unwrap) cannot bound a slow viewer: the
// stream is refused.
func TestNoWriteDeadlineNoStream(t *testing.T) {
	h := newHarness(t, live.Limits{})
	h.tables.set(key(-1), 1)
	type wrapped struct{ http.ResponseWriter }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.hub.Serve(wrapped{w}, r, key(-1), live.Viewer{User: 7})
	}))
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	assert.JSONEq(t, `{"error":"this connection cannot stream"}`, string(body))
	assert.Equal(t, 0, h.hub.Viewers())
}
