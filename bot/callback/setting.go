package callback

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// The field of a Setting, SettingOpen or SettingInfo button is the key of
// one of game.Fields, and a Setting's value is written by the setting's
// kind (Value): a number in decimal, a duration in whole seconds, a bet
// option to toggle as a BetToken, a toggle On or Off, a language its code.

// The values of a toggle.
const (
	On  = "on"
	Off = "off"
)

// knownField reports whether f is the key of a setting.
func knownField(f string) bool {
	_, ok := game.FieldByKey(f)
	return ok
}

// checkValue checks that value is a canonical value of the setting key
// within its range.
func checkValue(key, value string) error {
	f, ok := game.FieldByKey(key)
	if !ok {
		return fmt.Errorf("unknown field %q", key)
	}
	var err error
	switch f.Kind {
	case game.FieldNumber:
		_, err = number(value, uint64(max(f.Min, 0)), uint64(max(f.Max, 0)))
	case game.FieldDuration:
		_, err = number(value, uint64(max(f.Min, 0)/int64(time.Second)), uint64(max(f.Max, 0)/int64(time.Second)))
	case game.FieldBets:
		_, err = ParseBetToken(value)
	case game.FieldLanguage:
		if !game.LanguageCode(value) {
			err = fmt.Errorf("language %q", value)
		}
	case game.FieldToggle:
		if value != On && value != Off {
			err = fmt.Errorf("%s %q", key, value)
		}
	}
	return err
}

// BetToken writes a bet option as a Setting value: "x2" for twice the
// stake, "b2" for half the bank, "b1" for the whole bank.
func BetToken(o game.BetOption) string {
	if o.Kind == game.BankShare {
		return "b" + strconv.FormatInt(o.N, 10)
	}
	return "x" + strconv.FormatInt(o.N, 10)
}

// ParseBetToken reads a bet option as BetToken writes it, and nothing else.
func ParseBetToken(s string) (game.BetOption, error) {
	if len(s) < 2 {
		return game.BetOption{}, fmt.Errorf("bet option %q", s)
	}
	var o game.BetOption
	var hi uint64
	switch s[0] {
	case 'x':
		o.Kind, hi = game.StakeTimes, game.MaxStakeTimes
	case 'b':
		o.Kind, hi = game.BankShare, game.MaxBankDivisor
	default:
		return o, fmt.Errorf("bet option %q", s)
	}
	n, err := number(s[1:], 1, hi)
	o.N = int64(n)
	return o, err
}

// Value writes the value v of the setting f as a Setting button carries
// it: a number in decimal, a duration in whole seconds, a toggle On or
// Off, a language its code; "" for bet options, which a button toggles one
// at a time (BetToken).
func Value(f game.Field, v game.Value) string {
	switch f.Kind {
	case game.FieldNumber:
		return strconv.FormatInt(v.N, 10)
	case game.FieldDuration:
		return strconv.FormatInt(v.N/int64(time.Second), 10)
	case game.FieldToggle:
		if v.On {
			return On
		}
		return Off
	case game.FieldLanguage:
		return v.Text
	}
	return ""
}

// stampFirst are the settings the stamp hashed from the first release on,
// in the order it hashes them: their values always, "%d|%d|%s|%d|%d|%d|%s"
// (durations in nanoseconds).
var stampFirst = []string{"stake", "entry", "bets", "turn", "lobby", "knocks", "lang"}

// stampWords are the words some settings added later hash when not at
// their default, in place of "KEY=VALUE": those of the stamps already
// drawn.
var stampWords = map[string]string{"house": "nohouse"}

// Stamp returns a number that changes when any of the settings c holds
// changes, below 2^53. Setting buttons carry the stamp of the settings
// they were drawn for, so that a press can be refused once the settings
// moved on and a double tap on a toggle does not undo itself. The stamp of
// settings is the one every release computed for them: the settings of
// the first release are hashed as they always were (stampFirst), and
// every setting added since adds "|KEY=VALUE" only when not at its default
// ("|nohouse" for the house turned off), so that the buttons drawn before
// it existed stay good.
func Stamp(c game.ChatSettings) uint64 {
	parts := make([]string, 0, len(stampFirst))
	for _, key := range stampFirst {
		f, _ := game.FieldByKey(key)
		parts = append(parts, stampText(f, f.Get(c)))
	}
	s := strings.Join(parts, "|")
	for _, f := range game.Fields() {
		if isFirst(f.Key) || f.IsDefault(c) {
			continue
		}
		if w, ok := stampWords[f.Key]; ok {
			s += "|" + w
		} else {
			s += "|" + f.Key + "=" + stampText(f, f.Get(c))
		}
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	return h.Sum64() & MaxVersion
}

func isFirst(key string) bool {
	for _, k := range stampFirst {
		if k == key {
			return true
		}
	}
	return false
}

// stampText writes a value for the stamp: durations in nanoseconds.
func stampText(f game.Field, v game.Value) string {
	switch f.Kind {
	case game.FieldNumber, game.FieldDuration:
		return strconv.FormatInt(v.N, 10)
	case game.FieldBets:
		return game.FormatBetOptions(v.Bets)
	case game.FieldToggle:
		if v.On {
			return On
		}
		return Off
	}
	return v.Text
}
