package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/storage"
)

// Run starts the bot and polls for updates until ctx is done. It returns
// after the updates in hand were handled; Close sends what is left.
// Updates are handled as they come, up to the 100 a poll returns at once,
// and confirmed to Telegram only once handled.
func (b *Bot) Run(ctx context.Context) error {
	if err := b.api.DeleteWebhook(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return fmt.Errorf("bot: removing the webhook before polling: %w", err)
	}
	if err := b.Start(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return err
	}
	w := newInFlight()
	defer w.wait()
	backoff := firstPollBackoff
	caughtUp := false // the updates that waited for the start were handled
	for ctx.Err() == nil {
		// Nothing below the offset is unhandled: getUpdates confirms only
		// what was handled, and a crash loses nothing. While updates are in
		// hand the poll does not wait (it would return them at once), and
		// what it returns again is skipped.
		offset, busy := w.offset()
		if busy > botapi.PollLimit/2 {
			// A poll would return the updates in hand first, to be
			// decoded again, and few new ones: wait until half the window
			// is free.
			w.waitFreed(ctx, pollPause)
			continue
		}
		timeout := b.cfg.PollTimeout
		if busy > 0 || !caughtUp {
			timeout = 0
		}
		raws, err := b.api.GetUpdates(ctx, offset, timeout, allowedUpdates)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			wait := backoff
			if tg := (*botapi.Error)(nil); errors.As(err, &tg) && tg.RetryAfter > 0 {
				wait = tg.RetryAfter
			}
			b.log.Warn("getUpdates failed", "err", err, "retry_in", wait)
			if !outbox.Sleep(ctx, wait) {
				break
			}
			backoff = min(2*backoff, 30*time.Second)
			continue
		}
		taken := b.takeUpdates(w, raws, offset, busy)
		if len(raws) > 0 && taken == 0 && busy == 0 {
			// Nothing new though nothing was in hand: updates without an
			// id, which the Bot API never sends. Polling again at once
			// would get the same answer, thousands of times a second: wait
			// as after a failure.
			if !outbox.Sleep(ctx, backoff) {
				break
			}
			backoff = min(2*backoff, 30*time.Second)
			continue
		}
		backoff = firstPollBackoff
		if !caughtUp && len(raws) < botapi.PollLimit {
			w.waitIdle(ctx, startGrace)
			b.tables.Release()
			caughtUp = true
		}
		if len(raws) < botapi.PollLimit {
			// Telegram had no more: let the updates in hand be handled, so
			// that the next poll confirms them and waits for new ones
			// instead of returning them again at once. A full answer means
			// more wait: poll again at once.
			w.waitIdle(ctx, pollPause)
		}
	}
	return nil
}

// takeUpdates dispatches the updates of one getUpdates answer that are new to w,
// and returns how many it dispatched. An update without an id is logged
// and counted as undecodable; updates below the offset while none was in
// hand (busy 0) make w start over at the lowest of them.
func (b *Bot) takeUpdates(w *inFlight, raws []json.RawMessage, offset, busy int) int {
	ids := make([]int, len(raws))
	lowest := 0
	for i, raw := range raws {
		id, err := botapi.UpdateID(raw)
		if err != nil {
			b.log.Warn("update without an id skipped", "err", err, "update", quote(raw))
			b.metrics.UpdateFailed("undecodable")
			continue
		}
		ids[i] = id
		if lowest == 0 || id < lowest {
			lowest = id
		}
	}
	if busy == 0 && lowest != 0 && lowest < offset {
		// Updates below the offset though none was in hand: Telegram
		// numbers anew after a week without updates ("the identifier
		// of the next update will be chosen randomly", Bot API,
		// getUpdates), possibly lower, and answers an offset past its
		// queue's end from its start (telegram-bot-api's TQueue::get,
		// "Specified from_id is in the future"). Start over at the
		// lowest; storage still tells a redelivery by the chat's last
		// update and its time.
		b.log.Info("update ids started over", "offset", offset, "lowest", lowest)
		w.startAt(lowest)
	}
	taken := 0
	for i, raw := range raws {
		if ids[i] == 0 {
			continue
		}
		if done, ok := w.take(ids[i]); ok {
			taken++
			b.dispatch(raw, done)
		}
	}
	return taken
}

// firstPollBackoff is the wait after a failed getUpdates, doubling with
// each failure in a row up to 30 s: short, because every chat waits while
// polling does, and a lone 5xx or dropped connection is common and passes
// at once.
const firstPollBackoff = 100 * time.Millisecond

// pollPause bounds how long Run waits for the updates in hand before
// polling again.
const pollPause = 50 * time.Millisecond

// inFlight tracks the updates Run dispatched and not yet handled, so that
// it can poll for more while they are handled, not waiting for a batch's
// slowest update, without confirming an unhandled one.
type inFlight struct {
	mu    sync.Mutex
	ids   map[int]struct{}
	next  int // the id after the highest taken
	freed chan struct{}
	all   sync.WaitGroup
}

func newInFlight() *inFlight {
	return &inFlight{ids: map[int]struct{}{}, freed: make(chan struct{}, 1)}
}

// offset returns the getUpdates offset that confirms only handled updates,
// and how many are in hand.
func (w *inFlight) offset() (int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	off := w.next
	for id := range w.ids {
		off = min(off, id)
	}
	return off, len(w.ids)
}

// take records an update as in hand and returns the function to call once
// it was handled; false when it was taken before.
func (w *inFlight) take(id int) (func(), bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if id < w.next {
		return nil, false
	}
	w.next = id + 1
	w.ids[id] = struct{}{}
	w.all.Add(1)
	return func() {
		w.mu.Lock()
		delete(w.ids, id)
		w.mu.Unlock()
		select {
		case w.freed <- struct{}{}:
		default:
		}
		w.all.Done()
	}, true
}

// startAt makes id the next update to take, when none is in hand: the
// update ids started over.
func (w *inFlight) startAt(id int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.ids) == 0 {
		w.next = id
	}
}

// waitIdle waits until every update in hand was handled, ctx is done or d
// passed.
func (w *inFlight) waitIdle(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		w.mu.Lock()
		n := len(w.ids)
		w.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-w.freed:
		case <-t.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// waitFreed waits until an update was handled since the last call, ctx is
// done or d passed.
func (w *inFlight) waitFreed(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-w.freed:
	case <-t.C:
	case <-ctx.Done():
	}
}

// wait waits until every update taken was handled.
func (w *inFlight) wait() { w.all.Wait() }

// Handle handles one raw update (webhook mode) and returns once it was
// handled: its effects are committed.
func (b *Bot) Handle(ctx context.Context, raw []byte) error {
	done := make(chan struct{})
	b.dispatch(raw, func() { close(done) })
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SetWebhook registers url as the bot's webhook, with the secret Telegram
// sends back in X-Telegram-Bot-Api-Secret-Token (a field tgbotapi v5.5.1
// does not have), and how many updates Telegram may post at once (1 to
// 100; 0: Telegram's default, 40). Telegram posts them in parallel, a
// queue per chat for messages and per user for presses, so a chat's
// updates may come in any order: Handle takes each as it comes, and
// storage tells a redelivery from a late one.
func (b *Bot) SetWebhook(ctx context.Context, url, secret string, maxConnections int) error {
	return b.api.SetWebhook(ctx, url, secret, maxConnections, allowedUpdates)
}

// quote is the start of a raw update, for a log line.
func quote(raw []byte) string {
	const most = 200
	if len(raw) > most {
		return string(raw[:most]) + "…"
	}
	return string(raw)
}

// dispatch queues a raw update on its chat's goroutine and calls done when
// it was handled, or its handling failed. An update that does not decode is
// logged and skipped at once: delivering it again would not help.
func (b *Bot) dispatch(raw []byte, done func()) {
	u, err := botapi.Decode(raw)
	if err != nil {
		b.log.Warn("undecodable update skipped", "err", err, "update", quote(raw))
		b.metrics.UpdateFailed("undecodable")
		done()
		return
	}
	b.onChat(chatOf(u), u.Kind(), func(ctx context.Context) {
		defer done()
		b.handle(ctx, u)
	}, "update_id", u.UpdateID)
}

// chatOf returns the chat whose goroutine handles u: its chat, or for a
// press on an inline message the chat the bot keeps for its chat_instance
// (storage.InlineChatID).
func chatOf(u botapi.Update) int64 {
	if inst := u.ChatInstance(); inst != "" {
		return storage.InlineChatID(inst)
	}
	return u.Chat()
}
