package callback

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// stampBefore is Stamp as the releases before the settings were rows
// computed it, for the settings of their day: the panels they drew carry
// it.
func stampBefore(s game.Settings, lang string, houseForbidden bool) uint64 {
	h := fnv.New64a()
	_, _ = fmt.Fprintf(h, "%d|%d|%s|%d|%d|%d|%s", s.Stake, s.EntryLimit, game.FormatBetOptions(s.BetOptions),
		s.TurnTimeout, s.LobbyTimeout, s.MaxKnocks, lang)
	if houseForbidden {
		_, _ = fmt.Fprint(h, "|nohouse")
	}
	return h.Sum64() & MaxVersion
}

// TestStampIsTheStampOfBefore: settings of before (the later settings at
// their defaults) stamp as they always did, so that the buttons of the
// panels drawn before still press.
func TestStampIsTheStampOfBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 1))
	pick := func(vals ...int64) int64 { return vals[r.IntN(len(vals))] }
	for range 2000 {
		c := game.ChatSettings{Game: game.DefaultSettings(), Language: []string{"en", "ru", "uk"}[r.IntN(3)], HouseForbidden: r.IntN(2) == 0}
		g := &c.Game
		g.Stake, g.EntryLimit = pick(1, 10, 25, 1000), pick(10, 100, 5000)
		g.TurnTimeout = time.Duration(pick(10, 60, 90, 3600)) * time.Second
		g.LobbyTimeout = time.Duration(pick(30, 600, 86400)) * time.Second
		g.MaxKnocks = int(pick(0, 3, 10))
		g.BetOptions = g.BetOptions[:1+r.IntN(len(g.BetOptions))]
		assert.Equal(t, stampBefore(c.Game, c.Language, c.HouseForbidden), Stamp(c), "%+v", c)
	}
	// The stamp of the default settings in English that the golden panels
	// of package render carry.
	assert.Equal(t, uint64(3708452803169058), Stamp(game.ChatSettings{Game: game.DefaultSettings(), Language: "en"}))
}

// anotherValue returns a valid value of f other than v.
func anotherValue(t *testing.T, f game.Field, v game.Value) game.Value {
	t.Helper()
	switch f.Kind {
	case game.FieldNumber, game.FieldDuration:
		for _, p := range append([]int64{f.Min, f.Max}, f.Presets...) {
			if p != v.N {
				return game.Value{N: p}
			}
		}
	case game.FieldBets:
		return game.Value{Bets: v.Bets[1:]}
	case game.FieldToggle:
		return game.Value{On: !v.On}
	case game.FieldLanguage:
		return game.Value{Text: v.Text + "x"}
	}
	t.Fatalf("%s: no other value", f.Key)
	return v
}

// TestStampChangesWithEverySetting: every setting, of every kind, moves
// the stamp, each to a stamp of its own.
func TestStampChangesWithEverySetting(t *testing.T) {
	base := game.ChatSettings{Game: game.DefaultSettings(), Language: "en"}
	seen := map[uint64]string{Stamp(base): "default"}
	for _, f := range game.Fields() {
		c := base.Clone()
		f.Set(&c, anotherValue(t, f, f.Get(c)))
		st := Stamp(c)
		assert.LessOrEqual(t, st, uint64(MaxVersion))
		_, dup := seen[st]
		assert.False(t, dup, f.Key)
		seen[st] = f.Key
	}
	order := base.Clone()
	order.Game.BetOptions[0], order.Game.BetOptions[1] = order.Game.BetOptions[1], order.Game.BetOptions[0]
	assert.NotEqual(t, Stamp(base), Stamp(order), "the order of the bets")
}

// TestEverySettingsButtonParses: for every setting, the button of each
// value the panel offers (presets, bounds, the default) encodes within
// Telegram's 64 bytes and parses back; a value out of range does not.
func TestEverySettingsButtonParses(t *testing.T) {
	for _, f := range game.Fields() {
		require.LessOrEqual(t, len(f.Key), game.MaxKeyLen, f.Key)
		require.Equal(t, "", strings.Trim(f.Key, "abcdefghijklmnopqrstuvwxyz"), "%s: lowercase letters", f.Key)
		var values []string
		switch f.Kind {
		case game.FieldNumber, game.FieldDuration:
			for _, n := range append([]int64{f.Min, f.Max, f.Default.N}, f.Presets...) {
				values = append(values, Value(f, game.Value{N: n}))
			}
			step := int64(1)
			if f.Kind == game.FieldDuration {
				step = int64(time.Second)
			}
			over := Value(f, game.Value{N: f.Max + step})
			_, err := Parse(Data{Action: Setting, Version: 1, Field: f.Key, Value: over}.String())
			assert.ErrorIs(t, err, ErrInvalid, "%s %s is out of range", f.Key, over)
		case game.FieldBets:
			for _, row := range f.BetPresets {
				for _, o := range row {
					values = append(values, BetToken(o))
				}
			}
		case game.FieldToggle:
			values = []string{On, Off, Value(f, f.Default)}
		case game.FieldLanguage:
			values = []string{"en", "ru", "uk"}
		}
		for _, v := range values {
			d := Data{Action: Setting, Version: MaxVersion, Field: f.Key, Value: v}
			s := d.String()
			assert.LessOrEqual(t, len(s), MaxLen, s)
			got, err := Parse(s)
			if assert.NoError(t, err, s) {
				assert.Equal(t, d, got)
			}
		}
		for _, a := range []Action{SettingOpen, SettingInfo} {
			d := Data{Action: a, Field: f.Key}
			if a == SettingOpen {
				d.Version = MaxVersion
			}
			got, err := Parse(d.String())
			if assert.NoError(t, err, d.String()) {
				assert.Equal(t, d, got)
			}
		}
	}
}

// TestValueOfEverySetting: Value writes the default of every setting as
// its buttons carry it, and the value parses.
func TestValueOfEverySetting(t *testing.T) {
	c := game.ChatSettings{Game: game.DefaultSettings(), Language: "ru"}
	want := map[string]string{"stake": "10", "entry": "100", "turn": "60", "lobby": "600", "knocks": "3", "lang": "ru", "bets": "", "house": "on"}
	for _, f := range game.Fields() {
		v := Value(f, f.Get(c))
		if w, ok := want[f.Key]; ok {
			assert.Equal(t, w, v, f.Key)
		}
		if f.Kind != game.FieldBets {
			assert.NoError(t, checkValue(f.Key, v), f.Key)
		}
	}
	for _, o := range c.Game.BetOptions {
		tok := BetToken(o)
		got, err := ParseBetToken(tok)
		require.NoError(t, err)
		assert.Equal(t, o, got)
	}
	assert.Equal(t, "x2", BetToken(game.BetOption{Kind: game.StakeTimes, N: 2}))
	assert.Equal(t, "b1", BetToken(game.BetOption{Kind: game.BankShare, N: 1}))
}
