package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// verifyRecord returns the record of a reshuffled deck of 20 cards, link 6
// of a chain of 40, cut with words, six cards dealt, and its order.
func verifyRecord(t *testing.T) (*game.CutRecord, []game.Card) {
	t.Helper()
	ch := game.NewChain(game.NewRand(rand.NewPCG(35, 35)))
	ch.Length = 40
	seed, err := ch.Link(6)
	require.NoError(t, err)
	cards := gametest.Cards("6s 6d 7h 7c 8s 8d 9h 9c Ts Td Jh Jc Qs Qd Kh Kc As Ad Ah Ac")
	game.SortCanonical(cards)
	r := &game.CutRecord{Head: ch.Head(), Link: 6, Seed: seed, Game: 4, Circle: 2, Deck: 2, Cut: []byte("режу тут ✂️"), Cards: cards}
	order, err := game.DeriveOrder(seed, r.Game, r.Circle, r.Deck, r.Cut, cards)
	require.NoError(t, err)
	r.Dealt = order[:6]
	return r, order
}

func TestVerifyCommand(t *testing.T) {
	r, order := verifyRecord(t)
	line := r.String()
	orderLine := "order:      " + codeList(order) + "\n"

	t.Run("OK", func(t *testing.T) {
		code, stdout, stderr := runBinary(t, nil, "verify", line)
		require.Equal(t, exitOK, code, stderr)
		assert.Equal(t, orderLine+
			"commitment: "+r.Seed.Hash().String()+" (the table showed its first 16 digits before the cut)\n"+
			"cut:        \"режу тут ✂️\"\n"+
			"OK\n", stdout)
		assert.Empty(t, stderr)

		// Unquoted, the shell splits the record into fields: the same.
		code, stdout2, _ := runBinary(t, nil, append([]string{"verify"}, strings.Fields(line)...)...)
		assert.Equal(t, exitOK, code)
		assert.Equal(t, stdout, stdout2)
	})

	t.Run("stdin", func(t *testing.T) {
		cmd := exec.CommandContext(waitCtx(t), twentyoneBinary(t), "verify", "-")
		cmd.Stdin = strings.NewReader(line + "\n")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		require.NoError(t, cmd.Run(), errOut.String())
		assert.True(t, strings.HasPrefix(out.String(), orderLine), out.String())
		assert.True(t, strings.HasSuffix(out.String(), "\nOK\n"), out.String())
	})

	t.Run("the old scheme", func(t *testing.T) {
		d := game.Deck{Cards: gametest.Cards("Kc 9d Th")}
		d.Salt[0] = 1
		old := &game.SaltRecord{Commitment: d.Commitment(), Deck: d}
		code, stdout, stderr := runBinary(t, nil, "verify", old.String())
		require.Equal(t, exitOK, code, stderr)
		assert.Equal(t, "order:      Kc 9d Th\nOK\n", stdout)
		code, _, stderr = runBinary(t, nil, "verify", strings.Replace(old.String(), "Kc9d", "9dKc", 1))
		assert.Equal(t, exitFailure, code)
		assert.Contains(t, stderr, "twentyone verify: FAIL: deck does not match its commitment: the preimage hashes to ")
	})

	// One byte of each input changed: the check fails, and says what
	// differs.
	changes := gametest.RecordChanges(line)
	for _, tt := range []struct{ field, says string }{
		{"head", "FAIL: deck does not match its commitment: SHA-256 applied 6 times to the seed gives " + r.Head.String() + ", not the head "},
		{"link", "FAIL: deck does not match its commitment: SHA-256 applied 7 times to the seed gives "},
		{"seed", "FAIL: deck does not match its commitment: SHA-256 applied 6 times to the seed gives "},
		{"game", "FAIL: the cards dealt are not the deck's order: card "},
		{"circle", "FAIL: the cards dealt are not the deck's order: card "},
		{"deck", "FAIL: the cards dealt are not the deck's order: card "},
		{"cut", "FAIL: the cards dealt are not the deck's order: card "},
		{"dealt", "FAIL: the cards dealt are not the deck's order: card 1 dealt was "},
	} {
		t.Run("changed "+tt.field, func(t *testing.T) {
			changed, ok := changes[tt.field]
			require.True(t, ok)
			require.NotEqual(t, line, changed)
			code, stdout, stderr := runBinary(t, nil, "verify", changed)
			assert.Equal(t, exitFailure, code, stdout)
			assert.Contains(t, stderr, "twentyone verify: "+tt.says)
			assert.NotContains(t, stdout, "OK")
			assert.Contains(t, stdout, "order:", "the order derived is shown with the difference")
		})
	}

	// The seed and a dealt card both wrong: both said.
	t.Run("two changes", func(t *testing.T) {
		twice := gametest.RecordChanges(changes["seed"])["dealt"]
		code, _, stderr := runBinary(t, nil, "verify", twice)
		assert.Equal(t, exitFailure, code)
		assert.Contains(t, stderr, "not the head")
		assert.Contains(t, stderr, "; the cards dealt are not the deck's order")
	})

	for name, bad := range map[string][]string{
		"no record":      {},
		"empty stdin":    {"-"},
		"not a record":   {"hello"},
		"field missing":  {strings.Replace(line, " circle=2", "", 1)},
		"seed truncated": {strings.Replace(line, r.Seed.String(), r.Seed.String()[:60], 1)},
		"card twice":     {strings.Replace(line, "dealt="+r.Dealt[0].Code()+r.Dealt[1].Code(), "dealt="+r.Dealt[0].Code()+r.Dealt[0].Code(), 1)},
		"unknown flag":   {"-x", line},
	} {
		t.Run("malformed: "+name, func(t *testing.T) {
			code, stdout, stderr := runBinary(t, nil, append([]string{"verify"}, bad...)...)
			assert.Equal(t, exitUsage, code, stdout+stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "twentyone verify", "the problem is told")
		})
	}
	_, err := game.ParseRecord(strings.Replace(line, " circle=2", "", 1))
	assert.True(t, errors.Is(err, game.ErrInvalidInput))
}
