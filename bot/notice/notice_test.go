package notice

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
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

// TestNoticeLife: a lobby opened (Opened) is announced to the group's
// followers once its message is sent (Sent), but not to its opener; once
// the lobby is over (Shown), or the chat forgotten (Forget), nothing of it
// is kept. A private chat has no followers: nothing is kept of its table.
func TestNoticeLife(t *testing.T) {
	tests := []struct {
		name string
		// end ends the lobby's life after it was sent.
		end func(n *Notices, v storage.View)
	}{
		{"the game starts", func(n *Notices, v storage.View) {
			v.Table = playing(t)
			n.Shown(v)
		}},
		{"the chat is forgotten", func(n *Notices, v storage.View) { n.Forget(v.Key.Chat) }},
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
			res, err := st.Apply(ctx, storage.ApplyRequest{Key: key, User: storage.User{ID: game.UserID(ann.ID), Name: "Ann"},
				Command: game.Command{Kind: game.Open}, Now: clock.Now()})
			require.NoError(t, err)
			n.Opened(res.View, storage.User{ID: game.UserID(ann.ID), Name: "Ann"}, &tgbotapi.Chat{ID: group.ID, Type: "supergroup", Title: "Game night"})
			assert.Equal(t, 1, n.Footprint(), "the lobby waits for its message")
			n.Sent(res.View, 7)

			told, err := srv.WaitForBotMessage(ctx, bob.ID, telegramtest.TextContains("opened a table"))
			require.NoError(t, err, "Bob is told")
			assert.Contains(t, told.Text, "Game night")
			require.True(t, eventually(func() bool { return host.idle() && out.Pending() == 0 && out.Quiet() }))
			for _, m := range srv.Messages(ann.ID) {
				assert.False(t, m.FromBot && strings.Contains(m.Text, "opened a table"), "the opener is not told")
			}
			assert.Equal(t, 1, n.Footprint(), "the lobby announced, while it is open")

			tc.end(n, res.View)
			assert.Zero(t, n.Footprint(), "nothing kept")

			private := storage.View{Key: storage.TableKey{Chat: ann.ID}, Table: res.View.Table}
			n.Opened(private, storage.User{ID: game.UserID(ann.ID)}, &tgbotapi.Chat{ID: ann.ID, Type: "private"})
			n.Sent(private, 8)
			assert.Zero(t, n.Footprint(), "a private chat has no followers")
		})
	}
}

// playing returns a table whose game started.
func playing(t *testing.T) game.Table {
	t.Helper()
	env := game.Env{Now: time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC), Settings: game.DefaultSettings(),
		Balances: game.BalanceMap{1: 1000, 2: 1000}}
	var tb game.Table
	for _, cmd := range []game.Command{{Kind: game.Open, User: 1}, {Kind: game.Join, User: 2}, {Kind: game.Start, User: 1}} {
		next, _, err := game.Apply(tb, cmd, env)
		require.NoError(t, err, "%s", cmd.Kind)
		tb = next
	}
	require.NotEqual(t, game.Lobby, tb.Phase())
	return tb
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
