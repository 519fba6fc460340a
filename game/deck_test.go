package game_test

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

func TestDeckPreimageAndCommitment(t *testing.T) {
	d := game.Deck{Cards: gametest.Cards("Th 6s Ac")}
	for i := range d.Salt {
		d.Salt[i] = byte(0xf0 + i)
	}
	pre := d.Preimage()
	assert.Equal(t, "Th6sAc:f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", pre)
	sum := sha256.Sum256([]byte(pre))
	assert.Equal(t, game.Commitment(sum), d.Commitment())
	assert.Equal(t, hex.EncodeToString(sum[:]), d.Commitment().String())

	got, err := game.ParseDeck(pre)
	require.NoError(t, err)
	assert.Equal(t, d, got)
	require.NoError(t, game.VerifyDeck(pre, d.Commitment().String()))

	// A deck of more cards than one deck still hashes (the reveal of a
	// malformed deck), and so does an invalid card.
	big := game.Deck{Cards: slices.Repeat(gametest.Cards("6s"), 40)}
	assert.Equal(t, game.Commitment(sha256.Sum256([]byte(big.Preimage()))), big.Commitment())
	odd := game.Deck{Cards: []game.Card{0, 1}}
	assert.True(t, strings.HasPrefix(odd.Preimage(), "??6s:"))
	assert.Equal(t, game.Commitment(sha256.Sum256([]byte(odd.Preimage()))), odd.Commitment())
}

func TestParseDeckRejects(t *testing.T) {
	salt := strings.Repeat("ab", game.SaltSize)
	for name, in := range map[string]string{
		"empty":              "",
		"no colon":           "Th6s" + salt,
		"no cards":           ":" + salt,
		"odd length":         "Th6:" + salt,
		"a bad card":         "Th5s:" + salt,
		"a card twice":       "Th6sTh:" + salt,
		"too many cards":     strings.Repeat("Th", game.DeckSize+1) + ":" + salt,
		"short salt":         "Th:" + salt[2:],
		"long salt":          "Th:" + salt + "00",
		"bad hex salt":       "Th:" + strings.Repeat("zz", game.SaltSize),
		"two colons":         "Th:" + salt + ":",
		"ten written as 10s": "10s6h:" + salt,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := game.ParseDeck(in)
			assert.ErrorIs(t, err, game.ErrInvalidInput)
		})
	}
}

func TestVerifyDeck(t *testing.T) {
	d := game.Deck{Cards: gametest.Cards("Th 6s Ac 9d")}
	d.Salt[3] = 7
	pre, c := d.Preimage(), d.Commitment().String()
	require.NoError(t, game.VerifyDeck(pre, c))
	assert.NoError(t, game.VerifyDeck(" "+pre+" \n", strings.ToUpper(c)), "spaces and case do not matter")
	lower := strings.ToLower(pre[:8]) + pre[8:]
	assert.NoError(t, game.VerifyDeck(lower, c), "card codes in either case")

	assert.ErrorIs(t, game.VerifyDeck(pre, strings.Repeat("0", 64)), game.ErrCommitmentMismatch)
	assert.ErrorIs(t, game.VerifyDeck(strings.Replace(pre, "9d", "9h", 1), c), game.ErrCommitmentMismatch)
	assert.ErrorIs(t, game.VerifyDeck(pre, c[:62]), game.ErrInvalidInput)
	assert.ErrorIs(t, game.VerifyDeck(pre, "xyz"), game.ErrInvalidInput)
	assert.ErrorIs(t, game.VerifyDeck("nonsense", c), game.ErrInvalidInput)
	err := game.VerifyDeck(pre, strings.Repeat("0", 64))
	assert.Contains(t, err.Error(), d.Commitment().String())
}

func TestRands(t *testing.T) {
	deck := func(r game.Rand) []game.Card {
		cs := make([]game.Card, game.DeckSize)
		for i := range cs {
			cs[i] = game.Card(i + 1)
		}
		r.Shuffle(cs)
		return cs
	}
	sorted := func(cs []game.Card) []game.Card { c := slices.Clone(cs); slices.Sort(c); return c }
	a, b := deck(game.NewRand(rand.NewPCG(1, 2))), deck(game.NewRand(rand.NewPCG(1, 2)))
	assert.Equal(t, a, b, "a seeded Rand is repeatable")
	full := deck(game.NewRand(rand.NewPCG(9, 9)))
	slices.Sort(full)
	assert.Equal(t, full, sorted(a), "a shuffle is a permutation")

	cr := game.CryptoRand()
	c1, c2 := deck(cr), deck(cr)
	assert.Equal(t, full, sorted(c1))
	assert.NotEqual(t, c1, c2)
	assert.NotEqual(t, cr.Uint64(), cr.Uint64())
	for i := 0; i < 100; i++ {
		n := cr.IntN(4)
		assert.True(t, n >= 0 && n < 4)
	}
}

func TestStacked(t *testing.T) {
	s := gametest.Deck("Ac 6s", "Kd")
	s.Banker = 5
	cs := gametest.Cards("6s 7s 8s Ac Kd")
	s.Shuffle(cs)
	assert.Equal(t, "Ac 6s 7s 8s Kd", codes(cs))
	s.Shuffle(cs)
	assert.Equal(t, "Kd Ac 6s 7s 8s", codes(cs))
	s.Shuffle(cs)
	assert.Equal(t, "Kd Ac 6s 7s 8s", codes(cs), "no deck left: unchanged")
	assert.Equal(t, 2, s.Shuffles())
	assert.Equal(t, 1, s.IntN(4))
	assert.NotEqual(t, s.Uint64(), s.Uint64())

	// Cards not in the shuffled set are skipped.
	s = gametest.Deck("Ah 6s")
	cs = gametest.Cards("7s 6s")
	s.Shuffle(cs)
	assert.Equal(t, "6s 7s", codes(cs))
	assert.Panics(t, func() { gametest.Cards("6s 5s") })
}

func TestParseCommitment(t *testing.T) {
	d := game.Deck{Cards: gametest.Cards("Th 6s Ac 9d")}
	want := d.Commitment()
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"as written", want.String(), true},
		{"upper case, spaces", " " + strings.ToUpper(want.String()) + "\n", true},
		{"short", want.String()[:62], false},
		{"long", want.String() + "00", false},
		{"not hex", "zz" + want.String()[2:], false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := game.ParseCommitment(tt.in)
			if !tt.ok {
				assert.ErrorIs(t, err, game.ErrInvalidInput)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}
