package game

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
)

// Rand is where a table's randomness comes from: the order of every deck, the
// salt of its fairness commitment and the first banker. Tests pass a stacked
// Rand to fix every deck; the bot passes [CryptoRand].
type Rand interface {
	// Shuffle puts cards into a random order, in place.
	Shuffle(cards []Card)
	// IntN returns a uniform number in [0, n); n > 0.
	IntN(n int) int
	// Uint64 returns 64 random bits.
	Uint64() uint64
}

// NewRand returns a Rand drawing from src. A *rand.Rand is not safe for
// concurrent use, and neither is the Rand returned here.
func NewRand(src rand.Source) Rand { return sourceRand{rand.New(src)} }

// CryptoRand returns a Rand drawing from crypto/rand. It is safe for concurrent
// use.
func CryptoRand() Rand { return sourceRand{rand.New(cryptoSource{})} }

type sourceRand struct{ r *rand.Rand }

func (s sourceRand) Shuffle(cards []Card) {
	s.r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
}

func (s sourceRand) IntN(n int) int { return s.r.IntN(n) }
func (s sourceRand) Uint64() uint64 { return s.r.Uint64() }

// cryptoSource is a rand.Source over crypto/rand.
type cryptoSource struct{}

func (cryptoSource) Uint64() uint64 {
	var b [8]byte
	_, _ = crand.Read(b[:]) // crypto/rand.Read never fails since Go 1.24
	return binary.LittleEndian.Uint64(b[:])
}
