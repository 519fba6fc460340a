package render

import (
	"slices"
	"strings"
	"unicode"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/setting"
	"github.com/twentyone-bot/twentyone/game"
)

// choicesRow is the most buttons a row of a setting's choices holds (five
// presets and the current value when it is none of them need two); on a
// phone fewer fit (rows).
const choicesRow = 5

// The settings panel (/settings) has two levels. An admin's starts with
// the list (Settings): the settings as buttons, one a row, each showing its
// value ("💰 Stake: 10"); pressing one shows its choices (SettingsField)
// with ← Back to the list. Both fit a phone's screen with their text in
// view, and every button carries the settings' callback.Stamp, so that a
// press on a panel drawn for older settings is told so. Everyone else
// sees the list in the text, without buttons (SettingsReadOnly).

// Settings draws an admin's settings panel showing the list: a line on
// what to do, and one button per setting (game.Fields), labelled with its
// icon, name and value, that opens its choices (callback.SettingOpen). A
// label too long for a phone's row is shortened (listLabel).
func Settings(c game.ChatSettings) message.Message {
	stamp, lang := callback.Stamp(c), langOf(c)
	var kb [][]message.Button
	for _, f := range game.Fields() {
		kb = append(kb, []message.Button{{Text: listLabel(c, f),
			Data: callback.Data{Action: callback.SettingOpen, Version: stamp, Field: f.Key}.String()}})
	}
	text := bold(escape(i18n.T(lang, i18n.SettingsTitle))) + "\n" + escape(i18n.T(lang, i18n.SettingsChoose))
	return message.Message{Text: text, Keyboard: kb}
}

// SettingsField draws an admin's settings panel showing the choices of
// the setting key: the setting and its value, what it means, and buttons
// that set it (callback.Setting), by its kind: a number's or a time's
// presets, the current value marked ✓, in as many rows as a phone needs to
// show them whole (rows); bet options as toggles, ✓ when on; a toggle's on
// and off; the languages. Values that pressing would refuse (setting.Press:
// they would break a limit given the other settings) are left out. Under
// them, ← Back to the list (callback.SettingBack). A key that is no
// setting draws the list.
func SettingsField(c game.ChatSettings, key string) message.Message {
	f, ok := game.FieldByKey(key)
	if !ok {
		return Settings(c)
	}
	lang := langOf(c)
	k := settingsKeys{c: c, stamp: callback.Stamp(c)}
	var kb [][]message.Button
	switch f.Kind {
	case game.FieldBets:
		kb = k.betRows(f)
	case game.FieldLanguage:
		kb = k.langRows(f)
	case game.FieldToggle:
		kb = k.toggleRows(f)
	default:
		kb = k.numberRows(f)
	}
	kb = append(kb, []message.Button{{Text: i18n.T(lang, i18n.BtnSettingsBack),
		Data: callback.Data{Action: callback.SettingBack, Version: k.stamp}.String()}})
	lines := []string{bold(escape(f.Icon + " " + fieldLine(c, lang, f))), escape(i18n.T(lang, i18n.SettingAbout(f.Key)))}
	if f.Kind == game.FieldBets {
		lines = append(lines, escape(i18n.T(lang, i18n.SettingsBetsToggle)))
	}
	return message.Message{Text: strings.Join(lines, "\n"), Keyboard: kb}
}

// SettingsReadOnly draws the settings panel for whoever may not change
// the settings: the list in the text, without buttons.
func SettingsReadOnly(c game.ChatSettings) message.Message {
	lang := langOf(c)
	lines := []string{bold(escape(i18n.T(lang, i18n.SettingsTitle)))}
	for _, f := range game.Fields() {
		lines = append(lines, escape(f.Icon+" "+fieldLine(c, lang, f)))
	}
	lines = append(lines, "", escape(i18n.T(lang, i18n.SettingsFooter)))
	return message.Message{Text: strings.Join(lines, "\n")}
}

// SettingSaved is the answer, in lang, to the press that changed the
// setting key to what c holds: saved, and the setting as the list shows
// it.
func SettingSaved(lang i18n.Lang, c game.ChatSettings, key string) string {
	f, _ := game.FieldByKey(key)
	return i18n.T(lang, i18n.PopSavedSetting, fieldLine(c, lang, f))
}

// SettingInfo explains the setting key in lang after its name ("Stake:
// the chips the banker puts into the bank when a game starts."): the
// answer to the icon buttons of the panels drawn before the list
// (callback.SettingInfo).
func SettingInfo(lang i18n.Lang, key string) string {
	about := []rune(i18n.T(lang, i18n.SettingAbout(key)))
	if len(about) > 0 {
		about[0] = unicode.ToLower(about[0])
	}
	return i18n.T(lang, i18n.SettingName(key)) + ": " + string(about)
}

// langOf is the language c speaks: a panel's c comes with it decided
// (panel.Edited).
func langOf(c game.ChatSettings) i18n.Lang { return i18n.Lang(c.Language) }

// fieldLine is a setting of c and its value, in lang, as plain text:
// "Stake: 10".
func fieldLine(c game.ChatSettings, lang i18n.Lang, f game.Field) string {
	return i18n.T(lang, i18n.SettingName(f.Key)) + ": " + fieldValue(lang, f, f.Get(c))
}

// fieldValue is a value of the setting f in lang, as plain text, by its
// kind: "10", "60 s", "×1 · ×2 · bank", "on", "English".
func fieldValue(lang i18n.Lang, f game.Field, v game.Value) string {
	switch f.Kind {
	case game.FieldNumber, game.FieldDuration:
		return i18n.SettingValue(lang, f, v.N)
	case game.FieldBets:
		return betList(v.Bets, lang)
	case game.FieldToggle:
		return i18n.T(lang, toggleLabel(f, v.On))
	case game.FieldLanguage:
		return i18n.NameInText(i18n.Lang(v.Text))
	}
	return ""
}

// listLabel labels the button of the setting f in the list: its icon,
// name and value, "💰 Stake: 10". The label of bet options, the one that
// can be too long for a phone's row, keeps as many options as fit, then
// "…": their choices show them all.
func listLabel(c game.ChatSettings, f game.Field) string {
	lang := langOf(c)
	label := f.Icon + " " + fieldLine(c, lang, f)
	if f.Kind != game.FieldBets {
		return label
	}
	opts := f.Get(c).Bets
	for n := len(opts) - 1; n > 0 && !fitsRow(label); n-- {
		label = f.Icon + " " + i18n.T(lang, i18n.SettingName(f.Key)) + ": " + betList(opts[:n], lang) + " · …"
	}
	return label
}

// fitsRow reports whether label shows whole on a button alone in its row
// on a phone.
func fitsRow(label string) bool { return fits([][]message.Button{{{Text: label}}}) }

// betList names bet options: "×1 · ×2 · ½ · bank".
func betList(opts []game.BetOption, lang i18n.Lang) string {
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = i18n.BetOption(lang, o)
	}
	return strings.Join(names, " · ")
}

// toggleLabel is the label of a value of the toggle f.
func toggleLabel(f game.Field, on bool) i18n.Key {
	if on {
		return i18n.SettingOn(f.Key)
	}
	return i18n.SettingOff(f.Key)
}

// settingsKeys builds the choices of a setting.
type settingsKeys struct {
	c     game.ChatSettings
	stamp uint64
}

// set is a button that sets the setting key to value.
func (k settingsKeys) set(key, value, label string, current bool) message.Button {
	if current {
		label += " ✓"
	}
	return message.Button{Text: label, Data: callback.Data{Action: callback.Setting, Version: k.stamp, Field: key, Value: value}.String()}
}

// numberRows offers the presets of a number or a time and its current
// value.
func (k settingsKeys) numberRows(f game.Field) [][]message.Button {
	cur := f.Get(k.c).N
	vals := slices.Clone(f.Presets)
	if !slices.Contains(vals, cur) {
		vals = append(vals, cur)
		slices.Sort(vals)
	}
	var buttons []message.Button
	for _, v := range vals {
		value := callback.Value(f, game.Value{N: v})
		if v != cur && !k.valid(f.Key, value) {
			continue
		}
		buttons = append(buttons, k.set(f.Key, value, i18n.SettingValue(langOf(k.c), f, v), v == cur))
	}
	return rows(buttons, choicesRow)
}

// valid reports whether pressing the button that sets the setting key to
// value would be accepted.
func (k settingsKeys) valid(key, value string) bool {
	d := callback.Data{Action: callback.Setting, Version: k.stamp, Field: key, Value: value}
	_, err := setting.Press(k.c, d)
	return err == nil
}

// betRows offers every bet option to toggle: the presets and those on, in
// the editor's order (setting.SortBets), each row of presets with the
// options on of its kind.
func (k settingsKeys) betRows(f game.Field) [][]message.Button {
	var kb [][]message.Button
	on := f.Get(k.c).Bets
	for _, preset := range f.BetPresets {
		opts := slices.Clone(preset)
		for _, o := range on {
			if o.Kind == preset[0].Kind && !slices.Contains(opts, o) {
				opts = append(opts, o)
			}
		}
		setting.SortBets(opts)
		var buttons []message.Button
		for _, o := range opts {
			buttons = append(buttons, k.set(f.Key, callback.BetToken(o), i18n.BetOption(langOf(k.c), o), slices.Contains(on, o)))
		}
		kb = append(kb, rows(buttons, choicesRow)...)
	}
	return kb
}

// toggleRows offers a toggle's on and off.
func (k settingsKeys) toggleRows(f game.Field) [][]message.Button {
	var buttons []message.Button
	cur := f.Get(k.c).On
	for _, on := range []bool{true, false} {
		v := game.Value{On: on}
		buttons = append(buttons, k.set(f.Key, callback.Value(f, v), i18n.T(langOf(k.c), toggleLabel(f, on)), on == cur))
	}
	return rows(buttons, choicesRow)
}

// langRows offers the languages.
func (k settingsKeys) langRows(f game.Field) [][]message.Button {
	var buttons []message.Button
	for _, l := range i18n.Langs() {
		buttons = append(buttons, k.set(f.Key, string(l), i18n.Name(l), string(l) == k.c.Language))
	}
	return rows(buttons, choicesRow)
}
