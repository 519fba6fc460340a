// Package callback encodes and parses the callback data of the bot's inline
// buttons. Callback data comes back from Telegram as whatever a client sends,
// so Parse accepts exactly the strings String produces and nothing else; even
// then the data is only a request: who pressed, whose turn it is and what is
// allowed are checked against the stored state.
//
// The encoding is short ASCII, fields separated by colons, numbers in decimal
// without leading zeros or signs:
//
//	j:<version>   join          l:<version>  leave      s:<version>  start
//	h:<version>   hit           d:<version>  stand      n:<version>  new table
//	a:<version>   seat the house              r:<version>  unseat the house
//	b:<version>:<amount>        bet
//	c:<stamp>:<field>:<value>   change a setting (stamp: see [Stamp])
//	o:<stamp>:<field>           open a setting's choices on the settings panel
//	k:<stamp>                   back to the list of the settings
//	i:<field>                   explain a setting (drawn by older versions)
//	v:<game>                    show the decks of a game
//	u:<group>                   stop following a group (its id without the
//	                            minus: a group's id is negative)
//	p:<stake>:<entry>:<lang>    open a table on an inline message, with
//	                            this stake and minimum balance, in lang
//	t:<version>                 the chat's leaderboard, on an inline table
//	x:<version>:<tap>           cut the deck with the cut button tap (1 to
//	                            MaxTap), which cuts with "tap:<tap>"
//
// One action has no encoding: OpenApp, a link that Telegram opens itself
// (no press reaches the bot). String gives "?" for it, and Parse never
// returns it.
//
// A table version is at least 1: a table shows buttons only once it was
// opened, and game.Apply reads version 0 as "no version to check", so a
// button forged with 0 would skip the guard against outdated presses and
// double taps. A settings stamp may be 0, as [Stamp] may hash to it; it is
// always checked.
package callback

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/twentyone-bot/twentyone/game"
)

// Limits of the numbers callback data carries.
const (
	// MaxVersion is the largest table version, settings stamp or game
	// number: 2^53 − 1, so that the numbers survive JSON anywhere.
	MaxVersion = 1<<53 - 1
	// MaxAmount is the largest bet.
	MaxAmount = 1_000_000_000_000_000
	// MaxLen is Telegram's limit on callback data, in bytes.
	MaxLen = 64
	// MaxTap is the number of cut buttons: a Cut carries 1 to MaxTap.
	MaxTap = 3
)

// ErrInvalid is wrapped by every error Parse returns.
var ErrInvalid = errors.New("invalid callback data")

// Action is what a button asks for.
type Action uint8

// The actions of the bot's buttons.
const (
	// Join sits the presser down in the lobby (Version).
	Join Action = iota + 1
	// Leave stands the presser up (Version).
	Leave
	// Start starts a game, or the next one (Version).
	Start
	// Bet bets Amount (Version).
	Bet
	// Hit draws a card (Version).
	Hit
	// Stand stops drawing (Version).
	Stand
	// NewTable opens a table where one closed (Version).
	NewTable
	// Setting sets Field to Value, or toggles the bet option Value when
	// Field is bets; Version is the [Stamp] of the settings the button was
	// drawn for.
	Setting
	// SettingInfo explains Field. The settings panel no longer draws it;
	// panels drawn before still carry it.
	SettingInfo
	// Verify shows the decks of Game.
	Verify
	// Unfollow stops the presser's following of the group Chat (in the
	// private chat's list of the groups followed).
	Unfollow
	// SeatHouse seats the house in the lobby (Version).
	SeatHouse
	// UnseatHouse stands the house up (Version).
	UnseatHouse
	// SettingOpen shows the choices of Field on the settings panel
	// pressed; Version is the [Stamp] of the settings it was drawn for.
	SettingOpen
	// SettingBack shows the list of the settings on the settings panel
	// pressed; Version is the [Stamp] of the settings it was drawn for.
	SettingBack
	// InlineOpen opens a table on the inline message pressed, with stake
	// Amount and minimum balance Entry, speaking Lang, and seats the
	// presser: the one button of an inline message no press has opened
	// yet.
	InlineOpen
	// Top shows the chat's leaderboard on an inline table (Version), where
	// the bot can send no message.
	Top
	// Cut cuts the deck the table waits for with cut button Tap (Version):
	// the cut's text is [TapText] of Tap.
	Cut
	// OpenApp opens the Mini App at the table: a link button (a URL or
	// web_app button) that carries no callback data, so that its button
	// has a row as every other (bot/button). It has no code: no press of
	// it reaches the bot.
	OpenApp
)

// codes are the actions' one-letter codes, indexed by Action.
var codes = [...]byte{Join: 'j', Leave: 'l', Start: 's', Bet: 'b', Hit: 'h', Stand: 'd',
	NewTable: 'n', Setting: 'c', SettingInfo: 'i', Verify: 'v', Unfollow: 'u', SeatHouse: 'a', UnseatHouse: 'r',
	SettingOpen: 'o', SettingBack: 'k', InlineOpen: 'p', Top: 't', Cut: 'x', OpenApp: 0}

var actionNames = [...]string{Join: "join", Leave: "leave", Start: "start", Bet: "bet", Hit: "hit",
	Stand: "stand", NewTable: "new_table", Setting: "setting", SettingInfo: "setting_info", Verify: "verify",
	Unfollow: "unfollow", SeatHouse: "seat_house", UnseatHouse: "unseat_house", SettingOpen: "setting_open",
	SettingBack: "setting_back", InlineOpen: "inline_open", Top: "top", Cut: "cut", OpenApp: "open_app"}

// String returns the action's name.
func (a Action) String() string {
	if a.valid() {
		return actionNames[a]
	}
	return "action(" + strconv.Itoa(int(a)) + ")"
}

func (a Action) valid() bool { return a >= Join && a <= OpenApp }

// TableAction reports whether the action acts on the table and carries its
// version.
func (a Action) TableAction() bool {
	return a >= Join && a <= NewTable || a == SeatHouse || a == UnseatHouse || a == Cut
}

// TapText is the cut a cut button gives: "tap:1" for tap 1, as
// docs/FAIRNESS.md promises the players; "" for a tap out of 1 to MaxTap.
func TapText(tap int) string {
	if tap < 1 || tap > MaxTap {
		return ""
	}
	return "tap:" + strconv.Itoa(tap)
}

// Data is what a button carries. Which fields are set depends on Action; the
// others are zero.
type Data struct {
	// Action is what the button asks for.
	Action Action
	// Version is the table version the button was drawn for (table
	// actions, at least 1), or the settings stamp (Setting, SettingOpen,
	// SettingBack).
	Version uint64
	// Amount is the bet (Bet), or the stake (InlineOpen).
	Amount int64
	// Entry is the minimum balance (InlineOpen).
	Entry int64
	// Lang is the language code of the table (InlineOpen): two lower-case
	// letters.
	Lang string
	// Field is the setting (Setting, SettingOpen, SettingInfo): the key
	// of one of game.Fields.
	Field string
	// Value is the setting's new value (Setting), as [Value] and [BetToken]
	// write it, within the setting's range.
	Value string
	// Game is the game whose decks to show (Verify).
	Game uint64
	// Chat is the group to stop following (Unfollow): negative, as every
	// group's id, from -1 to -MaxVersion.
	Chat int64
	// Tap is the cut button pressed (Cut): 1 to MaxTap.
	Tap int
}

// String returns the encoding of d: 1 to 64 bytes of ASCII. Data that
// Parse would not return encodes to something Parse rejects: "?" for an
// action without an encoding (OpenApp, or none).
func (d Data) String() string {
	if !d.Action.valid() || codes[d.Action] == 0 {
		return "?"
	}
	b := make([]byte, 0, MaxLen)
	b = append(b, codes[d.Action], ':')
	switch d.Action {
	case Bet:
		b = strconv.AppendUint(b, d.Version, 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, d.Amount, 10)
	case Cut:
		b = strconv.AppendUint(b, d.Version, 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(d.Tap), 10)
	case Setting:
		b = strconv.AppendUint(b, d.Version, 10)
		b = append(b, ':')
		b = appendBounded(b, d.Field, game.MaxKeyLen)
		b = append(b, ':')
		b = appendBounded(b, d.Value, 16)
	case SettingOpen:
		b = strconv.AppendUint(b, d.Version, 10)
		b = append(b, ':')
		b = appendBounded(b, d.Field, game.MaxKeyLen)
	case SettingInfo:
		b = appendBounded(b, d.Field, game.MaxKeyLen)
	case Verify:
		b = strconv.AppendUint(b, d.Game, 10)
	case Unfollow:
		b = strconv.AppendUint(b, uint64(-d.Chat), 10) // not a group's: out of Parse's bounds
	case InlineOpen:
		b = strconv.AppendInt(b, d.Amount, 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, d.Entry, 10)
		b = append(b, ':')
		b = appendBounded(b, d.Lang, 2)
	default:
		b = strconv.AppendUint(b, d.Version, 10)
	}
	return string(b)
}

// appendBounded appends at most n bytes of s, so that no Data encodes to
// more than MaxLen bytes.
func appendBounded(b []byte, s string, n int) []byte {
	if len(s) > n {
		s = s[:n]
	}
	return append(b, s...)
}

// Parse parses callback data as String encodes it. It accepts nothing else:
// unknown actions and fields, numbers out of bounds or with leading zeros or
// signs, missing or extra parts, and anything over 64 bytes or not ASCII are
// errors wrapping ErrInvalid.
func Parse(s string) (Data, error) {
	if len(s) == 0 || len(s) > MaxLen {
		return Data{}, fmt.Errorf("%w: %d bytes", ErrInvalid, len(s))
	}
	if len(s) < 3 || s[1] != ':' {
		return Data{}, fmt.Errorf("%w: %q", ErrInvalid, s)
	}
	var a Action
	for i, c := range codes {
		if c == s[0] && c != 0 {
			a = Action(i)
		}
	}
	if a == 0 {
		return Data{}, fmt.Errorf("%w: unknown action %q", ErrInvalid, s[0])
	}
	d := Data{Action: a}
	rest := s[2:]
	var err error
	switch a {
	case Bet:
		var ver, amt string
		if ver, amt, err = cut2(rest); err == nil {
			if d.Version, err = number(ver, 1, MaxVersion); err == nil {
				var n uint64
				n, err = number(amt, 1, MaxAmount)
				d.Amount = int64(n)
			}
		}
	case Cut:
		var ver, tap string
		if ver, tap, err = cut2(rest); err == nil {
			if d.Version, err = number(ver, 1, MaxVersion); err == nil {
				var n uint64
				n, err = number(tap, 1, MaxTap)
				d.Tap = int(n)
			}
		}
	case Setting:
		err = d.parseSetting(rest)
	case SettingOpen:
		var stamp, field string
		if stamp, field, err = cut2(rest); err == nil {
			if d.Version, err = number(stamp, 0, MaxVersion); err == nil && !knownField(field) {
				err = fmt.Errorf("unknown field %q", field)
			}
			d.Field = field
		}
	case SettingBack:
		d.Version, err = number(rest, 0, MaxVersion)
	case SettingInfo:
		if !knownField(rest) {
			err = fmt.Errorf("unknown field %q", rest)
		}
		d.Field = rest
	case Verify:
		d.Game, err = number(rest, 1, MaxVersion)
	case Unfollow:
		var n uint64
		n, err = number(rest, 1, MaxVersion)
		d.Chat = -int64(n)
	case InlineOpen:
		err = d.parseInlineOpen(rest)
	default:
		d.Version, err = number(rest, 1, MaxVersion)
	}
	if err != nil {
		return Data{}, fmt.Errorf("%w: %s: %w", ErrInvalid, a, err)
	}
	return d, nil
}

func (d *Data) parseSetting(rest string) error {
	parts := strings.Split(rest, ":")
	if len(parts) != 3 {
		return fmt.Errorf("%d parts, want 3", len(parts))
	}
	stamp, field, value := parts[0], parts[1], parts[2]
	var err error
	if d.Version, err = number(stamp, 0, MaxVersion); err != nil {
		return err
	}
	if err := checkValue(field, value); err != nil {
		return err
	}
	d.Field, d.Value = field, value
	return nil
}

func (d *Data) parseInlineOpen(rest string) error {
	parts := strings.Split(rest, ":")
	if len(parts) != 3 {
		return fmt.Errorf("%d parts, want 3", len(parts))
	}
	stake, err := number(parts[0], 1, MaxAmount)
	if err != nil {
		return err
	}
	entry, err := number(parts[1], 1, MaxAmount)
	if err != nil {
		return err
	}
	lang := parts[2]
	if len(lang) != 2 || lang[0] < 'a' || lang[0] > 'z' || lang[1] < 'a' || lang[1] > 'z' {
		return fmt.Errorf("language %q", lang)
	}
	d.Amount, d.Entry, d.Lang = int64(stake), int64(entry), lang
	return nil
}

// cut2 splits s at its one colon.
func cut2(s string) (string, string, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 2 {
		return "", "", fmt.Errorf("%d parts, want 2", len(parts))
	}
	return parts[0], parts[1], nil
}

// maxDigits is more digits than any bound has, so that number rejects long
// strings before converting them.
const maxDigits = 19

// number parses a canonical decimal number: "0", or a nonzero digit followed
// by digits, within [lo, hi].
func number(s string, lo, hi uint64) (uint64, error) {
	if s == "" || len(s) > maxDigits {
		return 0, fmt.Errorf("number %q", s)
	}
	if s[0] == '0' && len(s) > 1 {
		return 0, fmt.Errorf("leading zero in %q", s)
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("number %q", s)
		}
		n = n*10 + uint64(c-'0')
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%d out of [%d, %d]", n, lo, hi)
	}
	return n, nil
}
