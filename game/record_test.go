package game_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// sampleCutRecord returns the record of a deck of 14 cards, link 3 of a
// chain of 8, with its first five cards dealt.
func sampleCutRecord(t *testing.T) *game.CutRecord {
	t.Helper()
	ch := game.Chain{Secret: game.Seed{0x42}, Length: 8}
	seed, err := ch.Link(3)
	require.NoError(t, err)
	cards := gametest.Cards("6s 6h 7d 8c 9s 9h Td Tc Js Qh Qd Kc As Ah")
	r := &game.CutRecord{Head: ch.Head(), Link: 3, Seed: seed, Game: 17, Circle: 3, Deck: 2, Cut: []byte("tap:2"), Cards: cards}
	order, err := game.DeriveOrder(seed, 17, 3, 2, r.Cut, cards)
	require.NoError(t, err)
	r.Dealt = order[:5]
	return r
}

func TestCutRecordRoundTripsAndVerifies(t *testing.T) {
	r := sampleCutRecord(t)
	line := r.String()
	assert.True(t, strings.HasPrefix(line, "ochko-cut-v1 head="+r.Head.String()+" link=3 seed="+r.Seed.String()+
		" game=17 circle=3 deck=2 cut=7461703a32 cards=6s6h7d8c9s9hTdTcJsQhQdKcAsAh dealt="), line)
	assert.NotContains(t, line, "\n")
	got, err := game.ParseRecord(line)
	require.NoError(t, err)
	assert.Equal(t, r, got)
	assert.Equal(t, game.SchemeCut, got.Scheme())
	assert.Equal(t, line, got.String())

	order, err := got.Verify()
	require.NoError(t, err)
	assert.Equal(t, r.Dealt, order[:5])
	assert.Len(t, order, 14)

	// Spaces, tabs and line breaks between fields do not matter.
	got, err = game.ParseRecord("\n " + strings.ReplaceAll(line, " ", " \t\n ") + "\r\n")
	require.NoError(t, err)
	assert.Equal(t, r, got)

	// Nothing dealt, nobody cut.
	r.Dealt, r.Cut = nil, nil
	line = r.String()
	assert.Contains(t, line, " cut=- ")
	assert.True(t, strings.HasSuffix(line, " dealt=-"))
	got, err = game.ParseRecord(line)
	require.NoError(t, err)
	assert.Equal(t, r, got)
	_, err = got.Verify()
	assert.NoError(t, err)
}

func TestCutRecordVerifySaysWhatDiffers(t *testing.T) {
	tests := []struct {
		name   string
		change func(r *game.CutRecord)
		is     error
		want   []string
	}{
		{"seed", func(r *game.CutRecord) { r.Seed[0] ^= 1 }, game.ErrCommitmentMismatch, []string{"SHA-256 applied 3 times to the seed gives"}},
		{"head", func(r *game.CutRecord) { r.Head[5] ^= 0x10 }, game.ErrCommitmentMismatch, []string{"not the head"}},
		{"link", func(r *game.CutRecord) { r.Link = 4 }, game.ErrCommitmentMismatch, []string{"applied 4 times"}},
		{"cut", func(r *game.CutRecord) { r.Cut = []byte("tap:3") }, game.ErrDealtMismatch, []string{"dealt was", "but the derived order has"}},
		{"game", func(r *game.CutRecord) { r.Game++ }, game.ErrDealtMismatch, nil},
		{"circle", func(r *game.CutRecord) { r.Circle++ }, game.ErrDealtMismatch, nil},
		{"deck", func(r *game.CutRecord) { r.Deck++ }, game.ErrDealtMismatch, nil},
		{"cards", func(r *game.CutRecord) { r.Cards = append(r.Cards[:0:0], r.Cards[1:]...) }, game.ErrDealtMismatch, nil},
		{"dealt card", func(r *game.CutRecord) { r.Dealt[3], r.Dealt[4] = r.Dealt[4], r.Dealt[3] }, game.ErrDealtMismatch, []string{"card 4 dealt was"}},
		{"dealt past the deck", func(r *game.CutRecord) {
			order, _ := r.Verify()
			r.Dealt = append(order, order[0])
		}, game.ErrDealtMismatch, []string{"15 cards dealt from a deck of 14"}},
		{"cut too long", func(r *game.CutRecord) { r.Cut = make([]byte, game.MaxCutLen+1) }, game.ErrInvalidInput, []string{"a cut is at most 256 bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sampleCutRecord(t)
			tt.change(r)
			_, err := r.Verify()
			require.ErrorIs(t, err, tt.is)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}

	// The seed and the cut both wrong: both said.
	r := sampleCutRecord(t)
	r.Seed[0] ^= 1
	order, err := r.Verify()
	require.ErrorIs(t, err, game.ErrCommitmentMismatch)
	require.ErrorIs(t, err, game.ErrDealtMismatch)
	assert.Len(t, order, 14, "the order derived is returned with the difference")

	// The message names the first card that differs and where.
	r = sampleCutRecord(t)
	want := r.Dealt[2]
	r.Dealt[2], r.Dealt[3] = r.Dealt[3], r.Dealt[2]
	_, err = r.Verify()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "card 3 dealt was "+r.Dealt[2].Code()+", but the derived order has "+want.Code()+" there")
}

func TestParseRecordIsStrict(t *testing.T) {
	line := sampleCutRecord(t).String()
	f := strings.Fields(line)
	set := func(i int, v string) string {
		g := append([]string(nil), f...)
		name, _, _ := strings.Cut(g[i], "=")
		g[i] = name + "=" + v
		return strings.Join(g, " ")
	}
	head, seed := f[1][len("head="):], f[3][len("seed="):]
	tests := []struct{ name, record, want string }{
		{"empty", "  \n", "record: empty"},
		{"unknown scheme", "ochko-cut-v2" + line[len("ochko-cut-v1"):], `unknown scheme "ochko-cut-v2"`},
		{"too long", line + strings.Repeat(" ", 2048), "longer than 2048 bytes"},
		{"missing field", strings.Join(f[:9], " "), "field dealt= missing"},
		{"extra field", line + " cutter=bob", `unexpected "cutter=bob" after dealt=`},
		{"fields swapped", strings.Join(append([]string{f[0], f[2], f[1]}, f[3:]...), " "), "field 1 is \"link=3\", want head="},
		{"field repeated", strings.Join(append([]string{f[0], f[1]}, f[1:]...), " "), "want link="},
		{"no =", strings.Replace(line, "game=", "game:", 1), "want game="},
		{"head short", set(1, head[:62]), "head: want 64 lowercase hex digits"},
		{"head upper", set(1, strings.ToUpper(head)), "head: want 64 lowercase hex digits"},
		{"seed not hex", set(3, "x"+seed[1:]), "seed: want 64 lowercase hex digits"},
		{"link zero", set(2, "0"), "link: want a number from 1 to 100000"},
		{"link past a chain", set(2, "100001"), "link: want a number from 1 to 100000"},
		{"link leading zero", set(2, "03"), `link: want a number from 1 to 100000, not "03"`},
		{"link signed", set(2, "+3"), "link: want a number"},
		{"game zero", set(4, "0"), "game: want a number from 1"},
		{"game too big", set(4, "18446744073709551616"), "game: want a number"},
		{"circle too big", set(5, "4294967296"), "circle: want a number from 1 to 4294967295"},
		{"deck empty", set(6, ""), "deck: want a number"},
		{"cut odd", set(7, "746"), "cut: want - or 2 to 512 lowercase hex digits"},
		{"cut empty", set(7, ""), "cut: want -"},
		{"cut upper", set(7, "7461703A32"), "cut: want -"},
		{"cut too long", set(7, strings.Repeat("61", 257)), "cut: want -"},
		{"cards empty", set(8, ""), "cards: want 1 to 36 two-letter card codes"},
		{"cards odd", set(8, "6s6"), "cards: want 1 to 36"},
		{"card unknown", set(8, "6s1h"), `cards: card 2, "1h", is not a card code`},
		{"card lower case", set(8, "6s6hth"), `card 3, "th", is not a card code`},
		{"card ten as 10", set(8, "6s10"), `card 2, "10", is not a card code`},
		{"card twice", set(8, "6s6h6s"), "cards: card 6s appears twice"},
		{"cards not canonical", set(8, "6h6s"), "cards: the cards are not in canonical order: 6s comes after 6h"},
		{"dealt twice", set(9, "6s6s"), "dealt: card 6s appears twice"},
		{"dealt unknown", set(9, "Zz"), "dealt: card 1"},
		{"dealt empty", set(9, ""), "dealt: want 1 to 36"},
		{"dealt more than the deck", set(8, "6s6h"), "dealt: 5 cards dealt from a deck of 2"},
		{"salt record short", "sha256-salt-v0 commitment=" + head, "field preimage= missing"},
		{"salt commitment", "sha256-salt-v0 commitment=" + head[:10] + " preimage=6s:00000000000000000000000000000000", "commitment: want 64 lowercase hex digits"},
		{"salt preimage", "sha256-salt-v0 commitment=" + head + " preimage=6s6s:00000000000000000000000000000000", "card 6s appears twice"},
		{"salt preimage lower", "sha256-salt-v0 commitment=" + head + " preimage=th:00000000000000000000000000000000", "not as the bot writes it (Th:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := game.ParseRecord(tt.record)
			require.ErrorIs(t, err, game.ErrInvalidInput)
			assert.Contains(t, err.Error(), tt.want)
			assert.Nil(t, r)
		})
	}
}

func TestSaltRecord(t *testing.T) {
	d := game.Deck{Cards: gametest.Cards("Th 6s Ac 9d")}
	for i := range d.Salt {
		d.Salt[i] = byte(i * 17)
	}
	r := &game.SaltRecord{Commitment: d.Commitment(), Deck: d}
	line := r.String()
	assert.Equal(t, "sha256-salt-v0 commitment="+d.Commitment().String()+" preimage="+d.Preimage(), line)
	got, err := game.ParseRecord(line)
	require.NoError(t, err)
	assert.Equal(t, r, got)
	assert.Equal(t, game.SchemeSalt, got.Scheme())
	order, err := got.Verify()
	require.NoError(t, err)
	assert.Equal(t, d.Cards, order)
	assert.NoError(t, game.VerifyDeck(d.Preimage(), d.Commitment().String()), "the same check as VerifyDeck")

	// Two cards swapped: the preimage no longer hashes to the commitment.
	swapped := strings.Replace(line, "Th6s", "6sTh", 1)
	got, err = game.ParseRecord(swapped)
	require.NoError(t, err)
	order, err = got.Verify()
	require.ErrorIs(t, err, game.ErrCommitmentMismatch)
	assert.Contains(t, err.Error(), "the preimage hashes to ")
	assert.Contains(t, err.Error(), ", not "+d.Commitment().String())
	assert.Equal(t, gametest.Cards("6s Th Ac 9d"), order)
}
