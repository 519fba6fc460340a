package telegramtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Clock tells the server what time it is. The default is the system clock;
// tests that exercise callback deadlines, rate-limit windows or the 48-hour
// delete rule without waiting pass a *ManualClock with WithClock.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

// Now returns the system time.
func (systemClock) Now() time.Time { return time.Now() }

// ManualClock is a Clock that only moves when told to. It is goroutine-safe.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a clock that reads start until advanced.
func NewManualClock(start time.Time) *ManualClock { return &ManualClock{now: start} }

// Now returns the clock's current time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Option configures a Server.
type Option func(*config)

type config struct {
	bot              User
	privacy          bool
	staleAfter       time.Duration // see WithInaccessibleAfter
	clock            Clock
	faultSeed        uint64
	webhookBackoff   time.Duration
	webhookMaxWait   time.Duration
	webhookTimeout   time.Duration
	loopbackWebhooks bool
	loopbackApps     bool
	firstUpdateID    int
	firstMessageID   int
	inline           bool // BotFather's /setinline
	inlineFeedback   bool // BotFather's /setinlinefeedback
	guest            bool // BotFather's guest mode
}

// DefaultToken is the bot token requests must carry.
const DefaultToken = "7000000001:AAtelegramtest-fake-token-0123456789"

// Telegram's own limits, which no option changes.
const (
	// callbackDeadline is how long after a press answerCallbackQuery is
	// still accepted.
	callbackDeadline = 15 * time.Second
	// maxPollTimeout caps getUpdates' timeout.
	maxPollTimeout = 50 * time.Second
)

// DefaultBot is the bot identity used when WithBot is not given.
var DefaultBot = User{ID: 7000000001, IsBot: true, FirstName: "Test Bot", Username: "telegramtest_bot"}

// WithBot sets the bot's identity returned by getMe (IsBot is forced true).
func WithBot(bot User) Option {
	return func(c *config) {
		bot.IsBot = true
		c.bot = bot
	}
}

// WithInaccessibleAfter makes a press on a message sent more than d ago
// (by the server's clock) arrive with callback_query.message an
// InaccessibleMessage: only message_id, chat and date 0, as Telegram sends
// for a message it no longer gives the bot (telegram-bot-api Client.cpp,
// JsonCallbackQuery and JsonInaccessibleMessage; "message content and
// message date will not be available if the message is too old", Bot API
// docs of CallbackQuery before 7.0). Telegram documents no age: by default
// no message grows too old. A press on a deleted message is always sent so.
func WithInaccessibleAfter(d time.Duration) Option { return func(c *config) { c.staleAfter = d } }

// WithClock replaces the system clock (message dates, callback deadlines,
// rate-limit windows, event times).
func WithClock(clock Clock) Option { return func(c *config) { c.clock = clock } }

// WithFaultSeed seeds the random source that decides which requests a
// fractional fault hits, making fault runs reproducible.
func WithFaultSeed(seed uint64) Option { return func(c *config) { c.faultSeed = seed } }

// WithLoopbackWebhooks lets setWebhook take a URL on a loopback host
// (localhost, 127.0.0.0/8, ::1) over plain http and on any port, as a Bot
// API server in --local mode does: tests serve their webhooks on random
// loopback ports. Without it setWebhook refuses such a URL as
// api.telegram.org does (http, or a port other than 443, 80, 88 and 8443);
// a URL on any other host is held to those rules either way.
func WithLoopbackWebhooks() Option { return func(c *config) { c.loopbackWebhooks = true } }

// WithLoopbackApps lets RegisterApp take a Mini App's page over plain http
// on a loopback host (localhost, 127.0.0.0/8, ::1), any port: the
// playground's, which serves the app on the machine it runs on.
// Telegram's BotFather takes an https URL only, and without this option so
// does RegisterApp; a URL on any other host is held to that either way.
func WithLoopbackApps() Option { return func(c *config) { c.loopbackApps = true } }

// WithInlineMode turns on the bot's inline mode, as BotFather's /setinline
// does: users may query the bot from any chat (SendInlineQuery) and post
// its results (ChooseInlineResult), and getMe reports
// supports_inline_queries. Choosing a result tells the bot nothing (see
// WithInlineFeedback).
func WithInlineMode() Option { return func(c *config) { c.inline = true } }

// WithInlineFeedback turns on inline mode with inline feedback, as
// BotFather's /setinlinefeedback does: every choice of a result reaches
// the bot as a chosen_inline_result (BotFather may also report a share
// of them only; that is not modelled).
func WithInlineFeedback() Option {
	return func(c *config) { c.inline, c.inlineFeedback = true, true }
}

// WithGuestMode turns on the bot's guest mode (BotFather; Bot API 10.0):
// a message that mentions the bot in a chat it is not a member of reaches
// it as a guest_message (SendGuestMessage), to be answered with
// answerGuestQuery, and getMe reports supports_guest_queries.
func WithGuestMode() Option { return func(c *config) { c.guest = true } }

// WithFirstUpdateID sets the update_id of the first update (default 1).
func WithFirstUpdateID(id int) Option { return func(c *config) { c.firstUpdateID = id } }

// WithFirstMessageID sets the message_id of the first message of every
// chat (default 1, as Telegram numbers a new chat's messages).
func WithFirstMessageID(id int) Option { return func(c *config) { c.firstMessageID = id } }

// Server is a fake Telegram Bot API server and the world it serves: users,
// chats, messages, the bot's update queue. All methods are goroutine-safe.
type Server struct {
	cfg   config
	clock Clock

	calls  *callLog
	limits *rateLimiter
	faults *faultInjector
	events *eventHub
	change signal // broadcast on every observable change (for WaitFor)

	mu        sync.Mutex
	w         world
	queue     updateQueue
	poll      *longPoll
	hook      *webhookState
	hookLog   webhookLog
	callbacks callbackTable
	inline    inlineTable
	commands  map[commandKey]CommandSet
	// apps are the bot's Mini Apps by lower-case short name (apps.go);
	// appQueries numbers the query_id of web_app buttons' launches.
	apps       map[string]App
	appQueries uint64

	closeOnce sync.Once
	closed    chan struct{}
	workers   sync.WaitGroup

	netMu    sync.Mutex
	httpSrv  *http.Server
	listener net.Listener
	url      string
	// conns holds, by client address (host:port), whether the server's
	// latest connection from there is open: true from its accept to its
	// close, then false.
	conns map[string]bool
}

// New builds a server without listening; serve it with Listen.
func New(opts ...Option) *Server {
	cfg := config{
		bot:            DefaultBot,
		privacy:        true,
		clock:          systemClock{},
		webhookBackoff: 50 * time.Millisecond,
		webhookMaxWait: time.Second,
		webhookTimeout: 10 * time.Second,
		firstUpdateID:  1,
		firstMessageID: 1,
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	s := &Server{
		cfg:      cfg,
		clock:    cfg.clock,
		calls:    newCallLog(),
		events:   newEventHub(),
		closed:   make(chan struct{}),
		commands: make(map[commandKey]CommandSet),
	}
	s.limits = newRateLimiter(RateLimits{})
	s.faults = newFaultInjector(cfg.faultSeed)
	s.w.init(cfg.bot)
	s.queue.init(cfg.firstUpdateID)
	s.callbacks.init()
	s.inline.init()
	return s
}

// Start builds a server and serves it on a random loopback port.
func Start(opts ...Option) (*Server, error) {
	s := New(opts...)
	if err := s.Listen("127.0.0.1:0"); err != nil {
		return nil, err
	}
	return s, nil
}

// TB is the part of testing.TB that StartTest needs.
type TB interface {
	Helper()
	Cleanup(func())
	Fatalf(format string, args ...any)
}

// StartTest starts a server on loopback for a test and closes it when the
// test ends.
func StartTest(tb TB, opts ...Option) *Server {
	tb.Helper()
	s, err := Start(opts...)
	if err != nil {
		tb.Fatalf("telegramtest: start: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Listen serves the Bot API on addr (host:port; port 0 picks one) in the
// background until Close.
func (s *Server) Listen(addr string) error {
	s.netMu.Lock()
	defer s.netMu.Unlock()
	if s.httpSrv != nil {
		return fmt.Errorf("telegramtest: already listening on %s: %w", s.url, ErrInvalid)
	}
	select {
	case <-s.closed:
		return ErrClosed
	default:
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("telegramtest: listen %s: %w", addr, err)
	}
	s.listener = l
	s.url = "http://" + l.Addr().String()
	s.conns = map[string]bool{}
	s.httpSrv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ConnState: s.connState}
	srv := s.httpSrv
	s.workers.Add(1)
	go func() {
		defer s.workers.Done()
		_ = srv.Serve(l)
	}()
	return nil
}

// connState keeps Server.conns.
func (s *Server) connState(c net.Conn, state http.ConnState) {
	addr := c.RemoteAddr().String()
	switch state {
	case http.StateNew:
		s.netMu.Lock()
		s.conns[addr] = true
		s.netMu.Unlock()
	case http.StateClosed, http.StateHijacked:
		s.netMu.Lock()
		s.conns[addr] = false
		s.netMu.Unlock()
		s.change.broadcast() // for WaitFor on HungUp
	}
}

// HungUp reports whether the server closed its connection from addr
// (host:port, the client's end of it; the latest connection from there
// when there were several); false while it is open, or before the server
// accepted it. The server handles the requests of a connection one after
// the other and closes it after the last, once the client closed its end:
// when HungUp turns true, every request sent on it was handled, even one
// the client gave up waiting for.
func (s *Server) HungUp(addr string) bool {
	s.netMu.Lock()
	defer s.netMu.Unlock()
	open, seen := s.conns[addr]
	return seen && !open
}

// URL returns the base URL (http://host:port) when listening, else "".
func (s *Server) URL() string {
	s.netMu.Lock()
	defer s.netMu.Unlock()
	return s.url
}

// Endpoint returns the endpoint format tgbotapi expects: URL()+"/bot%s/%s".
func (s *Server) Endpoint() string { return s.URL() + "/bot%s/%s" }

// Token returns the bot token requests must carry.
func (s *Server) Token() string { return DefaultToken }

// Bot returns the bot's own user.
func (s *Server) Bot() User { return s.cfg.bot }

// Client returns an HTTP client suited to many concurrent requests against
// the server.
func (s *Server) Client() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 512
	tr.MaxIdleConnsPerHost = 512
	return &http.Client{Transport: tr}
}

// Close stops serving, ends long polls and webhook delivery and closes all
// subscriptions. It is safe to call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closed)
		s.mu.Lock()
		s.stopWebhookLocked()
		s.mu.Unlock()
		s.netMu.Lock()
		if s.httpSrv != nil {
			_ = s.httpSrv.Close()
		}
		s.netMu.Unlock()
		s.workers.Wait()
		s.events.closeAll()
		s.change.broadcast()
	})
}

func (s *Server) now() time.Time { return s.clock.Now() }

func (s *Server) isClosed() bool {
	select {
	case <-s.closed:
		return true
	default:
		return false
	}
}

// described is a successful result that carries a description too, as
// setWebhook's "Webhook was set".
type described struct {
	value       any
	description string
}

type okResponse struct {
	OK          bool   `json:"ok"`
	Result      any    `json:"result"`
	Description string `json:"description,omitempty"`
}

type responseParameters struct {
	MigrateToChatID int64 `json:"migrate_to_chat_id,omitempty"`
	RetryAfter      int   `json:"retry_after,omitempty"`
}

type errorResponse struct {
	OK          bool                `json:"ok"`
	ErrorCode   int                 `json:"error_code"`
	Description string              `json:"description"`
	Parameters  *responseParameters `json:"parameters,omitempty"`
}

// ServeHTTP answers one Bot API request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	started := time.Now()
	token, name, ok := splitBotPath(r.URL.Path)
	if !ok {
		s.finish(w, "", started, nil, errMethodNotFound)
		return
	}
	if token != DefaultToken {
		s.finish(w, strings.ToLower(name), started, nil, errUnauthorized)
		return
	}
	spec, ok := methodTable[strings.ToLower(name)]
	if !ok {
		s.finish(w, strings.ToLower(name), started, nil, errMethodNotFound)
		return
	}
	plan := s.faults.plan(spec.name)
	if !s.wait(r, spec.name, started, plan.before) {
		return
	}
	if plan.fault != nil && !plan.fault.AfterHandling {
		s.applyFault(w, spec.name, started, plan.fault)
		return
	}
	p, err := parseParams(r)
	if err != nil {
		s.finish(w, spec.name, started, nil, badRequest(err.Error()))
		return
	}
	result, apiErr := spec.fn(s, r.Context(), p)
	if !s.wait(r, spec.name, started, plan.after) {
		return
	}
	if plan.fault != nil {
		s.applyFault(w, spec.name, started, plan.fault)
		return
	}
	s.answer(w, Call{Method: spec.name, Legacy: p.legacy()}, started, result, apiErr)
}

// finish records the call, then writes its result or error: a client never
// sees an answer the call log does not hold yet.
func (s *Server) finish(w http.ResponseWriter, method string, started time.Time, result any, apiErr *apiError) {
	s.answer(w, Call{Method: method}, started, result, apiErr)
}

// answer is finish for a call whose record (method and legacy parameters)
// is given; it fills in the rest.
func (s *Server) answer(w http.ResponseWriter, call Call, started time.Time, result any, apiErr *apiError) {
	call.Duration = time.Since(started)
	if apiErr != nil {
		call.Code, call.Description = apiErr.code, apiErr.description
		s.calls.recordCall(call)
		writeAPIError(w, apiErr)
	} else {
		resp := okResponse{OK: true, Result: result}
		if d, ok := result.(described); ok {
			resp.Result, resp.Description = d.value, d.description
		}
		call.Code = http.StatusOK
		s.calls.recordCall(call)
		writeJSON(w, http.StatusOK, resp)
	}
	s.change.broadcast()
}

func writeAPIError(w http.ResponseWriter, e *apiError) {
	resp := errorResponse{ErrorCode: e.code, Description: e.description}
	if e.retryAfter > 0 || e.migrateTo != 0 {
		resp.Parameters = &responseParameters{RetryAfter: e.retryAfter, MigrateToChatID: e.migrateTo}
	}
	writeJSON(w, e.code, resp)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"ok":false,"error_code":500,"description":"Internal Server Error: can't encode the result"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// splitBotPath splits "/bot<token>/<method>".
func splitBotPath(path string) (token, method string, ok bool) {
	rest, found := strings.CutPrefix(path, "/bot")
	if !found {
		return "", "", false
	}
	token, method, found = strings.Cut(rest, "/")
	if !found || token == "" || method == "" || strings.Contains(method, "/") {
		return "", "", false
	}
	return token, method, true
}

// waitCtx blocks until ch is closed, ctx is done or the server closes.
func (s *Server) waitCtx(ctx context.Context, ch <-chan struct{}) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.closed:
		return ErrClosed
	}
}

// signal is a broadcast: waiters take the current channel, broadcast
// closes it. The channel is made lazily, so broadcasting with nobody
// waiting costs a mutex and nothing else.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func (g *signal) wait() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ch == nil {
		g.ch = make(chan struct{})
	}
	return g.ch
}

func (g *signal) broadcast() {
	g.mu.Lock()
	if g.ch != nil {
		close(g.ch)
		g.ch = nil
	}
	g.mu.Unlock()
}
