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
		golden(t, "settings_default."+string(lang), dump(Settings(game.DefaultSettings(), lang)))
		golden(t, "settings_custom."+string(lang), dump(Settings(customSettings(t), lang)))
	}
}

func TestSettingsKeyboard(t *testing.T) {
	for _, s := range []game.Settings{game.DefaultSettings(), customSettings(t)} {
		for _, lang := range i18n.Langs() {
			m := Settings(s, lang)
			assert.LessOrEqual(t, visibleLen(m.Text), MaxText)
			checkHTML(t, m.Text, "settings")
			stamp := callback.Stamp(s, string(lang))
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
							assert.Equal(t, callback.Value(d.Field, s, string(lang)), d.Value, "%s is the current value", b.Text)
							continue
						}
						next, err := setting.Press(setting.Chat{Game: s, Lang: lang}, d)
						assert.NoError(t, err, "preset %s of %s is valid", d.Value, d.Field)
						assert.False(t, next.Game.Equal(s) && next.Lang == lang, "preset %s of %s changes something", d.Value, d.Field)
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

// TestEverySettingIsReachableWithButtons walks the keyboard from the
// defaults and checks that an admin reaches every preset of every field and
// can turn every preset bet option on and off.
func TestEverySettingIsReachableWithButtons(t *testing.T) {
	start := setting.Chat{Game: game.DefaultSettings(), Lang: i18n.EN}
	seen := map[uint64]bool{callback.Stamp(start.Game, string(start.Lang)): true}
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
				reached[f][callback.Value(f, st.Game, string(st.Lang))] = true
			}
		}
		for _, o := range st.Game.BetOptions {
			reached[callback.FieldBets]["on "+callback.BetToken(o)] = true
		}
		for _, row := range Settings(st.Game, st.Lang).Keyboard {
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
				if k := callback.Stamp(next.Game, string(next.Lang)); !seen[k] {
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
}

func TestSettingsReadOnlyIsTheTextWithoutButtons(t *testing.T) {
	for _, s := range []game.Settings{game.DefaultSettings(), customSettings(t)} {
		for _, lang := range i18n.Langs() {
			ro := SettingsReadOnly(s, lang)
			assert.Equal(t, Settings(s, lang).Text, ro.Text)
			assert.Empty(t, ro.Keyboard)
		}
	}
}
