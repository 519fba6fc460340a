package bot_test

import (
	"context"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// The tests of this file play under Telegram's real limits, on the server
// and in the bot, with the harness's clock moved by hand (harnessOptions.
// paced): a minute of play takes no minute, and every time measured is
// exact, whatever the machine's load.

func paced(o *harnessOptions) { o.paced = true }

// showing returns the table message and the stored table, and whether the
// message shows the table's current version.
func (h *harness) showing() (telegramtest.ChatMessage, storage.View, bool) {
	h.t.Helper()
	v := h.view()
	if v.MessageID == 0 {
		return telegramtest.ChatMessage{}, v, false
	}
	m, ok := h.srv.Message(h.group.ID, v.MessageID)
	return m, v, ok && showsVersion(m, v.Table.Version())
}

// see moves the clock a step at a time until the table message shows the
// stored table's current version (at most two minutes), and returns the
// message, the table and how long it took.
func (h *harness) see() (telegramtest.ChatMessage, storage.View, time.Duration) {
	h.t.Helper()
	start := h.clock.Now()
	for {
		h.settle()
		if m, v, ok := h.showing(); ok {
			return m, v, h.clock.Now().Sub(start)
		}
		if h.clock.Now().Sub(start) > 2*time.Minute {
			h.t.Fatalf("the table did not show its version %d within two minutes", h.version())
		}
		h.clock.Advance(step)
	}
}

// handled waits until the bot handled every update sent so far (it
// confirms an update once handled), and is quiet.
func (h *harness) handled() {
	h.t.Helper()
	require.NoError(h.t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return h.srv.PendingUpdates() == 0 }))
	h.settle()
}

// pressOn presses, as the user, the button of message m that match picks.
func (h *harness) pressOn(m telegramtest.ChatMessage, user string, match func(callback.Data) bool) telegramtest.CallbackAnswer {
	h.t.Helper()
	for _, b := range m.Buttons() {
		if d, err := callback.Parse(b.CallbackData); err == nil && match(d) {
			a := h.pressRaw(user, m.MessageID, b.CallbackData)
			h.settle()
			return a
		}
	}
	h.t.Fatalf("no such button on %q", m.Text)
	return telegramtest.CallbackAnswer{}
}

// playBriskly plays moves at the table, each a second after its player
// saw the table showing the move before (Bob, Carol and Dave bet the least
// and draw to 14; Alice starts the games), and returns how long each move
// took to show. It checks that each player to move first saw the turn
// with at least the turn time less turnShownLate left, for the turns that
// began at since or later.
func (h *harness) playBriskly(moves int, since time.Time) []time.Duration {
	h.t.Helper()
	turn := game.DefaultSettings().TurnTimeout
	var took []time.Duration
	for range moves {
		m, v, d := h.see()
		took = append(took, d)
		tb := &v.Table
		if i, ok := tb.Turn(); ok && !v.Table.Deadline().Add(-turn).Before(since) {
			left := tb.Deadline().Sub(h.clock.Now())
			assert.GreaterOrEqual(h.t, left, turn-2*time.Second-step, "%s first sees the turn with %s left", tb.Seat(i).Name, left)
		}
		h.advance(time.Second, step) // the player reads and presses
		switch tb.Phase() {
		case game.Lobby:
			h.pressOn(m, "Alice", action(callback.Start))
		case game.Betting:
			i, _ := tb.Turn()
			least := int64(0)
			for _, b := range m.Buttons() {
				if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == callback.Bet && (least == 0 || d.Amount < least) {
					least = d.Amount
				}
			}
			h.pressOn(m, tb.Seat(i).Name, func(d callback.Data) bool { return d.Action == callback.Bet && d.Amount == least })
		case game.Drawing:
			i, _ := tb.Turn()
			act := callback.Stand
			if tb.Seat(i).Hand.Score() < 14 {
				act = callback.Hit
			}
			h.pressOn(m, tb.Seat(i).Name, action(act))
		case game.Cutting:
			// The player asked cuts with a tap: a move as any other.
			c, _ := tb.Cut()
			h.pressOn(m, h.nameOf(c.Asked), func(d callback.Data) bool { return d.Action == callback.Cut && d.Tap == 1 })
		default:
			h.t.Fatalf("the table closed: %q", m.Text)
		}
	}
	return took
}

// briskTable opens a table, seats Bob, Carol and Dave with Alice and starts
// the game, each move as soon as it shows; it returns when the game
// started.
func (h *harness) briskTable() time.Time {
	h.t.Helper()
	h.command("Alice", "newgame")
	h.handled()
	for _, name := range []string{"Bob", "Carol", "Dave"} {
		m, _, _ := h.see()
		h.pressOn(m, name, action(callback.Join))
	}
	m, _, _ := h.see()
	start := h.clock.Now()
	h.pressOn(m, "Alice", action(callback.Start))
	return start
}

// groupWrites returns the times (by the server's clock) of the bot's
// writes into the group among the events, and how many calls the server
// refused with 429.
func (h *harness) groupWrites(sub *telegramtest.Subscription) ([]time.Time, int) {
	h.t.Helper()
	var writes []time.Time
	for len(sub.C) > 0 {
		e := <-sub.C
		if e.ChatID != h.group.ID {
			continue
		}
		switch e.Kind {
		case telegramtest.EventMessageSent:
			if e.Message != nil && e.Message.FromBot {
				writes = append(writes, e.Time)
			}
		case telegramtest.EventMessageEdited, telegramtest.EventMessageDeleted:
			writes = append(writes, e.Time)
		}
	}
	refused := 0
	for _, st := range h.srv.Calls().Methods {
		refused += st.Codes[429]
	}
	return writes, refused
}

// mostInAMinute returns the most times in any span [t, t+1 min).
func mostInAMinute(times []time.Time) int {
	times = slices.SortedFunc(slices.Values(times), time.Time.Compare)
	most := 0
	for i := range times {
		j := sort.Search(len(times), func(j int) bool { return !times[j].Before(times[i].Add(time.Minute)) })
		most = max(most, j-i)
	}
	return most
}

// TestPacedPlayNeverFreezes: four players press at a brisk pace, a second
// after each move shows, for 45 moves (about three minutes). A move shows
// within the group's spacing (60/18 s) of its press, two spacings after
// one that wrote twice: the table never freezes, as it did for about 40 s
// once a sliding window of 19 writes a minute was spent. Each player first sees the turn with the whole turn
// time but two seconds; no minute holds more than 20 writes; Telegram
// refuses none.
func TestPacedPlayNeverFreezes(t *testing.T) {
	h := newHarness(t, paced)
	sub := h.srv.Subscribe(8192)
	defer sub.Close()
	took := h.playBriskly(45, h.briskTable())
	writes, refused := h.groupWrites(sub)
	slowest := slices.Max(took[1:])
	slices.Sort(took)
	median := took[len(took)/2]
	t.Logf("%d moves, %d writes into the group, moves shown after %s (median) and %s at the slowest, at most %d writes in a minute",
		len(took), len(writes), median, slowest, mostInAMinute(writes))
	spacing := outbox.TelegramLimits().GroupInterval()
	assert.LessOrEqual(t, median, spacing+step, "a move shows within the spacing")
	assert.LessOrEqual(t, slowest, 2*spacing+step, "or, after a move that wrote twice (a game's record and its new message), within two")
	assert.LessOrEqual(t, mostInAMinute(writes), 20)
	assert.Zero(t, refused, "429s")
}

// TestPacedRecordAfterTheTable: a game's end moves the table into a new
// message, and the old one is edited into the game's record. While the
// players keep the table busy, that edit waits behind the new table's
// renders (it is an outbox Retire), so that the next game's first move
// does not show a spacing late: each record comes after an edit of the
// new table message.
func TestPacedRecordAfterTheTable(t *testing.T) {
	h := newHarness(t, paced)
	sub := h.srv.Subscribe(8192)
	defer sub.Close()
	h.playBriskly(45, h.briskTable())
	table, edits, records := 0, 0, 0
	for len(sub.C) > 0 {
		e := <-sub.C
		if e.ChatID != h.group.ID || e.Message == nil || !e.Message.FromBot {
			continue
		}
		switch {
		case e.Kind == telegramtest.EventMessageSent:
			table, edits = e.MessageID, 0
		case e.Kind == telegramtest.EventMessageEdited && e.MessageID == table:
			edits++
		case e.Kind == telegramtest.EventMessageEdited:
			records++
			assert.Positive(t, edits, "message %d edited into its record before the new table message %d showed a move", e.MessageID, table)
		}
	}
	assert.GreaterOrEqual(t, records, 2, "games ended in the 45 moves")
}

// TestPacedRestartDoesNotBurst: a group that had its minute's worth of
// writes before a restart (or a crash after the bot saved its calls) gets
// no burst after it: no minute, across the restart, holds more than 20
// writes, and Telegram refuses none. The new bot knows the old one's calls
// from storage.
func TestPacedRestartDoesNotBurst(t *testing.T) {
	tests := []struct {
		name string
		stop func(h *harness)
	}{
		{"restart", func(h *harness) { h.restart() }},
		{"crash", func(h *harness) {
			// The bot saves its calls at most every second: wait for the save
			// of the last one, then kill it.
			last := h.clock.Now()
			h.waitForPaceSaved(func(p storage.Pace) bool {
				calls := p.Calls[h.group.ID]
				return len(calls) > 0 && !calls[len(calls)-1].Before(last.Add(-outbox.TelegramLimits().ChatInterval))
			})
			h.crash()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, paced)
			sub := h.srv.Subscribe(8192)
			defer sub.Close()
			h.playBriskly(25, h.briskTable())
			before, _ := h.groupWrites(sub)
			require.GreaterOrEqual(t, mostInAMinute(before), 17, "the group's budget is spent")
			h.settle()
			tt.stop(h)
			h.handled()
			h.playBriskly(15, h.clock.Now()) // the turn the stop came in is not checked
			after, refused := h.groupWrites(sub)
			assert.LessOrEqual(t, mostInAMinute(append(before, after...)), 20)
			assert.Zero(t, refused, "429s")
		})
	}
}

// TestPacedTurnClockWaitsForItsRender: a turn's clock does not run while
// the turn is not shown. Bob bets while the group's budget is spent, so
// the render that shows his turn to draw waits; the clock moves 70 s, past
// the deadline his bet set, before the render goes: his turn does not time
// out, the render shows him the whole turn time from when it went (the
// time left it shows and the deadline stored, which a restart re-arms,
// agree), his nudge comes a third into that, and the turn times out at its
// end.
func TestPacedTurnClockWaitsForItsRender(t *testing.T) {
	h := newHarness(t, paced)
	turn := game.DefaultSettings().TurnTimeout
	h.decks("Kh Tc 9d 8s 7h 6c")
	h.command("Alice", "newgame")
	h.handled()
	for _, name := range []string{"Bob", "Carol"} {
		m, _, _ := h.see()
		h.pressOn(m, name, action(callback.Join))
	}
	m, _, _ := h.see()
	h.pressOn(m, "Alice", action(callback.Start))
	h.seeCut()
	m, _, _ = h.see()            // five writes: the burst is spent
	h.advance(time.Second, step) // Bob reads his turn
	a := h.pressOn(m, "Bob", func(d callback.Data) bool { return d.Action == callback.Bet && d.Amount == 10 })
	assert.Equal(t, "Bet 10 · your card K♥ (4) · Hit or Stand?", a.Text, "the toast tells at once")
	bet := h.clock.Now()
	v := h.view()
	version := v.Table.Version()
	require.Equal(t, game.Drawing, v.Table.Phase())
	require.True(t, bet.Add(turn).Equal(v.Table.Deadline()), "the clock started with the bet")
	_, _, shown := h.showing()
	require.False(t, shown, "the render waits for the group's pacing")

	// 70 s pass at once: the deadline the bet set, its nudge and the render
	// all come due.
	h.clock.Advance(70 * time.Second)
	h.settle()
	m, v, ok := h.showing()
	require.True(t, ok, "the render went")
	wentAt := bet.Add(70 * time.Second)
	assert.Equal(t, version, v.Table.Version(), "no timeout: Bob still draws")
	assert.True(t, wentAt.Add(turn).Equal(v.Table.Deadline()), "the whole turn from the render: %s", v.Table.Deadline().Sub(bet))
	assert.Contains(t, m.Text, "Bob: hit or stand? (60\u00a0s)", "the table shows the whole turn time left")
	_, ok = dateTime(m)
	assert.False(t, ok, "a time left, not a clock time")
	timers, err := h.store.Timers(h.ctx())
	require.NoError(t, err)
	require.Len(t, timers, 1)
	assert.True(t, wentAt.Add(turn).Equal(timers[0].Deadline), "a restart re-arms the deadline the render showed")
	assert.Empty(t, h.nudgesNow(), "no nudge for a turn nobody saw")

	h.advance(turn/3, step)
	n := h.nudgeFor("Bob")
	assert.Equal(t, "Bob, your turn: 40\u00a0s left.", n.Text, "the nudge tells the time left of the turn the table shows")

	h.advance(turn-turn/3-time.Second, step)
	assert.Equal(t, version, h.version(), "a second before the deadline, Bob still draws")
	h.advance(2*time.Second, step)
	assert.Greater(t, h.version(), version, "the turn timed out at its deadline")
}

// nudgesNow returns the nudges in the group.
func (h *harness) nudgesNow() []telegramtest.ChatMessage {
	var out []telegramtest.ChatMessage
	require.NoError(h.t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		out = nudges(v, h.group.ID)
		return true
	}))
	return out
}

// TestPacedRendersCoalesceAndLeadReplies: while the group's budget is spent,
// two changes of the table and replies wait together: the table is edited
// once, to the newest state, before any reply goes, though a reply waited
// first; the answers go as one message (a digest), the two leaves', the
// same, once.
func TestPacedRendersCoalesceAndLeadReplies(t *testing.T) {
	h := newHarness(t, paced)
	sub := h.srv.Subscribe(8192)
	defer sub.Close()
	h.command("Alice", "newgame")
	h.handled()
	for _, name := range []string{"Bob", "Carol", "Dave"} {
		m, _, _ := h.see()
		h.pressOn(m, name, action(callback.Join))
	}
	table, _, _ := h.see() // four writes: the burst is spent
	h.groupWrites(sub)     // what came so far
	h.command("Carol", "balance")
	h.handled()
	h.command("Dave", "leave")
	h.handled()
	h.command("Bob", "leave")
	h.handled()
	_, _, shown := h.showing()
	require.False(t, shown, "the render waits for the group's pacing")
	m, _, _ := h.see()
	assert.NotContains(t, m.Text, "Bob")
	assert.NotContains(t, m.Text, "Dave")
	h.advance(30*time.Second, step) // every reply went
	digest := h.botSays("Carol, your balance")

	var order []string
	for len(sub.C) > 0 {
		e := <-sub.C
		switch {
		case e.ChatID != h.group.ID:
		case e.Kind == telegramtest.EventMessageEdited && e.MessageID == table.MessageID:
			order = append(order, "edit")
		case e.Kind == telegramtest.EventMessageSent && e.Message != nil && e.Message.FromBot:
			order = append(order, "reply")
		}
	}
	assert.Equal(t, []string{"edit", "reply"}, order, "one edit for both leaves, before the answers, which go in one message")
	assert.Equal(t, "Carol, /balance:\nCarol, your balance: 1\u202f000\u00a0chips.\n\nDave, Bob, /leave:\nYou left the table.", digest.Text,
		"the leaves' answer, the same for both, once")
}

// TestPacedHouseWaitsForItsTurnToShow: the house moves as a player would,
// once its turn is shown. The game starts while the group's budget is
// spent, with the house to bet first: the render that shows its turn waits
// for the group's pacing, more than the 2 s a turn's clock may run unseen,
// and the house does not move meanwhile, though its thinking time passes.
// The render starts the turn's clock again, and the house's move with it:
// the deadline and the move stored (which a restart re-arms) are the whole
// turn and the house's thinking time from the render, and the house moves
// then.
func TestPacedHouseWaitsForItsTurnToShow(t *testing.T) {
	h := newHarness(t, paced)
	turn := game.DefaultSettings().TurnTimeout
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
	m, v, _ := h.see() // five writes: the burst is spent
	require.Equal(t, game.Cutting, v.Table.Phase())
	h.pressOn(m, "Bob", func(d callback.Data) bool { return d.Action == callback.Cut })
	started := h.clock.Now()
	require.True(t, h.houseToMove(), "the house bets first")
	v = h.view()
	version := v.Table.Version()
	thinks := house.Delay(&v.Table)
	require.True(t, started.Add(turn).Equal(v.Table.Deadline()), "the clock started with the cut")
	_, _, shown := h.showing()
	require.False(t, shown, "the render waits for the group's pacing")

	for !shown {
		require.Less(t, h.clock.Now().Sub(started), time.Minute, "the render shows the house's turn")
		h.advance(step, step)
		assert.Equal(t, version, h.version(), "the house does not move before its turn shows, %s after the start", h.clock.Now().Sub(started))
		_, v, shown = h.showing()
	}
	wentAt := h.clock.Now()
	require.Greater(t, wentAt.Sub(started), 2*time.Second+step, "the render waited past the time a turn may run unseen")
	require.Greater(t, wentAt.Sub(started), thinks, "the house's thinking time passed while it waited")
	// The render went within the last step: its time is in (wentAt-step, wentAt].
	deadline := v.Table.Deadline()
	assert.True(t, deadline.After(wentAt.Add(turn-step)) && !deadline.After(wentAt.Add(turn)),
		"the whole turn from the render: %s from the start", deadline.Sub(started))
	shownAt := deadline.Add(-turn)
	timers, err := h.store.Timers(h.ctx())
	require.NoError(t, err)
	require.Len(t, timers, 1)
	assert.True(t, shownAt.Add(thinks).Equal(timers[0].HouseAt), "the house's move follows the turn's clock: stored %s after the render",
		timers[0].HouseAt.Sub(shownAt))

	h.clock.Set(shownAt.Add(thinks).Add(-time.Millisecond))
	h.settle()
	assert.Equal(t, version, h.version(), "the house thinks its whole time from the render")
	h.clock.Set(shownAt.Add(thinks))
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
		v, err := h.store.View(context.Background(), h.key())
		return err == nil && v.Table.Version() > version
	}), "the house bets once its time from the render is up")
}

// TestPacedRestartRedrawsOnlyWhatIsBehind: after a restart the bot draws
// again only a table whose message may be behind what is stored. A table
// it rendered before the restart is not edited to what it shows already
// (under Telegram's pacing such an edit is one of the group's 20 writes a
// minute: the house's first move after a restart showed 9 s late); a
// table moved on while no render went out (a command applied, its render
// lost in a crash) is drawn again.
func TestPacedRestartRedrawsOnlyWhatIsBehind(t *testing.T) {
	tests := []struct {
		name    string
		stop    func(h *harness)
		redrawn bool
	}{
		{"a restart", func(h *harness) { h.restart() }, false},
		{"a crash after the last render was saved", func(h *harness) {
			h.waitForShownSaved()
			h.crash()
		}, false},
		{"a crash that lost a render", func(h *harness) {
			h.waitForShownSaved()
			h.crash(func() { // as if Carol's join was applied and its render lost
				st, err := storage.Open(h.dbPath, storage.Options{NoSync: true})
				require.NoError(h.t, err)
				_, err = st.Apply(context.Background(), storage.ApplyRequest{Key: h.key(), User: storage.User{ID: game.UserID(h.user("Carol").ID), Name: "Carol"},
					Command: game.Command{Kind: game.Join, User: game.UserID(h.user("Carol").ID), Name: "Carol"}, Now: h.clock.Now()})
				require.NoError(h.t, err)
				require.NoError(h.t, st.Close())
			})
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, paced)
			h.command("Alice", "newgame")
			h.handled()
			m, _, _ := h.see()
			h.pressOn(m, "Bob", action(callback.Join))
			shown, _, _ := h.see()
			h.advance(5*time.Second, step)
			sub := h.srv.Subscribe(1024)
			defer sub.Close()

			tt.stop(h)
			h.handled()
			h.advance(10*time.Second, step)
			edits := 0
			for len(sub.C) > 0 {
				if e := <-sub.C; e.MessageID == shown.MessageID && e.Kind == telegramtest.EventMessageEdited {
					edits++
				}
			}
			m, v, _ := h.see()
			assert.Equal(t, shown.MessageID, m.MessageID, "the same message")
			if tt.redrawn {
				assert.Equal(t, 1, edits, "drawn again: it was behind")
				assert.Contains(t, m.Text, "Carol")
			} else {
				assert.Zero(t, edits, "not drawn again: it showed the table")
			}
			assert.True(t, showsVersion(m, v.Table.Version()))
		})
	}
}

// waitForShownSaved waits until the bot saved that the table message shows
// the stored table.
func (h *harness) waitForShownSaved() {
	h.t.Helper()
	want := h.version()
	h.waitForPaceSaved(func(p storage.Pace) bool { return p.Shown[h.key()] == want })
}

// waitForPaceSaved moves the clock a step at a time until the pace the
// bot saved (at most every second of its clock) holds for cond.
func (h *harness) waitForPaceSaved(cond func(storage.Pace) bool) {
	h.t.Helper()
	for start := h.clock.Now(); ; h.clock.Advance(step) {
		h.settle()
		p, err := h.store.LoadPace(context.Background())
		require.NoError(h.t, err)
		if cond(p) {
			return
		}
		require.Less(h.t, h.clock.Now().Sub(start), time.Minute, "the pace is saved")
	}
}
