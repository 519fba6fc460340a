package outbox

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder collects what ops did, in order.
type recorder struct {
	mu    sync.Mutex
	calls []string
	times []time.Time
	done  chan string
}

func newRecorder() *recorder { return &recorder{done: make(chan string, 100)} }

func (r *recorder) op(chat int64, slot, name string, errs ...error) Op {
	n := 0
	return Op{Chat: chat, Slot: slot, Do: func(context.Context) error {
		r.mu.Lock()
		r.calls = append(r.calls, name)
		r.times = append(r.times, time.Now())
		var err error
		if n < len(errs) {
			err = errs[n]
		}
		n++
		r.mu.Unlock()
		if err == nil {
			r.done <- name
		}
		return err
	}}
}

// waitDone waits until every named op has succeeded, in any order.
func (r *recorder) waitDone(t *testing.T, names ...string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for len(want) > 0 {
		select {
		case got := <-r.done:
			delete(want, got)
		case <-deadline:
			t.Fatalf("timed out waiting for %v; calls so far: %v", want, r.snapshot())
		}
	}
}

func (r *recorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

func TestOrderWithinChat(t *testing.T) {
	o := New(Options{})
	r := newRecorder()
	for _, n := range []string{"a", "b", "c", "d"} {
		require.NoError(t, o.Enqueue(r.op(-1, "", n)))
	}
	r.waitDone(t, "a", "b", "c", "d")
	require.NoError(t, o.Close(context.Background()))
	assert.Equal(t, []string{"a", "b", "c", "d"}, r.snapshot())
}

func TestNewestRenderWins(t *testing.T) {
	o := New(Options{})
	r := newRecorder()
	release := make(chan struct{})
	started := make(chan struct{})
	require.NoError(t, o.Enqueue(Op{Chat: -1, Do: func(context.Context) error {
		close(started)
		<-release
		return nil
	}}))
	<-started
	for _, n := range []string{"render1", "render2", "render3"} {
		require.NoError(t, o.Enqueue(r.op(-1, "table", n)))
	}
	require.NoError(t, o.Enqueue(r.op(-1, "", "reply")))
	close(release)
	r.waitDone(t, "render3", "reply")
	require.NoError(t, o.Close(context.Background()))
	assert.Equal(t, []string{"render3", "reply"}, r.snapshot())
}

func TestRenderReplacedInFlightIsSentAgain(t *testing.T) {
	o := New(Options{})
	r := newRecorder()
	release := make(chan struct{})
	started := make(chan struct{})
	require.NoError(t, o.Enqueue(Op{Chat: -1, Slot: "table", Do: func(context.Context) error {
		close(started)
		<-release
		return nil
	}}))
	<-started
	require.NoError(t, o.Enqueue(r.op(-1, "table", "newer")))
	close(release)
	r.waitDone(t, "newer")
	require.NoError(t, o.Close(context.Background()))
}

func TestRetryAfterWaits(t *testing.T) {
	var after []time.Duration
	var mu sync.Mutex
	o := New(Options{OnRetryAfter: func(_ int64, d time.Duration) {
		mu.Lock()
		after = append(after, d)
		mu.Unlock()
	}})
	r := newRecorder()
	const pause = 150 * time.Millisecond
	require.NoError(t, o.Enqueue(r.op(-1, "table", "edit", &RetryAfterError{After: pause})))
	r.waitDone(t, "edit")
	require.NoError(t, o.Close(context.Background()))
	r.mu.Lock()
	defer r.mu.Unlock()
	require.Len(t, r.times, 2)
	assert.GreaterOrEqual(t, r.times[1].Sub(r.times[0]), pause)
	assert.Equal(t, []time.Duration{pause}, after)
}

func TestTemporaryErrorsRetriedThenGivenUp(t *testing.T) {
	tmp := Temporary(errors.New("502 bad gateway"))
	tests := []struct {
		name      string
		class     Class
		errs      []error
		wantCalls int
		wantDone  bool
	}{
		{"recovers", Say, []error{tmp, tmp}, 3, true},
		{"gives up", Say, []error{tmp, tmp, tmp}, 3, false},
		{"permanent error not retried", Say, []error{errors.New("400 bad request")}, 1, false},
		{"a render is tried until it goes", Render, []error{tmp, tmp, tmp, tmp, tmp}, 6, true},
		{"a render's permanent error not retried", Render, []error{errors.New("400 bad request")}, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := New(Options{MaxAttempts: 3, Backoff: time.Millisecond, Logger: discard()})
			r := newRecorder()
			op := r.op(-1, "", "call", tt.errs...)
			op.Class = tt.class
			require.NoError(t, o.Enqueue(op))
			next := r.op(-1, "", "next")
			next.Class = tt.class // after the call, in the same line
			require.NoError(t, o.Enqueue(next))
			if tt.wantDone {
				r.waitDone(t, "call")
			}
			r.waitDone(t, "next")
			require.NoError(t, o.Close(context.Background()))
			calls := r.snapshot()
			assert.Len(t, calls, tt.wantCalls+1)
		})
	}
}

func TestGroupPacing(t *testing.T) {
	const window = 300 * time.Millisecond
	o := New(Options{Limits: Limits{GroupPerMinute: 2, GroupWindow: window}})
	r := newRecorder()
	for _, n := range []string{"1", "2", "3"} {
		require.NoError(t, o.Enqueue(r.op(-5, "", n)))
	}
	require.NoError(t, o.Enqueue(r.op(7, "", "private")))
	r.waitDone(t, "private", "1", "2", "3")
	require.NoError(t, o.Close(context.Background()))
	r.mu.Lock()
	defer r.mu.Unlock()
	var first, third time.Time
	for i, c := range r.calls {
		switch c {
		case "1":
			first = r.times[i]
		case "3":
			third = r.times[i]
		}
	}
	assert.GreaterOrEqual(t, third.Sub(first), window, "the third call into the group waits for the window")
}

func TestGlobalLimit(t *testing.T) {
	o := New(Options{Limits: Limits{PerSecond: 2}})
	r := newRecorder()
	for i, n := range []string{"a", "b", "c"} {
		require.NoError(t, o.Enqueue(r.op(int64(-10-i), "", n)))
	}
	for range 3 {
		select {
		case <-r.done:
		case <-time.After(10 * time.Second):
			t.Fatal("timed out")
		}
	}
	require.NoError(t, o.Close(context.Background()))
	r.mu.Lock()
	defer r.mu.Unlock()
	first, last := r.times[0], r.times[0]
	for _, ts := range r.times {
		if ts.Before(first) {
			first = ts
		}
		if ts.After(last) {
			last = ts
		}
	}
	assert.GreaterOrEqual(t, last.Sub(first), 900*time.Millisecond, "three calls at two a second span a second")
}

func TestCloseDrainsAndRefuses(t *testing.T) {
	o := New(Options{})
	r := newRecorder()
	for _, n := range []string{"a", "b"} {
		require.NoError(t, o.Enqueue(r.op(-1, "", n)))
	}
	require.NoError(t, o.Close(context.Background()))
	assert.Equal(t, []string{"a", "b"}, r.snapshot())
	assert.ErrorIs(t, o.Enqueue(r.op(-1, "", "late")), ErrClosed)
}

func TestCloseGivesUpAtDeadline(t *testing.T) {
	o := New(Options{})
	r := newRecorder()
	require.NoError(t, o.Enqueue(r.op(-1, "", "slow", &RetryAfterError{After: time.Hour})))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := o.Close(ctx)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, 1, o.Pending())
}

// blocked enqueues into chat an op that holds the chat's queue until the
// returned function is called, and waits until it runs.
func blocked(t *testing.T, o *Outbox, chat int64) (release func()) {
	t.Helper()
	started, done := make(chan struct{}), make(chan struct{})
	require.NoError(t, o.Enqueue(Op{Chat: chat, Do: func(context.Context) error {
		close(started)
		<-done
		return nil
	}}))
	<-started
	return func() { close(done) }
}

func TestRendersGoBeforeReplies(t *testing.T) {
	o := New(Options{})
	r := newRecorder()
	release := blocked(t, o, -1)
	for _, n := range []string{"reply1", "reply2"} {
		op := r.op(-1, "", n)
		op.Class = Say
		require.NoError(t, o.Enqueue(op))
	}
	require.NoError(t, o.Enqueue(r.op(-1, "table", "render")))
	release()
	r.waitDone(t, "render", "reply1", "reply2")
	require.NoError(t, o.Close(context.Background()))
	assert.Equal(t, []string{"render", "reply1", "reply2"}, r.snapshot())
}

// TestStaleOpsDroppedUncalled: an op that is stale when its turn comes is
// not called, and takes none of the group's pacing: the op after it goes
// at once. Staleness is asked when the op would go, not when it is queued.
func TestStaleOpsDroppedUncalled(t *testing.T) {
	o := New(Options{Limits: Limits{GroupPerMinute: 3, GroupWindow: time.Hour}})
	r := newRecorder()
	release := blocked(t, o, -1) // 1 of the 3 calls the window allows
	var mu sync.Mutex
	stale := false
	nudge := r.op(-1, "", "nudge")
	nudge.Class = Say
	nudge.Stale = func() bool {
		mu.Lock()
		defer mu.Unlock()
		return stale
	}
	require.NoError(t, o.Enqueue(nudge))
	reply := r.op(-1, "", "reply")
	reply.Class = Say
	require.NoError(t, o.Enqueue(reply))
	mu.Lock()
	stale = true // the turn passed while the nudge waited
	mu.Unlock()
	release()
	r.waitDone(t, "reply") // 2 of 3: it would wait an hour had the nudge been sent (a reply leaves the last to renders)
	require.NoError(t, o.Close(context.Background()))
	assert.Equal(t, []string{"reply"}, r.snapshot())
	assert.Zero(t, o.Pending())
}

func TestIdenticalRepliesCoalesced(t *testing.T) {
	o := New(Options{})
	r := newRecorder()
	release := blocked(t, o, -1)
	for _, n := range []string{"rules1", "rules2", "rules3"} {
		op := r.op(-1, "say:rules", n)
		op.Class = Say
		require.NoError(t, o.Enqueue(op))
	}
	other := r.op(-1, "say:help", "help")
	other.Class = Say
	require.NoError(t, o.Enqueue(other))
	release()
	r.waitDone(t, "rules3", "help")
	require.NoError(t, o.Close(context.Background()))
	assert.Equal(t, []string{"rules3", "help"}, r.snapshot(), "one rules reply, in the place of the first")
}

func TestQueueBounded(t *testing.T) {
	o := New(Options{MaxSays: 2, MaxOps: 5}) // the op in flight counts
	r := newRecorder()
	release := blocked(t, o, -1)
	var says []error
	for range 4 {
		op := r.op(-1, "", "say")
		op.Class = Say
		says = append(says, o.Enqueue(op))
	}
	assert.NoError(t, says[0])
	assert.NoError(t, says[1])
	assert.ErrorIs(t, says[2], ErrFull, "a third reply waiting is dropped")
	assert.ErrorIs(t, says[3], ErrFull)
	require.NoError(t, o.Enqueue(r.op(-1, "t1", "render1")), "renders still fit")
	require.NoError(t, o.Enqueue(r.op(-1, "t2", "render2")))
	assert.ErrorIs(t, o.Enqueue(r.op(-1, "t3", "render3")), ErrFull, "past MaxOps nothing fits")
	require.NoError(t, o.Enqueue(r.op(-1, "t1", "render1b")), "a render replacing a waiting one always fits")
	release()
	r.waitDone(t, "render1b", "render2")
	require.NoError(t, o.Close(context.Background()))
	assert.Equal(t, 0, o.Pending())
}

func TestChatsTakeTurns(t *testing.T) {
	o := New(Options{MaxInFlight: 1})
	r := newRecorder()
	release := blocked(t, o, 1)
	for _, n := range []string{"a1", "a2", "a3"} {
		require.NoError(t, o.Enqueue(r.op(1, "", n)))
	}
	require.NoError(t, o.Enqueue(r.op(2, "", "b1")))
	require.NoError(t, o.Enqueue(r.op(2, "", "b2")))
	release()
	r.waitDone(t, "a1", "a2", "a3", "b1", "b2")
	require.NoError(t, o.Close(context.Background()))
	assert.Equal(t, []string{"b1", "a1", "b2", "a2", "a3"}, r.snapshot(),
		"the chat that waited goes first, then they alternate")
}

func TestPanicGivesTheOpUp(t *testing.T) {
	o := New(Options{Logger: discard()})
	r := newRecorder()
	require.NoError(t, o.Enqueue(Op{Chat: -1, Do: func(context.Context) error { panic("boom") }}))
	require.NoError(t, o.Enqueue(r.op(-1, "", "next")))
	r.waitDone(t, "next")
	require.NoError(t, o.Close(context.Background()))
	assert.Equal(t, 0, o.Pending())
}

func TestIdleChatsForgotten(t *testing.T) {
	tests := []struct {
		name   string
		limits Limits
		chat   int64
		kept   bool
	}{
		{"no limits", Limits{}, -1, false},
		{"private chat paced by interval only", Limits{ChatInterval: time.Hour}, 5, true},
		{"group within its pacing window", Limits{GroupPerMinute: 5, GroupWindow: time.Hour}, -1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := New(Options{Limits: tt.limits})
			r := newRecorder()
			require.NoError(t, o.Enqueue(r.op(tt.chat, "", "call")))
			r.waitDone(t, "call")
			require.NoError(t, o.Close(context.Background()))
			assert.Equal(t, tt.kept, o.Chats() == 1, "a chat's queue is kept only while its pacing is in force")
		})
	}
}

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// notice is r.op as a Notice.
func (r *recorder) notice(chat int64, name string) Op {
	op := r.op(chat, "", name)
	op.Class = Notice
	return op
}

// TestNoticesYieldToEveryChat: a chat holding only notices is called
// after every chat with a render or a reply ready, whichever came first; a
// chat that gets a reply behind its notice takes its turn with the others.
func TestNoticesYieldToEveryChat(t *testing.T) {
	o := New(Options{MaxInFlight: 1})
	r := newRecorder()
	release := blocked(t, o, 100)
	require.NoError(t, o.Enqueue(r.notice(5, "notice5")))
	require.NoError(t, o.Enqueue(r.notice(6, "notice6")))
	require.NoError(t, o.Enqueue(r.op(-1, "table", "render")))
	reply := r.op(6, "", "reply6")
	reply.Class = Say
	require.NoError(t, o.Enqueue(reply))
	release()
	r.waitDone(t, "notice5", "notice6", "render", "reply6")
	require.NoError(t, o.Close(context.Background()))
	assert.Equal(t, []string{"render", "reply6", "notice5", "notice6"}, r.snapshot())
	assert.Zero(t, o.Pending())
}

// TestNoticesBounded: at most MaxNotices notices wait over all chats.
func TestNoticesBounded(t *testing.T) {
	o := New(Options{MaxNotices: 2, MaxInFlight: 1})
	r := newRecorder()
	release := blocked(t, o, 100)
	require.NoError(t, o.Enqueue(r.notice(1, "a")))
	require.NoError(t, o.Enqueue(r.notice(2, "b")))
	assert.ErrorIs(t, o.Enqueue(r.notice(3, "c")), ErrFull)
	require.NoError(t, o.Enqueue(r.op(3, "", "render")), "other ops still fit")
	release()
	r.waitDone(t, "a", "b", "render")
	require.NoError(t, o.Enqueue(r.notice(3, "d")), "sent notices leave room")
	r.waitDone(t, "d")
	require.NoError(t, o.Close(context.Background()))
	assert.Zero(t, o.Pending())
}
