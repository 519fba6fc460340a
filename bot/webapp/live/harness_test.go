package live_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/webapp/live"
	"github.com/twentyone-bot/twentyone/storage"
)

// wait bounds every wait on a condition: generous, for the race detector
// on a busy machine; a passing test waits far less.
const wait = 15 * time.Second

// tables is the tests' store of views: each table's version, and a view
// per viewer that names its table, its viewer and its version (so a test
// sees whose view it got), padded by pad bytes.
type tables struct {
	mu       sync.Mutex
	versions map[storage.TableKey]uint64
	bodies   map[storage.TableKey]string // a table's view, instead of the made one
	pad      string
	fail     error // what View returns, when set
	made     int   // views made so far
}

func (tb *tables) View(_ context.Context, key storage.TableKey, v live.Viewer) (uint64, []byte, error) {
	tb.mu.Lock()
	ver, body, pad, fail := tb.versions[key], tb.bodies[key], tb.pad, tb.fail
	tb.made++
	tb.mu.Unlock()
	if fail != nil {
		return 0, nil, fail
	}
	if body != "" {
		return ver, []byte(body), nil
	}
	return ver, []byte(view(key.Chat, v.User, ver) + pad), nil
}

// view is the start of the view tables makes.
func view(chat, user int64, version uint64) string {
	return fmt.Sprintf(`{"chat":%d,"user":%d,"version":%d}`, chat, user, version)
}

// setPad sets how many bytes pad each view.
func (tb *tables) setPad(n int) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.pad = string(make([]byte, n))
}

// setBody makes body the table's view.
func (tb *tables) setBody(key storage.TableKey, body string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.bodies[key] = body
}

// setFail makes View fail with err.
func (tb *tables) setFail(err error) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.fail = err
}

// views returns how many views have been made.
func (tb *tables) views() int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.made
}

// set puts the table at version.
func (tb *tables) set(key storage.TableKey, version uint64) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.versions[key] = version
}

// bump moves the table to its next version and returns it.
func (tb *tables) bump(key storage.TableKey) uint64 {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.versions[key]++
	return tb.versions[key]
}

// harness is a Hub behind a real HTTP server, whose handler takes the
// table and the viewer from the query (?chat=&user=): the checks are the
// caller's, not the Hub's.
type harness struct {
	t      *testing.T
	hub    *live.Hub
	tables *tables
	clock  *clocktest.Clock
	srv    *httptest.Server
}

func newHarness(t *testing.T, lim live.Limits) *harness {
	t.Helper()
	tb := &tables{versions: map[storage.TableKey]uint64{}, bodies: map[storage.TableKey]string{}}
	c := clocktest.NewClock(time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC))
	hub := live.New(tb, c, nil, lim)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		chat, err1 := strconv.ParseInt(q.Get("chat"), 10, 64)
		user, err2 := strconv.ParseInt(q.Get("user"), 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		hub.Serve(w, r, key(chat), live.Viewer{User: user, Lang: "en"})
	}))
	h := &harness{t: t, hub: hub, tables: tb, clock: c, srv: srv}
	t.Cleanup(srv.Close) // after the Hub's Close: cleanups run last first
	t.Cleanup(func() { h.within("Close", hub.Close) })
	return h
}

func key(chat int64) storage.TableKey { return storage.TableKey{Chat: chat} }

// change moves the table to its next version, tells the Hub, and returns
// the version; the test fails if Changed waits (on a viewer).
func (h *harness) change(chat int64) uint64 {
	h.t.Helper()
	v := h.tables.bump(key(chat))
	h.within("Changed", func() { h.hub.Changed(key(chat), v) })
	return v
}

// within runs f, and fails the test if it has not returned in time.
func (h *harness) within(what string, f func()) {
	h.t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(wait):
		h.t.Fatalf("%s did not return in %v", what, wait)
	}
}

// refused requests a stream that must be refused, and returns the
// answer's status, Retry-After and body; the test fails if a stream
// opens instead.
func (h *harness) refused(chat, user int64, lastID string) (status int, retryAfter, body string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	resp := h.get(ctx, chat, user, lastID)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(h.t, err, "refused: the answer ends (%s)", resp.Status)
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(b)
}

// url is the stream's address for a viewer of a table.
func (h *harness) url(chat, user int64) string {
	return fmt.Sprintf("%s/stream?chat=%d&user=%d", h.srv.URL, chat, user)
}

// get requests a stream, sending lastID as Last-Event-ID when not empty;
// the caller reads or closes the body.
func (h *harness) get(ctx context.Context, chat, user int64, lastID string) *http.Response {
	h.t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.url(chat, user), nil)
	require.NoError(h.t, err)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := h.srv.Client().Do(req)
	require.NoError(h.t, err)
	return resp
}

// open opens a stream like a browser's EventSource would, and checks its
// start: 200, an event stream, and the retry field first.
func (h *harness) open(chat, user int64, lastID string) *client {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	resp := h.get(ctx, chat, user, lastID)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		cancel()
		h.t.Fatalf("stream of user %d on table %d: %s %s", user, chat, resp.Status, b)
	}
	require.Equal(h.t, "text/event-stream", resp.Header.Get("Content-Type"))
	c := &client{t: h.t, events: make(chan event, 64), done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(c.done)
		defer resp.Body.Close()
		readEvents(resp.Body, func(e event) bool { c.events <- e; return true })
	}()
	h.t.Cleanup(c.close)
	first := c.next()
	require.Equal(h.t, event{Retry: "1000"}, first, "the stream starts with its retry field")
	return c
}

// event is what an SSE client reads: a dispatched event (ID, Name, Data),
// a comment line, or the retry field.
type event struct {
	ID, Name, Data string
	Comment        string
	Retry          string
}

// readEvents parses an event stream as the HTML standard's EventSource
// does (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation),
// handing each event to emit, and also each comment and retry field, until
// r ends or emit returns false.
func readEvents(r io.Reader, emit func(event) bool) {
	br := bufio.NewReaderSize(r, 64<<10)
	var e event
	var data []string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return // a partial line is no event
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if line == "" {
			if data != nil {
				e.Data = strings.Join(data, "\n")
				if !emit(e) {
					return
				}
			}
			e, data = event{ID: e.ID}, nil // the id lasts until changed
			continue
		}
		if c, ok := strings.CutPrefix(line, ":"); ok {
			if !emit(event{Comment: strings.TrimPrefix(c, " ")}) {
				return
			}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			e.ID = value
		case "event":
			e.Name = value
		case "data":
			data = append(data, value)
		case "retry":
			if !emit(event{Retry: value}) {
				return
			}
		}
	}
}

// client is an open stream being read.
type client struct {
	t      *testing.T
	events chan event
	done   chan struct{} // closed when the stream has ended
	cancel context.CancelFunc
}

// next returns what the stream sends next; the test fails if nothing
// comes in time or the stream ends.
func (c *client) next() event {
	c.t.Helper()
	select {
	case e := <-c.events:
		return e
	case <-c.done:
		select {
		case e := <-c.events:
			return e
		default:
		}
		c.t.Fatalf("the stream ended")
	case <-time.After(wait):
		c.t.Fatalf("nothing came in %v", wait)
	}
	panic("unreachable")
}

// view returns the next view's version and data, failing on anything
// else (a comment, a named event).
func (c *client) view() (uint64, string) {
	c.t.Helper()
	e := c.next()
	require.Empty(c.t, e.Name, "a view, not %+v", e)
	require.Empty(c.t, e.Comment, "a view, not a comment")
	require.NotEmpty(c.t, e.Data, "a view, not %+v", e)
	v, err := strconv.ParseUint(e.ID, 10, 64)
	require.NoError(c.t, err, "the id is the version")
	return v, e.Data
}

// ended waits for the stream to end, and returns what came before the
// end that was not read yet.
func (c *client) ended() []event {
	c.t.Helper()
	select {
	case <-c.done:
	case <-time.After(wait):
		c.t.Fatalf("the stream did not end in %v", wait)
	}
	var rest []event
	for {
		select {
		case e := <-c.events:
			rest = append(rest, e)
		default:
			return rest
		}
	}
}

// close hangs up, as a closed page does.
func (c *client) close() {
	c.cancel()
	for {
		select {
		case <-c.events: // unblock the reader
		case <-c.done:
			return
		}
	}
}

// slowViewer is a stream's client that reads nothing until told to: a
// raw connection. (A small receive buffer would make it slower still to
// read at last: a window of a few segments waits on delayed acks.)
type slowViewer struct{ conn net.Conn }

// dialSlow requests the stream at rawURL and reads nothing of the answer.
func dialSlow(t *testing.T, rawURL string) *slowViewer {
	t.Helper()
	u, err := url.Parse(rawURL)
	require.NoError(t, err)
	conn, err := net.Dial("tcp", u.Host)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	_, err = fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", u.RequestURI(), u.Host)
	require.NoError(t, err)
	return &slowViewer{conn: conn}
}

// readUntil reads the stream at last, until the view of version last,
// and returns the versions of the views it got.
func (s *slowViewer) readUntil(t *testing.T, last uint64) []uint64 {
	t.Helper()
	require.NoError(t, s.conn.SetReadDeadline(time.Now().Add(wait)))
	resp, err := http.ReadResponse(bufio.NewReader(s.conn), nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var got []uint64
	readEvents(resp.Body, func(e event) bool {
		if e.Data == "" {
			return true
		}
		v, err := strconv.ParseUint(e.ID, 10, 64)
		require.NoError(t, err)
		got = append(got, v)
		return v < last
	})
	return got
}

// requireClosed reads what the server sent, and fails unless the server
// closed the connection.
func (s *slowViewer) requireClosed(t *testing.T) {
	t.Helper()
	require.NoError(t, s.conn.SetReadDeadline(time.Now().Add(wait)))
	_, err := io.Copy(io.Discard, s.conn)
	var ne net.Error
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "the server closed the connection: %v", err)
}
