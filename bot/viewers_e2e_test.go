package bot_test

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// told is what the bot told its viewers (bot.Config.Viewers) of a table.
type told struct {
	key     storage.TableKey
	version uint64
	rearmed bool // Rearmed, not Changed
}

// viewersSeen records what the bot tells its viewers, in order.
type viewersSeen struct {
	mu    sync.Mutex
	told  []told
	moved [][2]int64 // Moved's from and to
}

func (s *viewersSeen) Changed(key storage.TableKey, version uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.told = append(s.told, told{key: key, version: version})
}

func (s *viewersSeen) Rearmed(key storage.TableKey, version uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.told = append(s.told, told{key: key, version: version, rearmed: true})
}

func (s *viewersSeen) Moved(from, to int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.moved = append(s.moved, [2]int64{from, to})
}

// movedSeen returns what Moved was told, in order.
func (s *viewersSeen) movedSeen() [][2]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][2]int64(nil), s.moved...)
}

// of returns what the table at key was told, in order.
func (s *viewersSeen) of(key storage.TableKey) []told {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []told
	for _, t := range s.told {
		if t.key == key {
			out = append(out, t)
		}
	}
	return out
}

// changed returns the versions Changed told of the table at key, in
// order, each told again at once left out.
func (s *viewersSeen) changed(key storage.TableKey) []uint64 {
	var out []uint64
	for _, t := range s.of(key) {
		if !t.rearmed && (len(out) == 0 || out[len(out)-1] != t.version) {
			out = append(out, t.version)
		}
	}
	return out
}

// withViewers gives the bot the viewers seen.
func withViewers(seen *viewersSeen) func(*harnessOptions) {
	return func(o *harnessOptions) { o.viewers = seen }
}

// TestViewersAreToldEveryVersion: every version a table goes through
// reaches the bot's viewers, in order, none skipped: the presses' (open,
// join, the house seated, start, the cut), the house's moves, and a
// timeout's (the lobby's deadline closing the table), each as it is
// stored and shown.
func TestViewersAreToldEveryVersion(t *testing.T) {
	seen := &viewersSeen{}
	h := newHarness(t, withViewers(seen))
	h.houseToBet()
	require.Equal(t, 4, h.houseMoves(), "bet, hit, hit, stand")
	h.tableMessage(contains("Game over"))
	h.clock.Advance(game.DefaultSettings().LobbyTimeout + time.Second)
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
		v := h.view()
		return v.Table.Phase() == game.Closed
	}),
		"the lobby's deadline closes the table")
	h.settle()

	versions := seen.changed(h.key())
	require.NotEmpty(t, versions)
	final := h.version()
	var want []uint64
	for v := versions[0]; v <= final; v++ {
		want = append(want, v)
	}
	assert.Equal(t, want, versions, "every version, in order, up to the stored one")
	assert.LessOrEqual(t, versions[0], uint64(1), "from the table's opening")
	for _, tt := range seen.of(h.key()) {
		assert.False(t, tt.rearmed, "no turn went unshown: nothing re-armed (%d)", tt.version)
	}
}

// TestViewersAreToldOfATurnReArmed: under Telegram's pacing the render
// that shows the house's turn waits past the time a turn may run unseen,
// and starts the turn's clock again: the version does not change, and the
// viewers, told of it already, are told it is re-armed (Rearmed), after
// it was told, once the deadline stored moved.
func TestViewersAreToldOfATurnReArmed(t *testing.T) {
	seen := &viewersSeen{}
	h := newHarness(t, paced, withViewers(seen))
	h.command("Alice", "newgame")
	h.handled()
	m, _, _ := h.see()
	h.pressOn(m, "Alice", action(callback.SeatHouse))
	for _, name := range []string{"Bob", "Carol"} {
		m, _, _ = h.see()
		h.pressOn(m, name, action(callback.Join))
	}
	m, _, _ = h.see()
	h.pressOn(m, "Alice", action(callback.Start))
	m, _, _ = h.see() // five writes: the burst is spent
	h.pressOn(m, "Bob", func(d callback.Data) bool { return d.Action == callback.Cut })
	require.True(t, h.houseToMove(), "the house bets first")
	v := h.view()
	version, deadline := v.Table.Version(), v.Table.Deadline()
	rearmed := func() bool {
		for _, tt := range seen.of(h.key()) {
			if tt.rearmed && tt.version == version {
				return true
			}
		}
		return false
	}
	assert.False(t, rearmed(), "not before the render")
	for shown := false; !shown; {
		require.Less(t, h.clock.Now().Sub(deadline), time.Minute, "the render shows the house's turn")
		h.advance(step, step)
		_, _, shown = h.showing()
	}
	h.settle()
	require.True(t, rearmed(), "the viewers are told the turn's clock started again")
	v = h.view()
	assert.Equal(t, version, v.Table.Version(), "at the same version")
	assert.True(t, v.Table.Deadline().After(deadline), "its deadline moved")
	all := seen.of(h.key())
	first := -1
	for i, tt := range all {
		if tt.version == version && first < 0 {
			first = i
		}
	}
	require.GreaterOrEqual(t, first, 0)
	assert.False(t, all[first].rearmed, "Changed told the version first")
}

// TestViewersAreToldOfATableClosedWithTheChat: a table closed because the
// bot was removed from its group shows in no message, but its viewers
// are told of the close all the same.
func TestViewersAreToldOfATableClosedWithTheChat(t *testing.T) {
	seen := &viewersSeen{}
	h := newHarness(t, withViewers(seen))
	h.lobby("Bob")
	require.NoError(t, h.srv.KickBot(h.group.ID, h.user("Alice").ID))
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
		v := h.view()
		return v.Table.Phase() == game.Closed
	}), "the table closes with the chat")
	h.settle()
	versions := seen.changed(h.key())
	require.NotEmpty(t, versions)
	assert.Equal(t, h.version(), versions[len(versions)-1], "the close is told")
}
