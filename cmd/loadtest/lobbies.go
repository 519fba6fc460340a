package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// The memory targets of a lobbies run: at the peak, and once every table
// has closed.
const (
	lobbiesPeakRSS       = 300 << 20
	lobbiesPeakGoroutine = 1000
	lobbiesIdleRSS       = 100 << 20
	// lobbiesSettle bounds how long the run waits, once every table has
	// closed, for the bot's memory to go back under lobbiesIdleRSS (the Go
	// runtime returns freed memory to the system a few minutes after a
	// peak).
	lobbiesSettle = 4 * time.Minute
)

// lobbiesTimeout is the lobbies' timeout: long enough for the bot to show
// every lobby before the first times out, so that they all time out while
// the bot is down.
const lobbiesTimeout = 2 * time.Minute

// lobbiesBase is the id of the first lobbies chat, clear of the server's
// own groups and of the preloaded chats.
const lobbiesBase = -2_000_000_000

// LobbiesResult is what a lobbies run measured: many chats that each open
// a table once and never play. Once every lobby is shown the bot is
// stopped, and started again when they have all timed out: the new bot
// finds every deadline passed, and closes every table at once.
type LobbiesResult struct {
	Target string
	Chats  int
	// Sent is how long queueing the /newgame updates took, Shown when every
	// lobby was shown, after the first /newgame; Closed how long the
	// restarted bot took to close every table, ClosedEarly how many had
	// timed out before the stop.
	Sent, Shown, Closed time.Duration
	ClosedEarly         int
	// PeakRSS and PeakGoroutines are the bot's highest over the run (RSS:
	// the kernel's VmHWM); PeakAnon the highest anonymous memory sampled.
	PeakRSS, PeakAnon int64
	PeakGoroutines    int
	// IdleRSS and IdleGoroutines are the bot's once every table closed, at
	// Settled after the last close (RSS under lobbiesIdleRSS, or
	// lobbiesSettle passed); IdleMem splits IdleRSS.
	IdleRSS        int64
	IdleMem        memStatus
	IdleGoroutines int
	Settled        time.Duration
}

// problems lists the targets missed.
func (r *LobbiesResult) problems() []string {
	var p []string
	if r.PeakRSS >= lobbiesPeakRSS {
		p = append(p, fmt.Sprintf("peak RSS %.0f MB, not under %d MB", mb(r.PeakRSS), lobbiesPeakRSS>>20))
	}
	if r.PeakGoroutines >= lobbiesPeakGoroutine {
		p = append(p, fmt.Sprintf("peak goroutines %d, not under %d", r.PeakGoroutines, lobbiesPeakGoroutine))
	}
	if r.IdleRSS >= lobbiesIdleRSS {
		p = append(p, fmt.Sprintf("RSS once the tables closed %.0f MB, not under %d MB", mb(r.IdleRSS), lobbiesIdleRSS>>20))
	}
	return p
}

func (r *LobbiesResult) print(w io.Writer) {
	fmt.Fprintf(w, "bot:        %s\n", r.Target)
	fmt.Fprintf(w, "chats:      %d, each opening a table once (lobby timeout %s)\n", r.Chats, lobbiesTimeout)
	fmt.Fprintf(w, "timeline:   /newgame queued in %s, every lobby shown at %s; restarted after their timeout, the bot closed every table in %s (%d had timed out before the stop)\n",
		r.Sent.Round(time.Millisecond), r.Shown.Round(time.Millisecond), r.Closed.Round(time.Millisecond), r.ClosedEarly)
	fmt.Fprintf(w, "peak:       RSS %.0f MB (anonymous %.0f MB sampled), %d goroutines  [targets: under %d MB, under %d]\n",
		mb(r.PeakRSS), mb(r.PeakAnon), r.PeakGoroutines, lobbiesPeakRSS>>20, lobbiesPeakGoroutine)
	fmt.Fprintf(w, "closed:     RSS %.0f MB (anonymous %.0f MB, file %.0f MB), %d goroutines, %s after the last close  [target: under %d MB]\n",
		mb(r.IdleRSS), mb(r.IdleMem.Anon), mb(r.IdleMem.File), r.IdleGoroutines, r.Settled.Round(time.Second), lobbiesIdleRSS>>20)
	if p := r.problems(); len(p) > 0 {
		for _, s := range p {
			fmt.Fprintf(w, "MISSED:     %s\n", s)
		}
		return
	}
	fmt.Fprintln(w, "every target met")
}

// runLobbies opens a table in each of n chats, lets every lobby time out,
// and measures the bot's memory and goroutines at the peak and after.
func runLobbies(ctx context.Context, cfg Config, n int) (res *LobbiesResult, err error) {
	logf := func(format string, args ...any) { fmt.Fprintf(cfg.Log, format+"\n", args...) }
	dir, done, err := runDir(cfg.Dir, logf)
	if err != nil {
		return nil, err
	}
	defer func() { done(err) }()
	srv, err := telegramtest.Start()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	set := botSettings{
		Endpoint: srv.Endpoint(), Token: srv.Token(), DBPath: filepath.Join(dir, "loadtest.db"),
		StartingChips: 1000, TurnTimeout: time.Minute, LobbyTimeout: lobbiesTimeout, PollTimeout: 25 * time.Second,
	}
	opener := srv.AddUser(telegramtest.User{FirstName: "Ann", LanguageCode: "en"})
	logf("creating %d chats", n)
	for i := range n {
		if _, err := srv.AddChat(telegramtest.ChatSpec{ID: lobbiesBase - int64(i), Members: []int64{opener.ID}}); err != nil {
			return nil, err
		}
	}
	tgt := newTarget(cfg, set, dir)
	res = &LobbiesResult{Target: tgt.describe(), Chats: n}
	logf("starting the bot: %s", res.Target)
	if err := tgt.start(ctx); err != nil {
		return nil, err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		err = errors.Join(err, tgt.stop(sctx))
	}()

	// Sample the bot's memory and goroutines all along.
	var mu sync.Mutex
	sampleCtx, stopSampling := context.WithCancel(ctx)
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			m, merr := tgt.mem()
			g, gerr := tgt.goroutines(sampleCtx)
			mu.Lock()
			if merr == nil {
				res.PeakAnon = max(res.PeakAnon, m.Anon)
			}
			if gerr == nil {
				res.PeakGoroutines = max(res.PeakGoroutines, g)
			}
			mu.Unlock()
			if !outbox.Sleep(sampleCtx, 100*time.Millisecond) {
				return
			}
		}
	}()
	defer func() {
		stopSampling()
		<-sampled
	}()

	before := srv.Calls()
	start := time.Now()
	for i := range n {
		if _, err := srv.SendCommand(lobbiesBase-int64(i), opener.ID, "newgame"); err != nil {
			return nil, err
		}
	}
	res.Sent = time.Since(start)
	logf("/newgame queued in %d chats in %s", n, res.Sent.Round(time.Millisecond))
	waitCalls := func(method, what string) (time.Duration, error) {
		for {
			c := srv.Calls().Sub(before)
			if c.OK(method) >= n {
				return time.Since(start), nil
			}
			select {
			case <-tgt.exited():
				return 0, fmt.Errorf("the bot stopped before every %s", what)
			default:
			}
			if !outbox.Sleep(ctx, 250*time.Millisecond) {
				return 0, ctx.Err()
			}
			if time.Since(start) > 30*time.Minute {
				return 0, fmt.Errorf("after 30 minutes %d of %d %s", c.OK(method), n, what)
			}
		}
	}
	if res.Shown, err = waitCalls("sendMessage", "lobby shown"); err != nil {
		return nil, err
	}
	logf("every lobby shown after %s; stopping the bot until every lobby has timed out", res.Shown.Round(time.Millisecond))
	sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	err = tgt.stop(sctx)
	cancel()
	if err != nil {
		return nil, err
	}
	if !outbox.Sleep(ctx, set.LobbyTimeout+time.Second) {
		return nil, ctx.Err()
	}
	res.ClosedEarly = srv.Calls().Sub(before).OK("editMessageText")
	start = time.Now()
	if err := tgt.start(ctx); err != nil {
		return nil, err
	}
	if res.Closed, err = waitCalls("editMessageText", "table closed"); err != nil {
		return nil, err
	}
	logf("restarted, the bot closed every table in %s", res.Closed.Round(time.Millisecond))

	closed := time.Now()
	for {
		m, err := tgt.mem()
		if err != nil {
			return nil, err
		}
		res.IdleRSS, res.IdleMem, res.Settled = m.RSS, m, time.Since(closed)
		if m.RSS < lobbiesIdleRSS || res.Settled > lobbiesSettle {
			break
		}
		if !outbox.Sleep(ctx, time.Second) {
			return nil, ctx.Err()
		}
	}
	res.IdleGoroutines, _ = tgt.goroutines(ctx)
	if cfg.Dir != "" {
		saveHeap(ctx, tgt, filepath.Join(dir, "heap-closed.pprof"), logf)
	}
	_, peak, _ := tgt.memory()
	mu.Lock()
	res.PeakRSS = peak
	mu.Unlock()
	return res, nil
}

// saveHeap writes the bot's heap profile to path, when the bot serves one
// (the load tool's child does; the twentyone binary does not).
func saveHeap(ctx context.Context, tgt target, path string, logf func(string, ...any)) {
	p, ok := tgt.(*process)
	if !ok {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	if err := fetch(ctx, "http://"+p.set.HTTPListen+"/debug/pprof/heap", f); err != nil {
		logf("the bot's heap profile could not be read: %v", err)
		_ = os.Remove(path)
		return
	}
	logf("the bot's heap profile is in %s", path)
}
