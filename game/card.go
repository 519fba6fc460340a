package game

import "fmt"

// Suit is one of the four suits of the deck.
type Suit uint8

// The four suits, in the order a fresh deck holds them.
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
)

// NumSuits is the number of suits in the deck.
const NumSuits = 4

var suitSymbols = [NumSuits]string{"♠", "♥", "♦", "♣"}
var suitCodes = [NumSuits]byte{'s', 'h', 'd', 'c'}

// Symbol returns the suit's symbol: ♠ ♥ ♦ ♣.
func (s Suit) Symbol() string {
	if s >= NumSuits {
		return "?"
	}
	return suitSymbols[s]
}

// Rank is the rank of a card, from six to ace.
type Rank uint8

// The nine ranks of the 36-card deck, lowest first.
const (
	Six Rank = iota
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

// NumRanks is the number of ranks in the deck.
const NumRanks = 9

var rankPoints = [NumRanks]int{6, 7, 8, 9, 10, 2, 3, 4, 11}
var rankCodes = [NumRanks]byte{'6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'}

// Points returns the points the rank scores: 6–10 face value, J 2, Q 3, K 4, A 11.
func (r Rank) Points() int {
	if r >= NumRanks {
		return 0
	}
	return rankPoints[r]
}

// Picture reports whether the rank is a picture for the Five pictures
// combination: jack, queen, king or ace.
func (r Rank) Picture() bool { return r >= Jack && r < NumRanks }

// Card is one card of the deck. The zero Card is no card; valid cards are
// built with [NewCard].
type Card uint8

// DeckSize is the number of cards in a deck.
const DeckSize = NumRanks * NumSuits

// NewCard returns the card of the given rank and suit.
func NewCard(r Rank, s Suit) Card { return Card(uint8(r)*NumSuits + uint8(s) + 1) }

// Valid reports whether c is one of the 36 cards.
func (c Card) Valid() bool { return c >= 1 && c <= DeckSize }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank((c - 1) / NumSuits) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit((c - 1) % NumSuits) }

// Points returns the points the card scores.
func (c Card) Points() int { return c.Rank().Points() }

// Code returns the card's two-letter ASCII code: rank (6 7 8 9 T J Q K A) then
// suit (s h d c), as in "Th" for the ten of hearts. The fairness commitment is
// computed over these codes.
func (c Card) Code() string {
	if !c.Valid() {
		return "??"
	}
	return string([]byte{rankCodes[c.Rank()], suitCodes[c.Suit()]})
}

// String returns the card in the English notation with its suit symbol, as in
// "10♥" or "Q♠".
func (c Card) String() string {
	if !c.Valid() {
		return "?"
	}
	r := c.Rank()
	var rank string
	switch r {
	case Ten:
		rank = "10"
	default:
		rank = string(rankCodes[r])
	}
	return rank + c.Suit().Symbol()
}

// ParseCard parses a card code as returned by [Card.Code]. It accepts both
// cases and "10" for the ten.
func ParseCard(s string) (Card, error) {
	if len(s) == 3 && s[:2] == "10" {
		s = "T" + s[2:]
	}
	if len(s) != 2 {
		return 0, fmt.Errorf("%w: card %q", ErrInvalidInput, s)
	}
	r, ok := indexByte(rankCodes[:], upper(s[0]))
	if !ok {
		return 0, fmt.Errorf("%w: card %q", ErrInvalidInput, s)
	}
	su, ok := indexByte(suitCodes[:], lower(s[1]))
	if !ok {
		return 0, fmt.Errorf("%w: card %q", ErrInvalidInput, s)
	}
	return NewCard(Rank(r), Suit(su)), nil
}

func indexByte(set []byte, b byte) (int, bool) {
	for i, x := range set {
		if x == b {
			return i, true
		}
	}
	return 0, false
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b - 'A' + 'a'
	}
	return b
}
