package i18n

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/game"
)

func TestSettingsProblemSaysWhatValidateFound(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 1))
	pick := func(vals ...int64) int64 { return vals[r.IntN(len(vals))] }
	for range 5000 {
		s := game.DefaultSettings()
		switch r.IntN(8) {
		case 0:
			s.Stake = pick(-1, 0, 1, 10, game.MaxStake, game.MaxStake+1)
		case 1:
			s.EntryLimit = pick(-5, 0, 9, 10, 100, game.MaxStake*game.MaxStakeTimes, game.MaxStake*game.MaxStakeTimes+1)
		case 2:
			s.BetOptions = nil
			for range r.IntN(game.MaxBetOptions + 2) {
				s.BetOptions = append(s.BetOptions, game.BetOption{
					Kind: game.BetKind(r.IntN(3)), N: pick(-1, 0, 1, 2, 10, 11, 1000, 1001),
				})
			}
		case 3:
			s.TurnTimeout = time.Duration(pick(0, 9, 10, 60, 3600, 3601)) * time.Second
		case 4:
			s.LobbyTimeout = time.Duration(pick(0, 29, 30, 600, 86400, 86401)) * time.Second
		case 5:
			s.MaxKnocks = int(pick(-1, 0, 3, 10, 11))
		case 6:
			s.Stake, s.EntryLimit = pick(1, 50, 200), pick(1, 50, 200)
		}
		err := s.Validate()
		for _, lang := range Langs() {
			p := SettingsProblem(lang, err)
			assert.Equal(t, err != nil, p != "", "%s %+v: Validate says %v, SettingsProblem %q", lang, s, err, p)
			assert.NotContains(t, p, "%!", "%s: %q", lang, p)
		}
	}
	problem := func(l Lang, s game.Settings) string { return SettingsProblem(l, s.Validate()) }
	entry := game.Settings{Stake: 100, EntryLimit: 50}
	assert.Equal(t, "the minimum balance 50 is below the stake 100", problem(EN, entry))
	assert.Equal(t, "минимальный баланс 50 меньше ставки 100", problem(RU, entry))
	assert.Equal(t, "мінімальний баланс 50 менший за ставку 100", problem(UK, entry))
	turn := game.Settings{Stake: 1, EntryLimit: 1, BetOptions: game.DefaultSettings().BetOptions}
	assert.Equal(t, "час ходу має бути від 10\u00a0с до 1\u00a0год", problem(UK, turn))
	large := game.DefaultSettings()
	large.EntryLimit = game.MaxStake*game.MaxStakeTimes + 1
	assert.Equal(t, "the minimum balance must be at most 1\u202f000\u202f000\u202f000\u202f000", problem(EN, large))
	assert.Empty(t, problem(EN, game.DefaultSettings()))
	assert.Empty(t, SettingsProblem(EN, game.ErrInvalidSettings), "no setting's problem")
	lang := game.ChatSettings{Game: game.DefaultSettings(), Language: "EN"}
	assert.Equal(t, "EN is not a language code", SettingsProblem(EN, lang.Validate()))
}
