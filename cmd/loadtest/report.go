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
		if r.Asks != nil {
			r.Asks.problems(add)
		}
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
	add(r.StopFailed != "", "the bot did not stop cleanly: %s", r.StopFailed)
	add(r.PreloadedShown < r.Preload, "%d of %d preloaded tables never rendered again after the start", r.Preload-r.PreloadedShown, r.Preload)
	r.kindProblems(add)
	if r.App != nil {
		r.App.problems(add)
	}
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
	case cfg.Paced && cfg.AppFlat:
		rate = "flat out through the Mini App, the chat under Telegram's limits"
	case cfg.Paced:
		rate = fmt.Sprintf("at human pace (%s to %s a choice, 1 in %d %s to %s) under Telegram's limits",
			thinkMin, thinkMax, pauseOdds, pauseMin, pauseMax)
	case cfg.AppFlat:
		rate = "flat out through the Mini App"
	case cfg.App > 0:
		rate = fmt.Sprintf("at human pace (%s to %s a choice, 1 in %d %s to %s), Telegram's limits off", thinkMin, thinkMax, pauseOdds, pauseMin, pauseMax)
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
		if r.Circles != nil {
			r.Circles.print(p)
		}
		if r.Asks != nil {
			r.Asks.print(p)
		}
	} else {
		p("presses/s:  %.0f  (%.2f× the bare-commit rate, %.3f× the HTTP round-trip rate)",
			r.PressesPerSec, r.PressesPerSec/f.CommitsPerSec, r.PressesPerSec/f.RoundTripsPerSec)
		if r.Presses > 0 || r.App == nil {
			p("press→edit: p50 %s  p95 %s  p99 %s  max %s  (p50 %.1f×, p99 %.1f× the floor of 1 commit + 3 round trips = %s)",
				ms(r.P50), ms(r.P95), ms(r.P99), ms(r.Max), ratio(r.P50, f.pressFloor()), ratio(r.P99, f.pressFloor()), ms(f.pressFloor()))
		} else {
			p("press→edit: no press in the chat (the app's actions are timed to the chat below)")
		}
	}
	if r.App != nil {
		r.App.print(p, r.Measured, cfg)
	}
	per := "press"
	if r.App != nil {
		per = "action (press or app)"
	}
	p("API calls:  %.2f per %s without getUpdates, %.2f with  %s", r.CallsPerPress, per, r.CallsPerPressAll, callList(r.Calls))
	if len(r.FailedCalls) > 0 {
		p("failed:     %s", callList(r.FailedCalls))
	}
	if r.CommitsPerSec > 0 {
		p("commits:    %.0f/s carrying %.2f writes each (%.2f× the bare-commit rate); commit p50 %s p99 %s (%.1f×, %.1f× the bare commit)",
			r.CommitsPerSec, r.WritesPerCommit, r.CommitsPerSec/f.CommitsPerSec, ms(r.CommitP50), ms(r.CommitP99), ratio(r.CommitP50, f.Commit), ratio(r.CommitP99, f.Commit))
		p("            the commit loop was busy %.0f %% of the time", 100*r.CommitBusy)
	}
	if r.DiskPerPress > 0 {
		rate := r.PressesPerSec
		if r.App != nil {
			rate += float64(r.App.ActsMeasured) / r.Measured.Seconds()
		}
		p("disk:       %.1f KB written per %s (%.1f MB/s)", r.DiskPerPress/1024, per, r.DiskPerPress*rate/(1<<20))
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
	p("checks:     audit of %d chats: %d problems; %d chats not drained; %d not showing their latest version; %d version jumps; %d presses unanswered%s",
		r.AuditedChats, len(r.AuditProblems), r.NotDrained, r.NotShowingLatest, r.Jumps, r.Unanswered, r.askLine())
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

// print writes the paced figures. Latencies under Telegram's limits are
// the pacing's, not the machine's: they are given as measured, not as
// ratios to the floors.
func (pr *PacedResult) print(p func(string, ...any), r *Result) {
	if r.Presses > 0 || r.App == nil {
		p("press→seen: p50 %s  p95 %s  p99 %s  max %s  (from a press to the first table message showing its effect)",
			ms(r.P50), ms(r.P95), ms(r.P99), ms(r.Max))
	} else {
		p("press→seen: no press in the chat (the app's actions are timed to the chat below)")
	}
	p("toast:      p50 %s  p95 %s  p99 %s  max %s  (from a press to its answer)",
		ms(pr.ToastP50), ms(pr.ToastP95), ms(pr.ToastP99), ms(pr.ToastMax))
	if pr.TooMany > 0 {
		l := pr.TooManyLimit
		p("429s:       %d over the whole run %s: past the global limit %d, a group's minute %d, a chat's second %d",
			pr.TooMany, callList(pr.TooManyMethod), l.Global, l.Group, l.Chat)
	} else {
		p("429s:       none over the whole run")
	}
	p("per group:  at most %d writes in any 60 s of the run (chat %d); closest two writes %.3fs apart, %d gaps under 1 s",
		pr.GroupMinuteMax, pr.GroupMinuteChat, pr.MinSpacing.Seconds(), pr.UnderSecond)
	p("global:     %.1f writes/s over the measured part, at most %d in any 1 s of the run; the budget contended %.0f %% of the measured part",
		pr.GlobalMean, pr.GlobalMax, 100*pr.Contended)
	least := ""
	if pr.FairMinute > 1 {
		least = fmt.Sprintf(" (from +%s, chat %d least served)", pr.FairMinuteAt, pr.FairMinuteChat)
	}
	p("fairness:   most- to least-served ratio %.2f over the measured part, %.2f at worst over a minute%s;",
		pr.FairRun, pr.FairMinute, least)
	p("            median to least-served %.2f over the measured part, %.2f at worst over a minute",
		pr.FairRunMedian, pr.FairMinuteMedian)
	p("            (service: presses shown per second of waiting, not held by the group's own limits, while at least %d groups waited so; each wait at least %s)",
		pr.Limits.PerSecond, pr.Limits.GroupInterval().Round(10*time.Millisecond))
	p("shown:      %.1f / %.1f / %.1f presses shown per group per minute (least / median / most)",
		pr.ShownPerMinute[0], pr.ShownPerMinute[1], pr.ShownPerMinute[2])
	p("staleness:  behind the stored table in %.1f %% of samples, by p99 %d and at most %d versions; behind for p99 %s, at most %s",
		100*pr.BehindShare, pr.BehindP99, pr.BehindMax, ms(pr.BehindForP99), ms(pr.BehindForMax))
}
