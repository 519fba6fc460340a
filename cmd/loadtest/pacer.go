package main

import (
	"context"
	"time"
)

// pacer hands out presses at a steady rate. Tokens nobody takes in time
// are not saved up: the rate is a ceiling, not a debt.
type pacer struct {
	c chan struct{}
}

func startPacer(ctx context.Context, rate float64) *pacer {
	p := &pacer{c: make(chan struct{}, max(1, int(rate/100)))}
	start := time.Now()
	sent := 0
	go everyTick(ctx, 2*time.Millisecond, func(now time.Time) {
		due := int(now.Sub(start).Seconds()*rate) - sent
		for ; due > 0; due-- {
			sent++
			select {
			case p.c <- struct{}{}:
			default:
			}
		}
	})
	return p
}

// everyTick calls fn every interval until ctx is done.
func everyTick(ctx context.Context, interval time.Duration, fn func(now time.Time)) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			fn(now)
		}
	}
}

func (p *pacer) wait(ctx context.Context) bool {
	select {
	case <-p.c:
		return true
	case <-ctx.Done():
		return false
	}
}
