package game

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Apply applies cmd to t and returns the new table and what happened. A
// rejected command returns t itself, an empty Outcome and an error wrapping
// one of this package's errors.
func Apply(t Table, cmd Command, env Env) (Table, Outcome, error) {
	if cmd.Version != 0 && cmd.Version != t.version {
		return t, Outcome{}, fmt.Errorf("%w: made for version %d, the table is at %d", ErrOutdated, cmd.Version, t.version)
	}
	if env.Rand == nil {
		env.Rand = CryptoRand()
	}
	a := applier{t: t, env: env, now: env.Now.UnixMilli()}
	var err error
	switch cmd.Kind {
	case Open:
		err = a.open(cmd)
	case Join:
		err = a.join(cmd)
	case Leave:
		err = a.leave(cmd)
	case Start:
		err = a.start(cmd)
	case Bet:
		err = a.bet(cmd)
	case Hit:
		err = a.hit(cmd)
	case Stand:
		err = a.stand(cmd)
	case Timeout:
		err = a.timeout()
	case Cancel:
		err = a.cancel()
	case Kick:
		err = a.kick(cmd)
	case Cut:
		err = a.cut(cmd)
	default:
		err = fmt.Errorf("%w: unknown command %d", ErrInvalidInput, cmd.Kind)
	}
	if err == nil {
		err = a.err
	}
	if err != nil {
		return t, Outcome{}, err
	}
	a.t.version++
	return a.t, a.outcome(), nil
}

// Most commands cause a few events and transfers: the applier collects them
// in fixed buffers and allocates each slice of the Outcome once, at its size.
const (
	eventBuf    = 8
	transferBuf = 8
)

// applier holds a command being applied: a working copy of the table and
// what the command has caused so far.
type applier struct {
	t   Table
	env Env
	now int64
	// events and transfers hold what the command caused, in order: the
	// first ones in the buffers, any more in the slices.
	events     []Event
	transfers  []Transfer
	nevents    int
	ntransfers int
	eventBuf   [eventBuf]Event
	transBuf   [transferBuf]Transfer
	// err is the first failure deep in the rules that cannot return one
	// (the seed source failed): the command is then rejected with it.
	err error
}

// fail keeps the first failure of the command.
func (a *applier) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

func (a *applier) emit(e Event) {
	if a.nevents < eventBuf {
		a.eventBuf[a.nevents] = e
	} else {
		a.events = append(a.events, e)
	}
	a.nevents++
}

// outcome returns what the command caused, in slices of their own.
func (a *applier) outcome() Outcome {
	var out Outcome
	if a.nevents > 0 {
		out.Events = make([]Event, 0, a.nevents)
		out.Events = append(out.Events, a.eventBuf[:min(a.nevents, eventBuf)]...)
		out.Events = append(out.Events, a.events...)
	}
	if a.ntransfers > 0 {
		out.Transfers = make([]Transfer, 0, a.ntransfers)
		out.Transfers = append(out.Transfers, a.transBuf[:min(a.ntransfers, transferBuf)]...)
		out.Transfers = append(out.Transfers, a.transfers...)
	}
	return out
}

// balance returns the user's balance including this command's transfers.
func (a *applier) balance(u UserID) int64 {
	var b int64
	if a.env.Balances != nil {
		b = a.env.Balances.Balance(u)
	}
	for _, tr := range a.transBuf[:min(a.ntransfers, transferBuf)] {
		if tr.User == u {
			b += tr.Amount
		}
	}
	for _, tr := range a.transfers {
		if tr.User == u {
			b += tr.Amount
		}
	}
	return b
}

// transfer records a chip movement and adds it to the user's net result.
func (a *applier) transfer(u UserID, kind TransferKind, amount int64) {
	tr := Transfer{User: u, Kind: kind, Amount: amount}
	if a.ntransfers < transferBuf {
		a.transBuf[a.ntransfers] = tr
	} else {
		a.transfers = append(a.transfers, tr)
	}
	a.ntransfers++
	for i := range a.t.players[:a.t.nplayers] {
		if a.t.players[i].User == u {
			a.t.players[i].Net += amount
		}
	}
}

func (a *applier) seat(u UserID) (*Seat, int) {
	i, ok := a.t.SeatOf(u)
	if !ok {
		return nil, -1
	}
	return &a.t.seats[i], i
}

// requirePhase rejects a command outside the given phases, naming why.
func (a *applier) requirePhase(cmd CommandKind, phases ...Phase) error {
	for _, p := range phases {
		if a.t.phase == p {
			return nil
		}
	}
	switch {
	case a.t.phase == Closed:
		return fmt.Errorf("%w: %s", ErrNoTable, cmd)
	case a.t.phase.InGame() && !contains(phases, Betting) && !contains(phases, Drawing):
		return fmt.Errorf("%w: %s", ErrGameInProgress, cmd)
	}
	return fmt.Errorf("%w: %s during %s", ErrWrongPhase, cmd, a.t.phase)
}

func contains(ps []Phase, p Phase) bool {
	for _, x := range ps {
		if x == p {
			return true
		}
	}
	return false
}

// lobbyDeadline returns when the lobby times out under the chat's current
// settings, or the game's when those are out of range.
func (a *applier) lobbyDeadline() int64 {
	d := a.env.Settings.LobbyTimeout
	if d < MinLobbyTimeout || d > MaxLobbyTimeout {
		d = a.t.settings.LobbyTimeout
	}
	return a.now + d.Milliseconds()
}

func (a *applier) turnDeadline() int64 {
	return a.now + a.t.settings.TurnTimeout.Milliseconds()
}

// cleanName makes a name valid UTF-8 of at most MaxNameLen bytes: invalid
// bytes become U+FFFD first, then the name is cut at a rune boundary.
func cleanName(name string) string {
	name = strings.ToValidUTF8(name, "\uFFFD")
	if len(name) > MaxNameLen {
		name = name[:MaxNameLen]
		for !utf8.ValidString(name) {
			name = name[:len(name)-1]
		}
	}
	return name
}

func (a *applier) open(cmd Command) error {
	if a.t.phase != Closed {
		return ErrTableOpen
	}
	if cmd.User == 0 {
		return fmt.Errorf("%w: open needs a user", ErrInvalidInput)
	}
	if err := a.env.Settings.Validate(); err != nil {
		return err
	}
	a.t = Table{version: a.t.version, game: a.t.game, phase: Lobby, banker: -1, turn: -1, lastBankerSeat: 0}
	a.t.settings = a.env.Settings.Clone()
	a.t.deadline = a.lobbyDeadline()
	a.emit(Event{Kind: EventOpened, User: cmd.User})
	if a.balance(cmd.User) >= a.env.Settings.EntryLimit {
		a.sit(cmd.User, cmd.Name)
		a.autoStart(cmd.User)
	}
	return nil
}

func (a *applier) sit(u UserID, name string) {
	a.t.seats[a.t.nseats] = Seat{User: u, Name: cleanName(name)}
	a.t.nseats++
	a.emit(Event{Kind: EventJoined, User: u})
}

func (a *applier) join(cmd Command) error {
	if err := a.requirePhase(Join, Lobby); err != nil {
		return err
	}
	if cmd.User == 0 {
		return fmt.Errorf("%w: join needs a user", ErrInvalidInput)
	}
	if err := a.env.Settings.Validate(); err != nil {
		return err
	}
	if _, ok := a.t.SeatOf(cmd.User); ok {
		return ErrAlreadySeated
	}
	if a.t.nseats >= MaxSeats {
		return fmt.Errorf("%w: %d of %d seats taken", ErrTableFull, a.t.nseats, MaxSeats)
	}
	if have, need := a.balance(cmd.User), a.env.Settings.EntryLimit; have < need {
		return fmt.Errorf("%w: need %d, have %d", ErrBelowEntryLimit, need, have)
	}
	a.sit(cmd.User, cmd.Name)
	a.t.deadline = a.lobbyDeadline()
	a.autoStart(cmd.User)
	return nil
}

// autoStart starts the game as a Start by u, who just sat down, would,
// when that took the lobby's last seat and the chat's settings ask for it
// (Settings.AutoStart): one command, one transaction. A start that cannot
// be (nobody can pay the stake) leaves the lobby as the seat left it.
func (a *applier) autoStart(u UserID) {
	if !a.env.Settings.AutoStart || a.t.nseats < MaxSeats {
		return
	}
	seated := *a
	if err := a.start(Command{Kind: Start, User: u}); err != nil {
		*a = seated
	}
}

func (a *applier) start(cmd Command) error {
	if err := a.requirePhase(Start, Lobby); err != nil {
		return err
	}
	if _, ok := a.t.SeatOf(cmd.User); !ok {
		return ErrNotSeated
	}
	st := a.env.Settings
	if err := st.Validate(); err != nil {
		return err
	}
	// Too few seated is refused before anyone stands up: a start that
	// could not be one changes nothing, whatever the balances.
	if a.t.nseats < MinPlayers {
		return fmt.Errorf("%w: %d seated, %d needed", ErrNotEnoughPlayers, a.t.nseats, MinPlayers)
	}
	for i := int(a.t.nseats) - 1; i >= 0; i-- {
		u := a.t.seats[i].User
		if a.balance(u) < st.EntryLimit {
			a.removeSeat(i)
			a.emit(Event{Kind: EventStoodUp, User: u, Reason: ReasonEntryLimit})
		}
	}
	if a.t.nseats < MinPlayers {
		// Some stood up: the start is that, and the lobby waits for more.
		if a.t.nseats == 0 {
			a.close(ReasonEntryLimit)
		}
		return nil
	}
	banker := a.nextBanker(st.Stake)
	if banker < 0 {
		return fmt.Errorf("%w: nobody can pay the stake %d", ErrNotEnoughPlayers, st.Stake)
	}
	t := &a.t
	t.game++
	t.settings = st.Clone()
	t.banker = int8(banker)
	t.knocks, t.circle, t.nlog, t.logCut = 0, 0, 0, false
	t.nplayers = t.nseats
	for i := range t.seats[:t.nseats] {
		t.seats[i].Hand, t.seats[i].Bet, t.seats[i].State = Hand{}, 0, Idle
		t.players[i] = Participant{User: t.seats[i].User, Name: t.seats[i].Name, Banker: i == banker}
	}
	bu := t.seats[banker].User
	a.transfer(bu, TransferStake, -st.Stake)
	t.bank = st.Stake
	a.emit(Event{Kind: EventStarted, User: bu, Amount: st.Stake})
	a.startCircle()
	return nil
}

// nextBanker returns the seat of the next banker: at random for the table's
// first game, else the seat after the previous banker that can pay the
// stake; -1 when nobody can.
func (a *applier) nextBanker(stake int64) int {
	n := int(a.t.nseats)
	from := 0
	switch i, ok := a.t.SeatOf(a.t.lastBanker); {
	case a.t.lastBanker == 0:
		from = a.env.Rand.IntN(n)
	case ok:
		from = i + 1
	default:
		// The previous banker left: their old seat now holds the next player.
		from = int(a.t.lastBankerSeat)
	}
	for k := 0; k < n; k++ {
		i := (from + k) % n
		if a.balance(a.t.seats[i].User) >= stake {
			return i
		}
	}
	return -1
}

func (a *applier) bet(cmd Command) error {
	if err := a.requirePhase(Bet, Betting); err != nil {
		return err
	}
	s, err := a.current(cmd.User)
	if err != nil {
		return err
	}
	var buf [MaxBetOptions]Offer
	n := a.t.settings.offers(a.t.bank, a.balance(cmd.User), &buf)
	offered := false
	for _, o := range buf[:n] {
		offered = offered || o.Amount == cmd.Amount
	}
	if !offered {
		return fmt.Errorf("%w: %d", ErrBetNotOffered, cmd.Amount)
	}
	a.transfer(cmd.User, TransferBet, -cmd.Amount)
	s.Bet = cmd.Amount
	a.t.phase = Drawing
	a.t.deadline = a.turnDeadline()
	a.emit(Event{Kind: EventBet, User: cmd.User, Amount: cmd.Amount})
	return nil
}

// current returns the seat of the player whose turn it is, who must be u.
func (a *applier) current(u UserID) (*Seat, error) {
	s := &a.t.seats[a.t.turn]
	if s.User != u {
		return nil, fmt.Errorf("%w: it is %s's turn", ErrNotYourTurn, s.Name)
	}
	return s, nil
}

func (a *applier) hit(cmd Command) error {
	if err := a.requirePhase(Hit, Drawing); err != nil {
		return err
	}
	if _, err := a.current(cmd.User); err != nil {
		return err
	}
	if c, ok := a.draw(resumeHit); ok {
		a.hitWith(c)
	}
	return nil
}

// hitWith gives the player whose turn it is the card c they drew, and
// ends their duel at 21 or over.
func (a *applier) hitWith(c Card) {
	s := &a.t.seats[a.t.turn]
	if !s.Hand.add(c) {
		a.fail(fmt.Errorf("%w: hand overflow", ErrInternal))
		return
	}
	score := s.Hand.Score()
	a.emit(Event{Kind: EventDrew, User: s.User, Card: c, Score: score})
	switch {
	case score == 21:
		a.endDuel(TwentyOne, Hand{}, ReasonNone)
		a.nextDuel()
	case score > 21:
		a.endDuel(PlayerBust, Hand{}, ReasonNone)
		a.nextDuel()
	default:
		a.t.deadline = a.turnDeadline()
	}
}

func (a *applier) stand(cmd Command) error {
	if err := a.requirePhase(Stand, Drawing); err != nil {
		return err
	}
	if _, err := a.current(cmd.User); err != nil {
		return err
	}
	return a.bankerPlays(ReasonNone)
}

// bankerPlays draws the banker's hand for the current duel and settles it;
// why is ReasonTimeout when the player stood by running out of time.
func (a *applier) bankerPlays(why Reason) error { return a.bankerDraws(Hand{}, why) }

// bankerDraws draws the banker's hand for the current duel on from bh and
// settles the duel; when the deck runs out and the new one waits for its
// cut, the table keeps bh and why for the cut to resume.
func (a *applier) bankerDraws(bh Hand, why Reason) error {
	for bh.Score() < BankerStopsAt {
		c, ok := a.draw(resumeBanker)
		if !ok {
			a.t.wait.banker, a.t.wait.why = bh, why
			return nil
		}
		if !bh.add(c) {
			return fmt.Errorf("%w: banker hand overflow", ErrInternal)
		}
		a.emit(Event{Kind: EventBankerDrew, User: a.t.seats[a.t.banker].User, Card: c, Score: bh.Score()})
	}
	ps, bs := a.t.seats[a.t.turn].Hand.Score(), bh.Score()
	var r DuelResult
	switch {
	case bs > 21:
		r = BankerBust
	case ps > bs:
		r = PlayerHigher
	case ps == bs:
		r = Tie
	default:
		r = BankerHigher
	}
	a.endDuel(r, bh, why)
	a.nextDuel()
	return nil
}

func (a *applier) timeout() error {
	if a.t.phase == Closed {
		return fmt.Errorf("%w: timeout", ErrNoTable)
	}
	if a.t.deadline == 0 || a.now < a.t.deadline {
		return fmt.Errorf("%w: due at %d, now %d", ErrTooEarly, a.t.deadline, a.now)
	}
	switch a.t.phase {
	case Lobby:
		a.close(ReasonTimeout)
	case Betting:
		a.sitOut(int(a.t.turn), ReasonTimeout)
		a.nextDuel()
	case Drawing:
		return a.bankerPlays(ReasonTimeout)
	case Cutting:
		return a.cutDeck(0, "")
	}
	return nil
}
