package game

import "strings"

// MaxHand is the most cards a hand can hold. No hand reaches it in play: a
// hand that is still drawing scores under 21, which bounds it at eight cards.
const MaxHand = 12

// Hand is the cards one player (or the banker) holds in a duel. It is a value:
// copying a Hand copies its cards.
type Hand struct {
	cards [MaxHand]Card
	n     uint8
}

// NewHand returns a hand holding the given cards; cards past [MaxHand] are
// dropped.
func NewHand(cards ...Card) Hand {
	var h Hand
	for _, c := range cards {
		h.add(c)
	}
	return h
}

// add puts a card into the hand and reports whether it fit.
func (h *Hand) add(c Card) bool {
	if int(h.n) >= MaxHand {
		return false
	}
	h.cards[h.n] = c
	h.n++
	return true
}

// Len returns the number of cards in the hand.
func (h Hand) Len() int { return int(h.n) }

// Card returns the i-th card of the hand.
func (h Hand) Card(i int) Card { return h.cards[i] }

// Cards returns a copy of the hand's cards.
func (h Hand) Cards() []Card { return append([]Card(nil), h.cards[:h.n]...) }

// Golden reports whether the hand is Golden 21: exactly two cards, both aces.
func (h Hand) Golden() bool {
	return h.n == 2 && h.cards[0].Rank() == Ace && h.cards[1].Rank() == Ace
}

// FivePictures reports whether the hand is Five pictures: exactly five cards,
// all of them jacks, queens, kings or aces.
func (h Hand) FivePictures() bool {
	if h.n != 5 {
		return false
	}
	for _, c := range h.cards[:h.n] {
		if !c.Rank().Picture() {
			return false
		}
	}
	return true
}

// Score returns the hand's points: 21 for Golden 21 and for Five pictures,
// otherwise the sum of the cards' points.
func (h Hand) Score() int {
	if h.Golden() || h.FivePictures() {
		return 21
	}
	sum := 0
	for _, c := range h.cards[:h.n] {
		sum += c.Points()
	}
	return sum
}

// Bust reports whether the hand scores over 21.
func (h Hand) Bust() bool { return h.Score() > 21 }

// String returns the cards separated by spaces, as in "K♥ 9♦".
func (h Hand) String() string {
	var b strings.Builder
	for i, c := range h.cards[:h.n] {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}
