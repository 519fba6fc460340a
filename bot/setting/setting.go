// Package setting is the settings editor: it changes one setting of a chat
// (a row of game.Fields, in game.ChatSettings), for the settings buttons
// ([Press]) and for "/settings KEY VALUE" as an admin types it ([Set])
// alike. Both read the value the same way, by the setting's kind, check
// the result with one rule (game.ChatSettings.Validate) and say what is
// wrong with one set of messages ([Problem]); a setting's choices on the
// settings panel offer only the values Press would accept.
package setting

import (
	"cmp"
	"errors"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

// ErrStale is returned by Press for a button drawn for other settings than
// the current ones (see callback.Stamp).
var ErrStale = errors.New("the settings have changed")

// Set returns c with the setting key (one of game.Fields) set to value as
// an admin types it, by the setting's kind: a number in decimal; a time
// in whole seconds, as a number of seconds or a duration ("90s", "2m");
// bet options as a list ("x1 x2 bank/2 bank") that replaces the current
// one and is kept in the order of [SortBets]; a language by its code in
// any case ("RU"); a toggle "on" or "off", in any case. A value it cannot
// read, or one whose result breaks a limit given the other settings,
// returns a *Problem and c unchanged. Set leaves c alone.
func Set(c game.ChatSettings, key, value string) (game.ChatSettings, error) {
	f, next, err := read(c, key, value)
	if err != nil {
		return c, err
	}
	if err := next.Validate(); err != nil {
		return c, &Problem{kind: breaksLimit, field: key, value: value, err: err}
	}
	if f.Kind == game.FieldBets {
		SortBets(f.Get(next).Bets)
	}
	return next, nil
}

// Press returns c changed as the Setting button d asks: its field set to
// its value as [Set] does, or for bet options, the bet option it carries
// turned on when off and off when on. It returns ErrStale when d was drawn
// for other settings than c (a double tap on a toggle must not undo
// itself), and a *Problem for data that is no Setting the bot draws (only
// forged data is) or whose result breaks a limit. Press leaves c alone.
func Press(c game.ChatSettings, d callback.Data) (game.ChatSettings, error) {
	f, ok := game.FieldByKey(d.Field)
	if d.Action != callback.Setting || !ok {
		return c, &Problem{kind: unknownField, field: d.Field, value: d.Value}
	}
	value := d.Value
	if f.Kind == game.FieldBets {
		o, err := callback.ParseBetToken(d.Value)
		if err != nil {
			return c, &Problem{kind: badValue, field: d.Field, value: d.Value}
		}
		value = game.FormatBetOptions(toggle(f.Get(c).Bets, o))
	}
	// Data that is no setting is refused as such, stale or not.
	if _, _, err := read(c, d.Field, value); err != nil {
		return c, err
	}
	if d.Version != callback.Stamp(c) {
		return c, ErrStale
	}
	return Set(c, d.Field, value)
}

// SetLang returns c speaking l.
func SetLang(c game.ChatSettings, l i18n.Lang) game.ChatSettings {
	c.Language = string(l)
	return c
}

// ReadLang reads a language as an admin types it ("en", "RU", "uk"); a
// language the bot does not speak returns a *Problem that says which it
// does.
func ReadLang(value string) (i18n.Lang, error) {
	l, ok := i18n.Parse(value)
	if !ok {
		return l, &Problem{kind: unknownLang, value: value}
	}
	return l, nil
}

// read returns the setting key and c with it set to value, unchecked.
func read(c game.ChatSettings, key, value string) (game.Field, game.ChatSettings, error) {
	f, ok := game.FieldByKey(key)
	if !ok {
		return f, c, &Problem{kind: unknownField, field: key, value: value}
	}
	var v game.Value
	switch f.Kind {
	case game.FieldNumber:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return f, c, &Problem{kind: notNumber, field: key, value: value}
		}
		v.N = n
	case game.FieldDuration:
		d, ok := readDuration(value)
		if !ok {
			return f, c, &Problem{kind: badValue, field: key, value: value}
		}
		v.N = int64(d)
	case game.FieldBets:
		// Only the syntax here: a list too long or with an option twice
		// breaks a limit, which Validate finds.
		opts, err := game.ReadBetOptions(value)
		if err != nil {
			return f, c, &Problem{kind: betSyntax, field: key, value: value}
		}
		v.Bets = opts
	case game.FieldLanguage:
		l, err := ReadLang(value)
		if err != nil {
			return f, c, err
		}
		v.Text = string(l)
	case game.FieldToggle:
		switch strings.ToLower(value) {
		case callback.On:
			v.On = true
		case callback.Off:
		default:
			return f, c, &Problem{kind: badValue, field: key, value: value}
		}
	}
	next := c.Clone()
	f.Set(&next, v)
	return f, next, nil
}

// readDuration reads a time in whole seconds: a number of seconds, or a
// duration ("90s", "1m30s"). Whole seconds are what the buttons carry and
// the settings show. A number of seconds too large for a duration is no
// time.
func readDuration(value string) (time.Duration, bool) {
	d, err := time.ParseDuration(value)
	if err != nil {
		n, nerr := strconv.ParseInt(value, 10, 64)
		if nerr != nil || n < 0 || n > math.MaxInt64/int64(time.Second) {
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
	err          error // breaksLimit: why, from game (a *game.SettingError)
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
		return i18n.T(l, i18n.SettingsUnknownField, echo(p.field), Keys())
	case badValue:
		return i18n.T(l, i18n.SettingsBadValue, echo(p.value), echo(p.field))
	case unknownLang:
		return i18n.T(l, i18n.LangUnknown, echo(p.value))
	case notNumber:
		return i18n.T(l, i18n.SettingsInvalid, i18n.T(l, i18n.ProblemNumber, echo(p.value)))
	case betSyntax:
		return i18n.T(l, i18n.SettingsInvalid, i18n.T(l, i18n.ProblemBetSyntax))
	}
	return i18n.T(l, i18n.SettingsInvalid, html.EscapeString(i18n.SettingsProblem(l, p.err)))
}

// Popup says what is wrong in l as the answer to a button press, plain
// text, and whether to show it as an alert: the limit a result breaks, or
// that the button does not work (a button the bot draws always reads).
func (p *Problem) Popup(l i18n.Lang) (text string, alert bool) {
	if p.kind == breaksLimit {
		return i18n.T(l, i18n.PopInvalid, i18n.SettingsProblem(l, p.err)), true
	}
	return i18n.T(l, i18n.PopBadButton), false
}

// Keys lists the keys of the settings, in the order of the panel, for a
// message: "stake, entry, bets, …".
func Keys() string {
	var keys []string
	for _, f := range game.Fields() {
		keys = append(keys, f.Key)
	}
	return strings.Join(keys, ", ")
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
