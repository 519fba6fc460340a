package table

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestTurnShownTransitions: each event of the turn-shown state machine
// moves it as its doc says, from every state it can meet it in.
func TestTurnShownTransitions(t *testing.T) {
	at := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	turn := turnClock{started: at}
	other := turnClock{started: at.Add(-time.Minute)}
	cut := turnClock{started: at, cut: true} // the cut wait that started with the turn
	tests := []struct {
		name  string
		from  turnShown
		event func(s *turnShown) any // what the event returned, if anything
		want  turnShown
		said  any
	}{
		{"queue from idle", turnShown{}, func(s *turnShown) any { return s.queue() },
			turnShown{queued: true}, false},
		{"queue while one waits", turnShown{queued: true}, func(s *turnShown) any { return s.queue() },
			turnShown{queued: true}, true},
		{"queue while one decides", turnShown{deciding: true}, func(s *turnShown) any { return s.queue() },
			turnShown{queued: true, deciding: true}, false},
		{"unqueue the only render", turnShown{queued: true}, func(s *turnShown) any { s.unqueue(false); return nil },
			turnShown{}, nil},
		{"unqueue a render that replaced one waiting", turnShown{queued: true}, func(s *turnShown) any { s.unqueue(true); return nil },
			turnShown{queued: true}, nil},
		{"begin", turnShown{queued: true, out: true, turn: turn}, func(s *turnShown) any { s.begin(); return nil },
			turnShown{deciding: true, out: true, turn: turn}, nil},
		{"decide with nothing held", turnShown{deciding: true}, func(s *turnShown) any { return s.decide() },
			turnShown{}, false},
		{"decide with a timer held", turnShown{deciding: true, held: true}, func(s *turnShown) any { return s.decide() },
			turnShown{}, true},
		{"decide keeps a newer render queued", turnShown{queued: true, deciding: true, held: true}, func(s *turnShown) any { return s.decide() },
			turnShown{queued: true}, true},
		{"retry", turnShown{}, func(s *turnShown) any { s.retry(); return nil },
			turnShown{queued: true}, nil},
		{"went out with a turn", turnShown{}, func(s *turnShown) any { s.wentOut(turn); return nil },
			turnShown{out: true, turn: turn}, nil},
		{"went out with a cut wait", turnShown{}, func(s *turnShown) any { s.wentOut(cut); return nil },
			turnShown{out: true, turn: cut}, nil},
		{"went out with no turn", turnShown{out: true, turn: turn}, func(s *turnShown) any { s.wentOut(turnClock{}); return nil },
			turnShown{out: true}, nil},
		{"hold: queued, not shown", turnShown{queued: true}, func(s *turnShown) any { return s.hold(turn, false) },
			turnShown{queued: true, held: true}, true},
		{"hold: deciding, not shown", turnShown{deciding: true}, func(s *turnShown) any { return s.hold(turn, false) },
			turnShown{deciding: true, held: true}, true},
		{"no hold: shown", turnShown{queued: true}, func(s *turnShown) any { return s.hold(turn, true) },
			turnShown{queued: true}, false},
		{"no hold: no render on its way", turnShown{out: true, turn: other}, func(s *turnShown) any { return s.hold(turn, false) },
			turnShown{out: true, turn: other}, false},
		{"no hold: no turn", turnShown{queued: true}, func(s *turnShown) any { return s.hold(turnClock{}, false) },
			turnShown{queued: true}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.from
			said := tc.event(&s)
			assert.Equal(t, tc.want, s)
			assert.Equal(t, tc.said, said)
		})
	}
}

// TestTurnShownQueries: what the state machine answers in each state.
func TestTurnShownQueries(t *testing.T) {
	at := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	turn := turnClock{started: at}
	tests := []struct {
		name                string
		s                   turnShown
		rendering, finished bool
		shows, known        bool // of turn
	}{
		{"idle, nothing out", turnShown{}, false, true, false, false},
		{"queued", turnShown{queued: true}, true, false, false, false},
		{"deciding", turnShown{deciding: true}, true, true, false, false},
		{"out, showing the turn", turnShown{out: true, turn: turn}, false, true, true, true},
		{"out, showing another turn", turnShown{out: true, turn: turnClock{started: at.Add(time.Second)}}, false, true, false, true},
		{"out, showing the cut wait that started with the turn", turnShown{out: true, turn: turnClock{started: at, cut: true}},
			false, true, false, true},
		{"out, showing the turn, its start in another zone", turnShown{out: true, turn: turnClock{started: at.Local()}},
			false, true, true, true},
		{"out, showing no turn", turnShown{out: true}, false, true, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.rendering, tc.s.rendering(), "rendering")
			assert.Equal(t, tc.finished, tc.s.finished(), "finished")
			shows, known := tc.s.shows(turn)
			assert.Equal(t, tc.shows, shows, "shows")
			assert.Equal(t, tc.known, known, "known")
		})
	}
}
