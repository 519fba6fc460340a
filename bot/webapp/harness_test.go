package webapp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/appgate"
	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/input"
	"github.com/twentyone-bot/twentyone/bot/notice"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/pace"
	"github.com/twentyone-bot/twentyone/bot/panel"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/bot/table"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/live"
	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// telegramView is our Bot API server's world, as WaitFor shows it.
type telegramView = telegramtest.View

// wait bounds every wait on a condition.
const wait = 15 * time.Second

// app is the Mini App's server over HTTP in front of the real bot's rooms:
// our Bot API server, a real store in a temp dir, and the bot's own way in
// (bot/appgate): its Actor taking the actions through input.Handler's Act
// on the host's chat goroutine (one at a time with the updates the test
// delivers), its Views made by bot/webapp/view from the store, and a
// live.Hub told of every version the table keeper shows.
type app struct {
	t       *testing.T
	tg      *telegramtest.Server
	store   *storage.Store
	clock   *clocktest.Clock
	out     *outbox.Outbox
	api     *botapi.Client
	h       *input.Handler
	host    *host
	hub     *live.Hub
	views   appgate.Views
	members *appgate.Members
	actor   webapp.Actor
	http    *httptest.Server
	secret  initdata.Secret
	refs    tableref.Key
	users   map[string]telegramtest.User
	group   telegramtest.Chat
	offset  int
	// acts counts the actions the Actor was asked to take.
	acts atomic.Int64
	// sent are the X-Table-Ref headers the server was sent, and the
	// Last-Event-ID of each stream asked for ("-" for none).
	sent struct {
		sync.Mutex
		tableRefs, lastEventIDs []string
	}
}

// host runs the work on a chat one piece at a time (table.Host,
// notice.Host, send.Chats): whoever holds turn's one slot.
type host struct {
	turn    chan struct{}
	pending atomic.Int64
}

// lock takes the chat's turn, or gives up with ctx.
func (h *host) lock(ctx context.Context) error {
	select {
	case h.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// unlock gives the turn back.
func (h *host) unlock() { <-h.turn }

func (h *host) OnChat(_ int64, _ string, fn func(ctx context.Context)) {
	h.pending.Add(1)
	go func() {
		defer h.pending.Add(-1)
		_ = h.lock(context.Background())
		defer h.unlock()
		fn(context.Background())
	}()
}
func (h *host) Moved(int64, int64) {}
func (h *host) Refused(int64)      {}

// newApp starts it all, with Alice, Bob and Carol in the group "Game
// night" and Dave outside it; lim are the server's limits, opts change
// the server's other options.
func newApp(t *testing.T, lim webapp.Limits, opts ...func(*webapp.Options)) *app {
	t.Helper()
	return newAppAt(t, time.Date(2026, 12, 2, 18, 30, 0, 0, time.UTC), lim, opts...)
}

// newAppAt is newApp with the test's clock starting at start.
func newAppAt(t *testing.T, start time.Time, lim webapp.Limits, opts ...func(*webapp.Options)) *app {
	t.Helper()
	a := &app{t: t, tg: telegramtest.StartTest(t), host: &host{turn: make(chan struct{}, 1)}, users: map[string]telegramtest.User{},
		clock: clocktest.NewClock(start)}
	for _, name := range []string{"Alice", "Bob", "Carol", "Dave"} {
		a.users[name] = a.tg.AddUser(telegramtest.User{FirstName: name, LanguageCode: "en"})
	}
	a.group = a.tg.NewGroup("Game night", a.users["Alice"], a.users["Bob"], a.users["Carol"])
	st, err := storage.Open(filepath.Join(t.TempDir(), "twentyone.db"),
		storage.Options{NoSync: true, OnCommit: func(time.Duration, int) { a.tg.Nudge() }})
	require.NoError(t, err)
	a.store = st
	ctx := context.Background()
	a.api, err = botapi.New(ctx, botapi.Options{Token: a.tg.Token(), Endpoint: a.tg.Endpoint(), Transport: a.tg.Client().Transport})
	require.NoError(t, err)
	log := slog.New(slog.DiscardHandler)
	a.out = outbox.New(outbox.Options{Logger: log, Clock: a.clock})
	a.views = appgate.Views{Store: st}
	a.hub = live.New(a.views, a.clock, log, live.Limits{})
	s := send.New(a.api, a.out, a.host, log)
	tables := table.New(st, s, a.clock, log, a.host, appgate.Viewers(a.hub))
	notices := notice.New(st, s, a.clock, log, a.host)
	panels := panel.New(st, s, a.clock, tables)
	a.h = input.New(st, st, st, input.Rooms{Send: s, Tables: tables, Notices: notices, Panels: panels}, a.clock, log,
		input.Options{AdminTTL: time.Minute})
	a.actor = counted{appgate.NewActor(st, a.h, a.host, s, nil), &a.acts}
	a.members = appgate.NewMembers(st, s, a.clock)
	earlier, err := pace.New(st, tables, a.out, a.clock, outbox.Limits{}, log).Restore(ctx)
	require.NoError(t, err)
	_, err = tables.Start(ctx, earlier, 0)
	require.NoError(t, err)

	a.secret = initdata.NewSecret(a.tg.Token())
	raw, err := st.AppKey(ctx)
	require.NoError(t, err)
	a.refs, err = tableref.KeyFrom(raw)
	require.NoError(t, err)
	o := webapp.Options{Secret: a.secret, Refs: a.refs, Members: a.members, Views: a.views,
		Actor: a.actor, Streams: a.hub, Clock: a.clock, Limits: lim}
	for _, opt := range opts {
		opt(&o)
	}
	srv, err := webapp.New(o)
	require.NoError(t, err)
	a.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.sent.Lock()
		a.sent.tableRefs = append(a.sent.tableRefs, r.Header.Values("X-Table-Ref")...)
		if r.URL.Path == "/api/stream" {
			id := r.Header.Get("Last-Event-ID")
			if id == "" {
				id = "-"
			}
			a.sent.lastEventIDs = append(a.sent.lastEventIDs, id)
		}
		a.sent.Unlock()
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		a.hub.Close()
		a.http.Close()
		a.settle()
		tables.Stop()
		cctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		require.NoError(t, a.out.Close(cctx))
		require.NoError(t, st.Close())
	})
	return a
}

// counted is an Actor that counts the actions it is asked to take.
type counted struct {
	webapp.Actor
	n *atomic.Int64
}

func (c counted) Act(ctx context.Context, key storage.TableKey, u initdata.User, data callback.Data) (webapp.Answer, error) {
	c.n.Add(1)
	return c.Actor.Act(ctx, key, u, data)
}

// settle waits until the host's work and the outbox are done.
func (a *app) settle() {
	a.t.Helper()
	deadline := time.Now().Add(wait)
	for a.host.pending.Load() != 0 || !a.out.Quiet() || a.host.pending.Load() != 0 {
		require.False(a.t, time.Now().After(deadline), "the bot did not settle")
		time.Sleep(100 * time.Microsecond) // polls a condition; no clock moves meanwhile
	}
}

// command sends a command as the user named into the group and hands the
// updates to the Handler, as the bot's loop would.
func (a *app) command(name, cmd string) {
	a.t.Helper()
	_, err := a.tg.SendCommand(a.group.ID, a.users[name].ID, cmd)
	require.NoError(a.t, err)
	a.deliver()
}

// press presses the button labelled label on the group's newest message
// showing it, as the user named, and hands the update to the Handler.
func (a *app) press(name, label string) {
	a.t.Helper()
	_, err := a.tg.PressButton(a.group.ID, a.users[name].ID, label)
	require.NoError(a.t, err)
	a.deliver()
}

// deliver hands the updates waiting to the Handler, one at a time on the
// chat's turn, as the bot's loop would, and waits until the bot is quiet.
func (a *app) deliver() {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	raws, err := a.api.GetUpdates(ctx, a.offset, 0, nil)
	require.NoError(a.t, err)
	for _, raw := range raws {
		u, err := botapi.Decode(raw)
		require.NoError(a.t, err)
		a.offset = u.UpdateID + 1
		require.NoError(a.t, a.host.lock(context.Background()))
		switch {
		case u.Message != nil:
			a.h.Message(context.Background(), u)
		case u.CallbackQuery != nil:
			a.h.Press(context.Background(), u)
		}
		a.host.unlock()
	}
	a.settle()
}

// sentTableRefs returns the X-Table-Ref headers the server was sent.
func (a *app) sentTableRefs() []string {
	a.sent.Lock()
	defer a.sent.Unlock()
	return append([]string(nil), a.sent.tableRefs...)
}

// streamsAsked returns the Last-Event-ID of each stream asked for, in
// order ("-" for none).
func (a *app) streamsAsked() []string {
	a.sent.Lock()
	defer a.sent.Unlock()
	return append([]string(nil), a.sent.lastEventIDs...)
}

// key is the group's table.
func (a *app) key() storage.TableKey { return storage.TableKey{Chat: a.group.ID} }

// initData is what Telegram hands the app opened by the user named from
// the group's table link, signed now (by the test's clock) less age.
func (a *app) initData(name string, age time.Duration) string {
	u := a.users[name]
	return a.secret.Sign(initdata.Data{
		AuthDate:   a.clock.Now().Add(-age).Truncate(time.Second),
		User:       initdata.User{ID: u.ID, FirstName: u.FirstName, LanguageCode: u.LanguageCode},
		StartParam: a.refs.Ref(a.key()), ChatType: "group", ChatInstance: "-42",
	})
}

// reply is a response read whole.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body into v.
func (r reply) json(t *testing.T, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.body, v), "%s", r.body)
}

// errorCode is the body's "error".
func (r reply) errorCode(t *testing.T) string {
	var e struct{ Error string }
	r.json(t, &e)
	return e.Error
}

// do sends a request with auth as its Authorization header (none when
// empty) and body (JSON when not nil).
func (a *app) do(method, path, auth string, body []byte) reply {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, a.http.URL+path, rd)
	require.NoError(a.t, err)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return a.roundTrip(req)
}

// roundTrip sends req and reads its response whole.
func (a *app) roundTrip(req *http.Request) reply {
	a.t.Helper()
	resp, err := a.http.Client().Do(req)
	require.NoError(a.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(a.t, err)
	return reply{status: resp.StatusCode, header: resp.Header, body: b}
}

// getView fetches the table as the user named sees it in the app.
func (a *app) getView(name string) view.View {
	a.t.Helper()
	r := a.do(http.MethodGet, "/api/table", "tma "+a.initData(name, 0), nil)
	require.Equal(a.t, http.StatusOK, r.status, "%s", r.body)
	var v view.View
	r.json(a.t, &v)
	return v
}

// actData returns the data of the view's action verb, as the page sends it.
func actData(t *testing.T, v view.View, verb string) string {
	t.Helper()
	a, ok := v.Action(verb)
	if !ok {
		t.Fatalf("the view offers no %s: %+v", verb, v.Actions)
	}
	return a.Data
}

// post acts as the user named with data, and returns the reply once the
// bot is quiet.
func (a *app) post(name, data string) reply {
	a.t.Helper()
	body, err := json.Marshal(map[string]string{"data": data})
	require.NoError(a.t, err)
	r := a.do(http.MethodPost, "/api/act", "tma "+a.initData(name, 0), body)
	a.settle()
	return r
}

// ledger is what a refusal must leave as it was: the table, the chat's
// audit and every user's ledger.
type ledger struct {
	view    storage.View
	audit   storage.Audit
	entries map[string][]storage.LedgerEntry
}

func (a *app) ledger() ledger {
	a.t.Helper()
	ctx := context.Background()
	l := ledger{entries: map[string][]storage.LedgerEntry{}}
	var err error
	l.view, err = a.store.View(ctx, a.key())
	require.NoError(a.t, err)
	l.audit, err = a.store.Audit(ctx, a.group.ID)
	require.NoError(a.t, err)
	require.True(a.t, l.audit.OK, "the audit: %v", l.audit.Problems)
	for name, u := range a.users {
		l.entries[name], err = a.store.History(ctx, a.group.ID, game.UserID(u.ID), 100)
		if !errors.Is(err, storage.ErrNotFound) {
			require.NoError(a.t, err)
		}
	}
	return l
}

// forged returns ref with its i-th character changed to another of the
// refs' alphabet (base64url): a well-formed reference whose tag does not
// check out, so refused as naming no table, never as malformed.
func forged(ref string, i int) string {
	b := []byte(ref)
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}
