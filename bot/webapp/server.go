// Package webapp is the Mini App's HTTP server: the API the app's page
// talks to, on an address of its own (never the admin one). Its sub-
// packages each do one job it needs: initdata checks who asks, tableref
// names the table, live pushes each new version, view makes the JSON a
// viewer sees.
//
// Every request carries Telegram's initData in its Authorization header,
// "Authorization: tma <initData>" (never in a URL, so never in a log line
// or a proxy's cache). The server validates it (initdata.Secret.Validate,
// one HMAC, at most Options.MaxAge old), takes the user from it and the
// table from its start_param (tableref.Key.Parse), asks Members whether
// the user may see that table (its seated players and its chat's members:
// a reference is a link, and a link can be forwarded), and only then looks
// at the request.
//
// An app opened from a web_app button (a solo table's, in the bot's
// private chat) gets no start_param from Telegram: its page's URL carries
// the reference in its startapp query parameter instead, and the page
// sends it in the X-Table-Ref header (RefHeader), which the server reads
// only when initData has no start_param, and parses as strictly. It is as
// safe as start_param: that initData signs start_param does not make the
// reference trustworthy, since anyone can craft a direct link with any
// startapp and Telegram signs whatever it carries. What protects a table
// is the reference's own HMAC tag, made with the key only the store holds:
// a header, like a start_param, names a table only if the bot made its
// reference, and who the caller is still comes from the signed initData
// alone. The routes:
//
//	GET  /            the app's page, and its files at /<name>
//	                  (bot/webapp/web): no initData asked, nothing but code
//	GET  /api/table   the viewer's view of the table (Views), as JSON
//	POST /api/act     {"data":"<a button's callback data>"}: the action a
//	                  press of that button takes (Actor), answered
//	                  {"text":…,"alert":…,"applied":…,"version":…}
//	GET  /api/stream  the live push of the table's versions (Streams)
//
// The refusals, each JSON {"error":"<code>"}, and none changing anything:
//
//	401 missing     no initData (no Authorization header, or not "tma")
//	400 malformed   initData not as Telegram sends it
//	401 bad_hash    initData not signed with the bot's token: forged
//	401 expired     initData older than MaxAge (the page says "reopen")
//	404 no_table    start_param (or without one, X-Table-Ref) names no
//	                table: none, forged, unknown, or two headers
//	403 not_member  the user may not see the table (Members): not seated
//	                and not in its chat
//	404 not_found   no such route; 405 method: the route's other method
//	429 too_many    past the user's rate (Limits), with Retry-After
//	413 too_large   a body past MaxBody
//	415 json        an action not sent as application/json
//	400 bad_body    an action's body not one JSON object {"data": string}
//	400 bad_data    data that callback.Parse refuses
//	400 bad_action  data of no action of this table (with the answer)
//	409 (answer)    an action the table refused: drawn for another
//	                version (a replay, a double tap), not the viewer's
//	                turn, ...: {"applied":false,...} and why, as a press
//	                of the button would be told
//	503 busy        the table did not answer in time (Limits.ActTimeout),
//	                or whether the user is in the chat could not be told
//	                (Telegram did not answer), with Retry-After
//
// A replayed initData is its user for up to MaxAge: what it cannot do is
// act twice, as every action names the version it was drawn for, and the
// second is refused as outdated (409). Every response carries a strict
// Content Security Policy (CSP), X-Content-Type-Options: nosniff and
// Referrer-Policy: no-referrer, and the API's Cache-Control: no-store (the
// page's files: no-cache, with an ETag).
//
// The server reads nothing itself: it asks Views, Actor and Streams, which
// its caller implements over the store and the bot (an action runs on the
// table's chat's goroutine, as every press does).
package webapp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/live"
	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/storage"
)

// Bounds of a request.
const (
	// MaxBody is the largest request body read, in bytes.
	MaxBody = 4 << 10
	// MaxHeaderBytes is what the http.Server that serves the app should
	// set as its MaxHeaderBytes: initData (at most initdata.MaxLen) and
	// room for the rest.
	MaxHeaderBytes = 16 << 10
	// DefaultMaxAge is how old an initData may be by default: Telegram
	// does not refresh it while the app stays open, and a game may last
	// hours.
	DefaultMaxAge = 24 * time.Hour
)

// CSP is the Content Security Policy of every response: the page loads
// only its own files (no network, no inline script or style), connects
// only to its own server, and may be framed only by Telegram's web
// clients (TelegramFrames; Options.FramedBy names others).
const CSP = cspBase + TelegramFrames

// TelegramFrames are who may frame the page by default, the CSP's
// frame-ancestors: Telegram's web clients.
const TelegramFrames = "https://web.telegram.org https://*.telegram.org"

// cspBase is CSP up to its frame-ancestors' sources.
const cspBase = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; " +
	"frame-ancestors "

// Views makes a table's view for one viewer (live.Views is one: the same
// implementation serves the stream).
type Views interface {
	// View returns the table's version and the viewer's whole view of it
	// (JSON); an error wrapping ErrNoTable when key names no table.
	View(ctx context.Context, key storage.TableKey, v live.Viewer) (version uint64, body []byte, err error)
}

// Actor takes an action at a table: the one path of a press
// (input.Handler.Act), on the table's chat's goroutine.
type Actor interface {
	// Act applies data, a button's callback data as callback.Parse read
	// it, at the table key for user, whom initData vouches for. It
	// returns the answer with a nil error whenever the table answered the
	// action, applied or refused by its rules (Answer.Applied says which;
	// a refused action changed nothing); else an error wrapping
	// ErrBadAct (data names no action of this table; the answer says so),
	// ErrNoTable, or why no answer came (ctx's deadline: the action may
	// yet apply, as a press whose answer was lost).
	Act(ctx context.Context, key storage.TableKey, user initdata.User, data callback.Data) (Answer, error)
}

// Members tells who may see a table, act at it and hold its stream: its
// seated players and its chat's members (appgate.Members). Every request
// of the API is asked about, once its initData and reference are
// checked, and before anything else is read.
type Members interface {
	// Admit returns the key the table at key is kept under now (a group
	// that became a supergroup keeps its tables under the supergroup's
	// id; the reference names the group) when user may see it; an error
	// wrapping ErrNotMember when they may not, ErrNoTable when key names
	// no table, or another error when it could not tell now.
	Admit(ctx context.Context, key storage.TableKey, user int64) (storage.TableKey, error)
}

// Streams pushes a table's versions to a viewer (live.Hub is one).
type Streams interface {
	// Serve streams key to v until the client goes, answering the
	// request itself.
	Serve(w http.ResponseWriter, r *http.Request, key storage.TableKey, v live.Viewer)
}

// Answer is how the table answered an action, as a press is answered.
type Answer struct {
	// Text is what the actor is told ("" for nothing), as a toast, or as
	// an alert to dismiss when Alert.
	Text  string `json:"text"`
	Alert bool   `json:"alert"`
	// Applied: the action changed the table.
	Applied bool `json:"applied"`
	// Version is the table's version after the action, or as the refusal
	// found it (0 when it was not read).
	Version uint64 `json:"version"`
}

// The errors of Views and Actor the server answers in their own way.
var (
	// ErrNoTable: the reference names no table (404); it is the live
	// push's own (live.ErrNoTable), so that a stream is refused alike.
	ErrNoTable = live.ErrNoTable
	// ErrBadAct: the data names no action of the table (400).
	ErrBadAct = errors.New("webapp: not an action of this table")
	// ErrNotMember: the user may not see the table (403).
	ErrNotMember = errors.New("webapp: not seated at the table and not in its chat")
)

// Options are what a Server needs; New refuses them without Secret, Refs,
// Members, Views, Actor, Streams or Clock.
type Options struct {
	// Secret checks initData (initdata.NewSecret of the bot's token).
	Secret initdata.Secret
	// Refs checks the tables' references (tableref.KeyFrom of
	// storage.Store.AppKey).
	Refs tableref.Key
	// Members admits who may see a table.
	Members Members
	// Views, Actor and Streams serve the routes.
	Views   Views
	Actor   Actor
	Streams Streams
	// Clock is the bot's clock: initData's age and the rate limits.
	Clock clock.Clock
	// Log gets the failures of Views and Actor (nil: nothing is logged).
	Log *slog.Logger
	// MaxAge is how old an initData may be (0: DefaultMaxAge).
	MaxAge time.Duration
	// Limits bound each user's requests.
	Limits Limits
	// FramedBy are who may frame the page, the CSP's frame-ancestors
	// sources, in place of Telegram's web clients (empty: TelegramFrames):
	// the playground's, whose own page frames the app ("'self'"). New
	// refuses one that would end the directive (";", a line break).
	FramedBy string
}

// Server is the Mini App's HTTP handler. Its methods are safe for
// concurrent use.
type Server struct {
	o     Options
	csp   string // the Content-Security-Policy of every response
	acts  *limiter
	reads *limiter
}

// New returns the server of o.
func New(o Options) (*Server, error) {
	switch {
	case o.Secret == (initdata.Secret{}):
		return nil, errors.New("webapp: no initData secret")
	case o.Refs == (tableref.Key{}):
		return nil, errors.New("webapp: no table reference key")
	case o.Members == nil || o.Views == nil || o.Actor == nil || o.Streams == nil:
		return nil, errors.New("webapp: Members, Views, Actor and Streams are all needed")
	case o.Clock == nil:
		return nil, errors.New("webapp: no clock")
	case strings.ContainsAny(o.FramedBy, ";,\r\n"):
		return nil, fmt.Errorf("webapp: FramedBy %q is not a list of CSP sources", o.FramedBy)
	}
	csp := CSP
	if o.FramedBy = strings.TrimSpace(o.FramedBy); o.FramedBy != "" {
		csp = cspBase + o.FramedBy
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.MaxAge <= 0 {
		o.MaxAge = DefaultMaxAge
	}
	o.Limits = o.Limits.withDefaults()
	return &Server{
		o:     o,
		csp:   csp,
		acts:  newLimiter(o.Limits.Acts, o.Limits.Users, o.Clock),
		reads: newLimiter(o.Limits.Reads, o.Limits.Users, o.Clock),
	}, nil
}

// route is one route: its method, whether it acts (the acts' rate, else
// the reads'), and its work once the request is vouched for.
type route struct {
	method string
	acts   bool
	serve  func(s *Server, w http.ResponseWriter, r *http.Request, c caller)
}

var routes = map[string]route{
	"/api/table":  {http.MethodGet, false, (*Server).table},
	"/api/act":    {http.MethodPost, true, (*Server).act},
	"/api/stream": {http.MethodGet, false, (*Server).stream},
}

// ServeHTTP answers a request as the package doc says.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", s.csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	if s.page(w, r) {
		return
	}
	rt, ok := routes[r.URL.Path]
	switch {
	case !ok:
		writeError(w, http.StatusNotFound, "not_found")
		return
	case r.Method != rt.method:
		h.Set("Allow", rt.method)
		writeError(w, http.StatusMethodNotAllowed, "method")
		return
	}
	c, ok := s.vouch(w, r)
	if !ok {
		return
	}
	lim := s.reads
	if rt.acts {
		lim = s.acts
	}
	if wait := lim.take(c.user.ID); wait > 0 {
		h.Set("Retry-After", fmt.Sprint(int64((wait+time.Second-1)/time.Second)))
		writeError(w, http.StatusTooManyRequests, "too_many")
		return
	}
	if c.key, ok = s.admit(w, r, c); !ok {
		return
	}
	rt.serve(s, w, r, c)
}

// memberRetry is how long a caller whose membership could not be told is
// asked to wait, in seconds.
const memberRetry = "2"

// admit asks Members whether the caller may see the table, and returns
// the key it is kept under now; when not, it has answered the request and
// reports false.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, c caller) (storage.TableKey, bool) {
	key, err := s.o.Members.Admit(r.Context(), c.key, c.user.ID)
	switch {
	case err == nil:
		return key, true
	case errors.Is(err, ErrNotMember):
		writeError(w, http.StatusForbidden, "not_member")
	case errors.Is(err, ErrNoTable):
		writeError(w, http.StatusNotFound, "no_table")
	default:
		s.failed(r.Context(), "membership", c, err)
		w.Header().Set("Retry-After", memberRetry)
		writeError(w, http.StatusServiceUnavailable, "busy")
	}
	return storage.TableKey{}, false
}

// table answers GET /api/table: the viewer's view.
func (s *Server) table(w http.ResponseWriter, r *http.Request, c caller) {
	_, body, err := s.o.Views.View(r.Context(), c.key, c.viewer())
	switch {
	case errors.Is(err, ErrNoTable):
		writeError(w, http.StatusNotFound, "no_table")
		return
	case err != nil:
		s.failed(r.Context(), "view", c, err)
		writeError(w, http.StatusInternalServerError, "internal")
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// stream answers GET /api/stream: the live push.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, c caller) {
	s.o.Streams.Serve(w, r, c.key, c.viewer())
}

// failed logs a failure of Views or Actor.
func (s *Server) failed(ctx context.Context, what string, c caller, err error) {
	if ctx.Err() != nil {
		return // the client went
	}
	s.o.Log.WarnContext(ctx, "webapp: "+what+" failed", "table", c.key, "user", c.user.ID, "err", err)
}
