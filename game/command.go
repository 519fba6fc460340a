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
	// Cut cuts the deck the table waits for (phase Cutting) with Text:
	// any seated player but the house may, the first cut counts, and the
	// deck is dealt at once.
	Cut
)

var commandNames = [...]string{"", "open", "join", "leave", "start", "bet", "hit", "stand", "timeout", "cancel", "kick", "cut"}

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
	// Text is the cut (Cut): its bytes exactly as the player gave them,
	// at most MaxCutLen; a cut button gives "tap:1" and the like.
	Text string
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
	// Rand picks the first banker and shuffles the decks of SchemeSalt
	// (when CutWait is 0); nil means [CryptoRand].
	Rand Rand
	// CutWait is how long a new deck waits for its cut: every deck is
	// then of SchemeCut, its seed the next link of Seeds and its order
	// derived with the cut (Deriver), and the table waits in phase
	// Cutting at most CutWait, and never longer than the game's turn
	// timeout. 0 means the decks of before the cut: shuffled with Rand
	// and committed to with a salt (SchemeSalt), dealt at once. The bot
	// passes [DefaultCutWait] once it shows the cut.
	CutWait time.Duration
	// Seeds gives the server seed of each deck of SchemeCut, the next
	// link of the table's chain; storage takes it in the command's
	// transaction. nil means a chain of one link for each deck, its seed
	// drawn from Rand: for tests and tools that keep no chain.
	Seeds SeedSource
	// Deriver orders each deck of SchemeCut; nil means [DeriveOrder], the
	// rules. Tests stack decks with gametest.Stacked, which ignores the
	// seed and the cut.
	Deriver Deriver
	// House is the house's user id (package house), whom the rules never
	// ask to cut and never let cut; 0 when there is none.
	House UserID
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
	// to the new deck (which may wait for its cut: EventCutAsked follows).
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
	// EventReshuffled: the deck ran out; the discards go into a new deck
	// with Commitment (which may wait for its cut: EventCutAsked follows).
	EventReshuffled
	// EventRevealed: a deck that is no longer drawn from: its Record,
	// with everything a stranger needs to check it, and its Commitment;
	// for a deck of SchemeSalt also its Deck (the order and salt). User
	// is who cut it (SchemeCut), 0 when nobody did.
	EventRevealed
	// EventKnocked: the bank grew from From to Amount, KnockFactor times
	// or more, in a circle; a new circle starts with the same bank.
	EventKnocked
	// EventGameEnded: User (the banker) took Amount, the bank; Reason says
	// why the game ended.
	EventGameEnded
	// EventClosed: the table closed for Reason.
	EventClosed
	// EventCutAsked: a new deck waits for its cut (phase Cutting). User
	// is asked to cut (0 when no seated player but the house could be);
	// Commitment is what the deck is committed to, the link before its
	// seed in the table's chain; Amount is the deck's number in the
	// circle. Table.Cut tells the rest (the link, the chain's head).
	EventCutAsked
	// EventCut: the deck waiting for its cut was cut by User, or by
	// nobody (User 0: the cut wait timed out, the deck is "not cut");
	// its cards are dealt next.
	EventCut
)

var eventNames = [...]string{"", "opened", "joined", "left", "kicked", "stood_up", "started", "circle_started",
	"dealt", "turn", "bet", "drew", "banker_drew", "duel_ended", "sat_out", "reshuffled", "revealed",
	"knocked", "game_ended", "closed", "cut_asked", "cut"}

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
	// Record is the revealed deck's verification record (EventRevealed).
	Record Record
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
