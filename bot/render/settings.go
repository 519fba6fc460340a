package render

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/setting"
	"github.com/twentyone-bot/twentyone/game"
)

// maxRow is the most buttons the settings keyboard puts in a row: a field's
// icon, five presets and the current value when it is none of them; on a
// phone fewer fit (rows).
const maxRow = 7

// fieldIcons mark each setting in the text and on its row of buttons.
var fieldIcons = map[string]string{
	callback.FieldStake: "💰", callback.FieldEntry: "🚪", callback.FieldBets: "🎲",
	callback.FieldTurn: "⏱", callback.FieldLobby: "⏳", callback.FieldKnocks: "🔔", callback.FieldLang: "🌐",
	callback.FieldHouse: "🤖",
}

var fieldNames = map[string]i18n.Key{
	callback.FieldStake: i18n.FieldStake, callback.FieldEntry: i18n.FieldEntry, callback.FieldBets: i18n.FieldBets,
	callback.FieldTurn: i18n.FieldTurn, callback.FieldLobby: i18n.FieldLobby, callback.FieldKnocks: i18n.FieldKnocks,
	callback.FieldLang: i18n.FieldLang, callback.FieldHouse: i18n.FieldHouse,
}

// presets are the values offered for each field besides the current one.
var presets = map[string][]int64{
	callback.FieldStake:  {5, 10, 25, 50, 100},
	callback.FieldEntry:  {50, 100, 200, 500, 1000},
	callback.FieldTurn:   {10, 30, 60, 90, 120},
	callback.FieldLobby:  {120, 300, 600, 1800, 3600},
	callback.FieldKnocks: {0, 1, 2, 3, 5},
}

// betPresets are the bet options the keyboard toggles besides the current
// ones: stake multiples on one row, bank shares on the next.
var betPresets = [][]game.BetOption{
	{{Kind: game.StakeTimes, N: 1}, {Kind: game.StakeTimes, N: 2}, {Kind: game.StakeTimes, N: 5}, {Kind: game.StakeTimes, N: 10}},
	{{Kind: game.BankShare, N: 4}, {Kind: game.BankShare, N: 3}, {Kind: game.BankShare, N: 2}, {Kind: game.BankShare, N: 1}},
}

// Settings draws the /settings message: the chat's settings, language and
// house setting, and a keyboard that sets each of them. The buttons of a
// field start with the field's icon, which explains it
// (callback.SettingInfo), followed by preset values, the current one
// marked ✓, in as many rows as a phone needs to show them whole (rows);
// values that pressing would refuse (setting.Press: they would break a
// limit given the other settings) are left out. Bet options are toggles,
// ✓ when on. Each button carries the settings' callback.Stamp.
func Settings(c setting.Chat) Message {
	k := settingsKeys{s: c.Game, lang: c.Lang, houseForbidden: c.HouseForbidden, stamp: c.Stamp()}
	var kb [][]Button
	for _, f := range callback.Fields() {
		switch f {
		case callback.FieldBets:
			kb = append(kb, k.betRows()...)
		case callback.FieldLang:
			kb = append(kb, k.langRows()...)
		case callback.FieldHouse:
			kb = append(kb, k.houseRows()...)
		default:
			kb = append(kb, k.numberRows(f)...)
		}
	}
	return Message{Text: settingsText(c), Keyboard: kb}
}

// SettingsReadOnly draws the /settings message as Settings does, without
// the buttons: for whoever may not change them.
func SettingsReadOnly(c setting.Chat) Message {
	return Message{Text: settingsText(c)}
}

// settingsText lists the settings, the house setting and the language.
func settingsText(c setting.Chat) string {
	s, lang := c.Game, c.Lang
	tr := func(key i18n.Key, args ...any) string { return i18n.T(lang, key, args...) }
	values := map[string]string{
		callback.FieldStake:  i18n.Number(s.Stake),
		callback.FieldEntry:  i18n.Number(s.EntryLimit),
		callback.FieldBets:   betList(s.BetOptions, lang),
		callback.FieldTurn:   i18n.Duration(lang, s.TurnTimeout),
		callback.FieldLobby:  i18n.Duration(lang, s.LobbyTimeout),
		callback.FieldKnocks: i18n.Number(int64(s.MaxKnocks)),
		callback.FieldLang:   i18n.NameInText(lang),
		callback.FieldHouse:  tr(houseLabel(c.HouseForbidden)),
	}
	lines := []string{bold(escape(tr(i18n.SettingsTitle)))}
	for _, f := range callback.Fields() {
		lines = append(lines, fieldIcons[f]+" "+escape(tr(fieldNames[f]))+": "+escape(values[f]))
	}
	lines = append(lines, "", escape(tr(i18n.SettingsFooter)))
	return strings.Join(lines, "\n")
}

// betList names bet options: "×1 · ×2 · ½ · bank".
func betList(opts []game.BetOption, lang i18n.Lang) string {
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = i18n.BetOption(lang, o)
	}
	return strings.Join(names, " · ")
}

// houseLabel is the label of a value of the house setting.
func houseLabel(forbidden bool) i18n.Key {
	if forbidden {
		return i18n.BtnHouseOff
	}
	return i18n.BtnHouseOn
}

// settingsKeys builds the settings keyboard.
type settingsKeys struct {
	s              game.Settings
	lang           i18n.Lang
	houseForbidden bool
	stamp          uint64
}

// info is the button that starts a field's row and explains the field.
func (k settingsKeys) info(field string) Button {
	return Button{Text: fieldIcons[field], Data: callback.Data{Action: callback.SettingInfo, Field: field}.String()}
}

// set is a button that sets field to value.
func (k settingsKeys) set(field, value, label string, current bool) Button {
	if current {
		label += " ✓"
	}
	return Button{Text: label, Data: callback.Data{Action: callback.Setting, Version: k.stamp, Field: field, Value: value}.String()}
}

// numberRows offers the presets of a numeric field and its current value.
func (k settingsKeys) numberRows(field string) [][]Button {
	cur, _ := strconv.ParseInt(callback.Value(field, k.s, string(k.lang)), 10, 64)
	vals := slices.Clone(presets[field])
	if !slices.Contains(vals, cur) {
		vals = append(vals, cur)
		slices.Sort(vals)
	}
	buttons := []Button{k.info(field)}
	for _, v := range vals {
		value := strconv.FormatInt(v, 10)
		if v != cur && !k.valid(field, value) {
			continue
		}
		buttons = append(buttons, k.set(field, value, k.label(field, v), v == cur))
	}
	return rows(buttons, maxRow)
}

// valid reports whether pressing the button that sets field to value would
// be accepted.
func (k settingsKeys) valid(field, value string) bool {
	d := callback.Data{Action: callback.Setting, Version: k.stamp, Field: field, Value: value}
	_, err := setting.Press(setting.Chat{Game: k.s, Lang: k.lang, HouseForbidden: k.houseForbidden}, d)
	return err == nil
}

// label shows a preset value of a numeric field.
func (k settingsKeys) label(field string, v int64) string {
	switch field {
	case callback.FieldTurn, callback.FieldLobby:
		return i18n.Duration(k.lang, time.Duration(v)*time.Second)
	}
	return i18n.Number(v)
}

// betRows offers every bet option to toggle: the presets and those on, in
// the editor's order (setting.SortBets).
func (k settingsKeys) betRows() [][]Button {
	var kb [][]Button
	for r, preset := range betPresets {
		opts := slices.Clone(preset)
		for _, o := range k.s.BetOptions {
			if o.Kind == preset[0].Kind && !slices.Contains(opts, o) {
				opts = append(opts, o)
			}
		}
		setting.SortBets(opts)
		var buttons []Button
		if r == 0 {
			buttons = append(buttons, k.info(callback.FieldBets))
		}
		for _, o := range opts {
			buttons = append(buttons, k.set(callback.FieldBets, callback.BetToken(o), i18n.BetOption(k.lang, o), slices.Contains(k.s.BetOptions, o)))
		}
		kb = append(kb, rows(buttons, maxRow)...)
	}
	return kb
}

// houseRows offers the house on and off.
func (k settingsKeys) houseRows() [][]Button {
	buttons := []Button{k.info(callback.FieldHouse)}
	for _, forbidden := range []bool{false, true} {
		buttons = append(buttons, k.set(callback.FieldHouse, callback.HouseValue(forbidden),
			i18n.T(k.lang, houseLabel(forbidden)), forbidden == k.houseForbidden))
	}
	return rows(buttons, maxRow)
}

// langRows offers the languages.
func (k settingsKeys) langRows() [][]Button {
	buttons := []Button{k.info(callback.FieldLang)}
	for _, l := range i18n.Langs() {
		buttons = append(buttons, k.set(callback.FieldLang, string(l), i18n.Name(l), l == k.lang))
	}
	return rows(buttons, maxRow)
}
