package botapi

import (
	"fmt"
	"strings"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// The users Telegram puts in "from" of a message a chat sent, which stand
// in for no person (telegram-bot-api Client.cpp, Client::add_message).
const (
	// AnonymousAdmin (GroupAnonymousBot): an anonymous admin of the group;
	// sender_chat is the group itself.
	AnonymousAdmin = 1087968824
	// ChannelBot (Channel_Bot): a member posting on behalf of a channel;
	// sender_chat is the channel.
	ChannelBot = 136817688
	// ServiceNotifications (Telegram): a linked channel's post
	// automatically forwarded to its discussion group; sender_chat is the
	// channel.
	ServiceNotifications = 777000
)

// StandIn reports whether a user id is one of Telegram's stand-ins.
func StandIn(id int64) bool {
	return id == AnonymousAdmin || id == ChannelBot || id == ServiceNotifications
}

// Person reports whether u is a user the bot may act for: there, with an
// id, no bot, and none of Telegram's stand-ins.
func Person(u *tgbotapi.User) bool { return u != nil && u.ID > 0 && !u.IsBot && !StandIn(u.ID) }

// IsGroup reports whether c is a group or a supergroup.
func IsGroup(c *tgbotapi.Chat) bool { return c != nil && (c.IsGroup() || c.IsSuperGroup()) }

// Sender says who sent a message.
type Sender int

const (
	// ByNobody: the message names no sender the bot can tell (no from, or
	// one with no id).
	ByNobody Sender = iota
	// ByPerson: a user, the message's from.
	ByPerson
	// ByAnonymousAdmin: an admin of the group writing as the group.
	ByAnonymousAdmin
	// ByChat: another chat (a channel, or a linked channel's post
	// forwarded into its discussion group), which is no person.
	ByChat
)

// SenderOf says who sent a message. sender_chat names the chat a message
// was sent on behalf of: "the supergroup itself for messages sent by its
// anonymous administrators or a linked channel for messages automatically
// forwarded to the channel's discussion group"; from is then a stand-in
// (Bot API, Message), never a person to act for.
func SenderOf(m *tgbotapi.Message) Sender {
	switch {
	case m.SenderChat != nil && IsGroup(m.Chat) && m.SenderChat.ID == m.Chat.ID:
		return ByAnonymousAdmin
	case m.SenderChat != nil:
		return ByChat
	case Person(m.From):
		return ByPerson
	}
	return ByNobody
}

// Command is a command as typed: its name in lower case, the bot it names
// after "@" (if any) and its arguments.
type Command struct{ Name, Bot, Args string }

// CommandOf returns a message's command, or false when the message holds
// none. A command is a bot_command entity at the start of the text, "/"
// and ASCII (Telegram's commands are Latin letters, digits and
// underscores, so the entity's length in UTF-16 is its length in bytes);
// why says what is wrong with an entity that claims a command and is none.
func CommandOf(m *tgbotapi.Message) (cmd Command, ok bool, why string) {
	if len(m.Entities) == 0 || m.Entities[0].Offset != 0 || !m.Entities[0].IsCommand() {
		return Command{}, false, ""
	}
	n := m.Entities[0].Length
	if n < 2 || n > len(m.Text) || m.Text[0] != '/' {
		return Command{}, false, fmt.Sprintf("a bot_command entity of length %d on a text of %d bytes", n, len(m.Text))
	}
	for i := range n {
		if m.Text[i] >= utf8.RuneSelf {
			return Command{}, false, "a bot_command entity over non-ASCII text"
		}
	}
	name, bot, _ := strings.Cut(m.Text[1:n], "@")
	return Command{Name: strings.ToLower(name), Bot: bot, Args: strings.TrimSpace(m.Text[n:])}, true, ""
}

// Unheard says why a message holds no command to the bot, whatever its
// text, "" when it may hold one:
//   - a linked channel's post automatically forwarded to the group
//     (is_automatic_forward): the channel posted it, to its readers;
//   - a forwarded message: someone else's words;
//   - a message from a bot: bots answering bots could loop for ever
//     (Telegram does not show bots each other's messages in groups, so
//     none should come).
func Unheard(m *tgbotapi.Message) string {
	switch {
	case m.IsAutomaticForward:
		return "an automatic forward of a linked channel's post"
	case m.ForwardDate != 0:
		return "a forwarded message"
	case m.SenderChat == nil && m.From != nil && m.From.IsBot && !StandIn(m.From.ID):
		return "a message from a bot"
	}
	return ""
}

// ChatProblem says what is wrong with the chat of an update, "" when
// nothing is. A private chat has its user's id, positive; a group -N, a
// supergroup or channel -1000000000000 - N (telegram-bot-api's
// Client::get_basic_group_chat_id and get_supergroup_chat_id).
func ChatProblem(c *tgbotapi.Chat) string {
	switch {
	case c == nil:
		return "no chat"
	case c.ID == 0:
		return "chat id 0"
	case c.IsPrivate() && c.ID < 0, (c.IsGroup() || c.IsSuperGroup() || c.IsChannel()) && c.ID > 0:
		return fmt.Sprintf("chat %d of type %q", c.ID, c.Type)
	case !c.IsPrivate() && !c.IsGroup() && !c.IsSuperGroup() && !c.IsChannel():
		return fmt.Sprintf("chat %d of unknown type %q", c.ID, c.Type)
	}
	return ""
}

// MessageProblem says what makes a message senseless, "" when nothing.
func MessageProblem(m *tgbotapi.Message) string {
	if why := ChatProblem(m.Chat); why != "" {
		return why
	}
	switch {
	case m.MigrateToChatID > 0 || m.MigrateToChatID == m.Chat.ID:
		return fmt.Sprintf("migration of %d to %d", m.Chat.ID, m.MigrateToChatID)
	case m.MigrateFromChatID > 0 || m.MigrateFromChatID == m.Chat.ID:
		return fmt.Sprintf("migration of %d from %d", m.Chat.ID, m.MigrateFromChatID)
	}
	return ""
}

// MemberProblem says what makes a change of the bot's membership
// senseless, "" when nothing.
func MemberProblem(m *tgbotapi.ChatMemberUpdated) string {
	if why := ChatProblem(&m.Chat); why != "" {
		return why
	}
	if m.NewChatMember.User == nil {
		return "no new_chat_member.user"
	}
	if !memberStatuses[m.OldChatMember.Status] || !memberStatuses[m.NewChatMember.Status] {
		return fmt.Sprintf("membership %q to %q", m.OldChatMember.Status, m.NewChatMember.Status)
	}
	return ""
}

// memberStatuses are the statuses a ChatMember has (Bot API, ChatMember):
// a change to or from any other is not one the bot can act on (a missing
// status read as "left" once refunded every table of the chat).
var memberStatuses = map[string]bool{
	"creator": true, "administrator": true, "member": true, "restricted": true, "left": true, "kicked": true,
}

// PressProblem says what makes a button press senseless, "" when nothing.
// A press by Telegram's stand-in for anonymous admins is not senseless: the
// bot tells them they cannot play.
func PressProblem(q *tgbotapi.CallbackQuery) string {
	switch {
	case q.From == nil:
		return "no from"
	case q.From.ID <= 0:
		return fmt.Sprintf("from user %d", q.From.ID)
	case q.Message == nil:
		return "no message"
	}
	return ChatProblem(q.Message.Chat)
}
