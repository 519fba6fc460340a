// Package i18n holds every user-facing string of the bot, one catalogue per
// language, and the helpers that format numbers, plurals, durations and cards
// the way each language writes them.
package i18n

import "strings"

// Lang is a language the bot speaks.
type Lang string

// The languages the bot speaks.
const (
	// EN is English, the default.
	EN Lang = "en"
	// RU is Russian.
	RU Lang = "ru"
)

// Langs returns every language the bot speaks, the default first.
func Langs() []Lang { return []Lang{EN, RU} }

// Parse reads a language code as an admin types it ("en", "RU", " ru ");
// it reports false for any other language.
func Parse(s string) (Lang, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "en":
		return EN, true
	case "ru":
		return RU, true
	}
	return EN, false
}

// FromTelegram returns the language for a Telegram user's language_code:
// Russian for ru, uk and be and their regional variants ("ru-RU", "uk_UA"),
// English for anything else.
func FromTelegram(languageCode string) Lang {
	code := strings.ToLower(strings.TrimSpace(languageCode))
	if i := strings.IndexAny(code, "-_"); i >= 0 {
		code = code[:i]
	}
	switch code {
	case "ru", "uk", "be":
		return RU
	}
	return EN
}

// String returns the language code.
func (l Lang) String() string { return string(l) }

// Valid reports whether the bot speaks l.
func (l Lang) Valid() bool { return l == EN || l == RU }
