package bot

import (
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
)

// Clock tells the time and runs functions later. The bot's timeouts use it,
// so that a test can move time forward instead of waiting. A Clock is an
// outbox.Clock too (Config.PaceClock).
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a function scheduled by a Clock.
type Timer = clock.Timer

// SystemClock is the real clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// AfterFunc calls time.AfterFunc.
func (SystemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
