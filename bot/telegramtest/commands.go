package telegramtest

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Command list limits, as BotFather enforces them.
const (
	maxCommands           = 100
	maxCommandLength      = 32
	maxCommandDescription = 256
)

// commandKey identifies one command list: a scope and a language.
type commandKey struct {
	scope string
	chat  int64
	user  int64
	lang  string
}

func keyOf(scope CommandScope, lang string) commandKey {
	if scope.Type == "" {
		scope.Type = "default"
	}
	return commandKey{scope: scope.Type, chat: scope.ChatID, user: scope.UserID, lang: lang}
}

// scopeArgLocked reads the scope and language_code arguments.
func (s *Server) scopeArgLocked(p params) (CommandScope, string, *apiError) {
	scope := CommandScope{Type: "default"}
	if raw, ok := p.jsonArg("scope"); ok {
		var in struct {
			Type   string          `json:"type"`
			ChatID json.RawMessage `json:"chat_id"`
			UserID int64           `json:"user_id"`
		}
		if err := json.Unmarshal([]byte(raw), &in); err != nil {
			return scope, "", badRequest("can't parse BotCommandScope JSON object")
		}
		scope.Type = in.Type
		switch in.Type {
		case "default", "all_private_chats", "all_group_chats", "all_chat_administrators":
		case "chat", "chat_administrators", "chat_member":
			c, apiErr := s.chatRefLocked(in.ChatID)
			if apiErr != nil {
				return scope, "", apiErr
			}
			scope.ChatID = c.chat.ID
			if in.Type == "chat_member" {
				if _, ok := s.w.users[in.UserID]; !ok || in.UserID <= 0 {
					return scope, "", badRequest("invalid user_id specified")
				}
				scope.UserID = in.UserID
			}
		default:
			return scope, "", badRequest("unsupported bot command scope type specified")
		}
	}
	lang := p.str("language_code")
	if lang != "" && (len(lang) != 2 || strings.ToLower(lang) != lang || !isASCIIAlnum(lang[0]) || !isASCIIAlnum(lang[1])) {
		return scope, "", badRequest("invalid language code specified")
	}
	return scope, lang, nil
}

// chatRefLocked resolves a chat_id given inside a JSON object (a number or
// a string; see chatArgLocked).
func (s *Server) chatRefLocked(raw json.RawMessage) (*chatState, *apiError) {
	var ref string
	if err := json.Unmarshal(raw, &ref); err != nil {
		ref = string(raw)
	}
	if ref == "" || ref == "null" {
		return nil, errChatIDEmpty
	}
	var c *chatState
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		c = s.w.chats[id]
	}
	if c == nil {
		return nil, errChatNotFound
	}
	if c.migratedTo != 0 {
		return nil, migratedError(c.migratedTo)
	}
	return c, nil
}

func parseCommands(raw string) ([]BotCommand, *apiError) {
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &items); err != nil {
		var anything any
		if json.Unmarshal([]byte(raw), &anything) == nil {
			return nil, badRequest("expected an Array of BotCommand")
		}
		return nil, badRequest("can't parse commands JSON object")
	}
	if len(items) > maxCommands {
		return nil, badRequest("BOT_COMMANDS_TOO_MUCH")
	}
	out := make([]BotCommand, 0, len(items))
	for _, item := range items {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(item, &fields); err != nil || fields == nil {
			return nil, badRequest("can't parse BotCommand: BotCommand must be an Object")
		}
		var cmd BotCommand
		for name, dst := range map[string]*string{"command": &cmd.Command, "description": &cmd.Description} {
			v, ok := fields[name]
			if !ok {
				return nil, badRequest(fmt.Sprintf("can't parse BotCommand: Can't find field %q", name))
			}
			if err := json.Unmarshal(v, dst); err != nil {
				return nil, badRequest(fmt.Sprintf("can't parse BotCommand: Field %q must be of type String", name))
			}
		}
		// Bot API 10.2: is_ephemeral, an optional Boolean, read as td's
		// JsonObject getters read one (td/utils/JsonBuilder.cpp).
		if v, ok := fields["is_ephemeral"]; ok {
			if err := json.Unmarshal(v, &cmd.IsEphemeral); err != nil {
				return nil, badRequest(`can't parse BotCommand: Field "is_ephemeral" must be of type Boolean`)
			}
		}
		if !validCommand(cmd.Command) {
			return nil, badRequest("BOT_COMMAND_INVALID")
		}
		if n := utf8.RuneCountInString(strings.TrimSpace(cmd.Description)); n == 0 || n > maxCommandDescription {
			return nil, badRequest("BOT_COMMAND_DESCRIPTION_INVALID")
		}
		out = append(out, cmd)
	}
	return out, nil
}

func validCommand(c string) bool {
	if len(c) == 0 || len(c) > maxCommandLength {
		return false
	}
	for i := 0; i < len(c); i++ {
		ch := c[i]
		if !(('a' <= ch && ch <= 'z') || ('0' <= ch && ch <= '9') || ch == '_') {
			return false
		}
	}
	return true
}

func (s *Server) setMyCommands(_ context.Context, p params) (any, *apiError) {
	raw, ok := p.jsonArg("commands")
	if !ok {
		return nil, badRequest("parameter \"commands\" is required")
	}
	cmds, apiErr := parseCommands(raw)
	if apiErr != nil {
		return nil, apiErr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, lang, apiErr := s.scopeArgLocked(p)
	if apiErr != nil {
		return nil, apiErr
	}
	key := keyOf(scope, lang)
	if len(cmds) == 0 {
		delete(s.commands, key)
	} else {
		s.commands[key] = CommandSet{Scope: scope, LanguageCode: lang, Commands: cmds}
	}
	s.emitLocked(Event{Kind: EventCommandsChanged, ChatID: scope.ChatID})
	return true, nil
}

// getMyCommands answers the list set for exactly the scope and language
// asked, with no fallback, and an empty list when none is set (Bot API
// docs: "If commands aren't set, an empty list is returned").
func (s *Server) getMyCommands(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, lang, apiErr := s.scopeArgLocked(p)
	if apiErr != nil {
		return nil, apiErr
	}
	return append([]BotCommand{}, s.commands[keyOf(scope, lang)].Commands...), nil
}

// CommandsFor returns the command menu a user sees in a chat, as Telegram
// picks it (Bot API docs, "Determining list of commands"): the first list
// set of, in the user's private chat with the bot, the scopes chat,
// all_private_chats and default; in a group, chat_member,
// chat_administrators (to an administrator), chat,
// all_chat_administrators (to an administrator), all_group_chats and
// default; each first in the user's language, then for all languages. A
// client sends a command it lists with is_ephemeral ephemerally (see
// Post.Ephemeral).
func (s *Server) CommandsFor(chatID, userID int64) []BotCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.w.chats[chatID]
	if c == nil {
		return nil
	}
	return append([]BotCommand(nil), s.commandsForLocked(c, userID)...)
}

func (s *Server) commandsForLocked(c *chatState, userID int64) []BotCommand {
	lang := ""
	if u := s.w.users[userID]; u != nil && len(u.LanguageCode) >= 2 {
		// Telegram's apps ask in the two-letter code of their language.
		lang = strings.ToLower(u.LanguageCode[:2])
	}
	var scopes []CommandScope
	if c.chat.Type == ChatPrivate {
		scopes = []CommandScope{{Type: "chat", ChatID: c.chat.ID}, {Type: "all_private_chats"}, {Type: "default"}}
	} else {
		admin := s.w.memberOf(c, userID).isAdmin()
		scopes = append(scopes, CommandScope{Type: "chat_member", ChatID: c.chat.ID, UserID: userID})
		if admin {
			scopes = append(scopes, CommandScope{Type: "chat_administrators", ChatID: c.chat.ID})
		}
		scopes = append(scopes, CommandScope{Type: "chat", ChatID: c.chat.ID})
		if admin {
			scopes = append(scopes, CommandScope{Type: "all_chat_administrators"})
		}
		scopes = append(scopes, CommandScope{Type: "all_group_chats"}, CommandScope{Type: "default"})
	}
	for _, scope := range scopes {
		for _, l := range []string{lang, ""} {
			if set, ok := s.commands[keyOf(scope, l)]; ok {
				return set.Commands
			}
			if lang == "" {
				break
			}
		}
	}
	return nil
}

// Commands returns the commands registered for exactly this scope and
// language (a zero scope means "default"; "" means all languages), like
// getMyCommands: there is no fallback to other scopes or languages.
func (s *Server) Commands(scope CommandScope, languageCode string) []BotCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]BotCommand(nil), s.commands[keyOf(scope, languageCode)].Commands...)
}

// AllCommands returns every registered command list, ordered by scope and
// language.
func (s *Server) AllCommands() []CommandSet {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]CommandSet, 0, len(s.commands))
	for _, set := range s.commands {
		out = append(out, set)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := keyOf(out[i].Scope, out[i].LanguageCode), keyOf(out[j].Scope, out[j].LanguageCode)
		if a.scope != b.scope {
			return a.scope < b.scope
		}
		if a.chat != b.chat {
			return a.chat < b.chat
		}
		if a.user != b.user {
			return a.user < b.user
		}
		return a.lang < b.lang
	})
	return out
}
