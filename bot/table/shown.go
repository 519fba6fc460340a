package table

import (
	"context"
	"errors"
	"time"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// The turn shown: a turn's clock runs only while the turn is shown, as a
// player cannot act on a turn they do not see; so does a deck's cut wait,
// a turn here too (game.Table.TurnStarted gives its start in phase
// Cutting, game.ShowTurn starts it again for its whole length), so that no
// deck is dealt "not cut" while the prompt asking for its cut waits to be
// sent. Of a turn's timers only the timeout is a cut wait's: there is no
// nudge for a cut, and the house never cuts. A render is queued
// (Keeper.Show), waits for Telegram's pacing, and reads the table when
// the outbox calls it (messages.renderNewest):
//
//   - The first render to show a turn whose clock started more than
//     shownLate before starts the clock again, for the whole turn time
//     (showTurn: Store.ShowTurn, which stores the new deadline), and
//     re-arms the table's timers from it (armShown).
//   - Meanwhile a timer of the turn that comes due (its timeout, its
//     nudge, the house's move) asks whether the turn is shown
//     (Keeper.turnNotShown, messages.notShown): if not, it does not act;
//     the render re-arms it once it decided, and the timeout and the
//     house's move look again after notShownRecheck meanwhile.
//
// Whether a render showed a turn, and whether a timer waits for one, is
// the table's turnShown.

// turnClock names the clock of a table's turn, or of its deck's cut wait,
// as the renders that show it and the timers that wait for it know it:
// when it started (zero: no clock runs), and whether it is a cut wait. A
// turn may start the instant the cut wait before it did (a cut pressed as
// its prompt went out, which started the wait again): it is another
// clock, not shown yet.
type turnClock struct {
	started time.Time
	cut     bool
}

// clockOf returns the clock of the table's turn or cut wait.
func clockOf(t *game.Table) turnClock {
	return turnClock{started: t.TurnStarted(), cut: t.Phase() == game.Cutting}
}

// is reports whether c and d are the same clock.
func (c turnClock) is(d turnClock) bool { return c.started.Equal(d.started) && c.cut == d.cut }

// turnShown is what the renders of one open table did that decides
// whether its turn is shown: a small state machine, one per table, kept
// by messages under its lock.
//
// Its states are two, side by side:
//
//   - Where the table's renders are: idle (none waits), queued (one waits
//     in the outbox), deciding (one was called and is reading the table,
//     deciding whether to start the turn's clock again). Queued and
//     deciding may hold at once: a newer show queues a render while one
//     decides.
//   - Which turn the table's message shows: none known (no render of this
//     process went out: the process before answers, pace.Earlier.Showed),
//     or the turn the last render that went out showed (its clock,
//     turnClock).
//
// And one mark: held, a timer of the table (its timeout, its nudge, the
// house's move) came due while its turn was not shown and a render that
// will show it was on its way, and waits for that render.
//
// The events, each a method:
//
//   - queue: Keeper.Show queued a render (idle or deciding → queued).
//     unqueue takes it back when the outbox refused it.
//   - begin: the outbox called the render (queued → deciding).
//   - decide: the render decided the turn's clock (deciding ends). It
//     reports whether a timer was held, and clears the mark: the render
//     re-arms the table's timers then (Keeper.armShown), once.
//   - retry: the render's call failed and the outbox calls it again
//     (→ queued).
//   - wentOut: the render's call succeeded, showing the turn of clock c
//     (zero: no turn).
//   - hold: a timer came due; it is held (and the mark set) when a render
//     is queued or deciding and the turn is not shown.
//
// What it promises: a timer of a turn that is not shown yet does not act
// while the render that will show it waits or decides, and each timer it
// held is re-armed once that render decided (so a turn whose clock the
// render started again gets its whole time, its nudge and the house's
// move from then). A turn shown is never held. A table the state machine
// holds nothing for (idle, closed) is dropped (finished).
type turnShown struct {
	// queued: a render waits in the outbox; deciding: one is deciding
	// whether to start the turn's clock again; held: a timer found the
	// turn not shown meanwhile.
	queued, deciding, held bool
	// out: a render went out since the start; turn is the clock of the
	// turn the last one showed (zero: it showed none).
	out  bool
	turn turnClock
}

// queue records a render queued, and returns what unqueue needs to take
// it back.
func (s *turnShown) queue() (was bool) {
	was = s.queued
	s.queued = true
	return was
}

// unqueue takes back a render queue recorded that the outbox refused: was
// is what queue returned.
func (s *turnShown) unqueue(was bool) { s.queued = was }

// begin records that the outbox called the queued render: it decides now.
func (s *turnShown) begin() { s.queued, s.deciding = false, true }

// decide records that the render decided the turn's clock, and reports
// whether a timer was held meanwhile (the mark is cleared): the caller
// re-arms the table's timers then.
func (s *turnShown) decide() (held bool) {
	held = s.held
	s.deciding, s.held = false, false
	return held
}

// retry records that the outbox calls the render again.
func (s *turnShown) retry() { s.queued = true }

// wentOut records that a render went out showing the turn of clock c
// (zero: it showed no turn).
func (s *turnShown) wentOut(c turnClock) { s.out, s.turn = true, c }

// rendering reports whether a render is queued or deciding.
func (s *turnShown) rendering() bool { return s.queued || s.deciding }

// shows reports whether the table's message shows the turn of clock c,
// as far as this process knows: known is false when no render of it went
// out (the process before may have shown it).
func (s *turnShown) shows(c turnClock) (shown, known bool) {
	if !s.out {
		return false, false
	}
	return s.turn.is(c), true
}

// hold is told that a timer of the turn of clock c came due, and reports
// whether it waits for the render on its way: a render is queued or
// deciding, and the turn is not shown (shown tells whether it is: shows,
// or the process before when shows does not know). A held timer is
// re-armed once the render decided (decide).
func (s *turnShown) hold(c turnClock, shown bool) bool {
	if c.started.IsZero() || !s.rendering() || shown {
		return false
	}
	s.held = true
	return true
}

// finished reports whether the table is done with: no render waits. Of a
// closed table, whose render went out, nothing is to be kept then.
func (s *turnShown) finished() bool { return !s.queued }

// shown reports whether a render showed the table's turn of clock c: the
// table's last render that went out showed it, or, when none went since
// this start, the process before may have shown it.
func (m *messages) shown(key storage.TableKey, c turnClock) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.shownLocked(key, c)
}

// shownLocked is shown with m.mu held.
func (m *messages) shownLocked(key storage.TableKey, c turnClock) bool {
	if s := m.renders[key]; s != nil {
		if shown, known := s.shows(c); known {
			return shown
		}
	}
	return m.earlier.Showed(key.Chat, c.started)
}

// notShown reports whether the table's turn of clock c is not shown yet
// while a render that will show it is queued or deciding: its clock is
// not to run out meanwhile, nor the house to move (turnShown.hold). When
// it is, the render re-arms the table's timers (Keeper.armShown) once it
// decided the turn's clock, so that what the caller holds comes due then.
func (m *messages) notShown(key storage.TableKey, c turnClock) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.renders[key]
	return s != nil && s.rendering() && s.hold(c, m.shownLocked(key, c))
}

// rendering reports whether a render of the table is queued or deciding.
func (m *messages) rendering(key storage.TableKey) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.renders[key]
	return s != nil && s.rendering()
}

// state returns the table's turnShown, made if it has none; m.mu is held.
func (m *messages) state(key storage.TableKey) *turnShown {
	s := m.renders[key]
	if s == nil {
		s = &turnShown{}
		m.renders[key] = s
	}
	return s
}

// shownLate is how long a turn's clock may run before the turn is shown:
// a render that first shows a turn later than that starts its clock again.
// Renders under Telegram's pacing wait up to a few seconds.
const shownLate = 2 * time.Second

// notShownRecheck is how soon a timeout, or a move of the house, held by a
// turn not shown yet looks again, unless the render that shows the turn
// re-arms it before (messages.notShown).
const notShownRecheck = time.Second

// showTurn starts the clock of the view's turn again at now, if the turn
// began more than shownLate before and no render showed it (see
// messages), and returns the view to render.
func (m *messages) showTurn(ctx context.Context, v storage.View, now time.Time) storage.View {
	for range 3 { // a command may move the table meanwhile: look again
		c := clockOf(&v.Table)
		if c.started.IsZero() || now.Sub(c.started) <= shownLate || m.shown(v.Key, c) {
			return v
		}
		shown, err := m.k.store.ShowTurn(ctx, v.Key, v.Table.Version(), now, shownLate)
		if err == nil {
			m.k.views.Rearmed(v.Key, shown.Table.Version())
			m.k.armShown(v.Key)
			return shown
		}
		if !errors.Is(err, game.ErrOutdated) {
			m.k.log.WarnContext(ctx, "starting a turn's clock as it is shown", "table", v.Key, "err", err)
			return v
		}
		newer, err := m.k.store.View(ctx, v.Key)
		if err != nil {
			m.k.log.WarnContext(ctx, "reading a table to show", "table", v.Key, "err", err)
			return v
		}
		v = newer
	}
	return v
}

// armShown arms the timers of the table, whose turn's clock started
// again when a render first showed it (Store.ShowTurn), or whose timers
// were held while that render waited (messages.notShown), on its chat's
// goroutine.
func (k *Keeper) armShown(key storage.TableKey) {
	k.host.OnChat(key.Chat, "turn shown", func(ctx context.Context) {
		v, err := k.store.View(ctx, key)
		if err != nil {
			k.log.WarnContext(ctx, "reading a table whose turn was shown", "table", key, "err", err)
			return
		}
		k.arm(v)
	})
}

// turnNotShown reports whether the table, at version, has a turn not
// shown yet while a render that will show it waits (messages.notShown).
func (k *Keeper) turnNotShown(ctx context.Context, key storage.TableKey, version uint64) bool {
	if !k.msgs.rendering(key) {
		return false // nothing waits: no read
	}
	v, err := k.store.View(ctx, key)
	if err != nil || v.Table.Version() != version {
		return false
	}
	return k.msgs.notShown(key, clockOf(&v.Table))
}
