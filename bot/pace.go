package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/storage"
)

// Keeping the pace across a restart. Telegram counts a group's writes over
// a minute whoever made them, so a bot restarted within a minute of its
// last calls into a group must count those too, or it bursts past the
// limit (25 to 47 writes into one group within a minute were seen across
// restarts). When the outbox paces groups:
//
//   - at most every paceSaveEvery, the groups called since are saved with
//     their calls of the last window (Store.SavePace: one transaction for
//     all of them, and none while nothing was called), and once more by
//     Close, after the outbox drained, marked clean;
//   - Start loads them into the outbox (outbox.Restore) before anything is
//     sent, and marks the saved pace unclean at once. After an unclean
//     stop (a crash), the calls since the last save are unknown: every
//     group is assumed to have had lostCalls calls at the start, for a
//     window.
//
// The saved calls also tell the renders after a restart which turns the
// process before showed (see tableMessages.seen).
const (
	paceSaveEvery = time.Second
	// lostCalls is how many calls into one group a crash may keep from
	// the saved pace: those of the last paceSaveEvery, at one a second.
	lostCalls = 2
)

// paced reports whether the outbox paces groups, and so keeps their pace.
func (b *Bot) paced() bool { return b.cfg.Limits.GroupPerMinute > 0 }

// restorePace gives the outbox the calls the process before made, marks
// the saved pace unclean, and starts saving it. It returns what the saved
// pace tells of the time before this start.
func (b *Bot) restorePace(ctx context.Context) (earlier, error) {
	before := earlier{start: b.clock.Now()}
	if !b.paced() {
		return before, nil
	}
	p, err := b.store.LoadPace(ctx)
	if err != nil {
		return before, fmt.Errorf("bot: loading the recent calls into the groups: %w", err)
	}
	now := b.paceClock.Now()
	hist := make([]outbox.History, 0, len(p.Calls))
	before.saved, before.window, before.last = p.At, b.window(), make(map[int64]time.Time, len(p.Calls))
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
	b.out.Restore(hist, assumed, now)
	if err := b.store.SavePace(ctx, storage.Pace{At: now}, now.Add(-b.window())); err != nil {
		return before, fmt.Errorf("bot: marking the recent calls unclean: %w", err)
	}
	pctx, stop := context.WithCancel(context.Background())
	b.mu.Lock()
	b.stopPace = stop
	b.mu.Unlock()
	b.pacing.Add(1)
	go func() {
		defer b.pacing.Done()
		for outbox.Sleep(pctx, paceSaveEvery) {
			b.savePace(pctx, false)
		}
	}()
	return before, nil
}

// window is the span the outbox counts a group's calls over.
func (b *Bot) window() time.Duration {
	if w := b.cfg.Limits.GroupWindow; w > 0 {
		return w
	}
	return time.Minute
}

// savePace saves the calls into the groups called since the last save;
// clean (at Close, the outbox drained) saves even when there are none,
// marking that nothing was called since.
func (b *Bot) savePace(ctx context.Context, clean bool) {
	hist := b.out.TakeHistory()
	if len(hist) == 0 && !clean {
		return
	}
	now := b.paceClock.Now()
	calls := make(map[int64][]time.Time, len(hist))
	for _, h := range hist {
		calls[h.Chat] = h.Calls
	}
	if err := b.store.SavePace(ctx, storage.Pace{At: now, Clean: clean, Calls: calls}, now.Add(-b.window())); err != nil {
		b.log.Warn("saving the recent calls into the groups", "err", err)
	}
}

// closePace stops saving the pace and saves it clean: Close calls it once
// the outbox drained.
func (b *Bot) closePace(ctx context.Context) {
	b.mu.Lock()
	stop := b.stopPace
	b.stopPace = nil
	b.mu.Unlock()
	if stop == nil {
		return // not started
	}
	stop()
	b.pacing.Wait()
	b.savePace(ctx, true)
}

// earlier is what a start knows of the calls made before it, for telling
// whether a turn that began before it was shown.
type earlier struct {
	// start is when this process started.
	start time.Time
	// saved is when the calls were saved last; zero when never.
	saved time.Time
	// last holds the last saved call into each group called within window
	// before saved.
	last   map[int64]time.Time
	window time.Duration
}

// showed reports whether the process before may have shown, in the chat,
// a turn that began at started, before this start: a call into the chat
// after it, or no record to tell (nothing saved, the chat's calls expired
// from it, or a private chat, whose calls are not kept). A turn that began
// after the last save (a crash came within a second) was not shown.
func (e earlier) showed(chat int64, started time.Time) bool {
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
