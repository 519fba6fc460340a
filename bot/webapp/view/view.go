// Package view makes the Mini App's view of a table for one viewer: the
// JSON the page draws, as bot/render makes the chat's table message. It is
// pure: the same Input always gives the same View, and it does no I/O.
//
// The view is made from render's Input (the room that reads the store
// makes it from storage.View as it does for the chat's message), in the
// viewer's language (i18n.For: the chat's, else the viewer's own). Its
// texts are the chat's message's own, as render words them
// (render.TableWords: title, log, deck, cut, seats' notes, why a table
// closed), players' names as the chat shows them (render.Input.ShownName),
// and its actions come from bot/button's rows (render.ButtonState):
// exactly the buttons the chat's table message shows in that state that
// this viewer may press, each with the same callback data and label, so
// that one place decides a button and one words a line. The page sends an
// action's Data to the server, which takes it on the path of a press
// (callback.Parse, the row, game.Apply), version and all.
//
// The format is versioned: View.V says which format the page reads
// (Format); View.Version is the table's version, which grows with every
// change of the table.
package view

import (
	"slices"
	"time"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
)

// Format is the view's format, View.V: a change a page of an older format
// would misread gets a new one.
const Format = 1

// Input is everything a viewer's view shows: the chat's table message's
// input, and who views.
type Input struct {
	// Input is the table as the chat's message draws it: the table, the
	// chat's current game settings (an inline table's own), the balances
	// of everyone seated and, when known, the viewer's, the names, whether
	// the house is forbidden and where the table is (Solo, Inline). Its
	// Lang is not read (the view speaks i18n.For's language, which Make
	// sets), nor are Now, Decks, Cuts and Awards, which the view does not
	// show.
	render.Input
	// ChatLanguage is the language the chat's settings name ("" while it
	// has none).
	ChatLanguage string
	// Viewer is who views.
	Viewer Viewer
}

// Viewer is who views a table, as the server checked them (initData).
type Viewer struct {
	// User is the viewer's Telegram user id (never 0: 0 is no user, and
	// would be taken for one who sits nowhere).
	User game.UserID
	// LanguageCode is their language_code as Telegram gave it ("" when
	// none).
	LanguageCode string
}

// View is what the page draws: one viewer's view of one table, as JSON.
// Fields marked "omitted" are left out of the JSON when they do not apply.
type View struct {
	// V is the view's format (Format).
	V int `json:"v"`
	// Version is the table's version; Game the number of its game in play,
	// or of its last.
	Version uint64 `json:"version"`
	Game    uint64 `json:"game"`
	// Phase is the table's: "closed", "lobby", "betting", "drawing" or
	// "cutting" (game.Phase.String).
	Phase string `json:"phase"`
	// Lang is the language of the view's texts: "en", "ru" or "uk".
	Lang string `json:"lang"`
	// Title is the table message's title in Lang.
	Title string `json:"title"`
	// Stake and EntryLimit are the settings the table plays by: the
	// game's, or in a lobby or closed, the next game's.
	Stake      int64 `json:"stake"`
	EntryLimit int64 `json:"entry_limit"`
	// Bank is the chips in the bank, Circle the circle played (1 for the
	// first), Knocks how many knocks the game had of MaxKnocks (in a game;
	// 0 else).
	Bank      int64 `json:"bank"`
	Circle    int   `json:"circle"`
	Knocks    int   `json:"knocks"`
	MaxKnocks int   `json:"max_knocks"`
	// Seats are the seats in the table's order; in a game, play goes from
	// the seat after the banker's round to the banker's.
	Seats []Seat `json:"seats"`
	// Banker and Turn are indexes into Seats: the banker's seat (in a
	// game) and the seat to move (a player's bet or draw, the house's
	// included); -1 when none.
	Banker int `json:"banker"`
	Turn   int `json:"turn"`
	// Deadline is when the turn, the cut's wait or the lobby times out,
	// as stored with the table, in Unix milliseconds; 0 when nothing does.
	// The page counts down to it.
	Deadline int64 `json:"deadline"`
	// You is the viewer.
	You You `json:"you"`
	// Deck is the deck in play or waiting for its cut (in a game; omitted
	// else); Revealed the commitment of the last game's deck, once it is
	// over (omitted else).
	Deck     *Deck  `json:"deck,omitempty"`
	Revealed string `json:"revealed,omitempty"`
	// Log is the record of the game in play or the last one, oldest
	// first: its last MaxLog lines, in Lang, as the chat's message words
	// them.
	Log []string `json:"log"`
	// Result is what the last game gave each player, once it is over
	// (omitted else).
	Result []Net `json:"result,omitempty"`
	// Closed says why a closed table closed (omitted else).
	Closed string `json:"closed,omitempty"`
	// Actions are what the viewer can do, line by line as the chat's
	// keyboard lays them (each line at most PerRow wide); none for a
	// viewer who can do nothing now (a watcher during a game, anyone
	// while the house moves).
	Actions []Line `json:"actions"`
}

// Action returns the view's first action, in its order, whose verb is one
// of verbs, and whether it has one.
func (v View) Action(verbs ...string) (Action, bool) {
	for _, l := range v.Actions {
		for _, a := range l.Actions {
			if slices.Contains(verbs, a.Verb) {
				return a, true
			}
		}
	}
	return Action{}, false
}

// MaxLog is how many lines of the log a view holds at most: the last.
const MaxLog = 20

// Seat is a seat of the table.
type Seat struct {
	// Name is the player's name as the chat shows it (the house's in
	// Lang).
	Name string `json:"name"`
	// House: the seat is the house's; You: the viewer's.
	House bool `json:"house,omitempty"`
	You   bool `json:"you,omitempty"`
	// Balance is the player's balance, when known (omitted else).
	Balance *int64 `json:"balance,omitempty"`
	// Bet is their bet in the duel played (0 when none).
	Bet int64 `json:"bet"`
	// Cards are their cards as codes ("Th", game.Card.Code), Points their
	// score (0 with no card).
	Cards  []string `json:"cards"`
	Points int      `json:"points"`
	// State is where the seat stands: "seated" (a lobby), "banker",
	// "waiting" (dealt, the duel to come), "to_move" (its turn: a bet, a
	// draw), "playing" (in its duel, waiting for the deck's cut),
	// "played", "bust", "out" (sits the circle out).
	State string `json:"state"`
	// Leaving: the player left during the game; the seat goes at the next
	// safe moment.
	Leaving bool `json:"leaving,omitempty"`
	// Note is how the chat's message words the seat's state after its
	// cards, but for a player's time left ("bet 5 · leaving",
	// render.Words.Notes), in Lang; "" when it says nothing.
	Note string `json:"note,omitempty"`
}

// You is the viewer as the view sees them.
type You struct {
	// Seat is their seat's index in View.Seats, -1 when they watch.
	Seat int `json:"seat"`
	// Balance is their balance in the chat, when known (omitted else).
	Balance *int64 `json:"balance,omitempty"`
}

// Deck is the deck a game plays, or waits for the cut of.
type Deck struct {
	// Commitment is its SHA-256 commitment in hex (docs/FAIRNESS.md),
	// Short its first 16 digits as the chat shows them.
	Commitment string `json:"commitment"`
	Short      string `json:"short"`
	// Text is how the chat's message words it, in Lang.
	Text string `json:"text"`
	// Cut is the deck's cut, for a deck of the cut (omitted for one of
	// before the cut).
	Cut *Cut `json:"cut,omitempty"`
}

// Cut is the cut of a deck of the cut (game.CutState).
type Cut struct {
	// Link is the deck's link of the table's chain, Head the chain's head
	// in hex.
	Link uint32 `json:"link"`
	Head string `json:"head"`
	// Waiting: the deck waits for its cut, until View.Deadline; Asked is
	// who is asked for it ("" when nobody can cut: the deck goes not cut),
	// AskedSeat their seat (-1 when none).
	Waiting   bool   `json:"waiting"`
	Asked     string `json:"asked,omitempty"`
	AskedSeat int    `json:"asked_seat"`
	// By is who cut the dealt deck ("" when nobody did), and Text how the
	// chat words it ("cut by Bob", "not cut"); both "" while Waiting.
	By   string `json:"by,omitempty"`
	Text string `json:"text,omitempty"`
}

// Net is what a finished game gave a player.
type Net struct {
	Name   string `json:"name"`
	Banker bool   `json:"banker,omitempty"`
	Net    int64  `json:"net"`
}

// Line is a line of actions, laid out at most PerRow to a row.
type Line struct {
	PerRow  int      `json:"per_row"`
	Actions []Action `json:"buttons"`
}

// Action is one thing the viewer can do: a button of the chat's table.
type Action struct {
	// Verb is the button's action (callback.Action.String: "join",
	// "bet", "hit", "cut", …).
	Verb string `json:"verb"`
	// Label is the button's label in Lang; Style its colour ("primary",
	// "success" or "" as the chat's button).
	Label string `json:"label"`
	Style string `json:"style,omitempty"`
	// Data is the callback data the chat's button carries: what the page
	// sends to act.
	Data string `json:"data"`
}

// Make returns the view of in.Table for in.Viewer.
func Make(in Input) View {
	lang := i18n.For(in.ChatLanguage, in.Viewer.LanguageCode)
	in.Lang = lang
	m := &maker{in: in, t: &in.Table}
	words := render.TableWords(in.Input)
	t := m.t
	s := in.Settings
	if t.Phase().InGame() {
		s = t.Settings()
	}
	v := View{
		V: Format, Version: t.Version(), Game: t.Game(), Phase: t.Phase().String(), Lang: string(lang),
		Title: words.Title, Stake: s.Stake, EntryLimit: s.EntryLimit,
		Banker: -1, Turn: -1, Deadline: millis(t.Deadline()),
		You: You{Seat: -1, Balance: m.balance(in.Viewer.User)},
		Log: words.Log[max(len(words.Log)-MaxLog, 0):], Closed: words.Closed, Actions: m.actions(),
	}
	if t.Phase().InGame() {
		v.Bank, v.Circle, v.Knocks, v.MaxKnocks = t.Bank(), t.Circle(), t.Knocks(), s.MaxKnocks
		if b, ok := t.Banker(); ok {
			v.Banker = b
		}
		if i, ok := t.Turn(); ok {
			v.Turn = i
		}
		v.Deck = m.deck(words)
	}
	if i, ok := t.SeatOf(in.Viewer.User); ok {
		v.You.Seat = i
	}
	v.Seats = m.seats(v.Banker, v.Turn, words.Notes)
	if t.Finished() {
		if c, ok := t.Revealed(); ok {
			v.Revealed = c.String()
		}
		v.Result = m.nets()
	}
	return v
}

// maker is what making one view needs at hand.
type maker struct {
	// in.Lang is the view's language.
	in Input
	t  *game.Table
}

// balance returns user's balance, nil when not known.
func (m *maker) balance(user game.UserID) *int64 {
	b, ok := m.in.Balances[user]
	if !ok {
		return nil
	}
	return &b
}

// nets are what the finished game gave each player.
func (m *maker) nets() []Net {
	var out []Net
	for _, p := range m.t.Players() {
		out = append(out, Net{Name: m.in.ShownName(p.User, p.Name), Banker: p.Banker, Net: p.Net})
	}
	return out
}

// millis returns t in Unix milliseconds, 0 for the zero time.
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}
