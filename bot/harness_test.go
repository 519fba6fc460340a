package bot_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/table"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/storage"
)

// wait is how long a test waits for a condition before failing.
const wait = 15 * time.Second

// step is how far a paced test moves the clock at a time while it waits
// for the bot (harnessOptions.paced): the precision of the times measured.
const step = 100 * time.Millisecond

// newFakeClock returns the clock of a harness: the bot's timeouts (and,
// when paced, its pacing and the server's limits) run on it, and move
// only when the test moves it.
func newFakeClock() *clocktest.Clock {
	return clocktest.NewClock(time.Date(2026, 12, 2, 18, 30, 0, 0, time.UTC))
}

// harness is a group chat on our Bot API server, a real BoltDB file and the
// real bot between them.
type harness struct {
	t      testing.TB
	srv    *telegramtest.Server
	store  *storage.Store
	bot    *bot.Bot
	clock  *clocktest.Clock
	deck   *gametest.Stacked
	dbPath string
	group  telegramtest.Chat
	users  map[string]telegramtest.User
	stop   func()
	// kill stops the bot as a kill would, as far as one process can: see
	// crash.
	kill func()
	opts harnessOptions
	// said is the id of the last message a user sent to the group through
	// command or reply: botSays looks at the bot's messages after it.
	said int
}

type harnessOptions struct {
	srvOpts []telegramtest.Option
	limits  outbox.Limits
	// sync makes the store fsync every commit, as in production.
	sync bool
	// saltDecks: the decks of before the cut (see saltDecks).
	saltDecks bool
	// derived: the decks of the cut ordered by the rules (see derived).
	derived bool
	// owners are the names of the bot's owners.
	owners []string
	chat   func(*telegramtest.Server, ...telegramtest.User) telegramtest.Chat
	// logs, if set, receives the bot's log, as text.
	logs io.Writer
	// webhook runs the bot in webhook mode: the server posts the updates,
	// in parallel as Telegram does, to a webhook the test serves with
	// bot.Handle. hold, if set, is called with each update the webhook
	// gets before it is handled, so that a test can make updates arrive in
	// the order it needs, as Telegram's parallel requests may.
	webhook bool
	hold    func(raw []byte)
	// paced runs the bot at Telegram's limits (outbox.TelegramLimits) and
	// the server enforcing Telegram's (telegramtest.TelegramRateLimits),
	// both on the harness's clock, as the bot's timeouts are: the test
	// moves time (see settle and advance), and a minute passes in no time.
	paced bool
	// perSecond, when set, is the bot's global limit (Limits.PerSecond) of
	// a paced harness, below Telegram's: a few groups contend for it as a
	// thousand do for Telegram's.
	perSecond int
	// viewers, if set, are the bot's (bot.Config.Viewers).
	viewers table.Viewers
	// appName and appURL are the bot's Mini App (bot.Config.AppName,
	// AppURL): see withApp.
	appName, appURL string
	// stepped runs the server too on the harness's clock, and makes the
	// harness's waits (waitFor, and the waits for a message of the bot)
	// move the clock a step at a time while the bot is quiet, until what
	// they wait for holds: for a test of pacing with limits of its own,
	// where time passes only as the test waits.
	stepped bool
}

func newHarness(t testing.TB, opts ...func(*harnessOptions)) *harness {
	t.Helper()
	var o harnessOptions
	for _, f := range opts {
		f(&o)
	}
	h := &harness{t: t, clock: newFakeClock(), deck: &gametest.Stacked{}, users: map[string]telegramtest.User{}, opts: o}
	if o.webhook {
		o.srvOpts = append(o.srvOpts, telegramtest.WithLoopbackWebhooks())
	}
	if o.paced || o.stepped {
		o.srvOpts = append(o.srvOpts, telegramtest.WithClock(h.clock))
	}
	if o.paced {
		h.opts.limits = outbox.TelegramLimits()
		if o.perSecond > 0 {
			h.opts.limits.PerSecond = o.perSecond
		}
	}
	h.srv = telegramtest.StartTest(t, o.srvOpts...)
	if o.paced {
		h.srv.SetRateLimits(telegramtest.TelegramRateLimits())
	}
	var members []telegramtest.User
	for i, name := range []string{"Alice", "Bob", "Carol", "Dave", "Eve"} {
		u := h.srv.AddUser(telegramtest.User{FirstName: name, LanguageCode: "en"})
		h.users[name] = u
		if i < 4 {
			members = append(members, u)
		}
	}
	newChat := o.chat
	if newChat == nil {
		newChat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
			return s.NewGroup("Game night", users...)
		}
	}
	h.group = newChat(h.srv, members...)
	h.dbPath = filepath.Join(t.TempDir(), "twentyone.db")
	h.start()
	t.Cleanup(h.close)
	return h
}

// start opens the store and runs a bot on it.
func (h *harness) start() {
	h.t.Helper()
	// Conditions read the store too: a commit wakes them (in polling mode
	// the next poll would too, but a webhook makes no call of its own).
	st, err := storage.Open(h.dbPath, h.storeOptions())
	require.NoError(h.t, err)
	h.store = st
	var owners []int64
	for _, n := range h.opts.owners {
		owners = append(owners, h.users[n].ID)
	}
	logs := io.Discard
	if h.opts.logs != nil {
		logs = h.opts.logs
	}
	conns := h.dialing()
	b, err := bot.New(context.Background(), bot.Config{
		Token: h.srv.Token(), Endpoint: h.srv.Endpoint(), Transport: conns.transport,
		Store: st, Clock: h.clock, Limits: h.opts.limits,
		Logger:      slog.New(slog.NewTextHandler(logs, nil)),
		PollTimeout: time.Second, Owners: owners, Viewers: h.opts.viewers,
		AppName: h.opts.appName, AppURL: h.opts.appURL,
	})
	require.NoError(h.t, err)
	h.bot = b
	if h.opts.webhook {
		h.serveWebhook(st, b, conns)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	// The start restores the tables and arms their timers in the
	// background: wait for it, as settle knows nothing of it, and a test
	// that moves the clock at once (a restart, then a deadline passed)
	// would move it before the timers are armed.
	deadline := time.Now().Add(wait)
	for !b.Restored() {
		require.False(h.t, time.Now().After(deadline), "the bot did not start")
		time.Sleep(100 * time.Microsecond) // polls a condition
	}
	h.stop = func() {
		h.drain()
		cancel()
		require.NoError(h.t, <-done)
		closeCtx, cancelClose := context.WithTimeout(context.Background(), wait)
		defer cancelClose()
		require.NoError(h.t, b.Close(closeCtx))
		h.hangUp(conns)
		require.NoError(h.t, st.Close())
	}
	h.kill = func() {
		cancel()
		gone, abandon := context.WithCancel(context.Background())
		abandon()
		_ = b.Close(gone) // drops what the outbox holds, aborts the calls in flight
		require.NoError(h.t, <-done)
		require.NoError(h.t, st.Close())
	}
}

// serveWebhook runs b in webhook mode, as cmd/twentyone does: the answer
// is 200 once Handle returned nil, else 500 (Telegram posts it again).
func (h *harness) serveWebhook(st *storage.Store, b *bot.Bot, conns *botConns) {
	h.t.Helper()
	require.NoError(h.t, b.Start(context.Background()))
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if h.opts.hold != nil {
			h.opts.hold(raw)
		}
		if err := b.Handle(r.Context(), raw); err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	require.NoError(h.t, b.SetWebhook(h.ctx(), hook.URL+"/hook", "s3cret", 0))
	h.stop = func() {
		hook.Close()
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		require.NoError(h.t, b.Close(ctx))
		h.hangUp(conns)
		require.NoError(h.t, st.Close())
	}
	h.kill = func() {
		hook.Close()
		gone, abandon := context.WithCancel(context.Background())
		abandon()
		_ = b.Close(gone) // drops what the outbox holds, aborts the calls in flight
		require.NoError(h.t, st.Close())
	}
}

// crash stops the bot as a kill would, as far as one process can, runs
// whileDown, and starts a new bot on the same file: the calls the old bot
// still held are dropped, those in flight aborted (a call it makes while
// stopping may still get through: hold its method with a fault until
// whileDown removes it), the updates it did not confirm are delivered
// again; only what the store committed is left.
func (h *harness) crash(whileDown ...func()) {
	h.t.Helper()
	h.kill()
	h.stop, h.kill = nil, nil
	for _, f := range whileDown {
		f()
	}
	h.start()
}

// restart stops the bot and starts a new one on the same file.
func (h *harness) restart() {
	h.t.Helper()
	h.stop()
	h.stop = nil
	h.start()
}

func (h *harness) close() {
	if h.stop != nil {
		h.stop()
		h.stop = nil
	}
}

func (h *harness) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	h.t.Cleanup(cancel)
	return ctx
}

func (h *harness) user(name string) telegramtest.User {
	u, ok := h.users[name]
	require.True(h.t, ok, "no user %s", name)
	return u
}

func (h *harness) key() storage.TableKey { return storage.TableKey{Chat: h.group.ID} }

// command sends a command as the user.
func (h *harness) command(name, cmd string, args ...string) telegramtest.ChatMessage {
	h.t.Helper()
	m, err := h.srv.SendCommand(h.group.ID, h.user(name).ID, cmd, args...)
	require.NoError(h.t, err)
	if m.Chat.ID == h.group.ID {
		h.said = m.MessageID
	}
	return m
}

// view returns the stored table.
func (h *harness) view() storage.View {
	h.t.Helper()
	v, err := h.store.View(context.Background(), h.key())
	require.NoError(h.t, err)
	return v
}

func (h *harness) version() uint64 { v := h.view(); return v.Table.Version() }
func (h *harness) bank() int64     { v := h.view(); return v.Table.Bank() }

// tableMessage waits until the table message shows the stored table's
// current version (its buttons carry it) and holds for cond, and returns it.
func (h *harness) tableMessage(cond func(telegramtest.ChatMessage) bool) telegramtest.ChatMessage {
	h.t.Helper()
	return h.tableAt(h.key(), cond)
}

// tableAt is tableMessage for the table of key (a forum topic's).
func (h *harness) tableAt(key storage.TableKey, cond func(telegramtest.ChatMessage) bool) telegramtest.ChatMessage {
	h.t.Helper()
	var got telegramtest.ChatMessage
	err := h.waitFor(func(v *telegramtest.View) bool {
		sv, err := h.store.View(context.Background(), key)
		if err != nil || sv.MessageID == 0 {
			return false
		}
		m, ok := v.Message(h.group.ID, sv.MessageID)
		if !ok || !showsVersion(m, sv.Table.Version()) {
			return false
		}
		got = m
		return cond == nil || cond(m)
	})
	require.NoError(h.t, err)
	return got
}

// showsVersion reports whether the message's table buttons carry version v
// (a message with no table button shows whatever it shows).
func showsVersion(m telegramtest.ChatMessage, v uint64) bool {
	table := false
	for _, b := range m.Buttons() {
		d, err := callback.Parse(b.CallbackData)
		if err != nil || !d.Action.TableAction() {
			continue
		}
		table = true
		if d.Version == v {
			return true
		}
	}
	return !table
}

// pressData presses the button match picks on the current table message
// and returns the answer; a deck waiting for its cut is cut first, unless
// match picks a cut button (cutFirst).
func (h *harness) pressData(name string, match func(callback.Data) bool) telegramtest.CallbackAnswer {
	h.t.Helper()
	h.cutFirst(h.key(), nil, match)
	id, data := h.buttonOf(match)
	return h.pressRaw(name, id, data)
}

// buttonOf waits for the current table message to show a button matching
// match, and returns the message's id and the button's callback data.
func (h *harness) buttonOf(match func(callback.Data) bool) (messageID int, data string) {
	h.t.Helper()
	m := h.tableMessage(func(m telegramtest.ChatMessage) bool {
		for _, b := range m.Buttons() {
			if d, err := callback.Parse(b.CallbackData); err == nil && match(d) {
				data = b.CallbackData
				return true
			}
		}
		return false
	})
	return m.MessageID, data
}

// pressRaw presses with the given callback data on a message.
func (h *harness) pressRaw(name string, messageID int, data string) telegramtest.CallbackAnswer {
	h.t.Helper()
	cb, err := h.srv.Press(telegramtest.Press{ChatID: h.group.ID, From: h.user(name).ID, MessageID: messageID, Data: data})
	require.NoError(h.t, err)
	a, err := cb.Wait(h.ctx())
	require.NoError(h.t, err)
	return a
}

// betting stacks the decks, seats Bob and Carol with Alice (the banker)
// and starts the game: Bob is to bet.
func (h *harness) betting(decks string) {
	h.t.Helper()
	h.decks(decks)
	h.lobby("Bob", "Carol")
	h.startGame("Alice")
	h.tableMessage(contains("your bet, Bob"))
}

func action(a callback.Action) func(callback.Data) bool {
	return func(d callback.Data) bool { return d.Action == a }
}

func (h *harness) join(name string) telegramtest.CallbackAnswer {
	return h.pressData(name, action(callback.Join))
}

// startGame presses Start as name and cuts the first deck (see cut).
func (h *harness) startGame(name string) telegramtest.CallbackAnswer {
	h.t.Helper()
	a := h.pressData(name, action(callback.Start))
	h.cut()
	return a
}
func (h *harness) hit(name string) telegramtest.CallbackAnswer {
	return h.pressData(name, action(callback.Hit))
}
func (h *harness) stand(name string) telegramtest.CallbackAnswer {
	return h.pressData(name, action(callback.Stand))
}
func (h *harness) bet(name string, amount int64) telegramtest.CallbackAnswer {
	return h.pressData(name, func(d callback.Data) bool { return d.Action == callback.Bet && d.Amount == amount })
}

// balance returns the user's stored balance.
func (h *harness) balance(name string) int64 {
	h.t.Helper()
	u := h.user(name)
	acc, err := h.store.Account(context.Background(), h.group.ID,
		storage.User{ID: game.UserID(u.ID), Name: u.FirstName}, h.clock.Now())
	require.NoError(h.t, err)
	return acc.Balance
}

// audit asserts the chat's chips add up.
func (h *harness) audit() {
	h.t.Helper()
	a, err := h.store.Audit(context.Background(), h.group.ID)
	require.NoError(h.t, err)
	require.True(h.t, a.OK, "audit: %+v", a)
}

// deckOf sets the decks the next circles are dealt from.
func (h *harness) decks(codes ...string) {
	for _, c := range codes {
		h.deck.Decks = append(h.deck.Decks, gametest.Cards(c))
	}
}

func contains(sub string) func(telegramtest.ChatMessage) bool {
	return func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, sub) }
}

func (h *harness) String() string { return fmt.Sprintf("harness(%d)", h.group.ID) }

type callbackData = callback.Data

const betAction = callback.Bet

// reply sends text as the user in reply to a message.
func (h *harness) reply(name string, to int, text string) {
	h.t.Helper()
	m, err := h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user(name).ID, ReplyTo: to, Text: text})
	require.NoError(h.t, err)
	h.said = m.MessageID
}

// messageSays waits until the group's message id shows every part, and
// returns it.
func (h *harness) messageSays(id int, parts ...string) telegramtest.ChatMessage {
	h.t.Helper()
	var got telegramtest.ChatMessage
	require.NoError(h.t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.Message(h.group.ID, id)
		if !ok {
			return false
		}
		for _, p := range parts {
			if !strings.Contains(m.Text, p) {
				return false
			}
		}
		got = m
		return true
	}), "message %d says %q", id, parts)
	return got
}

// messageGone waits until the group's message id is deleted.
func (h *harness) messageGone(id int) {
	h.t.Helper()
	require.NoError(h.t, h.waitFor(func(v *telegramtest.View) bool {
		_, ok := v.Message(h.group.ID, id)
		return !ok
	}), "message %d is deleted", id)
}

// botSays waits for a bot message in the group, sent after the last
// command or reply of the harness's users, containing every part, and
// returns it.
func (h *harness) botSays(parts ...string) telegramtest.ChatMessage {
	h.t.Helper()
	m, err := h.botMessage(h.group.ID, func(m telegramtest.ChatMessage) bool {
		if m.MessageID <= h.said {
			return false
		}
		for _, p := range parts {
			if !strings.Contains(m.Text, p) {
				return false
			}
		}
		return true
	})
	require.NoError(h.t, err)
	return m
}
