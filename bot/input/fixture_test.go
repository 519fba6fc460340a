package input

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/notice"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/pace"
	"github.com/twentyone-bot/twentyone/bot/panel"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/bot/table"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/storage"
)

// waitLimit bounds every wait of a fixture.
const waitLimit = 15 * time.Second

// fixture is a Handler on the real rooms, a real store in a temp dir and
// our Bot API server, without the bot's loop: the test hands the updates
// the server holds to the Handler itself (deliver), one at a time, as the
// bot's serial chats would, and waits for the outbox (settle).
type fixture struct {
	t     *testing.T
	srv   *telegramtest.Server
	store *storage.Store
	clock *clocktest.Clock
	deck  *gametest.Stacked
	out   *outbox.Outbox
	api   *botapi.Client // the bot's client, for the updates the test fetches
	h     *Handler
	host  *host

	users map[string]telegramtest.User
	group telegramtest.Chat
	// offset is the next update to fetch.
	offset int
}

// host is the bot as the rooms see it (table.Host, notice.Host,
// send.Chats): work on a chat runs one at a time with the updates the
// test delivers, as the bot's root does.
type host struct {
	mu      sync.Mutex   // one piece of work at a time, as one chat's goroutine
	pending atomic.Int64 // the work not done yet
	moved   []int64
}

func (h *host) OnChat(chat int64, kind string, fn func(ctx context.Context)) {
	h.pending.Add(1)
	go func() {
		defer h.pending.Add(-1)
		h.mu.Lock()
		defer h.mu.Unlock()
		fn(context.Background())
	}()
}
func (h *host) Moved(chat, to int64) { h.mu.Lock(); h.moved = append(h.moved, chat); h.mu.Unlock() }
func (h *host) Refused(int64)        {}

// newFixture starts the server, with Alice (the group's creator), Bob and
// Carol in the group "Game night" and Dave outside it, and a Handler whose
// owner is Carol; opts change the store's options (cutting).
func newFixture(t *testing.T, opts ...func(*fixture, *storage.Options)) *fixture {
	t.Helper()
	f := &fixture{t: t, srv: telegramtest.StartTest(t), deck: &gametest.Stacked{},
		clock: clocktest.NewClock(time.Date(2026, 12, 2, 18, 30, 0, 0, time.UTC)), users: map[string]telegramtest.User{}}
	for _, name := range []string{"Alice", "Bob", "Carol", "Dave"} {
		f.users[name] = f.srv.AddUser(telegramtest.User{FirstName: name, LanguageCode: "en"})
	}
	f.group = f.srv.NewGroup("Game night", f.users["Alice"], f.users["Bob"], f.users["Carol"])
	o := storage.Options{Rand: f.deck, NoSync: true, OnCommit: func(time.Duration, int) { f.srv.Nudge() }}
	for _, opt := range opts {
		opt(f, &o)
	}
	st, err := storage.Open(filepath.Join(t.TempDir(), "twentyone.db"), o)
	require.NoError(t, err)
	f.store = st
	ctx := context.Background()
	api, err := botapi.New(ctx, botapi.Options{Token: f.srv.Token(), Endpoint: f.srv.Endpoint(), Transport: f.srv.Client().Transport})
	require.NoError(t, err)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	f.out = outbox.New(outbox.Options{Logger: log, Clock: f.clock})
	f.host = &host{}
	f.api = api
	s := send.New(api, f.out, f.host, log)
	tables := table.New(st, s, f.clock, log, f.host, nil)
	notices := notice.New(st, s, f.clock, log, f.host)
	panels := panel.New(st, s, f.clock, tables)
	f.h = New(st, st, st, Rooms{Send: s, Tables: tables, Notices: notices, Panels: panels}, f.clock, log,
		Options{Owners: []int64{f.users["Carol"].ID}, AdminTTL: time.Minute})
	earlier, err := pace.New(st, tables, f.out, f.clock, outbox.Limits{}, log).Restore(ctx)
	require.NoError(t, err)
	_, err = tables.Start(ctx, earlier, 0)
	require.NoError(t, err)
	t.Cleanup(func() {
		f.settle()
		tables.Stop()
		cctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		require.NoError(t, f.out.Close(cctx))
		require.NoError(t, st.Close())
	})
	return f
}

// ctx bounds a wait.
func (f *fixture) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	f.t.Cleanup(cancel)
	return ctx
}

// user returns the user named.
func (f *fixture) user(name string) telegramtest.User {
	u, ok := f.users[name]
	require.True(f.t, ok, name)
	return u
}

// deliver hands every update the server holds to the Handler, in order,
// as the bot's loop would (a press to Press, a message to Message), and
// waits until the bot is quiet.
func (f *fixture) deliver() {
	f.t.Helper()
	raws, err := f.api.GetUpdates(f.ctx(), f.offset, 0, nil)
	require.NoError(f.t, err)
	for _, raw := range raws {
		u, err := botapi.Decode(raw)
		require.NoError(f.t, err)
		f.offset = u.UpdateID + 1
		f.handle(u)
	}
	f.settle()
}

// handle hands one update to the Handler.
func (f *fixture) handle(u botapi.Update) {
	f.host.mu.Lock()
	defer f.host.mu.Unlock()
	switch {
	case u.CallbackQuery != nil:
		f.h.Press(context.Background(), u)
	case u.Message != nil:
		f.h.Message(context.Background(), u)
	}
}

// settle waits until the work the host runs and the outbox are done.
func (f *fixture) settle() {
	f.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		if f.host.pending.Load() == 0 && f.out.Quiet() && f.host.pending.Load() == 0 {
			return
		}
		require.False(f.t, time.Now().After(deadline), "the outbox did not settle")
		time.Sleep(100 * time.Microsecond) // polls a condition; no clock moves meanwhile
	}
}

// command sends a command as the user named into chat, delivers it and
// returns it.
func (f *fixture) command(chat int64, name, cmd string, args ...string) telegramtest.ChatMessage {
	f.t.Helper()
	m, err := f.srv.SendCommand(chat, f.user(name).ID, cmd, args...)
	require.NoError(f.t, err)
	f.deliver()
	return m
}

// press presses, as the user named, on the message id of chat, the data,
// delivers it and returns the answer.
func (f *fixture) press(chat int64, name string, id int, data string) telegramtest.CallbackAnswer {
	f.t.Helper()
	cb, err := f.srv.Press(telegramtest.Press{ChatID: chat, From: f.user(name).ID, MessageID: id, Data: data})
	require.NoError(f.t, err)
	f.deliver()
	a, ok := cb.Answer()
	require.True(f.t, ok, "the press of %q is answered", data)
	return a
}

// view returns the stored table of chat.
func (f *fixture) view(chat int64) storage.View {
	f.t.Helper()
	v, err := f.store.View(context.Background(), storage.TableKey{Chat: chat})
	require.NoError(f.t, err)
	return v
}

// table returns the stored table of chat.
func (f *fixture) table(chat int64) *game.Table {
	f.t.Helper()
	v := f.view(chat)
	return &v.Table
}

// tableMessage returns the message of the table of chat as the server
// holds it.
func (f *fixture) tableMessage(chat int64) telegramtest.ChatMessage {
	f.t.Helper()
	v := f.view(chat)
	require.NotZero(f.t, v.MessageID, "the table has a message")
	var m telegramtest.ChatMessage
	require.NoError(f.t, f.srv.WaitFor(f.ctx(), func(view *telegramtest.View) bool {
		var ok bool
		m, ok = view.Message(chat, v.MessageID)
		return ok
	}))
	return m
}

// button returns the data of the table message's button of action a.
func (f *fixture) button(chat int64, a callback.Action) (id int, data string) {
	f.t.Helper()
	m := f.tableMessage(chat)
	for _, b := range m.Buttons() {
		if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == a {
			return m.MessageID, b.CallbackData
		}
	}
	f.t.Fatalf("the table of %d shows no %s: %v", chat, a, m.Buttons())
	return 0, ""
}

// pressButton presses the table message's button of action a.
func (f *fixture) pressButton(chat int64, name string, a callback.Action) telegramtest.CallbackAnswer {
	f.t.Helper()
	id, data := f.button(chat, a)
	return f.press(chat, name, id, data)
}

// botSaid returns the text of the bot's last message in chat.
func (f *fixture) botSaid(chat int64) string {
	f.t.Helper()
	var text string
	require.NoError(f.t, f.srv.WaitFor(f.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.LastBotMessage(chat)
		text = m.Text
		return ok
	}))
	return text
}

// lobby opens a table in the group as Alice and seats the others named.
func (f *fixture) lobby(names ...string) {
	f.t.Helper()
	f.command(f.group.ID, "Alice", "newgame")
	for _, n := range names {
		a := f.pressButton(f.group.ID, n, callback.Join)
		require.False(f.t, a.ShowAlert, "%s joins: %s", n, a.Text)
	}
}

// cutting makes every new deck wait for its cut, as at the bot's tables
// (the decks stacked still: the fixture's deck orders them).
func cutting(f *fixture, o *storage.Options) { o.CutWait, o.Deriver = game.DefaultCutWait, f.deck }

// decks sets the decks the next circles are dealt from.
func (f *fixture) decks(codes ...string) {
	for _, c := range codes {
		f.deck.Decks = append(f.deck.Decks, gametest.Cards(c))
	}
}

// seated returns the names of the players seated at the table of chat.
func (f *fixture) seated(chat int64) []string {
	var names []string
	v := f.view(chat)
	for _, s := range v.Table.Seats() {
		names = append(names, s.Name)
	}
	return names
}

// has reports whether s holds every part.
func has(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
