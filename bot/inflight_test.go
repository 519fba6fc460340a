package bot

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInFlightConfirmsOnlyHandled checks the poll loop's bookkeeping: the
// offset never passes an update in hand, an update returned again is not
// taken twice, and the offset moves past an update once it and every
// earlier one were handled.
func TestInFlightConfirmsOnlyHandled(t *testing.T) {
	w := newInFlight()
	off, busy := w.offset()
	assert.Equal(t, 0, off)
	assert.Zero(t, busy)

	done10, ok := w.take(10)
	require.True(t, ok)
	done11, ok := w.take(11)
	require.True(t, ok)
	_, ok = w.take(10)
	assert.False(t, ok, "a redelivered update in hand is skipped")

	off, busy = w.offset()
	assert.Equal(t, 10, off, "nothing in hand is confirmed")
	assert.Equal(t, 2, busy)

	done11()
	off, _ = w.offset()
	assert.Equal(t, 10, off, "11 is handled, but 10 is not")
	_, ok = w.take(11)
	assert.False(t, ok, "a handled update returned again is skipped")

	done10()
	off, busy = w.offset()
	assert.Equal(t, 12, off)
	assert.Zero(t, busy)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	w.waitIdle(ctx, time.Minute) // nothing in hand: returns at once
	require.NoError(t, ctx.Err())
	w.wait()
}

// TestInFlightWaitIdle: waitIdle does not return while an update is in
// hand, though another was handled meanwhile (its wake-up comes), and
// returns once the last is handled. The test sees it wait, not guess: the
// wake-up is taken and the goroutine blocks in waitIdle's select again.
func TestInFlightWaitIdle(t *testing.T) {
	w := newInFlight()
	done1, ok := w.take(1)
	require.True(t, ok)
	done2, ok := w.take(2)
	require.True(t, ok)
	done2() // a wake-up waits in freed, with update 1 still in hand
	idle := make(chan struct{})
	go func() {
		w.waitIdle(context.Background(), time.Hour)
		close(idle)
	}()
	require.True(t, eventually(func() bool {
		select {
		case <-idle:
			return true // returned wrongly: the check below says so
		default:
		}
		return len(w.freed) == 0 && blockedInSelect("TestInFlightWaitIdle", "(*inFlight).waitIdle")
	}), "waitIdle takes the wake-up and waits again")
	select {
	case <-idle:
		t.Fatal("waitIdle returned while an update was in hand")
	default:
	}
	done1()
	require.True(t, eventually(func() bool {
		select {
		case <-idle:
			return true
		default:
			return false
		}
	}), "waitIdle returns once the update was handled")
}

// eventually reports whether cond holds within ten seconds, looking again
// until it does.
func eventually(cond func() bool) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); runtime.Gosched() {
		if cond() {
			return true
		}
	}
	return false
}

// blockedInSelect reports whether a goroutine started by the function
// named creator is blocked in a select in the function named in.
func blockedInSelect(creator, in string) bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		head, _, _ := strings.Cut(g, "\n")
		if strings.Contains(head, "[select") && strings.Contains(g, in) && strings.Contains(g, "created by") && strings.Contains(g, creator) {
			return true
		}
	}
	return false
}
