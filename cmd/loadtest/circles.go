package main

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/i18n"
)

// circleMark begins a table message's first line in a game, before the
// circle's number (i18n.TableTitleGame).
var circleMark = strings.Split(i18n.T(i18n.EN, i18n.TableTitleGame, "\x00", ""), "\x00")[0]

// circleOf returns the circle a table message in a game shows, 0 when it
// shows none.
func circleOf(text string) int {
	first, _, _ := strings.Cut(text, "\n")
	rest, ok := strings.CutPrefix(first, circleMark)
	if !ok {
		return 0
	}
	digits, _, _ := strings.Cut(rest, " ")
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0
	}
	return n
}

// circleLog keeps, per group, when a new circle was first shown, when a
// deck waiting for its cut was first shown, and the writes that showed one
// waiting: what a group sees of the cut (issue 35, point 6: at most one
// extra edit of the table a circle).
type circleLog struct {
	mu     sync.Mutex
	byChat map[int64]*circleSeen
}

// circleSeen is one group's.
type circleSeen struct {
	circle                      int  // the circle its newest table message shows, 0 outside a game
	cutting                     bool // its newest table message shows a deck waiting for its cut
	circles, prompts, cutWrites []time.Time
	// gameWrites are the writes that showed a game in play (a circle's:
	// its cut, bets, draws, the house's moves), not a lobby or a closed
	// table.
	gameWrites []time.Time
	// byPhase are the game writes by the phase they showed.
	byPhase map[phase][]time.Time
	// version is the newest table version a write showed (0 before one);
	// steps are, per game write that said its version, how many versions
	// it moved the table on from the one shown before: the game's own
	// states, whether or not each was shown.
	version uint64
	steps   []step
}

// step is a write's move over the table's versions.
type step struct {
	at time.Time
	n  uint64
}

func newCircleLog() *circleLog { return &circleLog{byChat: map[int64]*circleSeen{}} }

// saw records a table message of a group, in the stream's order: its
// phase and text; wrote is whether it was a write of the bot's (a send or
// an edit).
func (l *circleLog) saw(chat int64, at time.Time, p phase, version uint64, text string, wrote bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.byChat[chat]
	if s == nil {
		s = &circleSeen{}
		l.byChat[chat] = s
	}
	if n := circleOf(text); n != 0 && n != s.circle {
		s.circles = append(s.circles, at)
		s.circle = n
	} else if n == 0 && p != phaseHouse {
		s.circle = 0
	}
	cutting := p == phaseCutting
	if cutting && !s.cutting {
		s.prompts = append(s.prompts, at)
	}
	if cutting && wrote {
		s.cutWrites = append(s.cutWrites, at)
	}
	if wrote && (p == phaseCutting || p == phaseBetting || p == phaseDrawing || p == phaseHouse) {
		s.gameWrites = append(s.gameWrites, at)
		if s.byPhase == nil {
			s.byPhase = map[phase][]time.Time{}
		}
		s.byPhase[p] = append(s.byPhase[p], at)
		if version > s.version && s.version != 0 {
			s.steps = append(s.steps, step{at, version - s.version})
		}
	}
	switch {
	case p == phaseLobby || p == phaseClosed:
		s.version = version // a table's first or last: the next game's versions start from it
	case version > s.version:
		s.version = version
	}
	s.cutting = cutting
}

// CircleResult is what the groups saw of circles and cuts over the
// measured part, beside their writes and games.
type CircleResult struct {
	Writes, Games, Circles int
	// GameWrites counts the writes that showed a game in play: a
	// circle's, without the lobbies', the records' and the new tables'.
	GameWrites int
	// Prompts counts the decks shown waiting for their cut, CutWrites the
	// writes that showed one waiting.
	Prompts, CutWrites int
	// ByPhase splits GameWrites by the phase each showed.
	ByPhase map[phase]int
	// Versions counts the table versions the game writes moved on over:
	// the game's own states, each shown or merged into a later write.
	Versions uint64
}

// figures counts the measured part [start, end) of the groups in chats,
// whose writes and ended games the paced log holds.
func (l *circleLog) figures(paced *pacedLog, chats []int64, start, end time.Time) *CircleResult {
	in := func(t time.Time) bool { return !t.Before(start) && t.Before(end) }
	r := &CircleResult{ByPhase: map[phase]int{}}
	l.mu.Lock()
	for _, id := range chats {
		if s := l.byChat[id]; s != nil {
			for p, at := range s.byPhase {
				r.ByPhase[p] += countUnsorted(at, in)
			}
			for _, st := range s.steps {
				if in(st.at) {
					r.Versions += st.n
				}
			}
			r.Circles += countUnsorted(s.circles, in)
			r.Prompts += countUnsorted(s.prompts, in)
			r.CutWrites += countUnsorted(s.cutWrites, in)
			r.GameWrites += countUnsorted(s.gameWrites, in)
		}
	}
	l.mu.Unlock()
	paced.mu.Lock()
	for _, id := range chats {
		r.Writes += countUnsorted(paced.writes[id], in)
		r.Games += countUnsorted(paced.finishes[id], in)
	}
	paced.mu.Unlock()
	return r
}

// print writes the figures.
func (r *CircleResult) print(p func(string, ...any)) {
	per := func(n, d int) float64 {
		if d == 0 {
			return 0
		}
		return float64(n) / float64(d)
	}
	p("circles:    %d writes into the groups, %d games ended, %d circles begun: %.2f writes a game, %.2f a circle, %.2f circles a game",
		r.Writes, r.Games, r.Circles, per(r.Writes, r.Games), per(r.Writes, r.Circles), per(r.Circles, r.Games))
	p("            %d of the writes showed a game in play: %.2f a circle (the lobbies', records' and new tables' left out)",
		r.GameWrites, per(r.GameWrites, r.Circles))
	p("            by phase, a circle: cutting %.2f, betting %.2f, drawing %.2f, house %.2f; the game's versions %.2f a circle, %.2f a write that said its version",
		per(r.ByPhase[phaseCutting], r.Circles), per(r.ByPhase[phaseBetting], r.Circles), per(r.ByPhase[phaseDrawing], r.Circles), per(r.ByPhase[phaseHouse], r.Circles),
		per(int(r.Versions), r.Circles), per(int(r.Versions), r.GameWrites-r.ByPhase[phaseHouse]))
	p("cuts:       %d decks shown waiting for their cut (%.2f a circle), in %d writes (%.2f a deck)",
		r.Prompts, per(r.Prompts, r.Circles), r.CutWrites, per(r.CutWrites, r.Prompts))
}
