package game_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

func TestDefaultSettings(t *testing.T) {
	s := game.DefaultSettings()
	require.NoError(t, s.Validate())
	assert.Equal(t, int64(10), s.Stake)
	assert.Equal(t, int64(100), s.EntryLimit)
	assert.Equal(t, "x1, x2, x5, bank/2, bank", game.FormatBetOptions(s.BetOptions))
	assert.Equal(t, 60*time.Second, s.TurnTimeout)
	assert.Equal(t, 10*time.Minute, s.LobbyTimeout)
	assert.Equal(t, 3, s.MaxKnocks)
}

func TestSettingsValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*game.Settings)
		ok     bool
	}{
		{"defaults", func(*game.Settings) {}, true},
		{"stake 0", func(s *game.Settings) { s.Stake = 0 }, false},
		{"negative stake", func(s *game.Settings) { s.Stake = -10 }, false},
		{"stake 1", func(s *game.Settings) { s.Stake = 1 }, true},
		{"largest stake", func(s *game.Settings) { s.Stake, s.EntryLimit = game.MaxStake, game.MaxStake }, true},
		{"stake too large", func(s *game.Settings) { s.Stake, s.EntryLimit = game.MaxStake+1, game.MaxStake+1 }, false},
		{"entry limit equal to the stake", func(s *game.Settings) { s.EntryLimit = 10 }, true},
		{"entry limit below the stake", func(s *game.Settings) { s.EntryLimit = 9 }, false},
		{"entry limit too large", func(s *game.Settings) { s.EntryLimit = game.MaxStake*game.MaxStakeTimes + 1 }, false},
		{"no bet options", func(s *game.Settings) { s.BetOptions = nil }, false},
		{"too many bet options", func(s *game.Settings) {
			s.BetOptions = mustOptions(t, "x1 x2 x3 x4 x5 bank")
			s.BetOptions = append(s.BetOptions, game.BetOption{Kind: game.BankShare, N: 2})
		}, false},
		{"six bet options", func(s *game.Settings) { s.BetOptions = mustOptions(t, "x1 x2 x3 x4 x5 bank") }, true},
		{"a bet option twice", func(s *game.Settings) {
			s.BetOptions = []game.BetOption{{Kind: game.StakeTimes, N: 2}, {Kind: game.StakeTimes, N: 2}}
		}, false},
		{"an unknown bet option", func(s *game.Settings) { s.BetOptions = []game.BetOption{{Kind: 9, N: 1}} }, false},
		{"stake multiple 0", func(s *game.Settings) { s.BetOptions = []game.BetOption{{Kind: game.StakeTimes}} }, false},
		{"stake multiple too large", func(s *game.Settings) {
			s.BetOptions = []game.BetOption{{Kind: game.StakeTimes, N: game.MaxStakeTimes + 1}}
		}, false},
		{"bank divisor 0", func(s *game.Settings) { s.BetOptions = []game.BetOption{{Kind: game.BankShare}} }, false},
		{"bank divisor too large", func(s *game.Settings) {
			s.BetOptions = []game.BetOption{{Kind: game.BankShare, N: game.MaxBankDivisor + 1}}
		}, false},
		{"turn timeout too short", func(s *game.Settings) { s.TurnTimeout = game.MinTurnTimeout - 1 }, false},
		{"turn timeout too long", func(s *game.Settings) { s.TurnTimeout = game.MaxTurnTimeout + 1 }, false},
		{"shortest turn timeout", func(s *game.Settings) { s.TurnTimeout = game.MinTurnTimeout }, true},
		{"lobby timeout too short", func(s *game.Settings) { s.LobbyTimeout = game.MinLobbyTimeout - 1 }, false},
		{"lobby timeout too long", func(s *game.Settings) { s.LobbyTimeout = game.MaxLobbyTimeout + 1 }, false},
		{"longest lobby timeout", func(s *game.Settings) { s.LobbyTimeout = game.MaxLobbyTimeout }, true},
		{"negative knocks", func(s *game.Settings) { s.MaxKnocks = -1 }, false},
		{"no knocks", func(s *game.Settings) { s.MaxKnocks = 0 }, true},
		{"too many knocks", func(s *game.Settings) { s.MaxKnocks = game.MaxKnocksLimit + 1 }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := game.DefaultSettings()
			tt.change(&s)
			err := s.Validate()
			if tt.ok {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, game.ErrInvalidSettings)
			assert.Equal(t, game.KindInvalid, game.Kind(err))
		})
	}
	var zero game.Settings
	assert.ErrorIs(t, zero.Validate(), game.ErrInvalidSettings)
}

func mustOptions(t *testing.T, s string) []game.BetOption {
	t.Helper()
	o, err := game.ParseBetOptions(s)
	require.NoError(t, err)
	return o
}

func TestParseBetOptions(t *testing.T) {
	x := func(n int64) game.BetOption { return game.BetOption{Kind: game.StakeTimes, N: n} }
	bank := func(n int64) game.BetOption { return game.BetOption{Kind: game.BankShare, N: n} }
	tests := []struct {
		in   string
		want []game.BetOption
		out  string
	}{
		{"x1, x2, x5, bank/2, bank", []game.BetOption{x(1), x(2), x(5), bank(2), bank(1)}, "x1, x2, x5, bank/2, bank"},
		{"x1 x2", []game.BetOption{x(1), x(2)}, "x1, x2"},
		{"X3;BANK/4\tbank/1", []game.BetOption{x(3), bank(4), bank(1)}, "x3, bank/4, bank"},
		{"×2, ½, all", []game.BetOption{x(2), bank(2), bank(1)}, "x2, bank/2, bank"},
		{"half", []game.BetOption{bank(2)}, "bank/2"},
		{"  x1000 ,, bank/10  ", []game.BetOption{x(1000), bank(10)}, "x1000, bank/10"},
		{"x+7", []game.BetOption{x(7)}, "x7"},
		{"x07", []game.BetOption{x(7)}, "x7"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := game.ParseBetOptions(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.out, game.FormatBetOptions(got))
			again, err := game.ParseBetOptions(game.FormatBetOptions(got))
			require.NoError(t, err)
			assert.Equal(t, got, again)
		})
	}

	for _, in := range []string{"", " , ", "x", "x0", "x-1", "x1001", "x1.5", "xx1", "bank/0", "bank/11", "bank/",
		"bank/-2", "bank2", "y2", "2", "x1 x1", "bank bank/1", "half ½", "x1 x2 x3 x4 x5 x6 x7",
		"x99999999999999999999", "x9223372036854775807", "×", "½½", "bank/½"} {
		t.Run("bad "+in, func(t *testing.T) {
			got, err := game.ParseBetOptions(in)
			assert.ErrorIs(t, err, game.ErrInvalidSettings)
			assert.Nil(t, got)
		})
	}
	assert.Equal(t, "?", game.BetOption{}.String())

	// ReadBetOptions checks the writing only; the list is Validate's.
	read, err := game.ReadBetOptions("x1 x1 x2 x3 x4 x5 x6")
	require.NoError(t, err)
	assert.Len(t, read, 7)
	read, err = game.ReadBetOptions(" , ")
	require.NoError(t, err)
	assert.Empty(t, read)
	_, err = game.ReadBetOptions("x1 y2")
	assert.ErrorIs(t, err, game.ErrInvalidSettings)
	assert.Equal(t, "", game.FormatBetOptions(nil))
}

func TestSettingsCloneEqual(t *testing.T) {
	s := game.DefaultSettings()
	c := s.Clone()
	assert.True(t, s.Equal(c))
	c.BetOptions[0].N = 3
	assert.False(t, s.Equal(c))
	assert.Equal(t, int64(1), s.BetOptions[0].N, "a clone shares no memory")
	for _, change := range []func(*game.Settings){
		func(s *game.Settings) { s.Stake++ },
		func(s *game.Settings) { s.EntryLimit++ },
		func(s *game.Settings) { s.BetOptions = s.BetOptions[1:] },
		func(s *game.Settings) { s.TurnTimeout++ },
		func(s *game.Settings) { s.LobbyTimeout++ },
		func(s *game.Settings) { s.MaxKnocks++ },
	} {
		o := s.Clone()
		change(&o)
		assert.False(t, s.Equal(o))
	}

	// The table's settings are a copy too.
	f := newFixture(t)
	f.game()
	got := f.tb.Settings()
	got.BetOptions[0].N = 7
	assert.Equal(t, int64(1), f.tb.Settings().BetOptions[0].N)
	var closed game.Table
	assert.Equal(t, game.Settings{}, closed.Settings())
}

func TestOffersAreSortedDistinctAndCapped(t *testing.T) {
	opts := []string{"x1, x2, x5, bank/2, bank", "bank, bank/2, bank/3, bank/10", "x1000, x1, bank/7", "x3"}
	for _, o := range opts {
		s := game.DefaultSettings()
		s.BetOptions = mustOptions(t, o)
		for _, bank := range []int64{0, 1, 2, 9, 10, 11, 49, 50, 333, 1000, 1 << 40} {
			for _, bal := range []int64{-1, 0, 1, 5, 10, 99, 100, 5000, 1 << 50} {
				offers := s.Offers(bank, bal)
				assert.LessOrEqual(t, len(offers), len(s.BetOptions))
				for i, of := range offers {
					assert.GreaterOrEqual(t, of.Amount, int64(1))
					assert.LessOrEqual(t, of.Amount, min(bank, bal))
					if i > 0 {
						assert.Less(t, offers[i-1].Amount, of.Amount, "%s bank %d balance %d", o, bank, bal)
					}
				}
				if strings.Contains(o, "x") && bank >= 1 && bal >= 1 {
					assert.NotEmpty(t, offers, "a stake multiple is always offered")
				}
			}
		}
	}
}
