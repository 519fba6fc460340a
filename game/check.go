package game

import (
	"fmt"
	"math"
)

// check verifies the invariants a decoded table must hold, so that no
// damaged table reaches Apply.
func (t *Table) check() error {
	if t.phase > Cutting {
		return fmt.Errorf("phase %d", t.phase)
	}
	if t.phase != Closed {
		if err := t.settings.Validate(); err != nil {
			return err
		}
	}
	n := int8(t.nseats)
	if t.banker < -1 || t.banker >= n || t.turn < -1 || t.turn >= n || t.lastBankerSeat < 0 || t.lastBankerSeat > MaxSeats {
		return fmt.Errorf("seat index out of range")
	}
	if t.phase.InGame() != (t.banker >= 0) || t.turnExpected() != (t.turn >= 0) || t.turn == t.banker && t.turn >= 0 {
		return fmt.Errorf("banker %d and turn %d do not fit phase %s", t.banker, t.turn, t.phase)
	}
	if t.bank < 0 || t.circleBank < 0 || t.shoe.drawn > t.shoe.n {
		return fmt.Errorf("negative bank or deck overdrawn")
	}
	if t.phase == Closed && t.nseats != 0 || t.phase.InGame() && t.nseats < 2 {
		return fmt.Errorf("%d seats in phase %s", t.nseats, t.phase)
	}
	for i := range t.seats[:t.nseats] {
		s := &t.seats[i]
		if s.User == 0 || s.Bet < 0 || s.State > SatOut {
			return fmt.Errorf("seat %d is malformed", i)
		}
		if s.Bet > 0 && !((t.phase == Drawing || t.phase == Cutting) && int(t.turn) == i) {
			return fmt.Errorf("seat %d has a bet out of turn", i)
		}
		for j := range t.seats[:i] {
			if t.seats[j].User == s.User {
				return fmt.Errorf("user %d seated twice", s.User)
			}
		}
	}
	if !t.phase.InGame() {
		// Between games nothing is on the table and no deck is in play.
		if t.bank != 0 || t.circleBank != 0 || t.shoe != (shoe{}) || t.deckNo != 0 || t.wait != (cutWait{}) || t.ndiscard != 0 {
			return fmt.Errorf("chips or cards on the table in phase %s", t.phase)
		}
		for i := range t.seats[:t.nseats] {
			if s := &t.seats[i]; s.State != Idle || s.Hand.n != 0 || s.Leaving {
				return fmt.Errorf("seat %d is in play in phase %s", i, t.phase)
			}
		}
		return nil
	}
	return t.checkGame()
}

// turnExpected reports whether the table's phase has a player in a duel:
// betting or drawing, or waiting for the cut of the deck their draw (or
// their duel's banker's) ran out of.
func (t *Table) turnExpected() bool {
	switch t.phase {
	case Betting, Drawing:
		return true
	case Cutting:
		return t.wait.then == resumeHit || t.wait.then == resumeBanker
	}
	return false
}

// checkDeck verifies the deck in play or awaited: a deck of SchemeSalt
// that hashes to its commitment; one of SchemeCut with a cut by somebody
// or none; one waiting for its cut with no cards yet, nor cut, and a wait
// that says what the cut resumes and runs for at most the turn time.
func (t *Table) checkDeck() error {
	s := &t.shoe
	switch {
	case t.phase == Cutting:
		w := &t.wait
		if !s.cutScheme || s.n != 0 || s.cutBy != 0 || s.cut != "" || t.deadline == 0 || t.deckNo == 0 {
			return fmt.Errorf("the deck waiting for its cut is malformed")
		}
		if w.then < resumeDeal || w.then > resumeDuel || w.why != ReasonNone && w.why != ReasonTimeout ||
			w.then != resumeBanker && (w.banker.n != 0 || w.why != ReasonNone) || w.banker.Score() >= BankerStopsAt ||
			w.length <= 0 || w.length > t.settings.TurnTimeout {
			return fmt.Errorf("the cut wait is malformed")
		}
		return nil
	case t.wait != (cutWait{}):
		return fmt.Errorf("a cut wait in phase %s", t.phase)
	case s.n == 0:
		return fmt.Errorf("no deck in play")
	case s.cutScheme:
		if (s.cutBy == 0) != (s.cut == "") || t.deckNo == 0 {
			return fmt.Errorf("the deck's cut is malformed")
		}
	case commit(s.order[:s.n], &s.salt) != s.hash:
		return fmt.Errorf("the deck does not match its commitment")
	}
	return nil
}

// checkGame verifies the invariants of a table during a game.
func (t *Table) checkGame() error {
	if t.circle < 1 || t.knocks >= t.circle || int(t.knocks) > t.settings.MaxKnocks {
		return fmt.Errorf("circle %d with %d knocks", t.circle, t.knocks)
	}
	// The bank starts every circle with at least the stake or it would
	// have broken; a bank that small keeps every sum below in range.
	if t.circleBank < 1 || t.bank > math.MaxInt64/2 {
		return fmt.Errorf("bank %d from %d", t.bank, t.circleBank)
	}
	// Before the circle's deck is cut, nobody holds a card.
	predeal := t.phase == Cutting && t.wait.then == resumeDeal
	for i := range t.seats[:t.nseats] {
		s := &t.seats[i]
		var ok bool
		switch {
		case i == int(t.banker):
			ok = s.State == Idle && s.Hand.n == 0
		case i == int(t.turn) && t.phase == Betting:
			ok = s.State == Playing && s.Hand.n == 1
		case i == int(t.turn):
			ok = s.State == Playing && s.Hand.n >= 1 && s.Hand.Score() < 21 && s.Bet >= 1 && s.Bet <= t.bank
		case s.State == Waiting && predeal:
			ok = s.Hand.n == 0 && !s.Leaving
		case s.State == Waiting:
			ok = s.Hand.n == 1 && !s.Leaving
		default:
			ok = (s.State == Played || s.State == SatOut) && s.Hand.n == 0
		}
		if !ok {
			return fmt.Errorf("seat %d (%d cards, state %d) does not fit the game", i, s.Hand.n, s.State)
		}
	}
	if err := t.checkDeck(); err != nil {
		return err
	}
	// The deck in play is a set of distinct cards.
	var inDeck [DeckSize + 1]bool
	for _, c := range t.shoe.order[:t.shoe.n] {
		if inDeck[c] {
			return fmt.Errorf("card %s twice in the deck", c.Code())
		}
		inDeck[c] = true
	}
	// Every card is in exactly one place: the deck, the discards or a
	// hand (the banker's, drawn before the deck ran out, too); before
	// the circle's deck is cut, none is anywhere yet.
	var seen [DeckSize + 1]bool
	total := 0
	mark := func(cs []Card) bool {
		for _, c := range cs {
			if seen[c] {
				return false
			}
			seen[c] = true
			total++
		}
		return true
	}
	ok := mark(t.shoe.order[t.shoe.drawn:t.shoe.n]) && mark(t.discard[:t.ndiscard])
	for i := range t.seats[:t.nseats] {
		ok = ok && mark(t.seats[i].Hand.cards[:t.seats[i].Hand.n])
	}
	ok = ok && mark(t.wait.banker.cards[:t.wait.banker.n])
	want := DeckSize
	if predeal {
		want = 0
	}
	if !ok || total != want {
		return fmt.Errorf("cards do not add up to one deck")
	}
	return nil
}
