// Package gametest helps tests fix what is random at a table: the order of
// every deck, the first banker and the server seeds of the decks.
package gametest

import (
	"fmt"
	"strings"

	"github.com/twentyone-bot/twentyone/game"
)

// Stacked is a game.Rand and a game.Deriver that deals decks chosen in
// advance. Each Shuffle takes the next of Decks and puts its cards on top
// in the order listed; the cards it does not list follow in the order they
// were in. When Decks runs out, Shuffle leaves the cards as they are. A
// deck of game.SchemeCut is stacked the same (DeriveOrder), whatever its
// seed and cut: pass a Stacked as Env.Deriver (storage.Options.Deriver)
// to fix those decks too; the bot never does. IntN returns Banker modulo
// n, so Banker picks the first banker's seat. Stacked is not safe for
// concurrent use.
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

// DeriveOrder implements game.Deriver: it stacks the next of Decks on
// cards as Shuffle does, ignoring the seed, the deck's place and the cut.
func (s *Stacked) DeriveOrder(_ game.Seed, _ uint64, _, _ uint32, _ []byte, cards []game.Card) ([]game.Card, error) {
	order := append([]game.Card(nil), cards...)
	s.Shuffle(order)
	return order, nil
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

// Links is a game.SeedSource over a chain of its own: link 1, 2, … of
// Chain in turn. Its zero value is no chain; NewLinks makes one. Links is
// not safe for concurrent use.
type Links struct {
	Chain game.Chain
	// Taken is how many links were taken.
	Taken uint32
}

// NewLinks returns Links over a chain of length links whose secret is 32
// bytes of b: a fixed chain, for tests.
func NewLinks(b byte, length uint32) *Links {
	l := &Links{Chain: game.Chain{Length: length}}
	for i := range l.Chain.Secret {
		l.Chain.Secret[i] = b
	}
	return l
}

// NextLink implements game.SeedSource.
func (l *Links) NextLink() (game.Link, error) {
	if l.Taken >= l.Chain.Length {
		return game.Link{}, fmt.Errorf("%w: the test chain of %d links is used up", game.ErrInternal, l.Chain.Length)
	}
	l.Taken++
	seed, err := l.Chain.Link(l.Taken)
	return game.Link{Seed: seed, Index: l.Taken, Head: l.Chain.Head()}, err
}

// PutBack implements game.SeedSource: the link taken last is taken again
// next.
func (l *Links) PutBack(link game.Link) {
	if link.Index == l.Taken && l.Taken > 0 {
		l.Taken--
	}
}

// Link returns link k of the chain: the seed of its k-th deck.
func (l *Links) Link(k uint32) game.Seed {
	s, err := l.Chain.Link(k)
	if err != nil {
		panic(err)
	}
	return s
}
