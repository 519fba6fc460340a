package bot

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSerialOrdersEachChatAndBoundsWorkers(t *testing.T) {
	const limit, chats, each = 4, 50, 20
	s := newSerial(limit)
	var running, most atomic.Int32
	var mu sync.Mutex
	got := map[int64][]int{}
	for i := range each {
		for c := range int64(chats) {
			s.Go(c, func() {
				n := running.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				mu.Lock()
				got[c] = append(got[c], i)
				mu.Unlock()
				running.Add(-1)
			})
		}
	}
	s.Wait()
	assert.LessOrEqual(t, most.Load(), int32(limit), "never more functions at once than the limit")
	for c := range int64(chats) {
		require.Len(t, got[c], each)
		for i, v := range got[c] {
			assert.Equal(t, i, v, "chat %d runs its functions in order", c)
		}
	}
	assert.Zero(t, s.len(), "an idle serial keeps no chat")
}

func TestSerialChatsTakeTurns(t *testing.T) {
	s := newSerial(1)
	release := make(chan struct{})
	started := make(chan struct{})
	var order []string
	s.Go(1, func() { close(started); <-release })
	<-started
	for _, n := range []string{"a1", "a2"} {
		s.Go(1, func() { order = append(order, n) })
	}
	for _, n := range []string{"b1", "b2"} {
		s.Go(2, func() { order = append(order, n) })
	}
	close(release)
	s.Wait()
	assert.Equal(t, []string{"b1", "a1", "b2", "a2"}, order, "a busy chat does not hold up the others")
}

// countedFailures is a Metrics that counts failed updates by kind.
type countedFailures struct {
	noMetrics
	mu     sync.Mutex
	failed map[string]int
}

func (m *countedFailures) UpdateFailed(kind string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failed[kind]++
}

func TestOnChatRecoversAPanic(t *testing.T) {
	var logged strings.Builder
	var logMu sync.Mutex
	m := &countedFailures{failed: map[string]int{}}
	b := &Bot{chats: newSerial(2), metrics: m,
		log: slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logged}, nil))}
	confirmed := make(chan struct{})
	b.onChat(-5, "message", func(context.Context) {
		defer close(confirmed) // as dispatch's done: it still runs
		var m map[string]int
		m["boom"]++ // a nil map: panics
	}, "update_id", 77)
	var next atomic.Bool
	b.onChat(-5, "message", func(context.Context) { next.Store(true) }, "update_id", 78)
	<-confirmed
	b.chats.Wait()
	assert.True(t, next.Load(), "the chat goes on with its next update")
	assert.Equal(t, 1, m.failed["message"])
	logMu.Lock()
	defer logMu.Unlock()
	assert.Contains(t, logged.String(), "update_id=77")
	assert.Contains(t, logged.String(), "assignment to entry in nil map")
	assert.Contains(t, logged.String(), "serial_test.go", "the stack is logged")
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestSerialGoWhileWaiting: Go may be called while another goroutine waits
// in Wait (as a render sent during Close queues work on its chat), and Wait
// returns only once nothing is queued or running.
func TestSerialGoWhileWaiting(t *testing.T) {
	s := newSerial(4)
	for i := range 200 {
		var ran atomic.Int32
		s.Go(1, func() { ran.Add(1) })
		done := make(chan struct{})
		go func() {
			s.Go(int64(i%3+2), func() { ran.Add(1) })
			close(done)
		}()
		s.Wait()
		<-done
		s.Wait()
		require.Equal(t, int32(2), ran.Load(), "round %d", i)
	}
	assert.Zero(t, s.len(), "nothing left queued")
}
