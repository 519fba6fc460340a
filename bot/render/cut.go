package render

import (
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

// cutSign marks the cut wherever a table names it.
const cutSign = "✂️ "

// deck draws the deck in play, below the seats: its commitment (short:
// the whole hash takes two lines on a phone, and /verify shows it) and,
// for a deck of the cut (docs/FAIRNESS.md), the cut. While the deck waits
// for it: the link of the table's chain the deck's seed is, and who is
// asked to cut, how (by a tap, /cut or a reply; on an inline table, where
// the bot reads no message, by a tap) and the time left; once the deck is
// dealt: who cut it, or that nobody did.
func (v *view) deck(c game.Commitment) []line {
	lines := []line{text(v.deckLine(c))}
	cut, ok := v.t.Cut()
	switch {
	case !ok:
		return lines
	case !cut.Waiting:
		return append(lines, text(cutSign+v.cutBy(cut.By)))
	}
	left := v.countdown()
	switch {
	case cut.Asked == 0:
		return append(lines, text(v.tr(i18n.TableCutNobody, left)))
	case v.in.Inline:
		return append(lines, text(v.tr(i18n.TableCutAskTap, v.whoPlayed(cut.Asked), left)))
	}
	return append(lines, text(v.tr(i18n.TableCutAsk, v.whoPlayed(cut.Asked), left)))
}

// deckLine words the deck in play (c): its short commitment; for a deck
// that waits for its cut, that deck's, with the link of the table's chain
// its seed is and the chain's head.
func (v *view) deckLine(c game.Commitment) string {
	if cut, ok := v.t.Cut(); ok && cut.Waiting {
		return v.tr(i18n.TableCutDeck, code(cut.Commitment.Short()),
			strconv.FormatUint(uint64(cut.Link), 10), code(cut.Head.Short()))
	}
	return v.tr(i18n.TableDeck, code(c.Short()))
}

// cutBy says who cut a deck: "cut by Bob", or "not cut" (user 0).
func (v *view) cutBy(user game.UserID) string {
	if user == 0 {
		return v.tr(i18n.TableNotCut)
	}
	return v.tr(i18n.TableCutBy, v.whoPlayed(user))
}

// whoPlayed returns the HTML of the name of a user seated at the table,
// or who played its game (a cutter may have left since); "?" for one the
// table does not know.
func (v *view) whoPlayed(user game.UserID) string {
	if i, ok := v.t.SeatOf(user); ok {
		return v.who(user, v.t.Seat(i).Name)
	}
	for _, p := range v.t.Players() {
		if p.User == user {
			return v.who(user, p.Name)
		}
	}
	return v.who(user, "?")
}
