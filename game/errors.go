package game

import "errors"

// The errors a rejected command returns, wrapped with detail. Compare them
// with errors.Is. [Kind] sorts them into the few kinds the bot answers
// differently.
var (
	// ErrInvalidInput: a command or value that is malformed whatever the state.
	ErrInvalidInput = errors.New("invalid input")
	// ErrInvalidSettings: settings that break a limit.
	ErrInvalidSettings = errors.New("invalid settings")
	// ErrOutdated: the command was made for an earlier version of the table.
	ErrOutdated = errors.New("the table has moved on")
	// ErrWrongPhase: the command is not allowed in the table's phase.
	ErrWrongPhase = errors.New("not allowed now")
	// ErrNoTable: there is no open table.
	ErrNoTable = errors.New("no table is open")
	// ErrTableOpen: a table is already open.
	ErrTableOpen = errors.New("a table is already open")
	// ErrGameInProgress: the command waits for the game to end.
	ErrGameInProgress = errors.New("a game is in progress")
	// ErrNotYourTurn: another player is to act.
	ErrNotYourTurn = errors.New("not your turn")
	// ErrNotSeated: the user does not sit at the table.
	ErrNotSeated = errors.New("not seated at the table")
	// ErrAlreadySeated: the user already sits at the table.
	ErrAlreadySeated = errors.New("already seated")
	// ErrTableFull: every seat is taken.
	ErrTableFull = errors.New("the table is full")
	// ErrBelowEntryLimit: the user's balance is below the entry limit.
	ErrBelowEntryLimit = errors.New("balance below the entry limit")
	// ErrNotEnoughPlayers: fewer than two players can play.
	ErrNotEnoughPlayers = errors.New("not enough players")
	// ErrBetNotOffered: the bet is not one of the offered amounts.
	ErrBetNotOffered = errors.New("bet not offered")
	// ErrInsufficientBalance: the balance does not cover the amount.
	ErrInsufficientBalance = errors.New("insufficient balance")
	// ErrTooEarly: a timeout before its deadline.
	ErrTooEarly = errors.New("the deadline has not passed")
	// ErrCutTooLong: a cut of more than MaxCutLen bytes.
	ErrCutTooLong = errors.New("the cut is too long")
	// ErrNoCutAsked: a cut where no game is played, so no deck waits.
	ErrNoCutAsked = errors.New("no deck waits for a cut")
	// ErrAlreadyCut: a cut of a deck somebody cut already.
	ErrAlreadyCut = errors.New("the deck was cut already")
	// ErrCutTooLate: a cut of a deck that was dealt from without one:
	// nobody cut it in time (or it was of the days before the cut).
	ErrCutTooLate = errors.New("the deck was dealt without a cut")
	// ErrHouseCannotCut: the house never cuts.
	ErrHouseCannotCut = errors.New("the house never cuts")
	// ErrCommitmentMismatch: a revealed deck does not hash to its commitment.
	ErrCommitmentMismatch = errors.New("deck does not match its commitment")
	// ErrCorrupt: encoded bytes that do not decode to a valid table.
	ErrCorrupt = errors.New("corrupt table encoding")
	// ErrUnknownVersion: an encoding of a version this code does not know.
	ErrUnknownVersion = errors.New("unknown table encoding version")
	// ErrInternal: a broken invariant; a bug, never the user's fault.
	ErrInternal = errors.New("internal error")
)

// ErrorKind is the kind of a rejection, for choosing how to answer it.
type ErrorKind uint8

// The kinds of rejection.
const (
	KindInternal ErrorKind = iota
	KindInvalid
	KindOutdated
	KindNotYourTurn
	KindNotAllowed
)

// Kind returns the kind of err: outdated, not your turn, invalid input, not
// allowed, or internal for anything else.
func Kind(err error) ErrorKind {
	switch {
	case errors.Is(err, ErrOutdated):
		return KindOutdated
	case errors.Is(err, ErrNotYourTurn):
		return KindNotYourTurn
	case errors.Is(err, ErrInvalidInput), errors.Is(err, ErrInvalidSettings), errors.Is(err, ErrBetNotOffered),
		errors.Is(err, ErrCutTooLong):
		return KindInvalid
	case errors.Is(err, ErrWrongPhase), errors.Is(err, ErrNoTable), errors.Is(err, ErrTableOpen),
		errors.Is(err, ErrGameInProgress), errors.Is(err, ErrNotSeated), errors.Is(err, ErrAlreadySeated),
		errors.Is(err, ErrTableFull), errors.Is(err, ErrBelowEntryLimit), errors.Is(err, ErrNotEnoughPlayers),
		errors.Is(err, ErrInsufficientBalance), errors.Is(err, ErrTooEarly), errors.Is(err, ErrNoCutAsked),
		errors.Is(err, ErrAlreadyCut), errors.Is(err, ErrCutTooLate), errors.Is(err, ErrHouseCannotCut):
		return KindNotAllowed
	}
	return KindInternal
}
