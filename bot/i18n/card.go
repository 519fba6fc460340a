package i18n

import (
	"strings"

	"github.com/twentyone-bot/twentyone/game"
)

// Card names a card with its suit symbol as the language writes it: "10♥",
// "K♠" in English, "К♠" in Russian and Ukrainian, where jack, queen, king
// and ace are В, Д, К and Т.
func Card(lang Lang, c game.Card) string {
	if !c.Valid() {
		return "?"
	}
	var rank string
	switch r := c.Rank(); r {
	case game.Jack:
		rank = T(lang, RankJack)
	case game.Queen:
		rank = T(lang, RankQueen)
	case game.King:
		rank = T(lang, RankKing)
	case game.Ace:
		rank = T(lang, RankAce)
	default:
		rank = strings.TrimSuffix(c.String(), c.Suit().Symbol())
	}
	return rank + c.Suit().Symbol()
}

// Hand names a hand's cards separated by spaces: "K♥ 9♦ 6♠".
func Hand(lang Lang, h game.Hand) string {
	var b strings.Builder
	for i := range h.Len() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Card(lang, h.Card(i)))
	}
	return b.String()
}

// fractions are the bank shares that have a character of their own.
var fractions = map[int64]string{2: "½", 3: "⅓", 4: "¼", 5: "⅕", 6: "⅙", 8: "⅛"}

// BetOption names a bet option as its button shows it: "×2" for twice the
// stake, "½" or "1/7" for a share of the bank, "bank" («банк») for the whole
// bank.
func BetOption(lang Lang, o game.BetOption) string {
	switch {
	case o.Kind == game.StakeTimes:
		return "×" + Number(o.N)
	case o.Kind == game.BankShare && o.N == 1:
		return T(lang, BetBank)
	case o.Kind == game.BankShare:
		if f, ok := fractions[o.N]; ok {
			return f
		}
		return "1/" + Number(o.N)
	}
	return "?"
}

// Bet labels a bet button: the amount first, then what it stands for when
// the amount alone does not say it: "40 · ½ bank" for a share of the bank,
// "80 · bank" for all of it, "35 · all in" for a balance that caps the bet;
// a multiple of the stake is its amount alone, "20".
func Bet(lang Lang, o game.Offer, bank int64) string {
	amount := Number(o.Amount)
	switch {
	case o.Amount == bank:
		return amount + " · " + T(lang, BetBank)
	case o.Capped:
		return amount + " · " + T(lang, BetAllIn)
	case o.Option.Kind == game.BankShare:
		return amount + " · " + T(lang, BetShare, BetOption(lang, o.Option))
	}
	return amount
}
