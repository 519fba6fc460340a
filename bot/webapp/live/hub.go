// Package live pushes each new version of a table to everyone who has it
// open in the Mini App, as Server-Sent Events
// (https://html.spec.whatwg.org/multipage/server-sent-events.html).
//
// A Hub keeps, for each table, its viewers: one stream per (user, table),
// a newer stream of the same user replacing the older. Each stream is a
// one-slot mailbox: Changed only notes in it that the table has a newer
// version and wakes the stream's own goroutine (the HTTP handler's), which
// then asks Views for the viewer's view as it is now and writes it. So a
// newer version replaces one still waiting, a slow viewer delays nobody
// (neither the table nor another viewer), and the newest version always
// arrives. The Hub runs no goroutine of its own.
//
// The stream's wire format:
//
//	retry: <Limits.Reconnect in ms>      once, first
//	id: <version>                        each view: the table's version,
//	data: <the viewer's view>            the whole view, one data line per line
//	: heartbeat                          a comment after a quiet Heartbeat
//	event: replaced                      last, when a newer stream of the
//	data: {}                             same user and table took its place
//
// A reconnecting client sends the last id it got as Last-Event-ID (the
// browser's EventSource does), and gets the current view at once only when
// it is newer than that.
//
// The Hub keeps nothing: after a restart (or kill -9) clients reconnect
// with their Last-Event-ID and get the view the store has.
//
// The package checks nobody: its caller has already validated the user
// (bot/webapp/initdata) and the table (bot/webapp/tableref) and hands them
// to Serve.
package live

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/storage"
)

// Viewer is who watches a stream, as the caller checked them.
type Viewer struct {
	// User is the viewer's Telegram user id (game.UserID's value): one
	// stream per User and table.
	User int64
	// Lang is the viewer's language code as Telegram gave it, for Views.
	Lang string
}

// Views makes a table's view for one viewer; the Hub's caller implements
// it over the store.
type Views interface {
	// View returns the table's current version and the viewer's whole
	// view of it (the event's data, e.g. JSON on one line; not empty).
	// Versions of a table must grow with every change a viewer must see.
	// It is called by the viewer's stream, never by Changed: concurrently
	// for different viewers, perhaps several times for one version. ctx
	// ends with the stream.
	View(ctx context.Context, key storage.TableKey, v Viewer) (version uint64, body []byte, err error)
}

// ViewFunc is a function as Views.
type ViewFunc func(ctx context.Context, key storage.TableKey, v Viewer) (uint64, []byte, error)

// View calls f.
func (f ViewFunc) View(ctx context.Context, key storage.TableKey, v Viewer) (uint64, []byte, error) {
	return f(ctx, key, v)
}

// Limits bound a Hub; a field left zero (or negative) takes its default.
type Limits struct {
	// MaxViewers bounds the streams of all tables (default 10,000).
	MaxViewers int
	// MaxPerTable bounds the streams of one table (default 50).
	MaxPerTable int
	// WriteTimeout is how long one write to a viewer may take before the
	// viewer is dropped (default 10 s). It is the connection's deadline,
	// so it runs on the wall clock, not on the Hub's clock.
	WriteTimeout time.Duration
	// Heartbeat is how long a stream stays quiet before it sends a
	// comment line, which keeps proxies from closing it (default 15 s; on
	// the Hub's clock).
	Heartbeat time.Duration
	// RetryAfter is what a refused stream is told to wait (Retry-After,
	// whole seconds; default 5 s).
	RetryAfter time.Duration
	// Reconnect is how soon a client reconnects a broken stream (the
	// stream's retry field; default 1 s).
	Reconnect time.Duration
}

// withDefaults returns l with every unset field at its default.
func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	dur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxViewers, 10_000)
	def(&l.MaxPerTable, 50)
	dur(&l.WriteTimeout, 10*time.Second)
	dur(&l.Heartbeat, 15*time.Second)
	dur(&l.RetryAfter, 5*time.Second)
	dur(&l.Reconnect, time.Second)
	return l
}

// ErrNoTable is what Views returns (wrapped) for a key that names no
// table: Serve answers it 404 {"error":"no_table"}, not 500.
var ErrNoTable = errors.New("no such table")

// Why a stream is refused or ended by the Hub.
var (
	errFull     = errors.New("too many viewers")
	errClosed   = errors.New("the live push is closed")
	errReplaced = errors.New("replaced by a newer stream of the same viewer")
	errMoved    = errors.New("the table's chat moved")
)

// Hub is the live push: the tables' open streams. Its methods are safe
// for concurrent use.
type Hub struct {
	views Views
	clock clock.Clock
	log   *slog.Logger
	lim   Limits

	mu     sync.Mutex
	tables map[storage.TableKey]map[int64]*stream
	count  int // streams in tables
	closed bool
	// running counts the Serve calls past join, for Close to wait on.
	running sync.WaitGroup
}

// stream is one viewer's open stream: its mailbox.
type stream struct {
	key    storage.TableKey
	viewer Viewer
	// end ends the stream's context with the cause (errReplaced,
	// errClosed).
	end context.CancelCauseFunc
	// wake is the mailbox's one slot: full when the stream should make
	// its view again.
	wake chan struct{}
	// want is the newest version Changed announced; written with Hub.mu
	// held.
	want atomic.Uint64
	// again is set by Rearmed: the view of a version already sent
	// changed (its turn's clock started again), so it is sent again.
	again atomic.Bool
}

// New returns a Hub that makes views with views, beats its heartbeats on
// c and logs to log (nil: nothing is logged).
func New(views Views, c clock.Clock, log *slog.Logger, lim Limits) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hub{
		views:  views,
		clock:  c,
		log:    log,
		lim:    lim.withDefaults(),
		tables: make(map[storage.TableKey]map[int64]*stream),
	}
}

// Changed tells the table's viewers that it has the given version: each
// stream that has not been told of it (or of a newer one) makes its view
// again. It never waits on a viewer, only on the Hub's lock for as long as
// it takes to fill the table's mailboxes; calling it twice, or with an
// older version, does no harm. A table nobody watches costs a map lookup.
func (h *Hub) Changed(key storage.TableKey, version uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.tables[key] {
		if version <= s.want.Load() {
			continue
		}
		s.want.Store(version)
		select {
		case s.wake <- struct{}{}:
		default: // a wake-up is waiting already: it will read this version
		}
	}
}

// Rearmed tells the table's viewers that its view at the given version
// changed without a new version (a turn's clock started again when the
// chat showed the turn): each stream that has sent that version, or is
// about to, makes its view again and sends it, with the same id. Like
// Changed it never waits on a viewer; calling it twice may send the view
// twice, which a viewer takes as the same version drawn again.
func (h *Hub) Rearmed(key storage.TableKey, version uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.tables[key] {
		if version < s.want.Load() {
			continue // a newer version is on its way, with the new clock
		}
		s.want.Store(version)
		s.again.Store(true)
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// Moved ends the streams of every table of chat from, a group that became
// the supergroup to, whose tables are kept under to's id now: their pages
// reconnect, as after any stream's end, with the version they have, and
// the server names the table by where it is kept now (webapp.Members).
// A stream of from opened later is not ended; calling it again ends
// nothing more. It never waits on a viewer.
func (h *Hub) Moved(from, to int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for key, m := range h.tables {
		if key.Chat != from {
			continue
		}
		for _, s := range m {
			s.end(errMoved)
		}
	}
}

// Viewers returns how many streams are open, over all tables.
func (h *Hub) Viewers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.count
}

// Watching returns how many streams the table has open.
func (h *Hub) Watching(key storage.TableKey) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.tables[key])
}

// Close ends every stream (their clients see the stream end and may
// reconnect, to be refused), refuses every new one, and returns once every
// stream's Serve has returned: at most a write's WriteTimeout, or a view
// being made, whose context Close ends. Call it before the HTTP server's
// Shutdown, which waits for the streams. Calling it again does nothing
// more.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	var all []*stream
	for _, m := range h.tables {
		for _, s := range m {
			all = append(all, s)
		}
	}
	h.mu.Unlock()
	for _, s := range all {
		s.end(errClosed)
	}
	h.running.Wait()
}

// join opens a stream for v on key, whose end cancels its context:
// errClosed after Close; errFull when the table or the Hub holds as many
// streams as it may, unless the viewer has one there already, which the
// new stream replaces (ended with errReplaced).
func (h *Hub) join(key storage.TableKey, v Viewer, end context.CancelCauseFunc) (*stream, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errClosed
	}
	m := h.tables[key]
	old := m[v.User]
	if old == nil && (h.count >= h.lim.MaxViewers || len(m) >= h.lim.MaxPerTable) {
		return nil, errFull
	}
	s := &stream{key: key, viewer: v, end: end, wake: make(chan struct{}, 1)}
	if m == nil {
		m = make(map[int64]*stream)
		h.tables[key] = m
	}
	m[v.User] = s
	if old != nil {
		old.end(errReplaced)
	} else {
		h.count++
	}
	h.running.Add(1)
	return s, nil
}

// leave removes s, unless a newer stream has taken its place.
func (h *Hub) leave(s *stream) {
	defer h.running.Done()
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.tables[s.key]
	if m[s.viewer.User] != s {
		return
	}
	delete(m, s.viewer.User)
	h.count--
	if len(m) == 0 {
		delete(h.tables, s.key)
	}
}
