package game

import (
	"fmt"
	"time"
)

// DefaultCutWait is how long a deck waits for its cut at the bot's
// tables: long enough for a tap, short enough that a table whose players
// do not care does not stall. The wait never exceeds the game's turn
// timeout (MinTurnTimeout is 10 s).
const DefaultCutWait = 15 * time.Second

// Link is one link of a table's hash chain: the server seed of one deck
// of SchemeCut, committed to by the link before it ([Seed.Hash]).
type Link struct {
	// Seed is S_k, the deck's server seed: secret until the deck is
	// revealed.
	Seed Seed
	// Index is k, from 1.
	Index uint32
	// Head is S_0, the chain's head, shown before any of its seeds is
	// used.
	Head Seed
}

// SeedSource gives a table the server seeds of its decks, the links of
// its chain in turn: no link is used twice, none is skipped.
type SeedSource interface {
	// NextLink takes the next link of the table's chain, for a deck about
	// to be asked for its cut. A command the rules reject, or that fails,
	// takes none: storage writes what was taken with the table, in the
	// command's transaction.
	NextLink() (Link, error)
	// PutBack gives back the link NextLink gave last, whose deck was
	// never dealt: its game ended while the deck waited for its cut. Its
	// seed was never revealed, so the table's next deck takes it again.
	PutBack(l Link)
}

// Deriver puts the cards of a deck of SchemeCut in their order. The rules
// use [DeriveOrder]; a test may stack its decks instead
// (gametest.Stacked).
type Deriver interface {
	// DeriveOrder returns the order of the deck whose seed, place (game,
	// circle, deck) and cut are given, of cards, which are in canonical
	// order; see [DeriveOrder].
	DeriveOrder(seed Seed, game uint64, circle, deck uint32, cut []byte, cards []Card) ([]Card, error)
}

// rules is the Deriver of the rules: DeriveOrder.
type rules struct{}

func (rules) DeriveOrder(seed Seed, game uint64, circle, deck uint32, cut []byte, cards []Card) ([]Card, error) {
	return DeriveOrder(seed, game, circle, deck, cut, cards)
}

// oneLink is the SeedSource of an Env without one: each deck a chain of
// one link of its own, its seed drawn from r.
type oneLink struct{ r Rand }

func (o oneLink) NextLink() (Link, error) {
	c := Chain{Secret: NewChain(o.r).Secret, Length: 1}
	return Link{Seed: c.Secret, Index: 1, Head: c.Head()}, nil
}

func (oneLink) PutBack(Link) {}

// resume is what the cut of an awaited deck goes on with.
type resume uint8

const (
	// resumeDeal: the circle's first card to every player, then the
	// first duel.
	resumeDeal resume = iota + 1
	// resumeHit: the card the player's Hit needed.
	resumeHit
	// resumeBanker: the banker's hand for the duel, from the cards
	// wait.banker holds.
	resumeBanker
	// resumeDuel: the duel that needed a card ended without it (its
	// player left): the next duel.
	resumeDuel
)

// cutWait is the cut a table waits for in phase Cutting.
type cutWait struct {
	// asked is who is asked to cut: the first seated player after the
	// banker who is neither the house nor leaving, else the banker; 0
	// when neither may cut.
	asked UserID
	then  resume
	// banker is the banker's hand drawn before the deck ran out, and why
	// the banker plays (ReasonTimeout: the player stood by the clock),
	// for resumeBanker.
	banker Hand
	why    Reason
	// length is how long the wait runs, min(Env.CutWait, TurnTimeout)
	// when the deck was asked for its cut: the deadline is length after
	// the wait started, and ShowTurn starts it again for length.
	length time.Duration
}

// CutState is the cut of the deck a table plays, or waits for.
type CutState struct {
	// Waiting: the table waits for the cut (phase Cutting), until
	// Deadline.
	Waiting  bool
	Deadline time.Time
	// Asked is who the table asks to cut (Waiting); 0 when no seated
	// player but the house could cut.
	Asked UserID
	// Resumes is whose draw the cut resumes (Waiting): the player whose
	// card, or whose duel's banker's card, ran out; 0 at the start of a
	// circle.
	Resumes UserID
	// By is who cut the deck in play (not Waiting); 0 when nobody did:
	// the deck is "not cut".
	By UserID
	// Cut is the cut of the deck in play: its bytes as the cutter gave
	// them.
	Cut []byte
	// Commitment is what the deck is committed to, link Link−1 of the
	// chain whose head is Head.
	Commitment Commitment
	Link       uint32
	Head       Seed
	// Deck is the deck's number in the circle: 1 for the circle's first.
	Deck int
}

// Cut returns the cut of the deck the table plays or waits for, and
// whether that deck is of SchemeCut (a deck of SchemeSalt has none).
func (t *Table) Cut() (CutState, bool) {
	s := &t.shoe
	if !t.phase.InGame() || !s.cutScheme {
		return CutState{}, false
	}
	c := CutState{Commitment: s.hash, Link: s.link, Head: s.head, Deck: int(t.deckNo)}
	if t.phase != Cutting {
		c.By = s.cutBy
		if s.cut != "" {
			c.Cut = []byte(s.cut)
		}
		return c, true
	}
	c.Waiting, c.Deadline, c.Asked = true, t.Deadline(), t.wait.asked
	if t.turn >= 0 {
		c.Resumes = t.seats[t.turn].User
	}
	return c, true
}

// cutWaitLength returns how long a cut wait runs: CutWait, at most the
// game's turn timeout, in whole milliseconds (as the deadline is).
func (a *applier) cutWaitLength() time.Duration {
	return min(a.env.CutWait, a.t.settings.TurnTimeout).Truncate(time.Millisecond)
}

// newDeck makes the shoe a new deck of cards, the circle's next: shuffled
// with salt at once when no cut is asked (Env.CutWait 0), else waiting
// for its cut, which goes on with then. It reports whether the deck
// waits; cards are for the deck shuffled at once (a deck that waits takes
// its cards at the cut). The events announcing the deck are the caller's
// to emit after it, with its commitment.
func (a *applier) newDeck(cards []Card, then resume) bool {
	t := &a.t
	t.deckNo++
	if a.env.CutWait <= 0 {
		t.shoe.fill(cards, a.env.Rand)
		return false
	}
	l, err := a.seeds().NextLink()
	if err == nil && l.Index == 0 {
		err = fmt.Errorf("%w: link 0 of a chain, its head, seeds no deck", ErrInternal)
	}
	if err != nil {
		a.fail(err)
		return false
	}
	t.shoe.await(l)
	t.wait = cutWait{asked: a.asker(), then: then, length: a.cutWaitLength()}
	t.phase = Cutting
	t.deadline = a.now + t.wait.length.Milliseconds()
	return true
}

// seeds returns the Env's SeedSource, or a chain of one link per deck.
func (a *applier) seeds() SeedSource {
	if a.env.Seeds == nil {
		return oneLink{a.env.Rand}
	}
	return a.env.Seeds
}

// dropWait gives the link of the deck waiting for its cut back to the
// chain, when the game ends before it is dealt.
func (a *applier) dropWait() {
	if s := &a.t.shoe; a.t.phase == Cutting && s.cutScheme && s.n == 0 {
		a.seeds().PutBack(Link{Seed: s.seed, Index: s.link, Head: s.head})
	}
}

// askCut announces the deck waiting for its cut.
func (a *applier) askCut() {
	t := &a.t
	a.emit(Event{Kind: EventCutAsked, User: t.wait.asked, Commitment: t.shoe.hash, Amount: int64(t.deckNo)})
}

// asker returns who is asked to cut: the first seated player after the
// banker who is neither the house nor leaving; else the banker (a table
// of the banker and the house: solo play with the player as banker),
// unless the banker is the house or leaving; else 0.
func (a *applier) asker() UserID {
	t := &a.t
	n := int(t.nseats)
	for k := 1; k <= n; k++ {
		s := &t.seats[(int(t.banker)+k)%n]
		if s.User != a.env.House && !s.Leaving {
			return s.User
		}
	}
	return 0
}

// reask asks another player to cut when the one asked leaves the table
// while it waits.
func (a *applier) reask(u UserID) {
	if a.t.phase == Cutting && a.t.wait.asked == u {
		a.t.wait.asked = a.asker()
	}
}

// cut applies a Cut: the first cut of the deck the table waits for, by a
// seated player who is not the house and not leaving, of 1 to MaxCutLen
// bytes.
func (a *applier) cut(cmd Command) error {
	switch {
	case len(cmd.Text) > MaxCutLen:
		return fmt.Errorf("%w: %d bytes, at most %d", ErrCutTooLong, len(cmd.Text), MaxCutLen)
	case cmd.Text == "":
		// An empty cut is the one nobody gave: the record could not tell
		// them apart.
		return fmt.Errorf("%w: an empty cut", ErrInvalidInput)
	}
	switch t := &a.t; t.phase {
	case Closed:
		return fmt.Errorf("%w: cut", ErrNoTable)
	case Lobby:
		return ErrNoCutAsked
	case Betting, Drawing:
		if t.shoe.cutScheme && t.shoe.cutBy != 0 {
			return fmt.Errorf("%w by user %d", ErrAlreadyCut, t.shoe.cutBy)
		}
		return ErrCutTooLate
	}
	if s, _ := a.seat(cmd.User); s == nil || s.Leaving {
		return ErrNotSeated
	}
	if cmd.User == a.env.House {
		return ErrHouseCannotCut
	}
	return a.cutDeck(cmd.User, cmd.Text)
}

// cutDeck cuts the deck the table waits for with cut, by user by (0: the
// wait timed out, nobody cut), derives its order from its seed, its place
// and the cut, and goes on as the wait says.
func (a *applier) cutDeck(by UserID, cut string) error {
	t := &a.t
	w := t.wait
	t.wait = cutWait{}
	s := &t.shoe
	s.cutBy = by
	s.cut = cut
	a.emit(Event{Kind: EventCut, User: by})
	var cards []Card
	if w.then == resumeDeal {
		deck := fullDeck()
		cards = deck[:]
	} else {
		cards = append(cards, t.discard[:t.ndiscard]...)
		SortCanonical(cards)
		t.ndiscard = 0
	}
	d := a.env.Deriver
	if d == nil {
		d = rules{}
	}
	// The cut handed to the Deriver is a copy: a slice of the table
	// would move the applier to the heap for every command.
	var text []byte
	if len(cut) > 0 {
		text = []byte(cut)
	}
	order, err := d.DeriveOrder(s.seed, t.game, uint32(t.circle), uint32(t.deckNo), text, cards)
	if err == nil && len(order) != len(cards) {
		err = fmt.Errorf("%w: %d cards derived from %d", ErrInternal, len(order), len(cards))
	}
	if err != nil {
		return err
	}
	s.n, s.drawn = uint8(copy(s.order[:], order)), 0
	t.deadline = 0
	switch w.then {
	case resumeDeal:
		a.deal()
	case resumeHit:
		t.phase = Drawing
		c, _ := a.draw(resumeHit) // the new deck holds a card at least
		a.hitWith(c)
	case resumeBanker:
		t.phase = Drawing
		return a.bankerDraws(w.banker, w.why)
	case resumeDuel:
		a.nextDuel()
	default:
		return fmt.Errorf("%w: a cut resuming %d", ErrInternal, w.then)
	}
	return nil
}

// Relink gives the deck the table waits for its cut link l in place of
// the link it holds, and reports whether the table waited for a cut (else
// it changes nothing). It is for a store restored from a copy: the copy
// was taken while the deck waited, and the file it replaced may have
// dealt that deck and revealed its seed since; a seed once revealed must
// never be dealt again. The wait, whom it asks and its deadline stay; the
// commitment becomes l's, and the version moves on, so that a button
// pressed under the commitment of before is stale.
func (t *Table) Relink(l Link) bool {
	if t.phase != Cutting || !t.shoe.cutScheme || t.shoe.n != 0 || l.Index == 0 {
		return false
	}
	t.shoe.await(l)
	t.version++
	return true
}
