package main

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestPacedUnderTelegramLimits is the short paced run: six groups of
// players at a person's pace, the bot pacing at Telegram's limits and the
// server enforcing them, but with a global budget of 2 calls a second
// (the server's 4), less than the groups ask for: as with a thousand
// groups at 25 a second, the global budget binds, and it is to be shared
// among the groups without a 429 and without a starved group.
func TestPacedUnderTelegramLimits(t *testing.T) {
	cfg := short(t, 6, 20*time.Second)
	cfg.Paced = true
	cfg.GlobalRate = 2
	// The players' first choices take 1 to 4 s: a short warm-up leaves the
	// lobbies' joins and the first games in the measured part.
	cfg.Warmup = 2 * time.Second
	res := runOK(t, cfg)
	require.NotNil(t, res.Paced)
	assert.Zero(t, res.Paced.TooMany, "no 429: %v", res.Paced.TooManyMethod)
	assert.Zero(t, res.Paced.TooManyLimit.Global+res.Paced.TooManyLimit.Group+res.Paced.TooManyLimit.Chat)
	assert.LessOrEqual(t, res.Paced.FairMinute, starvedRatio, "no group starves")
	assert.Positive(t, res.Paced.FairRun, "presses showed")
	assert.Positive(t, res.Paced.Contended, "the global budget was contended")
	assert.Zero(t, res.Unanswered, "every press is answered")
	assert.Zero(t, res.Rejections, "the players press what their table shows")
	assert.Positive(t, res.Paced.ToastMax, "the toasts were timed")
	assert.Positive(t, res.Paced.GroupMinuteMax, "the writes were counted")
	assert.LessOrEqual(t, res.Paced.BehindMax, uint64(1), "a table is at most one press behind")
	require.NotNil(t, res.Circles)
	assert.Positive(t, res.Circles.Circles, "circles were seen")
	assert.Positive(t, res.Circles.Prompts, "decks waited for their cut")
	assert.Equal(t, res.Circles.Prompts, res.Circles.CutWrites, "a deck waiting for its cut is shown in one write")
}

func TestThinkTime(t *testing.T) {
	r := newRand(3)
	pauses := 0
	const n = 10000
	for range n {
		d := thinkTime(r)
		if d >= pauseMin {
			pauses++
			require.LessOrEqual(t, d, pauseMax)
			continue
		}
		require.GreaterOrEqual(t, d, thinkMin)
		require.LessOrEqual(t, d, thinkMax)
	}
	assert.InDelta(t, n/pauseOdds, pauses, n/pauseOdds/4, "one choice in %d is a long pause", pauseOdds)
}

// TestThinking: -think scales a person's time over a choice; the zero
// Config's Think, and 1, leave it as it is.
func TestThinking(t *testing.T) {
	for _, tt := range []struct {
		think float64
		want  time.Duration
	}{{0, 4 * time.Second}, {1, 4 * time.Second}, {0.25, time.Second}, {0.01, 40 * time.Millisecond}} {
		assert.Equal(t, tt.want, Config{Think: tt.think}.thinking(4*time.Second), "%v", tt.think)
	}
}

func TestMostIn(t *testing.T) {
	at := func(secs ...float64) []time.Time {
		var out []time.Time
		for _, s := range secs {
			out = append(out, t0.Add(time.Duration(s*float64(time.Second))))
		}
		return out
	}
	tests := []struct {
		name  string
		times []time.Time
		span  time.Duration
		want  int
	}{
		{"none", nil, time.Second, 0},
		{"one", at(5), time.Second, 1},
		{"a second apart fall in different seconds", at(0, 1, 2, 3), time.Second, 1},
		{"just under a second apart", at(0, 0.999, 1.5), time.Second, 2},
		{"a burst", at(0, 0.1, 0.2, 5, 5.1), time.Second, 3},
		{"a minute's worth", at(0, 10, 20, 30, 40, 50, 59.9, 60, 70), time.Minute, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, mostIn(tt.times, tt.span))
		})
	}
}

var t0 = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

func sec(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

// group is a chat of a synthetic run: its presses (made, shown; a shown
// time below 0: never) and its writes besides the ones that showed them.
type group struct {
	presses [][2]float64
	extra   []float64
}

func synthetic(groups []group) (map[int64][]time.Time, []pressRecord) {
	writes := map[int64][]time.Time{}
	var presses []pressRecord
	for i, g := range groups {
		chat := -int64(i + 1)
		var ws []time.Time
		for _, s := range g.extra {
			ws = append(ws, sec(s))
		}
		for _, p := range g.presses {
			r := pressRecord{chat: chat, at: sec(p[0])}
			if p[1] >= 0 {
				r.shownAt = sec(p[1])
				ws = append(ws, r.shownAt)
			}
			presses = append(presses, r)
		}
		sortTimes(ws)
		writes[chat] = ws
	}
	return writes, presses
}

// every makes presses from start to end, each waiting wait and made
// gap after the previous one showed.
func every(start, end, wait, gap float64) [][2]float64 {
	var out [][2]float64
	for at := start; at+wait <= end; at += wait + gap {
		out = append(out, [2]float64{at, at + wait})
	}
	return out
}

func TestFairness(t *testing.T) {
	limits := outbox.Limits{PerSecond: 2, GroupPerMinute: 19, ChatInterval: time.Second}
	calm := limits
	calm.PerSecond = 4 // more than the three groups ever waiting
	nineteen := make([]float64, 19)
	for i := range nineteen {
		nineteen[i] = float64(i)
	}
	tests := []struct {
		name     string
		groups   []group
		from, to float64
		min, max float64 // the ratio's range
		least    int64   // the least served group, 0: any
		limits   *outbox.Limits
	}{
		{"shared in turn: every group waits as long", []group{
			{presses: every(0, 120, 30, 1)}, {presses: every(0, 120, 30, 1)}, {presses: every(0, 120, 30, 1)},
		}, 0, 120, 1, 1.05, 0, nil},
		{"a group that waits 90 s while the others wait 20 s starves", []group{
			{presses: every(0, 120, 20, 0.5)}, {presses: every(0, 120, 20, 0.5)}, {presses: [][2]float64{{0, 90}}},
		}, 0, 120, 4, 5, -3, nil},
		{"a press still waiting at the end counts against its group", []group{
			{presses: every(0, 62, 20, 0.5)}, {presses: every(0, 62, 20, 0.5)}, {presses: [][2]float64{{0, -1}}},
		}, 0, 60, 2.5, 3.5, -3, nil},
		{"a wait held by the group's own minute is not the budget's", []group{
			{presses: every(0, 70, 3.6, 1)}, {presses: every(0, 70, 3.6, 1)},
			{presses: [][2]float64{{19, 60.5}}, extra: nineteen}, // waits 41.5 s, all for its own minute
			{presses: [][2]float64{{19, 30}}},                    // waits 11 s for the budget
		}, 0, 70, 1.5, 3, -4, nil},
		{"a wait held by the group's spacing is not the budget's", []group{
			{presses: every(0, 60, 3.6, 1)}, {presses: every(0, 60, 3.6, 1)},
			// Six writes a second apart: the spacing holds the next till
			// 4 GroupIntervals; a second between writes alone would free
			// it at 6.
			{presses: [][2]float64{{5.5, 16}}, extra: []float64{0, 1, 2, 3, 4, 5}},
		}, 0, 60, 1, 1.05, 0, nil},
		{"a write of the group's own while a press waits holds only its spacing", []group{
			{presses: every(0, 120, 30, 0)}, {presses: every(0, 120, 30, 0)},
			// A record goes at 30 while the press waits till 60: it holds
			// the group to 33.3, and the 30 s before it count.
			{presses: [][2]float64{{0, 60}, {60, 90}, {90, 120}}, extra: []float64{30}},
		}, 0, 120, 1.3, 1.45, -3, nil},
		{"without contention no wait counts: all groups are served alike", []group{
			{presses: every(0, 60, 1, 2)}, {presses: every(0, 60, 10, 2)}, {presses: every(0, 60, 20, 2)},
		}, 0, 60, 1, 1, 0, &calm},
		{"no press shown: no ratio", []group{{presses: [][2]float64{{0, -1}}}}, 0, 60, 0, 0, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writes, presses := synthetic(tt.groups)
			l := limits
			if tt.limits != nil {
				l = *tt.limits
			}
			f := newFairness(writes, presses, l, sec(tt.from), sec(tt.to))
			got, least, median := f.ratio(sec(tt.from), sec(tt.to))
			assert.GreaterOrEqual(t, got, tt.min)
			assert.LessOrEqual(t, got, tt.max)
			assert.LessOrEqual(t, median, got, "the median group is served no better than the most served")
			if tt.least != 0 {
				assert.Equal(t, tt.least, least)
			}
		})
	}
}

// TestFairnessAgainstTheMedian: a group whose one press of a minute came
// just before its turn of the budget is the most served of that minute by
// far, while against the median group every group fared alike.
func TestFairnessAgainstTheMedian(t *testing.T) {
	limits := outbox.Limits{PerSecond: 2, GroupPerMinute: 19, ChatInterval: time.Second}
	writes, presses := synthetic([]group{
		{presses: every(1, 120, 28, 2)}, {presses: every(1, 120, 28, 2)}, {presses: every(1, 120, 28, 2)},
		{presses: [][2]float64{{1, 29}, {54, 58}, {100, 120}}}, // shown 4 s after its press, then a pause
	})
	f := newFairness(writes, presses, limits, sec(0), sec(120))
	most, least, median := f.ratio(sec(30), sec(90))
	assert.InDelta(t, 7, most, 0.1, "28 s against the lucky press's 4 s")
	assert.NotEqual(t, int64(-4), least)
	assert.InDelta(t, 1, median, 0.05)
}

func TestGroupWrites(t *testing.T) {
	writes := map[int64][]time.Time{
		-1: {sec(0), sec(1), sec(2), sec(62)},
		-2: {sec(0), sec(0.4), sec(1.4), sec(2.4)},
		5:  {sec(0), sec(0.1), sec(0.2), sec(0.3), sec(0.4)}, // a private chat
	}
	most, chat, gap, under := groupWrites(writes)
	assert.Equal(t, 4, most)
	assert.Equal(t, int64(-2), chat)
	assert.Equal(t, 400*time.Millisecond, gap)
	assert.Equal(t, 1, under)
}

func TestBehindFigures(t *testing.T) {
	share, p99, most := behindFigures(map[uint64]int{0: 90, 1: 9, 2: 1})
	assert.InDelta(t, 0.10, share, 1e-9)
	assert.Equal(t, uint64(1), p99)
	assert.Equal(t, uint64(2), most)
	share, p99, most = behindFigures(nil)
	assert.Zero(t, share+float64(p99+most))
}

// TestServerLimits: the server's global limit moves with the bot's
// telegram.global_rate, keeping Telegram's margin over the default.
func TestServerLimits(t *testing.T) {
	for _, tt := range []struct{ rate, want int }{{0, 30}, {25, 30}, {2, 4}, {5, 7}, {100, 120}, {1000, 1200}} {
		l := serverLimits(tt.rate)
		assert.Equal(t, tt.want, l.Global.Limit, "global rate %d", tt.rate)
		assert.Equal(t, telegramtest.TelegramRateLimits().Group, l.Group)
	}
}

// TestWaitHouse: a house that draws is to move again, and its table still
// waits for it: each of its moves shown ends the wait, so that a house
// whose moves each wait a turn of the global budget is no stall; a table
// that shows nothing new is one, once d passed. So for a deck waiting for
// its cut (waitPast), which a player told that the deck was dealt not cut
// waits past, as the drain does: the deal shown ends the wait.
func TestWaitHouse(t *testing.T) {
	tests := []struct {
		name  string
		from  phase // what the table shows as the wait starts
		phase phase // the table's phase after the move
	}{
		{"the house moves again", phaseHouse, phaseHouse},
		{"a player's turn", phaseHouse, phaseDrawing},
		{"the deck waiting for its cut is dealt", phaseCutting, phaseBetting},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &chat{wake: make(chan struct{}, 1), view: tableView{phase: tt.from}}
			done := make(chan bool, 1)
			go func() { done <- c.waitPast(context.Background(), time.Minute, tt.from) }()
			deadline := time.After(30 * time.Second)
			for {
				// Shown over and over until the wait, which notes the
				// reads when it starts, returns.
				c.mu.Lock()
				c.view.phase = tt.phase
				c.reads++
				c.mu.Unlock()
				c.signal()
				select {
				case ok := <-done:
					assert.True(t, ok)
					return
				case <-deadline:
					t.Fatal("the wait did not end on a move shown")
				case <-time.After(10 * time.Millisecond):
				}
			}
		})
	}
	c := &chat{wake: make(chan struct{}, 1), view: tableView{phase: phaseHouse}}
	assert.False(t, c.waitHouse(context.Background(), 20*time.Millisecond), "nothing shown: a stall")
	c = &chat{wake: make(chan struct{}, 1), view: tableView{phase: phaseCutting}}
	assert.False(t, c.waitPast(context.Background(), 20*time.Millisecond, phaseCutting), "nothing shown: still waiting for the cut")
}

// TestFiguresByKind: each kind's figures are over its own chats, while
// the global budget is contended by all: three groups served alike beside
// three inline tables of which one waits 90 s for what the others get in
// 20 s. The groups are fair among themselves; the inline tables are not,
// nor is the run as a whole, and the least served chat is the inline
// table's.
func TestFiguresByKind(t *testing.T) {
	limits := outbox.Limits{PerSecond: 2, GroupPerMinute: 19, ChatInterval: time.Second}
	writes, presses := synthetic([]group{
		{presses: every(0, 120, 20, 0.5)}, {presses: every(0, 120, 20, 0.5)}, {presses: every(0, 120, 20, 0.5)},
		{presses: every(0, 120, 20, 0.5)}, {presses: every(0, 120, 20, 0.5)}, {presses: [][2]float64{{0, 90}}},
	})
	l := newPacedLog()
	for chat, w := range writes {
		for _, at := range w {
			l.write(chat, at)
		}
	}
	for _, p := range presses {
		l.pressed(p.chat, p.at, p.shownAt)
	}
	kindOf := map[int64]kind{-1: kindGroup, -2: kindGroup, -3: kindGroup, -4: kindInline, -5: kindInline, -6: kindInline}
	l.answered(kindInline, 7*time.Millisecond)
	all, by := l.figures(sec(0), sec(120), limits, kindOf)
	require.NotNil(t, by[kindGroup])
	require.NotNil(t, by[kindInline])
	assert.InDelta(t, 1, by[kindGroup].FairRun, 0.05, "the groups are served alike")
	assert.Greater(t, by[kindInline].FairRun, 4.0, "one inline table starves")
	assert.Equal(t, int64(-6), by[kindInline].FairMinuteChat)
	assert.Greater(t, all.FairRun, 4.0)
	assert.Equal(t, all.GlobalMean, by[kindGroup].GlobalMean, "the global budget is the run's")
	assert.Equal(t, all.Contended, by[kindInline].Contended)
	assert.Equal(t, 7*time.Millisecond, by[kindInline].ToastMax.Round(time.Millisecond))
	assert.Zero(t, by[kindGroup].ToastMax, "the toasts are the kind's")
	assert.Equal(t, [3]float64{2.5, 2.5, 2.5}, by[kindGroup].ShownPerMinute, "5 presses of each group shown in 2 minutes, over its own chats")
	assert.InDelta(t, 0.5, by[kindInline].ShownPerMinute[0], 1e-9, "the starved inline table showed one press in 2 minutes")
}

// TestCircleLog: a group's circles are counted when its table shows a new
// one, its decks waiting for their cut when first shown so, and the
// writes that showed one waiting.
func TestCircleLog(t *testing.T) {
	title := func(circle int) string {
		return i18n.T(i18n.EN, i18n.TableTitleGame, strconv.Itoa(circle), "10") + "\nBob — 1 000"
	}
	t0 := time.Unix(1000, 0)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	steps := []struct {
		phase   phase
		version uint64
		text    string
		wrote   bool
	}{
		{phaseLobby, 3, "lobby", true},
		{phaseCutting, 4, title(1), true}, // a circle, a deck waiting
		{phaseBetting, 6, title(1), true}, // the cut and a bet merged
		{phaseDrawing, 7, title(1), true},
		{phaseCutting, 8, title(1), true}, // a reshuffle: another deck waiting
		{phaseCutting, 8, title(1), false},
		{phaseDrawing, 9, title(1), true},
		{phaseHouse, 0, "the house thinks", true},
		{phaseCutting, 12, title(2), true}, // the next circle, past the house's moves
		{phaseBetting, 13, title(2), true},
		{phaseClosed, 14, "closed", true},
		{phaseLobby, 1, "lobby", true},    // a new table
		{phaseCutting, 2, title(1), true}, // its first circle
	}
	l := newCircleLog()
	for i, s := range steps {
		l.saw(7, at(i), s.phase, s.version, s.text, s.wrote)
	}
	p := newPacedLog()
	for i := range steps {
		p.write(7, at(i))
	}
	p.finish(7, at(10))
	r := l.figures(p, []int64{7}, t0, at(len(steps)))
	assert.Equal(t, CircleResult{
		Writes: len(steps), Games: 1, Circles: 3, Prompts: 4, CutWrites: 4, GameWrites: 9,
		ByPhase:  map[phase]int{phaseCutting: 4, phaseBetting: 2, phaseDrawing: 2, phaseHouse: 1},
		Versions: 1 + 2 + 1 + 1 + 1 + 3 + 1 + 1,
	}, *r)
	assert.Equal(t, 2, circleOf(title(2)))
	assert.Zero(t, circleOf("lobby"))
}
