package i18n

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
