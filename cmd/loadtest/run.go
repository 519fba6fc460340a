package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// Result is what a run measured and checked.
type Result struct {
	// Target says what ran the bot; Chats and Rate are the load.
	Target string
	Chats  int
	Rate   float64
	// Measured is the measured part's length; Presses the presses whose
	// table moved in it.
	Measured      time.Duration
	Presses       int64
	PressesPerSec float64
	// P50 to Mean are the press-to-edit latencies: from the press to the
	// edit (or new message) showing the version it made.
	P50, P95, P99, Max, Mean time.Duration
	// CallsPerPress counts the Bot API calls other than getUpdates per
	// press (with -app, per press or action through the app),
	// CallsPerPressAll getUpdates too; Calls and FailedCalls count
	// them by method over the measured part.
	CallsPerPress, CallsPerPressAll float64
	Calls, FailedCalls              map[string]int
	// RSSStart, RSSEnd, GoroutinesStart and GoroutinesEnd are the bot's
	// (see Target) at the start and end of the measured part; PeakRSS is
	// its peak over the whole run.
	RSSStart, RSSEnd, PeakRSS      int64
	GoroutinesStart, GoroutinesEnd int
	// MemStart and MemEnd split RSSStart and RSSEnd into anonymous memory
	// and file pages (the database's memory map).
	MemStart, MemEnd memStatus
	// Ready is the time from starting the bot to its answer to a press.
	Ready time.Duration
	// PreloadTook is how long filling the database took.
	PreloadTook time.Duration
	// Floors are the same run's floors.
	Floors floors
	// CommitsPerSec to CommitBusy describe the commit loop (in-process
	// only): its rate, writes per commit, commit times, and the share of
	// the measured time it spent committing.
	CommitsPerSec, WritesPerCommit float64
	CommitP50, CommitP99           time.Duration
	CommitBusy                     float64
	// DiskPerPress is how many bytes the bot wrote to disk per press (with
	// -app, per press or action through the app; without chaos kills,
	// which restart the count).
	DiskPerPress float64
	// Kills counts the kill -9s; Games the games started, HouseGames
	// those with the house seated (see houseEvery), Finished the games
	// seen to end.
	Kills      int
	Games      int64
	HouseGames int64
	Finished   int64
	// Applied, Rejections and Stalls count the presses that moved their
	// table, were refused, or saw neither in time; PressErrors those the
	// server refused to make.
	Applied, Rejections, Stalls, PressErrors int64
	// Jumps counts presses after which the version moved by more than one;
	// Stale the outdated presses made on purpose and StaleNotRefused those
	// not refused as outdated. Both must be 0.
	Jumps, Stale, StaleNotRefused int64
	// Refusals counts the refusals by text.
	Refusals map[string]int
	// Unanswered counts presses never answered.
	Unanswered int
	// NotDrained counts chats still in a game after the drain;
	// NotShowingLatest those whose newest table message does not show the
	// stored version (Mismatches says how).
	NotDrained, NotShowingLatest int
	Mismatches                   []string
	// Stuck describes chats not drained.
	Stuck []string
	// Orphans counts chats whose newest table message is not the one the
	// table is rendered into and shows an older version.
	Orphans int
	// Preload is how many tables were preloaded; PreloadedShown counts the preloaded tables rendered by the end, all
	// of them RestoredAfter the start.
	Preload        int
	PreloadedShown int
	RestoredAfter  time.Duration
	// AuditedChats and AuditProblems are the audit's.
	AuditedChats  int
	AuditProblems []string
	// DroppedEvents counts server events the load tool missed.
	DroppedEvents uint64
	// Paced holds a paced run's figures; nil for another run. P50 to Mean
	// are then the times from a press to the first table message showing
	// its effect.
	Paced *PacedResult
	// Asks holds the figures of the players' asks (-asks); nil without.
	Asks *AskResult
	// Circles is what the groups saw of circles and cuts (paced runs).
	Circles *CircleResult
	// StopFailed says how the bot failed to stop cleanly at the end (its
	// outbox not emptied in time, say); "" when it stopped.
	StopFailed string
	// Kinds are the groups' and the inline tables' figures, side by side.
	Kinds [kinds]*KindResult
	// App is what -app measured of the Mini App; nil without it.
	App *AppResult
}

// run runs one load as cfg says and returns what it measured. An error is
// a run that could not be made; what it found wrong is in the Result.
func run(ctx context.Context, cfg Config) (res *Result, err error) {
	cfg.defaults()
	var logMu sync.Mutex
	logf := func(format string, args ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(cfg.Log, format+"\n", args...)
	}
	dir, done, err := runDir(cfg.Dir, logf)
	if err != nil {
		return nil, err
	}
	var stopErr error // a bot that did not stop cleanly: its log is kept
	defer func() { done(errors.Join(err, stopErr)) }()
	db := cfg.DB
	if db == "" {
		db = filepath.Join(dir, "loadtest.db")
	}
	opts := []telegramtest.Option{telegramtest.WithFaultSeed(cfg.Seed)}
	if cfg.inlineChats() > 0 {
		opts = append(opts, telegramtest.WithInlineFeedback())
	}
	srv, err := telegramtest.Start(opts...)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	set := botSettings{
		Endpoint: srv.Endpoint(), Token: srv.Token(), DBPath: db, StartingChips: 1_000_000,
		TurnTimeout: cfg.TurnTimeout, LobbyTimeout: cfg.LobbyTimeout, PollTimeout: 25 * time.Second,
		RateLimits: cfg.Paced, GlobalRate: cfg.GlobalRate,
	}
	if cfg.App > 0 {
		if err := withApp(&cfg, srv, &set); err != nil {
			return nil, err
		}
	}
	if cfg.Preload > maxPreload {
		return nil, fmt.Errorf("-preload %d: at most %d", cfg.Preload, maxPreload)
	}
	res = &Result{Chats: cfg.Chats, Rate: cfg.Rate, Preload: cfg.Preload}

	logf("measuring the floors (%s each)", cfg.FloorSpan)
	if res.Floors, err = measureFloors(ctx, srv, dir, cfg.FloorSpan); err != nil {
		return nil, err
	}
	logf("floors: bbolt commit of %d bytes %s (%.0f/s), HTTP round trip %s (%.0f/s with 64 clients)",
		res.Floors.TableBytes, res.Floors.Commit, res.Floors.CommitsPerSec, res.Floors.RoundTrip, res.Floors.RoundTripsPerSec)

	if cfg.Preload > 0 {
		logf("preloading %d tables in progress", cfg.Preload)
		if res.PreloadTook, err = preload(ctx, srv, set, cfg.Preload); err != nil {
			return nil, err
		}
		logf("preloaded in %s", res.PreloadTook.Round(time.Millisecond))
	}

	d := newDriver(srv, &cfg)
	defer d.sub.Close()
	d.stalePresses = cfg.ChaosKills > 0
	if cfg.App > 0 {
		// A paced run's presses (fairness, shown per minute) are the
		// chat's alone: its players wait for each to show, the app's
		// players do not (their actions are timed to the chat apart).
		d.app = newAppLoad(&cfg, set.WebappListen, srv.Token(), d.measuring.Load)
		defer d.app.close()
	}
	tgt := newTarget(cfg, set, dir)
	res.Target = tgt.describe()
	probe, err := newProbe(srv)
	if err != nil {
		return nil, err
	}
	if cfg.Paced {
		srv.SetRateLimits(serverLimits(cfg.GlobalRate))
	}
	logf("starting the bot: %s", res.Target)
	t0 := time.Now()
	if err := tgt.start(ctx); err != nil {
		return nil, err
	}
	running := true
	defer func() {
		if running {
			sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			err = errors.Join(err, tgt.stop(sctx))
		}
	}()
	rctx, cancel := context.WithTimeout(ctx, time.Minute)
	exited := tgt.exited()
	go func() {
		select {
		case <-exited: // no use waiting out the minute
			cancel()
		case <-rctx.Done():
		}
	}()
	answer, err := probe.Wait(rctx)
	cancel()
	if err != nil {
		select {
		case <-exited:
			return nil, errors.New("the bot stopped before it answered its first press")
		default:
		}
		return nil, fmt.Errorf("the bot never answered its first press: %w", err)
	}
	res.Ready = answer.AnsweredAt.Sub(t0)
	logf("ready: first press answered %s after the start", res.Ready.Round(time.Millisecond))

	perChat := 10 * time.Millisecond
	if cfg.Paced {
		perChat = 100 * time.Millisecond // each table's first message waits its turn in the global budget
	}
	sctx, cancel := context.WithTimeout(ctx, time.Minute+time.Duration(cfg.Chats)*perChat)
	err = d.setup(sctx, cfg.Chats, cfg.inlineChats())
	cancel()
	if err != nil {
		return nil, err
	}
	logf("%d chats with an open table each (%d of them inline tables)", cfg.Chats, cfg.inlineChats())
	if d.app != nil {
		if err := d.app.start(ctx, srv, d.list); err != nil {
			return nil, err
		}
		logf("%d tables watched in the app, %d viewers each", len(d.app.all()), cfg.App)
	}

	stopFaults := func() {}
	if cfg.Faults {
		stopFaults = injectFaults(ctx, srv, cfg.Seed)
	}
	defer stopFaults()

	playCtx, stopPlay := context.WithCancel(ctx)
	defer stopPlay()
	if cfg.Rate > 0 {
		d.pace = startPacer(playCtx, cfg.Rate)
	}
	played := make(chan struct{})
	go func() {
		defer close(played)
		d.play(playCtx)
	}()

	sample := func() (m memStatus, goroutines int) {
		m, _ = tgt.mem()
		goroutines, _ = tgt.goroutines(ctx)
		return m, goroutines
	}
	if cfg.Warmup > 0 {
		logf("warming up for %s", cfg.Warmup)
		if !outbox.Sleep(ctx, cfg.Warmup) {
			return nil, ctx.Err()
		}
	}
	res.MemStart, res.GoroutinesStart = sample()
	res.RSSStart = res.MemStart.RSS

	if cfg.CPUProfile != "" {
		f, err := os.Create(cfg.CPUProfile)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, err
		}
		defer func() {
			pprof.StopCPUProfile()
			_ = f.Close()
		}()
	}
	before := srv.Calls()
	var commitsBefore, writesBefore int64
	var busyBefore time.Duration
	if ip, ok := tgt.(*inProcess); ok {
		commitsBefore, writesBefore, busyBefore = ip.commits.Load(), ip.writes.Load(), ip.commit.total()
	}
	writtenBefore, _ := tgt.written()
	d.measuring.Store(true)
	mstart := time.Now()
	mend := mstart.Add(cfg.Duration)
	if d.paced != nil {
		sctx, stopSampling := context.WithDeadline(ctx, mend)
		defer stopSampling()
		go everyTick(sctx, time.Second, func(now time.Time) { d.paced.sample(now, d.list) })
	}

	var chaos sync.WaitGroup
	var chaosErr error
	if cfg.ChaosKills > 0 {
		p, ok := tgt.(*process)
		if !ok {
			return nil, errors.New("chaos kills need the bot in a child process")
		}
		chaos.Add(1)
		go func() {
			defer chaos.Done()
			chaosErr = killLoop(ctx, p, cfg.ChaosKills, mend, rand.New(rand.NewPCG(cfg.Seed, 99)), logf)
		}()
	}

	progress := cfg.Progress
	if progress <= 0 {
		progress = time.Second
	}
	tick := time.NewTicker(progress)
	last, lastAt, lastWrites := int64(0), mstart, 0
	for time.Now().Before(mend) {
		select {
		case <-ctx.Done():
			tick.Stop()
			return nil, ctx.Err()
		case now := <-tick.C:
			if p, ok := tgt.(*process); ok {
				p.sample()
			}
			if cfg.Progress <= 0 {
				continue
			}
			n := d.presses.Load()
			w := d.window.Swap(newHistogram())
			rss, peak, _ := tgt.memory()
			g, _ := tgt.goroutines(ctx)
			kills := ""
			if p, ok := tgt.(*process); ok && cfg.ChaosKills > 0 {
				kills = fmt.Sprintf("  kills %d", p.killCount())
			}
			paced := ""
			if d.paced != nil {
				writes := d.paced.writeCount()
				tooMany, _ := tooManyRequests(srv.Calls())
				paced = fmt.Sprintf("  toast p99 %s  writes %.1f/s  429s %d  asks waiting %d",
					ms(d.paced.total.toast.quantile(.99)), float64(writes-lastWrites)/now.Sub(lastAt).Seconds(), tooMany, d.asks.waiting())
				lastWrites = writes
			}
			if d.app != nil {
				paced += d.app.progress(now.Sub(lastAt))
			}
			logf("[%5.1fs] presses %d (%.0f/s)  p50 %s p95 %s p99 %s%s  bot RSS %.0f MB (peak %.0f)  goroutines %d  stalls %d%s",
				now.Sub(mstart).Seconds(), n, float64(n-last)/now.Sub(lastAt).Seconds(),
				ms(w.quantile(.5)), ms(w.quantile(.95)), ms(w.quantile(.99)), paced, mb(rss), mb(peak), g, d.stalls.Load(), kills)
			last, lastAt = n, now
		}
	}
	tick.Stop()
	d.measuring.Store(false)
	res.Measured = time.Since(mstart)
	after := srv.Calls()
	acts := d.presses.Load() // with the app's actions: what moved the tables
	if d.app != nil {
		acts += d.app.acts.measured.Load()
	}
	if w, err := tgt.written(); err == nil && cfg.ChaosKills == 0 && acts > 0 {
		res.DiskPerPress = float64(w-writtenBefore) / float64(acts)
	}
	res.MemEnd, res.GoroutinesEnd = sample()
	res.RSSEnd = res.MemEnd.RSS
	chaos.Wait()
	if chaosErr != nil {
		return nil, chaosErr
	}
	if p, ok := tgt.(*process); ok {
		res.Kills = p.killCount()
	}
	if ip, ok := tgt.(*inProcess); ok {
		commits, writes := ip.commits.Load()-commitsBefore, ip.writes.Load()-writesBefore
		res.CommitsPerSec = float64(commits) / res.Measured.Seconds()
		if commits > 0 {
			res.WritesPerCommit = float64(writes) / float64(commits)
		}
		res.CommitP50, res.CommitP99 = ip.commit.quantile(.5), ip.commit.quantile(.99)
		res.CommitBusy = float64(ip.commit.total()-busyBefore) / float64(res.Measured)
	}
	res.Presses = d.presses.Load()
	res.PressesPerSec = float64(res.Presses) / res.Measured.Seconds()
	res.P50, res.P95, res.P99 = d.lat.quantile(.5), d.lat.quantile(.95), d.lat.quantile(.99)
	res.Max, res.Mean = d.lat.quantile(1), d.lat.mean()
	calls := after.Sub(before)
	res.Calls = map[string]int{}
	res.FailedCalls = map[string]int{}
	for _, m := range calls.MethodNames() {
		res.Calls[m] = calls.Count(m)
		if f := calls.Failed(m); f > 0 {
			res.FailedCalls[m] = f
		}
	}
	if acts > 0 {
		res.CallsPerPress = float64(calls.Total("getUpdates")) / float64(acts)
		res.CallsPerPressAll = float64(calls.Total()) / float64(acts)
	}

	// Every game in progress is played to its end; paced players stop
	// instead, once their last press shows.
	if cfg.Paced {
		logf("measured %s: the players stop; waiting for their last presses to show", res.Measured.Round(time.Millisecond))
	} else {
		logf("measured %s: draining: playing every game to its end", res.Measured.Round(time.Millisecond))
	}
	d.drain()
	drainEnd := time.Now().Add(cfg.DrainTimeout)
	for (len(d.notDrained()) > 0 || d.asks.waiting() > 0) && time.Now().Before(drainEnd) {
		if !outbox.Sleep(ctx, 50*time.Millisecond) {
			return nil, ctx.Err()
		}
	}
	if d.app != nil && d.paced != nil {
		d.app.waitQuiet(ctx, d.paced, drainEnd)
	}
	if len(d.notDrained()) > 0 {
		dumpGoroutines(ctx, tgt, filepath.Join(dir, "goroutines.txt"), logf)
	}
	for _, c := range d.notDrained() {
		res.NotDrained++
		if len(res.Stuck) < 5 {
			res.Stuck = append(res.Stuck, c.describe())
		}
	}
	stopPlay()
	<-played
	stopFaults()
	// After a start the bot renders every open table again, yielding to
	// the live renders: the preloaded ones must all be shown by now, or
	// soon.
	for cfg.Preload > 0 && d.preloadedShown() < cfg.Preload && time.Now().Before(drainEnd) {
		if !outbox.Sleep(ctx, 50*time.Millisecond) {
			return nil, ctx.Err()
		}
	}
	res.PreloadedShown = d.preloadedShown()
	if cfg.Preload > 0 {
		res.RestoredAfter = time.Since(t0)
	}
	uctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	res.Unanswered = len(d.unansweredPresses(uctx))
	cancel()
	_, res.PeakRSS, _ = tgt.memory()
	if res.PeakRSS == 0 {
		if p, ok := tgt.(*process); ok {
			res.PeakRSS = p.peak
		}
	}

	if d.app != nil {
		d.app.catchUp(ctx, 10*time.Second)
		d.app.close()
		res.App = d.app.figures(res.Floors)
	}
	stopCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
	running = false
	stopErr = tgt.stop(stopCtx)
	cancel()
	if p, ok := tgt.(*process); ok {
		res.PeakRSS = max(res.PeakRSS, p.peak)
	}
	if stopErr != nil {
		res.StopFailed = fmt.Sprintf("%v (the bot's log is in %s)", stopErr, dir)
	}
	res.DroppedEvents = d.sub.Dropped()
	var pacedKinds [kinds]*PacedResult
	if d.paced != nil {
		res.Paced, pacedKinds = d.paced.figures(mstart, mend, set.limits(), d.chatKinds())
		res.Paced.TooMany, res.Paced.TooManyMethod = tooManyRequests(srv.Calls())
		res.Paced.TooManyLimit = srv.RateLimited()
	}
	res.Asks = d.askFigures(srv, mstart, mend)
	if d.circles != nil {
		var groups []int64
		for _, c := range d.list {
			if c.kind == kindGroup {
				groups = append(groups, c.id)
			}
		}
		res.Circles = d.circles.figures(d.paced, groups, mstart, mend)
	}
	res.Kinds = d.kindResults(pacedKinds, srv.RateLimitedChats())
	res.Games, res.HouseGames, res.Finished = d.games.Load(), d.houseGames.Load(), d.finished.Load()
	res.Applied, res.Rejections, res.Stalls = d.applied.Load(), d.rejections.Load(), d.stalls.Load()
	res.Jumps, res.Stale, res.StaleNotRefused = d.jumps.Load(), d.stale.Load(), d.staleApplied.Load()
	res.PressErrors = d.pressErrors.Load()
	d.mu.Lock()
	res.Refusals = d.refusals
	d.mu.Unlock()
	if err := check(ctx, srv, set, d, res); err != nil {
		return nil, err
	}
	return res, nil
}

func ms(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// serverLimits are the limits the server enforces in a paced run:
// Telegram's, with the global limit raised or lowered with the bot's
// telegram.global_rate (0: as set), keeping the margin Telegram's 30 a
// second leaves over the bot's default 25, and at least 2 calls: the bot
// spaces its calls evenly by their starts, and calls that start a whole
// second apart can reach the server a little closer.
func serverLimits(globalRate int) telegramtest.RateLimits {
	l := telegramtest.TelegramRateLimits()
	if def := outbox.TelegramLimits().PerSecond; globalRate > 0 && globalRate != def {
		l.Global.Limit = max(globalRate*l.Global.Limit/def, globalRate+2)
	}
	return l
}
