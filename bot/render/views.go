package render

import (
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// The views the replies draw from: what each shows of a chat's chips, its
// ledger, its decks and a user's follows, and no more. Render declares
// them and knows nothing of where they come from; the room that reads the
// store makes them, each from the store's type in one function
// (bot/input/views.go).

// Rejected is what the answer to a rejected command reads (Rejection):
// the table as it stands, the settings it plays its next game by, and who
// sent the command, with their balance.
type Rejected struct {
	// Table is the table the command was for; never nil.
	Table *game.Table
	// Settings are the game settings the table plays by next: the chat's,
	// or an inline table's own.
	Settings game.Settings
	// User sent the command; Balance is their chips in the chat.
	User    game.UserID
	Balance int64
}

// Bonus is a claim of the daily bonus, as its answer tells it.
type Bonus struct {
	// Amount is the bonus granted; 0 when refused.
	Amount int64
	// Balance is the user's balance after the claim.
	Balance int64
	// OnTables is the user's chips on the chat's tables, which count
	// towards the entry limit with the balance.
	OnTables int64
}

// Standing is a line of a chat's leaderboard: a player's name, chips, net
// result and games played.
type Standing struct {
	Name    string
	Balance int64
	// Net is what the player won less what they lost.
	Net   int64
	Games int
}

// EntryKind says why a balance changed, as /history words it.
type EntryKind uint8

// The kinds of history entry. The first three are grants (chips that
// enter the chat); the others are the moves of a game.
const (
	// EntryStart: the starting chips of a user's first appearance.
	EntryStart EntryKind = iota + 1
	// EntryBonus: the daily bonus.
	EntryBonus
	// EntryOwner: a grant by the bot's owner.
	EntryOwner
	// EntryStake: the banker's stake into the bank.
	EntryStake
	// EntryBet: a bet onto the table.
	EntryBet
	// EntryWin: a won bet paid back double.
	EntryWin
	// EntryRefund: a bet returned from the table.
	EntryRefund
	// EntryBank: the bank to the banker.
	EntryBank
)

// grant reports whether the kind is a grant, told without a game.
func (k EntryKind) grant() bool { return k >= EntryStart && k <= EntryOwner }

// Entry is one change of a user's balance, a line of /history.
type Entry struct {
	Time time.Time
	Kind EntryKind
	// Amount is the change, negative when chips left the balance;
	// Balance is the balance after it.
	Amount, Balance int64
	// Chat and Thread are the table's the change was at; Game is its
	// game number, 0 for grants.
	Chat, Thread int64
	Game         uint64
}

// Tally is what a check of a chat's chips found (/audit): the sums that
// must agree, and how many problems were found.
type Tally struct {
	// Balances is the sum of the users' balances; OnTables the chips on
	// the chat's tables (banks and bets).
	Balances, OnTables int64
	// Granted is the chat's running total of grants; Ledgered the sum of
	// the grant entries in its ledger.
	Granted, Ledgered int64
	// OK: the sums agree and every user's books match their balance.
	OK bool
	// Problems is how many disagreements were found.
	Problems int
}

// Reveal is a deck revealed at a table: its verification record (a
// *game.CutRecord, or a *game.SaltRecord for a deck of before the cut),
// and for a deck of game.SchemeCut the cutter's name ("" when nobody cut
// or their name is not known).
type Reveal struct {
	Record game.Record
	CutBy  string
}

// Follow is a group a user follows: its chat and its title as last seen.
type Follow struct {
	Chat  int64
	Title string
}

// DeckCut is who cut one deck of the cut: the cutter, a player of the
// game, or 0 when nobody did (the deck is "not cut").
type DeckCut struct {
	By game.UserID
}
