package storage

import (
	"errors"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// Run with
//
//	go test -run '^$' -bench 'Apply|Floor|Leaderboard|Timers' -benchtime 3s ./storage/
//
// BenchmarkApply and BenchmarkFloor fsync for real: compare their rates.
// BenchmarkApplyAgainstFloor compares them within one loop.

// benchPlayer drives one chat with the commands a sensible player sends.
type benchPlayer struct {
	s        *Store
	key      TableKey
	us       []User
	r        *rand.Rand
	v        View
	rejected int
}

func newBenchPlayer(s *Store, chat int64) *benchPlayer {
	return &benchPlayer{s: s, key: TableKey{Chat: chat}, us: players(game.UserID(chat*10), 4), r: rand.New(rand.NewPCG(uint64(chat), 3))}
}

func (p *benchPlayer) step(b *testing.B, upd int64) {
	if err := p.try(upd); err != nil {
		b.Fatal(err)
	}
}

// try sends the next command; an error is one the benchmark must not
// meet.
func (p *benchPlayer) try(upd int64) error {
	u, cmd := pickCommand(&p.v, p.us, p.r)
	a, err := p.s.Apply(ctx, ApplyRequest{Key: p.key, UpdateID: upd, User: u, Command: cmd, Now: time.Now()})
	if err != nil {
		if errors.Is(err, ErrDuplicate) || game.Kind(err) == game.KindInternal {
			return err
		}
		p.rejected++
	}
	p.v = a.View
	return nil
}

// benchStore opens a store with real fsync and chips enough for every game
// the benchmark plays. Its report adds, per op, the pages the commits wrote
// and how many ops shared a commit: what bounds the rate with many chats.
func benchStore(b *testing.B) (*Store, func()) {
	var commits, ops atomic.Int64
	s := openAt(b, filepath.Join(b.TempDir(), "bench.db"), Options{StartingChips: 1_000_000_000,
		OnCommit: func(_ time.Duration, writes int) {
			commits.Add(1)
			ops.Add(int64(writes))
		}})
	var writes0 int64
	start := func() {
		b.ResetTimer()
		writes0 = pagesWritten(s)
		commits.Store(0)
		ops.Store(0)
	}
	b.Cleanup(func() {
		if n := commits.Load(); n > 0 {
			b.ReportMetric(float64(pagesWritten(s)-writes0)/float64(ops.Load()), "pages/op")
			b.ReportMetric(float64(ops.Load())/float64(n), "ops/commit")
		}
	})
	return s, start
}

func BenchmarkApply(b *testing.B) {
	b.Run("fsync-1goroutine", func(b *testing.B) {
		s, start := benchStore(b)
		p := newBenchPlayer(s, -1)
		start()
		for i := 0; i < b.N; i++ {
			p.step(b, int64(i+1))
		}
		b.StopTimer()
		b.ReportMetric(float64(p.rejected)/float64(b.N), "rejected/op")
	})
	b.Run("fsync-64chats", func(b *testing.B) {
		s, start := benchStore(b)
		var chats, upd, rejected atomic.Int64
		procs := runtime.GOMAXPROCS(0)
		b.SetParallelism((64 + procs - 1) / procs) // 64 goroutines, one chat each
		start()
		b.RunParallel(func(pb *testing.PB) {
			p := newBenchPlayer(s, -chats.Add(1))
			for pb.Next() {
				p.step(b, upd.Add(1))
			}
			rejected.Add(int64(p.rejected))
		})
		b.StopTimer()
		b.ReportMetric(float64(chats.Load()), "goroutines")
		b.ReportMetric(float64(rejected.Load())/float64(b.N), "rejected/op")
	})
}

// BenchmarkApplyParallelGain alternates the two loads of BenchmarkApply
// on one store, round after round: 64 commands from one goroutine, then
// 128 commands in each of 64 goroutines at once, one chat each. Both are
// measured in the same rounds, so that the machine's neighbours weigh on
// both alike; gain is how many times the one goroutine's rate the 64 reach.
func BenchmarkApplyParallelGain(b *testing.B) {
	const alone, together, goroutines = 64, 128, 64
	s, start := benchStore(b)
	single := newBenchPlayer(s, -1000)
	many := make([]*benchPlayer, goroutines)
	for i := range many {
		many[i] = newBenchPlayer(s, int64(-i-1))
	}
	var upd atomic.Int64
	var tAlone, tTogether time.Duration
	start()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		for range alone {
			single.step(b, upd.Add(1))
		}
		tAlone += time.Since(t)

		t = time.Now()
		errs := make(chan error, goroutines)
		for _, p := range many {
			go func() {
				for range together {
					if err := p.try(upd.Add(1)); err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
		for range many {
			if err := <-errs; err != nil {
				b.Fatal(err)
			}
		}
		tTogether += time.Since(t)
	}
	b.StopTimer()
	perAlone := float64(tAlone) / float64(b.N*alone)
	perTogether := float64(tTogether) / float64(b.N*together*goroutines)
	b.ReportMetric(perAlone/1e3, "1goroutine-us/op")
	b.ReportMetric(perTogether/1e3, "64chats-us/op")
	b.ReportMetric(perAlone/perTogether, "gain")
}

// pagesWritten is how many pages the store's commits wrote so far.
func pagesWritten(s *Store) int64 {
	st := s.db.Stats()
	return st.TxStats.GetWrite()
}

// tableSize is the size of a stored table in mid-game, for the floor.
func tableSize(b *testing.B) int {
	s := newStore(b, Options{})
	p := newBenchPlayer(s, -1)
	for i := 1; !p.v.Table.Phase().InGame(); i++ {
		p.step(b, int64(i))
	}
	p.step(b, 1000) // a bet: a player's hand and the deck in play
	size, err := EncodedSize(&p.v)
	if err != nil {
		b.Fatal(err)
	}
	return size
}

// BenchmarkFloor is what one write transaction with fsync costs on this
// disk: a Floor, writing one value of a table's size.
func BenchmarkFloor(b *testing.B) {
	b.Run("bare-update", func(b *testing.B) {
		update, size := newFloor(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			update(i)
		}
		b.StopTimer()
		b.ReportMetric(float64(size), "value-bytes")
	})
}

// BenchmarkApplyAgainstFloor alternates one Apply of one goroutine with one
// bare update of BenchmarkFloor, so that both meet the same disk and the
// same neighbours on a shared machine, and reports what share of the
// floor's rate Apply reaches.
func BenchmarkApplyAgainstFloor(b *testing.B) {
	s, start := benchStore(b)
	p := newBenchPlayer(s, -1)
	update, _ := newFloor(b)
	var applying, floor time.Duration
	start()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		p.step(b, int64(i+1))
		applying += time.Since(t)
		t = time.Now()
		update(i)
		floor += time.Since(t)
	}
	b.StopTimer()
	b.ReportMetric(float64(applying.Microseconds())/float64(b.N), "apply-us/op")
	b.ReportMetric(float64(floor.Microseconds())/float64(b.N), "floor-us/op")
	b.ReportMetric(100*float64(floor)/float64(applying), "%floor-rate")
}

// newFloor opens a Floor next to the benchmark's file, its value of a
// table's size, and returns its commit and that size.
func newFloor(b *testing.B) (update func(i int), size int) {
	size = tableSize(b)
	f, err := OpenFloor(filepath.Join(b.TempDir(), "floor.db"), size)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = f.Close() })
	return func(i int) {
		if err := f.Commit(i); err != nil {
			b.Fatal(err)
		}
	}, size
}

// BenchmarkLeaderboard reads the top 10 of a chat of 10,000 users.
func BenchmarkLeaderboard(b *testing.B) {
	s := newStore(b, Options{})
	const users = 10_000
	err := firstErr(s.write(ctx, func(t *txn) error {
		for i := 1; i <= users; i++ {
			e, err := t.ensure(group, User{ID: game.UserID(i), Name: "U"}, t0)
			if err != nil {
				return err
			}
			g, err := e.grant(LedgerOwner, int64(i*7919%users))
			if err != nil {
				return err
			}
			if err := t.save(e, game.UserID(i), t0, g); err != nil {
				return err
			}
		}
		return nil
	}))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lb, err := s.Leaderboard(ctx, group, 10)
		if err != nil || len(lb) != 10 {
			b.Fatal(err, len(lb))
		}
	}
}

// BenchmarkTimers lists the deadlines of 10,000 open tables, as the bot
// does after a restart.
func BenchmarkTimers(b *testing.B) {
	s := newStore(b, Options{})
	const tables = 10_000
	err := firstErr(s.write(ctx, func(t *txn) error {
		for i := 1; i <= tables; i++ {
			req := ApplyRequest{Key: TableKey{Chat: int64(-i)}, User: User{ID: 1, Name: "U"}, Command: game.Command{Kind: game.Open, User: 1}, Now: t0}
			var a Applied
			if err := t.apply(req, &a); err != nil {
				return failure(err)
			}
		}
		return nil
	}))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ts, err := s.Timers(ctx)
		if err != nil || len(ts) != tables {
			b.Fatal(err, len(ts))
		}
	}
}
