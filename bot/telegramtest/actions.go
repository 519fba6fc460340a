package telegramtest

import (
	"fmt"
	"strings"
)

// actorLocked resolves a chat and a user acting in it, checking that the
// user may write there. A private chat is created the first time its user
// acts in it.
func (s *Server) actorLocked(chatID, fromID int64) (*chatState, User, error) {
	u, ok := s.w.users[fromID]
	if !ok || fromID == s.w.bot.ID || s.w.deleted[fromID] {
		return nil, User{}, fmt.Errorf("user %d: %w", fromID, ErrUserNotFound)
	}
	c, ok := s.w.chats[chatID]
	if !ok && chatID == fromID {
		var err error
		if c, err = s.addChatLocked(ChatSpec{Type: ChatPrivate, ID: fromID}); err != nil {
			return nil, User{}, err
		}
		ok = true
	}
	if !ok {
		return nil, User{}, fmt.Errorf("chat %d: %w", chatID, ErrChatNotFound)
	}
	if c.migratedTo != 0 {
		return nil, User{}, fmt.Errorf("chat %d is now %d: %w", chatID, c.migratedTo, ErrChatMigrated)
	}
	if c.isUserChat() {
		if !c.hasPeer(fromID) {
			return nil, User{}, fmt.Errorf("user %d in the chat of users %d and %d: %w", fromID, c.peers[0], c.peers[1], ErrNotMember)
		}
		return c, *u, nil
	}
	if c.chat.Type == ChatPrivate {
		if fromID != c.chat.ID {
			return nil, User{}, fmt.Errorf("user %d in the private chat of %d: %w", fromID, c.chat.ID, ErrNotMember)
		}
		if c.bot.status == StatusKicked {
			return nil, User{}, fmt.Errorf("user %d blocked the bot: %w", fromID, ErrNotMember)
		}
		return c, *u, nil
	}
	if m := s.w.memberOf(c, fromID); !m.canPost() {
		return nil, User{}, fmt.Errorf("user %d (%s) in chat %d: %w", fromID, m.status, chatID, ErrNotMember)
	}
	return c, *u, nil
}

// Post is a message a user sends.
type Post struct {
	// ChatID is the chat to post in; for a private chat, the user's id.
	ChatID int64
	// From is the sending user's id.
	From int64
	// Text is the message text, as typed: it gets the entities a Telegram
	// client detects (bot commands, mentions, hashtags, URLs) and no
	// formatting.
	Text string
	// ReplyTo is the id of the message replied to (0: none).
	ReplyTo int
	// ThreadID posts into a forum topic (see CreateTopic).
	ThreadID int
	// Anonymous sends as an anonymous administrator: "from" is
	// GroupAnonymousBot and "sender_chat" the group. The user must be an
	// administrator of a supergroup.
	Anonymous bool
	// SenderChat posts on behalf of a channel the user administers (see
	// NewChannel): "from" is Channel_Bot and "sender_chat" the channel.
	// Only in supergroups.
	SenderChat int64
	// Ephemeral sends the message ephemerally, as a client sends a
	// command the bot lists with is_ephemeral in the menu the user sees in
	// the group (CommandsFor): only the user and the bot see it, and the
	// bot gets it with message_id 0 and an ephemeral_message_id. Text that
	// is no such command is refused (ErrInvalid), as a client would send
	// it as an ordinary message.
	Ephemeral bool
	// ReplyToEphemeral replies, ephemerally, to the bot's ephemeral
	// message to the user with this id, as a client sends any reply to
	// one (Ephemeral is implied).
	ReplyToEphemeral int
}

// Post sends a message as a user. The message is stored in the chat and,
// if the bot would see it (membership, privacy mode), queued as an update.
//
// In a chat the bot is not a member of, a message that mentions the bot
// reaches a bot in guest mode as a guest_message (see SendGuestMessage).
func (s *Server) Post(p Post) (ChatMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, _, err := s.postLocked(p)
	return m, err
}

// postLocked is Post; it also returns the guest query the message made,
// if it made one.
func (s *Server) postLocked(p Post) (ChatMessage, *guestQueryState, error) {
	c, u, err := s.actorLocked(p.ChatID, p.From)
	if err != nil {
		return ChatMessage{}, nil, err
	}
	if c.chat.Type == ChatChannel {
		return ChatMessage{}, nil, fmt.Errorf("chat %d is a channel: post with PostInChannel: %w", c.chat.ID, ErrInvalid)
	}
	text, entities, err := typedText(p.Text)
	if err != nil {
		return ChatMessage{}, nil, err
	}
	if p.Ephemeral || p.ReplyToEphemeral != 0 {
		m, err := s.postEphemeralLocked(c, u, p, text, entities)
		return m, nil, err
	}
	var reply *msgRecord
	if p.ReplyTo != 0 {
		if reply = c.get(p.ReplyTo); reply == nil {
			return ChatMessage{}, nil, fmt.Errorf("reply to %d in chat %d: %w", p.ReplyTo, c.chat.ID, ErrMessageNotFound)
		}
	}
	thread, isTopic, apiErr := s.threadLocked(c, int64(p.ThreadID), reply)
	if apiErr != nil {
		return ChatMessage{}, nil, fmt.Errorf("thread %d in chat %d: %w", p.ThreadID, c.chat.ID, ErrInvalid)
	}
	from := u
	var senderChat *Chat
	if p.SenderChat != 0 {
		if p.Anonymous {
			return ChatMessage{}, nil, fmt.Errorf("anonymous and on behalf of a channel at once: %w", ErrInvalid)
		}
		ch, err := s.sendAsLocked(c, u, p.SenderChat)
		if err != nil {
			return ChatMessage{}, nil, err
		}
		from, senderChat = channelBot, &ch
	}
	if p.Anonymous {
		if c.chat.Type != ChatSupergroup || !s.w.memberOf(c, u.ID).isAdmin() {
			return ChatMessage{}, nil, fmt.Errorf("only administrators of supergroups post anonymously: %w", ErrInvalid)
		}
		from = anonymousAdmin
		chat := c.chat
		senderChat = &chat
	}
	m := s.newMessageLocked(c)
	m.From, m.SenderChat = &from, senderChat
	m.Text, m.Entities = text, entities
	m.ReplyToMessage = replySnapshot(reply)
	m.MessageThreadID, m.IsTopicMessage = thread, isTopic
	// Privacy mode lets through replies to the bot that the user made, not
	// the implicit reply of a thread.
	deliver := s.botReceives(c, &m)
	m.ReplyToMessage = c.replyTo(reply, thread, m.MessageID)
	s.storeLocked(c, m)
	if deliver {
		s.enqueueLocked(UpdateMessage, Update{Message: &m.Message})
	}
	var guest *guestQueryState
	if s.guestRefusal(c, m.Text) == "" {
		guest = s.guestQueryLocked(c, m)
	}
	return m.clone(), guest, nil
}

// DeleteMessage deletes a message as user byID does in a client: one of
// their own, or any as an administrator of the group (any in their private
// chat). The bot is told nothing, as the Bot API has no update for it; a
// client that has not seen the deletion yet may still press the message's
// buttons (see Press).
func (s *Server) DeleteMessage(chatID, byID int64, messageID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deleteMessageLocked(chatID, byID, messageID)
}

func (s *Server) deleteMessageLocked(chatID, byID int64, messageID int) error {
	c, u, err := s.actorLocked(chatID, byID)
	if err != nil {
		return err
	}
	rec := c.get(messageID)
	if rec == nil {
		return fmt.Errorf("message %d in chat %d: %w", messageID, chatID, ErrMessageNotFound)
	}
	own := rec.msg.From != nil && rec.msg.From.ID == u.ID && rec.msg.SenderChat == nil
	if c.chat.Type != ChatPrivate && !own && !s.w.memberOf(c, u.ID).isAdmin() {
		return fmt.Errorf("user %d may not delete message %d in chat %d: %w", u.ID, messageID, chatID, ErrInvalid)
	}
	c.remove(messageID)
	s.emitLocked(Event{Kind: EventMessageDeleted, ChatID: chatID, MessageID: messageID, Time: s.now()})
	return nil
}

// typedText checks a text a user sends and returns the entities a client
// detects in it.
func typedText(text string) (string, []MessageEntity, error) {
	if strings.TrimSpace(text) == "" {
		return "", nil, fmt.Errorf("empty text: %w", ErrInvalid)
	}
	if utf16Len(text) > maxTextLength {
		return "", nil, fmt.Errorf("text of %d UTF-16 units is over %d: %w", utf16Len(text), maxTextLength, ErrInvalid)
	}
	return text, detectEntities(text), nil
}

// SendText sends a plain text message as a user.
func (s *Server) SendText(chatID, fromID int64, text string) (ChatMessage, error) {
	return s.Post(Post{ChatID: chatID, From: fromID, Text: text})
}

// SendCommand sends "/command args…" as a user; command may carry the
// leading slash and an "@botname" suffix. The text gets bot_command
// entities like a real client's.
func (s *Server) SendCommand(chatID, fromID int64, command string, args ...string) (ChatMessage, error) {
	text := "/" + strings.TrimPrefix(command, "/")
	if len(args) > 0 {
		text += " " + strings.Join(args, " ")
	}
	return s.Post(Post{ChatID: chatID, From: fromID, Text: text})
}

// CommandFor returns "/command@botusername", the form of a command
// addressed to this bot in a group.
func (s *Server) CommandFor(command string) string {
	return "/" + strings.TrimPrefix(command, "/") + "@" + s.cfg.bot.Username
}
