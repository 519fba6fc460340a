package telegramtest_test

import (
	"net/url"
	"strconv"
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

// TestEphemeralCommandsAndGetMyCommands: BotCommand.is_ephemeral (Bot API
// 10.2) is kept and answered by getMyCommands, which answers exactly the
// list of the scope and language asked (an empty one when none is set);
// an is_ephemeral that is no Boolean is refused.
func TestEphemeralCommandsAndGetMyCommands(t *testing.T) {
	srv := telegramtest.StartTest(t)
	declareCommands(t, srv, ephemeralCommands)
	resp := call(t, srv, "getMyCommands", url.Values{})
	require.True(t, resp.OK, resp.Description)
	assert.JSONEq(t, `[{"command":"stats","description":"Your stats","is_ephemeral":true},{"command":"newgame","description":"Open a table"}]`, string(resp.Result))
	resp = call(t, srv, "getMyCommands", url.Values{"language_code": {"ru"}})
	require.True(t, resp.OK, resp.Description)
	assert.JSONEq(t, `[]`, string(resp.Result))
	assert.Equal(t, []telegramtest.BotCommand{{Command: "stats", Description: "Your stats", IsEphemeral: true},
		{Command: "newgame", Description: "Open a table"}}, srv.Commands(telegramtest.CommandScope{}, ""))

	resp = call(t, srv, "setMyCommands", url.Values{"commands": {`[{"command":"stats","description":"x","is_ephemeral":"yes"}]`}})
	assert.Equal(t, `Bad Request: can't parse BotCommand: Field "is_ephemeral" must be of type Boolean`, resp.Description)
}

// TestCommandsFor: the menu a user sees is the first list set of the
// scopes Telegram tries in order, each in the user's language first
// (Bot API docs, "Determining list of commands").
func TestCommandsFor(t *testing.T) {
	srv := telegramtest.StartTest(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice", LanguageCode: "en"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob", LanguageCode: "ru"})
	carol := srv.AddUser(telegramtest.User{FirstName: "Carol", LanguageCode: "pt-br"})
	group := srv.NewGroup("Table", alice, bob, carol) // Alice creates it: an administrator
	other := srv.NewGroup("Other", bob, carol)
	private := srv.PrivateChat(carol)
	set := func(scope, lang, command string) {
		form := url.Values{"commands": {`[{"command":"` + command + `","description":"x"}]`}}
		if scope != "" {
			form.Set("scope", scope)
		}
		if lang != "" {
			form.Set("language_code", lang)
		}
		resp := call(t, srv, "setMyCommands", form)
		require.True(t, resp.OK, resp.Description)
	}
	set("", "", "default")
	set("", "pt", "default_pt")
	set(`{"type":"all_group_chats"}`, "ru", "groups_ru")
	set(`{"type":"all_chat_administrators"}`, "", "admins")
	set(`{"type":"chat_member","chat_id":`+strconv.FormatInt(other.ID, 10)+`,"user_id":`+strconv.FormatInt(carol.ID, 10)+`}`, "", "carol_there")
	tests := []struct {
		name         string
		chat, userID int64
		want         string
	}{
		{"an administrator", group.ID, alice.ID, "admins"},
		{"a member in their language", group.ID, bob.ID, "groups_ru"},
		{"the default in the member's language", group.ID, carol.ID, "default_pt"},
		{"one member of one chat", other.ID, carol.ID, "carol_there"},
		{"a private chat", private.ID, carol.ID, "default_pt"},
		{"a private chat, another language", srv.PrivateChat(bob).ID, bob.ID, "default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := srv.CommandsFor(tt.chat, tt.userID)
			require.Len(t, got, 1)
			assert.Equal(t, tt.want, got[0].Command)
		})
	}
}
