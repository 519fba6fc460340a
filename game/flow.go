package game

import "fmt"

// startCircle starts a circle with a fresh deck: shuffled and dealt at
// once, or, when a cut is asked (Env.CutWait), waiting for its cut, which
// deals it.
func (a *applier) startCircle() {
	t := &a.t
	t.circle++
	t.circleBank = t.bank
	t.ndiscard = 0
	t.deckNo = 0
	n := int(t.nseats)
	for k := 1; k < n; k++ {
		s := &t.seats[(int(t.banker)+k)%n]
		s.Hand, s.Bet, s.State = Hand{}, 0, Waiting
		if s.Leaving {
			s.State = SatOut
		}
	}
	deck := fullDeck()
	waits := a.newDeck(deck[:], resumeDeal)
	if a.err != nil {
		return
	}
	a.emit(Event{Kind: EventCircleStarted, Amount: int64(t.circle), Commitment: t.shoe.hash})
	if waits {
		a.askCut()
		return
	}
	a.deal()
}

// deal deals one card from the new deck to every player waiting for a
// duel, in seat order after the banker, and plays the first duel.
func (a *applier) deal() {
	t := &a.t
	n := int(t.nseats)
	for k := 1; k < n; k++ {
		s := &t.seats[(int(t.banker)+k)%n]
		if s.State != Waiting {
			continue
		}
		c := t.shoe.draw() // 3 cards at most from a fresh deck of 36
		s.Hand.add(c)
		a.emit(Event{Kind: EventDealt, User: s.User, Card: c})
	}
	a.nextDuel()
}

// nextDuel moves to the next player waiting for a duel in seat order after
// the banker, sitting out those who cannot bet; it ends the circle when none
// is left, and the game when the bank is broken.
func (a *applier) nextDuel() {
	t := &a.t
	t.turn = -1
	n := int(t.nseats)
	for k := 1; k < n; k++ {
		i := (int(t.banker) + k) % n
		s := &t.seats[i]
		if s.State != Waiting {
			continue
		}
		if t.bank <= 0 {
			a.breakBank()
			return
		}
		var buf [MaxBetOptions]Offer
		if t.settings.offers(t.bank, a.balance(s.User), &buf) == 0 {
			a.sitOut(i, ReasonNoChips)
			continue
		}
		s.State = Playing
		t.turn = int8(i)
		t.phase = Betting
		t.deadline = a.turnDeadline()
		a.emit(Event{Kind: EventTurn, User: s.User})
		return
	}
	a.endCircle()
}

// breakBank ends the game because the bank is empty: every player still
// waiting sits the circle out.
func (a *applier) breakBank() {
	a.sitOutRest(ReasonBankBroken)
	a.endGame(ReasonBankBroken)
}

// sitOutRest makes every player whose duel of the circle a game's end cuts
// off sit the circle out for why (ReasonBankBroken, ReasonBankerLeft or
// ReasonCancelled): those still waiting and the player whose turn it is,
// whose bet, if any, was refunded first. The record keeps each with the
// cards they held, so that every player of the game has a line saying
// why no chips of theirs moved.
func (a *applier) sitOutRest(why Reason) {
	t := &a.t
	n := int(t.nseats)
	for k := 1; k < n; k++ {
		i := (int(t.banker) + k) % n
		s := &t.seats[i]
		if s.State != Waiting && (i != int(t.turn) || s.State != Playing) {
			continue
		}
		a.record(Duel{Circle: int(t.circle), User: s.User, Hand: s.Hand, Result: NoDuel, Reason: why})
		a.discardHand(&s.Hand)
		s.State = SatOut
		a.emit(Event{Kind: EventSatOut, User: s.User, Reason: why})
	}
	t.turn = -1
}

// sitOut makes seat i sit the circle out; no chips move. The record keeps
// it, with the card the player was dealt.
func (a *applier) sitOut(i int, why Reason) {
	s := &a.t.seats[i]
	a.record(Duel{Circle: int(a.t.circle), User: s.User, Hand: s.Hand, Result: NoDuel, Reason: why})
	a.discardHand(&s.Hand)
	s.State = SatOut
	a.emit(Event{Kind: EventSatOut, User: s.User, Reason: why})
	if i == int(a.t.turn) {
		a.afterDuel()
	}
}

// endDuel settles the duel of the player whose turn it is; why is
// ReasonTimeout when the player stood by running out of time.
func (a *applier) endDuel(r DuelResult, banker Hand, why Reason) {
	t := &a.t
	s := &t.seats[t.turn]
	d := Duel{Circle: int(t.circle), User: s.User, Name: s.Name, Hand: s.Hand, Banker: banker, Bet: s.Bet, Result: r, Reason: why}
	if r.PlayerWon() {
		a.transfer(s.User, TransferWin, 2*s.Bet)
		t.bank -= s.Bet
	} else {
		t.bank += s.Bet
	}
	s.Bet = 0
	s.State = Played
	a.discardHand(&s.Hand)
	a.discardHand(&banker)
	a.record(d)
	a.emit(Event{Kind: EventDuelEnded, User: d.User, Amount: d.Bet, Duel: d})
	a.afterDuel()
}

// record adds a line to the game's record. The record holds a whole game
// (see LogSize); were it ever full, the oldest line would go.
func (a *applier) record(d Duel) {
	t := &a.t
	p := -1
	for i := range t.players[:t.nplayers] {
		if t.players[i].User == d.User {
			p = i
		}
	}
	if p < 0 {
		return // every seat of a game is one of its players
	}
	if t.nlog == LogSize {
		copy(t.log[:], t.log[1:])
		t.nlog--
		t.logCut = true
	}
	t.log[t.nlog] = entry{circle: uint8(d.Circle), player: uint8(p), result: d.Result, why: d.Reason,
		bet: d.Bet, hand: d.Hand, banker: d.Banker}
	t.nlog++
}

// afterDuel frees the seats of players who left during the game, now that
// the duel is over; the banker's seat waits for the end of the game.
func (a *applier) afterDuel() {
	t := &a.t
	t.turn = -1
	for i := int(t.nseats) - 1; i >= 0; i-- {
		if t.seats[i].Leaving && i != int(t.banker) {
			a.removeSeat(i)
		}
	}
}

// endCircle reveals the deck, then knocks or ends the game.
func (a *applier) endCircle() {
	t := &a.t
	a.reveal()
	for i := range t.seats[:t.nseats] {
		a.discardHand(&t.seats[i].Hand)
	}
	if t.bank/KnockFactor >= t.circleBank && int(t.knocks) < t.settings.MaxKnocks && a.playersLeft() {
		t.knocks++
		a.emit(Event{Kind: EventKnocked, Amount: t.bank, From: t.circleBank})
		a.startCircle()
		return
	}
	if t.bank == 0 {
		a.endGame(ReasonBankBroken)
		return
	}
	a.endGame(ReasonFinished)
}

// playersLeft reports whether anyone but the banker can play another circle.
func (a *applier) playersLeft() bool {
	for i := range a.t.seats[:a.t.nseats] {
		if i != int(a.t.banker) && !a.t.seats[i].Leaving {
			return true
		}
	}
	return false
}

// endGame gives the bank to the banker, frees the seats of those who left and
// reopens the lobby with the others.
func (a *applier) endGame(why Reason) {
	t := &a.t
	a.dropWait()
	a.reveal()
	bi := int(t.banker)
	bu := t.seats[bi].User
	if t.bank > 0 {
		a.transfer(bu, TransferBank, t.bank)
	}
	a.emit(Event{Kind: EventGameEnded, User: bu, Amount: t.bank, Reason: why})
	t.bank, t.circleBank = 0, 0
	t.lastBanker = bu
	t.lastBankerSeat = int8(bi)
	t.turn = -1
	for i := int(t.nseats) - 1; i >= 0; i-- {
		if t.seats[i].Leaving {
			a.removeSeat(i)
		}
	}
	t.banker = -1
	for i := range t.seats[:t.nseats] {
		t.seats[i].Hand, t.seats[i].Bet, t.seats[i].State = Hand{}, 0, Idle
	}
	t.shoe, t.wait, t.deckNo = shoe{}, cutWait{}, 0
	t.ndiscard = 0
	t.phase = Lobby
	t.deadline = a.lobbyDeadline()
	if t.nseats == 0 {
		a.close(ReasonEmpty)
	}
}

// reveal publishes the deck in play, if any, now that it is no longer drawn
// from.
func (a *applier) reveal() {
	t := &a.t
	if t.shoe.n == 0 {
		return
	}
	ev := Event{Kind: EventRevealed, User: t.shoe.cutBy, Commitment: t.shoe.hash, Record: t.shoe.record(t.game, t.circle, t.deckNo)}
	if !t.shoe.cutScheme {
		ev.Deck = t.shoe.deck()
	}
	a.emit(ev)
	t.revealed, t.hasRevealed = t.shoe.hash, true
	t.shoe = shoe{}
}

// draw takes the top card of the deck. When the deck has run out, every
// card not in a live hand goes into a new deck first: shuffled at once, or
// waiting for its cut (Env.CutWait); then draw reports false, and the
// cut resumes the command with then.
func (a *applier) draw(then resume) (Card, bool) {
	t := &a.t
	if t.shoe.empty() {
		if t.ndiscard == 0 {
			a.fail(fmt.Errorf("%w: no card left to reshuffle", ErrInternal))
			return 0, false
		}
		a.reveal()
		waits := a.newDeck(t.discard[:t.ndiscard], then)
		if a.err != nil {
			return 0, false
		}
		a.emit(Event{Kind: EventReshuffled, Commitment: t.shoe.hash})
		if waits {
			a.askCut()
			return 0, false
		}
		t.ndiscard = 0
	}
	return t.shoe.draw(), true
}

// discardHand moves the hand's cards to the discard pile.
func (a *applier) discardHand(h *Hand) {
	t := &a.t
	for _, c := range h.cards[:h.n] {
		t.discard[t.ndiscard] = c
		t.ndiscard++
	}
	*h = Hand{}
}
