package main

// Helpers of the Mini App's end-to-end tests (app_test.go): the app's page
// as a client of the app's server, over real HTTP, with initData signed as
// Telegram signs it (initdata.Secret.Sign, with the bot's token) and the
// table's reference as the direct link's start_param.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
	"github.com/twentyone-bot/twentyone/storage"
)

// appRefs draws the Mini App's key in the database at db before a bot
// opens it (storage.AppKey: drawn once, kept by the file) and returns the
// key of the tables' references, as the bot will make them.
func appRefs(t *testing.T, db string) tableref.Key {
	t.Helper()
	s, err := storage.Open(db, storage.Options{NoSync: true})
	require.NoError(t, err)
	raw, err := s.AppKey(context.Background())
	require.NoError(t, err)
	require.NoError(t, s.Close())
	refs, err := tableref.KeyFrom(raw)
	require.NoError(t, err)
	return refs
}

// appClient is the app's page for any user: it talks to the app's server
// at base, with initData Telegram would give the user who opened the
// app from a table's link.
type appClient struct {
	t      *testing.T
	base   string
	secret initdata.Secret
	refs   tableref.Key
}

func newAppClient(t *testing.T, addr, token string, refs tableref.Key) *appClient {
	require.NotEmpty(t, addr, "the app server listens")
	return &appClient{t: t, base: "http://" + addr, secret: initdata.NewSecret(token), refs: refs}
}

// signed is initData for u opening the app from key's link, signed with
// the secret, age old.
func signed(secret initdata.Secret, refs tableref.Key, u telegramtest.User, key storage.TableKey, age time.Duration) string {
	return secret.Sign(initdata.Data{
		AuthDate:   time.Now().Add(-age).Truncate(time.Second),
		User:       initdata.User{ID: u.ID, FirstName: u.FirstName, LanguageCode: u.LanguageCode},
		StartParam: refs.Ref(key), ChatType: "group", ChatInstance: "-7",
	})
}

// initData is initData for u opening the app from key's link, just now.
func (c *appClient) initData(u telegramtest.User, key storage.TableKey) string {
	return signed(c.secret, c.refs, u, key, 0)
}

// appReply is a response of the app's server, read whole.
type appReply struct {
	status int
	body   []byte
}

// code is the body's "error".
func (r appReply) code(t *testing.T) string {
	t.Helper()
	var e struct{ Error string }
	require.NoError(t, json.Unmarshal(r.body, &e), "%s", r.body)
	return e.Error
}

// do sends a request with auth as "Authorization: tma <auth>" (none when
// empty) and body as JSON (none when nil).
func (c *appClient) do(method, path, auth string, body any) appReply {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(c.t, err)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(waitCtx(c.t), method, c.base+path, rd)
	require.NoError(c.t, err)
	if auth != "" {
		req.Header.Set("Authorization", "tma "+auth)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	return appReply{status: resp.StatusCode, body: b}
}

// view is the table at key as u sees it in the app (GET /api/table).
func (c *appClient) view(u telegramtest.User, key storage.TableKey) view.View {
	c.t.Helper()
	r := c.do(http.MethodGet, "/api/table", c.initData(u, key), nil)
	require.Equal(c.t, http.StatusOK, r.status, "%s", r.body)
	var v view.View
	require.NoError(c.t, json.Unmarshal(r.body, &v))
	return v
}

// actAnswer is the answer to an action (POST /api/act).
type actAnswer struct {
	Error   string `json:"error"`
	Text    string `json:"text"`
	Applied bool   `json:"applied"`
	Version uint64 `json:"version"`
}

// act sends data as u's action at key and returns the status and answer.
func (c *appClient) act(u telegramtest.User, key storage.TableKey, data string) (int, actAnswer) {
	c.t.Helper()
	r := c.do(http.MethodPost, "/api/act", c.initData(u, key), map[string]string{"data": data})
	var a actAnswer
	require.NoError(c.t, json.Unmarshal(r.body, &a), "%s", r.body)
	return r.status, a
}

// action returns the data of v's action verb, as the page sends it.
func action(t *testing.T, v view.View, verb string) string {
	t.Helper()
	a, ok := v.Action(verb)
	if !ok {
		t.Fatalf("the view offers no %s: %+v", verb, v.Actions)
	}
	return a.Data
}

// seatNames returns the names of v's seats, in order.
func seatNames(v view.View) []string {
	var out []string
	for _, s := range v.Seats {
		out = append(out, s.Name)
	}
	return out
}

// sseEvent is an event of the live push.
type sseEvent struct {
	id   uint64
	name string // "" for a view
	view view.View
}

// sse is an open stream of the live push (GET /api/stream), read as the
// page reads it.
type sse struct {
	t      *testing.T
	events chan sseEvent // closed when the stream ends
	stop   context.CancelFunc
}

// stream opens u's stream of the table at key, sending lastID as
// Last-Event-ID when not empty. It fails the test unless the server
// answers with an event stream.
func (c *appClient) stream(u telegramtest.User, key storage.TableKey, lastID string) *sse {
	c.t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/api/stream", nil)
	require.NoError(c.t, err)
	req.Header.Set("Authorization", "tma "+c.initData(u, key))
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(c.t, err)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		stop()
		c.t.Fatalf("the stream answered %d: %s", resp.StatusCode, b)
	}
	require.Equal(c.t, "text/event-stream", resp.Header.Get("Content-Type"))
	s := &sse{t: c.t, events: make(chan sseEvent, 64), stop: stop}
	go s.read(resp.Body)
	c.t.Cleanup(func() {
		stop()
		resp.Body.Close()
	})
	return s
}

// read parses the stream's events (text/event-stream: "field: value"
// lines, an event ending at a blank line, ":" lines comments) until it
// ends.
func (s *sse) read(body io.Reader) {
	defer close(s.events)
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var ev sseEvent
	var data []string
	for sc.Scan() {
		line := sc.Text()
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			ev.id, _ = strconv.ParseUint(value, 10, 64)
		case "event":
			ev.name = value
		case "data":
			data = append(data, value)
		case "":
			if line != "" || len(data) == 0 {
				continue // a comment, or the retry line's end
			}
			if ev.name == "" && json.Unmarshal([]byte(strings.Join(data, "\n")), &ev.view) != nil {
				return
			}
			s.events <- ev
			ev, data = sseEvent{}, nil
		}
	}
}

// next waits for the stream's next event; false when the stream ended.
func (s *sse) next() (sseEvent, bool) {
	s.t.Helper()
	select {
	case ev, ok := <-s.events:
		return ev, ok
	case <-time.After(waitLimit):
		s.t.Fatalf("no event within %s", waitLimit)
		return sseEvent{}, false
	}
}

// await waits for a view that cond accepts, skipping the others.
func (s *sse) await(what string, cond func(view.View) bool) view.View {
	s.t.Helper()
	for {
		ev, ok := s.next()
		require.True(s.t, ok, "the stream ended before %s", what)
		if ev.name == "" && cond(ev.view) {
			require.Equal(s.t, ev.view.Version, ev.id, "an event's id is its version")
			return ev.view
		}
	}
}

// ended waits until the stream ends, whatever it still sends.
func (s *sse) ended() {
	s.t.Helper()
	for {
		if _, ok := s.next(); !ok {
			return
		}
	}
}
