package webapp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// answer is an action's reply.
type answer struct {
	Error string `json:"error"`
	webapp.Answer
}

// TestViewAndAct: a viewer fetches the table, takes an action its view
// offers, and it applies on the press's path (the store, the chat's
// message); the same action again (a replay, with the same initData) is
// refused as outdated and changes nothing.
func TestViewAndAct(t *testing.T) {
	a := newApp(t, webapp.Limits{})
	a.command("Alice", "newgame")
	v := a.getView("Bob")
	assert.Equal(t, "lobby", v.Phase)
	assert.Equal(t, -1, v.You.Seat, "Bob sits nowhere yet")
	join := actData(t, v, "join")

	body := []byte(`{"data":"` + join + `"}`)
	auth := "tma " + a.initData("Bob", time.Minute)
	r := a.do(http.MethodPost, "/api/act", auth, body)
	a.settle()
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var ans answer
	r.json(t, &ans)
	assert.True(t, ans.Applied)
	assert.Equal(t, v.Version+1, ans.Version, "applied once, to the version it was drawn for")
	assert.NotEmpty(t, ans.Text, "the press's toast")
	stored, err := a.store.View(context.Background(), a.key())
	require.NoError(t, err)
	_, seated := stored.Table.SeatOf(game.UserID(a.users["Bob"].ID))
	assert.True(t, seated, "Bob is seated in the store")
	assert.Equal(t, ans.Version, stored.Table.Version())
	require.NoError(t, a.tg.WaitFor(context.Background(), func(tv *telegramView) bool {
		m, ok := tv.Message(a.group.ID, stored.MessageID)
		return ok && strings.Contains(m.Text, "Bob")
	}), "the chat's message shows Bob")
	after := a.getView("Bob")
	assert.Equal(t, ans.Version, after.Version)
	assert.GreaterOrEqual(t, after.You.Seat, 0, "the app shows Bob seated")

	before := a.ledger()
	acts := a.acts.Load()
	r = a.do(http.MethodPost, "/api/act", auth, body)
	a.settle()
	assert.Equal(t, http.StatusConflict, r.status, "%s", r.body)
	var again answer
	r.json(t, &again)
	assert.False(t, again.Applied)
	assert.Equal(t, ans.Version, again.Version, "the version the refusal found")
	assert.Equal(t, ans.Text, again.Text, "told as a double tap")
	assert.Equal(t, acts+1, a.acts.Load(), "it reached the table")
	assert.Equal(t, before, a.ledger(), "nothing changed")
}

// TestRefusals: requests that are not to be served are refused with
// their status, reach no table and change nothing.
func TestRefusals(t *testing.T) {
	unlimited := webapp.Rate{Every: time.Nanosecond, Burst: 1000} // the rate limit is TestRateLimit's
	a := newApp(t, webapp.Limits{Acts: unlimited, Reads: unlimited})
	a.command("Alice", "newgame")
	v := a.getView("Bob")
	join := actData(t, v, "join")
	good := func() string { return "tma " + a.initData("Bob", 0) }
	other := initdata.NewSecret("123:another bot's token")
	bob := a.users["Bob"]
	signed := func(s initdata.Secret, ref string, age time.Duration) string {
		return "tma " + s.Sign(initdata.Data{AuthDate: a.clock.Now().Add(-age).Truncate(time.Second),
			User: initdata.User{ID: bob.ID, FirstName: bob.FirstName}, StartParam: ref})
	}
	ref := a.refs.Ref(a.key())
	tampered := forged(ref, len(ref)-1)
	jsonBody := func(s string) []byte { return []byte(s) }
	actBody := jsonBody(`{"data":"` + join + `"}`)

	tests := []struct {
		name   string
		method string
		path   string
		auth   string
		body   []byte
		ctype  string // a Content-Type other than JSON
		status int
		code   string
		// reached: the Actor was asked (a refusal of the table's).
		reached bool
	}{
		{"no initData", http.MethodGet, "/api/table", "", nil, "", http.StatusUnauthorized, "missing", false},
		{"another scheme", http.MethodGet, "/api/table", "Bearer " + a.initData("Bob", 0), nil, "", http.StatusUnauthorized, "missing", false},
		{"tma and nothing", http.MethodPost, "/api/act", "tma", actBody, "", http.StatusUnauthorized, "missing", false},
		{"malformed", http.MethodPost, "/api/act", "tma user=%7B&hash", actBody, "", http.StatusBadRequest, "malformed", false},
		{"forged: another bot's", http.MethodPost, "/api/act", signed(other, ref, 0), actBody, "", http.StatusUnauthorized, "bad_hash", false},
		{"forged: a field changed", http.MethodPost, "/api/act", strings.Replace(good(), "Bob", "Bab", 1), actBody, "", http.StatusUnauthorized, "bad_hash", false},
		{"expired", http.MethodPost, "/api/act", signed(a.secret, ref, webapp.DefaultMaxAge+time.Second), actBody, "", http.StatusUnauthorized, "expired", false},
		{"expired view", http.MethodGet, "/api/table", signed(a.secret, ref, 48*time.Hour), nil, "", http.StatusUnauthorized, "expired", false},
		{"no start_param", http.MethodPost, "/api/act", signed(a.secret, "", 0), actBody, "", http.StatusNotFound, "no_table", false},
		{"a forged ref", http.MethodPost, "/api/act", signed(a.secret, tampered, 0), actBody, "", http.StatusNotFound, "no_table", false},
		{"a ref of another key", http.MethodGet, "/api/table", signed(a.secret, tableref.NewKey().Ref(a.key()), 0), nil, "", http.StatusNotFound, "no_table", false},
		{"a ref of a chat without a table: view", http.MethodGet, "/api/table", signed(a.secret, a.refs.Ref(storage.TableKey{Chat: -999}), 0), nil, "", http.StatusNotFound, "no_table", false},
		{"a ref of a chat without a table: act", http.MethodPost, "/api/act", signed(a.secret, a.refs.Ref(storage.TableKey{Chat: -999}), 0), actBody, "", http.StatusNotFound, "no_table", false},
		{"not in the chat: view", http.MethodGet, "/api/table", "tma " + a.initData("Dave", 0), nil, "", http.StatusForbidden, "not_member", false},
		{"not in the chat: stream", http.MethodGet, "/api/stream", "tma " + a.initData("Dave", 0), nil, "", http.StatusForbidden, "not_member", false},
		{"not in the chat: act", http.MethodPost, "/api/act", "tma " + a.initData("Dave", 0), actBody, "", http.StatusForbidden, "not_member", false},
		{"a view by POST", http.MethodPost, "/api/table", good(), actBody, "", http.StatusMethodNotAllowed, "method", false},
		{"an act by GET", http.MethodGet, "/api/act", good(), nil, "", http.StatusMethodNotAllowed, "method", false},
		{"a stream by POST", http.MethodPost, "/api/stream", good(), actBody, "", http.StatusMethodNotAllowed, "method", false},
		{"no such route", http.MethodGet, "/api/tables", good(), nil, "", http.StatusNotFound, "not_found", false},
		{"oversized", http.MethodPost, "/api/act", good(), jsonBody(`{"data":"` + join + strings.Repeat(" ", webapp.MaxBody) + `"}`), "", http.StatusRequestEntityTooLarge, "too_large", false},
		{"an unknown field", http.MethodPost, "/api/act", good(), jsonBody(`{"data":"` + join + `","version":9}`), "", http.StatusBadRequest, "bad_body", false},
		{"two values", http.MethodPost, "/api/act", good(), jsonBody(`{"data":"` + join + `"}{}`), "", http.StatusBadRequest, "bad_body", false},
		{"not an object", http.MethodPost, "/api/act", good(), jsonBody(`"` + join + `"`), "", http.StatusBadRequest, "bad_body", false},
		{"not JSON", http.MethodPost, "/api/act", good(), actBody, "text/plain", http.StatusUnsupportedMediaType, "json", false},
		{"no data", http.MethodPost, "/api/act", good(), jsonBody(`{}`), "", http.StatusBadRequest, "bad_data", false},
		{"data Parse refuses", http.MethodPost, "/api/act", good(), jsonBody(`{"data":"j:-1"}`), "", http.StatusBadRequest, "bad_data", false},
		{"data of no action of the table", http.MethodPost, "/api/act", good(),
			jsonBody(`{"data":"` + callback.Data{Action: callback.SettingBack, Version: 1}.String() + `"}`), "", http.StatusBadRequest, "bad_action", true},
		{"drawn for another version", http.MethodPost, "/api/act", good(),
			jsonBody(`{"data":"` + callback.Data{Action: callback.Join, Version: v.Version + 5}.String() + `"}`), "", http.StatusConflict, "", true},
		{"not the user's to take", http.MethodPost, "/api/act", "tma " + a.initData("Carol", 0),
			jsonBody(`{"data":"` + callback.Data{Action: callback.Start, Version: v.Version}.String() + `"}`), "", http.StatusConflict, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, acts := a.ledger(), a.acts.Load()
			r := a.send(tt.method, tt.path, tt.auth, tt.body, tt.ctype)
			a.settle()
			assert.Equal(t, tt.status, r.status, "%s", r.body)
			var got answer
			r.json(t, &got)
			assert.Equal(t, tt.code, got.Error)
			assert.False(t, got.Applied)
			if tt.status == http.StatusUnauthorized {
				assert.Equal(t, "tma", r.header.Get("WWW-Authenticate"))
			}
			if tt.status == http.StatusMethodNotAllowed {
				assert.NotEmpty(t, r.header.Get("Allow"))
			}
			if tt.reached {
				assert.Equal(t, acts+1, a.acts.Load(), "the table was asked")
			} else {
				assert.Equal(t, acts, a.acts.Load(), "no table was asked")
			}
			assertSecure(t, r.header)
			assert.Equal(t, before, a.ledger(), "nothing changed")
		})
	}
	t.Run("expired says only that", func(t *testing.T) {
		r := a.do(http.MethodGet, "/api/table", signed(a.secret, ref, 25*time.Hour), nil)
		assert.JSONEq(t, `{"error":"expired"}`, string(r.body))
	})
}

// send is do with a Content-Type of the test's own when ctype is set.
func (a *app) send(method, path, auth string, body []byte, ctype string) reply {
	if ctype == "" {
		return a.do(method, path, auth, body)
	}
	a.t.Helper()
	req, err := http.NewRequest(method, a.http.URL+path, strings.NewReader(string(body)))
	require.NoError(a.t, err)
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Type", ctype)
	return a.roundTrip(req)
}

// assertSecure checks the security headers of every response.
func assertSecure(t *testing.T, h http.Header) {
	t.Helper()
	assert.Equal(t, webapp.CSP, h.Get("Content-Security-Policy"))
	assert.True(t, strings.HasPrefix(h.Get("Content-Security-Policy"), "default-src 'none';"))
	assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
	assert.Equal(t, "no-referrer", h.Get("Referrer-Policy"))
	assert.Equal(t, "no-store", h.Get("Cache-Control"))
}

// TestRateLimit: past a user's rate, requests are refused with 429 and
// Retry-After, reaching no table; the bucket refills with time, and
// another user has their own.
func TestRateLimit(t *testing.T) {
	a := newApp(t, webapp.Limits{Acts: webapp.Rate{Every: time.Second, Burst: 2}, Reads: webapp.Rate{Every: time.Second, Burst: 3}})
	a.command("Alice", "newgame")
	v := a.getView("Bob") // one read of 3
	stale := callback.Data{Action: callback.Join, Version: v.Version + 5}.String()
	for i := range 2 {
		assert.Equal(t, http.StatusConflict, a.post("Bob", stale).status, "action %d within the burst", i)
	}
	before, acts := a.ledger(), a.acts.Load()
	join := actData(t, v, "join")
	r := a.post("Bob", join)
	assert.Equal(t, http.StatusTooManyRequests, r.status, "%s", r.body)
	assert.Equal(t, "too_many", r.errorCode(t))
	assert.Equal(t, "1", r.header.Get("Retry-After"))
	assertSecure(t, r.header)
	assert.Equal(t, acts, a.acts.Load(), "no table was asked")
	assert.Equal(t, before, a.ledger(), "nothing changed")

	assert.Equal(t, http.StatusOK, a.post("Carol", join).status, "Carol has a bucket of her own")
	a.getView("Bob")
	a.getView("Bob")
	r = a.do(http.MethodGet, "/api/table", "tma "+a.initData("Bob", 0), nil)
	assert.Equal(t, http.StatusTooManyRequests, r.status, "reads have their own rate")
	a.clock.Advance(time.Second)
	r = a.post("Bob", actData(t, a.getView("Bob"), "join"))
	assert.Equal(t, http.StatusOK, r.status, "a second later, a token: %s", r.body)
}

// TestStream: /api/stream is the hub's, behind the same checks: a viewer
// gets the table's view at once, and the version an action in the app
// made as soon as it is stored.
func TestStream(t *testing.T) {
	a := newApp(t, webapp.Limits{})
	a.command("Alice", "newgame")
	v := a.getView("Carol")

	r := a.do(http.MethodGet, "/api/stream", "", nil)
	assert.Equal(t, http.StatusUnauthorized, r.status, "a stream needs initData too")
	assert.Equal(t, 0, a.hub.Viewers())

	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.http.URL+"/api/stream", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "tma "+a.initData("Carol", 0))
	resp, err := a.http.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	assertSecure(t, resp.Header)
	events := bufio.NewReader(resp.Body)
	assert.Equal(t, v.Version, nextID(t, events), "the current view at once")

	r = a.post("Bob", actData(t, v, "join"))
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var ans answer
	r.json(t, &ans)
	assert.Equal(t, ans.Version, nextID(t, events), "the action's version, pushed")
}

// nextID reads the stream up to its next event's id.
func nextID(t *testing.T, r *bufio.Reader) uint64 {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		if id, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), "id: "); ok {
			n, err := strconv.ParseUint(id, 10, 64)
			require.NoError(t, err)
			return n
		}
	}
}

// TestMaxAge: the initData's maximum age is the server's option.
func TestMaxAge(t *testing.T) {
	a := newApp(t, webapp.Limits{}, func(o *webapp.Options) { o.MaxAge = time.Hour })
	a.command("Alice", "newgame")
	r := a.do(http.MethodGet, "/api/table", "tma "+a.initData("Bob", time.Hour), nil)
	assert.Equal(t, http.StatusOK, r.status, "an hour old: %s", r.body)
	r = a.do(http.MethodGet, "/api/table", "tma "+a.initData("Bob", time.Hour+time.Second), nil)
	assert.Equal(t, http.StatusUnauthorized, r.status)
	assert.Equal(t, "expired", r.errorCode(t))
}

// TestBusy: an action whose table does not answer within ActTimeout (its
// chat busy) is answered 503 with Retry-After, and changes nothing, also
// when the chat's turn comes to it later.
func TestBusy(t *testing.T) {
	a := newApp(t, webapp.Limits{ActTimeout: 50 * time.Millisecond})
	a.command("Alice", "newgame")
	join := actData(t, a.getView("Bob"), "join")
	before := a.ledger()
	require.NoError(t, a.host.lock(context.Background())) // the chat's goroutine is busy
	body, err := json.Marshal(map[string]string{"data": join})
	require.NoError(t, err)
	r := a.do(http.MethodPost, "/api/act", "tma "+a.initData("Bob", 0), body)
	a.host.unlock() // the action's turn comes, after its caller gave up
	a.settle()
	assert.Equal(t, http.StatusServiceUnavailable, r.status, "%s", r.body)
	assert.Equal(t, "busy", r.errorCode(t))
	assert.Equal(t, "1", r.header.Get("Retry-After"))
	assert.Equal(t, before, a.ledger(), "nothing changed")
	assert.Equal(t, http.StatusOK, a.post("Bob", join).status, "once the chat is free, it applies")
}

// TestNewRefusesIncompleteOptions: a server without what it needs is not
// made (a zero secret or key would check nothing).
func TestNewRefusesIncompleteOptions(t *testing.T) {
	a := newApp(t, webapp.Limits{})
	full := webapp.Options{Secret: a.secret, Refs: a.refs, Members: a.members, Views: a.views, Actor: a.actor, Streams: a.hub, Clock: a.clock}
	_, err := webapp.New(full)
	require.NoError(t, err)
	for name, drop := range map[string]func(*webapp.Options){
		"secret":  func(o *webapp.Options) { o.Secret = initdata.Secret{} },
		"refs":    func(o *webapp.Options) { o.Refs = tableref.Key{} },
		"members": func(o *webapp.Options) { o.Members = nil },
		"views":   func(o *webapp.Options) { o.Views = nil },
		"actor":   func(o *webapp.Options) { o.Actor = nil },
		"streams": func(o *webapp.Options) { o.Streams = nil },
		"clock":   func(o *webapp.Options) { o.Clock = nil },
	} {
		o := full
		drop(&o)
		_, err := webapp.New(o)
		assert.Error(t, err, "without its %s", name)
	}
}
