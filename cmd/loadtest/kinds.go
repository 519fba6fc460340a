package main

import (
	"fmt"
	"sync/atomic"
	"time"
)

// kindCounts are one kind's share of the driver's counts.
type kindCounts struct {
	applied, games, houseGames, finished, stalls atomic.Int64
	lat                                          *histogram // press-to-edit over the measured part
}

// KindResult is what a run measured of one kind of chat, the groups or
// the inline tables, to be put side by side.
type KindResult struct {
	// Chats is how many chats of the kind played.
	Chats int
	// Presses counts the presses whose table moved in the measured part,
	// and P50 to Max are their latencies, as Result's.
	Presses            int64
	P50, P95, P99, Max time.Duration
	// Applied, Games, HouseGames, Finished and Stalls count as Result's
	// do, over the whole run.
	Applied, Games, HouseGames, Finished, Stalls int64
	// Audited counts the chats of the kind the audit covered (an inline
	// table's: its chat_instance's wallet); NotShowingLatest those whose
	// table message does not show the table's stored version.
	Audited, NotShowingLatest int
	// Paced holds the kind's paced figures: the global ones are the
	// run's, the rest the kind's chats', and TooMany counts the 429s on
	// the kind's chats' messages (TooManyMethod and TooManyLimit are left
	// empty). nil for a run not paced or a kind with no chat.
	Paced *PacedResult
}

// kindResults returns each kind's figures, with its paced ones (paced)
// and the 429s by chat (refusedIn).
func (d *driver) kindResults(paced [kinds]*PacedResult, refusedIn map[int64]int) [kinds]*KindResult {
	var out [kinds]*KindResult
	for k := range kinds {
		b := &d.byKind[k]
		out[k] = &KindResult{
			Presses: int64(b.lat.count()),
			P50:     b.lat.quantile(.5), P95: b.lat.quantile(.95), P99: b.lat.quantile(.99), Max: b.lat.quantile(1),
			Applied: b.applied.Load(), Games: b.games.Load(), HouseGames: b.houseGames.Load(),
			Finished: b.finished.Load(), Stalls: b.stalls.Load(),
			Paced: paced[k],
		}
	}
	for _, c := range d.list {
		out[c.kind].Chats++
		if p := out[c.kind].Paced; p != nil {
			p.TooMany += refusedIn[c.id]
		}
	}
	return out
}

// kindProblems lists what the run found wrong at one kind of chat, for a
// run with inline tables: a kind never played or not audited, and in a
// paced run a 429 on its messages or one of its chats starved among its
// kind.
func (r *Result) kindProblems(add func(bool, string, ...any)) {
	if r.Kinds[kindInline] == nil || r.Kinds[kindInline].Chats == 0 {
		return
	}
	for k, kr := range r.Kinds {
		if kr.Chats == 0 {
			continue
		}
		name := kind(k).String()
		add(kr.Applied == 0, "%s: no press was applied", name)
		add(kr.Audited < kr.Chats, "%s: the audit covered %d of %d chats", name, kr.Audited, kr.Chats)
		if p := kr.Paced; p != nil {
			add(p.TooMany > 0, "%s: %d × 429 on their messages", name, p.TooMany)
			add(p.FairMinute > starvedRatio, "%s: one starved: the most- to least-served ratio among them was %.2f over the minute from +%s (chat %d least served), over %.0f",
				name, p.FairMinute, p.FairMinuteAt, p.FairMinuteChat, starvedRatio)
		}
	}
}

// printKinds writes the groups' and the inline tables' figures side by
// side.
func (r *Result) printKinds(p func(string, ...any), paced bool) {
	row := func(label string, f func(k *KindResult) string) {
		cells := [kinds]string{}
		for k, kr := range r.Kinds {
			cells[k] = "–"
			if kr != nil && kr.Chats > 0 {
				cells[k] = f(kr)
			}
		}
		p("  %-34s %-26s %s", label, cells[kindGroup], cells[kindInline])
	}
	pacedRow := func(label string, f func(pr *PacedResult) string) {
		row(label, func(k *KindResult) string {
			if k.Paced == nil {
				return "–"
			}
			return f(k.Paced)
		})
	}
	p("")
	p("%-37s%-26s %s", "by kind:", kindGroup, kindInline)
	row("chats", func(k *KindResult) string { return fmt.Sprint(k.Chats) })
	row("presses applied (measured)", func(k *KindResult) string { return fmt.Sprintf("%d (%d)", k.Applied, k.Presses) })
	row("games started (house), finished", func(k *KindResult) string {
		return fmt.Sprintf("%d (%d), %d", k.Games, k.HouseGames, k.Finished)
	})
	lat := "press→edit"
	if paced {
		lat = "press→seen"
	}
	row(lat+" p50, p95", func(k *KindResult) string { return ms(k.P50) + ", " + ms(k.P95) })
	row(lat+" p99, max", func(k *KindResult) string { return ms(k.P99) + ", " + ms(k.Max) })
	if paced {
		pacedRow("toast p50, p99", func(pr *PacedResult) string { return ms(pr.ToastP50) + ", " + ms(pr.ToastP99) })
		pacedRow("429s", func(pr *PacedResult) string { return fmt.Sprint(pr.TooMany) })
		pacedRow("writes into a chat: most in 60 s", func(pr *PacedResult) string { return fmt.Sprint(pr.GroupMinuteMax) })
		pacedRow("  closest two (gaps under 1 s)", func(pr *PacedResult) string {
			return fmt.Sprintf("%.3fs (%d)", pr.MinSpacing.Seconds(), pr.UnderSecond)
		})
		pacedRow("fairness: run, worst minute", func(pr *PacedResult) string {
			return fmt.Sprintf("%.2f, %.2f", pr.FairRun, pr.FairMinute)
		})
		pacedRow("  median to least: run, minute", func(pr *PacedResult) string {
			return fmt.Sprintf("%.2f, %.2f", pr.FairRunMedian, pr.FairMinuteMedian)
		})
		pacedRow("shown a minute: least/median/most", func(pr *PacedResult) string {
			s := pr.ShownPerMinute
			return fmt.Sprintf("%.1f / %.1f / %.1f", s[0], s[1], s[2])
		})
		pacedRow("behind: samples, most versions", func(pr *PacedResult) string {
			return fmt.Sprintf("%.1f %%, %d", 100*pr.BehindShare, pr.BehindMax)
		})
		pacedRow("behind for p99, max", func(pr *PacedResult) string { return ms(pr.BehindForP99) + ", " + ms(pr.BehindForMax) })
		defer p("  (fairness among the chats of each kind; the run's, above, is over all of them)")
	}
	row("stalled", func(k *KindResult) string { return fmt.Sprint(k.Stalls) })
	row("audited, not showing latest", func(k *KindResult) string {
		return fmt.Sprintf("%d, %d", k.Audited, k.NotShowingLatest)
	})
}
