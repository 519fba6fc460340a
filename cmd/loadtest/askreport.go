package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// AskResult is what a run with asking players (-asks) measured and
// checked: the writes the groups saw and the answers only their askers
// saw, and whether every ask was answered.
type AskResult struct {
	// Rate is the asks per player per minute asked for (Config.Asks).
	Rate float64
	// Asks counts the asks posted over the whole run, Ephemeral those sent
	// as ephemeral commands, Failed those the server refused to post.
	Asks, Ephemeral, Failed int
	// AnsweredEphemeral, AnsweredReply, AnsweredFallback and
	// AnsweredDigest count the asks answered by an ephemeral message, by a
	// message of the group's in reply to the ask, and for an ask sent
	// ephemerally (its window passed) by one replying to nothing, alone or
	// in a digest with others' answers.
	AnsweredEphemeral, AnsweredReply, AnsweredFallback, AnsweredDigest int
	// Unanswered counts the asks with no answer by the end, Open
	// describes a few; Twice the answers to an ask already answered;
	// Unplaced the bot's answers placed with no ask.
	Unanswered, Twice, Unplaced int
	Open                        []string
	// Uncounted is how far the tool's count of the bot's ephemeral
	// messages and replies to asks in the groups is from the server's.
	Uncounted int
	// P50 to Max are the times from an ask of the measured part to its
	// answer.
	P50, P95, P99, Max time.Duration
	// The measured part's figures over the groups (inline tables ask
	// nothing): Groups, Minutes, the asks posted in it, the writes the
	// groups saw (every message the bot sent or edited in them: tables,
	// records, nudges, public answers), of which PublicAnswers answered
	// an ask (DigestAnswers of them in Digests messages), the answers only
	// their asker saw, and the games seen to end.
	Groups                                        int
	Digests, DigestAnswers                        int
	Minutes                                       float64
	MeasuredAsks, GroupWrites, PublicAnswers      int
	EphemeralAnswers, GamesFinished               int
	WritesPerGame, WritesPerGroupMinute           float64
	EphemeralPerGame, EphemeralPerGroupMinute     float64
	AnswersPerGroupMinute, PublicAnswersPerMinute float64
}

// EphemeralShare returns the share of the measured part's answers that
// went ephemeral.
func (a *AskResult) EphemeralShare() float64 {
	if n := a.EphemeralAnswers + a.PublicAnswers; n > 0 {
		return float64(a.EphemeralAnswers) / float64(n)
	}
	return 0
}

// askFigures computes the asks' figures of the measured part [start,
// end), once every answer had its time, and compares the answers counted
// with the messages the server holds; nil without asks.
func (d *driver) askFigures(srv *telegramtest.Server, start, end time.Time) *AskResult {
	l := d.asks
	if l == nil {
		return nil
	}
	r := &AskResult{Rate: d.cfg.Asks, Minutes: end.Sub(start).Minutes(), Open: l.describeOpen(5, start)}
	r.Unanswered = l.waiting()
	l.mu.Lock()
	defer l.mu.Unlock()
	r.Failed, r.Twice, r.Unplaced = l.failed, l.twice, l.unplaced
	r.P50, r.P95, r.P99, r.Max = l.lat.quantile(.5), l.lat.quantile(.95), l.lat.quantile(.99), l.lat.quantile(1)
	in := func(t time.Time) bool { return !t.Before(start) && t.Before(end) }
	for _, a := range l.all {
		r.Asks++
		if a.ephemeral {
			r.Ephemeral++
		}
		if a.measured {
			r.MeasuredAsks++
		}
		switch a.way {
		case answeredEphemeral:
			r.AnsweredEphemeral++
		case answeredReply:
			r.AnsweredReply++
		case answeredFallback:
			r.AnsweredFallback++
		case answeredDigest:
			r.AnsweredDigest++
		}
	}
	for _, ans := range l.answers {
		switch {
		case !in(ans.at):
		case ans.way == answeredEphemeral:
			r.EphemeralAnswers++
		case ans.way == answeredDigest:
			r.DigestAnswers++
			r.PublicAnswers++
		default:
			r.PublicAnswers++
		}
	}
	r.Digests = countUnsorted(l.digests, in)
	for _, c := range d.list {
		if c.kind != kindGroup {
			continue
		}
		r.Groups++
		if d.paced != nil {
			d.paced.mu.Lock()
			r.GroupWrites += countUnsorted(d.paced.writes[c.id], in)
			r.GamesFinished += countUnsorted(d.paced.finishes[c.id], in)
			d.paced.mu.Unlock()
		}
		eph, replies := 0, 0
		for _, m := range srv.EphemeralMessages(c.id) {
			if m.FromBot {
				eph++
			}
		}
		for _, m := range srv.Messages(c.id) {
			if m.FromBot && m.ReplyToMessage != nil && l.byMsg[[2]int64{c.id, int64(m.ReplyToMessage.MessageID)}] != nil {
				replies++
			}
		}
		r.Uncounted += abs(eph-l.ephSeen[c.id]) + abs(replies-l.repliesSeen[c.id])
	}
	if r.GamesFinished > 0 {
		r.WritesPerGame = float64(r.GroupWrites) / float64(r.GamesFinished)
		r.EphemeralPerGame = float64(r.EphemeralAnswers) / float64(r.GamesFinished)
	}
	if perGroup := float64(r.Groups) * r.Minutes; perGroup > 0 {
		r.WritesPerGroupMinute = float64(r.GroupWrites) / perGroup
		r.EphemeralPerGroupMinute = float64(r.EphemeralAnswers) / perGroup
		r.AnswersPerGroupMinute = float64(r.EphemeralAnswers+r.PublicAnswers) / perGroup
		r.PublicAnswersPerMinute = float64(r.PublicAnswers) / perGroup
	}
	return r
}

func countUnsorted(times []time.Time, in func(time.Time) bool) int {
	n := 0
	for _, t := range times {
		if in(t) {
			n++
		}
	}
	return n
}

func abs(n int) int { return max(n, -n) }

// problems adds what the asks found wrong: an ask never answered, an
// answer given twice or to no ask, or the answers not all counted.
func (a *AskResult) problems(add func(bool, string, ...any)) {
	add(a.Unanswered > 0, "%d asks unanswered: %s", a.Unanswered, strings.Join(a.Open, "; "))
	add(a.Twice > 0, "%d asks answered twice", a.Twice)
	add(a.Unplaced > 0, "%d answers of the bot's placed with no ask", a.Unplaced)
	add(a.Uncounted > 0, "the answers counted are %d off the server's messages: the load tool missed some", a.Uncounted)
	add(a.Failed > 0, "%d asks the server refused to post", a.Failed)
	add(a.Asks == 0, "no ask was posted")
}

// print writes the asks' figures.
func (a *AskResult) print(p func(string, ...any)) {
	p("asks:       %d (%.2f a player a minute asked for), %d sent as ephemeral commands; answered: %d ephemeral, %d in reply in the group, %d in the group for an ephemeral ask (%d alone, %d in digests); %d unanswered",
		a.Asks, a.Rate, a.Ephemeral, a.AnsweredEphemeral, a.AnsweredReply, a.AnsweredFallback+a.AnsweredDigest, a.AnsweredFallback, a.AnsweredDigest, a.Unanswered)
	p("ask→answer: p50 %s  p95 %s  p99 %s  max %s  (from an ask of the measured part to its answer)",
		ms(a.P50), ms(a.P95), ms(a.P99), ms(a.Max))
	p("a group:    %.1f writes per game it sees (%d writes, %d games finished, %d groups), %.1f a minute, of which %.2f public answers in %.2f writes (%d answers in %d digests);",
		a.WritesPerGame, a.GroupWrites, a.GamesFinished, a.Groups, a.WritesPerGroupMinute, a.PublicAnswersPerMinute,
		a.PublicAnswersPerMinute*float64(a.PublicAnswers-a.DigestAnswers+a.Digests)/float64(max(a.PublicAnswers, 1)), a.DigestAnswers, a.Digests)
	p("            beside them %.2f answers per game only their asker saw (%.2f a minute); answers %.0f %% ephemeral (%d of %d, %.2f a group a minute)",
		a.EphemeralPerGame, a.EphemeralPerGroupMinute, 100*a.EphemeralShare(), a.EphemeralAnswers, a.EphemeralAnswers+a.PublicAnswers, a.AnswersPerGroupMinute)
	if a.Twice > 0 || a.Unplaced > 0 || a.Uncounted > 0 {
		p("            answered twice %d, answers placed with no ask %d, off the server's count by %d", a.Twice, a.Unplaced, a.Uncounted)
	}
}

// askLine returns the checks line's words on asks; "" without them.
func (r *Result) askLine() string {
	if r.Asks == nil {
		return ""
	}
	return fmt.Sprintf("; %d asks unanswered", r.Asks.Unanswered)
}
