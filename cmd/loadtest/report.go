package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// problems lists what the run found wrong: the correctness checks, which
// hold whatever the speed. Unanswered presses count only without injected
// faults (the bot does not retry a callback answer that failed).
func (r *Result) problems(faults bool) []string {
	var out []string
	add := func(cond bool, format string, args ...any) {
		if cond {
			out = append(out, fmt.Sprintf(format, args...))
		}
	}
	add(len(r.AuditProblems) > 0, "audit: %d problems: %s", len(r.AuditProblems), strings.Join(first(r.AuditProblems, 5), "; "))
	if r.Paced != nil {
		add(r.NotDrained > 0, "%d chats whose last press never showed by the end: %s", r.NotDrained, strings.Join(r.Stuck, "; "))
		add(r.Paced.TooMany > 0, "%d × 429 received by the bot %s", r.Paced.TooMany, callList(r.Paced.TooManyMethod))
		add(r.Paced.FairMinute > starvedRatio, "a group starved: the most- to least-served ratio was %.2f over the minute from +%s (chat %d least served), over %.0f",
			r.Paced.FairMinute, r.Paced.FairMinuteAt, r.Paced.FairMinuteChat, starvedRatio)
	} else {
		add(r.NotDrained > 0, "%d chats still in a game at the end of the drain: %s", r.NotDrained, strings.Join(r.Stuck, "; "))
	}
	add(r.NotShowingLatest > 0, "%d chats do not show their table's latest version: %s", r.NotShowingLatest, strings.Join(r.Mismatches, "; "))
	add(r.Jumps > 0, "%d presses moved their table by more than one version (applied twice?)", r.Jumps)
	add(r.StaleNotRefused > 0, "%d outdated presses were not refused as outdated", r.StaleNotRefused)
	add(!faults && r.Unanswered > 0, "%d presses never answered", r.Unanswered)
	add(r.DroppedEvents > 0, "%d server events dropped: the load tool fell behind", r.DroppedEvents)
	add(r.Applied == 0, "no press was applied")
	add(r.PreloadedShown < r.Preload, "%d of %d preloaded tables never rendered again after the start", r.Preload-r.PreloadedShown, r.Preload)
	r.kindProblems(add)
	return out
}

func first(s []string, n int) []string { return s[:min(n, len(s))] }

// print writes the report: every figure with its ratio to the floors.
func (r *Result) print(w io.Writer, cfg Config) {
	f := r.Floors
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("")
	p("== twentyone load test ==")
	p("bot:        %s", r.Target)
	rate := "as fast as the bot answers"
	switch {
	case cfg.Paced:
		rate = fmt.Sprintf("at human pace (%s to %s a choice, 1 in %d %s to %s) under Telegram's limits",
			thinkMin, thinkMax, pauseOdds, pauseMin, pauseMax)
	case cfg.Rate > 0:
		rate = fmt.Sprintf("paced at %.0f presses/s", cfg.Rate)
	}
	chats := fmt.Sprintf("%d chats", r.Chats)
	if in := r.Kinds[kindInline]; in != nil && in.Chats > 0 {
		chats = fmt.Sprintf("%d chats (%d groups, %d inline tables)", r.Chats, r.Chats-in.Chats, in.Chats)
	}
	p("load:       %s × 4 players, %s, measured %s after %s warm-up", chats, rate, r.Measured.Round(time.Millisecond), cfg.Warmup)
	p("floors:     bbolt commit of %d bytes (fsync) %s = %.0f commits/s; HTTP round trip %s, %.0f/s with 64 clients",
		f.TableBytes, ms(f.Commit), f.CommitsPerSec, ms(f.RoundTrip), f.RoundTripsPerSec)
	p("")
	if r.Paced != nil {
		p("presses/s:  %.1f  (the players' pace, not the bot's)", r.PressesPerSec)
		r.Paced.print(p, r)
	} else {
		p("presses/s:  %.0f  (%.2f× the bare-commit rate, %.3f× the HTTP round-trip rate)",
			r.PressesPerSec, r.PressesPerSec/f.CommitsPerSec, r.PressesPerSec/f.RoundTripsPerSec)
		p("press→edit: p50 %s  p95 %s  p99 %s  max %s  (p50 %.1f×, p99 %.1f× the floor of 1 commit + 3 round trips = %s)",
			ms(r.P50), ms(r.P95), ms(r.P99), ms(r.Max), ratio(r.P50, f.pressFloor()), ratio(r.P99, f.pressFloor()), ms(f.pressFloor()))
	}
	p("API calls:  %.2f per press without getUpdates, %.2f with  %s", r.CallsPerPress, r.CallsPerPressAll, callList(r.Calls))
	if len(r.FailedCalls) > 0 {
		p("failed:     %s", callList(r.FailedCalls))
	}
	if r.CommitsPerSec > 0 {
		p("commits:    %.0f/s carrying %.2f writes each (%.2f× the bare-commit rate); commit p50 %s p99 %s (%.1f×, %.1f× the bare commit)",
			r.CommitsPerSec, r.WritesPerCommit, r.CommitsPerSec/f.CommitsPerSec, ms(r.CommitP50), ms(r.CommitP99), ratio(r.CommitP50, f.Commit), ratio(r.CommitP99, f.Commit))
		p("            the commit loop was busy %.0f %% of the time", 100*r.CommitBusy)
	}
	if r.DiskPerPress > 0 {
		p("disk:       %.1f KB written per press (%.1f MB/s)", r.DiskPerPress/1024, r.DiskPerPress*r.PressesPerSec/(1<<20))
	}
	p("memory:     RSS %.1f MB at the start (%.1f anonymous + %.1f file), %.1f MB at the end (%.1f + %.1f), peak %.1f MB",
		mb(r.RSSStart), mb(r.MemStart.Anon), mb(r.MemStart.File), mb(r.RSSEnd), mb(r.MemEnd.Anon), mb(r.MemEnd.File), mb(r.PeakRSS))
	p("goroutines: %d at the start, %d at the end", r.GoroutinesStart, r.GoroutinesEnd)
	p("ready:      first press answered %s after the start (%.0f× the floor)", ms(r.Ready), ratio(r.Ready, f.pressFloor()))
	if cfg.Preload > 0 {
		p("preload:    %d tables in progress (took %s); %d of them rendered again, the last %s after the start", cfg.Preload,
			r.PreloadTook.Round(time.Millisecond), r.PreloadedShown, r.RestoredAfter.Round(time.Millisecond))
	}
	p("")
	p("games started %d (%d with the house), finished %d; presses applied %d, refused %d, stalled %d, server refused %d",
		r.Games, r.HouseGames, r.Finished, r.Applied, r.Rejections, r.Stalls, r.PressErrors)
	if len(r.Refusals) > 0 {
		p("refusals:   %s", callList(r.Refusals))
	}
	if in := r.Kinds[kindInline]; in != nil && in.Chats > 0 {
		r.printKinds(p, cfg.Paced)
		p("")
	}
	if cfg.ChaosKills > 0 {
		p("chaos:      %d × kill -9; %d outdated presses made, %d not refused as outdated", r.Kills, r.Stale, r.StaleNotRefused)
	}
	p("checks:     audit of %d chats: %d problems; %d chats not drained; %d not showing their latest version; %d version jumps; %d presses unanswered",
		r.AuditedChats, len(r.AuditProblems), r.NotDrained, r.NotShowingLatest, r.Jumps, r.Unanswered)
	if r.Orphans > 0 {
		p("orphans:    %d chats also show an older table message below the live one (a kill between sendMessage and storing its id)", r.Orphans)
	}
	if probs := r.problems(cfg.Faults); len(probs) > 0 {
		p("FAILED:")
		for _, s := range probs {
			p("  - %s", s)
		}
	} else {
		p("OK: every check passed")
	}
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func callList(m map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
