package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
)

// The Mini App under load (-app V): the bot serves its app's API on
// webapp.listen, and each group's table has V viewers, the group's four
// players and V-4 more of its members, each holding the table's stream
// open (viewer.go) with initData the load tool signs with the bot's token,
// as Telegram would, naming the table by the ref its table message's app
// button carries (startapp=). The players act through the app (POST
// /api/act with a button's callback data) or in the chat, and every
// action is timed to every viewer and to the chat (applat.go).

// The app as the load tool registers it and configures the bot with it.
const (
	appName = "loadtest"
	appURL  = "https://app.loadtest.invalid/"
)

// maxAppViewers is the most viewers -app gives a table: the app server's
// default webapp.max_viewers_per_table.
const maxAppViewers = 50

// appActRate is the rate at which one user's actions are sent: a little
// under the app server's default (webapp.Limits.Acts, 5 a second, 5 at
// once), so that players acting flat out are not refused for their pace
// (at exactly its rate, a request that reaches it a little sooner after
// the one before than it was sent is refused).
var appActRate = struct {
	every time.Duration
	burst int
}{time.Second / 4, 4}

// appLoad is the app's side of a run.
type appLoad struct {
	cfg    *Config
	base   string // http://<webapp.listen>
	client *http.Client
	secret initdata.Secret
	// tables are the groups' tables by chat id, set once by setup (the
	// driver's router reads them from the start).
	tables atomic.Pointer[map[int64]*appTable]
	lat    *appLatency

	streams streamCounts
	acts    actCounts
	// measuring is the driver's: whether the measured part runs.
	measuring func() bool
	// closing is set before the bot stops: a stream that breaks then is
	// not counted.
	closing atomic.Bool
	wire    atomic.Int64 // every byte the streams read in the measured part
	// lastEvents is the views received at the last progress line (the
	// run's loop alone reads it).
	lastEvents int64
	cancel     context.CancelFunc
	running    sync.WaitGroup
}

// appTable is one table watched in the app.
type appTable struct {
	chat *chat
	ref  string
	// viewers: the first four are the chat's players (chat.users' order).
	viewers []*viewer
	lat     *tableLat
	// next is when each player's next action may go (appActRate).
	next [len(playerNames)]time.Time
	// acted is the version the last action through the app made (guarded
	// by chat.mu).
	acted uint64
}

// actCounts are the actions sent through the app.
type actCounts struct {
	// sent counts the actions sent, applied those the table took,
	// measured those taken in the measured part; refused those it
	// refused (409), tooMany the 429s, busy the 503s, failed the rest (a
	// transport error or another status).
	sent, applied, measured, refused, tooMany, busy, failed atomic.Int64
	mu                                                      sync.Mutex
	refusals, failures                                      map[string]int
}

func (a *actCounts) note(m *map[string]int, why string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[why]++
}

func newAppLoad(cfg *Config, listen, token string, measuring func() bool) *appLoad {
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: 1024,
		IdleConnTimeout:     90 * time.Second,
	}
	return &appLoad{cfg: cfg, base: "http://" + listen, client: &http.Client{Transport: tr},
		secret: initdata.NewSecret(token), lat: newAppLatency(), measuring: measuring}
}

// countWire counts n bytes read by a stream, in the measured part.
func (a *appLoad) countWire(n int64) {
	if n > 0 && a.measuring() {
		a.wire.Add(n)
	}
}

// appLink reads a table message's app button: the ref its startapp
// parameter carries, the link being https://t.me/<bot>/<app>?startapp=<ref>.
func appLink(m *telegramtest.ChatMessage, bot string) (string, error) {
	for _, b := range m.Buttons() {
		if b.URL == "" {
			continue
		}
		u, err := url.Parse(b.URL)
		if err != nil || u.Host != "t.me" || u.Path != "/"+bot+"/"+appName {
			continue
		}
		ref := u.Query().Get("startapp")
		if !initdata.ValidStartParam(ref) || ref == "" {
			return "", fmt.Errorf("the app button %q carries no table ref", b.URL)
		}
		return ref, nil
	}
	return "", fmt.Errorf("message %d has no button to t.me/%s/%s", m.MessageID, bot, appName)
}

// setup gives every group's table its viewers: the ref from its table
// message's app button, initData signed for each viewer.
func (a *appLoad) setup(srv *telegramtest.Server, list []*chat) error {
	bot := srv.Bot().Username
	tables := map[int64]*appTable{}
	for _, c := range list {
		if c.kind != kindGroup {
			continue
		}
		c.mu.Lock()
		id := c.view.messageID
		c.mu.Unlock()
		m, ok := srv.Message(c.id, id)
		if !ok {
			return fmt.Errorf("chat %d: its table message %d is gone", c.id, id)
		}
		ref, err := appLink(&m, bot)
		if err != nil {
			return fmt.Errorf("chat %d: %w", c.id, err)
		}
		t := &appTable{chat: c, ref: ref}
		users := append(append([]telegramtest.User(nil), c.users[:]...), c.watchers...)
		t.lat = a.lat.table(len(users))
		for i, u := range users {
			t.viewers = append(t.viewers, &viewer{app: a, table: t, index: i, user: u, auth: "tma " + a.initData(u, ref)})
		}
		tables[c.id] = t
	}
	a.tables.Store(&tables)
	return nil
}

// initData is what Telegram gives user's page opened from the table's
// link: the user, now, and the ref as start_param, signed with the bot's
// token.
func (a *appLoad) initData(u telegramtest.User, ref string) string {
	return a.secret.Sign(initdata.Data{
		AuthDate:   time.Now(),
		User:       initdata.User{ID: u.ID, FirstName: u.FirstName, LanguageCode: u.LanguageCode},
		StartParam: ref, ChatType: "group",
	})
}

// waitServing waits until the app's server answers (401 to a request
// without initData).
func (a *appLoad) waitServing(ctx context.Context) error {
	var last error
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.base+"/api/table", nil)
		resp, err := a.client.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusUnauthorized {
				return nil
			}
			err = fmt.Errorf("GET /api/table without initData: %s, not 401", resp.Status)
		}
		last = err
		outbox.Sleep(ctx, 50*time.Millisecond)
	}
	return fmt.Errorf("the app's server on %s never answered: %w", a.base, errors.Join(last, ctx.Err()))
}

// open opens every viewer's stream and waits until each has its first
// view.
func (a *appLoad) open(ctx context.Context) error {
	sctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	for _, t := range a.all() {
		for _, v := range t.viewers {
			a.running.Add(1)
			go func() {
				defer a.running.Done()
				v.run(sctx)
			}()
		}
	}
	for _, t := range a.all() {
		for _, v := range t.viewers {
			for !v.seenAt(1) {
				if !outbox.Sleep(ctx, 20*time.Millisecond) {
					return fmt.Errorf("chat %d: viewer %d never got a view: %w", t.chat.id, v.index, ctx.Err())
				}
			}
		}
	}
	return nil
}

// close ends every stream (the bot is about to stop) and the following of
// every table; again, it does nothing.
func (a *appLoad) close() {
	if a.closing.Swap(true) {
		return
	}
	if a.cancel != nil {
		a.cancel()
	}
	a.running.Wait()
	for _, t := range a.all() {
		t.lat.finish()
	}
	a.client.CloseIdleConnections()
}

// actAnswer is the answer to POST /api/act (webapp's actResponse).
type actAnswer struct {
	Error   string `json:"error"`
	Text    string `json:"text"`
	Applied bool   `json:"applied"`
	Version uint64 `json:"version"`
}

// act sends data as v's action and returns the table's answer; err when
// there was none (a transport error, 429, 503, another status), counted.
func (a *appLoad) act(ctx context.Context, v *viewer, data string) (actAnswer, error) {
	body, _ := json.Marshal(map[string]string{"data": data})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/api/act", bytes.NewReader(body))
	if err != nil {
		return actAnswer{}, err
	}
	req.Header.Set("Authorization", v.auth)
	req.Header.Set("Content-Type", "application/json")
	a.acts.sent.Add(1)
	resp, err := a.client.Do(req)
	if err != nil {
		a.acts.failed.Add(1)
		a.acts.note(&a.acts.failures, "transport")
		return actAnswer{}, err
	}
	defer resp.Body.Close()
	var ans actAnswer
	derr := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&ans)
	switch {
	case resp.StatusCode == http.StatusOK && derr == nil:
		return ans, nil
	case resp.StatusCode == http.StatusConflict && derr == nil:
		a.acts.refused.Add(1)
		a.acts.note(&a.acts.refusals, ans.Text)
		return ans, nil
	case resp.StatusCode == http.StatusTooManyRequests:
		a.acts.tooMany.Add(1)
		s, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		outbox.Sleep(ctx, time.Duration(max(s, 1))*time.Second)
	case resp.StatusCode == http.StatusServiceUnavailable:
		a.acts.busy.Add(1)
	default:
		a.acts.failed.Add(1)
		a.acts.note(&a.acts.failures, strings.TrimSpace(fmt.Sprintf("%d %s", resp.StatusCode, ans.Error)))
	}
	return ans, fmt.Errorf("POST /api/act: %s %s", resp.Status, ans.Error)
}

// pace waits until player who may act again at the app server's rate.
func (t *appTable) pace(ctx context.Context, who int) bool {
	now := time.Now()
	slack := time.Duration(appActRate.burst-1) * appActRate.every
	next := t.next[who]
	if next.Before(now) {
		next = now
	}
	if wait := next.Sub(now) - slack; wait > 0 && !outbox.Sleep(ctx, wait) {
		return false
	}
	t.next[who] = next.Add(appActRate.every)
	return true
}

// newest returns the newest version any of the table's viewers holds.
func (t *appTable) newest() uint64 {
	var n uint64
	for _, v := range t.viewers {
		have, _ := v.latest()
		n = max(n, have)
	}
	return n
}

// withApp configures the bot with the app (a free port for webapp.listen,
// webapp.url and webapp.name) and registers the app with the server, as
// BotFather's /newapp does.
func withApp(cfg *Config, srv *telegramtest.Server, set *botSettings) error {
	addr, err := freePort()
	if err != nil {
		return err
	}
	set.WebappListen, set.WebappURL, set.WebappName = addr, appURL, appName
	if n := cfg.Chats * cfg.App; n > defaultMaxViewers {
		set.WebappMaxViewers = n + n/10 // reconnections are never refused for the count
	}
	return srv.RegisterApp(appName, appURL)
}

// defaultMaxViewers is webapp.max_viewers' default.
const defaultMaxViewers = 10_000

// start waits for the app's server, reads every group's table ref from
// its table message, and opens every viewer's stream: each has its first
// view when it returns.
func (a *appLoad) start(ctx context.Context, srv *telegramtest.Server, list []*chat) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := a.waitServing(ctx); err != nil {
		return err
	}
	if err := a.setup(srv, list); err != nil {
		return err
	}
	return a.open(ctx)
}

// catchUp waits, at most timeout, until every table's viewers hold the
// newest version any of them or its chat's message shows.
func (a *appLoad) catchUp(ctx context.Context, timeout time.Duration) {
	end := time.Now().Add(timeout)
	for _, t := range a.all() {
		c := t.chat
		c.mu.Lock()
		want := c.view.version
		c.mu.Unlock()
		want = max(want, t.newest())
		for time.Now().Before(end) {
			if least, _ := t.lat.versions(); least >= want || !outbox.Sleep(ctx, 10*time.Millisecond) {
				break
			}
		}
	}
}

// quietFor is how long a paced run's bot must have written nothing before
// it is stopped after the app's players: past a group's interval
// between two writes (3 s), nothing waits in its outbox.
const quietFor = 4 * time.Second

// waitQuiet waits, until end at most, until the bot has written nothing
// for quietFor: through the app, the players move their tables faster
// than the chat shows them under Telegram's limits, and the games they
// end leave their records to send after the tables show their last
// state; the bot, stopped, has 9 s to send what waits.
func (a *appLoad) waitQuiet(ctx context.Context, l *pacedLog, end time.Time) {
	last, since := l.writeCount(), time.Now()
	for time.Now().Before(end) && time.Since(since) < quietFor {
		if !outbox.Sleep(ctx, 100*time.Millisecond) {
			return
		}
		if n := l.writeCount(); n != last {
			last, since = n, time.Now()
		}
	}
}

// all returns the watched tables by chat id (none before setup).
func (a *appLoad) all() map[int64]*appTable {
	if m := a.tables.Load(); m != nil {
		return *m
	}
	return nil
}
