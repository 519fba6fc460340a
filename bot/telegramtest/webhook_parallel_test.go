package telegramtest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// gatedHook is a webhook endpoint that holds every request until the test
// answers it, so that a test sees which requests are in flight together.
// A request is named by label: a message's text, or "press:" and the
// presser's first name.
type gatedHook struct {
	srv    *httptest.Server
	closed chan struct{}

	mu      sync.Mutex
	changed chan struct{}       // closed and replaced on every change
	held    map[string]chan int // label → the status to answer with
	arrived []string            // every request's label, in order
	ids     map[string][]int    // label → the update ids posted under it
	most    int                 // the most requests held at once
	pass    bool                // answer 200 at once from now on
}

func label(u telegramtest.Update) string {
	switch {
	case u.Message != nil:
		return u.Message.Text
	case u.CallbackQuery != nil:
		return "press:" + u.CallbackQuery.From.FirstName
	}
	return fmt.Sprintf("update:%d", u.UpdateID)
}

func newGatedHook(t *testing.T) *gatedHook {
	t.Helper()
	g := &gatedHook{closed: make(chan struct{}), changed: make(chan struct{}), held: map[string]chan int{}, ids: map[string][]int{}}
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var u telegramtest.Update
		if err := json.NewDecoder(r.Body).Decode(&u); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		name := label(u)
		answer := make(chan int, 1)
		g.mu.Lock()
		g.arrived = append(g.arrived, name)
		g.ids[name] = append(g.ids[name], u.UpdateID)
		if g.pass {
			answer <- http.StatusOK
		} else {
			g.held[name] = answer
			g.most = max(g.most, len(g.held))
		}
		g.changeLocked()
		g.mu.Unlock()
		status := http.StatusServiceUnavailable
		select {
		case status = <-answer:
		case <-g.closed:
		case <-r.Context().Done():
		}
		g.mu.Lock()
		if g.held[name] == answer {
			delete(g.held, name)
		}
		g.changeLocked()
		g.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(func() {
		close(g.closed)
		g.srv.Close()
	})
	return g
}

func (g *gatedHook) changeLocked() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// waitFor waits until cond (called with the hook locked) holds.
func (g *gatedHook) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx := deadline(t)
	for {
		g.mu.Lock()
		ok, changed := cond(), g.changed
		held := slices.Sorted(func(yield func(string) bool) {
			for k := range g.held {
				if !yield(k) {
					return
				}
			}
		})
		g.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("%s: not within the deadline; held %q, arrived %q", what, held, g.arrivals())
		}
	}
}

// waitHeld waits until exactly the named requests are held.
func (g *gatedHook) waitHeld(t *testing.T, names ...string) {
	t.Helper()
	want := slices.Sorted(slices.Values(names))
	g.waitFor(t, fmt.Sprintf("held %q", want), func() bool {
		if len(g.held) != len(want) {
			return false
		}
		for _, n := range want {
			if g.held[n] == nil {
				return false
			}
		}
		return true
	})
}

// waitCount waits until n requests are held, whichever they are.
func (g *gatedHook) waitCount(t *testing.T, n int) []string {
	t.Helper()
	g.waitFor(t, fmt.Sprintf("%d held", n), func() bool { return len(g.held) == n })
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for k := range g.held {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// answer answers the held request named name with status.
func (g *gatedHook) answer(t *testing.T, name string, status int) {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	ch := g.held[name]
	require.NotNil(t, ch, "%q is not held", name)
	delete(g.held, name)
	ch <- status
	g.changeLocked()
}

// passAll answers every held request, and every later one, with 200.
func (g *gatedHook) passAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pass = true
	for name, ch := range g.held {
		ch <- http.StatusOK
		delete(g.held, name)
	}
	g.changeLocked()
}

func (g *gatedHook) arrivals() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.arrived)
}

func (g *gatedHook) mostAtOnce() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.most
}

// setHook points the server's webhook at g.
func setHook(t *testing.T, srv *telegramtest.Server, g *gatedHook, maxConnections string) {
	t.Helper()
	resp := call(t, srv, "setWebhook", url.Values{"url": {g.srv.URL + "/hook"}, "max_connections": {maxConnections}})
	require.True(t, resp.OK, resp.Description)
}

func waitDelivered(t *testing.T, srv *telegramtest.Server) {
	t.Helper()
	require.NoError(t, srv.WaitFor(deadline(t), func(*telegramtest.View) bool { return srv.WebhookInfo().PendingUpdateCount == 0 }))
}

// TestWebhookPostsUpToMaxConnectionsAtOnce: updates of different chats are
// posted in parallel, up to max_connections at once; until one update was
// accepted, one at a time (WebhookActor's pending mode).
func TestWebhookPostsUpToMaxConnectionsAtOnce(t *testing.T) {
	srv, api := start(t, telegramtest.WithLoopbackWebhooks(), telegramtest.WithPrivacyMode(false))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	var chats []telegramtest.Chat
	for i := range 6 {
		chats = append(chats, srv.NewGroup(fmt.Sprintf("Table %d", i), alice))
	}
	drain(t, api)
	hook := newGatedHook(t)
	setHook(t, srv, hook, "3")
	assert.Equal(t, 3, srv.WebhookInfo().MaxConnections)
	for i, c := range chats {
		_, err := srv.SendText(c.ID, alice.ID, fmt.Sprintf("chat %d", i))
		require.NoError(t, err)
	}

	first := hook.waitCount(t, 1)
	assert.Equal(t, 1, srv.WebhookInFlight(), "nothing accepted yet: one request at a time")
	hook.answer(t, first[0], http.StatusOK)
	hook.waitCount(t, 3)
	assert.Equal(t, 3, srv.WebhookInFlight(), "once one was accepted: max_connections at once, no more")

	hook.passAll()
	waitDelivered(t, srv)
	assert.Equal(t, 3, hook.mostAtOnce())
	assert.ElementsMatch(t, []string{"chat 0", "chat 1", "chat 2", "chat 3", "chat 4", "chat 5"}, hook.arrivals(), "each update posted once")
}

// TestWebhookQueuesPerChatAndPerUser: messages queue per chat, presses per
// presser. A chat's command and presses in it are in flight at the same
// moment; a refused message holds back only its chat's later messages, and
// a later press of the chat is accepted before it.
func TestWebhookQueuesPerChatAndPerUser(t *testing.T) {
	srv, api := start(t, telegramtest.WithLoopbackWebhooks(), telegramtest.WithPrivacyMode(false),
		telegramtest.WithWebhookBackoff(5*time.Millisecond, 20*time.Millisecond))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	group := srv.NewGroup("Table", alice, bob)
	other := srv.NewGroup("Other", alice)
	m := tgbotapi.NewMessage(group.ID, "Your turn")
	m.ReplyMarkup = keyboard("Hit", "hit")
	_, err := api.Send(m)
	require.NoError(t, err)
	drain(t, api)
	hook := newGatedHook(t)
	setHook(t, srv, hook, "10")
	send := func(chat telegramtest.Chat, text string) {
		t.Helper()
		_, err := srv.SendText(chat.ID, alice.ID, text)
		require.NoError(t, err)
	}
	press := func(who telegramtest.User) {
		t.Helper()
		_, err := srv.PressButton(group.ID, who.ID, "Hit")
		require.NoError(t, err)
	}
	send(other, "warm up") // one accepted update ends the one-at-a-time start
	hook.waitHeld(t, "warm up")
	hook.answer(t, "warm up", http.StatusOK)
	waitDelivered(t, srv)

	send(group, "one")
	send(group, "two")
	press(alice)
	press(bob)
	send(other, "three")
	hook.waitHeld(t, "one", "press:Alice", "press:Bob", "three")
	assert.Equal(t, 4, srv.WebhookInFlight(), "\"two\" waits for \"one\", in the chat's queue")

	hook.answer(t, "one", http.StatusInternalServerError)
	hook.waitHeld(t, "one", "press:Alice", "press:Bob", "three") // refused once: posted again at once
	hook.answer(t, "one", http.StatusBadGateway)
	hook.answer(t, "press:Alice", http.StatusOK)
	hook.answer(t, "press:Bob", http.StatusOK)
	hook.answer(t, "three", http.StatusOK)
	hook.waitHeld(t, "one") // refused twice: posted again after a while
	hook.answer(t, "one", http.StatusOK)
	hook.waitHeld(t, "two")
	hook.answer(t, "two", http.StatusOK)
	waitDelivered(t, srv)

	arrived := hook.arrivals()
	lastOne := slices.Index(arrived, "two") - 1
	require.Positive(t, lastOne)
	assert.Equal(t, "one", arrived[lastOne], "\"two\" is posted right after \"one\" was accepted")
	for _, later := range []string{"press:Alice", "press:Bob", "three"} {
		assert.Less(t, slices.Index(arrived, later), lastOne, "%s, sent after \"one\", is accepted before it", later)
	}
	var tries []int
	for _, a := range srv.WebhookAttempts() {
		if a.UpdateID == hook.ids["one"][0] {
			tries = append(tries, a.Attempt)
		}
	}
	assert.Equal(t, []int{1, 2, 3}, tries)
	assert.Len(t, hook.ids["one"], 3)
}

func TestSetWebhookMaxConnections(t *testing.T) {
	tests := []struct {
		give string
		want int
	}{
		{"", 40}, {"7", 7}, {"0", 1}, {"101", 100},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			srv := telegramtest.StartTest(t)
			resp := call(t, srv, "setWebhook", url.Values{"url": {"https://bot.invalid/hook"}, "max_connections": {tt.give}})
			require.True(t, resp.OK, resp.Description)
			assert.Equal(t, tt.want, srv.WebhookInfo().MaxConnections, "clamped to 1..100 as Client.cpp's get_integer_arg does")
		})
	}
}

// TestSetWebhookPorts: api.telegram.org posts only over https to ports 443,
// 80, 88 and 8443; WithLoopbackWebhooks exempts a loopback host, as a
// --local server exempts every URL. A refused URL leaves no webhook: the
// old one was closed first.
func TestSetWebhookPorts(t *testing.T) {
	const (
		badPort = "Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
		noHTTPS = "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"
	)
	tests := []struct {
		url      string
		loopback bool
		want     string // "" when accepted
	}{
		{url: "https://bot.invalid/hook"},
		{url: "https://bot.invalid:443/hook"},
		{url: "https://bot.invalid:80/hook"},
		{url: "https://bot.invalid:88/hook"},
		{url: "https://bot.invalid:8443/hook"},
		{url: "https://bot.invalid:8080/hook", want: badPort},
		{url: "https://bot.invalid:444/hook", loopback: true, want: badPort},
		{url: "http://bot.invalid/hook", want: noHTTPS},
		{url: "http://bot.invalid:8443/hook", want: noHTTPS},
		{url: "http://10.0.0.1:8080/hook", loopback: true, want: noHTTPS},
		{url: "https://127.0.0.1:9121/hook", want: badPort},
		{url: "http://127.0.0.1:9121/hook", want: noHTTPS},
		{url: "http://127.0.0.1:9121/hook", loopback: true},
		{url: "https://127.0.0.2:9121/hook", loopback: true},
		{url: "http://localhost:9121/hook", loopback: true},
		{url: "http://[::1]:9121/hook", loopback: true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s loopback=%v", tt.url, tt.loopback), func(t *testing.T) {
			var opts []telegramtest.Option
			if tt.loopback {
				opts = append(opts, telegramtest.WithLoopbackWebhooks())
			}
			srv := telegramtest.StartTest(t, opts...)
			resp := call(t, srv, "setWebhook", url.Values{"url": {"https://bot.invalid/old"}})
			require.True(t, resp.OK, resp.Description)

			resp = call(t, srv, "setWebhook", url.Values{"url": {tt.url}})
			if tt.want == "" {
				assert.True(t, resp.OK, resp.Description)
				assert.Equal(t, tt.url, srv.WebhookInfo().URL)
				return
			}
			assert.False(t, resp.OK)
			assert.Equal(t, 400, resp.ErrorCode)
			assert.Equal(t, tt.want, resp.Description)
			assert.Empty(t, srv.WebhookInfo().URL, "the old webhook is gone")
		})
	}
}
