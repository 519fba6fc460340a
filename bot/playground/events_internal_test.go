package playground

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// lines is an io.Writer that hands what is written to the test, write by
// write.
type lines struct {
	mu     sync.Mutex
	writes []string
	read   int
	wrote  chan struct{}
}

func newLines() *lines { return &lines{wrote: make(chan struct{}, 64)} }

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.writes = append(l.writes, string(p))
	l.mu.Unlock()
	l.wrote <- struct{}{}
	return len(p), nil
}

// next waits for the next write and returns it.
func (l *lines) next(t *testing.T) string {
	t.Helper()
	select {
	case <-l.wrote:
	case <-time.After(5 * time.Second):
		t.Fatal("nothing written")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.read++
	return l.writes[l.read-1]
}

func TestStreamReportsGaps(t *testing.T) {
	events := make(chan telegramtest.Event)
	tick := make(chan time.Time)
	var dropped atomic.Uint64
	w := newLines()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- stream(ctx, w, events, dropped.Load, tick) }()

	assert.Equal(t, "retry: 1000\nevent: ready\ndata: {}\n\n", w.next(t))

	msg := telegramtest.ChatMessage{Message: telegramtest.Message{MessageID: 3, Text: "hi"}}
	events <- telegramtest.Event{Seq: 5, Kind: telegramtest.EventMessageSent, ChatID: -1, MessageID: 3, Message: &msg}
	out := w.next(t)
	require.True(t, strings.HasPrefix(out, "id: 5\ndata: {"), out)
	var ev telegramtest.Event
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(out, "id: 5\ndata: "), "\n\n")), &ev))
	assert.Equal(t, "hi", ev.Message.Text)

	// Events the page does not use are not sent.
	events <- telegramtest.Event{Seq: 6, Kind: telegramtest.EventWebhookDelivery}
	// Dropped events are reported before the next one...
	dropped.Store(2)
	events <- telegramtest.Event{Seq: 9, Kind: telegramtest.EventMessageDeleted, ChatID: -1, MessageID: 3}
	assert.Equal(t, "event: gap\ndata: {\"dropped\":2}\n\n", w.next(t))
	assert.True(t, strings.HasPrefix(w.next(t), "id: 9\n"))
	// ... or at the next tick when none comes.
	dropped.Store(3)
	tick <- time.Now()
	assert.Equal(t, "event: gap\ndata: {\"dropped\":3}\n\n", w.next(t))
	// A quiet tick with no drop writes nothing (the heartbeat is for long silences).
	tick <- time.Now()

	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)
}

func TestStreamEndsWithTheSubscription(t *testing.T) {
	events := make(chan telegramtest.Event)
	close(events)
	err := stream(context.Background(), io.Discard, events, func() uint64 { return 0 }, nil)
	assert.NoError(t, err)
}
