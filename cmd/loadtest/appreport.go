package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// latencies are a histogram's figures.
type latencies struct {
	N                  uint64
	P50, P95, P99, Max time.Duration
}

func latenciesOf(h *histogram) latencies {
	return latencies{N: h.count(), P50: h.quantile(.5), P95: h.quantile(.95), P99: h.quantile(.99), Max: h.quantile(1)}
}

func (l latencies) String() string {
	if l.N == 0 {
		return "none"
	}
	return fmt.Sprintf("p50 %s  p95 %s  p99 %s  max %s  (%d)", ms(l.P50), ms(l.P95), ms(l.P99), ms(l.Max), l.N)
}

// AppResult is what a run with -app measured of the Mini App.
type AppResult struct {
	// Tables are the watched tables, Viewers each one's viewers.
	Tables, Viewers int
	// Every[s] is from an action of source s (a chat press, an app
	// action) made in the measured part to every viewer of its table
	// holding its version; Chat[s] to the chat's message showing it.
	Every, Chat [sources]latencies
	// Missed counts the measured actions taken that some viewer never
	// received; Unshown those the chat never showed (by the end).
	Missed, Unshown int64
	// Events counts the views received in the measured part, EventBytes
	// their bytes on the stream (id and data lines, the blank line);
	// WireBytes every byte the streams read then (heartbeats too).
	Events, EventBytes, WireBytes int64
	// Opened counts the streams opened (reconnections too), Refused those
	// refused (by status in RefusedBy), Dropped those that broke while the
	// bot ran (why in DroppedBy), Replaced those a newer one replaced.
	Opened, Refused, Dropped, Replaced int64
	RefusedBy                          map[int]int
	DroppedBy                          map[string]int
	// Acts* count the actions sent through the app: taken (ActsApplied,
	// ActsMeasured in the measured part), refused by the table (409, by
	// text in Refusals), 429s, 503s and other failures (by kind).
	ActsSent, ActsApplied, ActsMeasured, ActsRefused, ActsTooMany, ActsBusy, ActsFailed int64
	Refusals, Failures                                                                  map[string]int
	// NotLatest counts the tables some viewer of which did not hold the
	// table's stored version at the end (NotLatestWhy: the first few).
	NotLatest    int
	NotLatestWhy []string
	// Floor is the same run's floor of an action: one bbolt commit and
	// one HTTP round trip.
	Floor time.Duration
}

// figures returns the app's figures once the run is over (close done).
func (a *appLoad) figures(f floors) *AppResult {
	r := &AppResult{Tables: len(a.all()), Viewers: a.cfg.App, Missed: a.lat.missed.Load(), Unshown: a.lat.unshown.Load(),
		Events: a.streams.events.Load(), EventBytes: a.streams.bytes.Load(), WireBytes: a.wire.Load(),
		Opened: a.streams.opened.Load(), Refused: a.streams.refused.Load(), Dropped: a.streams.dropped.Load(),
		Replaced: a.streams.replaced.Load(),
		ActsSent: a.acts.sent.Load(), ActsApplied: a.acts.applied.Load(), ActsMeasured: a.acts.measured.Load(),
		ActsRefused: a.acts.refused.Load(), ActsTooMany: a.acts.tooMany.Load(), ActsBusy: a.acts.busy.Load(),
		ActsFailed: a.acts.failed.Load(), Floor: f.Commit + f.RoundTrip}
	for s := range sources {
		r.Every[s], r.Chat[s] = latenciesOf(a.lat.every[s]), latenciesOf(a.lat.chat[s])
	}
	a.streams.mu.Lock()
	r.RefusedBy, r.DroppedBy = a.streams.refusedBy, a.streams.droppedBy
	a.streams.mu.Unlock()
	a.acts.mu.Lock()
	r.Refusals, r.Failures = a.acts.refusals, a.acts.failures
	a.acts.mu.Unlock()
	return r
}

// problems adds what the app's part of the run found wrong.
func (r *AppResult) problems(add func(bool, string, ...any)) {
	add(r.Refused > 0, "app: %d streams refused %s", r.Refused, statusList(r.RefusedBy))
	add(r.Dropped > 0, "app: %d streams broke while the bot ran %s", r.Dropped, callList(r.DroppedBy))
	add(r.Missed > 0, "app: %d actions never reached every viewer of their table", r.Missed)
	add(r.NotLatest > 0, "app: %d tables with a viewer not holding the stored version at the end: %s", r.NotLatest, strings.Join(r.NotLatestWhy, "; "))
	add(r.ActsTooMany+r.ActsBusy+r.ActsFailed > 0, "app: actions answered 429 %d, 503 %d, failed %d %s",
		r.ActsTooMany, r.ActsBusy, r.ActsFailed, callList(r.Failures))
}

// print writes the app's figures.
func (r *AppResult) print(p func(string, ...any), measured time.Duration, cfg Config) {
	how := fmt.Sprintf("%.0f %% of the choices through the app, at a person's pace", 100*cfg.AppShare)
	if cfg.AppFlat {
		how = "every choice through the app, flat out (each as soon as the player's viewer holds the last version)"
	}
	p("app:        %d tables × %d viewers = %d streams; %s", r.Tables, r.Viewers, r.Tables*r.Viewers, how)
	secs := measured.Seconds()
	p("actions:    %.1f/s through the app (%d taken in the measured part); sent %d, taken %d, refused %d %s",
		float64(r.ActsMeasured)/secs, r.ActsMeasured, r.ActsSent, r.ActsApplied, r.ActsRefused, callList(r.Refusals))
	for s := range sources {
		every := r.Every[s]
		ratio := ""
		if every.N > 0 && r.Floor > 0 {
			ratio = fmt.Sprintf("; p50 %.1f×, p99 %.1f× the floor of 1 commit + 1 round trip = %s", float64(every.P50)/float64(r.Floor),
				float64(every.P99)/float64(r.Floor), ms(r.Floor))
		}
		p("%-11s →every viewer: %s%s", source(s).String(), every, ratio)
		p("%-11s →chat shows:   %s", "", r.Chat[s])
	}
	if r.Missed > 0 || r.Unshown > 0 {
		p("            %d actions never reached every viewer, %d never shown in the chat", r.Missed, r.Unshown)
	}
	if r.Events > 0 {
		p("updates:    %d views received (%.0f/s), %.0f bytes each on the stream; %.1f KB/s over all streams (%.1f KB/s with heartbeats), %.2f KB/s a stream",
			r.Events, float64(r.Events)/secs, float64(r.EventBytes)/float64(r.Events), float64(r.EventBytes)/secs/1024,
			float64(r.WireBytes)/secs/1024, float64(r.EventBytes)/secs/1024/float64(max(r.Tables*r.Viewers, 1)))
	}
	p("streams:    %d opened, %d refused %s, %d broke while the bot ran %s, %d replaced",
		r.Opened, r.Refused, statusList(r.RefusedBy), r.Dropped, callList(r.DroppedBy), r.Replaced)
	if r.ActsTooMany+r.ActsBusy+r.ActsFailed > 0 {
		p("            actions answered 429 %d, 503 %d, failed %d %s", r.ActsTooMany, r.ActsBusy, r.ActsFailed, callList(r.Failures))
	}
}

func statusList(m map[int]int) string {
	var keys []int
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d × %d", m[k], k))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// progress is the app's part of a progress line, over the span since the
// last one: action→every viewer (of the actions everyone has seen since),
// the views received a second, and the streams open, refused and broken.
func (a *appLoad) progress(span time.Duration) string {
	w := a.lat.window.Swap(newHistogram())
	events := a.streams.events.Load()
	rate := float64(events-a.lastEvents) / span.Seconds()
	a.lastEvents = events
	return fmt.Sprintf("  app: →every viewer p50 %s p99 %s (%d)  views %.0f/s  streams refused %d broke %d",
		ms(w.quantile(.5)), ms(w.quantile(.99)), w.count(), rate, a.streams.refused.Load(), a.streams.dropped.Load())
}
