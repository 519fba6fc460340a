package render

import (
	"slices"
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

// widestSettings are the settings with the longest values: the most bet
// options, each long, and the largest numbers and times.
func widestSettings(t *testing.T) game.Settings {
	opts, err := game.ParseBetOptions("x999, x1000, bank/7, bank/8, bank/9, bank/10")
	require.NoError(t, err)
	s := game.Settings{
		Stake: game.MaxStake, EntryLimit: game.MaxStake * game.MaxStakeTimes, BetOptions: opts,
		TurnTimeout: game.MaxTurnTimeout - time.Second, LobbyTimeout: game.MaxLobbyTimeout - time.Minute, MaxKnocks: game.MaxKnocksLimit,
	}
	require.NoError(t, s.Validate())
	return s
}

// chats are the settings the tests draw, in every language.
func chats(t *testing.T) []game.ChatSettings {
	var out []game.ChatSettings
	for i, s := range []game.Settings{game.DefaultSettings(), customSettings(t), widestSettings(t)} {
		for _, lang := range i18n.Langs() {
			out = append(out, game.ChatSettings{Game: s, Language: string(lang), HouseForbidden: i > 0})
		}
	}
	return out
}

// choices dumps the choices of every setting, one after the other.
func choices(c game.ChatSettings) string {
	var b strings.Builder
	for _, f := range game.Fields() {
		b.WriteString("##### " + f.Key + "\n")
		b.WriteString(dump(SettingsField(c, f.Key)))
	}
	return b.String()
}

func TestGoldenSettings(t *testing.T) {
	for _, lang := range i18n.Langs() {
		def := game.ChatSettings{Game: game.DefaultSettings(), Language: string(lang)}
		custom := game.ChatSettings{Game: customSettings(t), Language: string(lang), HouseForbidden: true}
		golden(t, "settings_default."+string(lang), dump(Settings(def)))
		golden(t, "settings_custom."+string(lang), dump(Settings(custom)))
		golden(t, "settings_widest."+string(lang), dump(Settings(game.ChatSettings{Game: widestSettings(t), Language: string(lang)})))
		golden(t, "settings_readonly."+string(lang), dump(SettingsReadOnly(custom)))
		golden(t, "settings_choices_default."+string(lang), choices(def))
		golden(t, "settings_choices_custom."+string(lang), choices(custom))
	}
}

// TestSettingsListIsOneLabelledButtonPerSetting: the list is one row per
// setting, in the order of game.Fields, each button saying what it is
// and its value as the read-only list does, shown whole on a phone, and
// opening that setting's choices with the settings' stamp.
func TestSettingsListIsOneLabelledButtonPerSetting(t *testing.T) {
	for _, c := range chats(t) {
		m := Settings(c)
		checkHTML(t, m.Text, "settings")
		lang := langOf(c)
		assert.LessOrEqual(t, strings.Count(m.Text, "\n"), 1, "%s: two lines of text, above the buttons", lang)
		ro := strings.Split(SettingsReadOnly(c).Text, "\n")
		require.Len(t, m.Keyboard, len(game.Fields()))
		for i, f := range game.Fields() {
			row := m.Keyboard[i]
			require.Len(t, row, 1, "one setting a row")
			b := row[0]
			d, err := callback.Parse(b.Data)
			require.NoError(t, err, b.Data)
			assert.Equal(t, callback.Data{Action: callback.SettingOpen, Version: callback.Stamp(c), Field: f.Key}, d)
			assert.True(t, fitsRow(b.Text), "%s: %q is shown whole on a phone", lang, b.Text)
			line := ro[1+i]
			if short, ok := strings.CutSuffix(b.Text, " · …"); ok {
				assert.Equal(t, game.FieldBets, f.Kind, "only the bets are shortened")
				assert.True(t, strings.HasPrefix(line, short), "%q is the start of %q", b.Text, line)
				continue
			}
			assert.Equal(t, line, escape(b.Text), "the label is the read-only list's line")
			assert.True(t, strings.HasPrefix(b.Text, f.Icon+" "+i18n.T(lang, i18n.SettingName(f.Key))+": "), "%q names its setting", b.Text)
		}
	}
}

// TestSettingsListShortensOnlyWhatDoesNotFit: the bet options are cut at
// an option, never inside one, and only when the whole list is too long.
func TestSettingsListShortensOnlyWhatDoesNotFit(t *testing.T) {
	tests := []struct {
		bets string
		lang i18n.Lang
		want string
	}{
		{"x1 x2 x5 bank/2 bank", i18n.EN, "🎲 Bets: ×1 · ×2 · ×5 · ½ · bank"},
		{"x1 x2 x5 x10 bank/2 bank", i18n.EN, "🎲 Bets: ×1 · ×2 · ×5 · ×10 · ½ · bank"},
		{"x1 x2 x5 x10 bank/2 bank", i18n.RU, "🎲 Ставки: ×1 · ×2 · ×5 · ×10 · ½ · …"},
		{"x999 x1000 bank/7 bank/8 bank/9 bank/10", i18n.EN, "🎲 Bets: ×999 · ×1\u202f000 · 1/7 · ⅛ · …"},
	}
	for _, tt := range tests {
		t.Run(string(tt.lang)+" "+tt.bets, func(t *testing.T) {
			opts, err := game.ReadBetOptions(tt.bets)
			require.NoError(t, err)
			s := game.DefaultSettings()
			s.BetOptions = opts
			bets, _ := game.FieldByKey("bets")
			got := listLabel(game.ChatSettings{Game: s, Language: string(tt.lang)}, bets)
			assert.Equal(t, tt.want, got)
			assert.True(t, fitsRow(got))
		})
	}
}

// TestSettingsChoices: a setting's choices set that setting and nothing
// else, with the settings' stamp; the current value is marked once (bet
// options: each one on); every other value offered is accepted and
// changes something; the rows show whole on a phone, few of them; and
// the last row is ← Back alone.
func TestSettingsChoices(t *testing.T) {
	for _, c := range chats(t) {
		lang := langOf(c)
		for _, f := range game.Fields() {
			m := SettingsField(c, f.Key)
			what := c.Language + " " + f.Key
			checkHTML(t, m.Text, what)
			assert.True(t, strings.HasPrefix(m.Text, "<b>"+escape(f.Icon+" "+fieldLine(c, lang, f))+"</b>\n"), "%s: %q", what, m.Text)
			assert.Contains(t, m.Text, escape(i18n.T(lang, i18n.SettingAbout(f.Key))), "%s explains the setting", what)
			// The most: the bets of widestSettings in Russian, 14 options.
			assert.LessOrEqual(t, len(m.Keyboard), 6, "%s: few rows", what)
			assert.True(t, fits(m.Keyboard), "%s: every label whole on a phone", what)
			require.NotEmpty(t, m.Keyboard)
			back := m.Keyboard[len(m.Keyboard)-1]
			require.Len(t, back, 1, what)
			assert.Equal(t, i18n.T(lang, i18n.BtnSettingsBack), back[0].Text)
			d, err := callback.Parse(back[0].Data)
			require.NoError(t, err)
			assert.Equal(t, callback.Data{Action: callback.SettingBack, Version: callback.Stamp(c)}, d)
			current := 0
			for _, row := range m.Keyboard[:len(m.Keyboard)-1] {
				assert.LessOrEqual(t, len(row), choicesRow)
				for _, b := range row {
					d, err := callback.Parse(b.Data)
					require.NoError(t, err, b.Data)
					require.Equal(t, callback.Setting, d.Action, "%s: %s", what, b.Text)
					assert.Equal(t, f.Key, d.Field, "%s: %s sets its own setting", what, b.Text)
					assert.Equal(t, callback.Stamp(c), d.Version, "%s: %s carries the stamp", what, b.Text)
					marked := strings.HasSuffix(b.Text, " ✓")
					if f.Kind == game.FieldBets {
						on := slices.ContainsFunc(c.Game.BetOptions, func(o game.BetOption) bool { return callback.BetToken(o) == d.Value })
						assert.Equal(t, on, marked, "%s: %s on iff marked", what, b.Text)
						continue
					}
					if marked {
						current++
						assert.Equal(t, value(f, c), d.Value, "%s: %s is the current value", what, b.Text)
						continue
					}
					next, err := setting.Press(c, d)
					assert.NoError(t, err, "%s: preset %s is valid", what, d.Value)
					assert.NotEqual(t, callback.Stamp(c), callback.Stamp(next), "%s: preset %s changes something", what, d.Value)
				}
			}
			if f.Kind != game.FieldBets {
				assert.Equal(t, 1, current, "%s: the current value is marked once", what)
			}
		}
	}
}

func TestSettingsFieldOfNoSettingIsTheList(t *testing.T) {
	c := game.ChatSettings{Game: game.DefaultSettings(), Language: "en"}
	for _, f := range []string{"", "color", "Stake"} {
		assert.Equal(t, Settings(c), SettingsField(c, f), "%q", f)
	}
}

// value is the value of the setting f in c, as a Setting button carries
// it.
func value(f game.Field, c game.ChatSettings) string { return callback.Value(f, f.Get(c)) }

// TestEverySettingIsReachableWithButtons walks the panel from the
// defaults, through the list and each setting's choices, and checks that
// an admin reaches every preset of every setting, both values of every
// toggle and every language, and can turn every preset bet option on.
func TestEverySettingIsReachableWithButtons(t *testing.T) {
	start := game.ChatSettings{Game: game.DefaultSettings(), Language: "en"}
	seen := map[uint64]bool{callback.Stamp(start): true}
	queue := []game.ChatSettings{start}
	reached := map[string]map[string]bool{}
	for len(queue) > 0 && len(seen) < 3000 {
		st := queue[0]
		queue = queue[1:]
		for _, f := range game.Fields() {
			if reached[f.Key] == nil {
				reached[f.Key] = map[string]bool{}
			}
			if f.Kind != game.FieldBets {
				reached[f.Key][value(f, st)] = true
				continue
			}
			for _, o := range f.Get(st).Bets {
				reached[f.Key]["on "+callback.BetToken(o)] = true
			}
		}
		for _, row := range Settings(st).Keyboard {
			open, err := callback.Parse(row[0].Data)
			require.NoError(t, err)
			require.Equal(t, callback.SettingOpen, open.Action)
			for _, row := range SettingsField(st, open.Field).Keyboard {
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
					if k := callback.Stamp(next); !seen[k] {
						seen[k] = true
						queue = append(queue, next)
					}
				}
			}
		}
	}
	for _, f := range game.Fields() {
		var want []string
		switch f.Kind {
		case game.FieldNumber, game.FieldDuration:
			for _, v := range f.Presets {
				want = append(want, callback.Value(f, game.Value{N: v}))
			}
		case game.FieldBets:
			for _, row := range f.BetPresets {
				for _, o := range row {
					want = append(want, "on "+callback.BetToken(o))
				}
			}
		case game.FieldToggle:
			want = []string{callback.On, callback.Off}
		case game.FieldLanguage:
			for _, l := range i18n.Langs() {
				want = append(want, string(l))
			}
		}
		for _, v := range want {
			assert.True(t, reached[f.Key][v], "%s %s is reachable", f.Key, v)
		}
	}
}

// TestSettingsReadOnlyListsEverySetting: whoever may not change the
// settings sees them all in the text, and no button.
func TestSettingsReadOnlyListsEverySetting(t *testing.T) {
	for _, c := range chats(t) {
		ro := SettingsReadOnly(c)
		checkHTML(t, ro.Text, "read-only settings")
		assert.Empty(t, ro.Keyboard)
		for _, f := range game.Fields() {
			assert.Contains(t, ro.Text, "\n"+escape(f.Icon+" "+fieldLine(c, langOf(c), f))+"\n")
		}
		assert.True(t, strings.HasSuffix(ro.Text, escape(i18n.T(langOf(c), i18n.SettingsFooter))))
	}
}

func TestSettingSavedSaysWhatIsNow(t *testing.T) {
	c := game.ChatSettings{Game: customSettings(t), Language: "ru", HouseForbidden: true}
	tests := []struct {
		lang  i18n.Lang
		field string
		want  string
	}{
		{i18n.EN, "stake", "Saved. Stake: 30"},
		{i18n.EN, "entry", "Saved. Min. balance: 1\u202f500"},
		{i18n.EN, "turn", "Saved. Turn time: 40\u00a0s"},
		{i18n.RU, "turn", "Сохранено. Время хода: 40\u00a0с"},
		{i18n.EN, "bets", "Saved. Bets: ×1 · ×3 · ⅓ · 1/7 · bank"},
		{i18n.EN, "house", "Saved. The house: off"},
		{i18n.UK, "house", "Збережено. Бот за столом: не можна"},
		{i18n.EN, "lang", "Saved. Language: русский"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, SettingSaved(tt.lang, c, tt.field))
	}
}

// TestSettingInfoNamesTheSetting: the icon buttons of the panels drawn
// before the list still explain their setting, as they always did.
func TestSettingInfoNamesTheSetting(t *testing.T) {
	assert.Equal(t, "Stake: the chips the banker puts into the bank when a game starts.", SettingInfo(i18n.EN, "stake"))
	assert.Equal(t, "Время хода: сколько времени есть у игрока, чтобы сделать ставку, взять карту или остановиться.",
		SettingInfo(i18n.RU, "turn"))
	assert.Equal(t, "Мін. баланс: скільки фішок треба мати на рахунку, щоб сісти за стіл: їх лише перевіряють, а не забирають. Не менше за ставку.",
		SettingInfo(i18n.UK, "entry"))
	for _, lang := range i18n.Langs() {
		for _, f := range game.Fields() {
			assert.LessOrEqual(t, len([]rune(SettingInfo(lang, f.Key))), 200, "%s %s: a callback answer", lang, f.Key)
		}
	}
}
