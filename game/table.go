package game

import "time"

// Table limits.
const (
	// MaxSeats is the most players a table seats, the banker included.
	MaxSeats = 4
	// MinPlayers is the fewest players a game starts with, the banker included.
	MinPlayers = 2
	// LogSize is how many lines of the game's record a table keeps: every
	// duel and every circle sat out of the longest game. Each player but the
	// banker plays or sits out each circle once, and a game has at most
	// MaxKnocksLimit+1 circles, so a game's record always fits whole.
	LogSize = (MaxKnocksLimit + 1) * (MaxSeats - 1)
	// MaxNameLen is the longest name, in bytes, a seat keeps.
	MaxNameLen = 128
	// KnockFactor is how many times the bank must grow in a circle to knock.
	KnockFactor = 3
	// BankerStopsAt is the score at which the banker stops drawing.
	BankerStopsAt = 17
)

// UserID identifies a Telegram user.
type UserID int64

// Phase is the stage a table is in.
type Phase uint8

// The phases of a table.
const (
	// Closed: no table is open; Open opens one.
	Closed Phase = iota
	// Lobby: players join and leave; a seated player starts.
	Lobby
	// Betting: the player whose turn it is picks a bet.
	Betting
	// Drawing: the player whose turn it is draws or stands.
	Drawing
	// Cutting: a new deck waits for its cut before its first card is
	// drawn: at the start of a circle, or when the deck ran out in the
	// middle of one. Any seated player but the house may cut ([Cut]);
	// when nobody does before the deadline, Timeout deals it not cut.
	// [Table.Cut] says who is asked and what the deck is committed to.
	Cutting
)

var phaseNames = [...]string{"closed", "lobby", "betting", "drawing", "cutting"}

// String returns the phase's name.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "unknown"
}

// InGame reports whether a game is being played.
func (p Phase) InGame() bool { return p == Betting || p == Drawing || p == Cutting }

// SeatState is where a seated player stands in the current circle.
type SeatState uint8

// The states of a seat.
const (
	// Idle: no circle is being played (lobby), or the seat is the banker's.
	Idle SeatState = iota
	// Waiting: dealt a card, the duel is still to come.
	Waiting
	// Playing: the duel is being played now.
	Playing
	// Played: the duel of this circle is over.
	Played
	// SatOut: sits this circle out (no chips, timed out, left, bank broken).
	SatOut
)

// Seat is one seated player.
type Seat struct {
	User UserID
	Name string
	// Hand holds the card dealt at the start of the circle and those drawn
	// in the duel.
	Hand Hand
	// Bet is the player's bet on the table in the current duel.
	Bet   int64
	State SeatState
	// Leaving: the player left or was kicked during the game; the seat is
	// freed at the next safe moment.
	Leaving bool
}

// DuelResult is how a duel ended.
type DuelResult uint8

// How a duel ends.
const (
	// TwentyOne: the player reached 21 (Golden 21 and Five pictures
	// included) and won at once.
	TwentyOne DuelResult = iota + 1
	// PlayerBust: the player went over 21 and lost at once.
	PlayerBust
	// BankerBust: the banker went over 21; the player won.
	BankerBust
	// PlayerHigher: the player outscored the banker and won.
	PlayerHigher
	// BankerHigher: the banker outscored the player and won.
	BankerHigher
	// Tie: equal scores; the banker won.
	Tie
	// Forfeit: the player left after betting; the bet went to the bank.
	Forfeit
	// NoDuel: the player sat the circle out; no chips moved. Duel.Reason
	// says why: ReasonTimeout, ReasonNoChips, ReasonLeft or ReasonKicked
	// (a reason of the player's), or ReasonBankBroken, ReasonBankerLeft or
	// ReasonCancelled (the game ended before the player's duel).
	NoDuel
)

// PlayerWon reports whether the result is a win for the player.
func (r DuelResult) PlayerWon() bool { return r == TwentyOne || r == BankerBust || r == PlayerHigher }

// Duel is a line of the game's record: a finished duel, or a player sitting
// a circle out (Result NoDuel, no bet).
type Duel struct {
	Circle int
	User   UserID
	Name   string
	// Hand is the player's cards: those of the duel, or the one dealt to a
	// player who sat out.
	Hand Hand
	// Banker is the banker's hand, empty when the banker did not draw.
	Banker Hand
	Bet    int64
	Result DuelResult
	// Reason is ReasonTimeout when the player ran out of time: the banker
	// played a duel the player stood automatically, or the player sat out
	// at betting. For NoDuel it says why the player sat out; else
	// ReasonNone (ReasonLeft for Forfeit).
	Reason Reason
}

// Delta returns what the duel did to the bank: the bet it took, or minus the
// bet it paid; 0 when nothing was at stake.
func (d Duel) Delta() int64 {
	switch {
	case d.Result == NoDuel:
		return 0
	case d.Result.PlayerWon():
		return -d.Bet
	}
	return d.Bet
}

// entry is a line of the record as the table keeps it: the player is an
// index into the game's players, who hold the user and the name.
type entry struct {
	circle uint8
	player uint8
	result DuelResult
	why    Reason
	bet    int64
	hand   Hand
	banker Hand
}

// Participant is a player of the current or last game and what it brought
// them.
type Participant struct {
	User   UserID
	Name   string
	Banker bool
	// Net is the chips the game gave (positive) or took (negative).
	Net int64
}

// Reason says why something happened to a seat, a game or a table.
type Reason uint8

// The reasons.
const (
	ReasonNone Reason = iota
	// ReasonTimeout: the player did not act in time; the lobby expired.
	ReasonTimeout
	// ReasonNoChips: the balance covers no bet.
	ReasonNoChips
	// ReasonLeft: the player or banker left.
	ReasonLeft
	// ReasonKicked: an admin stood the player up.
	ReasonKicked
	// ReasonBankBroken: the bank is empty.
	ReasonBankBroken
	// ReasonFinished: the game ended by the rules.
	ReasonFinished
	// ReasonCancelled: an admin cancelled.
	ReasonCancelled
	// ReasonEmpty: the last player left the lobby.
	ReasonEmpty
	// ReasonEntryLimit: the balance fell below the entry limit.
	ReasonEntryLimit
	// ReasonBankerLeft: the banker left during the game, which ended it
	// before the player's duel (a line of the record only; the game ends
	// with ReasonLeft).
	ReasonBankerLeft
)

// Table is the whole state of one table. It is a value: copying it copies
// everything, and Apply never changes the Table it is given. The zero Table is
// a closed table at version 0.
type Table struct {
	version  uint64
	game     uint64
	phase    Phase
	settings Settings // the settings of the game being played or last played
	seats    [MaxSeats]Seat
	nseats   uint8
	banker   int8 // seat index of the banker, -1 when no game
	turn     int8 // seat index of the player in a duel, -1 when none
	deadline int64
	bank     int64
	// circleBank is the bank when the current circle began.
	circleBank int64
	circle     uint8
	knocks     uint8
	// lastBanker and lastBankerSeat place the banker of the previous game,
	// from whom the next banker is found.
	lastBanker     UserID
	lastBankerSeat int8
	shoe           shoe
	// deckNo is the number of the deck in play, or awaited, within the
	// circle: 1 for the circle's first, 2 after the first reshuffle.
	deckNo uint8
	// wait is the cut the table waits for in phase Cutting.
	wait     cutWait
	discard  [DeckSize]Card
	ndiscard uint8
	log      [LogSize]entry
	nlog     uint8
	// logCut: the log lost its oldest lines, as it outgrew LogSize (see
	// applier.record).
	logCut   bool
	players  [MaxSeats]Participant
	nplayers uint8
	// revealed is the commitment of the last deck revealed.
	revealed    Commitment
	hasRevealed bool
	// closedBy says why the table closed.
	closedBy Reason
}

// Version returns the table's version: it grows by one with every applied
// command.
func (t *Table) Version() uint64 { return t.version }

// Game returns how many games were started at this table; the number of the
// game being played, or of the last one.
func (t *Table) Game() uint64 { return t.game }

// Phase returns the table's phase.
func (t *Table) Phase() Phase { return t.phase }

// Settings returns the settings of the game being played, or of the last one
// played (zero when none was).
func (t *Table) Settings() Settings { return t.settings.Clone() }

// NumSeats returns how many players are seated.
func (t *Table) NumSeats() int { return int(t.nseats) }

// Seat returns the i-th seat, 0 ≤ i < NumSeats.
func (t *Table) Seat(i int) Seat { return t.seats[i] }

// Seats returns a copy of the seats, in seat order.
func (t *Table) Seats() []Seat { return append([]Seat(nil), t.seats[:t.nseats]...) }

// SeatOf returns the seat index of user, and whether they sit at the table.
func (t *Table) SeatOf(user UserID) (int, bool) {
	for i := range t.seats[:t.nseats] {
		if t.seats[i].User == user {
			return i, true
		}
	}
	return -1, false
}

// Banker returns the banker's seat index, and whether a game is played.
func (t *Table) Banker() (int, bool) { return int(t.banker), t.banker >= 0 && t.phase.InGame() }

// Turn returns the seat index of the player whose turn it is to bet, draw
// or stand, and whether there is one. While the table waits for a cut
// (phase Cutting) nobody is to move, also when the player whose card ran
// out waits for it: [Table.Cut] names whose draw the cut resumes.
func (t *Table) Turn() (int, bool) {
	return int(t.turn), t.turn >= 0 && (t.phase == Betting || t.phase == Drawing)
}

// Deadline returns when the current turn, cut wait or lobby times out;
// the zero time when nothing does.
func (t *Table) Deadline() time.Time {
	if t.deadline == 0 {
		return time.Time{}
	}
	return time.UnixMilli(t.deadline)
}

// Bank returns the chips in the bank.
func (t *Table) Bank() int64 { return t.bank }

// CircleBank returns what the bank held when the current circle began.
func (t *Table) CircleBank() int64 { return t.circleBank }

// Circle returns the number of the current circle in the game, from 1.
func (t *Table) Circle() int { return int(t.circle) }

// Knocks returns how many times the current game knocked.
func (t *Table) Knocks() int { return int(t.knocks) }

// Chips returns the chips on the table: the bank and every bet.
func (t *Table) Chips() int64 {
	sum := t.bank
	for i := range t.seats[:t.nseats] {
		sum += t.seats[i].Bet
	}
	return sum
}

// ChipsOf returns the user's chips on the table: the bank when they are
// the banker of the game being played, and their bet. The chips on a table
// are its players': Chips is the sum of every user's ChipsOf.
func (t *Table) ChipsOf(user UserID) int64 {
	var sum int64
	if i, ok := t.Banker(); ok && t.seats[i].User == user {
		sum += t.bank
	}
	if i, ok := t.SeatOf(user); ok {
		sum += t.seats[i].Bet
	}
	return sum
}

// Log returns the record of the current or last game, oldest first: every
// duel and every circle a player sat out, also when the game ended before
// their duel (the bank broken, the banker gone, the game cancelled), so
// that every player of the game has a line. See LogComplete.
func (t *Table) Log() []Duel {
	if t.nlog == 0 {
		return nil
	}
	out := make([]Duel, t.nlog)
	for i := range t.log[:t.nlog] {
		e := &t.log[i]
		p := &t.players[e.player]
		out[i] = Duel{Circle: int(e.circle), User: p.User, Name: p.Name, Hand: e.hand, Banker: e.banker,
			Bet: e.bet, Result: e.result, Reason: e.why}
	}
	return out
}

// LogComplete reports whether Log holds the game's record from its first
// duel: false only for a game whose record outgrew LogSize, which a game
// within the limits of Settings does not.
func (t *Table) LogComplete() bool { return !t.logCut }

// Players returns the players of the current or last game with their net
// results.
func (t *Table) Players() []Participant {
	return append([]Participant(nil), t.players[:t.nplayers]...)
}

// Commitment returns the commitment of the deck in play, or of the deck
// waiting for its cut, and whether there is one. For a deck of SchemeCut
// it is link k−1 of the table's chain, the hash of the deck's seed
// ([Seed.Hash]); for one of SchemeSalt, the SHA-256 of its preimage.
func (t *Table) Commitment() (Commitment, bool) {
	return t.shoe.hash, t.phase.InGame() && (t.shoe.n > 0 || t.phase == Cutting)
}

// Revealed returns the commitment of the last deck revealed, and whether a
// deck was revealed since the table opened.
func (t *Table) Revealed() (Commitment, bool) { return t.revealed, t.hasRevealed }

// Finished reports whether the table shows a finished game: the lobby or
// the closed table after one.
func (t *Table) Finished() bool { return !t.phase.InGame() && t.nplayers > 0 }

// ClosedBy returns why the table closed, when it is closed.
func (t *Table) ClosedBy() Reason { return t.closedBy }

// Offers returns the bets offered to the player whose turn it is, given their
// balance; nil when nobody is betting.
func (t *Table) Offers(balance int64) []Offer {
	if t.phase != Betting {
		return nil
	}
	return t.settings.Offers(t.bank, balance)
}

// Users returns the users whose balances a command at this table may read or
// change: everyone seated. Open and Join also read the balance of the
// command's user.
func (t *Table) Users() []UserID {
	users := make([]UserID, 0, t.nseats)
	for i := range t.seats[:t.nseats] {
		users = append(users, t.seats[i].User)
	}
	return users
}

// TurnStarted returns when the clock of the table's turn started: its
// deadline less the game's turn time. While the table waits for a cut
// (phase Cutting), the cut wait is the turn: it started at its deadline
// less the wait's length (at most the turn time), whoever is asked. It is
// the zero time when no player is to move against a deadline (the lobby's
// deadline is no turn).
func (t *Table) TurnStarted() time.Time {
	length, ok := t.turnLength()
	if !ok {
		return time.Time{}
	}
	return time.UnixMilli(t.deadline - length.Milliseconds())
}

// turnLength returns how long the clock of the table's turn, or cut wait,
// runs from its start, and whether one runs.
func (t *Table) turnLength() (time.Duration, bool) {
	switch _, turn := t.Turn(); {
	case t.deadline == 0:
		return 0, false
	case turn:
		return t.settings.TurnTimeout, true
	case t.phase == Cutting:
		return t.wait.length, true
	}
	return 0, false
}

// ShowTurn returns the table as its players first see its turn, or its
// cut wait, at now. A turn's clock is to run only while the turn is
// shown: when it started more than late before now (the message that
// shows the turn waited to be sent), it starts again at now, the whole
// turn time ahead (a cut wait: its whole length), and ShowTurn reports
// true. Otherwise, and at a table with no turn, it returns t as it is,
// and false.
//
// The version stays: nobody acted, and no button drawn for the table goes
// out of date. A timeout made for the version before its deadline moved is
// refused as too early (ErrTooEarly), as any early timeout is.
func ShowTurn(t Table, now time.Time, late time.Duration) (Table, bool) {
	started := t.TurnStarted()
	if started.IsZero() || now.Sub(started) <= late {
		return t, false
	}
	length, _ := t.turnLength()
	t.deadline = now.UnixMilli() + length.Milliseconds()
	return t, true
}
