package callback

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"time"

	"github.com/twentyone-bot/twentyone/bot/i18n"
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
	// FieldLang is the chat's language; the value "en" or "ru".
	FieldLang = "lang"
)

// Fields returns every field, in the order the settings message shows them.
func Fields() []string {
	return []string{FieldStake, FieldEntry, FieldBets, FieldTurn, FieldLobby, FieldKnocks, FieldLang}
}

// ErrStale is returned by Apply for a Setting drawn for other settings than
// the current ones.
var ErrStale = errors.New("the settings have changed")

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
		_, err = parseBetToken(value)
	case FieldLang:
		if value != string(i18n.EN) && value != string(i18n.RU) {
			err = fmt.Errorf("language %q", value)
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

func parseBetToken(s string) (game.BetOption, error) {
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

// Value writes a setting's value of s as a Setting button carries it.
func Value(field string, s game.Settings, lang i18n.Lang) string {
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
		return string(lang)
	}
	return ""
}

// Stamp returns a number that changes when the settings or the language
// change, below 2^53. Setting buttons carry the stamp of the settings they
// were drawn for, and Apply rejects them once the settings moved on, so that
// a double tap on a toggle does not undo itself.
func Stamp(s game.Settings, lang i18n.Lang) uint64 {
	h := fnv.New64a()
	_, _ = fmt.Fprintf(h, "%d|%d|%s|%d|%d|%d|%s", s.Stake, s.EntryLimit, game.FormatBetOptions(s.BetOptions),
		s.TurnTimeout, s.LobbyTimeout, s.MaxKnocks, lang)
	return h.Sum64() & MaxVersion
}

// Apply applies a Setting to the chat's settings s and language lang and
// returns the new ones. It returns an error wrapping ErrInvalid for data
// that is not a valid Setting, ErrStale when d was drawn for other settings
// (see [Stamp]), and game.ErrInvalidSettings together with the result when
// the result breaks a limit ([i18n.SettingsProblem] says which, in the
// chat's language). Toggling bet
// options keeps them in a fixed order: stake multiples from the smallest,
// then shares of the bank from the smallest.
func (d Data) Apply(s game.Settings, lang i18n.Lang) (game.Settings, i18n.Lang, error) {
	if d.Action != Setting || !knownField(d.Field) || checkValue(d.Field, d.Value) != nil {
		return s, lang, fmt.Errorf("%w: not a setting: %s", ErrInvalid, d)
	}
	if d.Version != Stamp(s, lang) {
		return s, lang, ErrStale
	}
	s = s.Clone()
	n, _ := strconv.ParseInt(d.Value, 10, 64) // checked by checkValue for numeric fields
	switch d.Field {
	case FieldStake:
		s.Stake = n
	case FieldEntry:
		s.EntryLimit = n
	case FieldTurn:
		s.TurnTimeout = time.Duration(n) * time.Second
	case FieldLobby:
		s.LobbyTimeout = time.Duration(n) * time.Second
	case FieldKnocks:
		s.MaxKnocks = int(n)
	case FieldLang:
		l, _ := i18n.Parse(d.Value)
		return s, l, nil
	case FieldBets:
		o, _ := parseBetToken(d.Value)
		s.BetOptions = ToggleBet(s.BetOptions, o)
	}
	if err := s.Validate(); err != nil {
		return s, lang, err
	}
	return s, lang, nil
}

// ToggleBet returns opts without o when it holds o, else with o added; the
// result is sorted as Apply says.
func ToggleBet(opts []game.BetOption, o game.BetOption) []game.BetOption {
	out := slices.DeleteFunc(slices.Clone(opts), func(x game.BetOption) bool { return x == o })
	if len(out) == len(opts) {
		out = append(out, o)
	}
	slices.SortStableFunc(out, compareBets)
	return out
}

// compareBets orders stake multiples before bank shares, each from the
// smallest bet.
func compareBets(a, b game.BetOption) int {
	if a.Kind != b.Kind {
		return cmp.Compare(a.Kind, b.Kind)
	}
	if a.Kind == game.BankShare {
		return cmp.Compare(b.N, a.N)
	}
	return cmp.Compare(a.N, b.N)
}
