package input

import (
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Profile returns what the store keeps of a Telegram user (refreshed on
// each interaction); the zero User for nobody.
func Profile(from *tgbotapi.User) storage.User {
	if from == nil {
		return storage.User{}
	}
	return storage.User{ID: game.UserID(from.ID), Name: from.FirstName, Username: from.UserName, Language: from.LanguageCode}
}
