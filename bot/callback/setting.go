package callback

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// The fields of a Setting button.
const (
	// FieldStake is the stake; the value a number of chips.
	FieldStake = "stake"
	// FieldEntry is the entry limit; the value a number of chips.
	FieldEntry = "entry"
	// FieldBets toggles a bet option; the value a [BetToken].
	FieldBets = "bets"
	// FieldTurn is the turn timeout; the value in seconds.
	FieldTurn = "turn"
	// FieldLobby is the lobby timeout; the value in seconds.
	FieldLobby = "lobby"
	// FieldKnocks is the most knocks; the value a number from 0.
	FieldKnocks = "knocks"
	// FieldLang is the chat's language; the value a language code, two to
	// eight lowercase letters (which languages there are is package i18n's
	// to say).
	FieldLang = "lang"
	// FieldHouse says whether the house may sit at the chat's tables; the
	// value HouseOn or HouseOff.
	FieldHouse = "house"
)

// The values of FieldHouse.
const (
	HouseOn  = "on"
	HouseOff = "off"
)

// Fields returns every field, in the order the settings message shows them.
func Fields() []string {
	return []string{FieldStake, FieldEntry, FieldBets, FieldTurn, FieldLobby, FieldKnocks, FieldHouse, FieldLang}
}

func knownField(f string) bool { return slices.Contains(Fields(), f) }

// checkValue checks that value is a canonical value of field.
func checkValue(field, value string) error {
	var err error
	switch field {
	case FieldStake:
		_, err = number(value, 1, game.MaxStake)
	case FieldEntry:
		_, err = number(value, 1, game.MaxStake*game.MaxStakeTimes)
	case FieldTurn:
		_, err = number(value, uint64(game.MinTurnTimeout/time.Second), uint64(game.MaxTurnTimeout/time.Second))
	case FieldLobby:
		_, err = number(value, uint64(game.MinLobbyTimeout/time.Second), uint64(game.MaxLobbyTimeout/time.Second))
	case FieldKnocks:
		_, err = number(value, 0, game.MaxKnocksLimit)
	case FieldBets:
		_, err = ParseBetToken(value)
	case FieldLang:
		if !langCode(value) {
			err = fmt.Errorf("language %q", value)
		}
	case FieldHouse:
		if value != HouseOn && value != HouseOff {
			err = fmt.Errorf("house %q", value)
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

// langCode reports whether s is two to eight lowercase ASCII letters.
func langCode(s string) bool {
	return len(s) >= 2 && len(s) <= 8 && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz") == ""
}

// Value writes a setting's value of s and the language code lang as a
// Setting button carries it.
func Value(field string, s game.Settings, lang string) string {
	switch field {
	case FieldStake:
		return strconv.FormatInt(s.Stake, 10)
	case FieldEntry:
		return strconv.FormatInt(s.EntryLimit, 10)
	case FieldTurn:
		return strconv.FormatInt(int64(s.TurnTimeout/time.Second), 10)
	case FieldLobby:
		return strconv.FormatInt(int64(s.LobbyTimeout/time.Second), 10)
	case FieldKnocks:
		return strconv.Itoa(s.MaxKnocks)
	case FieldLang:
		return lang
	}
	return ""
}

// HouseValue writes whether the house may sit as a FieldHouse value.
func HouseValue(forbidden bool) string {
	if forbidden {
		return HouseOff
	}
	return HouseOn
}

// Stamp returns a number that changes when the settings, the language code
// lang or whether the house is forbidden change, below 2^53. Setting
// buttons carry the stamp of the settings they were drawn for, so that a
// press can be refused once the settings moved on and a double tap on a
// toggle does not undo itself.
func Stamp(s game.Settings, lang string, houseForbidden bool) uint64 {
	h := fnv.New64a()
	_, _ = fmt.Fprintf(h, "%d|%d|%s|%d|%d|%d|%s", s.Stake, s.EntryLimit, game.FormatBetOptions(s.BetOptions),
		s.TurnTimeout, s.LobbyTimeout, s.MaxKnocks, lang)
	if houseForbidden {
		// Appended only when set, so that the stamps of the settings
		// drawn before the house existed stay as they were.
		_, _ = fmt.Fprint(h, "|nohouse")
	}
	return h.Sum64() & MaxVersion
}
