package storage

import (
	"fmt"
	"time"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

// TableKey names a table: one per chat, and one per forum topic in a forum
// supergroup. Chips are per chat, shared by the chat's tables.
type TableKey struct {
	Chat int64
	// Thread is the forum topic; 0 when the chat has no topics.
	Thread int64
}

// String returns the key as "chat/thread".
func (k TableKey) String() string { return fmt.Sprintf("%d/%d", k.Chat, k.Thread) }

// User is a user's profile as Telegram gives it, refreshed on each
// interaction.
type User struct {
	ID game.UserID
	// Name is the display name (first name, and last name if any).
	Name     string
	Username string
	// Language is the user's Telegram language code, such as "ru" or "en-US".
	Language string
}

// ChatSettings are a chat's settings: the game's limits, the language
// (storage keeps any code as given: which languages there are is the
// bot's business) and whether the house may sit. Each is a row of
// game.Fields.
type ChatSettings = game.ChatSettings

// Inline is what a table on an inline message has of its own: the
// message it is shown in, and the settings it plays by (the chat of an
// inline message has no admins the bot can know, so each table keeps
// the preset it was opened with).
//
// Such a table is an ordinary table of its TableKey, which the caller
// derives from the inline message: its chat, a chat of inline messages
// (see InlineChat) named after Telegram's chat_instance, and a number of
// its own. Chips, ledger, stats, leaderboard, deadlines and revealed
// decks are the chat's as for any table. Storage keeps the record from
// the command that opened the table (see ApplyRequest.Inline) as long as
// the table; every command on the table plays by Settings, and every View
// of it reports the record.
type Inline struct {
	// MessageID is Telegram's inline_message_id: not empty, at most
	// MaxInlineMessageID bytes.
	MessageID string
	// Settings are the table's settings, valid (game.Settings.Validate).
	Settings game.Settings
}

// MaxInlineMessageID is the longest Inline.MessageID storage keeps, in
// bytes.
const MaxInlineMessageID = 64

// View is a table as the bot renders it, with the balances and names of the
// users it shows.
type View struct {
	// Key is the table's key; after a migration, the new chat's.
	Key   TableKey
	Table game.Table
	// Settings are the chat's settings; for a table on an inline message,
	// with the table's own game settings (Inline.Settings) as Game.
	Settings ChatSettings
	// Inline is the table's inline message and settings when it is a
	// table on an inline message, nil for any other table.
	Inline *Inline
	// Balances holds everyone seated and the acting user.
	Balances map[game.UserID]int64
	// Names holds the display names of the same users.
	Names map[game.UserID]string
	// MessageID is the message the table is rendered into; 0 when none was
	// recorded.
	MessageID int
	// Decks are the commitments of the decks revealed in the finished game
	// the table shows (in the lobby or closed after it), one per circle,
	// oldest first; none during a game.
	Decks []game.Commitment
	// Awards are the achievements earned in the finished game the table
	// shows (in the lobby or closed after it), in the order earned; none
	// during a game.
	Awards []award.Award
	// Retiring are the table's old messages the bot still owes the chat,
	// oldest first. While MessageID is one of them, the table's next render
	// goes into a new message; once the table's message is another one,
	// each is retired and reported done with Store.Retired.
	Retiring []Retirement
}

// Retirement is an old message of a table that the bot owes its chat: a
// command moved the table into a new message (see ApplyRequest.Repost),
// and the old one is to become the record of the game it showed, or to be
// deleted.
type Retirement struct {
	MessageID int
	// Record says the message becomes the record of the finished game
	// Table holds (see game.Table.Finished); else it is deleted.
	Record bool
	// Table is the table as the message showed it, when Record.
	Table game.Table
	// Names are the current display names of Table's players.
	Names map[game.UserID]string
	// Decks are the commitments of the decks revealed in Table's game,
	// oldest first, as in View.Decks.
	Decks []game.Commitment
	// Awards are the achievements earned in Table's game, as in
	// View.Awards.
	Awards []award.Award
}

// Applied is the result of an applied command: the table after it and what
// the command caused.
type Applied struct {
	View
	Outcome game.Outcome
	// ThenErr is why the request's chained command was rejected (it
	// wraps the game's error); nil when it applied or there was none.
	ThenErr error
}

// Account is a user's standing in a chat.
type Account struct {
	Chat    int64
	User    User
	Balance int64
	// LastBonus is when the daily bonus was last claimed; zero if never.
	LastBonus time.Time
	// Created is when the user first appeared in the chat.
	Created time.Time
	Stats   award.Stats
}

// Bonus is the answer to a bonus claim.
type Bonus struct {
	// Amount is the bonus granted; 0 when refused.
	Amount int64
	// Balance is the balance after the claim.
	Balance int64
	// OnTables is the user's chips on the chat's tables, which count
	// towards the entry limit with the balance; set when the claim was
	// weighed against the limit.
	OnTables int64
	// Next is when the bonus can next be claimed.
	Next time.Time
}

// LedgerKind says why a user's balance changed.
type LedgerKind uint8

// The kinds of ledger entry. The first three are grants, the only source of
// chips; the others mirror game.TransferKind.
const (
	// LedgerStart: the starting chips of a user's first appearance.
	LedgerStart LedgerKind = iota + 1
	// LedgerBonus: the daily bonus.
	LedgerBonus
	// LedgerOwner: a grant by the bot's owner.
	LedgerOwner
	// LedgerStake: the banker's stake into the bank.
	LedgerStake
	// LedgerBet: a bet onto the table.
	LedgerBet
	// LedgerWin: a won bet paid back double.
	LedgerWin
	// LedgerRefund: a bet returned from the table.
	LedgerRefund
	// LedgerBank: the bank to the banker.
	LedgerBank
)

var ledgerKindNames = [...]string{"", "start", "bonus", "owner", "stake", "bet", "win", "refund", "bank"}

// String returns the kind's name.
func (k LedgerKind) String() string {
	if k != 0 && int(k) < len(ledgerKindNames) {
		return ledgerKindNames[k]
	}
	return "unknown"
}

// Grant reports whether the kind is a grant: chips that enter the chat.
func (k LedgerKind) Grant() bool { return k >= LedgerStart && k <= LedgerOwner }

// valid reports whether k is one of the kinds.
func (k LedgerKind) valid() bool { return k >= LedgerStart && k <= LedgerBank }

// ledgerKindOf maps a game transfer to its ledger kind.
func ledgerKindOf(k game.TransferKind) (LedgerKind, bool) {
	switch k {
	case game.TransferStake:
		return LedgerStake, true
	case game.TransferBet:
		return LedgerBet, true
	case game.TransferWin:
		return LedgerWin, true
	case game.TransferRefund:
		return LedgerRefund, true
	case game.TransferBank:
		return LedgerBank, true
	}
	return 0, false
}

// LedgerEntry is one change of one user's balance. The ledger is
// append-only per chat.
type LedgerEntry struct {
	// Seq numbers the chat's entries from 1.
	Seq    uint64
	Time   time.Time
	Chat   int64
	Thread int64
	User   game.UserID
	Kind   LedgerKind
	// Amount is the change of the balance, negative when chips left it.
	Amount int64
	// Balance is the balance after the change.
	Balance int64
	// Game is the table's game number; 0 for grants.
	Game uint64
	// Update is the Telegram update that caused the change; 0 for timers
	// and grants.
	Update int64
}

// Standing is a line of the leaderboard.
type Standing struct {
	User    game.UserID
	Name    string
	Balance int64
	Net     int64
	Games   int
}

// Timer is a table's stored deadline, for re-arming after a restart.
type Timer struct {
	Key TableKey
	// Version is the table version the deadline was set for; the timeout
	// command carries it.
	Version  uint64
	Deadline time.Time
	// HouseAt is when the house moves at the table (house.MoveAt), the
	// zero time when it is not the house's turn: a pending move to re-arm
	// like the deadline.
	HouseAt time.Time
}

// Reveal is a deck revealed at a table: its commitment and the preimage
// that hashes to it (see game.Deck.Preimage and game.VerifyDeck).
type Reveal struct {
	Key  TableKey
	Game uint64
	// Version is the table version after the command that revealed it.
	Version uint64
	Time    time.Time
	// Scheme is the deck's: game.SchemeCut, or game.SchemeSalt for the
	// decks of before the cut (and of a store with no CutWait).
	Scheme string
	// Commitment is what the table showed before the deck's first card,
	// in lowercase hex: link k−1 of the table's chain (SchemeCut), or the
	// SHA-256 of the preimage (SchemeSalt).
	Commitment string
	// Preimage is the deck's preimage (SchemeSalt); "" for SchemeCut.
	Preimage string
	// Record is the deck's verification record, one line, as
	// game.ParseRecord reads it.
	Record string
	// CutBy is who cut the deck (SchemeCut); 0 when nobody did.
	CutBy game.UserID
	// CutByName is the cutter's name as the chat last saw it (User.Name);
	// "" when nobody cut, or the chat keeps no record of them.
	CutByName string
}

// Audit is the result of checking a chat's chips.
type Audit struct {
	Chat int64
	// Balances is the sum of the users' balances.
	Balances int64
	// OnTables is the sum of every table's chips (banks and bets).
	OnTables int64
	// Granted is the chat's running total of grants.
	Granted int64
	// Ledgered is the sum of the grant entries in the chat's ledger.
	Ledgered int64
	// OK reports that Balances+OnTables, Granted and Ledgered agree and that
	// every user's ledger and leaderboard entry match their balance.
	OK       bool
	Problems []string
}
