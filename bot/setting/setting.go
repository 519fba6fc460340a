// Package setting is the settings editor: it changes one setting of a chat,
// for the settings buttons ([Press]) and for "/settings FIELD VALUE" as an
// admin types it ([Set]) alike. Both read the value the same way, check the
// result with one rule (game.Settings.Validate) and say what is wrong with
// one set of messages ([Problem]); a setting's choices on the settings
// panel offer only the values Press would accept.
package setting

import (
	"cmp"
	"errors"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

// Chat is what an admin edits: the game's settings, the chat's language
// and whether the house may sit at its tables.
type Chat struct {
	Game game.Settings
	Lang i18n.Lang
	// HouseForbidden: the house may not sit (FieldHouse off).
	HouseForbidden bool
}

// Stamp is the stamp of the settings' buttons (callback.Stamp).
func (c Chat) Stamp() uint64 { return callback.Stamp(c.Game, string(c.Lang), c.HouseForbidden) }

// ErrStale is returned by Press for a button drawn for other settings than
// the current ones (see callback.Stamp).
var ErrStale = errors.New("the settings have changed")

// Set returns c with field (one of the callback Field constants) set to
// value as an admin types it: numbers in decimal; times in whole seconds,
// as a number of seconds or a duration ("90s", "2m"); bet options as a list
// ("x1 x2 bank/2 bank") that replaces the current one and is kept in the
// order of [SortBets]; a language by its code in any case ("RU"); the
// house "on" or "off", in any case. A value
// it cannot read, or one whose result breaks a limit given the other
// settings, returns a *Problem and c unchanged. Set leaves c alone.
func Set(c Chat, field, value string) (Chat, error) {
	next, err := read(c, field, value)
	if err != nil {
		return c, err
	}
	if err := next.Game.Validate(); err != nil {
		return c, &Problem{kind: breaksLimit, field: field, value: value, settings: next.Game, err: err}
	}
	if field == callback.FieldBets {
		SortBets(next.Game.BetOptions)
	}
	return next, nil
}

// Press returns c changed as the Setting button d asks: its field set to
// its value as [Set] does, or for bets, the bet option it carries turned on
// when off and off when on. It returns ErrStale when d was drawn for other
// settings than c (a double tap on a toggle must not undo itself), and a
// *Problem for data that is no Setting the bot draws (only forged data is)
// or whose result breaks a limit. Press leaves c alone.
func Press(c Chat, d callback.Data) (Chat, error) {
	if d.Action != callback.Setting {
		return c, &Problem{kind: unknownField, field: d.Field, value: d.Value}
	}
	value := d.Value
	if d.Field == callback.FieldBets {
		o, err := callback.ParseBetToken(d.Value)
		if err != nil {
			return c, &Problem{kind: badValue, field: d.Field, value: d.Value}
		}
		value = game.FormatBetOptions(toggle(c.Game.BetOptions, o))
	}
	// Data that is no setting is refused as such, stale or not.
	if _, err := read(c, d.Field, value); err != nil {
		return c, err
	}
	if d.Version != c.Stamp() {
		return c, ErrStale
	}
	return Set(c, d.Field, value)
}

// ReadLang reads a language as an admin types it ("en", "RU", "uk"); a
// language the bot does not speak returns a *Problem that says which it
// does.
func ReadLang(value string) (i18n.Lang, error) {
	l, ok := i18n.Parse(value)
	if !ok {
		return l, &Problem{kind: unknownLang, field: callback.FieldLang, value: value}
	}
	return l, nil
}

// read returns c with field set to value, unchecked.
func read(c Chat, field, value string) (Chat, error) {
	next := Chat{Game: c.Game.Clone(), Lang: c.Lang, HouseForbidden: c.HouseForbidden}
	g := &next.Game
	switch field {
	case callback.FieldStake, callback.FieldEntry, callback.FieldKnocks:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return c, &Problem{kind: notNumber, field: field, value: value}
		}
		switch field {
		case callback.FieldStake:
			g.Stake = n
		case callback.FieldEntry:
			g.EntryLimit = n
		default:
			if n < 0 || n > game.MaxKnocksLimit {
				g.MaxKnocks = -1 // out of range: Validate says so
			} else {
				g.MaxKnocks = int(n)
			}
		}
	case callback.FieldTurn, callback.FieldLobby:
		d, ok := readDuration(value)
		if !ok {
			return c, &Problem{kind: badValue, field: field, value: value}
		}
		if field == callback.FieldTurn {
			g.TurnTimeout = d
		} else {
			g.LobbyTimeout = d
		}
	case callback.FieldBets:
		// Only the syntax here: a list too long or with an option twice
		// breaks a limit, which Validate finds.
		opts, err := game.ReadBetOptions(value)
		if err != nil {
			return c, &Problem{kind: betSyntax, field: field, value: value}
		}
		g.BetOptions = opts
	case callback.FieldLang:
		l, err := ReadLang(value)
		if err != nil {
			return c, err
		}
		next.Lang = l
	case callback.FieldHouse:
		switch strings.ToLower(value) {
		case callback.HouseOn:
			next.HouseForbidden = false
		case callback.HouseOff:
			next.HouseForbidden = true
		default:
			return c, &Problem{kind: badValue, field: field, value: value}
		}
	default:
		return c, &Problem{kind: unknownField, field: field, value: value}
	}
	return next, nil
}

// readDuration reads a time in whole seconds: a number of seconds, or a
// duration ("90s", "1m30s"). Whole seconds are what the buttons carry and
// the settings show. Any number of seconds past the longest time allowed is
// no time, so that it cannot overflow.
func readDuration(value string) (time.Duration, bool) {
	d, err := time.ParseDuration(value)
	if err != nil {
		n, nerr := strconv.ParseInt(value, 10, 64)
		if nerr != nil || n < 0 || n > int64(game.MaxLobbyTimeout/time.Second) {
			return 0, false
		}
		d = time.Duration(n) * time.Second
	}
	return d, d%time.Second == 0
}

// toggle returns opts without o when it holds o, else with o added.
func toggle(opts []game.BetOption, o game.BetOption) []game.BetOption {
	out := slices.DeleteFunc(slices.Clone(opts), func(x game.BetOption) bool { return x == o })
	if len(out) == len(opts) {
		out = append(out, o)
	}
	return out
}

// SortBets sorts bet options in the order the editor keeps them: stake
// multiples from the smallest, then shares of the bank from the smallest
// bet (bank/4 before bank/2 before the whole bank).
func SortBets(opts []game.BetOption) {
	slices.SortStableFunc(opts, func(a, b game.BetOption) int {
		if a.Kind != b.Kind {
			return cmp.Compare(a.Kind, b.Kind)
		}
		if a.Kind == game.BankShare {
			return cmp.Compare(b.N, a.N)
		}
		return cmp.Compare(a.N, b.N)
	})
}

// problemKind is what is wrong with a change.
type problemKind uint8

const (
	unknownField problemKind = iota + 1
	notNumber
	badValue
	betSyntax
	unknownLang
	breaksLimit
)

// Problem is why the editor refused a change. Message says it to an admin
// who typed the change, Popup to one who pressed a button. A Problem about
// a result that breaks a limit wraps the game's error
// (errors.Is(p, game.ErrInvalidSettings)).
type Problem struct {
	kind         problemKind
	field, value string
	settings     game.Settings // breaksLimit: the result
	err          error         // breaksLimit: why, from game
}

// Error says what is wrong, in English, for logs.
func (p *Problem) Error() string {
	switch p.kind {
	case unknownField:
		return fmt.Sprintf("no setting %q", p.field)
	case unknownLang:
		return fmt.Sprintf("no language %q", p.value)
	case breaksLimit:
		return p.err.Error()
	}
	return fmt.Sprintf("%q is not a value for %s", p.value, p.field)
}

// Unwrap returns the game's error for a result that breaks a limit, else
// nil.
func (p *Problem) Unwrap() error { return p.err }

// Message says what is wrong in l, in HTML, quoting at most maxEcho
// characters of what the admin typed.
func (p *Problem) Message(l i18n.Lang) string {
	switch p.kind {
	case unknownField:
		return i18n.T(l, i18n.SettingsUnknownField, echo(p.field))
	case badValue:
		return i18n.T(l, i18n.SettingsBadValue, echo(p.value), echo(p.field))
	case unknownLang:
		return i18n.T(l, i18n.LangUnknown, echo(p.value))
	case notNumber:
		return i18n.T(l, i18n.SettingsInvalid, i18n.T(l, i18n.ProblemNumber, echo(p.value)))
	case betSyntax:
		return i18n.T(l, i18n.SettingsInvalid, i18n.T(l, i18n.ProblemBetSyntax))
	}
	return i18n.T(l, i18n.SettingsInvalid, html.EscapeString(i18n.SettingsProblem(l, p.settings)))
}

// Popup says what is wrong in l as the answer to a button press, plain
// text, and whether to show it as an alert: the limit a result breaks, or
// that the button does not work (a button the bot draws always reads).
func (p *Problem) Popup(l i18n.Lang) (text string, alert bool) {
	if p.kind == breaksLimit {
		return i18n.T(l, i18n.PopInvalid, i18n.SettingsProblem(l, p.settings)), true
	}
	return i18n.T(l, i18n.PopBadButton), false
}

// maxEcho bounds, in characters, what a message quotes of what a user
// typed: a long argument must not push it past Telegram's 4096.
const maxEcho = 40

// echo is s as a message quotes it: at most maxEcho characters,
// HTML-escaped.
func echo(s string) string {
	if utf8.RuneCountInString(s) > maxEcho {
		s = string([]rune(s)[:maxEcho-1]) + "…"
	}
	return html.EscapeString(s)
}
