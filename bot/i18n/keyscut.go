package i18n

// The cut (docs/FAIRNESS.md, "The cut"): a seated player cuts each deck
// before its first card, by a button, /cut or a reply to the table. These
// keys live apart from keys.go, which is long enough; the catalogue test
// reads both.
const (
	// BtnCutQuarter, BtnCutHalf and BtnCutThreeQuarters: the three cut
	// buttons, which cut with "tap:1", "tap:2" and "tap:3".
	BtnCutQuarter       Key = "btn.cut.1"
	BtnCutHalf          Key = "btn.cut.2"
	BtnCutThreeQuarters Key = "btn.cut.3"
	// TableCutDeck: the deck waiting for its cut: its commitment (short
	// form), its link's index and the chain's head (short form).
	TableCutDeck Key = "table.cut.deck"
	// TableCutAsk: who is asked to cut (a name) and the time left, and the
	// three ways to cut: any seated player may.
	TableCutAsk Key = "table.cut.ask"
	// TableCutAskTap: TableCutAsk on an inline table, where the bot reads
	// no message: by button only.
	TableCutAskTap Key = "table.cut.ask.tap"
	// TableCutNobody: no seated player but the house could cut; the deck
	// is dealt not cut when the time left has passed.
	TableCutNobody Key = "table.cut.nobody"
	// TableCutBy: who cut the deck in play (a name), after "✂️".
	TableCutBy Key = "table.cut.by"
	// TableNotCut: nobody cut the deck in play, after "✂️".
	TableNotCut Key = "table.cut.none"

	// PopCut: the toast of a cut that counted.
	PopCut Key = "pop.cut"
	// PopCutYouBet: the toast of a cut that dealt the cutter the first
	// bet: their card and its points.
	PopCutYouBet Key = "pop.cut.bet"
	// PopStartCutYou: a start (or the Join that started the game) whose
	// deck waits for the presser's cut.
	PopStartCutYou Key = "pop.start.cut.you"
	// PopStartCutOther: a start whose deck waits for another player's cut
	// (a name).
	PopStartCutOther Key = "pop.start.cut.other"
	// PopCutTooLong: a cut past the limit (a number of bytes).
	PopCutTooLong Key = "pop.cut.long"
	// PopNoCutAsked: no deck waits for a cut.
	PopNoCutAsked Key = "pop.cut.notasked"
	// PopCutAlready: somebody cut the deck first.
	PopCutAlready Key = "pop.cut.already"
	// PopCutTooLate: the deck was dealt not cut.
	PopCutTooLate Key = "pop.cut.late"
	// PopHouseNoCut: the house never cuts.
	PopHouseNoCut Key = "pop.cut.house"

	// CutUsage: /cut without words: how to use it (the limit, a number of
	// bytes).
	CutUsage Key = "cut.usage"
	// DescCut describes /cut.
	DescCut Key = "desc.cut"
	// HelpCut: /cut.
	HelpCut Key = "help.cut"
)
