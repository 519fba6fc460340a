package game_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// fullCanonical returns the 36 cards in canonical order.
func fullCanonical() []game.Card {
	cards := make([]game.Card, game.DeckSize)
	for i := range cards {
		cards[i] = game.Card(i + 1)
	}
	return cards
}

func TestSortCanonical(t *testing.T) {
	cards := gametest.Cards("Ac 6s Th 6c 7s 6h")
	game.SortCanonical(cards)
	assert.Equal(t, gametest.Cards("6s 6h 6c 7s Th Ac"), cards)
	full := fullCanonical()
	codes := make([]string, 0, 8)
	for _, c := range full[:8] {
		codes = append(codes, c.Code())
	}
	assert.Equal(t, "6s 6h 6d 6c 7s 7h 7d 7c", strings.Join(codes, " "), "rank first, then suit s h d c")
	assert.Equal(t, "Ac", full[35].Code())
}

func TestDeriveOrderIsAPermutationFixedByItsInputs(t *testing.T) {
	seed := game.Seed{1, 2, 3}
	cards := fullCanonical()
	before := slices.Clone(cards)
	order, err := game.DeriveOrder(seed, 17, 3, 2, []byte("tap:2"), cards)
	require.NoError(t, err)
	assert.Equal(t, before, cards, "the cards given are not changed")
	sorted := slices.Clone(order)
	slices.Sort(sorted)
	assert.Equal(t, before, sorted, "the order holds every card once")
	again, err := game.DeriveOrder(seed, 17, 3, 2, []byte("tap:2"), cards)
	require.NoError(t, err)
	assert.Equal(t, order, again, "the same inputs give the same order")
	assert.NotEqual(t, before, order)

	// Each input changes the order.
	changed := map[string]func() ([]game.Card, error){
		"seed": func() ([]game.Card, error) {
			return game.DeriveOrder(game.Seed{1, 2, 4}, 17, 3, 2, []byte("tap:2"), cards)
		},
		"game":   func() ([]game.Card, error) { return game.DeriveOrder(seed, 18, 3, 2, []byte("tap:2"), cards) },
		"circle": func() ([]game.Card, error) { return game.DeriveOrder(seed, 17, 4, 2, []byte("tap:2"), cards) },
		"deck":   func() ([]game.Card, error) { return game.DeriveOrder(seed, 17, 3, 1, []byte("tap:2"), cards) },
		"cut":    func() ([]game.Card, error) { return game.DeriveOrder(seed, 17, 3, 2, []byte("tap:3"), cards) },
		"no cut": func() ([]game.Card, error) { return game.DeriveOrder(seed, 17, 3, 2, nil, cards) },
		"cards":  func() ([]game.Card, error) { return game.DeriveOrder(seed, 17, 3, 2, []byte("tap:2"), cards[1:]) },
	}
	for name, derive := range changed {
		other, err := derive()
		require.NoError(t, err, name)
		assert.NotEqual(t, order[:len(other)], other, "%s changes the order", name)
	}
}

// The length of the cut is part of what is hashed, so a cut and the game
// fields around it cannot trade bytes.
func TestDeriveOrderCutLengthIsFramed(t *testing.T) {
	seed := game.Seed{9}
	a, err := game.DeriveOrder(seed, 1, 1, 1, []byte{0}, fullCanonical())
	require.NoError(t, err)
	b, err := game.DeriveOrder(seed, 1, 1, 1, nil, fullCanonical())
	require.NoError(t, err)
	assert.NotEqual(t, a, b)
	long := bytes.Repeat([]byte("я"), game.MaxCutLen/2)
	_, err = game.DeriveOrder(seed, 1, 1, 1, long, fullCanonical())
	assert.NoError(t, err, "a cut of exactly MaxCutLen bytes")
}

func TestDeriveOrderRefusesBadInput(t *testing.T) {
	full := fullCanonical()
	tests := []struct {
		name  string
		cut   []byte
		cards []game.Card
		want  string
	}{
		{"cut too long", bytes.Repeat([]byte("x"), game.MaxCutLen+1), full, "a cut is at most 256 bytes, this one 257"},
		{"no cards", nil, nil, "a deck holds 1 to 36 cards, not 0"},
		{"too many cards", nil, append(slices.Clone(full), 1), "a deck holds 1 to 36 cards, not 37"},
		{"not a card", nil, []game.Card{0, 1}, "card 1 is not a card"},
		{"past the deck", nil, []game.Card{1, 37}, "card 2 is not a card"},
		{"twice", nil, gametest.Cards("6s Th Th"), "card Th appears twice"},
		{"not canonical", nil, gametest.Cards("6s Ac Th"), "not in canonical order: Th comes after Ac"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			order, err := game.DeriveOrder(game.Seed{}, 1, 1, 1, tt.cut, tt.cards)
			require.ErrorIs(t, err, game.ErrInvalidInput)
			assert.Contains(t, err.Error(), tt.want)
			assert.Nil(t, order)
		})
	}
}

// A word at or above the largest multiple of m below 2^32 is skipped: with
// three cards, m = 3 takes the words below 2^32 − 1 (2^32 mod 3 = 1), m = 2
// any word.
func TestShuffleWordsRejectsTheBiasedWords(t *testing.T) {
	words := func(ws ...uint32) func() uint32 {
		return func() uint32 {
			require.NotEmpty(t, ws, "the shuffle asked for more words than it should")
			w := ws[0]
			ws = ws[1:]
			return w
		}
	}
	cards := gametest.Cards("6s 6h 6d")
	// i = 2, m = 3, limit 0xffffffff: 0xffffffff is rejected, then
	// 0xfffffffe = 3·1431655764 + 2 gives j = 2, nothing moves; i = 1,
	// m = 2, limit 2^32: 0xffffffff is taken, j = 1, nothing moves.
	game.ShuffleWords(cards, words(0xffffffff, 0xfffffffe, 0xffffffff))
	assert.Equal(t, gametest.Cards("6s 6h 6d"), cards)

	cards = gametest.Cards("6s 6h 6d")
	game.ShuffleWords(cards, words(0xffffffff, 0xffffffff, 0xffffffff, 3, 4))
	// i = 2: three words rejected, then 3 mod 3 = 0: swap 6d and 6s; i = 1: 4 mod 2 = 0.
	assert.Equal(t, gametest.Cards("6h 6d 6s"), cards)

	// 36 cards: m = 36, limit 2^32 − 4 = 0xfffffffc, rejected; then
	// 0xfffffffb = 36·119304646 + 35 gives j = 35 and the ace of clubs
	// stays at the bottom (taking the rejected word would have put 6s
	// there: 0xfffffffc mod 36 = 0).
	cards = fullCanonical()
	ws := []uint32{0xfffffffc, 0xfffffffb}
	for range 34 {
		ws = append(ws, 0)
	}
	game.ShuffleWords(cards, words(ws...))
	assert.Equal(t, game.Card(36), cards[35])
}

// Over many cuts, each card lands on top about as often as any other.
func TestDeriveOrderSpreadsTheCards(t *testing.T) {
	const runs = 36 * 400
	var top [game.DeckSize + 1]int
	cut := make([]byte, 8)
	for i := range runs {
		cut[0], cut[1] = byte(i), byte(i>>8)
		order, err := game.DeriveOrder(game.Seed{7}, 1, 1, 1, cut, fullCanonical())
		require.NoError(t, err)
		top[order[0]]++
	}
	for c := 1; c <= game.DeckSize; c++ {
		// 400 expected; a binomial's σ is 19.7, and the inputs are fixed.
		assert.InDelta(t, 400, top[c], 100, "card %s on top", game.Card(c).Code())
	}
}

func TestSeed(t *testing.T) {
	var s game.Seed
	for i := range s {
		s[i] = byte(i)
	}
	hexed := "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	assert.Equal(t, hexed, s.String())
	assert.Equal(t, "0001020304050607…", s.Short())
	got, err := game.ParseSeed(hexed)
	require.NoError(t, err)
	assert.Equal(t, s, got)
	// SHA-256 of the 32 bytes 00..1f.
	assert.Equal(t, "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd", s.Hash().String())
	for _, bad := range []string{"", hexed[:62], hexed + "00", strings.ToUpper(hexed), "zz" + hexed[2:], " " + hexed[1:]} {
		_, err := game.ParseSeed(bad)
		assert.ErrorIs(t, err, game.ErrInvalidInput, "%q", bad)
	}
}
