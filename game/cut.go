package game

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"slices"
)

// The schemes a deck's order is proven by, as their records name them
// (docs/FAIRNESS.md).
const (
	// SchemeCut: the order derived from a server seed, a link of a hash
	// chain whose head was published first, and a player's cut
	// ([DeriveOrder]).
	SchemeCut = "ochko-cut-v1"
	// SchemeSalt: the order shuffled by the bot and committed to by the
	// SHA-256 of its preimage ([Deck.Preimage]); decks of games played
	// before the cut.
	SchemeSalt = "sha256-salt-v0"
)

// MaxCutLen is the longest cut, in bytes, that [DeriveOrder] takes: a longer
// /cut text is refused before it reaches the derivation.
const MaxCutLen = 256

// SeedSize is the length in bytes of a server seed.
const SeedSize = sha256.Size

// Seed is a server seed: one link of a hash chain ([Chain]). The zero Seed is
// a valid value, but no chain made by [NewChain] holds it in practice.
type Seed [SeedSize]byte

// String returns the seed in lowercase hex, 64 digits.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// Short returns the first sixteen hex digits and an ellipsis, as a table
// shows a commitment: "3f2a0b175d0e9c1e…".
func (s Seed) Short() string { return s.String()[:16] + "…" }

// Hash returns SHA-256(s): the link before s in its chain. A deck whose
// seed is link k is committed to by link k−1, this hash, which the table
// shows before the cut is asked for.
func (s Seed) Hash() Seed { return sha256.Sum256(s[:]) }

// ParseSeed parses a seed written as 64 lowercase hex digits, as
// [Seed.String] writes it. Anything else is refused with an error wrapping
// [ErrInvalidInput].
func ParseSeed(s string) (Seed, error) {
	var out Seed
	if !decodeLowerHex(out[:], s) {
		return out, fmt.Errorf("%w: a seed is %d lowercase hex digits, not %q", ErrInvalidInput, 2*SeedSize, s)
	}
	return out, nil
}

// decodeLowerHex decodes s into dst when s is exactly 2*len(dst)
// lowercase hex digits, and reports whether it was.
func decodeLowerHex(dst []byte, s string) bool {
	if len(s) != 2*len(dst) || !lowerHex(s) {
		return false
	}
	_, err := hex.Decode(dst, []byte(s))
	return err == nil
}

// lowerHex reports whether s holds only the digits 0-9 and a-f.
func lowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// SortCanonical sorts cards, in place, into the canonical order the
// derivation starts from: by the card's number (rank*4 + suit + 1), so
// 6s 6h 6d 6c 7s 7h … Ac. A fresh deck is all 36 in this order; a reshuffled
// deck is the cards not in a live hand, sorted so.
func SortCanonical(cards []Card) { slices.Sort(cards) }

// DeriveOrder returns the order of a deck under [SchemeCut], top card
// (dealt first) at index 0, as docs/FAIRNESS.md specifies it byte by byte:
//
//	msg = "ochko-cut-v1" 0x00 u64be(game) u32be(circle) u32be(deck) u32be(len(cut)) cut
//	K   = HMAC-SHA256(key = seed, msg)
//	B_j = HMAC-SHA256(key = K, u64be(j)), j = 0, 1, …: 32-bit big-endian words
//	for i = n−1 down to 1: m = i+1, limit = 2^32 − (2^32 mod m);
//	    take the next word r until r < limit; swap cards[i] and cards[r mod m]
//
// game is the chat's game number, circle the circle within the game (1 for
// the first), deck the deck within the circle (1 for the first, 2 after the
// first reshuffle, …); cut is the cutter's bytes, empty when nobody cut.
// cards are the n cards to shuffle, in the canonical order
// ([SortCanonical]); DeriveOrder does not change them. It fails, with an
// error wrapping [ErrInvalidInput], when cut is longer than [MaxCutLen],
// when cards is empty or holds more than [DeckSize] cards, or when they are
// not valid, distinct and in canonical order. The same inputs always give
// the same order; it is safe for concurrent use.
func DeriveOrder(seed Seed, game uint64, circle, deck uint32, cut []byte, cards []Card) ([]Card, error) {
	if len(cut) > MaxCutLen {
		return nil, fmt.Errorf("%w: a cut is at most %d bytes, this one %d", ErrInvalidInput, MaxCutLen, len(cut))
	}
	if problem := canonicalProblem(cards); problem != "" {
		return nil, fmt.Errorf("%w: %s", ErrInvalidInput, problem)
	}
	order := slices.Clone(cards)
	s := newCutStream(seed, game, circle, deck, cut)
	shuffleWords(order, s.next)
	return order, nil
}

// canonicalProblem says what keeps cards from being 1 to DeckSize valid
// cards, each once, in canonical order; "" when nothing does.
func canonicalProblem(cards []Card) string {
	if len(cards) == 0 || len(cards) > DeckSize {
		return fmt.Sprintf("a deck holds 1 to %d cards, not %d", DeckSize, len(cards))
	}
	for i, c := range cards {
		switch {
		case !c.Valid():
			return fmt.Sprintf("card %d is not a card", i+1)
		case i > 0 && c == cards[i-1]:
			return fmt.Sprintf("card %s appears twice", c.Code())
		case i > 0 && c < cards[i-1]:
			return fmt.Sprintf("the cards are not in canonical order: %s comes after %s", c.Code(), cards[i-1].Code())
		}
	}
	return ""
}

// cutKey returns K = HMAC-SHA256(key = seed, msg) of the derivation.
func cutKey(seed Seed, game uint64, circle, deck uint32, cut []byte) [sha256.Size]byte {
	msg := make([]byte, 0, len(SchemeCut)+1+8+4+4+4+len(cut))
	msg = append(msg, SchemeCut...)
	msg = append(msg, 0)
	msg = binary.BigEndian.AppendUint64(msg, game)
	msg = binary.BigEndian.AppendUint32(msg, circle)
	msg = binary.BigEndian.AppendUint32(msg, deck)
	msg = binary.BigEndian.AppendUint32(msg, uint32(len(cut)))
	msg = append(msg, cut...)
	m := hmac.New(sha256.New, seed[:])
	m.Write(msg)
	var k [sha256.Size]byte
	m.Sum(k[:0])
	return k
}

// cutStream is the derivation's stream of words: the blocks
// B_j = HMAC-SHA256(K, u64be(j)) read as 32-bit big-endian words.
type cutStream struct {
	mac   hash.Hash
	j     uint64
	block [sha256.Size]byte
	pos   int // the next unread byte of block; len(block) when used up
}

func newCutStream(seed Seed, game uint64, circle, deck uint32, cut []byte) *cutStream {
	k := cutKey(seed, game, circle, deck, cut)
	s := &cutStream{mac: hmac.New(sha256.New, k[:])}
	s.pos = len(s.block)
	return s
}

// next returns the stream's next word.
func (s *cutStream) next() uint32 {
	if s.pos == len(s.block) {
		var j [8]byte
		binary.BigEndian.PutUint64(j[:], s.j)
		s.mac.Reset()
		s.mac.Write(j[:])
		s.mac.Sum(s.block[:0])
		s.j++
		s.pos = 0
	}
	w := binary.BigEndian.Uint32(s.block[s.pos:])
	s.pos += 4
	return w
}

// shuffleWords shuffles cards in place by Fisher–Yates, drawing its
// indices from next without modulo bias: a word at or above the largest
// multiple of m below 2^32 is rejected and the next one taken.
func shuffleWords(cards []Card, next func() uint32) {
	for i := len(cards) - 1; i >= 1; i-- {
		m := uint64(i + 1)
		limit := 1<<32 - (1<<32)%m
		r := uint64(next())
		for r >= limit {
			r = uint64(next())
		}
		j := r % m
		cards[i], cards[j] = cards[j], cards[i]
	}
}
