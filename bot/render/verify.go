package render

import (
	"strconv"
	"strings"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
)

// The deck check (/verify, the "Check the deck" button): the decks a game
// revealed, each with what its scheme needs to check it and its record,
// the one line `twentyone verify` and the script of docs/FAIRNESS.md
// take.

// verifyRoom is what a deck check leaves free of MaxText.
const verifyRoom = 100

// Verify lists the decks revealed in a game, oldest first, with how to
// check them: the newest that fit when not all do. A deck of
// game.SchemeCut shows its scheme, its chain's head and its link, its
// commitment, its server seed, its cut (the text as the cutter gave it,
// and who; or "not cut") and its record; a deck of game.SchemeSalt its
// SHA-256, the text that hashes to it and its record.
func Verify(gameNo uint64, reveals []Reveal, lang i18n.Lang) message.Message {
	title := i18n.T(lang, i18n.VerifyTitle, strconv.FormatUint(gameNo, 10))
	decks := make([]string, 0, len(reveals))
	var cut, salt bool
	for i, r := range reveals {
		n := strconv.Itoa(i + 1)
		switch rec := r.Record.(type) {
		case *game.CutRecord:
			cut = true
			decks = append(decks, i18n.T(lang, i18n.VerifyCutDeck, n, game.SchemeCut, rec.Head.String(),
				strconv.FormatUint(uint64(rec.Link), 10), rec.Seed.Hash().String(), rec.Seed.String(),
				cutText(rec.Cut, r.CutBy, lang), escape(rec.String())))
		case *game.SaltRecord:
			salt = true
			decks = append(decks, i18n.T(lang, i18n.VerifyDeck, n, rec.Commitment.String(), escape(rec.Deck.Preimage()))+
				"\n"+i18n.T(lang, i18n.VerifyRecord, escape(rec.String())))
		}
	}
	var howTo []string
	if cut {
		howTo = append(howTo, i18n.T(lang, i18n.VerifyHowToCut))
	}
	if salt {
		howTo = append(howTo, i18n.T(lang, i18n.VerifyHowTo))
	}
	// A game with many knocks: the newest decks that fit.
	text := func() string { return strings.Join(append(append([]string{title}, decks...), howTo...), "\n\n") }
	for len(decks) > 1 && len([]rune(text())) > MaxText-verifyRoom {
		decks = decks[1:]
	}
	return message.Message{Text: text()}
}

// cutText is a deck's cut as the check shows it: the cutter's text,
// escaped, and their name; or "not cut".
func cutText(cut []byte, by string, lang i18n.Lang) string {
	if len(cut) == 0 {
		return i18n.T(lang, i18n.VerifyNotCut)
	}
	text := "<code>" + escape(strings.ToValidUTF8(string(cut), "\uFFFD")) + "</code>"
	if by == "" {
		return text
	}
	return i18n.T(lang, i18n.VerifyCutBy, text, NameHTML(by))
}
