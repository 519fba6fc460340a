package game

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Every setting an admin changes with /settings is declared once, as a row
// of fields below: its key, its kind, its range and default, its config
// key, the panel's icon and presets, and how the row reads and writes the
// value in ChatSettings. Everything else reads the rows and restates
// nothing: here Settings.Validate, Equal, Clone and the table's encoding;
// above, the config loader (bot/config), the callback grammar
// (bot/callback), the settings editor (bot/setting), the panel
// (bot/render) and the problems' texts (bot/i18n).
//
// The texts of a setting are found by its key, by one rule (package i18n:
// "setting.KEY" names it, "setting.KEY.about" explains it, and a kind's
// own: "setting.KEY.range", "setting.KEY.below", "setting.KEY.on",
// "setting.KEY.off"); a test of package i18n fails when a row lacks one in
// any language.
//
// To add a setting: its field in Settings (one a table plays by) or in
// ChatSettings (the chat's own), its row in fields, and its texts in
// bot/i18n's catalogues. A row of a table setting goes after the last such
// row: a table's encoding writes them in the order of the rows.

// FieldKind is what a setting's value is, which says how it is written,
// read, checked, stored and offered.
type FieldKind uint8

// The kinds of setting.
const (
	// FieldNumber is a whole number (chips, a count): Value.N, within
	// [Min, Max]; the panel offers Presets.
	FieldNumber FieldKind = iota + 1
	// FieldDuration is a time: Value.N in nanoseconds (a time.Duration),
	// within [Min, Max]; admins and buttons write it in whole seconds, and
	// the panel offers Presets.
	FieldDuration
	// FieldBets is a list of bet options: Value.Bets, Min to Max of them,
	// each valid and none twice; the panel toggles BetPresets.
	FieldBets
	// FieldToggle is on or off: Value.On; the panel offers both.
	FieldToggle
	// FieldLanguage is a language code: Value.Text, two to eight lowercase
	// ASCII letters or "" while not decided. Which languages there are is
	// the bot's to say (package i18n).
	FieldLanguage
)

// MaxKeyLen is the longest key of a setting, in bytes: callback data
// carries it.
const MaxKeyLen = 12

// Value is a setting's value, in the member its kind uses (see
// FieldKind): N, On, Bets or Text.
type Value struct {
	N    int64
	On   bool
	Bets []BetOption
	Text string
}

// Field is one setting: its declaration.
type Field struct {
	// Key names the setting wherever the bot shows or takes it: the word
	// of "/settings KEY VALUE", the field of its buttons' callback data,
	// and the keys of its texts. At most MaxKeyLen lowercase ASCII
	// letters.
	Key string
	// Name is the setting in English, for errors and logs: "entry limit".
	Name string
	// Config is its key under table: in the config file ("entry_limit",
	// also TWENTYONE_TABLE_ENTRY_LIMIT); "" for a setting the config gives
	// no default of.
	Config string
	// Kind is what the value is.
	Kind FieldKind
	// Chat: the setting is the chat's own (ChatSettings), in force at
	// once; else a table plays by it (Settings) and keeps the value it
	// opened or started with.
	Chat bool
	// Min and Max bound a number or a duration (in its unit), or how many
	// bet options there are.
	Min, Max int64
	// AtLeast is the key of another number this one may not be below
	// ("stake" for the entry limit); checked before the range.
	AtLeast string
	// Default is the value of a chat nobody configured, unless the config
	// says otherwise.
	Default Value
	// Presets are the values the panel offers besides the current one (a
	// number or a duration, in its unit).
	Presets []int64
	// BetPresets are the bet options the panel toggles besides those on,
	// a row of buttons each.
	BetPresets [][]BetOption
	// Icon marks the setting on the panel.
	Icon string
	// get reads the value from c; set returns c with the value v.
	get func(c ChatSettings) Value
	set func(c ChatSettings, v Value) ChatSettings
}

// fields are the settings, in the order the panel shows them.
var fields = []Field{
	{Key: "stake", Name: "stake", Config: "stake", Kind: FieldNumber, Icon: "💰",
		Min: 1, Max: MaxStake, Default: Value{N: 10}, Presets: []int64{5, 10, 25, 50, 100},
		get: func(c ChatSettings) Value { return Value{N: c.Game.Stake} },
		set: func(c ChatSettings, v Value) ChatSettings { c.Game.Stake = v.N; return c }},
	{Key: "entry", Name: "entry limit", Config: "entry_limit", Kind: FieldNumber, Icon: "🚪",
		Min: 1, Max: MaxStake * MaxStakeTimes, AtLeast: "stake", Default: Value{N: 100}, Presets: []int64{50, 100, 200, 500, 1000},
		get: func(c ChatSettings) Value { return Value{N: c.Game.EntryLimit} },
		set: func(c ChatSettings, v Value) ChatSettings { c.Game.EntryLimit = v.N; return c }},
	{Key: "bets", Name: "bet options", Config: "bet_options", Kind: FieldBets, Icon: "🎲",
		Min: 1, Max: MaxBetOptions,
		Default: Value{Bets: []BetOption{{StakeTimes, 1}, {StakeTimes, 2}, {StakeTimes, 5}, {BankShare, 2}, {BankShare, 1}}},
		BetPresets: [][]BetOption{
			{{StakeTimes, 1}, {StakeTimes, 2}, {StakeTimes, 5}, {StakeTimes, 10}},
			{{BankShare, 4}, {BankShare, 3}, {BankShare, 2}, {BankShare, 1}},
		},
		get: func(c ChatSettings) Value { return Value{Bets: c.Game.BetOptions} },
		set: func(c ChatSettings, v Value) ChatSettings { c.Game.BetOptions = v.Bets; return c }},
	{Key: "turn", Name: "turn timeout", Config: "turn_timeout", Kind: FieldDuration, Icon: "⏱",
		Min: int64(MinTurnTimeout), Max: int64(MaxTurnTimeout), Default: Value{N: int64(time.Minute)},
		Presets: seconds(10, 30, 60, 90, 120),
		get:     func(c ChatSettings) Value { return Value{N: int64(c.Game.TurnTimeout)} },
		set:     func(c ChatSettings, v Value) ChatSettings { c.Game.TurnTimeout = time.Duration(v.N); return c }},
	{Key: "lobby", Name: "lobby timeout", Config: "lobby_timeout", Kind: FieldDuration, Icon: "⏳",
		Min: int64(MinLobbyTimeout), Max: int64(MaxLobbyTimeout), Default: Value{N: int64(10 * time.Minute)},
		Presets: seconds(120, 300, 600, 1800, 3600),
		get:     func(c ChatSettings) Value { return Value{N: int64(c.Game.LobbyTimeout)} },
		set:     func(c ChatSettings, v Value) ChatSettings { c.Game.LobbyTimeout = time.Duration(v.N); return c }},
	{Key: "knocks", Name: "max knocks", Config: "max_knocks", Kind: FieldNumber, Icon: "🔔",
		Min: 0, Max: MaxKnocksLimit, Default: Value{N: 3}, Presets: []int64{0, 1, 2, 3, 5},
		get: func(c ChatSettings) Value { return Value{N: int64(c.Game.MaxKnocks)} },
		set: func(c ChatSettings, v Value) ChatSettings { c.Game.MaxKnocks = toInt(v.N); return c }},
	{Key: "autostart", Name: "autostart", Config: "autostart", Kind: FieldToggle, Icon: "🚀",
		get: func(c ChatSettings) Value { return Value{On: c.Game.AutoStart} },
		set: func(c ChatSettings, v Value) ChatSettings { c.Game.AutoStart = v.On; return c }},
	{Key: "house", Name: "house", Kind: FieldToggle, Chat: true, Icon: "🤖", Default: Value{On: true},
		get: func(c ChatSettings) Value { return Value{On: !c.HouseForbidden} },
		set: func(c ChatSettings, v Value) ChatSettings { c.HouseForbidden = !v.On; return c }},
	{Key: "lang", Name: "language", Config: "language", Kind: FieldLanguage, Chat: true, Icon: "🌐",
		get: func(c ChatSettings) Value { return Value{Text: c.Language} },
		set: func(c ChatSettings, v Value) ChatSettings { c.Language = v.Text; return c }},
}

// seconds returns durations given in seconds, as a duration's Presets.
func seconds(s ...int64) []int64 {
	for i := range s {
		s[i] *= int64(time.Second)
	}
	return s
}

// toInt returns n as an int; one that does not fit is out of every range.
func toInt(n int64) int {
	if n < math.MinInt || n > math.MaxInt {
		return math.MinInt
	}
	return int(n)
}

// tableFields are the rows of the settings a table plays by, in order.
var tableFields = slices.DeleteFunc(slices.Clone(fields), func(f Field) bool { return f.Chat })

// Fields returns every setting, in the order the panel shows them. The
// slice is the caller's.
func Fields() []Field { return slices.Clone(fields) }

// FieldByKey returns the setting key names, and whether there is one.
func FieldByKey(key string) (Field, bool) {
	for i := range fields {
		if fields[i].Key == key {
			return fields[i], true
		}
	}
	return Field{}, false
}

// Get returns the setting's value in c. A list of bet options is c's own.
func (f *Field) Get(c ChatSettings) Value { return f.get(c) }

// Set sets the setting in c to v, unchecked (see ChatSettings.Validate).
// A list of bet options is taken as it is, not copied.
func (f *Field) Set(c *ChatSettings, v Value) { *c = f.set(*c, v) }

// Equal reports whether a and b are the same value of the setting.
func (f *Field) Equal(a, b Value) bool {
	switch f.Kind {
	case FieldBets:
		return slices.Equal(a.Bets, b.Bets)
	case FieldToggle:
		return a.On == b.On
	case FieldLanguage:
		return a.Text == b.Text
	}
	return a.N == b.N
}

// IsDefault reports whether the setting holds its Default in c.
func (f *Field) IsDefault(c ChatSettings) bool { return f.Equal(f.get(c), f.Default) }

// clone returns v sharing no memory with it.
func (v Value) clone() Value {
	v.Bets = slices.Clone(v.Bets)
	return v
}

// Check returns the *SettingError of the setting's value in c, or nil
// when it keeps the setting's limits.
func (f *Field) Check(c ChatSettings) error {
	v := f.get(c)
	fail := func(p SettingProblem) error { return &SettingError{Field: *f, Problem: p, Value: v} }
	switch f.Kind {
	case FieldNumber, FieldDuration:
		if o, ok := FieldByKey(f.AtLeast); ok {
			if ov := o.get(c); v.N < ov.N {
				return &SettingError{Field: *f, Problem: ProblemBelow, Value: v, Other: o, OtherValue: ov}
			}
		}
		if v.N < f.Min || v.N > f.Max {
			return fail(ProblemRange)
		}
	case FieldBets:
		if n := int64(len(v.Bets)); n < f.Min || n > f.Max {
			return fail(ProblemBetCount)
		}
		for i, o := range v.Bets {
			if o.validate() != nil {
				return &SettingError{Field: *f, Problem: ProblemBetRange, Value: v, Option: o}
			}
			if slices.Contains(v.Bets[:i], o) {
				return &SettingError{Field: *f, Problem: ProblemBetTwice, Value: v, Option: o}
			}
		}
	case FieldLanguage:
		if v.Text != "" && !LanguageCode(v.Text) {
			return fail(ProblemLanguage)
		}
	}
	return nil
}

// LanguageCode reports whether s has the shape of a language code: two to
// eight lowercase ASCII letters.
func LanguageCode(s string) bool {
	return len(s) >= 2 && len(s) <= 8 && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz") == ""
}

// ChatSettings are what a chat's admins set with /settings: the settings
// its tables play by, and the chat's own.
type ChatSettings struct {
	// Game are the settings the chat's tables play by.
	Game Settings
	// Language is the chat's language: a code of two to eight lowercase
	// ASCII letters ("en", "ru"), or "" while not decided.
	Language string
	// HouseForbidden: the chat's admins forbade the house (the bot as a
	// player) to sit at its tables.
	HouseForbidden bool
}

// Validate returns the *SettingError (wrapping ErrInvalidSettings) of the
// first setting, in the order of Fields, that breaks its limits, or nil.
func (c ChatSettings) Validate() error {
	for i := range fields {
		if err := fields[i].Check(c); err != nil {
			return err
		}
	}
	return nil
}

// Clone returns a copy of c that shares no memory with it.
func (c ChatSettings) Clone() ChatSettings {
	c.Game = c.Game.Clone()
	return c
}

// SettingProblem is what is wrong with a setting's value.
type SettingProblem uint8

// The problems of a setting's value.
const (
	// ProblemRange: a number or duration out of [Min, Max].
	ProblemRange SettingProblem = iota + 1
	// ProblemBelow: a number below the setting AtLeast names (Other).
	ProblemBelow
	// ProblemBetCount: fewer than Min or more than Max bet options.
	ProblemBetCount
	// ProblemBetRange: a bet option (Option) out of its bounds.
	ProblemBetRange
	// ProblemBetTwice: a bet option (Option) given twice.
	ProblemBetTwice
	// ProblemLanguage: no language code.
	ProblemLanguage
)

// SettingError says which setting breaks its limits, and how. It wraps
// ErrInvalidSettings.
type SettingError struct {
	// Field is the setting, Value its value.
	Field Field
	Value Value
	// Problem is what is wrong.
	Problem SettingProblem
	// Other is the setting Field may not be below, OtherValue its value
	// (ProblemBelow).
	Other      Field
	OtherValue Value
	// Option is the bet option at fault (ProblemBetRange, ProblemBetTwice).
	Option BetOption
}

// Error says what is wrong, in English.
func (e *SettingError) Error() string {
	f := &e.Field
	var s string
	switch e.Problem {
	case ProblemRange:
		if f.AtLeast != "" {
			s = f.Name + " must be at most " + f.Format(Value{N: f.Max}) + ", not " + f.Format(e.Value)
		} else {
			s = f.Name + " must be from " + f.Format(Value{N: f.Min}) + " to " + f.Format(Value{N: f.Max}) + ", not " + f.Format(e.Value)
		}
	case ProblemBelow:
		s = f.Name + " " + f.Format(e.Value) + " is below the " + e.Other.Name + " " + e.Other.Format(e.OtherValue)
	case ProblemBetCount:
		s = "want " + strconv.FormatInt(f.Min, 10) + " to " + strconv.FormatInt(f.Max, 10) + " bet options, not " + strconv.Itoa(len(e.Value.Bets))
	case ProblemBetRange:
		return e.Option.validate().Error()
	case ProblemBetTwice:
		s = "bet option " + e.Option.String() + " appears twice"
	case ProblemLanguage:
		s = "language " + strconv.Quote(e.Value.Text) + " is not a language code"
	}
	return ErrInvalidSettings.Error() + ": " + s
}

// Unwrap returns ErrInvalidSettings.
func (e *SettingError) Unwrap() error { return ErrInvalidSettings }

// Format writes a value of the setting in English, as the config takes
// it: "10", "1m0s", "x1, x2, bank", "on", "en".
func (f *Field) Format(v Value) string {
	switch f.Kind {
	case FieldDuration:
		return time.Duration(v.N).String()
	case FieldBets:
		return FormatBetOptions(v.Bets)
	case FieldToggle:
		if v.On {
			return "on"
		}
		return "off"
	case FieldLanguage:
		return v.Text
	}
	return strconv.FormatInt(v.N, 10)
}
