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
	// UK is Ukrainian (its ISO 639-1 code, which Telegram's language_code
	// and setMyCommands use; UA is the country's).
	UK Lang = "uk"
)

// Langs returns every language the bot speaks, the default first.
func Langs() []Lang { return []Lang{EN, RU, UK} }

// Parse reads a language code as an admin types it ("en", "RU", " uk ");
// it reports false for any other language.
func Parse(s string) (Lang, bool) {
	if l := Lang(strings.ToLower(strings.TrimSpace(s))); l.Valid() {
		return l, true
	}
	return EN, false
}

// FromTelegram returns the language for a Telegram user's language_code:
// Ukrainian for uk, Russian for ru and be, with their regional variants
// ("uk-UA", "ru_RU"), English for anything else.
func FromTelegram(languageCode string) Lang {
	code := strings.ToLower(strings.TrimSpace(languageCode))
	if i := strings.IndexAny(code, "-_"); i >= 0 {
		code = code[:i]
	}
	switch code {
	case "uk":
		return UK
	case "ru", "be":
		return RU
	}
	return EN
}

// String returns the language code.
func (l Lang) String() string { return string(l) }

// Valid reports whether the bot speaks l: whether it has a catalogue for
// it (a test holds the catalogues to Langs).
func (l Lang) Valid() bool {
	_, ok := catalogues[l]
	return ok
}
