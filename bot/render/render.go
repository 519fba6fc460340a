// Package render draws the bot's messages as pure functions of the state:
// the table message of a chat, with its inline keyboard, the /settings
// message and the replies to commands. The bot edits the one table message of a game to the latest
// render; the same input always gives the same message.
package render

import (
	"time"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

// MaxText is Telegram's limit on a message's text, in UTF-16 code units of
// the text as shown (after the HTML is parsed). Table never goes past it.
const MaxText = 4096

// Input is everything the table message shows.
type Input struct {
	// Table is the chat's table.
	Table game.Table
	// Settings are the chat's current settings, shown in the lobby (a game
	// shows those it is played with, Table.Settings()).
	Settings game.Settings
	// Balances hold the balance of everyone seated.
	Balances map[game.UserID]int64
	// Names optionally hold users' current first names, shown instead of
	// the names the table kept from when they sat down.
	Names map[game.UserID]string
	// Lang is the chat's language.
	Lang i18n.Lang
	// Now is when the message is drawn, for the time left.
	Now time.Time
	// Decks are the commitments of the decks revealed in the table's game,
	// one per finished circle, oldest first. Without them the message
	// shows the last revealed deck's only.
	Decks []game.Commitment
	// Cuts say who cut each deck of the cut (docs/FAIRNESS.md) revealed in
	// the table's finished game, oldest first, for its record; none for a
	// game of decks before the cut, or one in play (its table names the
	// cutter of the deck in play).
	Cuts []DeckCut
	// Awards are the achievements earned in the table's game, in the
	// order earned, shown once the game is over.
	Awards []award.Award
	// HouseForbidden: the chat's admins forbade the house, so the lobby
	// offers no button to seat it.
	HouseForbidden bool
	// Solo: the table is a private chat's, where its user plays the house
	// alone (solo play): its lobby speaks to that one player.
	Solo bool
	// Inline: the table is on an inline message, in a chat the bot is not
	// in, where it can send no other message: a finished game's keyboard
	// offers the chat's leaderboard (as an alert) too.
	Inline bool
	// App is the link that opens the Mini App at this table, as its
	// maker built it (button.State.App: the direct link on a group's or
	// inline table, the page's URL at a solo table); "" for none. A live
	// table shows it as a button of its own (the OpenApp row).
	App string
}

// ShownName returns user's name as in's table message shows it, in plain
// text: the house's in in.Lang, else the current one from Names, else
// kept, the one the table kept (PlayerName).
func (in Input) ShownName(user game.UserID, kept string) string {
	return PlayerName(user, in.current(user, kept), in.Lang)
}

// current returns user's current name from Names, else kept.
func (in Input) current(user game.UserID, kept string) string {
	if n, ok := in.Names[user]; ok {
		return n
	}
	return kept
}

// Table draws the table message: its text, never longer than MaxText as
// Telegram counts, and the buttons of the current phase, each carrying the
// table's version.
func Table(in Input) message.Message {
	return message.Message{Text: fit(in, MaxText), Keyboard: keyboard(in)}
}
