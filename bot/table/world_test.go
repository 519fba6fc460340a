package table

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// world is a Keeper between our Bot API server and a real store, on the
// fake clock: a group of Ann (its admin) and Bob, and the host the
// Keeper reports to (chats).
type world struct {
	t        *testing.T
	srv      *telegramtest.Server
	store    *storage.Store
	clock    *clocktest.Clock
	out      *outbox.Outbox
	send     *send.Sender
	host     *chats
	k        *Keeper
	ann, bob telegramtest.User
	// viewers are what the Keeper tells of each version (nil: nobody);
	// set before a restart, the new Keeper tells them.
	viewers Viewers
	group   telegramtest.Chat
	// restart gives the world a new Keeper on the same store, as a
	// restart does (restartWith).
	restart func()
}

var worldStart = time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)

func newWorld(t *testing.T, newChat ...func(*telegramtest.Server, ...telegramtest.User) telegramtest.Chat) *world {
	t.Helper()
	w := &world{t: t, srv: telegramtest.StartTest(t), clock: clocktest.NewClock(worldStart)}
	w.ann = w.srv.AddUser(telegramtest.User{FirstName: "Ann", LanguageCode: "en"})
	w.bob = w.srv.AddUser(telegramtest.User{FirstName: "Bob", LanguageCode: "en"})
	w.group = w.srv.NewGroup("Game night", w.ann, w.bob)
	if len(newChat) > 0 {
		w.group = newChat[0](w.srv, w.ann, w.bob)
	}
	st, err := storage.Open(filepath.Join(t.TempDir(), "twentyone.db"), storage.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, st.Close()) })
	w.store = st
	api, err := botapi.New(context.Background(), botapi.Options{Token: w.srv.Token(), Endpoint: w.srv.Endpoint(), Transport: w.srv.Client().Transport})
	require.NoError(t, err)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	w.out = outbox.New(outbox.Options{Clock: w.clock, Logger: log})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.out.Close(ctx)
	})
	w.host = newChats()
	w.send = send.New(api, w.out, w.host, log)
	w.k = New(st, w.send, w.clock, log, w.host, w.viewers)
	t.Cleanup(func() { w.k.Stop() })
	w.restart = w.restartWith(nil)
	return w
}

// restartWith returns what gives the world a new Keeper on the same
// store, as a restart does: the old one stopped, and p, the pace the old
// one's process kept (nil for none), closed, as the bot's Close does.
func (w *world) restartWith(p interface{ Close(context.Context) }) func() {
	return func() {
		w.k.Stop()
		w.settle()
		if p != nil {
			p.Close(context.Background())
		}
		w.k = New(w.store, w.send, w.clock, slog.New(slog.NewTextHandler(io.Discard, nil)), w.host, w.viewers)
	}
}

// key is the table of the group, in forum topic thread (0: none).
func (w *world) key(thread ...int64) storage.TableKey {
	k := storage.TableKey{Chat: w.group.ID}
	if len(thread) > 0 {
		k.Thread = thread[0]
	}
	return k
}

// apply applies the command of user (its name) at the table, and returns
// the view after it.
func (w *world) apply(key storage.TableKey, user telegramtest.User, kind game.CommandKind, opts ...func(*storage.ApplyRequest)) storage.View {
	w.t.Helper()
	v := w.view(key)
	req := storage.ApplyRequest{Key: key, User: storage.User{ID: game.UserID(user.ID), Name: user.FirstName},
		Command: game.Command{Kind: kind, Version: v.Table.Version()}, Now: w.clock.Now()}
	for _, o := range opts {
		o(&req)
	}
	res, err := w.store.Apply(context.Background(), req)
	require.NoError(w.t, err, "%s", kind)
	return res.View
}

// view reads the table as stored (the zero view when there is none).
func (w *world) view(key storage.TableKey) storage.View {
	v, _ := w.store.View(context.Background(), key)
	return v
}

// phase, version and seated read the table as stored.
func (w *world) phase(key storage.TableKey) game.Phase {
	v := w.view(key)
	return v.Table.Phase()
}

func (w *world) version(key storage.TableKey) uint64 {
	v := w.view(key)
	return v.Table.Version()
}

func (w *world) seated(key storage.TableKey, user game.UserID) bool {
	v := w.view(key)
	_, ok := v.Table.SeatOf(user)
	return ok
}

// show shows the view on its chat's goroutine, as the commands do, and
// waits until the Keeper settled.
func (w *world) show(v storage.View) {
	w.onChat(v.Key.Chat, func(context.Context) { w.k.Show(v) })
}

// onChat runs fn on the chat's goroutine and waits until the Keeper
// settled.
func (w *world) onChat(chat int64, fn func(ctx context.Context)) {
	w.host.OnChat(chat, "test", fn)
	w.settle()
}

// advance moves the clock by d and waits until the Keeper settled.
func (w *world) advance(d time.Duration) {
	w.clock.Advance(d)
	w.settle()
}

// waitUntil waits until cond holds and the Keeper settled: for what the
// clock runs in a goroutine of its own (a timer set for a time past).
func (w *world) waitUntil(cond func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		require.False(w.t, time.Now().After(deadline), "the condition did not come to hold")
		time.Sleep(100 * time.Microsecond) // polls a condition; the clock does not move meanwhile
	}
	w.settle()
}

// settle waits until nothing runs on a chat's goroutine and the outbox
// is quiet with nothing waiting.
func (w *world) settle() {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !(w.host.idle() && w.out.Pending() == 0 && w.out.Quiet() && w.host.idle()) {
		require.False(w.t, time.Now().After(deadline), "the keeper did not settle")
		time.Sleep(100 * time.Microsecond) // polls a condition; the clock does not move meanwhile
	}
}

// message returns the table's message as the chat shows it.
func (w *world) message(key storage.TableKey) (telegramtest.ChatMessage, bool) {
	v := w.view(key)
	if v.MessageID == 0 {
		return telegramtest.ChatMessage{}, false
	}
	return w.srv.Message(key.Chat, v.MessageID)
}

// botMessages counts the bot's messages in the chat.
func (w *world) botMessages(chat int64) int {
	n := 0
	for _, m := range w.srv.Messages(chat) {
		if m.FromBot {
			n++
		}
	}
	return n
}

// chats is the bot above the Keeper as the tests see it: one goroutine at
// a time per chat (Host.OnChat), and what the calls found out of the
// chats (send.Chats).
type chats struct {
	mu      sync.Mutex
	queues  map[int64][]func(context.Context)
	running int
}

func newChats() *chats {
	return &chats{queues: map[int64][]func(context.Context){}}
}

// OnChat runs fn after what is queued on the chat.
func (c *chats) OnChat(chat int64, _ string, fn func(ctx context.Context)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queues[chat] = append(c.queues[chat], fn)
	c.running++
	if len(c.queues[chat]) == 1 {
		go c.run(chat)
	}
}

func (c *chats) run(chat int64) {
	for {
		c.mu.Lock()
		fn := c.queues[chat][0]
		c.mu.Unlock()
		fn(context.Background())
		c.mu.Lock()
		c.queues[chat] = c.queues[chat][1:]
		c.running--
		more := len(c.queues[chat]) > 0
		if !more {
			delete(c.queues, chat)
		}
		c.mu.Unlock()
		if !more {
			return
		}
	}
}

// idle reports whether nothing runs or waits on any chat.
func (c *chats) idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running == 0
}

func (c *chats) Moved(int64, int64) {}
func (c *chats) Refused(int64)      {}
