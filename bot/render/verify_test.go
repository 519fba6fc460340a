package render

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// The records of docs/FAIRNESS.md's test vectors 1 (not cut) and 2 (cut
// by the middle button).
const (
	vector1 = "ochko-cut-v1 head=e574ce570b4dd6691e8f1c64ba07306d318ac120992ac4172e32713678f6d608 link=1 seed=18ec878d50b888b35bee678086dccf2cb07614092ec012760ae762ed2738546d game=1 circle=1 deck=1 cut=- cards=6s6h6d6c7s7h7d7c8s8h8d8c9s9h9d9cTsThTdTcJsJhJdJcQsQhQdQcKsKhKdKcAsAhAdAc dealt=7cQh8cJsQcAd"
	vector2 = "ochko-cut-v1 head=e574ce570b4dd6691e8f1c64ba07306d318ac120992ac4172e32713678f6d608 link=2 seed=1f51abbc6f8d1e44a29188c5791b9e0802531ba377625c2d4db5723b0fe14f42 game=1 circle=2 deck=1 cut=7461703a32 cards=6s6h6d6c7s7h7d7c8s8h8d8c9s9h9d9cTsThTdTcJsJhJdJcQsQhQdQcKsKhKdKcAsAhAdAc dealt=9h6c9cKsQh"
)

func readRecord(t testing.TB, line string) game.Record {
	t.Helper()
	r, err := game.ParseRecord(line)
	require.NoError(t, err)
	return r
}

func cutRecord(line string) *game.CutRecord {
	r, err := game.ParseRecord(line)
	if err != nil {
		panic(err)
	}
	return r.(*game.CutRecord)
}

// cutReveals are decks of ochko-cut-v1: cut by a button, by words with
// markup in them (by a hostile name), and not cut.
func cutReveals() []Reveal {
	words := cutRecord(vector2)
	words.Cut = []byte(`<b>my & "own"</b> words`)
	return []Reveal{
		{Record: cutRecord(vector2), CutBy: "Alice"},
		{Record: words, CutBy: hostile},
		{Record: cutRecord(vector1)},
	}
}

// saltReveals are decks of games of before the cut (sha256-salt-v0).
func saltReveals() []Reveal {
	var out []Reveal
	for i, codes := range []string{"6s 7h Ad Kc", "Kc Qd Jh"} {
		d := game.Deck{Cards: gametest.Cards(codes)}
		d.Salt[0], d.Salt[15] = byte(i+1), 0xfe
		out = append(out, Reveal{Record: &game.SaltRecord{Commitment: d.Commitment(), Deck: d}})
	}
	return out
}

// TestVerifyShowsEachDecksRecord: the check of a deck of the cut shows
// its scheme, head, link, commitment, seed, cut and cutter, and the record
// as one line in one box, which reads back as the same record; a deck of
// before the cut shows its hash, its text and its record.
func TestVerifyShowsEachDecksRecord(t *testing.T) {
	for _, lang := range i18n.Langs() {
		text := Verify(9, cutReveals(), lang).Text
		checkHTML(t, text, "verify cut")
		r := cutRecord(vector2)
		for _, want := range []string{game.SchemeCut, r.Head.String(), r.Seed.String(), r.Seed.Hash().String(),
			"<code>tap:2</code>", "Alice", "<code>&lt;b&gt;my &amp; &quot;own&quot;&lt;/b&gt; words</code>",
			i18n.T(lang, i18n.VerifyNotCut), i18n.T(lang, i18n.VerifyHowToCut)} {
			assert.Contains(t, text, want, lang)
		}
		assert.NotContains(t, text, "<b>my", "the cut's text is escaped")
		assert.NotContains(t, text, i18n.T(lang, i18n.VerifyHowTo), "no deck of before the cut")
		for _, rv := range cutReveals() {
			line := "<code>" + escape(rv.Record.String()) + "</code>"
			require.Contains(t, text, line, "the record, in one box")
			assert.Equal(t, rv.Record, readRecord(t, html(rv.Record.String())), "the box reads back as the record")
		}

		text = Verify(7, saltReveals(), lang).Text
		for _, rv := range saltReveals() {
			rec := rv.Record.(*game.SaltRecord)
			assert.Contains(t, text, "<code>"+rec.Commitment.String()+"</code>")
			assert.Contains(t, text, "<code>"+rec.Deck.Preimage()+"</code>")
			assert.Contains(t, text, "<code>"+rec.String()+"</code>")
		}
		assert.Contains(t, text, i18n.T(lang, i18n.VerifyHowTo))
		assert.NotContains(t, text, i18n.T(lang, i18n.VerifyHowToCut))
	}
}

// html returns s as a box of the check reads when copied: escaped, then
// unescaped.
func html(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&amp;", "&").Replace(escape(s))
}

// TestVerifyKeepsTheNewestDecksThatFit: a game with many knocks revealed
// more decks than a message holds; the check keeps its title, the newest
// decks that fit and how to check them.
func TestVerifyKeepsTheNewestDecksThatFit(t *testing.T) {
	var reveals []Reveal
	for i := range 40 {
		r := cutRecord(vector2)
		r.Cut = []byte(strings.Repeat(strconv.Itoa(i%10), 80))
		reveals = append(reveals, Reveal{Record: r, CutBy: "Alice"})
	}
	for _, lang := range i18n.Langs() {
		text := Verify(9, reveals, lang).Text
		assert.LessOrEqual(t, len([]rune(text)), MaxText-verifyRoom)
		parts := strings.Split(text, "\n\n")
		require.Greater(t, len(parts), 3)
		assert.Equal(t, i18n.T(lang, i18n.VerifyTitle, "9"), parts[0])
		assert.Equal(t, i18n.T(lang, i18n.VerifyHowToCut), parts[len(parts)-1])
		assert.Contains(t, parts[len(parts)-2], strings.Repeat("9", 80), "the newest deck is kept")
		// The decks kept are the newest, with their numbers; the one before
		// them would not have fitted.
		kept := len(parts) - 2
		first := len(reveals) - kept
		assert.True(t, strings.HasPrefix(parts[1], "<b>"), parts[1])
		assert.Contains(t, parts[1], " "+strconv.Itoa(first+1)+"</b>", "deck numbers stay those of the game")
		one := Verify(9, reveals[first-1:first], lang).Text
		deck := strings.Split(one, "\n\n")[1]
		assert.Greater(t, len([]rune(text))+len([]rune(deck))+2, MaxText-verifyRoom)
	}
}
