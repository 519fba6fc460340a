package main

import (
	"context"
	"fmt"
	"html"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// Players who ask (-asks R): besides pressing, each player of a group
// sends now and then one of the personal commands (askCommands), R times a
// minute on average, the way a client sends it: as an ephemeral command
// (only they and the bot see it) when the bot's menu, as the server shows
// it to them, declares the command is_ephemeral, else as an ordinary
// message. They wait for its answer before they ask again. The load tool
// places each answer the bot sends with its ask: an ephemeral message in
// reply to the ephemeral command, or to its sender; a message of the
// group's in reply to the command; or, for an ephemeral command the bot
// answered in the group instead (its window passed while it waited), a
// message of the group's replying to nothing that says what that player's
// answer says (answerPrefixes), or a part of such a message holding several
// players' answers (a digest: digest.go). An ask never answered fails the
// run.

// askCommands are the personal commands the players ask, each answered
// whatever the player's chips.
var askCommands = []string{"balance", "stats", "history", "bonus"}

// maxAsks bounds -asks: a player's asks are at least half the mean apart
// (askGap), so that at 3 a minute they get at most 7 answers in a minute,
// within the bot's reply quota of 8, which holds back the rest by design.
const maxAsks = 3

// answerWay is how an ask was answered.
type answerWay int

const (
	unanswered answerWay = iota
	// answeredEphemeral: an ephemeral message only the asker sees.
	answeredEphemeral
	// answeredReply: a message of the group's in reply to the ask.
	answeredReply
	// answeredFallback: a message of the group's, replying to nothing, for
	// an ask sent ephemerally.
	answeredFallback
	// answeredDigest: a part of a digest, a message of the group's that
	// holds several members' answers (digest.go), for an ask sent
	// ephemerally.
	answeredDigest
)

// ask is one personal command a player sent.
type ask struct {
	chat    int64
	user    int64
	name    string
	command string
	// ephemeral: sent as an ephemeral command.
	ephemeral bool
	// measured: asked in the measured part.
	measured bool
	// msgID or ephID is the posted command's, and at when it was posted
	// (server time): set from its event; zero while it is being posted.
	msgID, ephID int
	at           time.Time
	way          answerWay
	answeredAt   time.Time
	done         chan struct{} // closed once answered
}

// answerRecord is an answer seen: in which group, when, and how.
type answerRecord struct {
	chat int64
	at   time.Time
	way  answerWay
}

// askLog keeps every ask and places every answer the bot sends into the
// groups. Its methods are safe for concurrent use.
type askLog struct {
	mu   sync.Mutex
	open map[int64][]*ask // by chat: not answered yet, at most one a player
	all  []*ask
	// byMsg and byEph find an ask by its chat and message or ephemeral
	// message id.
	byMsg, byEph map[[2]int64]*ask
	answers      []answerRecord
	lat          *histogram // ask→answer, of the asks of the measured part
	// ephSeen and repliesSeen count, by chat, the bot's ephemeral messages
	// and its messages in reply to an ask, as the events showed them.
	ephSeen, repliesSeen map[int64]int
	// twice counts answers to an ask already answered; unplaced answers
	// the tool could place with no ask; failed asks the server refused
	// to post.
	twice, unplaced, failed int
	// digests are when the digests were seen.
	digests []time.Time
}

func newAskLog() *askLog {
	return &askLog{open: map[int64][]*ask{}, byMsg: map[[2]int64]*ask{}, byEph: map[[2]int64]*ask{},
		lat: newHistogram(), ephSeen: map[int64]int{}, repliesSeen: map[int64]int{}}
}

// askGap draws the time from one ask of a player to their next: uniform
// in [mean/2, 3·mean/2].
func askGap(r *rand.Rand, mean time.Duration) time.Duration {
	return mean/2 + time.Duration(r.Int64N(int64(mean)+1))
}

// askLoop is one player's asking: at a random moment of their first mean
// gap, then a gap (askGap) after each ask, and not before its answer,
// until the players stop.
func (d *driver) askLoop(ctx context.Context, c *chat, who int) {
	r := rand.New(rand.NewPCG(d.cfg.Seed, uint64(c.id)<<2|uint64(who)))
	mean := time.Duration(float64(time.Minute) / d.cfg.Asks)
	next := time.Now().Add(time.Duration(r.Int64N(int64(mean))))
	last := ""
	for {
		if !d.waitUntil(ctx, next) {
			return
		}
		cmd := askCommands[r.IntN(len(askCommands))]
		for cmd == last { // the same answer twice within 15 s is not given again, by design
			cmd = askCommands[r.IntN(len(askCommands))]
		}
		last = cmd
		next = time.Now().Add(askGap(r, mean))
		a := d.asks.post(d.srv, c, who, cmd, d.measuring.Load())
		if a == nil {
			continue
		}
		select {
		case <-a.done:
		case <-d.stop:
			return
		case <-ctx.Done():
			return
		}
	}
}

// waitUntil waits until t; false, at once, when the players stop.
func (d *driver) waitUntil(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-d.stop:
	case <-ctx.Done():
	}
	return false
}

// post sends the command as player who of the chat, ephemerally when the
// menu they see declares it so, and returns its ask; nil when the server
// refused it.
func (l *askLog) post(srv *telegramtest.Server, c *chat, who int, command string, measured bool) *ask {
	u := c.users[who]
	a := &ask{chat: c.id, user: u.ID, name: playerNames[who], command: command, measured: measured,
		ephemeral: ephemeralIn(srv.CommandsFor(c.id, u.ID), command), done: make(chan struct{})}
	l.mu.Lock()
	l.open[c.id] = append(l.open[c.id], a)
	l.mu.Unlock()
	var err error
	if a.ephemeral {
		_, err = srv.SendEphemeralCommand(c.id, u.ID, command)
	} else {
		_, err = srv.SendCommand(c.id, u.ID, command)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.failed++
		l.close(a)
		return nil
	}
	l.all = append(l.all, a)
	return a
}

// ephemeralIn reports whether a menu declares the command is_ephemeral.
func ephemeralIn(menu []telegramtest.BotCommand, command string) bool {
	for _, c := range menu {
		if strings.EqualFold(c.Command, command) {
			return c.IsEphemeral
		}
	}
	return false
}

// close takes a out of its chat's open asks; l.mu is held.
func (l *askLog) close(a *ask) {
	open := l.open[a.chat]
	for i, o := range open {
		if o == a {
			l.open[a.chat] = append(open[:i:i], open[i+1:]...)
			break
		}
	}
	if len(l.open[a.chat]) == 0 {
		delete(l.open, a.chat)
	}
}

// seen reads a message sent into a group of the load: an ask posted, or
// the bot's answer to one.
func (l *askLog) seen(e telegramtest.Event) {
	m := e.Message
	if e.Kind != telegramtest.EventMessageSent || m == nil {
		return
	}
	chat := e.ChatID
	l.mu.Lock()
	defer l.mu.Unlock()
	if !m.FromBot {
		if m.From == nil {
			return
		}
		for _, a := range l.open[chat] {
			if a.user == m.From.ID && a.at.IsZero() {
				a.msgID, a.ephID, a.at = m.MessageID, m.EphemeralMessageID, e.Time
				if a.ephID != 0 {
					l.byEph[[2]int64{chat, int64(a.ephID)}] = a
				} else {
					l.byMsg[[2]int64{chat, int64(a.msgID)}] = a
				}
				return
			}
		}
		return
	}
	var a *ask
	way := answeredEphemeral
	switch {
	case m.EphemeralMessageID != 0:
		l.ephSeen[chat]++
		if m.ReplyToEphemeralMessageID != 0 {
			a = l.byEph[[2]int64{chat, int64(m.ReplyToEphemeralMessageID)}]
		} else {
			a = l.oldestOpen(chat, func(o *ask) bool { return o.user == m.VisibleTo })
		}
	case m.ReplyToMessage != nil && l.byMsg[[2]int64{chat, int64(m.ReplyToMessage.MessageID)}] != nil:
		l.repliesSeen[chat]++
		a, way = l.byMsg[[2]int64{chat, int64(m.ReplyToMessage.MessageID)}], answeredReply
	case m.ReplyToMessage == nil:
		name, ok := answerOf(m.Text)
		if !ok {
			l.seenDigest(chat, m.Text, e.Time)
			return // a digest, or a table, a record, a nudge: no answer
		}
		way = answeredFallback
		a = l.oldestOpen(chat, func(o *ask) bool { return o.ephemeral && o.name == name })
	default:
		return
	}
	l.place(chat, a, way, e.Time)
}

// place records a as answered in chat at at, the way way: an answer placed
// with no ask when a is nil, twice when a was answered; l.mu is held.
func (l *askLog) place(chat int64, a *ask, way answerWay, at time.Time) {
	switch {
	case a == nil:
		l.unplaced++
	case a.way != unanswered:
		l.twice++
	default:
		a.way, a.answeredAt = way, at
		l.answers = append(l.answers, answerRecord{chat: chat, at: at, way: way})
		if a.measured {
			l.lat.add(at.Sub(a.at))
		}
		l.close(a)
		close(a.done)
	}
}

// oldestOpen returns the chat's oldest posted open ask that ok accepts;
// l.mu is held.
func (l *askLog) oldestOpen(chat int64, ok func(*ask) bool) *ask {
	var best *ask
	for _, a := range l.open[chat] {
		if !a.at.IsZero() && ok(a) && (best == nil || a.at.Before(best.at)) {
			best = a
		}
	}
	return best
}

// answerPrefixes are how the answers to askCommands begin, for each
// player: their name in the answer's first words.
var answerPrefixes = func() map[string][]string {
	keys := []i18n.Key{i18n.Balance, i18n.BonusGranted, i18n.BonusWait, i18n.BonusNotNeeded,
		i18n.BonusNotNeededOnTable, i18n.StatsText, i18n.StatsNone, i18n.HistoryTitle, i18n.HistoryEmpty}
	tag := regexp.MustCompile(`<[^>]*>`)
	out := map[string][]string{}
	for _, name := range playerNames {
		for _, k := range keys {
			args := []any{name}
			for range 12 {
				args = append(args, "\x00")
			}
			// Cut at the first argument after the name, or where the
			// arguments left over begin ("%!(EXTRA").
			s, _, _ := strings.Cut(i18n.T(i18n.EN, k, args...), "\x00")
			s, _, _ = strings.Cut(s, "%!")
			out[name] = append(out[name], html.UnescapeString(tag.ReplaceAllString(s, "")))
		}
	}
	return out
}()

// answerOf reports whether a text is an answer to one of askCommands, and
// whose.
func answerOf(text string) (string, bool) {
	for name, prefixes := range answerPrefixes {
		for _, p := range prefixes {
			if strings.HasPrefix(text, p) {
				return name, true
			}
		}
	}
	return "", false
}

// waiting returns how many asks wait for their answer.
func (l *askLog) waiting() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, open := range l.open {
		n += len(open)
	}
	return n
}

// describeOpen says which asks wait for their answer, at most n of them,
// for a report.
func (l *askLog) describeOpen(n int, start time.Time) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, open := range l.open {
		for _, a := range open {
			if len(out) == n {
				return out
			}
			how := "as a message"
			if a.ephemeral {
				how = "ephemerally"
			}
			out = append(out, fmt.Sprintf("chat %d: %s's /%s %s at %+.1fs", a.chat, a.name, a.command, how, a.at.Sub(start).Seconds()))
		}
	}
	return out
}
