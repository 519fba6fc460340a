package main

import (
	"math"
	"math/rand/v2"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// The players' pace in a paced run: each choice takes thinkMin to thinkMax,
// uniformly, and one in pauseOdds takes pauseMin to pauseMax instead (a
// player who looks away, answers a message, fetches a drink).
const (
	thinkMin  = time.Second
	thinkMax  = 4 * time.Second
	pauseOdds = 20 // 5 %
	pauseMin  = 10 * time.Second
	pauseMax  = 40 * time.Second
)

// thinkTime draws how long a player takes over a choice.
func thinkTime(r *rand.Rand) time.Duration {
	lo, hi := thinkMin, thinkMax
	if r.IntN(pauseOdds) == 0 {
		lo, hi = pauseMin, pauseMax
	}
	return lo + time.Duration(r.Int64N(int64(hi-lo)+1))
}

// minuteWindows bounds how many minute windows the fairness figure looks
// at: one starting every second, or fewer over a run longer than 10
// minutes.
const minuteWindows = 600

// starvedRatio is the most- to least-served ratio over a minute above
// which a paced run fails: a group starves.
const starvedRatio = 2.0

// pressRecord is an applied press: when it was made, and when the first
// table message showing its effect reached the chat (zero: never).
type pressRecord struct {
	chat        int64
	at, shownAt time.Time
}

// pacedLog records what a paced run needs besides the driver's counts:
// every write the bot made (a message sent or edited, as Telegram counts
// them), every applied press, the toasts' latencies, and how far each
// chat's shown table was behind its stored one, over all chats (total) and
// by kind. Its methods are safe for concurrent use.
type pacedLog struct {
	total pacedShare
	kinds [kinds]pacedShare

	mu       sync.Mutex
	writes   map[int64][]time.Time // by chat, in order: those its members all see
	all      []time.Time           // every write, in order, ephemeral ones too
	presses  []pressRecord
	finishes map[int64][]time.Time // by chat: when a game was seen to end
}

// pacedShare is what a pacedLog keeps of a set of chats beside the writes
// and presses: the toasts, and how far behind their tables were.
type pacedShare struct {
	toast *histogram // press to answer, over the measured part
	// behind counts the samples of chats by versions behind (0: showing
	// the stored version); behindFor is how long those behind had been.
	// Both are guarded by pacedLog.mu.
	behind    map[uint64]int
	behindFor *histogram
}

func newPacedShare() pacedShare {
	return pacedShare{toast: newHistogram(), behind: map[uint64]int{}, behindFor: newHistogram()}
}

func newPacedLog() *pacedLog {
	l := &pacedLog{total: newPacedShare(), writes: map[int64][]time.Time{}, finishes: map[int64][]time.Time{}}
	for k := range l.kinds {
		l.kinds[k] = newPacedShare()
	}
	return l
}

// answered records the toast of a press at a chat of kind k.
func (l *pacedLog) answered(k kind, latency time.Duration) {
	l.total.toast.add(latency)
	l.kinds[k].toast.add(latency)
}

// write records a message the bot sent or edited in a chat.
func (l *pacedLog) write(chat int64, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes[chat] = append(l.writes[chat], at)
	l.all = append(l.all, at)
}

// ephemeral records an ephemeral message the bot sent or edited: one
// member sees it, not the group, and it spends the budget over all chats
// only.
func (l *pacedLog) ephemeral(at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, at)
}

// finish records a game seen to end in a chat.
func (l *pacedLog) finish(chat int64, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.finishes[chat] = append(l.finishes[chat], at)
}

// pressed records an applied press; shownAt is zero when it never showed.
func (l *pacedLog) pressed(chat int64, at, shownAt time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.presses = append(l.presses, pressRecord{chat: chat, at: at, shownAt: shownAt})
}

// sample records how far each chat's table message is behind the version
// its presses' answers say is stored.
func (l *pacedLog) sample(now time.Time, chats []*chat) {
	for _, c := range chats {
		c.mu.Lock()
		var n uint64
		if c.stored > c.view.version {
			n = c.stored - c.view.version
		}
		since := c.storedAt
		c.mu.Unlock()
		l.mu.Lock()
		l.total.behind[n]++
		l.kinds[c.kind].behind[n]++
		l.mu.Unlock()
		if n > 0 {
			l.total.behindFor.add(now.Sub(since))
			l.kinds[c.kind].behindFor.add(now.Sub(since))
		}
	}
}

// PacedResult is what a paced run measured beyond the presses' latency.
type PacedResult struct {
	// Toast* are the times from a press to its answer (the toast).
	ToastP50, ToastP95, ToastP99, ToastMax time.Duration
	// TooMany counts the 429s the server answered over the whole run, by
	// method and by the limit they were past.
	TooMany       int
	TooManyMethod map[string]int
	TooManyLimit  telegramtest.RateLimitCounts
	// GroupMinuteMax is the most writes into one group in any 60 s, and
	// GroupMinuteChat that group; MinSpacing is the least time between two
	// writes into one group and UnderSecond counts the gaps under 1 s.
	GroupMinuteMax  int
	GroupMinuteChat int64
	MinSpacing      time.Duration
	UnderSecond     int
	// GlobalMean is the bot's writes per second over the measured part,
	// GlobalMax the most in any 1 s of the run; Contended is the share of
	// the measured part in which the global budget was contended (see
	// contention).
	GlobalMean float64
	GlobalMax  int
	Contended  float64
	// FairRun and FairMinute are the most- to least-served ratios over the
	// measured part and at worst over a minute of it (FairMinuteAt after
	// its start, FairMinuteChat the least served group then): a group's
	// service is its presses shown per second of waiting while the global
	// budget was contended (see fairness).
	FairRun, FairMinute float64
	FairMinuteAt        time.Duration
	FairMinuteChat      int64
	// FairRunMedian and FairMinuteMedian are the median group's service
	// over the least served group's, over the measured part and at worst
	// over a minute: where most groups have a press or two shown in a
	// minute, the most served group of a minute is the one whose press
	// came just before its turn of the budget, and the median says how a
	// group fared against the others as a whole.
	FairRunMedian, FairMinuteMedian float64
	// ShownPerMinute is the presses shown per group per minute: the least,
	// median and most over the groups.
	ShownPerMinute [3]float64
	// Behind* are the samples of every chat each second: the share in
	// which its table showed an older version than the stored one, by how
	// many versions (the 99th percentile and most), and for how long.
	BehindShare          float64
	BehindP99, BehindMax uint64
	BehindForP99         time.Duration
	BehindForMax         time.Duration
	// Limits are the bot's limits the fairness figures assume.
	Limits outbox.Limits
}

// figures computes the paced figures from the log, for the measured
// part [start, end) of a run in which the bot paced at limits: over every
// chat, and over the chats of each kind (kindOf; nil for a kind without
// chats). The global budget is the run's: its use and its contention are
// the same in all, and a kind's fairness compares its chats' service
// while every chat's presses contended for it.
func (l *pacedLog) figures(start, end time.Time, limits outbox.Limits, kindOf map[int64]kind) (*PacedResult, [kinds]*PacedResult) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// The events come in the server's order, which is its clock's; sorted
	// all the same, as what follows counts on it.
	sortTimes(l.all)
	for _, w := range l.writes {
		sortTimes(w)
	}
	base := PacedResult{Limits: limits}
	span := end.Sub(start)
	if span > 0 {
		base.GlobalMean = float64(countIn(l.all, start, end)) / span.Seconds()
	}
	base.GlobalMax = mostIn(l.all, time.Second)
	f := newFairness(l.writes, l.presses, limits, start, end)
	if span > 0 {
		base.Contended = float64(f.busy.within(start, end)) / float64(span)
	}
	var every []int64
	var byKind [kinds][]int64
	for id, k := range kindOf {
		every = append(every, id)
		byKind[k] = append(byKind[k], id)
	}
	all := l.part(base, f, &l.total, start, end, nil, every)
	var by [kinds]*PacedResult
	for k := range kinds {
		if len(byKind[k]) == 0 {
			continue
		}
		in := func(id int64) bool { kk, ok := kindOf[id]; return ok && kk == k }
		by[k] = l.part(base, f, &l.kinds[k], start, end, in, byKind[k])
	}
	return all, by
}

// part fills r, holding the run's global figures, with those of a set of
// chats: in (nil: every chat) says which writes and presses are theirs,
// chats lists them, and sh holds their toasts and staleness.
func (l *pacedLog) part(r PacedResult, f *fairness, sh *pacedShare, start, end time.Time, in func(int64) bool, chats []int64) *PacedResult {
	r.ToastP50, r.ToastP95 = sh.toast.quantile(.5), sh.toast.quantile(.95)
	r.ToastP99, r.ToastMax = sh.toast.quantile(.99), sh.toast.quantile(1)
	writes := l.writes
	if in != nil {
		writes = map[int64][]time.Time{}
		for id, w := range l.writes {
			if in(id) {
				writes[id] = w
			}
		}
	}
	r.GroupMinuteMax, r.GroupMinuteChat, r.MinSpacing, r.UnderSecond = groupWrites(writes)
	span := end.Sub(start)
	r.FairRun, r.FairMinuteChat, r.FairRunMedian = f.ratioOf(start, end, in)
	// a run shorter than a minute is its own minute
	r.FairMinute, r.FairMinuteMedian = r.FairRun, r.FairRunMedian
	if span > time.Minute {
		r.FairMinute, r.FairMinuteMedian = 0, 0
		step := max(time.Second, span/minuteWindows)
		for s := start; !s.Add(time.Minute).After(end); s = s.Add(step) {
			q, chat, m := f.ratioOf(s, s.Add(time.Minute), in)
			if q > r.FairMinute {
				r.FairMinute, r.FairMinuteAt, r.FairMinuteChat = q, s.Sub(start), chat
			}
			r.FairMinuteMedian = max(r.FairMinuteMedian, m)
		}
	}
	r.ShownPerMinute = shownPerMinute(l.presses, chats, start, end)
	r.BehindShare, r.BehindP99, r.BehindMax = behindFigures(sh.behind)
	r.BehindForP99, r.BehindForMax = sh.behindFor.quantile(.99), sh.behindFor.quantile(1)
	return &r
}

// groupWrites returns the most writes into one group in any 60 s and that
// group, and the least time between two writes into a group with the
// number of gaps under a second.
func groupWrites(writes map[int64][]time.Time) (most int, chat int64, minGap time.Duration, under int) {
	minGap = -1
	for id, w := range writes {
		if id >= 0 {
			continue // a private chat: not a group
		}
		if n := mostIn(w, time.Minute); n > most {
			most, chat = n, id
		}
		for i := 1; i < len(w); i++ {
			gap := w[i].Sub(w[i-1])
			if minGap < 0 || gap < minGap {
				minGap = gap
			}
			if gap < time.Second {
				under++
			}
		}
	}
	return most, chat, max(minGap, 0), under
}

// mostIn returns the most times of a sorted list within any span of
// length d (the latest minus the earliest under d), as a sliding window
// counts them.
func mostIn(times []time.Time, d time.Duration) int {
	most, i := 0, 0
	for j := range times {
		for times[j].Sub(times[i]) >= d {
			i++
		}
		most = max(most, j-i+1)
	}
	return most
}

// countIn counts the times of a sorted list in [from, to).
func countIn(times []time.Time, from, to time.Time) int {
	lo := sort.Search(len(times), func(i int) bool { return !times[i].Before(from) })
	hi := sort.Search(len(times), func(i int) bool { return !times[i].Before(to) })
	return hi - lo
}

// shownPerMinute returns the least, median and most presses shown per
// minute over the chats, in [start, end).
func shownPerMinute(presses []pressRecord, chats []int64, start, end time.Time) [3]float64 {
	counts := map[int64]int{}
	for _, id := range chats {
		counts[id] = 0
	}
	for _, p := range presses {
		if _, ok := counts[p.chat]; ok && !p.shownAt.IsZero() && !p.shownAt.Before(start) && p.shownAt.Before(end) {
			counts[p.chat]++
		}
	}
	if len(counts) == 0 || !end.After(start) {
		return [3]float64{}
	}
	var list []int
	for _, n := range counts {
		list = append(list, n)
	}
	sort.Ints(list)
	per := end.Sub(start).Minutes()
	return [3]float64{float64(list[0]) / per, float64(list[len(list)/2]) / per, float64(list[len(list)-1]) / per}
}

// behindFigures returns the share of samples behind, and the 99th
// percentile and most versions behind.
func behindFigures(samples map[uint64]int) (share float64, p99, most uint64) {
	var keys []uint64
	total := 0
	for k, n := range samples {
		keys = append(keys, k)
		total += n
	}
	if total == 0 {
		return 0, 0, 0
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	rank := int(math.Ceil(.99 * float64(total)))
	seen := 0
	p99set := false
	for _, k := range keys {
		seen += samples[k]
		if !p99set && seen >= rank {
			p99, p99set = k, true
		}
		most = k
	}
	return 1 - float64(samples[0])/float64(total), p99, most
}

// writeCount returns how many writes the bot made so far.
func (l *pacedLog) writeCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.all)
}

// tooManyRequests counts the calls answered 429, in all and by method.
func tooManyRequests(calls telegramtest.CallLog) (int, map[string]int) {
	total, by := 0, map[string]int{}
	for m, st := range calls.Methods {
		if n := st.Codes[http.StatusTooManyRequests]; n > 0 {
			total += n
			by[m] = n
		}
	}
	return total, by
}
