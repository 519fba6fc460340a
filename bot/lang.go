package bot

import (
	"context"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/storage"
)

// langOf returns the language the bot speaks in a chat with settings s to
// a user whose Telegram language_code is code ("" for nobody): the chat's
// once it has one, else the user's (i18n.FromTelegram), which is also what
// the chat gets when the user opens its first table (see request).
func langOf(s storage.ChatSettings, code string) i18n.Lang {
	if l := i18n.Lang(s.Language); l.Valid() {
		return l
	}
	return i18n.FromTelegram(code)
}

// lang returns the language of a chat's settings: langOf nobody, English
// while the chat has none.
func lang(s storage.ChatSettings) i18n.Lang { return langOf(s, "") }

// chatLang returns the language to answer from in: langOf the chat's
// stored settings, or from's alone when they cannot be read.
func (b *Bot) chatLang(ctx context.Context, chat int64, from *tgbotapi.User) i18n.Lang {
	s, err := b.store.Settings(ctx, chat)
	if err != nil {
		s = storage.ChatSettings{}
	}
	return langOf(s, user(from).Language)
}
