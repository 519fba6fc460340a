package game

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// ChainLength is the number of links of a chain [NewChain] makes: the decks
// one chain serves. Computing its head takes 100,000 SHA-256 of 32 bytes,
// about 10 ms of one core (BenchmarkChainHead).
const ChainLength = 100_000

// Chain is a hash chain of server seeds, one per chat: a secret S_N and the
// links S_{i−1} = SHA-256(S_i) down to the head S_0, which the chat sees
// before any of its seeds is used. Deck number k of the chat (k = 1, 2, …,
// Length) takes link k as its server seed and is committed to by link k−1;
// seeds are used from the head's end, so each revealed seed hashes to the
// one before, back to the head, and the head binds every seed of the chain
// before any cut is given.
//
// Keep the secret as secret as the seeds not yet used: it gives them all.
// String and GoString do not print it.
type Chain struct {
	// Secret is S_N, the chain's last link.
	Secret Seed
	// Length is N, the number of links after the head.
	Length uint32
}

// NewChain returns a chain of [ChainLength] links whose secret is 32 bytes
// drawn from r: pass [CryptoRand] to the bot, a seeded Rand to a test.
func NewChain(r Rand) Chain {
	c := Chain{Length: ChainLength}
	for i := 0; i < SeedSize; i += 8 {
		binary.LittleEndian.PutUint64(c.Secret[i:], r.Uint64())
	}
	return c
}

// Head returns S_0, the link a chat is shown before its first deck: it
// hashes the secret Length times (about 10 ms for [ChainLength]).
func (c Chain) Head() Seed {
	s, _ := c.Link(0)
	return s
}

// Link returns S_k, the server seed of the chain's k-th deck (S_0 is the
// head), by hashing the secret Length−k times: the cost falls as k grows,
// and is Length hashes at most. It fails, with an error wrapping
// [ErrInvalidInput], when k is past Length: the chain is used up and the
// chat needs a new one.
func (c Chain) Link(k uint32) (Seed, error) {
	if k > c.Length {
		return Seed{}, fmt.Errorf("%w: link %d of a chain of %d links", ErrInvalidInput, k, c.Length)
	}
	return hashTimes(c.Secret, c.Length-k), nil
}

// String describes the chain without its secret.
func (c Chain) String() string {
	return fmt.Sprintf("hash chain of %d links (secret not shown)", c.Length)
}

// GoString describes the chain without its secret, for %#v.
func (c Chain) GoString() string { return "game.Chain{" + c.String() + "}" }

// VerifyLink checks that seed is link k of the chain whose head is head:
// that SHA-256 applied k times to seed gives head (k = 0: seed is the head).
// It costs k hashes. It returns nil when they match, and otherwise an
// error wrapping [ErrCommitmentMismatch] that gives both values.
func VerifyLink(seed Seed, k uint32, head Seed) error {
	if got := hashTimes(seed, k); got != head {
		return fmt.Errorf("%w: SHA-256 applied %d times to the seed gives %s, not the head %s", ErrCommitmentMismatch, k, got, head)
	}
	return nil
}

// hashTimes returns SHA-256 applied n times to s.
func hashTimes(s Seed, n uint32) Seed {
	for ; n > 0; n-- {
		s = sha256.Sum256(s[:])
	}
	return s
}
