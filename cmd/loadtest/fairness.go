package main

import (
	"slices"
	"sort"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
)

// How evenly a paced run served its chats: the seconds the global budget
// was contended, and each press's wait that only that budget is to blame
// for.

// contention marks the whole seconds, counted from an origin, in the
// middle of which at least perSecond groups waited for a press to show
// while their own limits would have let a write through: more groups
// wanted a write than the global budget serves in a second, so that it
// held some of them back.
type contention struct {
	origin time.Time
	prefix []int // prefix[k]: contended seconds among the first k
}

// newContention counts the waits [from, to) that overlap each second's
// middle, from the origin to last.
func newContention(waits [][2]time.Time, origin, last time.Time, perSecond int) contention {
	var from, to []time.Time
	for _, w := range waits {
		if w[1].After(w[0]) {
			from, to = append(from, w[0]), append(to, w[1])
		}
	}
	sortTimes(from)
	sortTimes(to)
	n := int(last.Sub(origin)/time.Second) + 1
	c := contention{origin: origin, prefix: make([]int, n+1)}
	for k := range n {
		mid := origin.Add(time.Duration(k)*time.Second + time.Second/2)
		waiting := countIn(from, origin, mid.Add(1)) - countIn(to, origin, mid.Add(1))
		c.prefix[k+1] = c.prefix[k]
		if perSecond > 0 && waiting >= perSecond {
			c.prefix[k+1]++
		}
	}
	return c
}

// within returns how much of [a, b) fell in contended seconds.
func (c contention) within(a, b time.Time) time.Duration {
	if !b.After(a) {
		return 0
	}
	return c.before(b) - c.before(a)
}

// before returns the contended time in [origin, t).
func (c contention) before(t time.Time) time.Duration {
	d := t.Sub(c.origin)
	if d <= 0 {
		return 0
	}
	k := int(d / time.Second)
	if k >= len(c.prefix)-1 {
		return time.Duration(c.prefix[len(c.prefix)-1]) * time.Second
	}
	full := time.Duration(c.prefix[k]) * time.Second
	if c.prefix[k+1] > c.prefix[k] {
		full += d - time.Duration(k)*time.Second
	}
	return full
}

func sortTimes(t []time.Time) { sort.Slice(t, func(i, j int) bool { return t[i].Before(t[j]) }) }

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// fairness measures how evenly the global budget is shared among the
// groups that have something waiting. A press waits from when it was made
// until the first table message showing it; of that wait only what passed
// while its group's own limits would have let a write through counts (the
// bot's: a write a ChatInterval, and a burst of GroupBurst then one every
// GroupInterval, after the group's writes so far: a write of the group's
// own while the press waits, a game's record say, holds it only for that
// spacing), while the global budget
// was contended (at least PerSecond groups waiting so), and at least a
// GroupInterval: a shorter wait is not a share of the global budget a
// group could be denied. A group's service over a window is its presses
// shown per second of such waiting: 1 over the mean wait. Presses still
// waiting at the window's end count with their wait so far, but only
// against their group (a wait not over yet is a lower bound: it can show a
// group worse served, never better).
type fairness struct {
	writes  map[int64][]time.Time
	presses []pressRecord
	limits  outbox.Limits
	// free[chat][k] is when the group's own limits let a write go after
	// its first k writes.
	free  map[int64][]time.Time
	floor time.Duration
	busy  contention
}

// newFairness returns the fairness of a run whose measured part is
// [start, end): the waits of presses not shown by its end run to it.
func newFairness(writes map[int64][]time.Time, presses []pressRecord, limits outbox.Limits, start, end time.Time) *fairness {
	f := &fairness{writes: writes, presses: presses, limits: limits, free: map[int64][]time.Time{},
		floor: limits.GroupInterval()}
	for chat, w := range writes {
		f.free[chat] = ownLimits(w, limits, chat < 0)
	}
	origin, last := start, end
	var waits [][2]time.Time
	for _, p := range presses {
		origin = earliest(origin, p.at)
		until := end
		if !p.shownAt.IsZero() {
			until = p.shownAt
			last = latest(last, until)
		}
		waits = append(waits, f.open(p, until)...)
	}
	f.busy = newContention(waits, origin, last, limits.PerSecond)
	return f
}

// ownLimits returns when the writes w (sorted) let the next one go by the
// bot's limits of a chat, after each prefix of them: a ChatInterval after
// the last, and in a group as its spacing (GCRA: a burst, then one every
// GroupInterval) allows.
func ownLimits(w []time.Time, l outbox.Limits, group bool) []time.Time {
	free := make([]time.Time, len(w)+1)
	var tat time.Time
	interval := l.GroupInterval()
	tolerance := time.Duration(l.GroupBurstSize()-1) * interval
	for k, t := range w {
		at := t.Add(l.ChatInterval)
		if group && interval > 0 {
			tat = latest(tat, t).Add(interval)
			at = latest(at, tat.Add(-tolerance))
		}
		free[k+1] = at
	}
	return free
}

// open returns the parts of a press's wait [p.at, until) in which its
// group's own limits would have let a write through: the wait without
// each hold [w, free) after a write w of the group. A write of the group
// while the press waited (a record, a reply, a nudge) holds the group only
// for its own spacing: the waiting before it still counts, as the press
// was still not shown.
func (f *fairness) open(p pressRecord, until time.Time) [][2]time.Time {
	w, free := f.writes[p.chat], f.free[p.chat]
	var out [][2]time.Time
	cursor := p.at
	// free is sorted: the first hold that may reach past the press.
	j := sort.Search(len(w), func(i int) bool { return free[i+1].After(p.at) })
	for ; j < len(w) && w[j].Before(until); j++ {
		if w[j].After(cursor) {
			out = append(out, [2]time.Time{cursor, w[j]})
		}
		cursor = latest(cursor, free[j+1])
	}
	if until.After(cursor) {
		out = append(out, [2]time.Time{cursor, until})
	}
	return out
}

// wait returns the counted wait of a press up to until.
func (f *fairness) wait(p pressRecord, until time.Time) time.Duration {
	var d time.Duration
	for _, o := range f.open(p, until) {
		d += f.busy.within(o[0], o[1])
	}
	return max(d, f.floor)
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// ratio returns the most- to least-served ratio over [from, to), the
// least served group, and the median group's service over the least
// served's; 0 when no group had a press shown.
func (f *fairness) ratio(from, to time.Time) (float64, int64, float64) {
	return f.ratioOf(from, to, nil)
}

// ratioOf is ratio among the groups in says (nil: all).
func (f *fairness) ratioOf(from, to time.Time, in func(int64) bool) (float64, int64, float64) {
	type acc struct {
		done, all   time.Duration
		nDone, nAll int
	}
	groups := map[int64]*acc{}
	get := func(chat int64) *acc {
		a := groups[chat]
		if a == nil {
			a = &acc{}
			groups[chat] = a
		}
		return a
	}
	for _, p := range f.presses {
		if in != nil && !in(p.chat) {
			continue
		}
		switch {
		case !p.shownAt.IsZero() && !p.shownAt.Before(from) && p.shownAt.Before(to):
			w := f.wait(p, p.shownAt)
			a := get(p.chat)
			a.done += w
			a.all += w
			a.nDone++
			a.nAll++
		case p.at.Before(to) && (p.shownAt.IsZero() || !p.shownAt.Before(to)):
			a := get(p.chat)
			a.all += f.wait(p, to)
			a.nAll++
		}
	}
	best, worst := time.Duration(-1), time.Duration(0)
	var worstChat int64
	var served []time.Duration
	for chat, a := range groups {
		if a.nDone > 0 {
			m := a.done / time.Duration(a.nDone)
			served = append(served, m)
			if best < 0 || m < best {
				best = m
			}
		}
		if m := a.all / time.Duration(a.nAll); m > worst {
			worst, worstChat = m, chat
		}
	}
	if best <= 0 {
		return 0, 0, 0
	}
	slices.Sort(served)
	return float64(worst) / float64(best), worstChat, float64(worst) / float64(served[len(served)/2])
}
