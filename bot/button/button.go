// Package button declares each of the bot's inline buttons once, in one
// table (Rows): its verb (the callback.Action its data starts with), its
// label and style, who may press it, where and when it shows, and what a
// press does. The renderer draws the table messages' keyboards from it
// (Keyboard), and the rooms that take presses (bot/input for a chat's
// messages, bot/inline for inline messages) route each press by its row
// (For): a special case of a press is a field of its row, not a test of
// its action.
//
// A row only declares: "who may press it" is checked against the stored
// state where the press is applied (game.Apply for a game command, the
// house's and the settings' handlers for theirs), whatever a row or the
// callback data says. The callback grammar (package callback) stays the
// wire format: a button drawn by an older bot still presses the same.
//
// To add a button: a verb in package callback, its label in bot/i18n, its
// row in Rows, its place in the keyboard's lines (layouts), and, for an
// effect no room implements yet, the handler of that effect in the rooms
// whose kinds it is pressed in.
//
// One row is a link, not a press: OpenApp opens the Mini App at the table
// (State.App), and Telegram opens it without telling the bot, so no room
// takes a press of it (its verb has no encoding).
package button

import (
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// Kinds are kinds of messages a button shows on and is pressed on, as a
// set.
type Kinds uint8

// The kinds of messages.
const (
	// Group is a group's or supergroup's message (a forum topic's too):
	// its table, its settings panel.
	Group Kinds = 1 << iota
	// Solo is a private chat's message: its solo table (its user against
	// the house), its settings panel, the list of the groups followed.
	Solo
	// Inline is an inline message, in a chat the bot is not in: its table.
	Inline

	// Chats are the messages of the chats the bot is in.
	Chats = Group | Solo
	// Tables are the messages of every kind of table.
	Tables = Group | Solo | Inline
)

// Has reports whether k holds every kind of o.
func (k Kinds) Has(o Kinds) bool { return o != 0 && k&o == o }

// String names the kinds: "group|solo", "inline", "none".
func (k Kinds) String() string {
	s := ""
	for i, name := range []string{"group", "solo", "inline"} {
		if k&(1<<i) != 0 {
			if s != "" {
				s += "|"
			}
			s += name
		}
	}
	if s == "" {
		return "none"
	}
	return s
}

// Phases are phases of a table, as a set.
type Phases uint8

// In returns the set of the phases ps.
func In(ps ...game.Phase) Phases {
	var s Phases
	for _, p := range ps {
		s |= 1 << p
	}
	return s
}

// Has reports whether p is one of the set.
func (s Phases) Has(p game.Phase) bool { return s&(1<<p) != 0 }

// Who says who may press a button: the rule a press is checked against
// where it is applied (the row names where).
type Who uint8

// Who may press a button.
const (
	// Anyone: any person (a stand-in, an anonymous admin or a channel,
	// never acts at a table).
	Anyone Who = iota + 1
	// Seated: a player seated at the table, not leaving it (game.Apply:
	// game.ErrNotSeated; for the house's seat, input's seatHouse).
	Seated
	// OnTurn: the player whose turn it is (game.Apply:
	// game.ErrNotYourTurn).
	OnTurn
	// Admins: the chat's admins, asked of Telegram (input's panelPress);
	// in a private chat its user.
	Admins
	// Self: anyone, on what is their own only, whatever the data names
	// (input's pressUnfollow stops the presser's own following).
	Self
)

// Effect is what a press does.
type Effect uint8

// The effects of a press.
const (
	// Apply applies the row's Command, made by the presser, through
	// game.Apply (input.Handler.PressTable), the row's flags saying how.
	Apply Effect = iota + 1
	// OpenInline opens the table of the inline message pressed with the
	// preset its data names (checked against the presets), seating the
	// presser: the row's Command through input.Handler.PressTable.
	OpenInline
	// House applies the row's Command for the house (game.Join seats it,
	// game.Leave stands it up), asked by a seated player of a lobby.
	House
	// DeckCheck shows the revealed decks of the game the data names: a
	// message in a chat, an alert with a deep link on an inline message.
	DeckCheck
	// Leaderboard shows the chat's leaderboard as an alert (an inline
	// table's chat, where the bot can send no message).
	Leaderboard
	// ChangeSetting changes a setting on a settings panel (package panel).
	ChangeSetting
	// MoveSettings moves the settings panel pressed to a setting's
	// choices or back to the list.
	MoveSettings
	// ExplainSetting explains a setting in an alert (panels drawn by older
	// versions).
	ExplainSetting
	// StopFollowing stops the presser's following of the group the data
	// names.
	StopFollowing
	// OpenApp opens the Mini App at the table, State.App: a web_app
	// button at a solo table (the bot's private chat, the one place
	// Telegram takes one), a URL button elsewhere. Telegram opens it and
	// tells the bot nothing: no press of it is ever taken.
	OpenApp
)

// Row is one button of the bot.
type Row struct {
	// Action is the button's verb: the code its callback data starts
	// with, one row per action.
	Action callback.Action

	// Label is its label; SoloLabel, when set, its label at a solo table,
	// and AgainLabel, when set, its label after a game (the table shows a
	// finished game). Empty for a button drawn elsewhere (DrawnBy) or by
	// offer (PerOffer).
	Label, SoloLabel, AgainLabel i18n.Key
	// Style colours it: the move a player looks for first. With PerOffer,
	// the first offer only.
	Style message.Style
	// PerOffer: one button per bet offered to the player whose turn it
	// is, smallest first, labelled by i18n.Bet, carrying its amount.
	PerOffer bool
	// TapLabels, when set: one button per label, carrying tap 1, 2, … in
	// its order (the cut buttons).
	TapLabels []i18n.Key
	// DrawnBy names the renderer that draws the button when the table's
	// keyboard does not ("" when it does); "none" for a button no longer
	// drawn that older messages still show.
	DrawnBy string

	// Who may press it.
	Who Who
	// Kinds are the messages it shows on and is pressed on; a press on
	// another kind is refused as a bad button.
	Kinds Kinds
	// Phases are the table's phases it shows in, and If, when set, what
	// else the table must be for it to show (the table's keyboard).
	Phases Phases
	If     func(State) bool
	// Unopened: it shows on a table never opened (version 0: an inline
	// message no press opened yet), and on no other; every other table
	// button shows only on a table opened, and carries its version.
	Unopened bool

	// Does is what a press does, and Command the game command it applies
	// (Apply, OpenInline, House).
	Does    Effect
	Command game.CommandKind

	// Versioned: its data carries the table version it was drawn for,
	// checked by game.Apply; one without (0) is refused as a bad button,
	// as game.Apply reads 0 as "no version to check".
	Versioned bool
	// BetAmount: the command bets the data's Amount.
	BetAmount bool
	// CutsTap: the command cuts with the text of the data's Tap
	// (callback.TapText: "tap:1" and the like).
	CutsTap bool
	// ButtonLang: a table it opens speaks the language of the data (the
	// inline result's), not the presser's.
	ButtonLang bool
	// FallsBackToJoin: when the table was opened by another press since
	// the button was drawn (game.ErrTableOpen), the presser sits down
	// instead (game.Join at the table's version).
	FallsBackToJoin bool
	// Repost: in a chat, the table it opens is posted at the bottom, and
	// the old message stays the record of its last game, or goes (as
	// /newgame does); an inline message stays where it is.
	Repost bool
	// OpensSolo: in a private chat, the table it opens is a solo table:
	// the house sits down with the opener, unless the chat forbids it,
	// and the presser is told why it did not.
	OpensSolo bool
	// Announces: in a group, the table it opens is announced to the
	// group's followers (package notice).
	Announces bool
	// Toast, when set, is what a press that applied is told, instead of
	// what happened (render.Toast).
	Toast i18n.Key
	// AnyMessage: its press needs nothing of the message pressed, and is
	// handled on one Telegram no longer gives (deleted, or too old: an
	// InaccessibleMessage); any other is answered as outdated.
	AnyMessage bool
}

// For returns the row of a press on a message of kind with data: false
// when no row has the action, or it is not pressed on that kind, or not
// pressed at all (a link).
func For(a callback.Action, kind Kinds) (Row, bool) {
	r, ok := Of(a)
	if !ok || !r.Kinds.Has(kind) || !r.Pressed() {
		return Row{}, false
	}
	return r, true
}

// Pressed reports whether a press of the row's button reaches the bot (a
// callback button); false for a link (OpenApp), which Telegram opens
// without a word to the bot.
func (r Row) Pressed() bool { return r.Does != OpenApp }

// Of returns the row of the action.
func Of(a callback.Action) (Row, bool) {
	if int(a) >= len(byAction) || byAction[a] == nil {
		return Row{}, false
	}
	return *byAction[a], true
}

// Rows returns the table, in its order.
func Rows() []Row { return append([]Row(nil), rows...) }

// byAction finds the rows by action.
var byAction = func() []*Row {
	var m []*Row
	for i := range rows {
		a := int(rows[i].Action)
		for len(m) <= a {
			m = append(m, nil)
		}
		if m[a] != nil {
			panic("button: two rows of " + rows[i].Action.String())
		}
		m[a] = &rows[i]
	}
	return m
}()

// State is what decides which buttons a table's message shows.
type State struct {
	// Table is the table shown; the zero Table for one never opened.
	Table *game.Table
	// Kind is the kind of its message: Group, Solo or Inline.
	Kind Kinds
	// Settings are the chat's settings: an inline table to open plays by
	// them (its stake and minimum balance).
	Settings game.Settings
	// Balances hold the balance of everyone seated: the bets offered.
	Balances map[game.UserID]int64
	// HouseForbidden: the chat's admins forbade the house.
	HouseForbidden bool
	// Lang is the chat's language, the labels'.
	Lang i18n.Lang
	// App is the link that opens the Mini App at this table (the OpenApp
	// row's): its direct link, https://t.me/<bot>/<app>?startapp=<ref>,
	// on a group's or inline table, or at a solo table the app's page
	// with ?startapp=<ref>; "" for no app (none configured).
	App string
}

// HouseSeated reports whether the house sits at the table.
func (s State) HouseSeated() bool {
	_, ok := s.Table.SeatOf(house.ID)
	return ok
}

// Players returns how many people sit at the table: the house is none.
func (s State) Players() int {
	n := s.Table.NumSeats()
	if s.HouseSeated() {
		n--
	}
	return n
}

// Full reports whether every seat is taken.
func (s State) Full() bool { return s.Table.NumSeats() >= game.MaxSeats }

// HouseTurn reports whether the house is to move: it moves by itself.
func (s State) HouseTurn() bool {
	i, ok := s.Table.Turn()
	return ok && s.Table.Seat(i).User == house.ID
}

// CutAsked reports whether the table waits for its deck's cut and a
// seated player (not the house) is asked to give it.
func (s State) CutAsked() bool {
	c, ok := s.Table.Cut()
	return ok && c.Waiting && c.Asked != 0
}

// Checkable reports whether the table shows a finished game whose deck is
// revealed: its deck can be checked.
func (s State) Checkable() bool {
	_, ok := s.Table.Revealed()
	return ok && s.Table.Finished()
}
