package bot_test

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestPacedCutWaitRunsWhileShown: a deck's cut wait runs only while the
// table shows it, as a turn's clock does. The game starts while the
// group's budget is spent, so the edit that asks Bob to cut waits behind
// the group's limits: for the group's spacing, or (as under the bot's
// global limit with a thousand busy groups) for longer than the whole
// wait. The deck is not dealt "not cut" meanwhile; the render that shows
// the prompt starts the wait again, its whole length from then (the time
// left shown, the deadline stored, which a restart re-arms, agree), and a
// tap 10 s after the prompt reached the chat cuts the deck; untouched, the
// wait passes at its new end. So under a global budget that many groups
// contend for (as a thousand do for Telegram's 25 calls a second): the
// prompt's render waits its turn behind the other groups' for longer than
// the wait, and a tap 2 s after the prompt reached the chat cuts the deck.
func TestPacedCutWaitRunsWhileShown(t *testing.T) {
	cutWait := game.DefaultCutWait
	tests := []struct {
		name string
		// jump, when set, moves the clock at once while the prompt waits:
		// the old wait passes before it shows. Else the clock moves a step
		// at a time until the prompt shows.
		jump time.Duration
		// tap: Bob taps tapAfter (else 10 s) after the prompt shows; else
		// nobody cuts.
		tap      bool
		tapAfter time.Duration
		// others: that many other groups open a table as the game starts,
		// under a global limit of a call a second, so that the prompt's
		// render waits behind theirs.
		others int
	}{
		{name: "the wait passes while the prompt waits, Bob taps", jump: 20 * time.Second, tap: true},
		{name: "the wait passes while the prompt waits, nobody cuts", jump: 20 * time.Second},
		{name: "the prompt waits for the group's spacing, Bob taps", tap: true},
		{name: "the prompt waits for other groups under the global budget, Bob taps 2 s after it shows",
			tap: true, tapAfter: 2 * time.Second, others: 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, paced, func(o *harnessOptions) {
				if tt.others > 0 {
					o.perSecond = 1
				}
			})
			h.decks("Kh Tc 9d 8s")
			h.command("Alice", "newgame")
			h.handled()
			for _, name := range []string{"Bob", "Carol", "Dave"} {
				m, _, _ := h.see()
				h.pressOn(m, name, action(callback.Join))
			}
			m, _, _ := h.see() // four writes
			for i := range tt.others {
				g := h.srv.NewGroup(fmt.Sprintf("Next table %d", i), h.user("Eve"), h.user("Alice"))
				_, err := h.srv.SendCommand(g.ID, h.user("Eve").ID, "newgame")
				require.NoError(t, err)
			}
			h.handled() // their tables' messages wait for the global budget
			h.pressOn(m, "Alice", action(callback.Start))
			started := h.clock.Now()
			v := h.view()
			version := v.Table.Version()
			require.Equal(t, game.Cutting, v.Table.Phase())
			require.True(t, started.Add(cutWait).Equal(v.Table.Deadline()), "the wait started with the start")
			_, _, shown := h.showing()
			require.False(t, shown, "the prompt's edit waits for the group's pacing")

			if tt.jump > 0 {
				h.clock.Advance(tt.jump) // the old deadline and the render come due together
				h.settle()
				_, _, shown = h.showing()
			}
			for !shown {
				require.Less(t, h.clock.Now().Sub(started), time.Minute, "the prompt shows")
				h.advance(step, step)
				require.Equal(t, version, h.version(), "the deck waits for its cut while the prompt is not shown")
				_, _, shown = h.showing()
			}
			m, v, _ = h.showing()
			wentAt := h.clock.Now()
			t.Logf("the prompt showed %s after the start", wentAt.Sub(started))
			require.Greater(t, wentAt.Sub(started), 2*time.Second+step, "the prompt showed later than a wait may run unseen")
			if tt.others > 0 {
				require.Greater(t, wentAt.Sub(started), cutWait, "the prompt waited behind the other groups for longer than the whole wait")
			}
			assert.Equal(t, version, v.Table.Version(), "not dealt while nobody saw the prompt")
			require.Equal(t, game.Cutting, v.Table.Phase())
			// The render went within the last step (at once, after a jump).
			deadline := v.Table.Deadline()
			assert.True(t, deadline.After(wentAt.Add(cutWait-step)) && !deadline.After(wentAt.Add(cutWait)),
				"the whole wait from the prompt: %s after it showed", deadline.Sub(wentAt))
			if tt.jump > 0 {
				assert.True(t, wentAt.Add(cutWait).Equal(deadline), "the whole wait from the prompt")
			}
			assert.Contains(t, m.Text, cutPrompt("Bob")+" (15\u00a0s)", "the prompt shows the whole wait left")
			timers, err := h.store.Timers(h.ctx())
			require.NoError(t, err)
			timers = slices.DeleteFunc(timers, func(tm storage.Timer) bool { return tm.Key != h.key() }) // the other groups' lobbies
			require.Len(t, timers, 1)
			assert.True(t, deadline.Equal(timers[0].Deadline), "a restart re-arms the deadline the prompt showed")
			assert.Empty(t, h.nudgesNow(), "no nudge for a cut")

			if !tt.tap {
				h.advance(deadline.Sub(h.clock.Now())-time.Second, step)
				assert.Equal(t, version, h.version(), "a second before the new deadline, the deck still waits")
				h.advance(2*time.Second, step)
				c := h.cutOf()
				assert.False(t, c.Waiting, "the wait passed at its new end")
				assert.Zero(t, c.By, "not cut")
				return
			}
			tapAfter := cmp.Or(tt.tapAfter, 10*time.Second)
			h.advance(tapAfter, step) // Bob reads the prompt and taps
			require.Equal(t, version, h.version(), "%s after the prompt showed, the deck still waits", tapAfter)
			a := h.pressOn(m, "Bob", tap(1))
			assert.Equal(t, "✂️ Deck cut · your bet first · your card K♥ (4)", a.Text, "Bob cut, and bets first")
			c := h.cutOf()
			assert.False(t, c.Waiting)
			assert.Equal(t, game.UserID(h.user("Bob").ID), c.By, "cut by Bob, not \"not cut\"")
			assert.Equal(t, "tap:1", string(c.Cut))
			m, _, _ = h.see()
			assert.Contains(t, m.Text, "✂️ cut by Bob")
		})
	}
}
