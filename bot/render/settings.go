package render

import (
	"slices"
	"strconv"
	"strings"
	"time"
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

// fieldIcons mark each setting in the list and its choices.
var fieldIcons = map[string]string{
	callback.FieldStake: "💰", callback.FieldEntry: "🚪", callback.FieldBets: "🎲",
	callback.FieldTurn: "⏱", callback.FieldLobby: "⏳", callback.FieldKnocks: "🔔", callback.FieldLang: "🌐",
	callback.FieldHouse: "🤖",
}

// fieldNames name each setting.
var fieldNames = map[string]i18n.Key{
	callback.FieldStake: i18n.FieldStake, callback.FieldEntry: i18n.FieldEntry, callback.FieldBets: i18n.FieldBets,
	callback.FieldTurn: i18n.FieldTurn, callback.FieldLobby: i18n.FieldLobby, callback.FieldKnocks: i18n.FieldKnocks,
	callback.FieldLang: i18n.FieldLang, callback.FieldHouse: i18n.FieldHouse,
}

// fieldInfo explains each setting.
var fieldInfo = map[string]i18n.Key{
	callback.FieldStake: i18n.PopInfoStake, callback.FieldEntry: i18n.PopInfoEntry, callback.FieldBets: i18n.PopInfoBets,
	callback.FieldTurn: i18n.PopInfoTurn, callback.FieldLobby: i18n.PopInfoLobby, callback.FieldKnocks: i18n.PopInfoKnocks,
	callback.FieldLang: i18n.PopInfoLang, callback.FieldHouse: i18n.PopInfoHouse,
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

// The settings panel (/settings) has two levels. An admin's starts with
// the list (Settings): the settings as buttons, one a row, each showing its
// value ("💰 Stake: 10"); pressing one shows its choices (SettingsField)
// with ← Back to the list. Both fit a phone's screen with their text in
// view, and every button carries the settings' callback.Stamp, so that a
// press on a panel drawn for older settings is told so. Everyone else
// sees the list in the text, without buttons (SettingsReadOnly).

// Settings draws an admin's settings panel showing the list: a line on
// what to do, and one button per setting (callback.Fields), labelled with
// its icon, name and value, that opens its choices (callback.SettingOpen).
// A label too long for a phone's row is shortened (listLabel).
func Settings(c setting.Chat) message.Message {
	stamp := c.Stamp()
	var kb [][]message.Button
	for _, f := range callback.Fields() {
		kb = append(kb, []message.Button{{Text: listLabel(c, f),
			Data: callback.Data{Action: callback.SettingOpen, Version: stamp, Field: f}.String()}})
	}
	text := bold(escape(i18n.T(c.Lang, i18n.SettingsTitle))) + "\n" + escape(i18n.T(c.Lang, i18n.SettingsChoose))
	return message.Message{Text: text, Keyboard: kb}
}

// SettingsField draws an admin's settings panel showing the choices of
// field: the setting and its value, what it means, and buttons that set
// it (callback.Setting): its presets, the current value marked ✓, in as
// many rows as a phone needs to show them whole (rows); bet options are
// toggles, ✓ when on. Values that pressing would refuse (setting.Press:
// they would break a limit given the other settings) are left out. Under
// them, ← Back to the list (callback.SettingBack). A field that is none of
// callback.Fields draws the list.
func SettingsField(c setting.Chat, field string) message.Message {
	if !slices.Contains(callback.Fields(), field) {
		return Settings(c)
	}
	k := settingsKeys{c: c, stamp: c.Stamp()}
	var kb [][]message.Button
	switch field {
	case callback.FieldBets:
		kb = k.betRows()
	case callback.FieldLang:
		kb = k.langRows()
	case callback.FieldHouse:
		kb = k.houseRows()
	default:
		kb = k.numberRows(field)
	}
	kb = append(kb, []message.Button{{Text: i18n.T(c.Lang, i18n.BtnSettingsBack),
		Data: callback.Data{Action: callback.SettingBack, Version: k.stamp}.String()}})
	lines := []string{bold(escape(fieldIcons[field] + " " + fieldLine(c, c.Lang, field))), escape(i18n.T(c.Lang, fieldInfo[field]))}
	if field == callback.FieldBets {
		lines = append(lines, escape(i18n.T(c.Lang, i18n.SettingsBetsToggle)))
	}
	return message.Message{Text: strings.Join(lines, "\n"), Keyboard: kb}
}

// SettingsReadOnly draws the settings panel for whoever may not change
// the settings: the list in the text, without buttons.
func SettingsReadOnly(c setting.Chat) message.Message {
	lines := []string{bold(escape(i18n.T(c.Lang, i18n.SettingsTitle)))}
	for _, f := range callback.Fields() {
		lines = append(lines, escape(fieldIcons[f]+" "+fieldLine(c, c.Lang, f)))
	}
	lines = append(lines, "", escape(i18n.T(c.Lang, i18n.SettingsFooter)))
	return message.Message{Text: strings.Join(lines, "\n")}
}

// SettingSaved is the answer, in lang, to the press that changed field
// to what c holds: saved, and the setting as the list shows it.
func SettingSaved(lang i18n.Lang, c setting.Chat, field string) string {
	return i18n.T(lang, i18n.PopSavedSetting, fieldLine(c, lang, field))
}

// SettingInfo explains field in lang after its name ("Stake: the chips
// the banker puts into the bank when a game starts."): the answer to the
// icon buttons of the panels drawn before the list (callback.SettingInfo).
func SettingInfo(lang i18n.Lang, field string) string {
	about := []rune(i18n.T(lang, fieldInfo[field]))
	if len(about) > 0 {
		about[0] = unicode.ToLower(about[0])
	}
	return i18n.T(lang, fieldNames[field]) + ": " + string(about)
}

// fieldLine is a setting of c and its value, in lang, as plain text:
// "Stake: 10".
func fieldLine(c setting.Chat, lang i18n.Lang, field string) string {
	return i18n.T(lang, fieldNames[field]) + ": " + fieldValue(c, lang, field)
}

// fieldValue is the value of a setting of c in lang, as plain text.
func fieldValue(c setting.Chat, lang i18n.Lang, field string) string {
	s := c.Game
	switch field {
	case callback.FieldStake:
		return i18n.Number(s.Stake)
	case callback.FieldEntry:
		return i18n.Number(s.EntryLimit)
	case callback.FieldBets:
		return betList(s.BetOptions, lang)
	case callback.FieldTurn:
		return i18n.Duration(lang, s.TurnTimeout)
	case callback.FieldLobby:
		return i18n.Duration(lang, s.LobbyTimeout)
	case callback.FieldKnocks:
		return i18n.Number(int64(s.MaxKnocks))
	case callback.FieldLang:
		return i18n.NameInText(c.Lang)
	case callback.FieldHouse:
		return i18n.T(lang, houseLabel(c.HouseForbidden))
	}
	return ""
}

// listLabel labels the button of field in the list: its icon, name and
// value, "💰 Stake: 10". The label of the bet options, the one that can
// be too long for a phone's row, keeps as many options as fit, then "…":
// their choices show them all.
func listLabel(c setting.Chat, field string) string {
	label := fieldIcons[field] + " " + fieldLine(c, c.Lang, field)
	if field != callback.FieldBets {
		return label
	}
	opts := c.Game.BetOptions
	for n := len(opts) - 1; n > 0 && !fitsRow(label); n-- {
		label = fieldIcons[field] + " " + i18n.T(c.Lang, i18n.FieldBets) + ": " + betList(opts[:n], c.Lang) + " · …"
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

// houseLabel is the label of a value of the house setting.
func houseLabel(forbidden bool) i18n.Key {
	if forbidden {
		return i18n.BtnHouseOff
	}
	return i18n.BtnHouseOn
}

// settingsKeys builds the choices of a setting.
type settingsKeys struct {
	c     setting.Chat
	stamp uint64
}

// set is a button that sets field to value.
func (k settingsKeys) set(field, value, label string, current bool) message.Button {
	if current {
		label += " ✓"
	}
	return message.Button{Text: label, Data: callback.Data{Action: callback.Setting, Version: k.stamp, Field: field, Value: value}.String()}
}

// numberRows offers the presets of a numeric field and its current value.
func (k settingsKeys) numberRows(field string) [][]message.Button {
	cur, _ := strconv.ParseInt(callback.Value(field, k.c.Game, string(k.c.Lang)), 10, 64)
	vals := slices.Clone(presets[field])
	if !slices.Contains(vals, cur) {
		vals = append(vals, cur)
		slices.Sort(vals)
	}
	var buttons []message.Button
	for _, v := range vals {
		value := strconv.FormatInt(v, 10)
		if v != cur && !k.valid(field, value) {
			continue
		}
		buttons = append(buttons, k.set(field, value, k.label(field, v), v == cur))
	}
	return rows(buttons, choicesRow)
}

// valid reports whether pressing the button that sets field to value would
// be accepted.
func (k settingsKeys) valid(field, value string) bool {
	d := callback.Data{Action: callback.Setting, Version: k.stamp, Field: field, Value: value}
	_, err := setting.Press(k.c, d)
	return err == nil
}

// label shows a preset value of a numeric field.
func (k settingsKeys) label(field string, v int64) string {
	switch field {
	case callback.FieldTurn, callback.FieldLobby:
		return i18n.Duration(k.c.Lang, time.Duration(v)*time.Second)
	}
	return i18n.Number(v)
}

// betRows offers every bet option to toggle: the presets and those on, in
// the editor's order (setting.SortBets), stake multiples and bank shares
// in rows of their own.
func (k settingsKeys) betRows() [][]message.Button {
	var kb [][]message.Button
	on := k.c.Game.BetOptions
	for _, preset := range betPresets {
		opts := slices.Clone(preset)
		for _, o := range on {
			if o.Kind == preset[0].Kind && !slices.Contains(opts, o) {
				opts = append(opts, o)
			}
		}
		setting.SortBets(opts)
		var buttons []message.Button
		for _, o := range opts {
			buttons = append(buttons, k.set(callback.FieldBets, callback.BetToken(o), i18n.BetOption(k.c.Lang, o), slices.Contains(on, o)))
		}
		kb = append(kb, rows(buttons, choicesRow)...)
	}
	return kb
}

// houseRows offers the house on and off.
func (k settingsKeys) houseRows() [][]message.Button {
	var buttons []message.Button
	for _, forbidden := range []bool{false, true} {
		buttons = append(buttons, k.set(callback.FieldHouse, callback.HouseValue(forbidden),
			i18n.T(k.c.Lang, houseLabel(forbidden)), forbidden == k.c.HouseForbidden))
	}
	return rows(buttons, choicesRow)
}

// langRows offers the languages.
func (k settingsKeys) langRows() [][]message.Button {
	var buttons []message.Button
	for _, l := range i18n.Langs() {
		buttons = append(buttons, k.set(callback.FieldLang, string(l), i18n.Name(l), l == k.c.Lang))
	}
	return rows(buttons, choicesRow)
}
