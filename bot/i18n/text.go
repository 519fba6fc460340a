package i18n

import "fmt"

// catalogues holds the catalogue of each language.
var catalogues = map[Lang]map[Key]string{EN: en, RU: ru, UK: uk}

// T returns the string key in lang, with args put into its placeholders. An
// unknown language falls back to English, and an unknown key (a bug the tests
// catch) to the key itself.
func T(lang Lang, key Key, args ...any) string {
	s, ok := catalogues[lang][key]
	if !ok {
		if s, ok = en[key]; !ok {
			return string(key)
		}
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// nameKeys are the keys of the languages' names.
var nameKeys = map[Lang]Key{EN: LangNameEN, RU: LangNameRU, UK: LangNameUK}

// Name returns the name of the language l as its speakers write it on its
// own, on a button: "English", "Русский", "Українська". An unknown
// language is named as English.
func Name(l Lang) string {
	k, ok := nameKeys[l]
	if !ok {
		k = LangNameEN
	}
	return T(l, k)
}

// NameInText returns the name of the language l as its speakers write it
// within a sentence: "English", "русский", "українська" (Russian and
// Ukrainian write the names of languages in lowercase).
func NameInText(l Lang) string { return T(l, LangNameInText) }
