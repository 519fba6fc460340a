package outbox

import "time"

// pacer spaces calls under a limit of n calls in any span of a window, so
// that a burst never spends the budget at once: the calls into one group
// under Telegram's limit of about 20 a minute (newGroupPacer), and the
// calls over all chats under its 30 a second (newGlobalPacer).
//
//   - Calls are spaced by GCRA (a token bucket): a burst of up to a few
//     calls, then one every interval. A call that waits for a token goes
//     at most interval after the last call: the budget is spread evenly,
//     never spent at once and then waited out for most of the window.
//   - A sliding window of n calls in any span of the window is kept as
//     well, as a guard: it holds whatever the spacing would let through
//     beyond n (a burst after the bucket filled, where the interval is
//     window/n), and calls made before a restart count in it
//     (Outbox.Restore).
//   - A call may leave some tokens and places of the window unused
//     (delay's reserve): into a group, replies leave renderReserve for the
//     renders.
type pacer struct {
	win *window
	// interval is the spacing once the burst is spent; tolerance is
	// (burst-1)·interval: how far ahead of the spacing a call may go.
	interval, tolerance time.Duration
	// tat is GCRA's theoretical arrival time: when the bucket is full
	// again. A call fits at now if now ≥ tat-tolerance.
	tat time.Time
}

// newGroupPacer returns the pacer of a group under l, whose GroupPerMinute
// is positive: a burst of Limits.GroupBurst, then one call every
// Limits.GroupInterval, which alone keeps any span of GroupWindow at
// GroupPerMinute calls or fewer.
func newGroupPacer(l Limits) *pacer {
	return newPacer(l.GroupPerMinute, l.GroupWindow, l.GroupBurstSize(), l.GroupInterval())
}

// globalBurst is how many calls over all chats may start at once, before
// the rest go one every second/Limits.PerSecond: none, as two chats' calls
// that come together lose at most that spacing (40 ms at 25 a second),
// while a burst at the edge of Telegram's window, reaching it a little
// late, can count in the second before as well.
const globalBurst = 1

// newGlobalPacer returns the pacer of the calls over all chats under l,
// whose PerSecond is positive: a burst of globalBurst, then one call every
// second/PerSecond (rounded up), and never more than PerSecond in any
// second. A second's budget does not start at once when the second before
// leaves the window: the calls reach Telegram as spaced as they started,
// and so 30 of them reach it within a second only when calls that started
// 1.16 s apart reach it 160 ms closer.
func newGlobalPacer(l Limits) *pacer {
	n := time.Duration(l.PerSecond)
	return newPacer(l.PerSecond, time.Second, min(globalBurst, l.PerSecond), (time.Second+n-1)/n)
}

// newPacer returns a pacer of at most n calls in any span of window, a
// burst of burst (at least 1) and then one call every interval.
func newPacer(n int, window time.Duration, burst int, interval time.Duration) *pacer {
	return &pacer{win: newWindow(n, window), interval: interval,
		tolerance: time.Duration(max(burst, 1)-1) * interval}
}

// renderReserve is how many tokens of a group's bucket, and places of its
// window, a reply leaves for the renders.
const renderReserve = 1

// delay returns how long from now until the next call fits, leaving
// reserve tokens and places of the window unused: into a group, a render
// reserves none, a reply renderReserve.
func (p *pacer) delay(now time.Time, reserve int) time.Duration {
	d := p.win.delayFor(now, 1+reserve)
	if !p.tat.IsZero() {
		at := p.tat.Add(time.Duration(reserve)*p.interval - p.tolerance)
		d = max(d, at.Sub(now))
	}
	return max(d, 0)
}

// record counts a call made at now.
func (p *pacer) record(now time.Time) {
	p.win.record(now)
	p.tat = later(p.tat, now).Add(p.interval)
}

// idle reports whether forgetting the pace loses nothing: no call in the
// window and the bucket full.
func (p *pacer) idle(now time.Time) bool {
	return !now.Before(p.tat) && p.win.empty(now)
}

// calls returns the calls in the window at now, oldest first.
func (p *pacer) calls(now time.Time) []time.Time {
	return p.win.since(now)
}

// window allows at most n events in any span of length per.
type window struct {
	n     int
	per   time.Duration
	times []time.Time // ring of the last n events
	next  int
}

func newWindow(n int, per time.Duration) *window {
	return &window{n: n, per: per, times: make([]time.Time, n)}
}

// delay returns how long until another event fits.
func (w *window) delay(now time.Time) time.Duration { return w.delayFor(now, 1) }

// delayFor returns how long until k more events fit (k capped at n): until
// the k-th oldest of the last n events leaves the span.
func (w *window) delayFor(now time.Time, k int) time.Duration {
	k = min(max(k, 1), w.n)
	t := w.times[(w.next+k-1)%w.n]
	if t.IsZero() {
		return 0
	}
	return max(t.Add(w.per).Sub(now), 0)
}

func (w *window) record(now time.Time) {
	w.times[w.next] = now
	w.next = (w.next + 1) % w.n
}

// empty reports whether no event is within the span at now.
func (w *window) empty(now time.Time) bool {
	last := w.times[(w.next+w.n-1)%w.n]
	return last.IsZero() || now.Sub(last) >= w.per
}

// since returns the events within the span at now, oldest first.
func (w *window) since(now time.Time) []time.Time {
	var out []time.Time
	for i := range w.n {
		t := w.times[(w.next+i)%w.n]
		if !t.IsZero() && now.Sub(t) < w.per {
			out = append(out, t)
		}
	}
	return out
}
