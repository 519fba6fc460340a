package i18n

import (
	"slices"

	"github.com/twentyone-bot/twentyone/game"
)

// SettingsProblem says in lang what is wrong with s, for SettingsInvalid and
// PopInvalid; "" when s is valid. It checks what [game.Settings.Validate]
// checks, in the same order, so that the two agree on every settings value.
func SettingsProblem(lang Lang, s game.Settings) string {
	switch {
	case s.Stake < 1 || s.Stake > game.MaxStake:
		return T(lang, ProblemStake, Number(1), Number(game.MaxStake))
	case s.EntryLimit < s.Stake:
		return T(lang, ProblemEntryBelowStake, Number(s.EntryLimit), Number(s.Stake))
	case s.EntryLimit > game.MaxStake*game.MaxStakeTimes:
		return T(lang, ProblemEntryTooLarge, Number(game.MaxStake*game.MaxStakeTimes))
	case len(s.BetOptions) == 0 || len(s.BetOptions) > game.MaxBetOptions:
		return T(lang, ProblemBetCount, Number(game.MaxBetOptions))
	case s.TurnTimeout < game.MinTurnTimeout || s.TurnTimeout > game.MaxTurnTimeout:
		return T(lang, ProblemTurn, Duration(lang, game.MinTurnTimeout), Duration(lang, game.MaxTurnTimeout))
	case s.LobbyTimeout < game.MinLobbyTimeout || s.LobbyTimeout > game.MaxLobbyTimeout:
		return T(lang, ProblemLobby, Duration(lang, game.MinLobbyTimeout), Duration(lang, game.MaxLobbyTimeout))
	case s.MaxKnocks < 0 || s.MaxKnocks > game.MaxKnocksLimit:
		return T(lang, ProblemKnocks, Number(0), Number(game.MaxKnocksLimit))
	}
	for i, o := range s.BetOptions {
		if !betOptionValid(o) {
			return T(lang, ProblemBetOption, o.String(), Number(game.MaxStakeTimes), Number(game.MaxBankDivisor))
		}
		if slices.Contains(s.BetOptions[:i], o) {
			return T(lang, ProblemBetTwice, o.String())
		}
	}
	return ""
}

// betOptionValid reports whether o is within the bounds game allows.
func betOptionValid(o game.BetOption) bool {
	switch o.Kind {
	case game.StakeTimes:
		return o.N >= 1 && o.N <= game.MaxStakeTimes
	case game.BankShare:
		return o.N >= 1 && o.N <= game.MaxBankDivisor
	}
	return false
}
