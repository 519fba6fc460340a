package bot

import (
	"context"
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

func TestInFlightWaitIdle(t *testing.T) {
	w := newInFlight()
	done, ok := w.take(1)
	require.True(t, ok)
	idle := make(chan struct{})
	go func() {
		w.waitIdle(context.Background(), time.Minute)
		close(idle)
	}()
	select {
	case <-idle:
		t.Fatal("waitIdle returned while an update was in hand")
	case <-time.After(50 * time.Millisecond): // waitIdle is given a chance to return wrongly
	}
	done()
	select {
	case <-idle:
	case <-time.After(10 * time.Second):
		t.Fatal("waitIdle did not return once the update was handled")
	}
}
