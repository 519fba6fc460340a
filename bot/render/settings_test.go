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
func chats(t *testing.T) []setting.Chat {
	var out []setting.Chat
	for i, s := range []game.Settings{game.DefaultSettings(), customSettings(t), widestSettings(t)} {
		for _, lang := range i18n.Langs() {
			out = append(out, setting.Chat{Game: s, Lang: lang, HouseForbidden: i > 0})
		}
	}
	return out
}

// choices dumps the choices of every setting, one after the other.
func choices(c setting.Chat) string {
	var b strings.Builder
	for _, f := range callback.Fields() {
		b.WriteString("##### " + f + "\n")
		b.WriteString(dump(SettingsField(c, f)))
	}
	return b.String()
}

func TestGoldenSettings(t *testing.T) {
	for _, lang := range i18n.Langs() {
		def := setting.Chat{Game: game.DefaultSettings(), Lang: lang}
		custom := setting.Chat{Game: customSettings(t), Lang: lang, HouseForbidden: true}
		golden(t, "settings_default."+string(lang), dump(Settings(def)))
		golden(t, "settings_custom."+string(lang), dump(Settings(custom)))
		golden(t, "settings_widest."+string(lang), dump(Settings(setting.Chat{Game: widestSettings(t), Lang: lang})))
		golden(t, "settings_readonly."+string(lang), dump(SettingsReadOnly(custom)))
		golden(t, "settings_choices_default."+string(lang), choices(def))
		golden(t, "settings_choices_custom."+string(lang), choices(custom))
	}
}

// TestSettingsListIsOneLabelledButtonPerSetting: the list is one row per
// setting, in the order of callback.Fields, each button saying what it is
// and its value as the read-only list does, shown whole on a phone, and
// opening that setting's choices with the settings' stamp.
func TestSettingsListIsOneLabelledButtonPerSetting(t *testing.T) {
	for _, c := range chats(t) {
		m := Settings(c)
		checkHTML(t, m.Text, "settings")
		assert.LessOrEqual(t, strings.Count(m.Text, "\n"), 1, "%s: two lines of text, above the buttons", c.Lang)
		ro := strings.Split(SettingsReadOnly(c).Text, "\n")
		require.Len(t, m.Keyboard, len(callback.Fields()))
		for i, f := range callback.Fields() {
			row := m.Keyboard[i]
			require.Len(t, row, 1, "one setting a row")
			b := row[0]
			d, err := callback.Parse(b.Data)
			require.NoError(t, err, b.Data)
			assert.Equal(t, callback.Data{Action: callback.SettingOpen, Version: c.Stamp(), Field: f}, d)
			assert.True(t, fitsRow(b.Text), "%s: %q is shown whole on a phone", c.Lang, b.Text)
			line := ro[1+i]
			if short, ok := strings.CutSuffix(b.Text, " · …"); ok {
				assert.Equal(t, callback.FieldBets, f, "only the bets are shortened")
				assert.True(t, strings.HasPrefix(line, short), "%q is the start of %q", b.Text, line)
				continue
			}
			assert.Equal(t, line, escape(b.Text), "the label is the read-only list's line")
			assert.True(t, strings.HasPrefix(b.Text, fieldIcons[f]+" "+i18n.T(c.Lang, fieldNames[f])+": "), "%q names its setting", b.Text)
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
			got := listLabel(setting.Chat{Game: s, Lang: tt.lang}, callback.FieldBets)
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
		for _, f := range callback.Fields() {
			m := SettingsField(c, f)
			what := string(c.Lang) + " " + f
			checkHTML(t, m.Text, what)
			assert.True(t, strings.HasPrefix(m.Text, "<b>"+escape(fieldIcons[f]+" "+fieldLine(c, c.Lang, f))+"</b>\n"), "%s: %q", what, m.Text)
			assert.Contains(t, m.Text, escape(i18n.T(c.Lang, fieldInfo[f])), "%s explains the setting", what)
			// The most: the bets of widestSettings in Russian, 14 options.
			assert.LessOrEqual(t, len(m.Keyboard), 6, "%s: few rows", what)
			assert.True(t, fits(m.Keyboard), "%s: every label whole on a phone", what)
			require.NotEmpty(t, m.Keyboard)
			back := m.Keyboard[len(m.Keyboard)-1]
			require.Len(t, back, 1, what)
			assert.Equal(t, i18n.T(c.Lang, i18n.BtnSettingsBack), back[0].Text)
			d, err := callback.Parse(back[0].Data)
			require.NoError(t, err)
			assert.Equal(t, callback.Data{Action: callback.SettingBack, Version: c.Stamp()}, d)
			current := 0
			for _, row := range m.Keyboard[:len(m.Keyboard)-1] {
				assert.LessOrEqual(t, len(row), choicesRow)
				for _, b := range row {
					d, err := callback.Parse(b.Data)
					require.NoError(t, err, b.Data)
					require.Equal(t, callback.Setting, d.Action, "%s: %s", what, b.Text)
					assert.Equal(t, f, d.Field, "%s: %s sets its own setting", what, b.Text)
					assert.Equal(t, c.Stamp(), d.Version, "%s: %s carries the stamp", what, b.Text)
					marked := strings.HasSuffix(b.Text, " ✓")
					if f == callback.FieldBets {
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
					assert.False(t, next.Game.Equal(c.Game) && next.Lang == c.Lang && next.HouseForbidden == c.HouseForbidden,
						"%s: preset %s changes something", what, d.Value)
				}
			}
			if f != callback.FieldBets {
				assert.Equal(t, 1, current, "%s: the current value is marked once", what)
			}
		}
	}
}

func TestSettingsFieldOfNoSettingIsTheList(t *testing.T) {
	c := setting.Chat{Game: game.DefaultSettings(), Lang: i18n.EN}
	for _, f := range []string{"", "color", "Stake"} {
		assert.Equal(t, Settings(c), SettingsField(c, f), "%q", f)
	}
}

// value is the value of field in c, as a Setting button carries it.
func value(field string, c setting.Chat) string {
	if field == callback.FieldHouse {
		return callback.HouseValue(c.HouseForbidden)
	}
	return callback.Value(field, c.Game, string(c.Lang))
}

// TestEverySettingIsReachableWithButtons walks the panel from the
// defaults, through the list and each setting's choices, and checks that
// an admin reaches every preset of every field and can turn every preset
// bet option on and off.
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
					if k := next.Stamp(); !seen[k] {
						seen[k] = true
						queue = append(queue, next)
					}
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
	for _, l := range i18n.Langs() {
		assert.True(t, reached[callback.FieldLang][string(l)], "%s is reachable", l)
	}
	assert.True(t, reached[callback.FieldHouse][callback.HouseOff])
	assert.True(t, reached[callback.FieldHouse][callback.HouseOn])
}

// TestSettingsReadOnlyListsEverySetting: whoever may not change the
// settings sees them all in the text, and no button.
func TestSettingsReadOnlyListsEverySetting(t *testing.T) {
	for _, c := range chats(t) {
		ro := SettingsReadOnly(c)
		checkHTML(t, ro.Text, "read-only settings")
		assert.Empty(t, ro.Keyboard)
		for _, f := range callback.Fields() {
			assert.Contains(t, ro.Text, "\n"+escape(fieldIcons[f]+" "+fieldLine(c, c.Lang, f))+"\n")
		}
		assert.True(t, strings.HasSuffix(ro.Text, escape(i18n.T(c.Lang, i18n.SettingsFooter))))
	}
}

func TestSettingSavedSaysWhatIsNow(t *testing.T) {
	c := setting.Chat{Game: customSettings(t), Lang: i18n.RU, HouseForbidden: true}
	tests := []struct {
		lang  i18n.Lang
		field string
		want  string
	}{
		{i18n.EN, callback.FieldStake, "Saved. Stake: 30"},
		{i18n.EN, callback.FieldEntry, "Saved. Min. balance: 1\u202f500"},
		{i18n.EN, callback.FieldTurn, "Saved. Turn time: 40\u00a0s"},
		{i18n.RU, callback.FieldTurn, "Сохранено. Время хода: 40\u00a0с"},
		{i18n.EN, callback.FieldBets, "Saved. Bets: ×1 · ×3 · ⅓ · 1/7 · bank"},
		{i18n.EN, callback.FieldHouse, "Saved. The house: off"},
		{i18n.UK, callback.FieldHouse, "Збережено. Бот за столом: не можна"},
		{i18n.EN, callback.FieldLang, "Saved. Language: русский"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, SettingSaved(tt.lang, c, tt.field))
	}
}

// TestSettingInfoNamesTheSetting: the icon buttons of the panels drawn
// before the list still explain their setting, as they always did.
func TestSettingInfoNamesTheSetting(t *testing.T) {
	assert.Equal(t, "Stake: the chips the banker puts into the bank when a game starts.", SettingInfo(i18n.EN, callback.FieldStake))
	assert.Equal(t, "Время хода: сколько времени есть у игрока, чтобы сделать ставку, взять карту или остановиться.",
		SettingInfo(i18n.RU, callback.FieldTurn))
	assert.Equal(t, "Мін. баланс: скільки фішок треба мати на рахунку, щоб сісти за стіл: їх лише перевіряють, а не забирають. Не менше за ставку.",
		SettingInfo(i18n.UK, callback.FieldEntry))
	for _, lang := range i18n.Langs() {
		for _, f := range callback.Fields() {
			assert.LessOrEqual(t, len([]rune(SettingInfo(lang, f))), 200, "%s %s: a callback answer", lang, f)
		}
	}
}
