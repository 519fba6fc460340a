package button

import (
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
)

// rows are the bot's buttons, one row per action. Styles colour the
// buttons a player looks for first (Bot API 9.4): the move that plays on
// (Start, Play again, Hit, a new table, the smallest bet) in blue, the one
// that takes a seat or keeps a hand (Join, Stand) in green; the others
// keep the app's own colour, and every label means the same without
// colour.
var rows = []Row{
	// The lobby. A full table offers no seat; a solo table offers Join
	// only to a player who stood up, and Start once the house sits.
	{Action: callback.Join, Label: i18n.BtnJoin, Style: message.Success,
		Who: Anyone, Kinds: Tables, Phases: In(game.Lobby), If: seatFree,
		Does: Apply, Command: game.Join, Versioned: true},
	// At a solo table Close stands the house up with its player (input's
	// request chains it), and the table closes.
	{Action: callback.Leave, Label: i18n.BtnLeave, SoloLabel: i18n.BtnClose,
		Who: Seated, Kinds: Tables, Phases: In(game.Lobby), If: soloSeated,
		Does: Apply, Command: game.Leave, Versioned: true},
	{Action: callback.Start, Label: i18n.BtnStart, AgainLabel: i18n.BtnPlayAgain, Style: message.Primary,
		Who: Seated, Kinds: Tables, Phases: In(game.Lobby), If: startable,
		Does: Apply, Command: game.Start, Versioned: true},
	{Action: callback.SeatHouse, Label: i18n.BtnSeatHouse,
		Who: Seated, Kinds: Tables, Phases: In(game.Lobby), If: houseMaySit,
		Does: House, Command: game.Join, Versioned: true},
	// No button unseats the house at a solo table: the table is for
	// playing it (a press there is still handled).
	{Action: callback.UnseatHouse, Label: i18n.BtnUnseatHouse,
		Who: Seated, Kinds: Tables, Phases: In(game.Lobby), If: houseMayStand,
		Does: House, Command: game.Leave, Versioned: true},

	// A game: nothing while the house moves, by itself.
	{Action: callback.Bet, PerOffer: true, Style: message.Primary,
		Who: OnTurn, Kinds: Tables, Phases: In(game.Betting), If: playersTurn,
		Does: Apply, Command: game.Bet, Versioned: true, BetAmount: true},
	{Action: callback.Hit, Label: i18n.BtnHit, Style: message.Primary,
		Who: OnTurn, Kinds: Tables, Phases: In(game.Drawing), If: playersTurn,
		Does: Apply, Command: game.Hit, Versioned: true},
	{Action: callback.Stand, Label: i18n.BtnStand, Style: message.Success,
		Who: OnTurn, Kinds: Tables, Phases: In(game.Drawing), If: playersTurn,
		Does: Apply, Command: game.Stand, Versioned: true},

	// The cut (docs/FAIRNESS.md): a new deck waits for a seated player's
	// cut; each button cuts with "tap:N". The house never cuts (game.Apply
	// refuses it), so no button shows when only the house could.
	{Action: callback.Cut, TapLabels: []i18n.Key{i18n.BtnCutQuarter, i18n.BtnCutHalf, i18n.BtnCutThreeQuarters},
		Who: Seated, Kinds: Tables, Phases: In(game.Cutting), If: State.CutAsked,
		Does: Apply, Command: game.Cut, Versioned: true, CutsTap: true},

	// A closed table opens anew, at the bottom of a chat.
	{Action: callback.NewTable, Label: i18n.BtnNewTable, Style: message.Primary,
		Who: Anyone, Kinds: Tables, Phases: In(game.Closed),
		Does: Apply, Command: game.Open, Versioned: true, Repost: true, OpensSolo: true, Announces: true},

	// After a game: its deck, and on an inline message (no /top there)
	// the chat's leaderboard.
	{Action: callback.Verify, Label: i18n.BtnVerify,
		Who: Anyone, Kinds: Tables, Phases: In(game.Lobby, game.Closed), If: State.Checkable,
		Does: DeckCheck},
	{Action: callback.Top, Label: i18n.BtnTop,
		Who: Anyone, Kinds: Inline, Phases: In(game.Lobby, game.Closed), If: State.Checkable,
		Does: Leaderboard},

	// The one button of an inline message no press opened yet: it opens
	// the table with the preset of the inline result, speaking its
	// language, and seats the presser, who is told they joined.
	{Action: callback.InlineOpen, Label: i18n.BtnJoin, Style: message.Success,
		Who: Anyone, Kinds: Inline, Phases: In(game.Closed), Unopened: true,
		Does: OpenInline, Command: game.Open, ButtonLang: true, FallsBackToJoin: true, Toast: i18n.PopJoined},

	// The Mini App, at every live table when one is configured: a link
	// (Telegram opens it; no press comes back), its own line at the
	// bottom.
	{Action: callback.OpenApp, Label: i18n.BtnOpenApp,
		Who: Anyone, Kinds: Tables, Phases: In(game.Lobby, game.Betting, game.Drawing, game.Cutting), If: appLinked,
		Does: OpenApp},

	// The settings panels (package panel draws them, bot/input's
	// settings handlers take their presses).
	{Action: callback.Setting, DrawnBy: "render.SettingsField", Who: Admins, Kinds: Chats, Does: ChangeSetting},
	{Action: callback.SettingOpen, DrawnBy: "render.Settings", Who: Admins, Kinds: Chats, Does: MoveSettings},
	{Action: callback.SettingBack, DrawnBy: "render.SettingsField", Who: Admins, Kinds: Chats, Does: MoveSettings},
	{Action: callback.SettingInfo, DrawnBy: "none", Who: Anyone, Kinds: Chats, Does: ExplainSetting},

	// The private list of the groups followed (/notify).
	{Action: callback.Unfollow, DrawnBy: "render.Follows", Who: Self, Kinds: Solo, Does: StopFollowing, AnyMessage: true},
}

// seatFree: a seat to take (at a solo table, only for a player who stood
// up).
func seatFree(s State) bool {
	if s.Kind == Solo {
		return s.Players() == 0
	}
	return !s.Full()
}

// soloSeated: at a solo table, its player sits.
func soloSeated(s State) bool { return s.Kind != Solo || s.Players() > 0 }

// startable: at a solo table, its player and the house sit.
func startable(s State) bool { return s.Kind != Solo || s.Players() > 0 && s.HouseSeated() }

// houseMaySit: the house is not seated, may be, and has a seat to take
// (at a solo table, beside its player).
func houseMaySit(s State) bool {
	if s.HouseSeated() || s.HouseForbidden {
		return false
	}
	if s.Kind == Solo {
		return s.Players() > 0
	}
	return !s.Full()
}

// houseMayStand: the house sits, at a table not solo.
func houseMayStand(s State) bool { return s.Kind != Solo && s.HouseSeated() }

// appLinked: a Mini App to open at the table.
func appLinked(s State) bool { return s.App != "" }

// playersTurn: a player's turn, not the house's.
func playersTurn(s State) bool { _, ok := s.Table.Turn(); return ok && !s.HouseTurn() }

// line is a line of a keyboard: the buttons of its actions that show, in
// its order, at most perRow to a row.
type line struct {
	perRow  int
	actions []callback.Action
}

// tableLines are the lines of a group's or an inline message's table,
// top to bottom: in a state, the lines of its phase show, and the deck
// check after a game.
var tableLines = []line{
	{3, []callback.Action{callback.Join, callback.Leave, callback.Start}},
	{1, []callback.Action{callback.UnseatHouse, callback.SeatHouse}},
	{3, []callback.Action{callback.Bet}},
	{2, []callback.Action{callback.Hit, callback.Stand}},
	{3, []callback.Action{callback.Cut}},
	{1, []callback.Action{callback.NewTable}},
	{2, []callback.Action{callback.Verify, callback.Top}},
	{1, []callback.Action{callback.InlineOpen}},
	{1, []callback.Action{callback.OpenApp}},
}

// soloLines are the lines of a solo table: Start (or the house's seat)
// first, then Close.
var soloLines = []line{
	{1, []callback.Action{callback.Join}},
	{2, []callback.Action{callback.Start, callback.SeatHouse, callback.Leave}},
	{3, []callback.Action{callback.Bet}},
	{2, []callback.Action{callback.Hit, callback.Stand}},
	{3, []callback.Action{callback.Cut}},
	{1, []callback.Action{callback.NewTable}},
	{2, []callback.Action{callback.Verify}},
	{1, []callback.Action{callback.OpenApp}},
}

// layout returns the lines of a kind of table.
func layout(k Kinds) []line {
	if k == Solo {
		return soloLines
	}
	return tableLines
}
