package i18n

import "strings"

// For returns the language the bot speaks in a chat whose settings name
// the language chat ("" while the chat has none) to a user whose Telegram
// language_code is code ("" for nobody): the chat's once it has one, else
// the user's (FromTelegram), which is also what the chat gets when the
// user opens its first table. It is the one place where the bot decides
// in which language it speaks.
func For(chat, code string) Lang {
	if l := Lang(chat); l.Valid() {
		return l
	}
	return FromTelegram(code)
}

// OfChat returns the language of a chat whose settings name chat: For
// nobody, the default while the chat has none.
func OfChat(chat string) Lang { return For(chat, "") }

// Spoken returns the language a Telegram user's language_code names, when
// the bot speaks it ("uk-UA" is Ukrainian, "en-GB" English); false for any
// other, or none.
func Spoken(code string) (Lang, bool) {
	code = strings.ToLower(strings.TrimSpace(code))
	if i := strings.IndexAny(code, "-_"); i >= 0 {
		code = code[:i]
	}
	l := Lang(code)
	return l, l.Valid()
}

// ForPresser returns the language of an answer only its presser sees (a
// toast, an alert to a button press), in a chat whose settings name the
// language chat: the presser's own (their Telegram language_code), when
// the bot speaks it, else For(chat, code). What the whole chat sees keeps
// the chat's language.
func ForPresser(chat, code string) Lang {
	if l, ok := Spoken(code); ok {
		return l
	}
	return For(chat, code)
}
