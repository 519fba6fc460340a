package notice

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// chats runs the notices' work on a goroutine of its own (Host.OnChat),
// and counts what runs; it takes what the calls tell (send.Chats).
type chats struct {
	mu      sync.Mutex
	running int
}

func (c *chats) OnChat(_ int64, _ string, fn func(ctx context.Context)) {
	c.mu.Lock()
	c.running++
	c.mu.Unlock()
	go func() {
		fn(context.Background())
		c.mu.Lock()
		c.running--
		c.mu.Unlock()
	}()
}

func (c *chats) idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running == 0
}

func (c *chats) Moved(int64, int64) {}
func (c *chats) Refused(int64)      {}

// TestNoticeLife: what Opened returns, told of the lobby's first message
// (as the table keeper tells it), announces the lobby to the group's
// followers, but not to its opener, with a link to that message; a notice
// whose lobby is over by its turn (a game started, the table closed, or
// it moved into another message) tells nobody. A private chat has no
// followers: Opened returns nil.
func TestNoticeLife(t *testing.T) {
	tests := []struct {
		name string
		// then changes the lobby l before the notices' turn (before its
		// message is told, as a notice reads the table only when its turn
		// comes); nil: nothing changes.
		then func(t *testing.T, l lobby)
		told bool
	}{
		{"the lobby is told", nil, true},
		{"a game started", func(t *testing.T, l lobby) {
			l = l.apply(t, l.bob, game.Join)
			l.apply(t, l.ann, game.Start)
		}, false},
		{"the table closed", func(t *testing.T, l lobby) { l.apply(t, l.ann, game.Leave) }, false},
		{"the lobby moved into another message", func(t *testing.T, l lobby) {
			require.NoError(t, l.st.SetMessage(context.Background(), l.v.Key, 8))
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			srv := telegramtest.StartTest(t)
			ann := srv.AddUser(telegramtest.User{FirstName: "Ann", LanguageCode: "en"})
			bob := srv.AddUser(telegramtest.User{FirstName: "Bob", LanguageCode: "en"})
			group := srv.NewSupergroup("Game night", ann, bob)
			st, err := storage.Open(filepath.Join(t.TempDir(), "twentyone.db"), storage.Options{NoSync: true})
			require.NoError(t, err)
			t.Cleanup(func() { require.NoError(t, st.Close()) })
			clock := clocktest.NewClock(time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC))
			api, err := botapi.New(ctx, botapi.Options{Token: srv.Token(), Endpoint: srv.Endpoint(), Transport: srv.Client().Transport})
			require.NoError(t, err)
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			out := outbox.New(outbox.Options{Clock: clock, Logger: log})
			host := &chats{}
			n := New(st, send.New(api, out, host, log), clock, log, host)

			for _, u := range []telegramtest.User{ann, bob} {
				srv.PrivateChat(u)
				_, err := st.Follow(ctx, group.ID, storage.User{ID: game.UserID(u.ID), Name: u.FirstName}, "Game night", clock.Now())
				require.NoError(t, err)
			}
			key := storage.TableKey{Chat: group.ID}
			l := lobby{st: st, ann: storage.User{ID: game.UserID(ann.ID), Name: "Ann"}, bob: storage.User{ID: game.UserID(bob.ID), Name: "Bob"},
				v: storage.View{Key: key}, now: clock.Now()}
			l = l.apply(t, l.ann, game.Open)
			sent := n.Opened(l.ann, &tgbotapi.Chat{ID: group.ID, Type: "supergroup", Title: "Game night"})
			require.NotNil(t, sent)
			require.NoError(t, st.SetMessage(ctx, key, 7)) // the table keeper stores the id, then tells it
			if tc.then != nil {
				tc.then(t, l)
			}
			sent(l.v, 7)

			require.True(t, eventually(func() bool { return host.idle() && out.Pending() == 0 && out.Quiet() }))
			for _, m := range srv.Messages(ann.ID) {
				assert.False(t, m.FromBot && strings.Contains(m.Text, "opened a table"), "the opener is not told")
			}
			var told []telegramtest.ChatMessage
			for _, m := range srv.Messages(bob.ID) {
				if m.FromBot && strings.Contains(m.Text, "opened a table") {
					told = append(told, m)
				}
			}
			if !tc.told {
				assert.Empty(t, told, "nobody is told")
				return
			}
			require.Len(t, told, 1, "Bob is told")
			assert.Contains(t, told[0].Text, "Game night: Ann opened a table.")
			require.Len(t, told[0].Buttons(), 1)
			assert.Equal(t, "https://t.me/c/"+strconv.FormatInt(-group.ID-1_000_000_000_000, 10)+"/7", told[0].Buttons()[0].URL)

			assert.Nil(t, n.Opened(storage.User{ID: game.UserID(ann.ID)}, &tgbotapi.Chat{ID: ann.ID, Type: "private"}),
				"a private chat has no followers")
		})
	}
}

// lobby is a table of the test's group, as stored after a command.
type lobby struct {
	st       *storage.Store
	ann, bob storage.User
	v        storage.View
	now      time.Time
}

// apply applies a command of kind by u to the table and returns it after.
func (l lobby) apply(t *testing.T, u storage.User, kind game.CommandKind) lobby {
	t.Helper()
	res, err := l.st.Apply(context.Background(), storage.ApplyRequest{Key: l.v.Key, User: u,
		Command: game.Command{Kind: kind, User: u.ID, Name: u.Name, Version: l.v.Table.Version()}, Now: l.now})
	require.NoError(t, err, "%s", kind)
	l.v = res.View
	return l
}

// eventually reports whether cond holds within fifteen seconds, looking
// again until it does.
func eventually(cond func() bool) bool {
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Microsecond) {
		if cond() {
			return true
		}
	}
	return false
}
