package table

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/pace"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestKeeperShow: Show brings the table's one message to the table as it
// is: the first show sends it (its id stored), a later one edits it in
// place; a message deleted is sent anew; a table moved to a new message
// (a repost) retires the old one.
func TestKeeperShow(t *testing.T) {
	tests := []struct {
		name string
		// change changes the world after the lobby was shown in message
		// first, and returns the view to show.
		change func(w *world, first int) storage.View
		// moved: the table is in a new message; oldGone: the first is
		// deleted.
		moved, oldGone bool
	}{
		{"a join is edited in place", func(w *world, _ int) storage.View {
			return w.apply(w.key(), w.bob, game.Join)
		}, false, false},
		{"a deleted message is sent anew", func(w *world, first int) storage.View {
			require.NoError(t, w.srv.DeleteMessage(w.group.ID, w.ann.ID, first))
			return w.apply(w.key(), w.bob, game.Join)
		}, true, true},
		{"a repost retires the old message", func(w *world, _ int) storage.View {
			return w.apply(w.key(), w.bob, game.Join, func(r *storage.ApplyRequest) { r.Repost = true })
		}, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.show(w.apply(w.key(), w.ann, game.Open))
			first, ok := w.message(w.key())
			require.True(t, ok, "the lobby is sent")
			assert.Contains(t, first.Text, "Ann")

			w.show(tc.change(w, first.MessageID))
			m, ok := w.message(w.key())
			require.True(t, ok)
			assert.Contains(t, m.Text, "Bob", "the newest state is shown")
			assert.Equal(t, tc.moved, m.MessageID != first.MessageID, "a new message")
			_, kept := w.srv.Message(w.group.ID, first.MessageID)
			assert.Equal(t, tc.oldGone, !kept, "the first message is gone")
			assert.Empty(t, w.view(w.key()).Retiring, "nothing left to retire")
		})
	}
}

// TestKeeperShowsEachMessageOnce: a render that would edit the table's
// message to what it shows already makes no call (Telegram would answer
// "message is not modified"); one that changes it edits it.
func TestKeeperShowsEachMessageOnce(t *testing.T) {
	w := newWorld(t)
	lobby := w.apply(w.key(), w.ann, game.Open)
	w.show(lobby)
	_, ok := w.message(w.key())
	require.True(t, ok, "the lobby is sent")
	edits := func() int { return w.srv.Calls().Count("editMessageText") }

	before := edits()
	w.show(lobby)
	w.show(w.view(w.key()))
	assert.Equal(t, before, edits(), "the same table again: no edit")

	w.show(w.apply(w.key(), w.bob, game.Join))
	assert.Equal(t, before+1, edits(), "a change: one edit")
	m, _ := w.message(w.key())
	assert.Contains(t, m.Text, "Bob")
}

// TestKeeperTimers: Show arms the table's deadline, which applies the
// timeout when it comes due; Forget disarms a chat's, Stop every one;
// Start arms the stored ones again, held until Release.
func TestKeeperTimers(t *testing.T) {
	lobby := game.DefaultSettings().LobbyTimeout
	tests := []struct {
		name string
		// then runs after the lobby was shown.
		then   func(w *world)
		closed bool
	}{
		{"the lobby's deadline closes it", func(w *world) { w.advance(lobby + time.Second) }, true},
		{"not before", func(w *world) { w.advance(lobby - time.Second) }, false},
		{"Forget disarms the chat's", func(w *world) {
			w.k.Forget(w.group.ID)
			w.advance(lobby + time.Second)
		}, false},
		{"Stop disarms every one", func(w *world) {
			w.k.Stop()
			w.advance(lobby + time.Second)
		}, false},
		{"a restart arms it again, held while Start's grace lasts", func(w *world) {
			w.restart()
			keys, err := w.k.Start(context.Background(), pace.Earlier{}, time.Hour)
			require.NoError(t, err)
			assert.Equal(t, []storage.TableKey{w.key()}, keys, "the open table to restore")
			w.advance(lobby + time.Second)
			assert.NotEqual(t, game.Closed, w.phase(w.key()), "held")
			w.k.Release() // what it held fires at once, in a goroutine of the clock's
			w.waitUntil(func() bool { return w.phase(w.key()) == game.Closed })
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.show(w.apply(w.key(), w.ann, game.Open))
			tc.then(w)
			assert.Equal(t, tc.closed, w.phase(w.key()) == game.Closed, "closed")
			if tc.closed {
				m, ok := w.message(w.key())
				require.True(t, ok)
				assert.True(t, showsClosed(m), "the message shows it: %q", m.Text)
			}
		})
	}
}

// showsClosed reports whether the table message shows a closed table.
func showsClosed(m telegramtest.ChatMessage) bool {
	return strings.Contains(strings.ToLower(m.Text), "closed")
}

// TestKeeperRefresh: Refresh and RefreshChat show an open table again as
// stored; a closed table is not shown again. EachTable gives each of a
// chat's tables, one per forum topic.
func TestKeeperRefresh(t *testing.T) {
	w := newWorld(t, func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
		return s.NewForum("Game night", users...)
	})
	var keys []storage.TableKey
	for _, name := range []string{"one", "two"} {
		thread, err := w.srv.CreateTopic(w.group.ID, w.ann.ID, name)
		require.NoError(t, err)
		key := w.key(int64(thread))
		keys = append(keys, key)
		w.show(w.apply(key, w.ann, game.Open))
	}
	// Bob joins both, in storage only: the messages do not show him yet.
	for _, key := range keys {
		w.apply(key, w.bob, game.Join)
		m, _ := w.message(key)
		require.NotContains(t, m.Text, "Bob")
	}

	var each []storage.TableKey
	w.onChat(w.group.ID, func(ctx context.Context) {
		w.k.EachTable(ctx, w.group.ID, func(v storage.View) { each = append(each, v.Key) })
	})
	assert.ElementsMatch(t, keys, each, "EachTable: every topic's table")
	w.onChat(w.group.ID, func(ctx context.Context) {
		w.k.EachTable(ctx, -42, func(v storage.View) { t.Errorf("a table of a chat with none: %v", v.Key) })
	})

	w.onChat(w.group.ID, func(ctx context.Context) { w.k.Refresh(ctx, keys[0]) })
	m, _ := w.message(keys[0])
	assert.Contains(t, m.Text, "Bob", "Refresh shows the table as stored")
	m, _ = w.message(keys[1])
	assert.NotContains(t, m.Text, "Bob", "and only that table")

	w.onChat(w.group.ID, func(ctx context.Context) { w.k.RefreshChat(ctx, w.group.ID) })
	m, _ = w.message(keys[1])
	assert.Contains(t, m.Text, "Bob", "RefreshChat shows every table of the chat")

	// A closed table is not shown again.
	w.show(w.apply(keys[0], w.ann, game.Cancel))
	before := w.srv.Calls()
	w.onChat(w.group.ID, func(ctx context.Context) { w.k.Refresh(ctx, keys[0]) })
	assert.Zero(t, w.srv.Calls().Sub(before).Count("editMessageText")+w.srv.Calls().Sub(before).Count("sendMessage"),
		"no call for a closed table")
}

// TestKeeperRestore: Restore shows a table Start returned again unless
// its message shows the stored table already, as the process before
// saved (pace.Earlier.Current); either way its timers are armed.
func TestKeeperRestore(t *testing.T) {
	for _, current := range []bool{false, true} {
		name := map[bool]string{false: "behind", true: "current"}[current]
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			w := newWorld(t)
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			kept := func() pace.Earlier { // the pace of the process, kept
				p := pace.New(w.store, w.k, w.out, w.clock, outbox.TelegramLimits(), log)
				earlier, err := p.Restore(ctx)
				require.NoError(t, err)
				t.Cleanup(func() { p.Close(ctx) })
				w.restart = w.restartWith(p)
				return earlier
			}
			_, err := w.k.Start(ctx, kept(), 0)
			require.NoError(t, err)
			w.show(w.apply(w.key(), w.ann, game.Open))
			v := w.apply(w.key(), w.bob, game.Join) // stored; the message is behind
			if current {
				w.show(v)
			}
			w.restart()
			keys, err := w.k.Start(ctx, kept(), 0)
			require.NoError(t, err)
			require.Equal(t, []storage.TableKey{w.key()}, keys)
			before := w.srv.Calls()
			w.onChat(w.group.ID, func(ctx context.Context) { w.k.Restore(ctx, w.key()) })
			edits := w.srv.Calls().Sub(before).OK("editMessageText")
			m, _ := w.message(w.key())
			assert.Contains(t, m.Text, "Bob")
			if current {
				assert.Zero(t, edits, "the message shows the table already")
			} else {
				assert.Equal(t, 1, edits, "shown again")
			}
			w.advance(game.DefaultSettings().LobbyTimeout + time.Second)
			assert.Equal(t, game.Closed, w.phase(w.key()), "its deadline armed")
		})
	}
}

// TestKeeperUnseatHouse: the house seated at a table of a chat that
// forbids it stands up, and the table is shown without it.
func TestKeeperUnseatHouse(t *testing.T) {
	w := newWorld(t)
	w.apply(w.key(), w.ann, game.Open)
	res, err := w.store.Apply(context.Background(), storage.ApplyRequest{Key: w.key(), User: HouseUser,
		Command: game.Command{Kind: game.Join, Version: w.version(w.key())}, Now: w.clock.Now()})
	require.NoError(t, err)
	w.show(res.View)
	seated := w.seated(w.key(), house.ID)
	require.True(t, seated)
	m, _ := w.message(w.key())
	require.Contains(t, m.Text, "House")

	w.onChat(w.group.ID, func(ctx context.Context) { w.k.UnseatHouse(ctx, w.group.ID) })
	seated = w.seated(w.key(), house.ID)
	assert.True(t, seated, "a chat that allows the house keeps it")

	_, err = w.store.UpdateSettings(context.Background(), w.group.ID, func(s *storage.ChatSettings) error {
		s.HouseForbidden = true
		return nil
	})
	require.NoError(t, err)
	w.onChat(w.group.ID, func(ctx context.Context) { w.k.UnseatHouse(ctx, w.group.ID) })
	seated = w.seated(w.key(), house.ID)
	assert.False(t, seated, "stood up")
	m, _ = w.message(w.key())
	assert.NotContains(t, m.Text, "House", "shown without it")
	assert.Contains(t, m.Text, "Ann")
}

// TestKeeperForgetsClosedTables: once the tables closed and their closing
// render went out, the keeper holds nothing of them: no timer, no message
// or render, no opening (Open), no nudge.
func TestKeeperForgetsClosedTables(t *testing.T) {
	w := newWorld(t)
	chats := []int64{w.group.ID}
	for range 20 {
		chats = append(chats, w.srv.NewGroup("more", w.ann, w.bob).ID)
	}
	var r told
	for i, chat := range chats {
		key := storage.TableKey{Chat: chat}
		v := w.apply(key, w.ann, game.Open)
		if i%2 == 0 {
			w.onChat(chat, func(context.Context) { w.k.Open(v, r.sent) })
		} else {
			w.show(v)
		}
	}
	timers, tables, _ := w.k.Footprint()
	require.Equal(t, len(chats), timers, "a deadline each")
	require.Equal(t, len(chats), tables, "a message each")

	w.advance(game.DefaultSettings().LobbyTimeout + time.Second)
	for _, chat := range chats {
		require.Equal(t, game.Closed, w.phase(storage.TableKey{Chat: chat}))
	}
	timers, tables, nudges := w.k.Footprint()
	assert.Zero(t, timers, "no timer")
	assert.Zero(t, tables, "no table message or render")
	assert.Zero(t, nudges, "no nudge")
	assert.Zero(t, w.clock.Armed(), "no clock timer")
}
