package render

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// cutAsked: four seated, Alice banks, Bob started the game; its deck, the
// second link of a chain, waits for the cut, which Bob is asked for.
func cutAsked(t testing.TB, names map[game.UserID]string) *play {
	deck := gametest.Deck("Js 9d As Qh Kd Jh Qs 6c")
	p := full(t, names, deck)
	p.CutDecks(deck)
	return p.do(game.Start, bob, 0)
}

// cutDo applies a cut by user with text, which must be accepted.
func (p *play) cutDo(user game.UserID, text string) *play {
	p.T.Helper()
	p.Cut(user, text)
	return p
}

// cutInput is what the bot renders as the command that made the table
// goes (the whole cut wait ahead).
func (p *play) cutInput(lang i18n.Lang, inline bool) Input {
	in := p.input(lang)
	in.Now, in.Inline = p.Env.Now, inline
	return in
}

// TestGoldenCut: the table while its deck waits for the cut (a group's
// and an inline one's, which asks for a tap only), once Carol cut it, and
// once the wait passed with no cut; and the record of a game of two decks,
// one cut and one not, naming the cutters.
func TestGoldenCut(t *testing.T) {
	for _, lang := range i18n.Langs() {
		t.Run(string(lang), func(t *testing.T) {
			names := plainNames[lang]
			p := cutAsked(t, names)
			require.Equal(t, game.Cutting, p.Table.Phase())
			golden(t, "cut_asked."+string(lang), dump(Table(p.cutInput(lang, false))))
			golden(t, "cut_asked_inline."+string(lang), dump(Table(p.cutInput(lang, true))))

			p = cutAsked(t, names).after(5*time.Second).cutDo(carol, "tap:2")
			require.Equal(t, game.Betting, p.Table.Phase())
			golden(t, "cut_by."+string(lang), dump(Table(p.cutInput(lang, false))))

			p = cutAsked(t, names).after(game.DefaultCutWait)
			p.do(game.Timeout, 0, 0)
			require.Equal(t, game.Betting, p.Table.Phase())
			golden(t, "cut_none."+string(lang), dump(Table(p.cutInput(lang, false))))

			in := gameOver(t, names).input(lang)
			in.Cuts = []DeckCut{{By: bob}, {}}
			golden(t, "cut_record."+string(lang), dump(Summary(in)))
		})
	}
}

// TestCutTexts: what each state says, in English.
func TestCutTexts(t *testing.T) {
	names := plainNames[i18n.EN]
	text := Table(cutAsked(t, names).cutInput(i18n.EN, false)).Text
	assert.Contains(t, text, "Bob, cut the deck: tap a button, or /cut your words, or reply to this message with any text (15\u00a0s)")
	assert.Regexp(t, `🔐 Deck <code>[0-9a-f]{16}…</code> · link 2 of chain <code>[0-9a-f]{16}…</code>`, text)
	links := gametest.NewLinks(7, 1000)
	head := links.Link(0)
	assert.Contains(t, text, head.Short(), "the chain's head")
	assert.Contains(t, text, links.Link(1).Short(), "the commitment: link 1, the hash of link 2")

	inline := Table(cutAsked(t, names).cutInput(i18n.EN, true)).Text
	assert.Contains(t, inline, "Bob, cut the deck: tap a button (15\u00a0s)")
	assert.NotContains(t, inline, "/cut", "no command on an inline table")

	assert.Contains(t, Table(cutAsked(t, names).cutDo(dave, "my words").input(i18n.EN)).Text, "✂️ cut by Dave")
	p := cutAsked(t, names).after(game.DefaultCutWait)
	p.do(game.Timeout, 0, 0)
	assert.Contains(t, Table(p.input(i18n.EN)).Text, "✂️ not cut")

	in := gameOver(t, names).input(i18n.EN)
	in.Cuts = []DeckCut{{By: bob}}
	assert.Contains(t, Summary(in).Text, "✂️ cut by Bob")
	in.Cuts = []DeckCut{{By: bob}, {}, {By: carol}}
	assert.Contains(t, Summary(in).Text, "✂️ 1: cut by Bob · 2: not cut · 3: cut by Carol")
	in.Cuts = nil
	assert.NotContains(t, Summary(in).Text, "✂️", "a game of decks before the cut")
}

// TestCutRefusals: each refusal of a cut says why, in the asker's language.
func TestCutRefusals(t *testing.T) {
	tb := cutAsked(t, plainNames[i18n.EN]).Table
	r := Rejected{Table: &tb, Settings: game.DefaultSettings(), User: eve}
	for _, tt := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: 300 bytes", game.ErrCutTooLong), "Too long: a cut is at most 256 bytes."},
		{game.ErrNoCutAsked, "The table is not waiting for a cut."},
		{fmt.Errorf("%w by user 2", game.ErrAlreadyCut), "The deck is cut already: the first cut counts."},
		{game.ErrCutTooLate, "Too late: the deck is being dealt."},
		{game.ErrHouseCannotCut, "The house never cuts."},
		{game.ErrNotSeated, "You're not at this table."},
	} {
		text, alert, internal := Rejection(i18n.EN, tt.err, r, 100)
		assert.Equal(t, tt.want, text, "%v", tt.err)
		assert.False(t, alert || internal, "%v", tt.err)
	}
	text, _, _ := Rejection(i18n.RU, game.ErrAlreadyCut, r, 100)
	assert.Equal(t, "Колоду уже сняли: считается первое снятие.", text)
}
