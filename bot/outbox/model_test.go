package outbox_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
)

// modelGroup is a group of players in BenchmarkPacedModel.
type modelGroup struct {
	id             int64
	version, shown int
	pressAt        []time.Time // of each version past 0
	nextPress      time.Time   // zero: none due
	toGame         int         // presses left in the game
	recordOn       int         // the version whose showing owes a record (0: none)
}

// BenchmarkPacedModel plays groups of players on the outbox's clock, so
// that what players see under Telegram's limits is measured without the
// machine: each group's player to move takes 1 to 4 s to choose after the
// table shows the last move (one choice in 20: 10 to 40 s), every 5 to 7
// moves a game ends and the next one's first render owes the old message
// its record, and each render shows the newest move. It reports the
// times from a press to the render that showed it (p50, p95, p99, in
// seconds) and how long records waited (p99), after a first minute, over
// 30 minutes of 10 groups, one seed per iteration:
//
//	go test -run '^$' -bench PacedModel -benchtime 3x ./bot/outbox/
func BenchmarkPacedModel(b *testing.B) {
	for _, tt := range []struct {
		name   string
		burst  int
		record outbox.Class
	}{
		{"records as renders, burst 3", 3, outbox.Render},
		{"records after the table, burst 3", 3, outbox.Retire},
		{"records after the table, burst 2", 2, outbox.Retire},
		{"records after the table, burst 1", 1, outbox.Retire},
	} {
		b.Run(tt.name, func(b *testing.B) {
			l := outbox.TelegramLimits()
			l.GroupBurst = tt.burst
			var shown, records []time.Duration
			for i := range b.N {
				s, r := playModel(b, l, tt.record, 10, 30*time.Minute, uint64(i+1))
				shown, records = append(shown, s...), append(records, r...)
			}
			slices.Sort(shown)
			slices.Sort(records)
			q := func(d []time.Duration, p float64) float64 { return d[int(p*float64(len(d)-1))].Seconds() }
			b.ReportMetric(q(shown, .5), "p50-s")
			b.ReportMetric(q(shown, .95), "p95-s")
			b.ReportMetric(q(shown, .99), "p99-s")
			b.ReportMetric(q(records, .99), "record-p99-s")
		})
	}
}

// playModel plays the model of BenchmarkPacedModel and returns the press
// to shown times and the records' waits.
func playModel(b *testing.B, l outbox.Limits, record outbox.Class, groups int, d time.Duration, seed uint64) (shown, records []time.Duration) {
	s := newSim(b, outbox.Options{Limits: l})
	defer s.close()
	rng := rand.New(rand.NewPCG(seed, 17))
	think := func() time.Duration {
		if rng.IntN(20) == 0 {
			return 10*time.Second + time.Duration(rng.Int64N(int64(30*time.Second)))
		}
		return time.Second + time.Duration(rng.Int64N(int64(3*time.Second)))
	}
	var mu sync.Mutex // guards the groups and the figures; think is called with it held
	gs := make([]*modelGroup, groups)
	for i := range gs {
		gs[i] = &modelGroup{id: -int64(i + 1), toGame: 5 + rng.IntN(3), nextPress: s.start.Add(think())}
	}
	render := func(g *modelGroup) outbox.Op {
		return outbox.Op{Chat: g.id, Slot: "table", Do: func(context.Context) error {
			mu.Lock()
			now := s.clock.Now()
			for v := g.shown + 1; v <= g.version; v++ {
				if now.Sub(s.start) > time.Minute {
					shown = append(shown, now.Sub(g.pressAt[v-1]))
				}
			}
			g.shown = g.version
			g.nextPress = now.Add(think())
			owed := g.recordOn != 0 && g.shown >= g.recordOn
			if owed {
				g.recordOn = 0
			}
			mu.Unlock()
			if !owed {
				return nil
			}
			return s.o.Enqueue(outbox.Op{Chat: g.id, Class: record, Slot: fmt.Sprint("record ", g.shown), Do: func(context.Context) error {
				mu.Lock()
				defer mu.Unlock()
				if s.clock.Now().Sub(s.start) > time.Minute {
					records = append(records, s.clock.Now().Sub(now))
				}
				return nil
			}})
		}}
	}
	end := s.start.Add(d)
	for {
		s.settle()
		mu.Lock()
		var next *modelGroup
		for _, g := range gs {
			if !g.nextPress.IsZero() && (next == nil || g.nextPress.Before(next.nextPress)) {
				next = g
			}
		}
		mu.Unlock()
		timer, ok := s.clock.Next()
		if ok && (next == nil || timer.Before(next.nextPress)) {
			s.clock.Set(timer)
			continue
		}
		if next == nil || next.nextPress.After(end) {
			return shown, records
		}
		mu.Lock()
		at := next.nextPress
		mu.Unlock()
		s.clock.Set(at)
		mu.Lock()
		next.version++
		next.pressAt = append(next.pressAt, at)
		next.nextPress = time.Time{}
		if next.toGame--; next.toGame == 0 {
			next.toGame, next.recordOn = 5+rng.IntN(3), next.version
		}
		mu.Unlock()
		if err := s.o.Enqueue(render(next)); err != nil {
			b.Fatal(err)
		}
	}
}
