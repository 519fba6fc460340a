// Package pace keeps the bot's pace across a restart. Telegram counts a
// group's writes over a minute whoever made them, so a bot restarted
// within a minute of its last calls into a group must count those too, or
// it bursts past the limit (25 to 47 writes into one group within a
// minute were seen across restarts). When the outbox paces groups:
//
//   - at most every saveEvery of the bot's clock, the groups called since
//     are saved with their calls of the last window (Store.SavePace: one
//     transaction for all of them, and none while nothing was called), and
//     once more by Close, after the outbox drained, marked clean;
//   - Restore loads them into the outbox (outbox.Restore) before anything
//     is sent, and marks the saved pace unclean at once. After an unclean
//     stop (a crash), the calls since the last save are unknown: every
//     group is assumed to have had lostCalls calls at the start, for a
//     window.
//
// The saved calls also tell the renders after a restart which turns the
// process before showed (Earlier.Showed). With the calls, the keeper saves
// the version each table message shows (Renders), so that a restart
// redraws only the tables whose message may be behind what is stored
// (Earlier.Current): a redraw to what a message shows already spends one of
// the group's writes for nothing.
package pace

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/storage"
)

const (
	saveEvery = time.Second
	// lostCalls is how many calls into one group a crash may keep from
	// the saved pace: those of the last saveEvery, at one a second.
	lostCalls = 2
)

// Store is what keeping the pace needs of storage.
type Store interface {
	SavePace(ctx context.Context, p storage.Pace, expire time.Time) error
	LoadPace(ctx context.Context) (storage.Pace, error)
}

// Renders tells what the table messages show.
type Renders interface {
	// TakeShown returns the version each table message was rendered to
	// since the last call (0: the table closed, forget it).
	TakeShown() map[storage.TableKey]uint64
}

// Keeper saves the outbox's recent calls into the groups and what the
// table messages show, and gives them back to the next process. Its
// methods are safe for concurrent use.
type Keeper struct {
	store   Store
	renders Renders
	out     *outbox.Outbox
	clock   clock.Clock
	limits  outbox.Limits
	log     *slog.Logger

	mu     sync.Mutex
	timer  clock.Timer // the next save; nil before Restore and after Close
	saving sync.WaitGroup
}

// New returns a Keeper of out's pace, paced by limits, and of what renders
// show.
func New(store Store, renders Renders, out *outbox.Outbox, c clock.Clock, limits outbox.Limits, log *slog.Logger) *Keeper {
	return &Keeper{store: store, renders: renders, out: out, clock: c, limits: limits, log: log}
}

// paced reports whether the outbox paces groups, and so keeps their pace.
func (k *Keeper) paced() bool { return k.limits.GroupPerMinute > 0 }

// window is the span the outbox counts a group's calls over.
func (k *Keeper) window() time.Duration {
	if w := k.limits.GroupWindow; w > 0 {
		return w
	}
	return time.Minute
}

// Restore gives the outbox the calls the process before made, marks the
// saved pace unclean, and starts saving it. It returns what the saved pace
// tells of the time before this start. Call it once, before anything is
// sent.
func (k *Keeper) Restore(ctx context.Context) (Earlier, error) {
	now := k.clock.Now()
	before := Earlier{start: now}
	if !k.paced() {
		return before, nil
	}
	p, err := k.store.LoadPace(ctx)
	if err != nil {
		return before, fmt.Errorf("pace: loading the recent calls into the groups: %w", err)
	}
	hist := make([]outbox.History, 0, len(p.Calls))
	before.saved, before.window, before.last, before.shown = p.At, k.window(), make(map[int64]time.Time, len(p.Calls)), p.Shown
	for chat, calls := range p.Calls {
		hist = append(hist, outbox.History{Chat: chat, Calls: calls})
		if len(calls) > 0 {
			before.last[chat] = calls[len(calls)-1]
		}
	}
	assumed := 0
	if !p.Clean && !p.At.IsZero() {
		assumed = lostCalls
	}
	k.out.Restore(hist, assumed, now)
	if err := k.store.SavePace(ctx, storage.Pace{At: now}, now.Add(-k.window())); err != nil {
		return before, fmt.Errorf("pace: marking the recent calls unclean: %w", err)
	}
	k.mu.Lock()
	k.timer = k.clock.AfterFunc(saveEvery, func() { k.tick(context.WithoutCancel(ctx)) })
	k.mu.Unlock()
	return before, nil
}

// tick saves the pace, and sets the next save, on the clock, unless Close
// came first.
func (k *Keeper) tick(ctx context.Context) {
	k.mu.Lock()
	if k.timer == nil {
		k.mu.Unlock()
		return
	}
	k.saving.Add(1)
	k.mu.Unlock()
	defer k.saving.Done()
	k.save(ctx, false)
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.timer != nil {
		k.timer = k.clock.AfterFunc(saveEvery, func() { k.tick(ctx) })
	}
}

// save saves the calls into the groups called since the last save, and
// the tables rendered since; clean (at Close, the outbox drained) saves
// even when there are none, marking that nothing was called since.
func (k *Keeper) save(ctx context.Context, clean bool) {
	hist, shown := k.out.TakeHistory(), k.renders.TakeShown()
	if len(hist) == 0 && len(shown) == 0 && !clean {
		return
	}
	now := k.clock.Now()
	calls := make(map[int64][]time.Time, len(hist))
	for _, h := range hist {
		calls[h.Chat] = h.Calls
	}
	p := storage.Pace{At: now, Clean: clean, Calls: calls, Shown: shown}
	if err := k.store.SavePace(ctx, p, now.Add(-k.window())); err != nil {
		k.log.WarnContext(ctx, "saving the recent calls into the groups", "err", err)
	}
}

// Close stops saving the pace and saves it clean: call it once the outbox
// drained. It does nothing before Restore, or a second time.
func (k *Keeper) Close(ctx context.Context) {
	k.mu.Lock()
	t := k.timer
	k.timer = nil
	k.mu.Unlock()
	if t == nil {
		return
	}
	t.Stop()
	k.saving.Wait()
	k.save(ctx, true)
}

// Earlier is what a start knows of the calls made before it, for telling
// whether a turn that began before it was shown.
type Earlier struct {
	// start is when this process started.
	start time.Time
	// saved is when the calls were saved last; zero when never.
	saved time.Time
	// last holds the last saved call into each group called within window
	// before saved.
	last   map[int64]time.Time
	window time.Duration
	// shown holds the version each table message showed, as saved.
	shown map[storage.TableKey]uint64
}

// Current reports whether the table's message showed version, as the
// process before saved it: then it need not be drawn again. False when
// nothing tells (the pace was not kept, or the table's render was not
// saved before a crash).
func (e Earlier) Current(key storage.TableKey, version uint64) bool {
	v, ok := e.shown[key]
	return ok && v == version
}

// Started reports whether the start was recorded: the zero Earlier is
// none.
func (e Earlier) Started() bool { return !e.start.IsZero() }

// Kept reports whether the pace is kept (the outbox paces groups): then
// the keeper saves what the table messages show (Renders).
func (e Earlier) Kept() bool { return e.window > 0 }

// Showed reports whether the process before may have shown, in the chat,
// a turn that began at started, before this start: a call into the chat
// after it, or no record to tell (nothing saved, the chat's calls expired
// from it, or a private chat, whose calls are not kept). A turn that began
// after the last save (a crash came within a second) was not shown.
func (e Earlier) Showed(chat int64, started time.Time) bool {
	switch last, ok := e.last[chat]; {
	case !started.Before(e.start):
		return false
	case e.saved.IsZero(), chat > 0:
		return true
	case started.After(e.saved):
		return false
	case ok:
		return !last.Before(started)
	}
	return started.Before(e.saved.Add(-e.window))
}
