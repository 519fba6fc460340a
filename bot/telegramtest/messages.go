package telegramtest

import (
	"strconv"
	"strings"
)

// chatArgLocked resolves chat_id and checks that the bot may act in the
// chat, answering like Telegram when it may not. Chats have no usernames
// here: an @username is never found.
func (s *Server) chatArgLocked(p params) (*chatState, *apiError) {
	raw := strings.TrimSpace(p.str("chat_id"))
	if raw == "" {
		return nil, errChatIDEmpty
	}
	var c *chatState
	if id, err := strconv.ParseInt(raw, 10, 64); err == nil {
		c = s.w.chats[id]
		if c == nil && id > 0 && s.w.users[id] != nil && id != s.w.bot.ID {
			return nil, forbidden("bot can't initiate conversation with a user")
		}
	}
	if c == nil || c.isUserChat() {
		return nil, errChatNotFound
	}
	if c.migratedTo != 0 {
		return nil, migratedError(c.migratedTo)
	}
	if c.chat.Type == ChatPrivate {
		switch {
		case s.w.deleted[c.chat.ID]:
			// Client.cpp, check_chat_access: a deleted user's chat takes
			// no writes, whether or not they blocked the bot.
			return nil, forbidden("user is deactivated")
		case c.bot.status == StatusKicked:
			return nil, forbidden("bot was blocked by the user")
		}
		return c, nil
	}
	switch c.bot.status {
	case StatusKicked:
		return nil, forbidden("bot was kicked from the " + c.chatKindName())
	case StatusLeft:
		return nil, forbidden("bot is not a member of the " + c.chatKindName())
	}
	return c, nil
}

// newMessageLocked allocates the next message id of the chat.
func (s *Server) newMessageLocked(c *chatState) ChatMessage {
	id := c.nextMsgID
	c.nextMsgID++
	now := s.now()
	return ChatMessage{Message: Message{MessageID: id, Date: now.Unix(), Chat: c.chat}, SentAt: now}
}

// storeLocked adds a message to its chat and reports it.
func (s *Server) storeLocked(c *chatState, m ChatMessage) *msgRecord {
	rec := &msgRecord{msg: m}
	c.add(rec)
	snapshot := m.clone()
	s.emitLocked(Event{Kind: EventMessageSent, ChatID: c.chat.ID, MessageID: m.MessageID, Message: &snapshot, Time: m.SentAt})
	return rec
}

// replySnapshot is the reply_to_message object: the replied message as it
// stands, without its own reply.
func replySnapshot(rec *msgRecord) *Message {
	if rec == nil {
		return nil
	}
	m := rec.msg.Message
	m.ReplyToMessage = nil
	return &m
}

// replyTo is the reply_to_message of the new message id in thread: the
// message it replies to or, replying to none in a thread (a forum topic
// other than General, or a reply thread of a supergroup), the thread's
// first message, which Telegram shows as an implicit reply
// (telegram-bot-api Client.cpp, get_same_chat_reply_to_message_id and
// get_implicit_reply_to_message_id: the thread's id, if below the
// message's own; left out if that message is gone). In a topic every
// ordinary message thus "replies" to the forum_topic_created message.
func (c *chatState) replyTo(reply *msgRecord, thread, id int) *Message {
	if reply == nil && thread != 0 && thread < id {
		reply = c.get(thread)
	}
	return replySnapshot(reply)
}

// threadLocked works out message_thread_id and is_topic_message of a new
// message from the requested thread and the replied message, failing with
// "message thread not found" like Telegram.
func (s *Server) threadLocked(c *chatState, thread int64, reply *msgRecord) (int, bool, *apiError) {
	if c.chat.Type != ChatSupergroup {
		if thread != 0 {
			return 0, false, errThreadNotFound
		}
		return 0, false, nil
	}
	if thread != 0 {
		if c.chat.IsForum {
			if _, ok := c.topics[int(thread)]; ok {
				return int(thread), true, nil
			}
			return 0, false, errThreadNotFound
		}
		if c.get(int(thread)) == nil {
			return 0, false, errThreadNotFound
		}
		return int(thread), false, nil
	}
	if reply == nil {
		return 0, false, nil
	}
	switch {
	case reply.msg.IsTopicMessage:
		return reply.msg.MessageThreadID, true, nil
	case reply.msg.MessageThreadID != 0:
		return reply.msg.MessageThreadID, false, nil
	default:
		return reply.msg.MessageID, false, nil
	}
}

// deleteWindow is how long after sending a bot may delete a message
// (TDLib: 2 * 86400 seconds for bots, in MessagesManager::can_revoke_message
// and can_delete_channel_message; the docs: "A message can only be deleted
// if it was sent less than 48 hours ago").
const deleteWindow = 2 * 86400

// deleteRefusal says why the bot may not delete the message, nil when it
// may, with the text the official server answers: TDLib's
// MessagesManager::delete_messages fails with "Message can't be deleted"
// where can_delete_message says no (in a supergroup: older than 48 hours
// from the moment it turns 48, the supergroup's first messages, or another's
// message without can_delete_messages), and with "Message can't be deleted
// for everyone" where can_revoke_message says no (in a private chat or a
// basic group: older than 48 hours past the second, or in a basic group
// another's message while the bot is no administrator).
func (s *Server) deleteRefusal(c *chatState, rec *msgRecord) *apiError {
	age := s.now().Unix() - rec.msg.Date
	own := rec.msg.FromBot && !rec.msg.IsService()
	switch c.chat.Type {
	case ChatPrivate:
		if age > deleteWindow {
			return errCantDeleteForEveryone
		}
	case ChatGroup:
		if !own && !c.bot.isAdmin() || age > deleteWindow {
			return errCantDeleteForEveryone
		}
	default:
		m := rec.msg
		switch {
		case age >= deleteWindow, m.SupergroupChatCreated, m.MigrateFromChatID != 0, m.ForumTopicCreated != nil:
			return errCantDelete
		case !m.FromBot && c.bot.status != StatusCreator && !(c.bot.status == StatusAdministrator && c.bot.canDelete):
			return errCantDelete
		}
	}
	return nil
}

// botReceives reports whether a user's message in a chat reaches the bot
// as an update, applying membership and group privacy mode.
func (s *Server) botReceives(c *chatState, m *ChatMessage) bool {
	if c.chat.Type == ChatPrivate {
		return !c.isUserChat()
	}
	if !c.bot.canPost() {
		return false
	}
	if !s.cfg.privacy || c.bot.isAdmin() || m.IsService() {
		return true
	}
	if r := m.ReplyToMessage; r != nil && r.From != nil && r.From.ID == s.w.bot.ID {
		return true
	}
	// "Messages sent via this bot" (Bot FAQ, privacy mode).
	if m.ViaBot != nil && m.ViaBot.ID == s.w.bot.ID {
		return true
	}
	me := "@" + strings.ToLower(s.w.bot.Username)
	for _, e := range m.Entities {
		if e.Type != EntityBotCommand {
			continue
		}
		cmd := strings.ToLower(utf16Slice(m.Text, e.Offset, e.Length))
		_, addressee, addressed := strings.Cut(cmd, "@")
		if addressed && "@"+addressee == me {
			return true
		}
		if !addressed && e.Offset == 0 {
			return true
		}
	}
	return false
}

// utf16Slice cuts s by UTF-16 offsets.
func utf16Slice(s string, offset, length int) string {
	units, start, end := 0, -1, len(s)
	for i := 0; i < len(s); i++ {
		if utf16Width(s[i]) == 0 {
			continue
		}
		if units == offset && start < 0 {
			start = i
		}
		if units == offset+length {
			end = i
			break
		}
		units += utf16Width(s[i])
	}
	if start < 0 {
		return ""
	}
	return s[start:end]
}
