package game

import "time"

// ExhaustDeck moves all but keep of the undrawn cards of the deck in play to
// the discard pile, as if they had been drawn and their duels played. A deck
// of 36 cards cannot run out in a circle of three duels (the most points the
// hands of a circle can hold is far below the deck's 240), so the tests of
// the reshuffle start from here.
func ExhaustDeck(t *Table, keep int) {
	s := &t.shoe
	for int(s.n-s.drawn) > keep {
		t.discard[t.ndiscard] = s.draw()
		t.ndiscard++
	}
}

// DeckLeft returns the undrawn cards of the deck in play, top first.
func DeckLeft(t *Table) []Card { return append([]Card(nil), t.shoe.order[t.shoe.drawn:t.shoe.n]...) }

// Discards returns the discard pile.
func Discards(t *Table) []Card { return append([]Card(nil), t.discard[:t.ndiscard]...) }

// SetCutWaitLength sets the length of the cut wait of a table waiting for
// its cut, for the tests of the encoding's checks.
func SetCutWaitLength(t *Table, d time.Duration) { t.wait.length = d }
