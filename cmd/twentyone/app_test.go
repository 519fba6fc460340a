package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
	"github.com/twentyone-bot/twentyone/storage"
)

// runWithApp runs Main on srv with the app's server on a free port, its
// database at db, and returns it; it is closed at the end of the test.
func runWithApp(t *testing.T, srv *telegramtest.Server, db string) *Main {
	t.Helper()
	cfg := testConfig(srv, db)
	cfg.WebApp.Listen = "127.0.0.1:0"
	m := NewMain(cfg, discardLogger())
	require.NoError(t, m.Run(context.Background()))
	t.Cleanup(func() { _ = m.Close(context.Background()) })
	return m
}

// TestMainServesTheApp: with webapp.listen, `run` serves the Mini App
// beside the bot, over the bot's own tables: a lobby opened in a group is
// what GET /api/table shows; Bob joins it through the app (POST /api/act),
// on the press's path, and the group's table message is edited to show
// him while Alice's live stream gets the new version; initData forged,
// expired, missing or naming another table is refused and changes
// nothing. Close ends the live streams, then the server, within its
// deadline.
func TestMainServesTheApp(t *testing.T) {
	srv := telegramtest.StartTest(t)
	db := filepath.Join(t.TempDir(), "twentyone.db")
	refs := appRefs(t, db)
	m := runWithApp(t, srv, db)
	app := newAppClient(t, m.AppAddr(), srv.Token(), refs)

	tb := newTable(t, srv)
	tb.command(tb.alice, "newgame")
	lobby := tb.message(callback.Join, "Alice")
	key := storage.TableKey{Chat: tb.group.ID}

	v := app.view(tb.bob, key)
	assert.Equal(t, "lobby", v.Phase)
	assert.Equal(t, []string{"Alice"}, seatNames(v))
	assert.Equal(t, -1, v.You.Seat, "Bob watches")
	assert.Nil(t, v.You.Balance, "Bob, whom the chat never saw, has no balance yet")
	join := action(t, v, "join")
	live := app.stream(tb.alice, key, "")
	first := live.await("the lobby", func(view.View) bool { return true })
	assert.Equal(t, v.Version, first.Version, "the stream starts with the table as it is")
	assert.Equal(t, 0, first.You.Seat, "Alice's own view")

	body := map[string]string{"data": join}
	other := tableref.NewKey()
	refused := []struct {
		name   string
		auth   string
		status int
		code   string
	}{
		{"forged: signed with another token", signed(initdata.NewSecret("123456:another-bots-token"), refs, tb.bob, key, 0), http.StatusUnauthorized, "bad_hash"},
		{"expired", signed(app.secret, refs, tb.bob, key, 25*time.Hour), http.StatusUnauthorized, "expired"},
		{"missing", "", http.StatusUnauthorized, "missing"},
		{"not initData", "hash=00", http.StatusBadRequest, "malformed"},
		{"a reference made with another key", signed(app.secret, other, tb.bob, key, 0), http.StatusNotFound, "no_table"},
		{"a table never opened", signed(app.secret, refs, tb.bob, storage.TableKey{Chat: tb.group.ID, Thread: 7}, 0), http.StatusNotFound, "no_table"},
	}
	for _, r := range refused {
		for _, req := range []struct {
			method, path string
			body         any
		}{{http.MethodPost, "/api/act", body}, {http.MethodGet, "/api/table", nil}, {http.MethodGet, "/api/stream", nil}} {
			got := app.do(req.method, req.path, r.auth, req.body)
			assert.Equal(t, r.status, got.status, "%s: %s %s: %s", r.name, req.method, req.path, got.body)
			assert.Equal(t, r.code, got.code(t), "%s: %s %s", r.name, req.method, req.path)
		}
	}
	after := app.view(tb.bob, key)
	assert.Equal(t, v.Version, after.Version, "nothing changed")
	assert.Equal(t, []string{"Alice"}, seatNames(after), "Bob is not seated")
	shown, _ := tb.current(callback.Join)
	assert.Equal(t, lobby.Text, shown.Text, "the chat's table is as it was")

	status, ans := app.act(tb.bob, key, join)
	require.Equal(t, http.StatusOK, status, "%+v", ans)
	assert.True(t, ans.Applied)
	assert.Equal(t, "You're in.", ans.Text, "answered as a press of Join is")
	assert.Equal(t, v.Version+1, ans.Version)
	edited := tb.message(callback.Start, "Alice", "Bob")
	assert.Equal(t, lobby.MessageID, edited.MessageID, "the table message is edited in place")
	seen := live.await("Bob seated", func(v view.View) bool { return v.Version == ans.Version })
	assert.Equal(t, []string{"Alice", "Bob"}, seatNames(seen))
	assert.Equal(t, 1, app.view(tb.bob, key).You.Seat, "Bob plays")

	status, again := app.act(tb.bob, key, join)
	assert.Equal(t, http.StatusConflict, status, "the same action again: drawn for an older version")
	assert.False(t, again.Applied)

	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	start := time.Now()
	require.NoError(t, m.Close(ctx), "the stream does not hold the shutdown")
	assert.Less(t, time.Since(start), shutdownTimeout/2)
	live.ended()
	_, err := http.Get(app.base + "/api/table")
	assert.Error(t, err, "the app server is down")
	auditDatabase(t, db)
}

// TestMainWithoutTheApp: without webapp.listen no app server runs and
// nothing else changes: the bot starts and plays, the admin server and
// the backup socket are the only servers it logs as listening.
func TestMainWithoutTheApp(t *testing.T) {
	srv := telegramtest.StartTest(t)
	cfg := testConfig(srv, filepath.Join(t.TempDir(), "twentyone.db"))
	require.Empty(t, cfg.WebApp.Listen, "the default")
	var logs bytes.Buffer
	m := NewMain(cfg, newLogger(&logs, "info", "json"))
	require.NoError(t, m.Run(context.Background()))
	t.Cleanup(func() { _ = m.Close(context.Background()) })
	assert.Empty(t, m.AppAddr())
	newTable(t, srv).open()
	require.NoError(t, m.Close(context.Background()))

	var listening []string
	for _, line := range bytes.Split(logs.Bytes(), []byte("\n")) {
		var rec struct{ Msg string }
		if json.Unmarshal(line, &rec) == nil && bytes.HasSuffix([]byte(rec.Msg), []byte(" server listening")) {
			listening = append(listening, rec.Msg)
		}
	}
	assert.ElementsMatch(t, []string{"admin server listening", "backup server listening"}, listening)
}

// TestBinaryAppSurvivesAKill: `twentyone run -config FILE` with the webapp
// keys serves the app (and logs them with its config); a player joins
// through it; after kill -9 and a restart on the same
// database, a page reconnecting its stream with the version it had
// (Last-Event-ID) gets the table as it is now at once, moved on in the
// chat meanwhile, and then the versions to come, an action through the
// app's among them.
func TestBinaryAppSurvivesAKill(t *testing.T) {
	t.Parallel()
	srv := telegramtest.StartTest(t)
	db := filepath.Join(t.TempDir(), "twentyone.db")
	refs := appRefs(t, db)
	file := writeFile(t, "twentyone.yaml", "webapp:\n  listen: 127.0.0.1:0\n  url: https://app.example.org/twentyone/\n  name: table\n  max_age: 1h\n")
	env := botEnv(srv, db)
	first := startBinary(t, env, "run", "-config", file)
	first.waitReady()
	logged, _ := first.logRecord("starting")["config"].(map[string]any)
	assert.Equal(t, map[string]any{"listen": "127.0.0.1:0", "url": "https://app.example.org/twentyone/", "name": "table",
		"max_age": float64(time.Hour), "max_viewers": float64(10_000), "max_viewers_per_table": float64(50)}, logged["webapp"], "the config's log line")
	app := newAppClient(t, first.appAddr(), srv.Token(), refs)

	tb := newTable(t, srv)
	tb.command(tb.alice, "newgame")
	tb.message(callback.Join, "Alice")
	key := storage.TableKey{Chat: tb.group.ID}
	live := app.stream(tb.alice, key, "")
	live.await("the lobby", func(v view.View) bool { return v.Phase == "lobby" })
	status, ans := app.act(tb.bob, key, action(t, app.view(tb.bob, key), "join"))
	require.Equal(t, http.StatusOK, status, "%+v", ans)
	had := live.await("Bob seated", func(v view.View) bool { return v.Version == ans.Version })
	tb.message(callback.Start, "Alice", "Bob")

	first.kill()
	live.ended()
	second := startBinary(t, env, "run", "-config", file)
	second.waitReady()
	app = newAppClient(t, second.appAddr(), srv.Token(), refs)
	assert.Equal(t, []string{"Alice", "Bob"}, seatNames(app.view(tb.alice, key)), "the join kept")

	// While the page was away, the game started in the chat.
	tb.pressAndWait(tb.alice, tb.message(callback.Start, "Bob"), callback.Start)
	cut := tb.message(callback.Cut)
	back := app.stream(tb.alice, key, strconv.FormatUint(had.Version, 10))
	now := back.await("the table as it is", func(view.View) bool { return true })
	assert.Greater(t, now.Version, had.Version, "newer than the page had, with no change since it reconnected")
	assert.NotEqual(t, "lobby", now.Phase, "the game under way")

	status, cutAns := app.act(tb.alice, key, action(t, app.view(tb.alice, key), "cut"))
	require.Equal(t, http.StatusOK, status, "%+v", cutAns)
	back.await("the cut", func(v view.View) bool { return v.Version >= cutAns.Version })
	dealt, err := srv.WaitForBotMessage(waitCtx(t), tb.group.ID, func(m telegramtest.ChatMessage) bool {
		_, ok := button(m, callback.Cut)
		return m.MessageID == cut.MessageID && !ok
	})
	require.NoError(t, err)
	assert.Contains(t, dealt.Text, "cut by Alice", "the chat's table shows the cut Alice made in the app")

	second.signal(syscall.SIGTERM)
	require.Equal(t, exitOK, second.waitExit(stopLimit))
	back.ended()
	auditDatabase(t, db)
}

// appAddr returns the app server's address, as the binary logs it.
func (p *proc) appAddr() string {
	p.t.Helper()
	addr, _ := p.logRecord("app server listening")["addr"].(string)
	require.NotEmpty(p.t, addr)
	return addr
}
