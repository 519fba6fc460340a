package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// killCount returns how many times the bot was killed.
func (t *process) killCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.kills
}

// killLoop kills the bot kills times at random moments until end,
// restarting it at once each time.
func killLoop(ctx context.Context, p *process, kills int, end time.Time, rng *rand.Rand, logf func(string, ...any)) error {
	for i := range kills {
		left := time.Until(end)
		if left <= 0 {
			left = 100 * time.Millisecond
		}
		// A random moment in the next 2/(kills left) of the time left: the
		// kills spread over the run, at no regular beat.
		wait := time.Duration(rng.Int64N(int64(2*left/time.Duration(kills-i)) + 1))
		if !outbox.Sleep(ctx, wait) {
			return ctx.Err()
		}
		if err := p.kill(); err != nil {
			return err
		}
		logf("kill -9 #%d", i+1)
		if err := p.start(ctx); err != nil {
			return fmt.Errorf("restarting after kill %d: %w", i+1, err)
		}
	}
	return nil
}

// injectFaults disturbs the server as -faults says until the returned
// function is called.
func injectFaults(ctx context.Context, srv *telegramtest.Server, seed uint64) func() {
	srv.SeedFaults(seed)
	srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Rate: 0.05, Delay: 300 * time.Millisecond})
	srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Rate: 0.025})
	srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultBadGateway, Rate: 0.025})
	srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDropConnection, Rate: 0.005})
	srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDropConnection, Rate: 0.005, AfterHandling: true})
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Every few seconds, a burst of 200 to 500 ms in which every message
		// sent or edited is answered 429 with retry_after 1, as Telegram
		// does to a bot over its limits.
		rng := rand.New(rand.NewPCG(seed, 429))
		for outbox.Sleep(fctx, time.Duration(1000+rng.IntN(3000))*time.Millisecond) {
			h := srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultTooManyRequests,
				Methods: []string{"editMessageText", "sendMessage"}, RetryAfter: 1})
			outbox.Sleep(fctx, time.Duration(200+rng.IntN(300))*time.Millisecond)
			h.Remove()
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			<-done
			srv.ClearFaults()
		})
	}
}
