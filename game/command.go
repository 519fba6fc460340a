package game

import "time"

// CommandKind says what a command does.
type CommandKind uint8

// The commands a table takes.
const (
	// Open opens a table in a closed one and seats the opener when their
	// balance reaches the entry limit.
	Open CommandKind = iota + 1
	// Join seats the user in the lobby.
	Join
	// Leave stands the user up; during a game see rules.md.
	Leave
	// Start starts a game from the lobby (also "Play again").
	Start
	// Bet places the bet Amount for the player whose turn it is.
	Bet
	// Hit draws a card for the player whose turn it is.
	Hit
	// Stand ends the player's drawing; the banker draws.
	Stand
	// Timeout acts for whoever let the deadline pass.
	Timeout
	// Cancel (admin) refunds every bet, returns the bank and closes the table.
	Cancel
	// Kick (admin) stands Target up at the next safe moment.
	Kick
)

var commandNames = [...]string{"", "open", "join", "leave", "start", "bet", "hit", "stand", "timeout", "cancel", "kick"}

// String returns the command's name.
func (k CommandKind) String() string {
	if int(k) < len(commandNames) && k != 0 {
		return commandNames[k]
	}
	return "unknown"
}

// Command is one action on a table.
type Command struct {
	Kind CommandKind
	// User is who acts; zero for Timeout.
	User UserID
	// Name is the user's display name (Open, Join).
	Name string
	// Amount is the bet (Bet).
	Amount int64
	// Target is the user to stand up (Kick).
	Target UserID
	// Version, when not zero, is the table version the command was made
	// for; a table at another version rejects it with ErrOutdated.
	Version uint64
}

// Balances gives the chips a user holds in the chat.
type Balances interface {
	Balance(user UserID) int64
}

// BalanceMap is Balances held in a map.
type BalanceMap map[UserID]int64

// Balance returns the user's balance, 0 when unknown.
func (m BalanceMap) Balance(user UserID) int64 { return m[user] }

// Env is everything outside the table a command may depend on.
type Env struct {
	// Now is the time of the command.
	Now time.Time
	// Rand shuffles decks and picks the first banker; nil means
	// [CryptoRand].
	Rand Rand
	// Settings are the chat's current settings. A game keeps the settings it
	// started with; the lobby and the next game use these.
	Settings Settings
	// Balances are the balances before the command.
	Balances Balances
}

// TransferKind says why chips moved.
type TransferKind uint8

// The kinds of transfer. Each moves chips between a balance and the table.
const (
	// TransferStake: the banker's stake, from balance into the bank.
	TransferStake TransferKind = iota + 1
	// TransferBet: a bet, from balance onto the table.
	TransferBet
	// TransferWin: a won bet paid back double: the bet from the table and as
	// much from the bank.
	TransferWin
	// TransferRefund: a bet returned from the table (cancel, banker left).
	TransferRefund
	// TransferBank: the bank to the banker at the end of a game.
	TransferBank
)

var transferNames = [...]string{"", "stake", "bet", "win", "refund", "bank"}

// String returns the transfer kind's name.
func (k TransferKind) String() string {
	if int(k) < len(transferNames) && k != 0 {
		return transferNames[k]
	}
	return "unknown"
}

// Transfer is a chip movement between a user's balance and the table.
type Transfer struct {
	User UserID
	Kind TransferKind
	// Amount is the change of the user's balance: negative when chips leave
	// it for the table.
	Amount int64
}

// EventKind says what happened.
type EventKind uint8

// The events a command may cause.
const (
	EventOpened EventKind = iota + 1
	EventJoined
	EventLeft
	EventKicked
	// EventStoodUp: a player below the entry limit was stood up at start.
	EventStoodUp
	// EventStarted: a game started; User is the banker, Amount the stake.
	EventStarted
	// EventCircleStarted: Amount is the circle number; Commitment commits
	// to the new deck.
	EventCircleStarted
	// EventDealt: User was dealt Card at the start of the circle.
	EventDealt
	// EventTurn: it is User's turn to bet.
	EventTurn
	// EventBet: User bet Amount.
	EventBet
	// EventDrew: User drew Card, scoring Score.
	EventDrew
	// EventBankerDrew: the banker drew Card, scoring Score.
	EventBankerDrew
	// EventDuelEnded: Duel holds the result.
	EventDuelEnded
	// EventSatOut: User sits this circle out for Reason.
	EventSatOut
	// EventReshuffled: the deck ran out; the discards were shuffled into a
	// new deck with Commitment.
	EventReshuffled
	// EventRevealed: a deck that is no longer drawn from: Deck and its
	// Commitment.
	EventRevealed
	// EventKnocked: the bank grew from From to Amount, KnockFactor times
	// or more, in a circle; a new circle starts with the same bank.
	EventKnocked
	// EventGameEnded: User (the banker) took Amount, the bank; Reason says
	// why the game ended.
	EventGameEnded
	// EventClosed: the table closed for Reason.
	EventClosed
)

var eventNames = [...]string{"", "opened", "joined", "left", "kicked", "stood_up", "started", "circle_started",
	"dealt", "turn", "bet", "drew", "banker_drew", "duel_ended", "sat_out", "reshuffled", "revealed",
	"knocked", "game_ended", "closed"}

// String returns the event kind's name.
func (k EventKind) String() string {
	if int(k) < len(eventNames) && k != 0 {
		return eventNames[k]
	}
	return "unknown"
}

// Event is something that happened at the table. Which fields are set
// depends on Kind.
type Event struct {
	Kind   EventKind
	User   UserID
	Card   Card
	Score  int
	Amount int64
	// From is the bank at the start of the circle (EventKnocked).
	From       int64
	Reason     Reason
	Commitment Commitment
	Deck       Deck
	Duel       Duel
}

// Outcome is what an applied command caused.
type Outcome struct {
	Events    []Event
	Transfers []Transfer
}

// Delta returns the total change of balances the outcome makes: minus the
// change of the chips on the table.
func (o Outcome) Delta() int64 {
	var d int64
	for _, tr := range o.Transfers {
		d += tr.Amount
	}
	return d
}
