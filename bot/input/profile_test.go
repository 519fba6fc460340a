package input

import (
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/storage"
)

func TestProfile(t *testing.T) {
	tests := []struct {
		name string
		from *tgbotapi.User
		want storage.User
	}{
		{"nobody", nil, storage.User{}},
		{"a user", &tgbotapi.User{ID: 7, FirstName: "Alice", UserName: "alice", LanguageCode: "uk"},
			storage.User{ID: 7, Name: "Alice", Username: "alice", Language: "uk"}},
		{"no username nor language", &tgbotapi.User{ID: 8, FirstName: "Bob"}, storage.User{ID: 8, Name: "Bob"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, Profile(tt.from)) })
	}
}
