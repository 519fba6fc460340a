// Package pace keeps the bot's pace across a restart. Telegram counts a
// group's writes over a minute whoever made them, so a bot restarted
// within a minute of its last calls into a group must count those too, or
// it bursts past the limit (25 to 47 writes into one group within a
// minute were seen across restarts). When the outbox paces groups:
//
//   - at most every saveEvery, the groups called since are saved with
//     their calls of the last window (Store.SavePace: one transaction for
//     all of them, and none while nothing was called), and once more by
//     Close, after the outbox drained, marked clean;
//   - Restore loads them into the outbox (outbox.Restore) before anything
//     is sent, and marks the saved pace unclean at once. After an unclean
//     stop (a crash), the calls since the last save are unknown: every
//     group is assumed to have had lostCalls calls at the start, for a
//     window.
//
// The saved calls also tell the renders after a restart which turns the
// process before showed (Earlier).
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

// Keeper saves the outbox's recent calls into the groups and gives them
// back to the outbox of the next process. Its methods are safe for
// concurrent use.
type Keeper struct {
	store  Store
	out    *outbox.Outbox
	clock  clock.Clock
	limits outbox.Limits
	log    *slog.Logger

	mu     sync.Mutex
	stop   context.CancelFunc // stops saving; nil before Restore
	saving sync.WaitGroup
}

// New returns a Keeper of out's pace, paced by limits.
func New(store Store, out *outbox.Outbox, c clock.Clock, limits outbox.Limits, log *slog.Logger) *Keeper {
	return &Keeper{store: store, out: out, clock: c, limits: limits, log: log}
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
	before.saved, before.window, before.last = p.At, k.window(), make(map[int64]time.Time, len(p.Calls))
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
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	k.mu.Lock()
	k.stop = stop
	k.mu.Unlock()
	k.saving.Add(1)
	go func() {
		defer k.saving.Done()
		for outbox.Sleep(sctx, saveEvery) {
			k.save(sctx, false)
		}
	}()
	return before, nil
}

// save saves the calls into the groups called since the last save; clean
// (at Close, the outbox drained) saves even when there are none, marking
// that nothing was called since.
func (k *Keeper) save(ctx context.Context, clean bool) {
	hist := k.out.TakeHistory()
	if len(hist) == 0 && !clean {
		return
	}
	now := k.clock.Now()
	calls := make(map[int64][]time.Time, len(hist))
	for _, h := range hist {
		calls[h.Chat] = h.Calls
	}
	if err := k.store.SavePace(ctx, storage.Pace{At: now, Clean: clean, Calls: calls}, now.Add(-k.window())); err != nil {
		k.log.WarnContext(ctx, "saving the recent calls into the groups", "err", err)
	}
}

// Close stops saving the pace and saves it clean: call it once the outbox
// drained. It does nothing before Restore, or a second time.
func (k *Keeper) Close(ctx context.Context) {
	k.mu.Lock()
	stop := k.stop
	k.stop = nil
	k.mu.Unlock()
	if stop == nil {
		return
	}
	stop()
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
}

// Started reports whether the start was recorded: the zero Earlier is
// none.
func (e Earlier) Started() bool { return !e.start.IsZero() }

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
