package bot_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// A solo table under Telegram's real limits: a private chat's (see
// pacing_e2e_test.go for the harness's paced mode).

// TestPacedSoloIsAPrivateChat: a solo table, in a private chat, is paced
// as Telegram limits a private chat, a write a second, not as a group:
// Alice and the house play for a minute, Alice's moves show within a
// second of her press (two after one that wrote twice), the minute holds
// more writes than a group's 20, none within a second of another, and
// Telegram refuses none.
func TestPacedSoloIsAPrivateChat(t *testing.T) {
	h := newHarness(t, paced, inPrivate)
	sub := h.srv.Subscribe(8192)
	defer sub.Close()
	h.command("Alice", "newgame")
	h.handled()
	start := h.clock.Now()
	var took []time.Duration
	for pressed := false; h.clock.Now().Sub(start) < time.Minute; {
		m, v, d := h.see()
		if pressed {
			took = append(took, d)
		}
		tb := &v.Table
		i, turn := tb.Turn()
		pressed = true
		switch {
		case tb.Phase() == game.Cutting && hasButton(m, callback.Cut):
			// The player cuts: the house never does.
			h.pressOn(m, "Alice", func(d callback.Data) bool { return d.Action == callback.Cut })
		case !turn && !hasButton(m, callback.Start), turn && tb.Seat(i).User == house.ID:
			// The house thinks, or the message still shows its turn: it has
			// no button, as the game's end and its new lobby.
			pressed = false
			h.advance(step, step)
		case tb.Phase() == game.Lobby:
			h.pressOn(m, "Alice", action(callback.Start))
		case tb.Phase() == game.Betting:
			h.pressOn(m, "Alice", func(d callback.Data) bool { return d.Action == callback.Bet })
		case tb.Seat(i).Hand.Score() < 14:
			h.pressOn(m, "Alice", action(callback.Hit))
		default:
			h.pressOn(m, "Alice", action(callback.Stand))
		}
	}
	writes, refused := h.groupWrites(sub)
	require.NotEmpty(t, took)
	t.Logf("%d moves, shown after %v; %d writes", len(took), took, len(writes))
	slowest := slices.Max(took)
	slices.Sort(took)
	assert.LessOrEqual(t, took[len(took)/2], time.Second+step, "a move shows within a second")
	assert.LessOrEqual(t, slowest, 2*time.Second+step, "or, after a move that wrote twice (a game's record and its new lobby), within two")
	assert.Greater(t, mostInAMinute(writes), 20, "more writes in a minute than a group may have")
	slices.SortFunc(writes, time.Time.Compare)
	for i := 1; i < len(writes); i++ {
		assert.GreaterOrEqual(t, writes[i].Sub(writes[i-1]), time.Second, "writes %d and %d", i-1, i)
	}
	assert.Zero(t, refused, "429s")
}

// hasButton reports whether message m has a button of action a.
func hasButton(m telegramtest.ChatMessage, a callback.Action) bool {
	for _, b := range m.Buttons() {
		if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == a {
			return true
		}
	}
	return false
}
