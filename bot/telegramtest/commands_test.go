package telegramtest_test

import (
	"net/url"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func TestSetMyCommandsPerScopeAndLanguage(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	english := []tgbotapi.BotCommand{{Command: "newgame", Description: "Start a game"}, {Command: "rules", Description: "How to play"}}
	russian := []tgbotapi.BotCommand{{Command: "newgame", Description: "Новая игра"}, {Command: "rules", Description: "Правила"}}
	admins := []tgbotapi.BotCommand{{Command: "stop", Description: "Stop the game"}}
	groupScope := tgbotapi.NewBotCommandScopeAllGroupChats()
	chatAdmins := tgbotapi.NewBotCommandScopeChatAdministrators(chat.ID)

	for _, cfg := range []tgbotapi.SetMyCommandsConfig{
		tgbotapi.NewSetMyCommands(english...),
		tgbotapi.NewSetMyCommandsWithScopeAndLanguage(groupScope, "ru", russian...),
		tgbotapi.NewSetMyCommandsWithScope(chatAdmins, admins...),
	} {
		_, err := api.Request(cfg)
		require.NoError(t, err)
	}

	toLocal := func(in []tgbotapi.BotCommand) []telegramtest.BotCommand {
		out := make([]telegramtest.BotCommand, len(in))
		for i, c := range in {
			out[i] = telegramtest.BotCommand{Command: c.Command, Description: c.Description}
		}
		return out
	}
	tests := []struct {
		name  string
		scope telegramtest.CommandScope
		lang  string
		want  []tgbotapi.BotCommand
	}{
		{"default scope, all languages", telegramtest.CommandScope{}, "", english},
		{"group chats in Russian", telegramtest.CommandScope{Type: "all_group_chats"}, "ru", russian},
		{"no fallback from Russian to default", telegramtest.CommandScope{}, "ru", nil},
		{"administrators of one chat", telegramtest.CommandScope{Type: "chat_administrators", ChatID: chat.ID}, "", admins},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == nil {
				assert.Empty(t, srv.Commands(tt.scope, tt.lang))
			} else {
				assert.Equal(t, toLocal(tt.want), srv.Commands(tt.scope, tt.lang))
			}
		})
	}
	assert.Len(t, srv.AllCommands(), 3)
}

func TestSetMyCommandsValidation(t *testing.T) {
	srv := telegramtest.StartTest(t)
	tests := []struct {
		name     string
		form     url.Values
		wantDesc string
	}{
		{"missing commands", url.Values{}, `Bad Request: parameter "commands" is required`},
		{"not JSON", url.Values{"commands": {"[{"}}, "Bad Request: can't parse commands JSON object"},
		{"upper case", url.Values{"commands": {`[{"command":"NewGame","description":"x"}]`}}, "Bad Request: BOT_COMMAND_INVALID"},
		{"too long", url.Values{"commands": {`[{"command":"` + strings.Repeat("a", 33) + `","description":"x"}]`}}, "Bad Request: BOT_COMMAND_INVALID"},
		{"empty description", url.Values{"commands": {`[{"command":"go","description":""}]`}}, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID"},
		{"missing field", url.Values{"commands": {`[{"command":"go"}]`}}, `Bad Request: can't parse BotCommand: Can't find field "description"`},
		{"unknown scope", url.Values{"commands": {`[{"command":"go","description":"x"}]`}, "scope": {`{"type":"everyone"}`}}, "Bad Request: unsupported bot command scope type specified"},
		{"scope chat not found", url.Values{"commands": {`[{"command":"go","description":"x"}]`}, "scope": {`{"type":"chat","chat_id":-42}`}}, "Bad Request: chat not found"},
		{"bad language", url.Values{"commands": {`[{"command":"go","description":"x"}]`}, "language_code": {"english"}}, "Bad Request: invalid language code specified"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := call(t, srv, "setMyCommands", tt.form)
			assert.False(t, resp.OK)
			assert.Equal(t, 400, resp.Status)
			assert.Equal(t, tt.wantDesc, resp.Description)
		})
	}
	assert.Empty(t, srv.AllCommands())
}
