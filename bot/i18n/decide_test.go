package i18n_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/i18n"
)

func TestLanguageDecisions(t *testing.T) {
	tests := []struct {
		name, chat, code  string
		chatLang, presser i18n.Lang
	}{
		{"a chat with no language, an English user", "", "en", i18n.EN, i18n.EN},
		{"a chat with no language, a Ukrainian user", "", "uk-UA", i18n.UK, i18n.UK},
		{"a chat with no language, a Belarusian user: Russian", "", "be", i18n.RU, i18n.RU},
		{"a Russian chat, an English user: the toast in English", "ru", "en-US", i18n.RU, i18n.EN},
		{"a Russian chat, a Ukrainian user", "ru", "uk", i18n.RU, i18n.UK},
		{"an English chat, a German user: the chat's", "en", "de", i18n.EN, i18n.EN},
		{"a Ukrainian chat, a Belarusian user: the chat's", "uk", "be", i18n.UK, i18n.UK},
		{"a Russian chat, no language code", "ru", "", i18n.RU, i18n.RU},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.chatLang, i18n.For(tt.chat, tt.code))
			assert.Equal(t, tt.presser, i18n.ForPresser(tt.chat, tt.code))
		})
	}
}
