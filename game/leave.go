package game

import "fmt"

// Leaving, kicking and cancelling: how a seat or a table ends early.

// removeSeat frees seat i and keeps the banker and turn indexes pointing at
// the same players.
func (a *applier) removeSeat(i int) {
	t := &a.t
	copy(t.seats[i:], t.seats[i+1:t.nseats])
	t.nseats--
	t.seats[t.nseats] = Seat{}
	fix := func(p *int8) {
		switch {
		case int(*p) == i:
			*p = -1
		case int(*p) > i:
			*p--
		}
	}
	fix(&t.banker)
	fix(&t.turn)
	// lastBankerSeat keeps pointing at the previous banker or, once they
	// left, at the seat that came after them.
	if int(t.lastBankerSeat) > i {
		t.lastBankerSeat--
	}
}

func (a *applier) leave(cmd Command) error {
	if a.t.phase == Closed {
		return fmt.Errorf("%w: leave", ErrNoTable)
	}
	s, i := a.seat(cmd.User)
	if s == nil || s.Leaving {
		return ErrNotSeated
	}
	if a.t.phase == Lobby {
		a.removeSeat(i)
		a.emit(Event{Kind: EventLeft, User: cmd.User})
		if a.t.nseats == 0 {
			a.close(ReasonEmpty)
		}
		return nil
	}
	a.emit(Event{Kind: EventLeft, User: cmd.User})
	switch {
	case i == int(a.t.banker):
		// The banker leaving ends the game: bets back, bank to the banker.
		s.Leaving = true
		a.refundBets()
		a.sitOutRest(ReasonBankerLeft)
		a.endGame(ReasonLeft)
	case i == int(a.t.turn):
		s.Leaving = true
		switch a.t.phase {
		case Betting:
			a.sitOut(i, ReasonLeft)
			a.nextDuel()
		case Drawing:
			a.endDuel(Forfeit, Hand{}, ReasonLeft)
			a.nextDuel()
		case Cutting:
			// The duel whose card ran out is lost; the deck still waits
			// for its cut, which then plays the next duel. The banker's
			// cards drawn for it are put aside with the player's.
			a.discardHand(&a.t.wait.banker)
			a.endDuel(Forfeit, Hand{}, ReasonLeft)
			a.t.wait.then, a.t.wait.why = resumeDuel, ReasonNone
		}
	default:
		s.Leaving = true
		if s.State == Waiting {
			a.sitOut(i, ReasonLeft)
		}
	}
	a.reask(cmd.User)
	return nil
}

func (a *applier) kick(cmd Command) error {
	if a.t.phase == Closed {
		return fmt.Errorf("%w: kick", ErrNoTable)
	}
	s, i := a.seat(cmd.Target)
	if s == nil || s.Leaving {
		return ErrNotSeated
	}
	a.emit(Event{Kind: EventKicked, User: cmd.Target})
	if a.t.phase == Lobby {
		a.removeSeat(i)
		if a.t.nseats == 0 {
			a.close(ReasonEmpty)
		}
		return nil
	}
	// During a game nothing at stake is taken: a waiting player sits out, a
	// player in a duel finishes it, the banker finishes the game.
	s.Leaving = true
	if s.State == Waiting {
		a.sitOut(i, ReasonKicked)
	}
	a.reask(cmd.Target)
	return nil
}

func (a *applier) cancel() error {
	if a.t.phase == Closed {
		return fmt.Errorf("%w: cancel", ErrNoTable)
	}
	if a.t.phase.InGame() {
		a.refundBets()
		a.sitOutRest(ReasonCancelled)
		a.reveal()
		if a.t.bank > 0 {
			a.transfer(a.t.seats[a.t.banker].User, TransferBank, a.t.bank)
		}
		a.emit(Event{Kind: EventGameEnded, User: a.t.seats[a.t.banker].User, Amount: a.t.bank, Reason: ReasonCancelled})
		a.t.bank = 0
	}
	a.close(ReasonCancelled)
	return nil
}

// refundBets returns every bet on the table to its player.
func (a *applier) refundBets() {
	for i := range a.t.seats[:a.t.nseats] {
		s := &a.t.seats[i]
		if s.Bet > 0 {
			a.transfer(s.User, TransferRefund, s.Bet)
			s.Bet = 0
		}
	}
}

// close closes the table; what is on it must have been paid out.
func (a *applier) close(why Reason) {
	t := &a.t
	a.dropWait()
	t.phase = Closed
	t.closedBy = why
	t.seats = [MaxSeats]Seat{}
	t.nseats = 0
	t.banker, t.turn = -1, -1
	t.deadline = 0
	t.bank, t.circleBank, t.circle, t.knocks = 0, 0, 0, 0
	t.shoe, t.wait, t.deckNo = shoe{}, cutWait{}, 0
	t.ndiscard = 0
	a.emit(Event{Kind: EventClosed, Reason: why})
}
