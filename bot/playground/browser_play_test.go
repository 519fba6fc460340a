package playground_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/stretchr/testify/require"
)

// The page's play: a game played to its end by whoever's turn it is,
// the deck cut by the player asked, and the table's lines it reads.

// cutIfAsked, when the table's deck waits for its cut, has the player
// asked tap ✂️ ½ and returns the table dealt; else it returns tb.
func (b *browser) cutIfAsked(ctx context.Context, tb table) table {
	b.t.Helper()
	g := cutRe.FindStringSubmatch(tb.Text)
	if g == nil {
		return tb
	}
	b.as(ctx, g[1])
	return b.pressAndWait(ctx, "✂️ ½", "Deck cut")
}

// move is the move a game waits for.
type move struct {
	player  string // whose turn it is
	betting bool   // a bet; else a hit or a stand
	score   int    // the player's score, when drawing
}

// play plays the table's game to its end in the page: whoever's turn it is
// bets the smallest bet and draws to 16. look, unless nil, sees the table
// before each move. It returns the table of the game over.
func (b *browser) play(ctx context.Context, tb table, look func(tb table, m move)) table {
	b.t.Helper()
	for step := 0; !strings.Contains(tb.Text, "Game over"); step++ {
		require.Less(b.t, step, 80, "the game should be over by now; the table: %s", tb.Text)
		var m move
		if cutRe.MatchString(tb.Text) {
			tb = b.cutIfAsked(ctx, tb)
			continue
		}
		if g := bettingRe.FindStringSubmatch(tb.Text); g != nil {
			m = move{player: g[1], betting: true}
		} else if g := drawingRe.FindStringSubmatch(tb.Text); g != nil {
			m.player = g[1]
			m.score, _ = strconv.Atoi(g[2])
		} else {
			b.t.Fatalf("whose turn is it? The table:\n%s", tb.Text)
		}
		if look != nil {
			look(tb, m)
		}
		b.as(ctx, m.player)
		switch {
		case m.betting:
			tb = b.pressAndWait(ctx, tb.Labels[0], "Bet ")
		case m.score < 16:
			tb = b.pressAndWait(ctx, "Hit 🂠", " · ")
		default:
			tb = b.pressAndWait(ctx, "Stand ✋", "Stand at")
		}
	}
	return tb
}

var (
	cutRe      = regexp.MustCompile(`✂️ (\S+), cut the deck: tap a button`)
	bettingRe  = regexp.MustCompile(`← your bet, (\S+) \(`)
	drawingRe  = regexp.MustCompile(`(?m)^(\S+) — .*?(?:= (\d+) )?← \S+: hit or stand\?`)
	resultRe   = regexp.MustCompile(`(?m)→`)
	seatedRe   = regexp.MustCompile(`(?m)^\d+\. (\S+) — ([\d\x{202F}]+)$`)
	balanceRe  = regexp.MustCompile(`^(\S+), your balance: ([\d\x{202F}]+)[ \x{00A0}]chips?\.$`)
	notDigitRe = regexp.MustCompile(`\D`)
)
