package i18n

import (
	"errors"

	"github.com/twentyone-bot/twentyone/game"
)

// SettingsProblem says in lang what is wrong with settings that
// game.Settings.Validate (or game.ChatSettings.Validate) refused with err,
// for SettingsInvalid and PopInvalid: the words of the setting's problem
// (a *game.SettingError); "" for an error that is none.
func SettingsProblem(lang Lang, err error) string {
	var e *game.SettingError
	if !errors.As(err, &e) {
		return ""
	}
	f := e.Field
	switch e.Problem {
	case game.ProblemRange:
		if f.AtLeast != "" {
			return T(lang, SettingRange(f.Key), SettingValue(lang, f, f.Max))
		}
		return T(lang, SettingRange(f.Key), SettingValue(lang, f, f.Min), SettingValue(lang, f, f.Max))
	case game.ProblemBelow:
		return T(lang, SettingBelow(f.Key), SettingValue(lang, f, e.Value.N), SettingValue(lang, e.Other, e.OtherValue.N))
	case game.ProblemBetCount:
		return T(lang, ProblemBetCount, Number(f.Max))
	case game.ProblemBetRange:
		return T(lang, ProblemBetOption, e.Option.String(), Number(game.MaxStakeTimes), Number(game.MaxBankDivisor))
	case game.ProblemBetTwice:
		return T(lang, ProblemBetTwice, e.Option.String())
	}
	return T(lang, ProblemLanguage, e.Value.Text)
}
