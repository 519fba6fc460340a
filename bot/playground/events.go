package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// Intervals of an event stream.
const (
	// heartbeat keeps idle connections (and proxies) from timing out.
	heartbeat = 15 * time.Second
	// dropCheck is how often a quiet stream looks for dropped events.
	dropCheck = time.Second
	// retryMillis is how soon the browser reconnects a broken stream.
	retryMillis = 1000
)

// streamedKinds are the events the page uses; the others (webhook
// deliveries, presses) are not sent.
var streamedKinds = map[telegramtest.EventKind]bool{
	telegramtest.EventMessageSent:      true,
	telegramtest.EventMessageEdited:    true,
	telegramtest.EventMessageDeleted:   true,
	telegramtest.EventCallbackAnswered: true,
	telegramtest.EventMemberChanged:    true,
	telegramtest.EventChatMigrated:     true,
	telegramtest.EventCommandsChanged:  true,
}

// getEvents streams the world's changes as server-sent events.
func (p *Playground) getEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming is not supported by this connection")
		return
	}
	// Subscribe before "ready": whatever changes after the page loads its
	// state is in the subscription.
	sub := p.srv.Subscribe(p.eventBuffer)
	defer sub.Close()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ctx, cancel := p.untilQuit(r.Context())
	defer cancel()
	ticker := time.NewTicker(dropCheck)
	defer ticker.Stop()
	err := stream(ctx, flushWriter{w, flusher}, sub.C, sub.Dropped, ticker.C)
	if err != nil && ctx.Err() == nil {
		p.log.Debug("event stream ended", "err", err)
	}
}

// flushWriter flushes after every write, so that each event leaves at once.
type flushWriter struct {
	w io.Writer
	f http.Flusher
}

func (fw flushWriter) Write(b []byte) (int, error) {
	n, err := fw.w.Write(b)
	fw.f.Flush()
	return n, err
}

// stream writes the event stream to w until ctx ends or events closes:
// "ready" first; every event the page uses, with its Seq as the id; a
// "gap" event as soon as dropped() grows (checked after each event and at
// each tick), after which the page reloads its state; and a comment as a
// heartbeat when the stream has been quiet.
func stream(ctx context.Context, w io.Writer, events <-chan telegramtest.Event, dropped func() uint64, tick <-chan time.Time) error {
	if _, err := fmt.Fprintf(w, "retry: %d\nevent: ready\ndata: {}\n\n", retryMillis); err != nil {
		return err
	}
	seen := dropped()
	last := time.Now()
	checkGap := func() error {
		n := dropped()
		if n == seen {
			return nil
		}
		seen = n
		last = time.Now()
		_, err := fmt.Fprintf(w, "event: gap\ndata: {\"dropped\":%d}\n\n", n)
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-events:
			if !ok {
				return nil
			}
			if err := checkGap(); err != nil {
				return err
			}
			if !streamedKinds[e.Kind] {
				continue
			}
			data, err := json.Marshal(e)
			if err != nil {
				return fmt.Errorf("encoding event %d: %w", e.Seq, err)
			}
			last = time.Now()
			if _, err := fmt.Fprintf(w, "id: %d\ndata: %s\n\n", e.Seq, data); err != nil {
				return err
			}
		case <-tick:
			if err := checkGap(); err != nil {
				return err
			}
			if time.Since(last) >= heartbeat {
				last = time.Now()
				if _, err := io.WriteString(w, ": heartbeat\n\n"); err != nil {
					return err
				}
			}
		}
	}
}
