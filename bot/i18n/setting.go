package i18n

import (
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// The texts of a setting (a row of game.Fields) have keys made from the
// setting's key by one rule, so that a new setting needs its texts in the
// catalogues and nothing else here:
//
//	setting.KEY        its name, on the panel: "Stake"
//	setting.KEY.about  what it means, a sentence of its own
//	setting.KEY.range  a number or a duration: the problem of a value out
//	                   of range, given the smallest and the largest (the
//	                   largest only when the setting has an AtLeast,
//	                   which is its smallest)
//	setting.KEY.below  a number that may not be below another
//	                   (game.Field.AtLeast): the problem of one that is,
//	                   given its value and the other's
//	setting.KEY.on     a toggle: on, on a button and after the name
//	setting.KEY.off    a toggle: off
//
// Every one is plain text. SettingKeys lists those a setting needs; a
// test fails when a catalogue lacks one.

// SettingName is the key of the name of the setting key.
func SettingName(key string) Key { return Key("setting." + key) }

// SettingAbout is the key of what the setting key means.
func SettingAbout(key string) Key { return Key("setting." + key + ".about") }

// SettingRange is the key of the problem of a value of the setting key
// out of its range: the smallest and the largest, or the largest alone
// for a setting that may not be below another.
func SettingRange(key string) Key { return Key("setting." + key + ".range") }

// SettingBelow is the key of the problem of a value of the setting key
// below the setting it may not be below: the value, the other's.
func SettingBelow(key string) Key { return Key("setting." + key + ".below") }

// SettingOn is the key of the toggle key's on.
func SettingOn(key string) Key { return Key("setting." + key + ".on") }

// SettingOff is the key of the toggle key's off.
func SettingOff(key string) Key { return Key("setting." + key + ".off") }

// SettingKeys returns the keys of every text the setting f needs.
func SettingKeys(f game.Field) []Key {
	keys := []Key{SettingName(f.Key), SettingAbout(f.Key)}
	switch f.Kind {
	case game.FieldNumber, game.FieldDuration:
		keys = append(keys, SettingRange(f.Key))
		if f.AtLeast != "" {
			keys = append(keys, SettingBelow(f.Key))
		}
	case game.FieldToggle:
		keys = append(keys, SettingOn(f.Key), SettingOff(f.Key))
	}
	return keys
}

// SettingValue writes a number or a duration of the setting f in lang:
// "1 000", "60 s".
func SettingValue(lang Lang, f game.Field, n int64) string {
	if f.Kind == game.FieldDuration {
		return Duration(lang, time.Duration(n))
	}
	return Number(n)
}
