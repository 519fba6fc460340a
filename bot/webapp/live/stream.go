package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/storage"
)

// Serve streams the table key to v, as the package doc says, until the
// client goes, a newer stream of the same user and table replaces it, the
// Hub closes, a view cannot be made, or a write takes longer than
// WriteTimeout; the stream is then gone from the Hub.
//
// It refuses, changing nothing (no stream opened, none replaced), with
// 400 when Last-Event-ID is not a version (decimal digits); 503 and
// Retry-After past MaxPerTable or MaxViewers (a viewer with a stream on
// the table already is never refused: the new one replaces it) and after
// Close; 500 when the ResponseWriter cannot set a write deadline (a
// wrapper without Unwrap). When the first view cannot be made it answers
// 404 {"error":"no_table"} when Views says ErrNoTable, else 500, the
// stream it opened (and any it replaced) gone. Refusals are JSON,
// {"error":"..."}.
func (h *Hub) Serve(w http.ResponseWriter, r *http.Request, key storage.TableKey, v Viewer) {
	last, err := lastEventID(r.Header.Get("Last-Event-ID"))
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	rc := http.NewResponseController(w)
	if err := rc.SetWriteDeadline(time.Time{}); err != nil {
		writeError(w, http.StatusInternalServerError, "this connection cannot stream")
		return
	}
	ctx, end := context.WithCancelCause(r.Context())
	defer end(nil)
	s, err := h.join(key, v, end)
	if err != nil {
		w.Header().Set("Retry-After", strconv.Itoa(int((h.lim.RetryAfter+time.Second-1)/time.Second)))
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	defer h.leave(s)
	// What net/http writes once Serve returns (the stream's last chunk)
	// gets a deadline of its own: the last write's may have passed.
	defer func() { _ = rc.SetWriteDeadline(time.Now().Add(h.lim.WriteTimeout)) }()
	// Armed before the first write: once a client has read anything, the
	// heartbeat's timer is set.
	beat := newBeat(h.clock, h.lim.Heartbeat)
	defer beat.stop()
	version, body, err := h.views.View(ctx, key, v)
	if err != nil {
		if errors.Is(err, ErrNoTable) {
			writeError(w, http.StatusNotFound, "no_table")
			return
		}
		if ctx.Err() == nil { // not the client gone, nor replaced, nor Close
			h.log.Warn("live: the first view failed", "table", key, "user", v.User, "err", err)
		}
		writeError(w, http.StatusInternalServerError, "the table cannot be shown")
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	out := &eventWriter{w: w, rc: rc, timeout: h.lim.WriteTimeout}
	out.buf = strconv.AppendInt(append(out.buf, "retry: "...), h.lim.Reconnect.Milliseconds(), 10)
	out.buf = append(out.buf, "\n\n"...)
	sent := last
	if version > last {
		out.buf = appendEvent(out.buf, version, body)
		sent = version
	}
	if err := out.flush(); err != nil {
		h.log.Debug("live: stream dropped", "table", key, "user", v.User, "err", err)
		return
	}
	if err := h.run(ctx, s, out, beat, sent); err != nil {
		h.log.Debug("live: stream dropped", "table", key, "user", v.User, "err", err)
	}
}

// run writes the stream's events until its context ends (nil then) or a
// view or a write fails (that error). sent is the version the client has.
func (h *Hub) run(ctx context.Context, s *stream, out *eventWriter, beat *beat, sent uint64) error {
	quiet := true // nothing written since the last beat
	for {
		select {
		case <-ctx.Done():
			if errors.Is(context.Cause(ctx), errReplaced) {
				out.buf = append(out.buf, "event: replaced\ndata: {}\n\n"...)
				return out.flush()
			}
			return nil
		case <-s.wake:
			version, body, err := h.views.View(ctx, s.key, s.viewer)
			if err != nil {
				if ctx.Err() != nil {
					continue // the loop ends at ctx.Done
				}
				return fmt.Errorf("making the view: %w", err)
			}
			again := s.again.Swap(false)
			if version < sent || version == sent && !again {
				continue
			}
			out.buf = appendEvent(out.buf, version, body)
			if err := out.flush(); err != nil {
				return err
			}
			sent = version
			quiet = false
		case <-beat.c:
			beat.arm()
			if quiet {
				out.buf = append(out.buf, ": heartbeat\n\n"...)
				if err := out.flush(); err != nil {
					return err
				}
			}
			quiet = true
		}
	}
}

// beat ticks on the Hub's clock, once per interval: c holds a tick until
// read, and arm sets the next one.
type beat struct {
	clock clock.Clock
	every time.Duration
	c     chan struct{}
	timer clock.Timer
}

func newBeat(c clock.Clock, every time.Duration) *beat {
	b := &beat{clock: c, every: every, c: make(chan struct{}, 1)}
	b.arm()
	return b
}

// arm sets the next tick, one interval from now.
func (b *beat) arm() {
	b.timer = b.clock.AfterFunc(b.every, func() {
		select {
		case b.c <- struct{}{}:
		default:
		}
	})
}

// stop stops the tick that is set.
func (b *beat) stop() { b.timer.Stop() }

// eventWriter writes a stream's events: what is in buf, at once, within
// the write deadline.
type eventWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	buf     []byte
}

// flush writes buf and flushes it to the client, with a deadline of
// timeout from now (the wall clock's: it is the connection's), and empties
// buf. The deadline stays set: a deadline bounds only writes, and each
// write sets its own (clearing it too would cost a fan-out some 3%).
func (e *eventWriter) flush() error {
	defer func() { e.buf = e.buf[:0] }()
	if err := e.rc.SetWriteDeadline(time.Now().Add(e.timeout)); err != nil {
		return err
	}
	if _, err := e.w.Write(e.buf); err != nil {
		return err
	}
	return e.rc.Flush()
}

// appendEvent appends the event of a view to b: its id, and the body as
// data lines, one per line of it (CR LF, CR and LF each end a line).
func appendEvent(b []byte, version uint64, body []byte) []byte {
	b = strconv.AppendUint(append(b, "id: "...), version, 10)
	b = append(b, '\n')
	for {
		b = append(b, "data: "...)
		i := indexLineEnd(body)
		if i < 0 {
			b = append(append(b, body...), '\n', '\n')
			return b
		}
		b = append(append(b, body[:i]...), '\n')
		if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
			i++
		}
		body = body[i+1:]
	}
}

// indexLineEnd returns the index of the first CR or LF in b, -1 if none.
func indexLineEnd(b []byte) int {
	for i, c := range b {
		if c == '\r' || c == '\n' {
			return i
		}
	}
	return -1
}

// lastEventID parses a Last-Event-ID header: the version the client has,
// 0 when it sent none.
func lastEventID(s string) (uint64, error) {
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseUint(s, 10, 64) // digits alone: no sign, no prefix, no space
	if err != nil {
		return 0, errors.New("Last-Event-ID is not a version")
	}
	return v, nil
}

// writeError answers {"error":msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
