package setting

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

func opts(t *testing.T, s string) []game.BetOption {
	t.Helper()
	o, err := game.ParseBetOptions(s)
	require.NoError(t, err)
	return o
}

func defaults() game.ChatSettings {
	return game.ChatSettings{Game: game.DefaultSettings(), Language: "en"}
}

func TestPress(t *testing.T) {
	def := defaults()
	stamp := callback.Stamp(def)
	set := func(field, value string) callback.Data {
		return callback.Data{Action: callback.Setting, Version: stamp, Field: field, Value: value}
	}
	tests := []struct {
		name   string
		data   callback.Data
		change func(*game.ChatSettings)
		err    error // nil: accepted
	}{
		{"stake", set("stake", "25"), func(c *game.ChatSettings) { c.Game.Stake = 25 }, nil},
		{"entry", set("entry", "500"), func(c *game.ChatSettings) { c.Game.EntryLimit = 500 }, nil},
		{"turn", set("turn", "30"), func(c *game.ChatSettings) { c.Game.TurnTimeout = 30 * time.Second }, nil},
		{"lobby", set("lobby", "300"), func(c *game.ChatSettings) { c.Game.LobbyTimeout = 5 * time.Minute }, nil},
		{"knocks", set("knocks", "0"), func(c *game.ChatSettings) { c.Game.MaxKnocks = 0 }, nil},
		{"lang", set("lang", "ru"), func(c *game.ChatSettings) { c.Language = "ru" }, nil},
		{"lang uk", set("lang", "uk"), func(c *game.ChatSettings) { c.Language = "uk" }, nil},
		{"house off", set("house", callback.Off), func(c *game.ChatSettings) { c.HouseForbidden = true }, nil},
		{"house on", set("house", callback.On), func(*game.ChatSettings) {}, nil},
		{"bet off", set("bets", "x2"), func(c *game.ChatSettings) { c.Game.BetOptions = opts(t, "x1 x5 bank/2 bank") }, nil},
		{"bet on", set("bets", "x10"), func(c *game.ChatSettings) { c.Game.BetOptions = opts(t, "x1 x2 x5 x10 bank/2 bank") }, nil},
		{"bank share on", set("bets", "b4"), func(c *game.ChatSettings) { c.Game.BetOptions = opts(t, "x1 x2 x5 bank/4 bank/2 bank") }, nil},
		{"stake over entry", set("stake", "500"), func(*game.ChatSettings) {}, game.ErrInvalidSettings},
		{"entry under stake", set("entry", "5"), func(*game.ChatSettings) {}, game.ErrInvalidSettings},
		{"stale", callback.Data{Action: callback.Setting, Version: stamp + 1, Field: "stake", Value: "25"}, func(*game.ChatSettings) {}, ErrStale},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := def.Clone()
			tt.change(&want)
			got, err := Press(def, tt.data)
			if tt.err != nil {
				assert.ErrorIs(t, err, tt.err)
			} else {
				assert.NoError(t, err)
			}
			assert.True(t, want.Game.Equal(got.Game), "got %+v, want %+v", got.Game, want.Game)
			assert.Equal(t, want.Language, got.Language)
			assert.Equal(t, want.HouseForbidden, got.HouseForbidden)
		})
	}
	assert.True(t, def.Game.Equal(game.DefaultSettings()), "Press leaves its argument alone")
}

// TestPressRefusesForgedData: data no button of the bot carries is refused
// as a bad button, stale or not, and changes nothing.
func TestPressRefusesForgedData(t *testing.T) {
	def := defaults()
	stamp := callback.Stamp(def)
	for _, d := range []callback.Data{
		{Action: callback.Join, Version: stamp},
		{Action: callback.Setting, Version: stamp, Field: "color", Value: "red"},
		{Action: callback.Setting, Version: stamp, Field: "stake", Value: "x"},
		{Action: callback.Setting, Version: stamp, Field: "bets", Value: "bank"},
		{Action: callback.Setting, Version: stamp, Field: "lang", Value: "de"},
		{Action: callback.Setting, Version: stamp + 1, Field: "lang", Value: "de"},
		{Action: callback.Setting, Version: stamp, Field: "house", Value: "yes"},
		// The panel's moves carry a field and the stamp, and change nothing.
		{Action: callback.SettingOpen, Version: stamp, Field: "stake"},
		{Action: callback.SettingOpen, Version: stamp, Field: "stake", Value: "25"},
		{Action: callback.SettingBack, Version: stamp},
		{Action: callback.SettingInfo, Field: "stake", Value: "25"},
	} {
		got, err := Press(def, d)
		var p *Problem
		require.ErrorAs(t, err, &p, "%+v", d)
		text, alert := p.Popup(i18n.EN)
		assert.Equal(t, i18n.T(i18n.EN, i18n.PopBadButton), text, "%+v", d)
		assert.False(t, alert)
		assert.Equal(t, def, got)
	}
}

func TestToggleLastBetAndSeventhBetAreInvalid(t *testing.T) {
	one := defaults()
	one.Game.BetOptions = opts(t, "x1")
	_, err := Press(one, callback.Data{Action: callback.Setting, Version: callback.Stamp(one), Field: "bets", Value: "x1"})
	assert.ErrorIs(t, err, game.ErrInvalidSettings)
	var p *Problem
	require.ErrorAs(t, err, &p)
	text, alert := p.Popup(i18n.EN)
	assert.Equal(t, "Not valid: choose 1 to 6 bets", text)
	assert.True(t, alert)

	six := defaults()
	six.Game.BetOptions = opts(t, "x1 x2 x5 x10 bank/2 bank")
	require.Len(t, six.Game.BetOptions, game.MaxBetOptions)
	_, err = Press(six, callback.Data{Action: callback.Setting, Version: callback.Stamp(six), Field: "bets", Value: "b3"})
	assert.ErrorIs(t, err, game.ErrInvalidSettings)
}

func TestSet(t *testing.T) {
	def := defaults()
	tests := []struct {
		field, value string
		change       func(*game.ChatSettings)
	}{
		{"stake", "25", func(c *game.ChatSettings) { c.Game.Stake = 25 }},
		{"entry", "+500", func(c *game.ChatSettings) { c.Game.EntryLimit = 500 }},
		{"knocks", "0", func(c *game.ChatSettings) { c.Game.MaxKnocks = 0 }},
		{"turn", "30", func(c *game.ChatSettings) { c.Game.TurnTimeout = 30 * time.Second }},
		{"turn", "1m30s", func(c *game.ChatSettings) { c.Game.TurnTimeout = 90 * time.Second }},
		{"lobby", "1.5m", func(c *game.ChatSettings) { c.Game.LobbyTimeout = 90 * time.Second }},
		{"lang", " RU ", func(c *game.ChatSettings) { c.Language = "ru" }},
		{"lang", "uk", func(c *game.ChatSettings) { c.Language = "uk" }},
		{"lang", "UK", func(c *game.ChatSettings) { c.Language = "uk" }},
		{"house", "OFF", func(c *game.ChatSettings) { c.HouseForbidden = true }},
		{"house", "on", func(*game.ChatSettings) {}},
		// A list replaces the bets, kept in the order the buttons keep them.
		{"bets", "bank x2,bank/3;x1", func(c *game.ChatSettings) { c.Game.BetOptions = opts(t, "x1 x2 bank/3 bank") }},
	}
	for _, tt := range tests {
		t.Run(tt.field+" "+tt.value, func(t *testing.T) {
			want := def.Clone()
			tt.change(&want)
			got, err := Set(def, tt.field, tt.value)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
	assert.True(t, def.Game.Equal(game.DefaultSettings()), "Set leaves its argument alone")
}

// TestSetRefusesWithTheReason: what Set refuses, it says why, in the
// message a typed change is answered with, and changes nothing.
func TestSetRefusesWithTheReason(t *testing.T) {
	def := defaults()
	long := strings.Repeat("9", 100)
	tests := []struct {
		field, value string
		en, ru, uk   string
		limit        bool
	}{
		{"colour", "red", "There is no setting colour. The settings: " + Keys() + ".", "", "Налаштування colour немає.", false},
		{"stake", "ten", "Not valid: ten is not a whole number", "Нельзя: ten — не целое число", "Не можна: ten — не ціле число", false},
		{"stake", "<b>", "Not valid: &lt;b&gt; is not a whole number", "", "", false},
		{"stake", "0", "Not valid: the stake must be from 1 to ", "", "Не можна: ставка має бути від 1 до ", true},
		{"entry", "5", "Not valid: the minimum balance 5 is below the stake 10", "", "Не можна: мінімальний баланс 5 менший за ставку 10", true},
		{"knocks", "-1", "Not valid: knocks must be from 0 to 10", "", "", true},
		{"knocks", long, "Not valid: " + strings.Repeat("9", 39) + "… is not a whole number", "", "", false},
		{"turn", "soon", "soon is not a value for turn.", "", "soon не підходить для налаштування «turn».", false},
		{"turn", "30.5s", "30.5s is not a value for turn.", "", "", false},
		{"turn", long, strings.Repeat("9", 39) + "… is not a value for turn.", "", "", false},
		{"turn", "1s", "Not valid: the turn time must be from ", "", "Не можна: час ходу має бути від 10\u00a0с до 1\u00a0год", true},
		{"bets", "x2 y3", "Not valid: write bets as x1 x2 x5 bank/2 bank", "", "Не можна: ставки пишуть так: x1 x2 x5 bank/2 bank", false},
		{"bets", "x2 x2", "Not valid: the bet x2 is there twice", "", "", true},
		{"bets", "x1 x2 x3 x4 x5 x6 x7", "Not valid: choose 1 to 6 bets", "", "", true},
		{"lang", "de", "I don't speak de: use en, ru or uk.", "Я не говорю на языке de: выбери en, ru или uk.", "Мови de я не знаю: вибери en, ru або uk.", false},
		{"lang", "ua", "I don't speak ua: use en, ru or uk.", "", "Мови ua я не знаю: вибери en, ru або uk.", false},
		{"house", "maybe", "maybe is not a value for house.", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.field+" "+tt.value, func(t *testing.T) {
			got, err := Set(def, tt.field, tt.value)
			var p *Problem
			require.ErrorAs(t, err, &p)
			assert.Equal(t, tt.limit, errors.Is(err, game.ErrInvalidSettings), "breaks a limit")
			assert.Contains(t, p.Message(i18n.EN), tt.en)
			if tt.ru != "" {
				assert.Contains(t, p.Message(i18n.RU), tt.ru)
			}
			if tt.uk != "" {
				assert.Contains(t, p.Message(i18n.UK), tt.uk)
			}
			assert.Equal(t, def, got)
		})
	}
}

func TestReadLang(t *testing.T) {
	for in, want := range map[string]i18n.Lang{"en": i18n.EN, "Ru": i18n.RU, "uk": i18n.UK, " UK ": i18n.UK} {
		l, err := ReadLang(in)
		require.NoError(t, err, "%q", in)
		assert.Equal(t, want, l, "%q", in)
	}
	_, err := ReadLang("fr")
	var p *Problem
	require.ErrorAs(t, err, &p)
	assert.Equal(t, "I don't speak fr: use en, ru or uk.", p.Message(i18n.EN))
	assert.Equal(t, "Мови fr я не знаю: вибери en, ru або uk.", p.Message(i18n.UK))
}

// TestEveryLanguageIsAValueOfItsButton: the settings offer a button for
// each language, and Press takes each one, in any chat's language.
func TestEveryLanguageIsAValueOfItsButton(t *testing.T) {
	for _, from := range i18n.Langs() {
		for _, to := range i18n.Langs() {
			c := defaults()
			c.Language = string(from)
			got, err := Press(c, callback.Data{Action: callback.Setting, Version: callback.Stamp(c), Field: "lang", Value: string(to)})
			require.NoError(t, err, "%s to %s", from, to)
			assert.Equal(t, string(to), got.Language, "%s to %s", from, to)
		}
	}
}

// TestHouseOnAllowsTheHouse: "on" clears a chat's ban of the house, by
// button and typed alike (from defaults, where the house is allowed, it
// would change nothing).
func TestHouseOnAllowsTheHouse(t *testing.T) {
	banned := defaults()
	banned.HouseForbidden = true
	got, err := Press(banned, callback.Data{Action: callback.Setting, Version: callback.Stamp(banned),
		Field: "house", Value: callback.On})
	require.NoError(t, err)
	assert.False(t, got.HouseForbidden, "the button")
	got, err = Set(banned, "house", "on")
	require.NoError(t, err)
	assert.False(t, got.HouseForbidden, "typed")
	assert.True(t, banned.HouseForbidden, "the argument is left alone")
}

// TestEverySettingIsSetByText: every setting is set by "/settings KEY
// VALUE" with each value its buttons carry, to what Press sets; a value
// it cannot read is refused with a Problem that changes nothing.
func TestEverySettingIsSetByText(t *testing.T) {
	def := defaults()
	for _, f := range game.Fields() {
		var values []string
		switch f.Kind {
		case game.FieldNumber, game.FieldDuration:
			for _, p := range f.Presets {
				values = append(values, callback.Value(f, game.Value{N: p}))
			}
		case game.FieldBets:
			values = []string{"x2 bank", "x1, x2, x5, bank/2, bank"}
		case game.FieldToggle:
			values = []string{callback.On, callback.Off, "ON", "Off"}
		case game.FieldLanguage:
			for _, l := range i18n.Langs() {
				values = append(values, string(l))
			}
		}
		for _, v := range values {
			got, err := Set(def, f.Key, v)
			if errors.Is(err, game.ErrInvalidSettings) {
				continue // a preset that breaks a limit beside the defaults
			}
			require.NoError(t, err, "%s %s", f.Key, v)
			if f.Kind != game.FieldBets {
				assert.Equal(t, strings.ToLower(v), callback.Value(f, f.Get(got)), "%s %s", f.Key, v)
				d := callback.Data{Action: callback.Setting, Version: callback.Stamp(def), Field: f.Key, Value: strings.ToLower(v)}
				pressed, err := Press(def, d)
				require.NoError(t, err, "%s %s", f.Key, v)
				assert.Equal(t, callback.Stamp(got), callback.Stamp(pressed), "%s %s: typed and pressed alike", f.Key, v)
			}
			for _, o := range game.Fields() {
				if o.Key != f.Key {
					assert.True(t, o.Equal(o.Get(def), o.Get(got)), "%s %s leaves %s alone", f.Key, v, o.Key)
				}
			}
		}
		got, err := Set(def, f.Key, "?")
		var p *Problem
		require.ErrorAs(t, err, &p, f.Key)
		assert.NotEmpty(t, p.Message(i18n.EN))
		assert.Equal(t, def, got)
	}
}
