package i18n

import (
	"strings"
	"time"
)

// Duration formats d, rounded down to the second, the one way the bot
// writes a span of time: whole seconds under 100 s ("45 s", "60 s",
// "90 s"), hours, minutes and seconds after that, leaving out the units
// that are zero ("10 min", "1 h 5 min 3 s"); in Russian "45 с", "10 мин",
// in Ukrainian "45 с", "10 хв", "1 год".
// Zero and negative durations are "0 s".
func Duration(lang Lang, d time.Duration) string {
	if d < time.Second {
		return T(lang, UnitSeconds, "0")
	}
	if d < 100*time.Second {
		return T(lang, UnitSeconds, Number(int64(d/time.Second)))
	}
	h, m, s := int64(d/time.Hour), int64(d%time.Hour/time.Minute), int64(d%time.Minute/time.Second)
	parts := make([]string, 0, 3)
	if h > 0 {
		parts = append(parts, T(lang, UnitHours, Number(h)))
	}
	if m > 0 {
		parts = append(parts, T(lang, UnitMinutes, Number(m)))
	}
	if s > 0 {
		parts = append(parts, T(lang, UnitSeconds, Number(s)))
	}
	return strings.Join(parts, NoBreakSpace)
}

// Countdown formats the time left until a deadline as Duration does, in
// whole seconds under 100 s ("45 s") and whole minutes after that ("10
// min", "1 h 5 min"), always rounded up so that it never shows less time
// than there is; "0 s" once the deadline has passed.
func Countdown(lang Lang, left time.Duration) string {
	if left <= 0 {
		return Duration(lang, 0)
	}
	if up := roundUp(left, time.Second); up < 100*time.Second {
		return Duration(lang, up)
	}
	return Duration(lang, roundUp(left, time.Minute))
}

// roundUp rounds a positive d up to a multiple of unit.
func roundUp(d, unit time.Duration) time.Duration { return (d + unit - 1) / unit * unit }
