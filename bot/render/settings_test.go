package render

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/setting"
	"github.com/twentyone-bot/twentyone/game"
)

// customSettings are settings an admin changed by command: values that are
// no preset, and bet options beyond the presets.
func customSettings(t *testing.T) game.Settings {
	opts, err := game.ParseBetOptions("x1, x3, bank/3, bank/7, bank")
	require.NoError(t, err)
	return game.Settings{
		Stake: 30, EntryLimit: 1500, BetOptions: opts,
		TurnTimeout: 40 * time.Second, LobbyTimeout: 90 * time.Minute, MaxKnocks: 10,
	}
}

func TestGoldenSettings(t *testing.T) {
	for _, lang := range i18n.Langs() {
		golden(t, "settings_default."+string(lang), dump(Settings(setting.Chat{Game: game.DefaultSettings(), Lang: lang})))
		golden(t, "settings_custom."+string(lang), dump(Settings(setting.Chat{Game: customSettings(t), Lang: lang, HouseForbidden: true})))
	}
}

func TestSettingsKeyboard(t *testing.T) {
	for i, s := range []game.Settings{game.DefaultSettings(), customSettings(t)} {
		for _, lang := range i18n.Langs() {
			c := setting.Chat{Game: s, Lang: lang, HouseForbidden: i == 1}
			m := Settings(c)
			assert.LessOrEqual(t, visibleLen(m.Text), MaxText)
			checkHTML(t, m.Text, "settings")
			stamp := c.Stamp()
			infos := map[string]bool{}
			current := map[string]int{}
			for _, row := range m.Keyboard {
				assert.LessOrEqual(t, len(row), maxRow)
				for _, b := range row {
					d, err := callback.Parse(b.Data)
					require.NoError(t, err, b.Data)
					switch d.Action {
					case callback.SettingInfo:
						infos[d.Field] = true
					case callback.Setting:
						assert.Equal(t, stamp, d.Version, "%s carries the stamp", b.Text)
						marked := strings.HasSuffix(b.Text, " ✓")
						if d.Field == callback.FieldBets {
							on := slices.ContainsFunc(s.BetOptions, func(o game.BetOption) bool { return callback.BetToken(o) == d.Value })
							assert.Equal(t, on, marked, "%s: on iff marked", b.Text)
							continue
						}
						if marked {
							current[d.Field]++
							assert.Equal(t, value(d.Field, c), d.Value, "%s is the current value", b.Text)
							continue
						}
						next, err := setting.Press(c, d)
						assert.NoError(t, err, "preset %s of %s is valid", d.Value, d.Field)
						assert.False(t, next.Game.Equal(s) && next.Lang == lang && next.HouseForbidden == c.HouseForbidden,
							"preset %s of %s changes something", d.Value, d.Field)
					default:
						t.Errorf("unexpected action %s", d.Action)
					}
				}
			}
			for _, f := range callback.Fields() {
				assert.True(t, infos[f], "%s has its info button", f)
				if f != callback.FieldBets {
					assert.Equal(t, 1, current[f], "%s: the current value is marked once", f)
				}
			}
		}
	}
}

// value is the value of field in c, as a Setting button carries it.
func value(field string, c setting.Chat) string {
	if field == callback.FieldHouse {
		return callback.HouseValue(c.HouseForbidden)
	}
	return callback.Value(field, c.Game, string(c.Lang))
}

// TestEverySettingIsReachableWithButtons walks the keyboard from the
// defaults and checks that an admin reaches every preset of every field and
// can turn every preset bet option on and off.
func TestEverySettingIsReachableWithButtons(t *testing.T) {
	start := setting.Chat{Game: game.DefaultSettings(), Lang: i18n.EN}
	seen := map[uint64]bool{start.Stamp(): true}
	queue := []setting.Chat{start}
	reached := map[string]map[string]bool{}
	for len(queue) > 0 && len(seen) < 3000 {
		st := queue[0]
		queue = queue[1:]
		for _, f := range callback.Fields() {
			if reached[f] == nil {
				reached[f] = map[string]bool{}
			}
			if f != callback.FieldBets {
				reached[f][value(f, st)] = true
			}
		}
		for _, o := range st.Game.BetOptions {
			reached[callback.FieldBets]["on "+callback.BetToken(o)] = true
		}
		for _, row := range Settings(st).Keyboard {
			for _, b := range row {
				d, err := callback.Parse(b.Data)
				require.NoError(t, err)
				if d.Action != callback.Setting {
					continue
				}
				next, err := setting.Press(st, d)
				if err != nil {
					continue
				}
				if k := next.Stamp(); !seen[k] {
					seen[k] = true
					queue = append(queue, next)
				}
			}
		}
	}
	for f, vals := range presets {
		for _, v := range vals {
			assert.True(t, reached[f][strconv.FormatInt(v, 10)], "%s = %d is reachable", f, v)
		}
	}
	for _, row := range betPresets {
		for _, o := range row {
			assert.True(t, reached[callback.FieldBets]["on "+callback.BetToken(o)], "bet %s can be turned on", callback.BetToken(o))
		}
	}
	assert.True(t, reached[callback.FieldLang]["ru"])
	assert.True(t, reached[callback.FieldLang]["en"])
	assert.True(t, reached[callback.FieldHouse][callback.HouseOff])
	assert.True(t, reached[callback.FieldHouse][callback.HouseOn])
}

func TestSettingsReadOnlyIsTheTextWithoutButtons(t *testing.T) {
	for _, s := range []game.Settings{game.DefaultSettings(), customSettings(t)} {
		for _, lang := range i18n.Langs() {
			c := setting.Chat{Game: s, Lang: lang}
			ro := SettingsReadOnly(c)
			assert.Equal(t, Settings(c).Text, ro.Text)
			assert.Empty(t, ro.Keyboard)
		}
	}
}
