// Package gametest helps tests fix what is random at a table: the order of
// every deck and the first banker.
package gametest

import (
	"strings"

	"github.com/twentyone-bot/twentyone/game"
)

// Stacked is a game.Rand that deals decks chosen in advance. Each Shuffle
// takes the next of Decks and puts its cards on top in the order listed; the
// cards it does not list follow in the order they were in. When Decks runs
// out, Shuffle leaves the cards as they are. IntN returns Banker modulo n,
// so Banker picks the first banker's seat. Stacked is not safe for concurrent
// use.
type Stacked struct {
	Decks  [][]game.Card
	Banker int
	next   int
	bits   uint64
}

// Shuffle implements game.Rand.
func (s *Stacked) Shuffle(cards []game.Card) {
	if s.next >= len(s.Decks) {
		return
	}
	top := s.Decks[s.next]
	s.next++
	out := make([]game.Card, 0, len(cards))
	used := make(map[game.Card]bool, len(top))
	for _, c := range top {
		for _, x := range cards {
			if x == c && !used[c] {
				out = append(out, c)
				used[c] = true
			}
		}
	}
	for _, c := range cards {
		if !used[c] {
			out = append(out, c)
		}
	}
	copy(cards, out)
}

// IntN implements game.Rand.
func (s *Stacked) IntN(n int) int { return s.Banker % n }

// Uint64 implements game.Rand with a counter, so salts differ but are fixed.
func (s *Stacked) Uint64() uint64 {
	s.bits++
	return s.bits * 0x9E3779B97F4A7C15
}

// Shuffles returns how many decks Shuffle has dealt from Decks.
func (s *Stacked) Shuffles() int { return s.next }

// Cards parses card codes separated by spaces, as in "Th 9d As" or "10h Qs";
// it panics on a bad code, for use in test tables.
func Cards(codes string) []game.Card {
	var cs []game.Card
	for _, f := range strings.Fields(codes) {
		c, err := game.ParseCard(f)
		if err != nil {
			panic(err)
		}
		cs = append(cs, c)
	}
	return cs
}

// Deck is Stacked with one deck, from card codes: the first banker is seat 0.
func Deck(codes ...string) *Stacked {
	s := &Stacked{}
	for _, c := range codes {
		s.Decks = append(s.Decks, Cards(c))
	}
	return s
}
