package main

// End-to-end tests of the binary: built once per run (binary_test.go), run
// as a child process against our Bot API server, configured only through
// its environment as in the Docker image.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/storage"
)

// stopLimit is how long a container manager waits after SIGTERM.
const stopLimit = 10 * time.Second

// auditDatabase opens the database at path as the binary would (after the
// binary is gone, or on a copy), checks every chat's chips, and returns the
// audits.
func auditDatabase(t *testing.T, path string) []storage.Audit {
	t.Helper()
	s, err := storage.Open(path, storage.Options{NoSync: true})
	require.NoError(t, err, "the database opens: it was closed")
	defer s.Close()
	audits, err := s.AuditAll(context.Background())
	require.NoError(t, err)
	for _, a := range audits {
		assert.True(t, a.OK, "chat %d: %v", a.Chat, a.Problems)
	}
	return audits
}

// current returns the newest bot message of the group with a button of
// action a, without waiting.
func (tb *table) current(a callback.Action) (telegramtest.ChatMessage, bool) {
	msgs := tb.srv.Messages(tb.group.ID)
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, ok := button(msgs[i], a); ok && msgs[i].FromBot {
			return msgs[i], true
		}
	}
	return telegramtest.ChatMessage{}, false
}

// TestBinaryPlaysAGame: a whole game through the binary in polling mode;
// after SIGTERM the database holds the two players' chips, all accounted
// for.
func TestBinaryPlaysAGame(t *testing.T) {
	t.Parallel()
	srv := telegramtest.StartTest(t)
	db := filepath.Join(t.TempDir(), "twentyone.db")
	p := startBinary(t, botEnv(srv, db))
	p.waitReady()

	tb := newTable(t, srv)
	tb.open()
	player := tb.start()
	assert.Regexp(t, `^Bet \d+ · your card \S+ \(\d+\) · Hit or Stand\?$`, tb.bet(player))
	over := tb.stand(player)
	assert.Contains(t, over.Text, "takes the bank")
	assert.Contains(t, over.Labels(), "Play again ▶")

	p.signal(syscall.SIGTERM)
	require.Equal(t, exitOK, p.waitExit(stopLimit))
	audits := auditDatabase(t, db)
	require.Len(t, audits, 1)
	assert.Equal(t, tb.group.ID, audits[0].Chat)
	assert.EqualValues(t, 2000, audits[0].Granted, "1000 starting chips each")
	assert.EqualValues(t, 2000, audits[0].Balances, "nothing left on the table")
}

// TestBinaryInUkrainian: table.language uk gives a chat Ukrainian before
// anyone opens a table, whatever its users' own languages, and the binary
// registers the command menu in Ukrainian beside the default one.
func TestBinaryInUkrainian(t *testing.T) {
	t.Parallel()
	srv := telegramtest.StartTest(t)
	p := startBinary(t, botEnv(srv, filepath.Join(t.TempDir(), "twentyone.db"), "TWENTYONE_TABLE_LANGUAGE=uk"))
	p.waitReady()

	require.NoError(t, srv.WaitFor(waitCtx(t), func(*telegramtest.View) bool {
		return len(srv.Commands(telegramtest.CommandScope{}, "uk")) > 0
	}))
	menu, byDefault := srv.Commands(telegramtest.CommandScope{}, "uk"), srv.Commands(telegramtest.CommandScope{}, "")
	require.Len(t, menu, len(byDefault), "the same commands in Ukrainian as by default")
	descriptions := map[string]string{}
	for i, c := range menu {
		assert.Equal(t, byDefault[i].Command, c.Command, "in the same order")
		descriptions[c.Command] = c.Description
	}
	assert.Equal(t, i18n.T(i18n.UK, i18n.DescNewGame), descriptions["newgame"])
	assert.Equal(t, "Мова: en, ru або uk", descriptions["lang"])

	tb := newTable(t, srv)
	tb.command(tb.alice, "newgame")
	lobby := tb.message(callback.Join, "Очко — стіл відкрито", "Alice")
	assert.Equal(t, "You're in.", tb.pressAndWait(tb.bob, lobby, callback.Join), "a toast speaks its presser's language (Bob's en), the table the chat's (uk)")

	p.signal(syscall.SIGTERM)
	require.Equal(t, exitOK, p.waitExit(stopLimit))
}

// TestBinarySIGTERMMidGame: SIGTERM while a press is being handled (the
// Bot API holds its answer): the process finishes the action, sends the
// table's new render, closes the database and exits 0 within 10 s; a new
// process on the same file finishes the game. In both update modes.
func TestBinarySIGTERMMidGame(t *testing.T) {
	for _, mode := range []string{"polling", "webhook"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			srv := telegramtest.StartTest(t, telegramtest.WithLoopbackWebhooks())
			db := filepath.Join(t.TempDir(), "twentyone.db")
			env := botEnv(srv, db)
			start := func() *proc {
				if mode == "webhook" {
					p, _ := startWebhook(t, env)
					return p
				}
				return startBinary(t, env)
			}
			first := start()
			first.waitReady()
			tb := newTable(t, srv)
			tb.open()
			player := tb.start()

			// The bet is committed, then its answer is held by the Bot API:
			// the signal comes while the action is in flight, before its
			// render was sent.
			slow := srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay,
				Methods: []string{"answerCallbackQuery"}, Delay: 1500 * time.Millisecond, Count: 1})
			press := tb.press(player, tb.message(callback.Bet), callback.Bet)
			poll(t, "the bet's answer is on its way", func() bool { return slow.Fired() == 1 })
			_, drawn := tb.current(callback.Stand)
			require.False(t, drawn, "the table after the bet is not shown yet")

			signalled := time.Now()
			first.signal(syscall.SIGTERM)
			require.Equal(t, exitOK, first.waitExit(stopLimit))
			t.Logf("stopped %s after SIGTERM", time.Since(signalled).Round(time.Millisecond))
			first.logRecord("signal received: shutting down")
			first.logRecord("stopped") // after the database closed without error

			answer, answered := press.Answer()
			require.True(t, answered, "the action in flight finished: the press was answered")
			assert.Regexp(t, `^Bet \d+ · your card \S+ \(\d+\) · Hit or Stand\?$`, answer.Text)
			_, drawn = tb.current(callback.Stand)
			assert.True(t, drawn, "the pending render was sent: the table offers Hit and Stand")
			if mode == "webhook" {
				for _, a := range srv.WebhookAttempts() {
					assert.True(t, a.OK(), "update %d: the webhook answered %d %s", a.UpdateID, a.StatusCode, a.Error)
				}
			}
			auditDatabase(t, db)

			second := start() // in webhook mode on another port: the first's may be taken
			second.waitReady()
			over := tb.stand(player)
			assert.Contains(t, over.Text, "takes the bank")
			second.signal(syscall.SIGTERM)
			require.Equal(t, exitOK, second.waitExit(stopLimit))
			audits := auditDatabase(t, db)
			require.Len(t, audits, 1)
			assert.EqualValues(t, 2000, audits[0].Balances, "the bet was applied once, the game is over")
		})
	}
}

// killable is a game played through the binary, to be killed: a group of
// Alice and Bob whose game is under way, the player's bet placed.
type killable struct {
	t      *testing.T
	srv    *telegramtest.Server
	db     string
	env    []string
	proc   *proc
	tb     *table
	player telegramtest.User
}

func betPlaced(t *testing.T) *killable {
	k := &killable{t: t, srv: telegramtest.StartTest(t), db: filepath.Join(t.TempDir(), "twentyone.db")}
	k.env = botEnv(k.srv, k.db)
	k.proc = startBinary(t, k.env)
	k.proc.waitReady()
	k.tb = newTable(t, k.srv)
	k.tb.open()
	k.player = k.tb.start()
	k.tb.bet(k.player)
	return k
}

// restart kills the process with SIGKILL, runs whileDown, and starts
// another on the same database.
func (k *killable) restart(whileDown ...func()) {
	k.t.Helper()
	k.proc.kill()
	for _, f := range whileDown {
		f()
	}
	k.proc = startBinary(k.t, k.env)
	k.proc.waitReady()
}

// stop stops the process with SIGTERM and audits the database.
func (k *killable) stop() {
	k.t.Helper()
	k.proc.signal(syscall.SIGTERM)
	require.Equal(k.t, exitOK, k.proc.waitExit(stopLimit))
	auditDatabase(k.t, k.db)
}

// TestBinaryKilledBeforeTheRecord: SIGKILL after Play again sent the next
// game's message and before the edit that turns the old message into the
// finished game's record was made (the Bot API fails it, and the process
// dies while it waits to try again). A new process on the same file makes
// the record, and no message but the table's current one shows table
// buttons.
func TestBinaryKilledBeforeTheRecord(t *testing.T) {
	t.Parallel()
	k := betPlaced(t)
	tb := k.tb
	over := tb.stand(k.player)

	failing := k.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{"editMessageText"}})
	tb.pressAndWait(tb.alice, over, callback.Start) // Play again
	next := tb.message(callback.Cut)                // its deck waits for the cut
	require.NotEqual(t, over.MessageID, next.MessageID, "the next game has a message of its own")
	poll(t, "the old message's edit is tried", func() bool { return failing.Fired() > 0 })
	k.restart(failing.Remove)

	require.NoError(t, k.srv.WaitFor(waitCtx(t), func(v *telegramtest.View) bool {
		m, ok := v.Message(tb.group.ID, over.MessageID)
		return ok && strings.Contains(m.Text, "Twenty One — game 1")
	}), "the old message becomes the record of game 1")
	for _, m := range k.srv.Messages(tb.group.ID) {
		if m.MessageID == next.MessageID {
			continue
		}
		for _, b := range m.Buttons() {
			d, err := callback.Parse(b.CallbackData)
			assert.False(t, err == nil && d.Action.TableAction(), "message %d shows the table button %q", m.MessageID, b.Text)
		}
	}
	k.stop()
}

// TestBinaryKilledBeforeTheAnswer: SIGKILL after a Hit was committed and
// before its answer reached Telegram (the Bot API holds it, then fails
// it). The press, never confirmed, is delivered again to a new process on
// the same file, which answers it as the first would have: with the card
// drawn.
func TestBinaryKilledBeforeTheAnswer(t *testing.T) {
	t.Parallel()
	k := betPlaced(t)
	held := k.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay,
		Methods: []string{"answerCallbackQuery"}, Delay: waitLimit, Count: 1})
	k.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{"answerCallbackQuery"}, Count: 1})
	press := k.tb.press(k.player, k.tb.message(callback.Hit), callback.Hit)
	poll(t, "the Hit's answer is on its way", func() bool { return held.Fired() > 0 })
	k.restart()

	answer, err := press.Wait(waitCtx(t))
	require.NoError(t, err)
	assert.Regexp(t, `^\S+[♠♥♦♣] · `, answer.Text, "the answer names the card drawn")
	k.stop()
}

// TestBinaryWebhook: in webhook mode the binary registers its webhook with
// the Bot API, which then posts every update of a game to it with the
// secret; a request with a wrong or no secret gets 401. With a configured
// secret and with the random one the binary makes.
func TestBinaryWebhook(t *testing.T) {
	tests := []struct {
		name   string
		secret string
	}{
		{name: "configured secret", secret: "s3cret-Token_1"},
		{name: "random secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := telegramtest.StartTest(t, telegramtest.WithLoopbackWebhooks())
			p, hook := startWebhook(t, botEnv(srv, filepath.Join(t.TempDir(), "twentyone.db"),
				"TWENTYONE_TELEGRAM_WEBHOOK_SECRET="+tt.secret))
			p.waitReady()
			assert.Equal(t, hook, srv.WebhookInfo().URL, "the binary registered its webhook")
			assert.Equal(t, 40, srv.WebhookInfo().MaxConnections, "telegram.webhook.max_connections, by default Telegram's")

			tb := newTable(t, srv)
			tb.open()
			player := tb.start()
			tb.bet(player)
			tb.stand(player)
			attempts := srv.WebhookAttempts()
			require.NotEmpty(t, attempts)
			for _, a := range attempts {
				assert.True(t, a.OK(), "update %d: %d %s", a.UpdateID, a.StatusCode, a.Error)
			}
			assert.Zero(t, srv.Calls().Count("getUpdates"), "no polling in webhook mode")

			post := func(secret *string) int {
				req, err := http.NewRequest(http.MethodPost, hook, strings.NewReader(`{"update_id":900000}`))
				require.NoError(t, err)
				if secret != nil {
					req.Header.Set(SecretHeader, *secret)
				}
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				resp.Body.Close()
				return resp.StatusCode
			}
			assert.Equal(t, http.StatusUnauthorized, post(nil), "no secret")
			assert.Equal(t, http.StatusUnauthorized, post(new("")), "an empty secret")
			assert.Equal(t, http.StatusUnauthorized, post(new("wrong")), "a wrong secret")
			if tt.secret != "" {
				assert.Equal(t, http.StatusUnauthorized, post(new(tt.secret+"x")), "the secret and more")
				assert.Equal(t, http.StatusOK, post(new(tt.secret)), "the right secret")
			}

			p.signal(syscall.SIGTERM)
			require.Equal(t, exitOK, p.waitExit(stopLimit))
		})
	}
}

// TestBinaryWebhookInParallel: Telegram posts a webhook's updates in
// parallel, a queue per chat for messages and per user for presses. In a
// dozen lobbies at once a new player presses Join and a seated one sends
// /leave right after: in every chat the /leave is applied, the Join press
// is answered as it was applied (seated, or the table moved on), the table
// shows it, every update was accepted once, and the chips add up.
func TestBinaryWebhookInParallel(t *testing.T) {
	t.Parallel()
	const chats, maxConnections = 12, 8
	srv := telegramtest.StartTest(t, telegramtest.WithLoopbackWebhooks())
	db := filepath.Join(t.TempDir(), "twentyone.db")
	p, _ := startWebhook(t, botEnv(srv, db, fmt.Sprintf("TWENTYONE_TELEGRAM_WEBHOOK_MAX_CONNECTIONS=%d", maxConnections)))
	p.waitReady()
	require.Equal(t, maxConnections, srv.WebhookInfo().MaxConnections)

	type lobby struct {
		tb          *table
		carol, dave telegramtest.User
		join        *telegramtest.Callback
	}
	lobbies := make([]*lobby, chats)
	for i := range lobbies {
		user := func(name string) telegramtest.User {
			return srv.AddUser(telegramtest.User{FirstName: name, LanguageCode: "en"})
		}
		l := &lobby{tb: &table{t: t, srv: srv, alice: user("Alice"), bob: user("Bob")}, carol: user("Carol"), dave: user("Dave")}
		l.tb.group = srv.NewGroup(fmt.Sprintf("Game night %d", i), l.tb.alice, l.tb.bob, l.carol, l.dave)
		l.tb.open()
		require.Equal(t, "You're in.", l.tb.pressAndWait(l.carol, l.tb.message(callback.Join, "Bob"), callback.Join))
		lobbies[i] = l
	}
	for _, l := range lobbies {
		m := l.tb.message(callback.Join, "Alice", "Bob", "Carol")
		l.join = l.tb.press(l.dave, m, callback.Join)
		l.tb.command(l.carol, "leave")
	}
	for i, l := range lobbies {
		answer, err := l.join.Wait(waitCtx(t))
		require.NoError(t, err)
		seated := answer.Text == "You're in."
		if !seated {
			assert.Equal(t, "This table has moved on.", answer.Text, "chat %d", i)
		}
		_, err = srv.WaitForBotMessage(waitCtx(t), l.tb.group.ID, func(m telegramtest.ChatMessage) bool {
			_, lobby := button(m, callback.Join)
			return lobby && !strings.Contains(m.Text, "Carol") && strings.Contains(m.Text, "Dave") == seated
		})
		assert.NoError(t, err, "chat %d: Carol left; Dave seated: %v", i, seated)
	}

	require.NoError(t, srv.WaitFor(waitCtx(t), func(*telegramtest.View) bool { return srv.WebhookInfo().PendingUpdateCount == 0 }))
	attempts := srv.WebhookAttempts()
	ids := map[int]bool{}
	for _, a := range attempts {
		assert.True(t, a.OK(), "update %d: %d %s", a.UpdateID, a.StatusCode, a.Error)
		assert.False(t, ids[a.UpdateID], "update %d posted twice", a.UpdateID)
		ids[a.UpdateID] = true
	}
	most := mostAtOnce(attempts)
	assert.Greater(t, most, 1, "the updates were posted in parallel")
	assert.LessOrEqual(t, most, maxConnections)

	p.signal(syscall.SIGTERM)
	require.Equal(t, exitOK, p.waitExit(stopLimit))
	assert.Len(t, auditDatabase(t, db), chats)
}

// mostAtOnce returns the most webhook requests that were in flight at
// once.
func mostAtOnce(attempts []telegramtest.WebhookAttempt) int {
	type edge struct {
		at    time.Time
		delta int
	}
	var edges []edge
	for _, a := range attempts {
		edges = append(edges, edge{a.At.Add(-a.Duration), 1}, edge{a.At, -1})
	}
	slices.SortFunc(edges, func(x, y edge) int {
		if c := x.at.Compare(y.at); c != 0 {
			return c
		}
		return x.delta - y.delta // an end before a start at the same instant
	})
	most, now := 0, 0
	for _, e := range edges {
		now += e.delta
		most = max(most, now)
	}
	return most
}

// TestBinaryBadConfig: each kind of mistake in the file or the
// environment makes `twentyone run` exit 2 with one line that names the
// key, before it starts anything.
func TestBinaryBadConfig(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		env   []string
		names string // what the line names first
		what  string // what it says is wrong
	}{
		{name: "unknown key", yaml: "table:\n  stake: 10\n  stakes: 20\n", names: "table.stakes (from ", what: "config.yaml line 3): unknown key"},
		{name: "unknown variable", env: []string{"TWENTYONE_TABLE_STAKES=20"}, names: "TWENTYONE_TABLE_STAKES", what: "no such config key"},
		{name: "wrong type", yaml: "table:\n  stake: ten\n", names: "table.stake", what: `want a whole number, not "ten"`},
		{name: "wrong type in the environment", env: []string{"TWENTYONE_TELEGRAM_RATE_LIMITS=maybe"}, names: "telegram.rate_limits (from TWENTYONE_TELEGRAM_RATE_LIMITS)", what: "true or false"},
		{name: "entry limit below the stake", yaml: "table:\n  stake: 50\n  entry_limit: 20\n", names: "table.entry_limit", what: "must be at least table.stake (50"},
		{name: "negative timeout", env: []string{"TWENTYONE_TABLE_TURN_TIMEOUT=-1m"}, names: "table.turn_timeout", what: "not -1m0s"},
		{name: "webhook mode without URL", env: []string{"TWENTYONE_TELEGRAM_MODE=webhook"}, names: "telegram.webhook.url", what: "required when telegram.mode is webhook"},
		{name: "webhook on a port Telegram does not post to", env: []string{"TWENTYONE_TELEGRAM_MODE=webhook", "TWENTYONE_TELEGRAM_WEBHOOK_URL=https://bot.example.org:8080/tg"},
			names: "telegram.webhook.url (from TWENTYONE_TELEGRAM_WEBHOOK_URL)", what: "must be on port 443, 80, 88 or 8443"},
		{name: "the app on the admin server's address", env: []string{"TWENTYONE_HTTP_LISTEN=127.0.0.1:9121", "TWENTYONE_WEBAPP_LISTEN=0.0.0.0:9121"},
			names: "webapp.listen (from TWENTYONE_WEBAPP_LISTEN)", what: "the admin server's address"},
		{name: "an app name without its URL", env: []string{"TWENTYONE_WEBAPP_LISTEN=127.0.0.1:0", "TWENTYONE_WEBAPP_NAME=table"},
			names: "webapp.url", what: "must be set with webapp.name"},
		{name: "an app URL in plain http", env: []string{"TWENTYONE_WEBAPP_LISTEN=127.0.0.1:0", "TWENTYONE_WEBAPP_NAME=table", "TWENTYONE_WEBAPP_URL=http://app.example.org/"},
			names: "webapp.url (from TWENTYONE_WEBAPP_URL)", what: "must be https"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			env := append([]string{
				"TWENTYONE_TELEGRAM_TOKEN=" + testToken,
				"TWENTYONE_TELEGRAM_API_ENDPOINT=http://127.0.0.1:1/bot%s/%s", // never reached
				"TWENTYONE_STORAGE_PATH=" + filepath.Join(dir, "twentyone.db"),
				"TWENTYONE_HTTP_LISTEN=127.0.0.1:0",
			}, tt.env...)
			args := []string{"run"}
			if tt.yaml != "" {
				file := filepath.Join(dir, "config.yaml")
				require.NoError(t, os.WriteFile(file, []byte(tt.yaml), 0o600))
				args = append(args, "-config", file)
			}
			code, stdout, stderr := runBinary(t, env, args...)
			assert.Equal(t, exitUsage, code, stderr)
			assert.Empty(t, stdout)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.True(t, strings.HasSuffix(stderr, "\n"))
			assert.True(t, strings.HasPrefix(stderr, "twentyone: config: "+tt.names), "%q names %s first", stderr, tt.names)
			assert.Contains(t, stderr, tt.what)
			assert.NoFileExists(t, filepath.Join(dir, "twentyone.db"), "nothing was started")
		})
	}
}

// TestBinarySecondInstance: a second process on the database of a running
// one says the file is in use and exits 1; the first goes on. The second
// has the same config, admin address included: it must blame the
// database, not the address the first holds.
func TestBinarySecondInstance(t *testing.T) {
	t.Parallel()
	srv := telegramtest.StartTest(t)
	db := filepath.Join(t.TempDir(), "twentyone.db")
	env := botEnv(srv, db)
	first := startBinary(t, env)
	admin := first.waitReady()

	second := startBinary(t, append(slices.Clip(env), "TWENTYONE_HTTP_LISTEN="+strings.TrimPrefix(admin, "http://")))
	assert.Equal(t, exitFailure, second.waitExit(waitLimit))
	logs := strings.Split(second.stderr.String(), "\n")
	last := logs[len(logs)-1]
	assert.True(t, strings.HasPrefix(last, "twentyone run: the database "), last)
	assert.Contains(t, last, "is in use by another process (is the bot already running?)")

	resp, err := http.Get(admin + "/readyz")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the first process is unharmed")
	code, _, stderr := runBinary(t, []string{"TWENTYONE_STORAGE_PATH=" + db}, "backup", "-o", filepath.Join(t.TempDir(), "backup.db"))
	assert.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "from the running bot", "the first one's backup socket too")
	first.signal(syscall.SIGTERM)
	assert.Equal(t, exitOK, first.waitExit(stopLimit))
}

// metrics is one scrape of /metrics.
type metrics map[string]*dto.MetricFamily

func scrapeURL(t *testing.T, url string) metrics {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return fams
}

// value returns a counter's or gauge's value, or a histogram's count, of
// the series with labels; 0 when there is none yet.
func (m metrics) value(name string, labels map[string]string) float64 {
	for _, s := range m[name].GetMetric() {
		if !matches(s, labels) {
			continue
		}
		switch {
		case s.Counter != nil:
			return s.Counter.GetValue()
		case s.Gauge != nil:
			return s.Gauge.GetValue()
		case s.Histogram != nil:
			return float64(s.Histogram.GetSampleCount())
		}
	}
	return 0
}

// TestBinaryMetrics: /metrics counts the updates handled, the Bot API
// calls by method, the actions' latency and the commits' latency as
// players press buttons.
func TestBinaryMetrics(t *testing.T) {
	t.Parallel()
	srv := telegramtest.StartTest(t)
	p := startBinary(t, botEnv(srv, filepath.Join(t.TempDir(), "twentyone.db")))
	url := p.waitReady() + "/metrics"
	before := scrapeURL(t, url)
	assert.Zero(t, before.value("twentyone_open_tables", nil))
	assert.Equal(t, 1.0, before.value("twentyone_build_info", map[string]string{"version": testVersion, "commit": testCommit}))

	tb := newTable(t, srv)
	tb.open()            // a command and a press (Join)
	player := tb.start() // two presses: Start and the cut
	tb.bet(player)       // a press
	const presses = 4
	pressKind := map[string]string{"kind": "callback_query"}
	// A press is counted once handled, just after its answer: wait for it.
	var after metrics
	poll(t, "the presses counted", func() bool {
		after = scrapeURL(t, url)
		return after.value("twentyone_updates_handled_total", pressKind) >= presses
	})
	delta := func(name string, labels map[string]string) float64 {
		return after.value(name, labels) - before.value(name, labels)
	}
	assert.Equal(t, float64(presses), delta("twentyone_updates_handled_total", pressKind))
	assert.GreaterOrEqual(t, delta("twentyone_updates_handled_total", map[string]string{"kind": "message"}), 1.0, "/newgame")
	assert.Equal(t, float64(presses), delta("twentyone_action_duration_seconds", pressKind), "a latency observed per press")
	assert.GreaterOrEqual(t, delta("twentyone_action_duration_seconds", map[string]string{"kind": "message"}), 1.0)
	for _, method := range []string{"answerCallbackQuery", "sendMessage", "editMessageText", "getUpdates"} {
		assert.Positive(t, delta("twentyone_bot_api_calls_total", map[string]string{"method": method, "result": "ok"}), method)
		assert.Positive(t, delta("twentyone_bot_api_call_duration_seconds", map[string]string{"method": method}), method)
	}
	assert.Equal(t, float64(presses), delta("twentyone_bot_api_calls_total", map[string]string{"method": "answerCallbackQuery", "result": "ok"}))
	assert.GreaterOrEqual(t, delta("twentyone_storage_commit_duration_seconds", nil), float64(presses),
		"a commit observed per press at least")
	assert.GreaterOrEqual(t, delta("twentyone_outbox_render_wait_seconds", nil), 2.0, "the table's message and its edits waited in the outbox")
	assert.Equal(t, 1.0, after.value("twentyone_open_tables", nil))

	p.signal(syscall.SIGTERM)
	assert.Equal(t, exitOK, p.waitExit(stopLimit))
}

// TestBinaryBackupWhilePlaying: `twentyone backup`, given only the
// database's path (as `docker exec` in the image is), reaches the running
// binary through its backup socket while a game goes on, and writes a
// database that opens and passes the audit, to a file (replacing an older
// backup, with no temporary file left) or to stdout. The socket has mode
// 0600, refuses a request a proxy forwarded, and is gone after SIGTERM; the
// admin server hands out no database. `twentyone healthcheck` answers 0.
func TestBinaryBackupWhilePlaying(t *testing.T) {
	t.Parallel()
	srv := telegramtest.StartTest(t)
	db := filepath.Join(t.TempDir(), "twentyone.db")
	p := startBinary(t, botEnv(srv, db))
	p.waitReady()
	sock := db + ".sock"
	assert.Equal(t, sock, p.logRecord("backup server listening")["addr"])
	fi, err := os.Lstat(sock)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSocket|0o600, fi.Mode())

	code, _, stderr := runBinary(t, []string{"TWENTYONE_HTTP_LISTEN=" + p.adminAddr()}, "healthcheck")
	assert.Equal(t, exitOK, code, stderr)

	resp, err := http.Post(p.admin+"/backup", "", nil)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, http.StatusGone, resp.StatusCode, "the admin server serves no backup")
	assert.NotContains(t, string(body), "\x00", "no database in the answer")

	client := socketClient(sock)
	defer client.CloseIdleConnections()
	req, err := http.NewRequest(http.MethodPost, socketURL+"/backup", nil)
	require.NoError(t, err)
	req.Header.Set("X-Forwarded-For", "192.0.2.60")
	resp, err = client.Do(req)
	require.NoError(t, err)
	body, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "a request through a proxy")
	assert.NotContains(t, string(body), "\x00", "no database in the answer")
	p.logRecord("backup refused: the request came through a proxy")

	admin := []string{"TWENTYONE_STORAGE_PATH=" + db}

	tb := newTable(t, srv)
	tb.open()
	player := tb.start()

	dir := t.TempDir()
	out := filepath.Join(dir, "backup.db")
	require.NoError(t, os.WriteFile(out, []byte("an older backup"), 0o600))
	backup := startBinary(t, admin, "backup", "-o", out)
	tb.bet(player) // while the backup runs
	tb.stand(player)
	require.Equal(t, exitOK, backup.waitExit(waitLimit))
	assert.Contains(t, backup.stderr.String(), "from the running bot")
	audits := auditDatabase(t, out)
	require.Len(t, audits, 1)
	assert.EqualValues(t, 2000, audits[0].Granted)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")

	before, err := os.Stat(db)
	require.NoError(t, err)
	code, _, stderr = runBinary(t, admin, "backup", "-o", db)
	assert.Equal(t, exitFailure, code, "a backup over the database it copies")
	assert.Contains(t, stderr, "is the database itself")
	after, err := os.Stat(db)
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "the running bot's database was not replaced")

	code, stdout, stderr := runBinary(t, admin, "backup", "-o", "-")
	require.Equal(t, exitOK, code, stderr)
	fromStdout := filepath.Join(dir, "stdout.db")
	require.NoError(t, os.WriteFile(fromStdout, []byte(stdout), 0o600))
	audits = auditDatabase(t, fromStdout)
	require.Len(t, audits, 1)
	assert.EqualValues(t, 2000, audits[0].Balances, "the game was over")

	p.signal(syscall.SIGTERM)
	assert.Equal(t, exitOK, p.waitExit(stopLimit))
	assert.NoFileExists(t, sock, "the socket is removed at the stop")
}

// TestBinaryBackupAfterACrash: a binary killed with SIGKILL leaves its
// backup socket behind. `twentyone backup` then copies the file itself, and
// the next start replaces the socket and serves backups through it, the
// admin server off.
func TestBinaryBackupAfterACrash(t *testing.T) {
	t.Parallel()
	srv := telegramtest.StartTest(t)
	db := filepath.Join(t.TempDir(), "twentyone.db")
	sock := db + ".sock"
	first := startBinary(t, botEnv(srv, db))
	first.waitReady()
	first.signal(syscall.SIGKILL)
	<-first.exited
	fi, err := os.Lstat(sock)
	require.NoError(t, err, "the socket is left behind")
	require.Equal(t, os.ModeSocket, fi.Mode().Type())

	env := []string{"TWENTYONE_STORAGE_PATH=" + db}
	out := filepath.Join(t.TempDir(), "backup.db")
	code, _, stderr := runBinary(t, env, "backup", "-o", out)
	require.Equal(t, exitOK, code, stderr)
	assert.NotContains(t, stderr, "from the running bot", "copied from the file")
	auditDatabase(t, out)

	second := startBinary(t, botEnv(srv, db, "TWENTYONE_HTTP_LISTEN=off"))
	second.logRecord("bot started") // after the database opened
	code, _, stderr = runBinary(t, env, "backup", "-o", out)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "from the running bot")
	auditDatabase(t, out)

	second.signal(syscall.SIGTERM)
	assert.Equal(t, exitOK, second.waitExit(stopLimit))
	assert.NoFileExists(t, sock)
}
