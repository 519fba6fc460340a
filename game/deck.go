package game

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// SaltSize is the length in bytes of the salt of a deck commitment.
const SaltSize = 16

// Commitment is the SHA-256 a table publishes for a deck before drawing from
// it: the hash of the deck's [Deck.Preimage].
type Commitment [sha256.Size]byte

// String returns the commitment in lowercase hex.
func (c Commitment) String() string { return hex.EncodeToString(c[:]) }

// Short returns the first sixteen hex digits and an ellipsis, as in
// "3f2a0b175d0e9c1e…": short enough for one line on a phone, with no place
// for a line to break in, and 64 bits, too many for anyone to find another
// deck whose hash starts the same.
func (c Commitment) Short() string { return c.String()[:16] + "…" }

// Deck is a shuffled deck as it is revealed: its cards in the order they were
// to be drawn, top first, and the salt of its commitment.
type Deck struct {
	Cards []Card
	Salt  [SaltSize]byte
}

// Preimage returns the text the commitment hashes: the card codes
// ([Card.Code]) concatenated top first, a colon, then the salt in lowercase
// hex. For example "Th6sAc…:00ff…".
func (d Deck) Preimage() string {
	return string(appendPreimage(make([]byte, 0, 2*len(d.Cards)+1+2*SaltSize), d.Cards, &d.Salt))
}

// Commitment returns the SHA-256 of the deck's preimage.
func (d Deck) Commitment() Commitment { return commit(d.Cards, &d.Salt) }

// commit returns the SHA-256 of the preimage of cards and salt.
func commit(cards []Card, salt *[SaltSize]byte) Commitment {
	var buf [2*DeckSize + 1 + 2*SaltSize]byte
	if len(cards) > DeckSize {
		return sha256.Sum256(appendPreimage(nil, cards, salt))
	}
	return sha256.Sum256(appendPreimage(buf[:0], cards, salt))
}

func appendPreimage(b []byte, cards []Card, salt *[SaltSize]byte) []byte {
	for _, c := range cards {
		if c.Valid() {
			b = append(b, rankCodes[c.Rank()], suitCodes[c.Suit()])
		} else {
			b = append(b, '?', '?')
		}
	}
	b = append(b, ':')
	return hex.AppendEncode(b, salt[:])
}

// ParseDeck parses a preimage as returned by [Deck.Preimage].
func ParseDeck(preimage string) (Deck, error) {
	order, salt, ok := strings.Cut(strings.TrimSpace(preimage), ":")
	if !ok || len(order)%2 != 0 || len(order) == 0 || len(order) > 2*DeckSize {
		return Deck{}, fmt.Errorf("%w: want card codes, a colon and a hex salt", ErrInvalidInput)
	}
	var d Deck
	var seen [DeckSize + 1]bool
	for i := 0; i < len(order); i += 2 {
		c, err := ParseCard(order[i : i+2])
		if err != nil {
			return Deck{}, err
		}
		if seen[c] {
			return Deck{}, fmt.Errorf("%w: card %s appears twice", ErrInvalidInput, c.Code())
		}
		seen[c] = true
		d.Cards = append(d.Cards, c)
	}
	raw, err := hex.DecodeString(salt)
	if err != nil || len(raw) != SaltSize {
		return Deck{}, fmt.Errorf("%w: salt must be %d hex bytes", ErrInvalidInput, SaltSize)
	}
	copy(d.Salt[:], raw)
	return d, nil
}

// ParseCommitment parses a commitment written in hex, as
// [Commitment.String] writes it.
func ParseCommitment(s string) (Commitment, error) {
	var c Commitment
	raw, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != len(c) {
		return c, fmt.Errorf("%w: commitment must be %d hex bytes", ErrInvalidInput, len(c))
	}
	copy(c[:], raw)
	return c, nil
}

// VerifyDeck checks a revealed deck's preimage against the commitment
// published for it (hex). It returns nil when they match.
func VerifyDeck(preimage, commitment string) error {
	d, err := ParseDeck(preimage)
	if err != nil {
		return err
	}
	want, err := ParseCommitment(commitment)
	if err != nil {
		return err
	}
	got := d.Commitment()
	if got != want {
		return fmt.Errorf("%w: the deck hashes to %s, not %s", ErrCommitmentMismatch, got, strings.ToLower(strings.TrimSpace(commitment)))
	}
	return nil
}

// shoe is the deck being drawn from in a circle, or the deck waiting for
// its cut, held in fixed arrays so that a Table copies without allocating.
type shoe struct {
	order [DeckSize]Card
	n     uint8 // cards in this deck; 0 while it waits for its cut
	drawn uint8 // cards drawn from the top
	// hash is what the deck is committed to: the SHA-256 of its
	// preimage (SchemeSalt), or link k−1 of the chain, the seed's hash
	// (SchemeCut).
	hash Commitment
	// cutScheme: the deck is of SchemeCut, derived from a link of the
	// table's chain and a cut; else of SchemeSalt, shuffled with salt.
	cutScheme bool
	salt      [SaltSize]byte
	// The deck's link of the chain (SchemeCut): its seed, its index and
	// the chain's head.
	seed Seed
	link uint32
	head Seed
	// cutBy is who cut the deck, 0 when nobody did; cut is the cut (a
	// string: a Table copies its header alone, and nobody changes it).
	cutBy UserID
	cut   string
}

// fill makes the shoe a freshly shuffled deck of the given cards, with a new
// salt and commitment (SchemeSalt).
func (s *shoe) fill(cards []Card, r Rand) {
	*s = shoe{}
	// Shuffle a copy: a slice handed to an interface method escapes, and
	// the shoe lives inside the table being built.
	buf := new([DeckSize]Card)
	s.n = uint8(copy(buf[:], cards))
	r.Shuffle(buf[:s.n])
	copy(s.order[:], buf[:s.n])
	for i := 0; i < SaltSize; i += 8 {
		v := r.Uint64()
		for j := 0; j < 8; j++ {
			s.salt[i+j] = byte(v >> (8 * j))
		}
	}
	s.hash = commit(s.order[:s.n], &s.salt)
}

// await makes the shoe a deck of SchemeCut waiting for its cut: its link,
// and the commitment that link's seed gives, but no cards yet.
func (s *shoe) await(l Link) {
	*s = shoe{cutScheme: true, seed: l.Seed, link: l.Index, head: l.Head, hash: Commitment(l.Seed.Hash())}
}

// deck returns the shoe's full order and salt, for the reveal.
func (s *shoe) deck() Deck {
	return Deck{Cards: append([]Card(nil), s.order[:s.n]...), Salt: s.salt}
}

// record returns the deck's verification record, for the reveal: the
// game, circle and deck number place it.
func (s *shoe) record(game uint64, circle, deck uint8) Record {
	if !s.cutScheme {
		return &SaltRecord{Commitment: s.hash, Deck: s.deck()}
	}
	cards := append([]Card(nil), s.order[:s.n]...)
	SortCanonical(cards)
	r := &CutRecord{Head: s.head, Link: s.link, Seed: s.seed, Game: game, Circle: uint32(circle), Deck: uint32(deck),
		Cards: cards, Dealt: append([]Card(nil), s.order[:s.drawn]...)}
	if s.cut != "" {
		r.Cut = []byte(s.cut)
	}
	return r
}

func (s *shoe) empty() bool { return s.drawn >= s.n }

func (s *shoe) draw() Card {
	c := s.order[s.drawn]
	s.drawn++
	return c
}

// fullDeck returns the 36 cards in rank then suit order.
func fullDeck() [DeckSize]Card {
	var d [DeckSize]Card
	for i := range d {
		d[i] = Card(i + 1)
	}
	return d
}
