package bot

import "time"

// Clock tells the time and runs functions later. The bot's timeouts use it,
// so that a test can move time forward instead of waiting.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a function scheduled by a Clock.
type Timer interface {
	// Stop prevents the function from running, if it has not yet.
	Stop() bool
}

// SystemClock is the real clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// AfterFunc calls time.AfterFunc.
func (SystemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
