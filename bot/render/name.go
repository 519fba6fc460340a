package render

import (
	"strings"
	"unicode"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// ellipsis ends a shortened name.
const ellipsis = "…"

// unknownName stands for a name with nothing visible in it.
const unknownName = "?"

// zeroWidthJoiner joins emoji into one ("👩‍💻"), and hides in text.
const zeroWidthJoiner = '\u200D'

// Name returns a user's name as the bot shows it, anywhere: the characters
// that reorder or hide what follows are left out, so that nobody can
// reverse the rest of a line, pass for someone else or go blank. Those are
// every format character (Unicode category Cf: the bidi embeddings,
// overrides and isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E,
// U+200F and U+061C, the zero-width U+200B, U+200C, U+2060 and U+FEFF, the
// invisible operators, tags ...), bar a zero-width joiner between two
// emoji, and the Hangul fillers, letters that show as nothing. Controls
// and line breaks become spaces. A name with no letter, digit, punctuation
// or symbol left is unknownName. The result is plain text: escape it for
// HTML (NameHTML).
func Name(name string) string {
	runes := []rune(name)
	var b strings.Builder
	visible := false
	for i, r := range runes {
		switch {
		case r == zeroWidthJoiner && i > 0 && i+1 < len(runes) && joinsEmoji(runes[i-1], runes[i+1]):
			b.WriteRune(r)
		case unicode.Is(unicode.Cf, r) || hangulFiller(r):
		case unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
			visible = visible || shows(r)
		}
	}
	if !visible {
		return unknownName
	}
	return b.String()
}

// PlayerName returns the name of a player as the bot shows it in plain
// text: the house's in lang, else Name(name).
func PlayerName(user game.UserID, name string, lang i18n.Lang) string {
	if user == house.ID {
		return i18n.T(lang, i18n.HouseName)
	}
	return Name(name)
}

// NameHTML is Name escaped for Telegram's HTML.
func NameHTML(name string) string { return escape(Name(name)) }

// joinsEmoji reports whether a zero-width joiner between before and after
// is part of an emoji sequence: after is an emoji, before an emoji, its
// skin tone (a modifier symbol) or its emoji presentation selector.
func joinsEmoji(before, after rune) bool {
	return unicode.Is(unicode.So, after) && (unicode.In(before, unicode.So, unicode.Sk) || before == '\uFE0F')
}

// hangulFiller reports whether r is one of the Hangul fillers: letters in
// Unicode's eyes that show nothing.
func hangulFiller(r rune) bool {
	return r == '\u115F' || r == '\u1160' || r == '\u3164' || r == '\uFFA0'
}

// shows reports whether r shows something on its own: a letter, digit,
// punctuation or symbol other than the blank braille pattern.
func shows(r rune) bool {
	return r != '\u2800' && unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S)
}

// namer turns players' names into HTML, shortened to at most max UTF-16
// code units when max > 0.
type namer struct{ max int }

// html returns the name escaped and, if need be, shortened.
func (n namer) html(name string) string { return escape(n.plain(name)) }

// plain returns the name as Name shows it and, if need be, shortened.
func (n namer) plain(name string) string {
	name = Name(name)
	if n.max <= 0 {
		return name
	}
	return truncate(name, n.max)
}
