package i18n

// The deck check's texts for the decks of the cut (ochko-cut-v1), beside
// the /verify texts of keys.go (kept apart: keys.go is past 600 lines).
const (
	// VerifyCutDeck: a deck of the cut (ochko-cut-v1): its number, its
	// scheme, its chain's head, its link, its commitment, its server
	// seed, its cut (VerifyCutBy or VerifyNotCut) and its record, the
	// long values each in a box of its own under a label that names it.
	VerifyCutDeck Key = "cmd.verify.cutdeck"
	// VerifyCutBy: a deck's cut: its text (in a box) and the cutter's
	// name.
	VerifyCutBy Key = "cmd.verify.cutby"
	// VerifyNotCut: nobody cut the deck.
	VerifyNotCut Key = "cmd.verify.notcut"
	// VerifyRecord: a deck's record, the line to check (a deck of before
	// the cut, under VerifyDeck).
	VerifyRecord Key = "cmd.verify.record"
	// VerifyHowToCut: how to check a deck of the cut: its record through
	// the script of docs/FAIRNESS.md or `twentyone verify`, then what
	// only the table saw (the head, the commitment, the cut).
	VerifyHowToCut Key = "cmd.verify.howtocut"
)
