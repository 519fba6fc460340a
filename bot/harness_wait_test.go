package bot_test

import (
	"context"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// The harness's waits: for the bot to settle after a move of the clock,
// and for a condition, moving the clock a step at a time while the bot is
// quiet when the harness is stepped or paced.

// settle waits until the bot is quiet (bot.Quiet): what the clock's last
// move started is done.
func (h *harness) settle() {
	h.t.Helper()
	deadline := time.Now().Add(wait)
	for !h.bot.Quiet() {
		if time.Now().After(deadline) {
			h.t.Fatalf("the bot did not settle")
		}
		time.Sleep(100 * time.Microsecond) // polls a condition; the clocks do not move meanwhile
	}
}

// advance moves the clock by d, in steps of at most step, settling after
// each.
func (h *harness) advance(d, step time.Duration) {
	h.t.Helper()
	for d > 0 {
		s := min(d, step)
		h.settle()
		h.clock.Advance(s)
		d -= s
	}
	h.settle()
}

// waitFor waits until cond holds. With harnessOptions.stepped, it moves
// the clock a step at a time meanwhile, once the server delivered every
// update and the bot settled, for at most two minutes of the clock.
func (h *harness) waitFor(cond func(*telegramtest.View) bool) error {
	h.t.Helper()
	if !h.opts.stepped {
		return h.srv.WaitFor(h.ctx(), cond)
	}
	now, cancel := context.WithCancel(context.Background())
	cancel() // WaitFor looks once, then gives up
	for start := h.clock.Now(); ; h.clock.Advance(step) {
		require.NoError(h.t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return h.srv.PendingUpdates() == 0 }))
		h.settle()
		err := h.srv.WaitFor(now, cond)
		if err == nil || h.clock.Now().Sub(start) > 2*time.Minute {
			return err
		}
	}
}

// botMessage waits for a message of the bot in the chat that matches,
// and returns the last such (telegramtest.Server.WaitForBotMessage);
// with harnessOptions.stepped, moving the clock meanwhile (waitFor).
func (h *harness) botMessage(chat int64, match func(telegramtest.ChatMessage) bool) (telegramtest.ChatMessage, error) {
	h.t.Helper()
	if !h.opts.stepped {
		return h.srv.WaitForBotMessage(h.ctx(), chat, match)
	}
	var found telegramtest.ChatMessage
	err := h.waitFor(func(v *telegramtest.View) bool {
		ms := v.Messages(chat)
		for i := len(ms) - 1; i >= 0; i-- {
			if ms[i].FromBot && (match == nil || match(ms[i])) {
				found = ms[i]
				return true
			}
		}
		return false
	})
	return found, err
}

// drain moves the clock, when the bot paces by it, until no outgoing call
// waits (at most ten minutes): a stop sends the calls waiting, and those
// wait for the clock.
func (h *harness) drain() {
	h.t.Helper()
	if !h.opts.paced {
		return
	}
	for start := h.clock.Now(); ; h.clock.Advance(step) {
		h.settle() // what the clock's move fired (a timer's command) may queue a call
		if h.bot.Pending() == 0 {
			return
		}
		if h.clock.Now().Sub(start) > 10*time.Minute {
			h.t.Fatalf("%d calls still wait after ten minutes", h.bot.Pending())
		}
	}
}
