package game_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// TestFieldsAreWellDeclared checks every row of the settings: a key of its
// own, short lowercase letters; a config key of its own; a kind; bounds
// that hold the default and the presets; bet presets that are valid; an
// AtLeast that names a number.
func TestFieldsAreWellDeclared(t *testing.T) {
	keys, configs := map[string]bool{}, map[string]bool{}
	for _, f := range game.Fields() {
		t.Run(f.Key, func(t *testing.T) {
			assert.False(t, keys[f.Key], "a key of its own")
			keys[f.Key] = true
			assert.NotEmpty(t, f.Key)
			assert.LessOrEqual(t, len(f.Key), game.MaxKeyLen)
			assert.Empty(t, strings.Trim(f.Key, "abcdefghijklmnopqrstuvwxyz"), "lowercase ASCII letters")
			assert.NotEmpty(t, f.Name, "an English name for errors")
			assert.NotEmpty(t, f.Icon, "an icon for the panel")
			if f.Config != "" {
				assert.False(t, configs[f.Config], "a config key of its own")
				configs[f.Config] = true
				assert.Empty(t, strings.Trim(f.Config, "abcdefghijklmnopqrstuvwxyz_"), "a config key is a YAML key")
			}
			got, ok := game.FieldByKey(f.Key)
			require.True(t, ok)
			assert.Equal(t, f.Key, got.Key)
			switch f.Kind {
			case game.FieldNumber, game.FieldDuration:
				assert.LessOrEqual(t, f.Min, f.Max)
				assert.True(t, f.Default.N >= f.Min && f.Default.N <= f.Max, "the default %d is in range", f.Default.N)
				assert.NotEmpty(t, f.Presets, "the panel offers presets")
				assert.True(t, slices.IsSorted(f.Presets), "presets from the smallest")
				for _, p := range f.Presets {
					assert.True(t, p >= f.Min && p <= f.Max, "preset %d is in range", p)
					if f.Kind == game.FieldDuration {
						assert.Zero(t, p%int64(time.Second), "preset %d: whole seconds, as buttons carry them", p)
					}
				}
				if f.AtLeast != "" {
					o, ok := game.FieldByKey(f.AtLeast)
					require.True(t, ok, "AtLeast names a setting")
					assert.Equal(t, f.Kind, o.Kind, "AtLeast names a setting of the same kind")
					assert.Equal(t, f.Chat, o.Chat)
				}
			case game.FieldBets:
				assert.True(t, f.Min >= 1 && f.Max <= game.MaxBetOptions)
				assert.NotEmpty(t, f.BetPresets)
				for _, row := range f.BetPresets {
					require.NotEmpty(t, row)
					for _, o := range row {
						assert.Equal(t, row[0].Kind, o.Kind, "a row of presets is of one kind")
						_, err := game.ParseBetOptions(o.String())
						assert.NoError(t, err, "preset %s is valid", o)
					}
				}
			case game.FieldToggle, game.FieldLanguage:
				assert.Empty(t, f.AtLeast)
			default:
				t.Errorf("kind %d", f.Kind)
			}
			assert.Empty(t, f.Check(game.DefaultChatSettings()), "the default keeps the limits")
		})
	}
}

// TestFieldsReadWhatTheyWrite: each row sets and gets its own setting,
// leaving the others as they were.
func TestFieldsReadWhatTheyWrite(t *testing.T) {
	base := game.DefaultChatSettings()
	base.Language = "en"
	for _, f := range game.Fields() {
		c := base.Clone()
		v := f.Get(c)
		switch f.Kind {
		case game.FieldNumber, game.FieldDuration:
			v.N = f.Max
		case game.FieldBets:
			v.Bets = []game.BetOption{{Kind: game.BankShare, N: 7}}
		case game.FieldToggle:
			v.On = !v.On
		case game.FieldLanguage:
			v.Text = "uk"
		}
		f.Set(&c, v)
		assert.True(t, f.Equal(v, f.Get(c)), "%s reads what it wrote", f.Key)
		assert.False(t, f.IsDefault(c), "%s is no longer its default", f.Key)
		for _, o := range game.Fields() {
			if o.Key != f.Key {
				assert.True(t, o.Equal(o.Get(base), o.Get(c)), "setting %s leaves %s alone", f.Key, o.Key)
			}
		}
		assert.Equal(t, !f.Chat, !c.Game.Equal(base.Game), "%s is a table's setting or the chat's", f.Key)
	}
}

// TestDefaultSettingsAreTheRows: the defaults are each row's, valid.
func TestDefaultSettingsAreTheRows(t *testing.T) {
	c := game.DefaultChatSettings()
	require.NoError(t, c.Validate())
	assert.True(t, game.DefaultSettings().Equal(c.Game))
	for _, f := range game.Fields() {
		assert.True(t, f.IsDefault(c), f.Key)
	}
	assert.Equal(t, "", c.Language, "not decided")
	assert.False(t, c.HouseForbidden)
	d := game.DefaultSettings()
	d.BetOptions[0].N = 9
	assert.True(t, game.DefaultSettings().Equal(c.Game), "each call its own copy")
}

// TestTheFirstSettingsAreVersion2s: a table of encoding version 2 wrote
// these settings in this order; the first rows of a table's settings are
// they, in that order.
func TestTheFirstSettingsAreVersion2s(t *testing.T) {
	var table []string
	for _, f := range game.Fields() {
		if !f.Chat {
			table = append(table, f.Key)
		}
	}
	require.GreaterOrEqual(t, len(table), 6)
	assert.Equal(t, []string{"stake", "entry", "bets", "turn", "lobby", "knocks"}, table[:6])
}

// TestSettingErrorsSayWhat: the problem of each kind names the setting,
// in English, and wraps ErrInvalidSettings.
func TestSettingErrorsSayWhat(t *testing.T) {
	tests := []struct {
		change func(*game.ChatSettings)
		want   string
		p      game.SettingProblem
	}{
		{func(c *game.ChatSettings) { c.Game.Stake = 0 }, "stake must be from 1 to 1000000000, not 0", game.ProblemRange},
		{func(c *game.ChatSettings) { c.Game.EntryLimit = 9 }, "entry limit 9 is below the stake 10", game.ProblemBelow},
		{func(c *game.ChatSettings) { c.Game.EntryLimit = 2e12 }, "entry limit must be at most 1000000000000, not 2000000000000", game.ProblemRange},
		{func(c *game.ChatSettings) { c.Game.TurnTimeout = time.Second }, "turn timeout must be from 10s to 1h0m0s, not 1s", game.ProblemRange},
		{func(c *game.ChatSettings) { c.Game.BetOptions = nil }, "want 1 to 6 bet options, not 0", game.ProblemBetCount},
		{func(c *game.ChatSettings) { c.Game.BetOptions = []game.BetOption{{Kind: game.BankShare, N: 11}} }, "bank divisor must be from 1 to 10, not 11", game.ProblemBetRange},
		{func(c *game.ChatSettings) {
			c.Game.BetOptions = []game.BetOption{{Kind: game.StakeTimes, N: 2}, {Kind: game.StakeTimes, N: 2}}
		}, "bet option x2 appears twice", game.ProblemBetTwice},
		{func(c *game.ChatSettings) { c.Game.MaxKnocks = 11 }, "max knocks must be from 0 to 10, not 11", game.ProblemRange},
		{func(c *game.ChatSettings) { c.Language = "EN" }, `language "EN" is not a language code`, game.ProblemLanguage},
	}
	for _, tt := range tests {
		c := game.DefaultChatSettings()
		tt.change(&c)
		err := c.Validate()
		require.ErrorIs(t, err, game.ErrInvalidSettings, tt.want)
		var e *game.SettingError
		require.ErrorAs(t, err, &e)
		assert.Equal(t, tt.p, e.Problem, tt.want)
		assert.Contains(t, err.Error(), tt.want)
		if !e.Field.Chat {
			assert.EqualError(t, c.Game.Validate(), err.Error(), "a table's setting: Settings.Validate finds it too")
		}
	}
}
