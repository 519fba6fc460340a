package game

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrDealtMismatch: the cards a record says were dealt are not the top of
// the order its inputs give.
var ErrDealtMismatch = errors.New("the cards dealt are not the deck's order")

// Record is the verification record of one deck: what a stranger needs to
// recompute the deck and check it, written as one line of text (String)
// that [ParseRecord] reads back. It is a [*CutRecord] (scheme
// [SchemeCut]) or a [*SaltRecord] (scheme [SchemeSalt], decks of games
// played before the cut); no other type implements it.
type Record interface {
	// Scheme returns the record's scheme: SchemeCut or SchemeSalt.
	Scheme() string
	// String returns the record's line, the form ParseRecord reads.
	String() string
	// Verify checks the record and returns the deck's order, top card
	// first, whenever it can be computed (also when a check fails). The
	// error is nil when every check passes; otherwise it says what differs
	// and wraps ErrCommitmentMismatch (the deck or its seed does not match
	// what was committed), ErrDealtMismatch (the cards dealt are not the
	// order) or ErrInvalidInput (the record cannot describe a deck).
	Verify() ([]Card, error)

	record()
}

// CutRecord is the record of a deck of [SchemeCut]:
//
//	ochko-cut-v1 head=<64 hex> link=<k> seed=<64 hex> game=<g> circle=<c> deck=<d> cut=<hex, or -> cards=<codes> dealt=<codes, or ->
//
// Hex is lowercase, numbers decimal without leading zeros, card codes as
// [Card.Code] writes them with no space between them.
type CutRecord struct {
	// Head is S_0, the head of the chain the chat was shown.
	Head Seed
	// Link is k, the index of Seed in the chain (1 for its first deck).
	Link uint32
	// Seed is S_k, the deck's server seed.
	Seed Seed
	// Game, Circle and Deck place the deck: the chat's game number, the
	// circle within the game, the deck within the circle; each from 1.
	Game   uint64
	Circle uint32
	Deck   uint32
	// Cut is the cutter's bytes; empty when nobody cut (the record then
	// says "-").
	Cut []byte
	// Cards are the cards shuffled, in canonical order ([SortCanonical]).
	Cards []Card
	// Dealt are the cards dealt from the deck, in the order dealt.
	Dealt []Card
}

// Scheme returns [SchemeCut].
func (r *CutRecord) Scheme() string { return SchemeCut }

func (*CutRecord) record() {}

// String returns the record's line.
func (r *CutRecord) String() string {
	cut := "-"
	if len(r.Cut) > 0 {
		cut = hex.EncodeToString(r.Cut)
	}
	return fmt.Sprintf("%s head=%s link=%d seed=%s game=%d circle=%d deck=%d cut=%s cards=%s dealt=%s",
		SchemeCut, r.Head, r.Link, r.Seed, r.Game, r.Circle, r.Deck, cut, codes(r.Cards, ""), codes(r.Dealt, "-"))
}

// Verify checks that SHA-256 applied Link times to Seed gives Head
// ([VerifyLink]), derives the order from the seed, the deck's place, the
// cut and the cards ([DeriveOrder]), and checks that Dealt is the top of
// that order, card by card; the error names the first card that differs
// and where. When both checks fail, the error holds both.
func (r *CutRecord) Verify() ([]Card, error) {
	linkErr := VerifyLink(r.Seed, r.Link, r.Head)
	order, err := DeriveOrder(r.Seed, r.Game, r.Circle, r.Deck, r.Cut, r.Cards)
	if err != nil {
		return nil, errors.Join(linkErr, err)
	}
	return order, errors.Join(linkErr, dealtFrom(r.Dealt, order))
}

// dealtFrom checks that dealt is the top of order.
func dealtFrom(dealt, order []Card) error {
	for i, c := range dealt {
		if i >= len(order) {
			return fmt.Errorf("%w: %d cards dealt from a deck of %d", ErrDealtMismatch, len(dealt), len(order))
		}
		if c != order[i] {
			return fmt.Errorf("%w: card %d dealt was %s, but the derived order has %s there", ErrDealtMismatch, i+1, c.Code(), order[i].Code())
		}
	}
	return nil
}

// SaltRecord is the record of a deck of [SchemeSalt], a deck of a game
// played before the cut:
//
//	sha256-salt-v0 commitment=<64 hex> preimage=<codes>:<32 hex salt>
//
// The commitment is the hash the table showed; the preimage is the deck's
// [Deck.Preimage]. The cards dealt are checked against the game's log by
// hand (docs/FAIRNESS.md).
type SaltRecord struct {
	Commitment Commitment
	Deck       Deck
}

// Scheme returns [SchemeSalt].
func (r *SaltRecord) Scheme() string { return SchemeSalt }

func (*SaltRecord) record() {}

// String returns the record's line.
func (r *SaltRecord) String() string {
	return fmt.Sprintf("%s commitment=%s preimage=%s", SchemeSalt, r.Commitment, r.Deck.Preimage())
}

// Verify checks that the deck's preimage hashes to the commitment, as
// [VerifyDeck] does, and returns the deck's cards, top first.
func (r *SaltRecord) Verify() ([]Card, error) {
	order := append([]Card(nil), r.Deck.Cards...)
	if got := r.Deck.Commitment(); got != r.Commitment {
		return order, fmt.Errorf("%w: the preimage hashes to %s, not %s", ErrCommitmentMismatch, got, r.Commitment)
	}
	return order, nil
}

// maxRecordLen bounds a record's text: the longest record of SchemeCut is
// under 1,000 bytes.
const maxRecordLen = 2048

var cutFields = []string{"head", "link", "seed", "game", "circle", "deck", "cut", "cards", "dealt"}

// ParseRecord parses a record's line, as a Record's String writes it: the
// scheme, then every field of that scheme, in order, each once, separated
// by spaces (spaces, tabs and line breaks around and between fields are
// ignored). It is strict: a missing, unknown or repeated field, hex of the
// wrong length or case, a number out of range or with a leading zero, an
// unknown card code, a card twice, cards out of canonical order, a cut
// longer than [MaxCutLen], or more cards dealt than shuffled is refused
// with an error wrapping [ErrInvalidInput] that names the field. It does
// not check the record: [Record.Verify] does.
func ParseRecord(s string) (Record, error) {
	if len(s) > maxRecordLen {
		return nil, recordErr("longer than %d bytes", maxRecordLen)
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return nil, recordErr("empty")
	}
	switch f[0] {
	case SchemeCut:
		return parseCutRecord(f[1:])
	case SchemeSalt:
		return parseSaltRecord(f[1:])
	}
	return nil, recordErr("unknown scheme %q: want %s or %s", f[0], SchemeCut, SchemeSalt)
}

func recordErr(format string, args ...any) error {
	return fmt.Errorf("%w: record: %s", ErrInvalidInput, fmt.Sprintf(format, args...))
}

// fieldValues returns the values of fields, which must be exactly names,
// in order, each as name=value.
func fieldValues(fields, names []string) ([]string, error) {
	vals := make([]string, len(names))
	for i, name := range names {
		if i >= len(fields) {
			return nil, recordErr("field %s= missing", name)
		}
		v, ok := strings.CutPrefix(fields[i], name+"=")
		if !ok {
			return nil, recordErr("field %d is %q, want %s=", i+1, fields[i], name)
		}
		vals[i] = v
	}
	if len(fields) > len(names) {
		return nil, recordErr("unexpected %q after %s=", fields[len(names)], names[len(names)-1])
	}
	return vals, nil
}

func parseCutRecord(fields []string) (Record, error) {
	v, err := fieldValues(fields, cutFields)
	if err != nil {
		return nil, err
	}
	var r CutRecord
	if !decodeLowerHex(r.Head[:], v[0]) {
		return nil, recordErr("head: want %d lowercase hex digits, not %q", 2*SeedSize, v[0])
	}
	link, err := parseNumber("link", v[1], ChainLength)
	if err != nil {
		return nil, err
	}
	if !decodeLowerHex(r.Seed[:], v[2]) {
		return nil, recordErr("seed: want %d lowercase hex digits, not %q", 2*SeedSize, v[2])
	}
	if r.Game, err = parseNumber("game", v[3], 1<<64-1); err != nil {
		return nil, err
	}
	circle, err := parseNumber("circle", v[4], 1<<32-1)
	if err != nil {
		return nil, err
	}
	deck, err := parseNumber("deck", v[5], 1<<32-1)
	if err != nil {
		return nil, err
	}
	r.Link, r.Circle, r.Deck = uint32(link), uint32(circle), uint32(deck)
	if v[6] != "-" {
		if len(v[6]) == 0 || len(v[6])%2 != 0 || len(v[6]) > 2*MaxCutLen || !lowerHex(v[6]) {
			return nil, recordErr("cut: want - or 2 to %d lowercase hex digits, an even number, not %q", 2*MaxCutLen, v[6])
		}
		r.Cut, _ = hex.DecodeString(v[6])
	}
	if r.Cards, err = parseCodes("cards", v[7]); err != nil {
		return nil, err
	}
	if problem := canonicalProblem(r.Cards); problem != "" {
		return nil, recordErr("cards: %s", problem)
	}
	if v[8] != "-" {
		if r.Dealt, err = parseCodes("dealt", v[8]); err != nil {
			return nil, err
		}
	}
	if len(r.Dealt) > len(r.Cards) {
		return nil, recordErr("dealt: %d cards dealt from a deck of %d", len(r.Dealt), len(r.Cards))
	}
	return &r, nil
}

func parseSaltRecord(fields []string) (Record, error) {
	v, err := fieldValues(fields, []string{"commitment", "preimage"})
	if err != nil {
		return nil, err
	}
	var r SaltRecord
	if !decodeLowerHex(r.Commitment[:], v[0]) {
		return nil, recordErr("commitment: want %d lowercase hex digits, not %q", 2*len(r.Commitment), v[0])
	}
	if r.Deck, err = ParseDeck(v[1]); err != nil {
		return nil, fmt.Errorf("record: preimage: %w", err)
	}
	if pre := r.Deck.Preimage(); pre != v[1] {
		return nil, recordErr("preimage: not as the bot writes it (%s)", pre)
	}
	return &r, nil
}

// parseNumber parses a decimal from 1 to max, written without sign or
// leading zeros.
func parseNumber(name, s string, max uint64) (uint64, error) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n < 1 || n > max || strconv.FormatUint(n, 10) != s {
		return 0, recordErr("%s: want a number from 1 to %d, not %q", name, max, s)
	}
	return n, nil
}

// parseCodes parses card codes written as [Card.Code] writes them, with
// nothing between them: 1 to 36 cards, each once.
func parseCodes(name, s string) ([]Card, error) {
	if len(s) == 0 || len(s)%2 != 0 || len(s) > 2*DeckSize {
		return nil, recordErr("%s: want 1 to %d two-letter card codes, not %q", name, DeckSize, s)
	}
	cards := make([]Card, 0, len(s)/2)
	var seen [DeckSize + 1]bool
	for i := 0; i < len(s); i += 2 {
		c, ok := cardOfCode(s[i], s[i+1])
		if !ok {
			return nil, recordErr("%s: card %d, %q, is not a card code", name, i/2+1, s[i:i+2])
		}
		if seen[c] {
			return nil, recordErr("%s: card %s appears twice", name, c.Code())
		}
		seen[c] = true
		cards = append(cards, c)
	}
	return cards, nil
}

// cardOfCode returns the card whose code is exactly rank then suit.
func cardOfCode(rank, suit byte) (Card, bool) {
	r, ok := indexByte(rankCodes[:], rank)
	if !ok {
		return 0, false
	}
	s, ok := indexByte(suitCodes[:], suit)
	if !ok {
		return 0, false
	}
	return NewCard(Rank(r), Suit(s)), true
}

// codes returns the cards' codes with nothing between them, or empty when
// there are none.
func codes(cards []Card, empty string) string {
	if len(cards) == 0 {
		return empty
	}
	var b strings.Builder
	for _, c := range cards {
		b.WriteString(c.Code())
	}
	return b.String()
}
