package outbox

import "time"

// groupPace paces the calls into one group under Telegram's limit of about
// 20 a minute (Limits.GroupPerMinute calls in any Limits.GroupWindow), so
// that a table never freezes once a burst spent the group's budget:
//
//   - Calls are spaced by GCRA (a token bucket): a burst of up to
//     Limits.GroupBurst calls, then one every interval
//     (Limits.GroupInterval). Any span of GroupWindow
//     then holds at most GroupPerMinute calls by the spacing alone, and a
//     call that waits for a token goes at most interval after the group's
//     last call: the budget is spread evenly, never spent at once and then
//     waited out for most of a minute.
//   - A sliding window of GroupPerMinute calls in any GroupWindow is kept
//     as well, as a guard: calls made before a restart (Outbox.Restore)
//     count in it, and it holds whatever the spacing would let through.
//   - Replies cannot take the last token or the last free place in the
//     window: a call that is not a render keeps renderReserve of each for
//     the renders (see delay).
type groupPace struct {
	win *window
	// interval is the spacing once the burst is spent; tolerance is
	// (burst-1)·interval: how far ahead of the spacing a call may go.
	interval, tolerance time.Duration
	// tat is GCRA's theoretical arrival time: when the bucket is full
	// again. A call fits at now if now ≥ tat-tolerance.
	tat time.Time
}

// renderReserve is how many tokens of a group's bucket, and places of its
// window, a reply leaves for the renders.
const renderReserve = 1

// newGroupPace returns the pace of a group under l, whose GroupPerMinute
// is positive.
func newGroupPace(l Limits) *groupPace {
	interval := l.GroupInterval()
	return &groupPace{win: newWindow(l.GroupPerMinute, l.GroupWindow), interval: interval,
		tolerance: time.Duration(l.groupBurst()-1) * interval}
}

// delay returns how long from now until the next call fits: a render
// (reserve 0), or a reply, which leaves renderReserve tokens and places of
// the window unused (reserve renderReserve).
func (p *groupPace) delay(now time.Time, reserve int) time.Duration {
	d := p.win.delayFor(now, 1+reserve)
	if !p.tat.IsZero() {
		at := p.tat.Add(time.Duration(reserve)*p.interval - p.tolerance)
		d = max(d, at.Sub(now))
	}
	return max(d, 0)
}

// record counts a call made at now.
func (p *groupPace) record(now time.Time) {
	p.win.record(now)
	p.tat = later(p.tat, now).Add(p.interval)
}

// idle reports whether forgetting the pace loses nothing: no call in the
// window and the bucket full.
func (p *groupPace) idle(now time.Time) bool {
	return !now.Before(p.tat) && p.win.empty(now)
}

// calls returns the calls in the window at now, oldest first.
func (p *groupPace) calls(now time.Time) []time.Time {
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
