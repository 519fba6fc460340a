package game_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

func TestScore(t *testing.T) {
	tests := []struct {
		name   string
		cards  string
		score  int
		golden bool
		five   bool
	}{
		{"empty hand", "", 0, false, false},
		{"single six", "6s", 6, false, false},
		{"single ten", "Th", 10, false, false},
		{"single jack", "Jd", 2, false, false},
		{"single ace", "Ac", 11, false, false},
		{"A A is Golden 21, not 22", "As Ah", 21, true, false},
		{"A A of the other suits", "Ad Ac", 21, true, false},
		{"A A plus a card busts", "As Ah 6c", 28, false, false},
		{"A A plus a jack busts", "As Ah Jc", 24, false, false},
		{"A then A after another card is a plain sum", "Jc As Ah", 24, false, false},
		{"A 10 is a plain 21", "As Th", 21, false, false},
		{"two cards under 21", "Th 9h", 19, false, false},
		{"three cards to 21", "6s 6h 9c", 21, false, false},
		{"three aces bust", "As Ah Ad", 33, false, false},
		{"five pictures over 21 score 21", "As Ah Kd Qc Js", 21, false, true},
		{"five pictures of all aces and a king", "As Ah Ad Ac Ks", 21, false, true},
		{"five pictures under 21 score 21", "Js Jh Jd Jc Qs", 21, false, true},
		{"five pictures summing 22 score 21", "Jh Qh Kh Jd Ah", 21, false, true},
		{"four pictures are a plain sum", "Ks Kh Kd Kc", 16, false, false},
		{"four pictures can bust", "As Ah Kd Kc", 30, false, false},
		{"four pictures summing 20", "Ac Kd Qc Js", 20, false, false},
		{"five cards not all pictures", "6s Js Jh Jd Jc", 14, false, false},
		{"five cards not all pictures bust", "Ts 9s Js Jh Jd", 25, false, false},
		{"five cards with one ten", "Js Jh Jd Qc Td", 19, false, false},
		{"six pictures are a plain sum", "Js Jh Jd Jc Qs Qh", 14, false, false},
		{"six pictures bust", "As Ks Qs Js Jh Jd", 24, false, false},
		{"six cards of low ones", "Js Jh Jd Jc 6s 6h", 20, false, false},
		{"seven cards", "Js Jh Jd Jc 6s Qs Qh", 20, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := game.NewHand(gametest.Cards(tt.cards)...)
			require.Equal(t, len(strings.Fields(tt.cards)), h.Len())
			assert.Equal(t, tt.score, h.Score())
			assert.Equal(t, tt.score > 21, h.Bust())
			assert.Equal(t, tt.golden, h.Golden())
			assert.Equal(t, tt.five, h.FivePictures())
		})
	}
}

func TestCardPoints(t *testing.T) {
	want := map[game.Rank]int{game.Six: 6, game.Seven: 7, game.Eight: 8, game.Nine: 9, game.Ten: 10,
		game.Jack: 2, game.Queen: 3, game.King: 4, game.Ace: 11}
	pictures := map[game.Rank]bool{game.Jack: true, game.Queen: true, game.King: true, game.Ace: true}
	total := 0
	for r := game.Six; r <= game.Ace; r++ {
		assert.Equal(t, want[r], r.Points(), "rank %d", r)
		assert.Equal(t, pictures[r], r.Picture(), "rank %d", r)
		for s := game.Spades; s <= game.Clubs; s++ {
			c := game.NewCard(r, s)
			assert.Equal(t, want[r], c.Points())
			total += c.Points()
		}
	}
	assert.Equal(t, 240, total, "the deck's points")
	assert.Equal(t, 0, game.Rank(game.NumRanks).Points())
	assert.False(t, game.Rank(game.NumRanks).Picture())
	assert.Equal(t, "?", game.Suit(game.NumSuits).Symbol())
}

func TestCardCodesRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	n := 0
	for r := game.Six; r <= game.Ace; r++ {
		for s := game.Spades; s <= game.Clubs; s++ {
			c := game.NewCard(r, s)
			require.True(t, c.Valid())
			assert.Equal(t, r, c.Rank())
			assert.Equal(t, s, c.Suit())
			code := c.Code()
			assert.Len(t, code, 2)
			assert.False(t, seen[code])
			seen[code] = true
			for _, in := range []string{code, strings.ToLower(code), strings.ToUpper(code)} {
				got, err := game.ParseCard(in)
				require.NoError(t, err, in)
				assert.Equal(t, c, got, in)
			}
			n++
		}
	}
	assert.Equal(t, game.DeckSize, n)

	tests := []struct {
		code, str string
	}{
		{"6s", "6♠"}, {"7h", "7♥"}, {"8d", "8♦"}, {"9c", "9♣"}, {"Th", "10♥"},
		{"Js", "J♠"}, {"Qd", "Q♦"}, {"Kc", "K♣"}, {"Ah", "A♥"},
	}
	for _, tt := range tests {
		c, err := game.ParseCard(tt.code)
		require.NoError(t, err)
		assert.Equal(t, tt.str, c.String())
		assert.Equal(t, tt.code, c.Code())
	}
	ten, err := game.ParseCard("10h")
	require.NoError(t, err)
	assert.Equal(t, "Th", ten.Code())
	ten, err = game.ParseCard("10S")
	require.NoError(t, err)
	assert.Equal(t, "Ts", ten.Code())
}

func TestParseCardRejectsBadCodes(t *testing.T) {
	for _, code := range []string{"", "A", "1", "10", "100", "10x", "1h", "5s", "2h", "0s", "Tx", "XX", "Ahh",
		"A h", " Ah", "Ah ", "♠A", "A♠", "\x00\x00", "10hh", "TT", "ss"} {
		t.Run(fmt.Sprintf("%q", code), func(t *testing.T) {
			c, err := game.ParseCard(code)
			require.Error(t, err)
			assert.ErrorIs(t, err, game.ErrInvalidInput)
			assert.Equal(t, game.KindInvalid, game.Kind(err))
			assert.Zero(t, c)
		})
	}
}

func TestInvalidCard(t *testing.T) {
	for _, c := range []game.Card{0, game.DeckSize + 1, 255} {
		assert.False(t, c.Valid())
		assert.Equal(t, "??", c.Code())
		assert.Equal(t, "?", c.String())
	}
	assert.True(t, game.Card(1).Valid())
	assert.True(t, game.Card(game.DeckSize).Valid())
	assert.Equal(t, "6s", game.Card(1).Code())
	assert.Equal(t, "Ac", game.Card(game.DeckSize).Code())
}

func TestHand(t *testing.T) {
	cs := gametest.Cards("Th 9d As")
	h := game.NewHand(cs...)
	assert.Equal(t, "10♥ 9♦ A♠", h.String())
	assert.Equal(t, 3, h.Len())
	assert.Equal(t, cs[1], h.Card(1))
	got := h.Cards()
	assert.Equal(t, cs, got)
	got[0] = cs[2]
	assert.Equal(t, cs[0], h.Card(0), "Cards returns a copy")
	assert.Equal(t, "", game.NewHand().String())
	assert.Nil(t, game.NewHand().Cards())

	// A hand holds at most MaxHand cards.
	var all []game.Card
	for c := game.Card(1); c <= game.DeckSize; c++ {
		all = append(all, c)
	}
	assert.Equal(t, game.MaxHand, game.NewHand(all...).Len())

	// Hands are values.
	h2 := h
	h2 = game.NewHand(cs[0])
	assert.Equal(t, 3, h.Len())
	assert.Equal(t, 1, h2.Len())
}

func TestCommitmentFormat(t *testing.T) {
	var c game.Commitment
	for i := range c {
		c[i] = byte(i)
	}
	assert.Equal(t, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", c.String())
	assert.Equal(t, "0001020304050607…", c.Short())
}
