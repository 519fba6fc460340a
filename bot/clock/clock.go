// Package clock is the one clock of the bot: what tells the time and runs
// functions later. Every part that waits (the outbox's pacing, the tables'
// deadlines, the caches' expiry) takes a Clock, so that a test can move
// time by hand (package clocktest) instead of waiting.
package clock

import (
	"context"
	"time"
)

// Clock tells the time and runs functions later. Its methods must be safe
// for concurrent use.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// AfterFunc runs f in its own goroutine once d has passed (at once
	// when d is not positive), unless the Timer it returns is stopped
	// first.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a function scheduled by a Clock.
type Timer interface {
	// Stop prevents the function from running, if it has not yet, and
	// reports whether it did.
	Stop() bool
}

// System is the real clock: time.Now and time.AfterFunc.
type System struct{}

// Now returns time.Now().
func (System) Now() time.Time { return time.Now() }

// AfterFunc calls time.AfterFunc.
func (System) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Sleep waits d on c, or until ctx is done, and returns ctx.Err() then.
func Sleep(ctx context.Context, c Clock, d time.Duration) error {
	done := make(chan struct{})
	t := c.AfterFunc(d, func() { close(done) })
	defer t.Stop()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
