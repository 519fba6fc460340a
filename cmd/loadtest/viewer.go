package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// A viewer is one user with the table open in the Mini App: one stream,
// GET /api/stream with "Authorization: tma <initData>", read as the page
// reads it (sse.go), reconnected with Last-Event-ID when it breaks, after
// the stream's retry time (or a refusal's Retry-After).

// viewer is one user watching one table.
type viewer struct {
	app   *appLoad
	table *appTable
	index int // in table.viewers
	user  telegramtest.User
	auth  string // the Authorization header: "tma <initData>"

	mu      sync.Mutex
	version uint64 // the newest version received (the chat is signalled)
	data    []byte // its view (JSON)
}

// streamCounts are the streams' figures over all viewers.
type streamCounts struct {
	// events and bytes count the events received in the measured part and
	// the bytes they took (sseEvent.Size); wire every byte read then,
	// heartbeats and retry lines too.
	events, bytes, wire atomic.Int64
	// opened counts the streams that answered 200; refused those that did
	// not (by status in refusedBy), dropped those that broke before the
	// end of the run (replaced the ones ended by event "replaced").
	opened, refused, dropped, replaced atomic.Int64
	mu                                 sync.Mutex
	refusedBy                          map[int]int
	droppedBy                          map[string]int
}

func (s *streamCounts) refuse(status int) {
	s.refused.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refusedBy == nil {
		s.refusedBy = map[int]int{}
	}
	s.refusedBy[status]++
}

func (s *streamCounts) drop(why string) {
	s.dropped.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.droppedBy == nil {
		s.droppedBy = map[string]int{}
	}
	s.droppedBy[why]++
}

// latest returns the newest version the viewer received and its view.
func (v *viewer) latest() (uint64, []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.version, v.data
}

// run keeps the viewer's stream open until ctx ends.
func (v *viewer) run(ctx context.Context) {
	for ctx.Err() == nil {
		wait, err := v.stream(ctx)
		if ctx.Err() != nil || v.app.closing.Load() {
			return
		}
		var refused *streamRefused
		switch {
		case errors.As(err, &refused):
			v.app.streams.refuse(refused.status)
		case errors.Is(err, errReplaced):
			v.app.streams.replaced.Add(1)
		case err != nil:
			v.app.streams.drop(dropReason(err))
		default:
			v.app.streams.drop("closed by the server")
		}
		if !outbox.Sleep(ctx, wait) {
			return
		}
	}
}

// streamRefused is a stream answered with another status than 200.
type streamRefused struct {
	status int
	body   string
}

func (e *streamRefused) Error() string { return fmt.Sprintf("stream refused: %d %s", e.status, e.body) }

var errReplaced = errors.New("replaced by a newer stream of the same viewer")

// dropReason names a broken stream's error for the report.
func dropReason(err error) string {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "ended"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "error"
}

// stream reads one stream until it ends; it returns how long to wait
// before the next, and why it ended.
func (v *viewer) stream(ctx context.Context) (time.Duration, error) {
	retry := time.Second
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.app.base+"/api/stream", nil)
	if err != nil {
		return retry, err
	}
	req.Header.Set("Authorization", v.auth)
	req.Header.Set("Accept", "text/event-stream")
	if have, _ := v.latest(); have > 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatUint(have, 10))
	}
	resp, err := v.app.client.Do(req)
	if err != nil {
		return retry, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			retry = time.Duration(s) * time.Second
		}
		return retry, &streamRefused{status: resp.StatusCode, body: string(body)}
	}
	v.app.streams.opened.Add(1)
	r := newSSEReader(resp.Body)
	var counted int64
	defer func() { v.app.countWire(r.read - counted) }()
	for {
		ev, err := r.next()
		if r.retry > 0 {
			retry = r.retry
		}
		if err != nil {
			return retry, err
		}
		now := time.Now()
		if ev.Event == "replaced" {
			return retry, errReplaced
		}
		version, err := strconv.ParseUint(ev.ID, 10, 64)
		if err != nil {
			return retry, fmt.Errorf("an event's id %q is not a version", ev.ID)
		}
		if v.app.measuring() {
			v.app.streams.events.Add(1)
			v.app.streams.bytes.Add(int64(ev.Size))
		}
		v.app.countWire(r.read - counted)
		counted = r.read
		v.got(version, ev.Data, now)
	}
}

// got takes a view received at now.
func (v *viewer) got(version uint64, data []byte, now time.Time) {
	v.mu.Lock()
	if version <= v.version {
		v.mu.Unlock()
		return
	}
	v.version, v.data = version, data
	v.mu.Unlock()
	v.table.lat.viewerSaw(v.index, version, now)
	v.table.chat.signal()
}

// seenAt reports whether the viewer holds version or a newer one.
func (v *viewer) seenAt(version uint64) bool {
	have, _ := v.latest()
	return have >= version
}
