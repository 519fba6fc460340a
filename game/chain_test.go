package game_test

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

func TestNewChainDrawsItsSecretFromRand(t *testing.T) {
	a := game.NewChain(game.NewRand(pcg(1)))
	b := game.NewChain(game.NewRand(pcg(1)))
	c := game.NewChain(game.NewRand(pcg(2)))
	assert.Equal(t, a, b, "the same Rand gives the same chain")
	assert.NotEqual(t, a.Secret, c.Secret)
	assert.Equal(t, uint32(game.ChainLength), a.Length)
	assert.NotEqual(t, a.Secret, game.NewChain(game.CryptoRand()).Secret)
}

func TestChainLinksHashBackToTheHead(t *testing.T) {
	ch := game.Chain{Secret: game.Seed{0xab}, Length: 12}
	head := ch.Head()
	last, err := ch.Link(12)
	require.NoError(t, err)
	assert.Equal(t, ch.Secret, last, "the last link is the secret")
	first, err := ch.Link(0)
	require.NoError(t, err)
	assert.Equal(t, head, first, "link 0 is the head")

	for k := uint32(1); k <= ch.Length; k++ {
		seed, err := ch.Link(k)
		require.NoError(t, err)
		prev, err := ch.Link(k - 1)
		require.NoError(t, err)
		assert.Equal(t, prev, seed.Hash(), "link %d hashes to link %d, its commitment", k, k-1)
		assert.Equal(t, game.Seed(sha256.Sum256(seed[:])), seed.Hash())
		assert.NoError(t, game.VerifyLink(seed, k, head), "link %d", k)

		err = game.VerifyLink(seed, k+1, head)
		require.ErrorIs(t, err, game.ErrCommitmentMismatch, "link %d is not link %d", k, k+1)
		assert.Contains(t, err.Error(), fmt.Sprintf("SHA-256 applied %d times to the seed gives", k+1))
		assert.Contains(t, err.Error(), "not the head "+head.String())
		wrong := seed
		wrong[31] ^= 1
		assert.ErrorIs(t, game.VerifyLink(wrong, k, head), game.ErrCommitmentMismatch)
	}
	assert.NoError(t, game.VerifyLink(head, 0, head), "the head is link 0 of itself")

	_, err = ch.Link(13)
	require.ErrorIs(t, err, game.ErrInvalidInput)
	assert.Contains(t, err.Error(), "link 13 of a chain of 12 links")
}

func TestChainDoesNotPrintItsSecret(t *testing.T) {
	ch := game.NewChain(game.NewRand(rand.NewPCG(3, 4)))
	secret := ch.Secret.String()
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		out := fmt.Sprintf(format, ch)
		assert.NotContains(t, out, secret[:8], format)
		assert.Contains(t, out, "100000 links", format)
	}
	assert.False(t, strings.Contains(fmt.Sprint([]game.Chain{ch}), secret[:8]))
}

// BenchmarkChainHead measures what a new chain's head costs: ChainLength
// hashes.
func BenchmarkChainHead(b *testing.B) {
	ch := game.NewChain(game.NewRand(pcg(5)))
	for b.Loop() {
		_ = ch.Head()
	}
}

// BenchmarkDeriveOrder measures one deck's derivation.
func BenchmarkDeriveOrder(b *testing.B) {
	cards := fullCanonical()
	for b.Loop() {
		_, _ = game.DeriveOrder(game.Seed{1}, 1, 1, 1, []byte("tap:1"), cards)
	}
}
