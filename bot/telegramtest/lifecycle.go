package telegramtest

import (
	"errors"
	"fmt"
)

// setBotStatusLocked changes the bot's membership and queues the
// my_chat_member update Telegram sends for it.
func (s *Server) setBotStatusLocked(c *chatState, by User, nm member) {
	old := s.w.chatMember(c, s.w.bot.ID)
	c.bot = nm
	updated := s.w.chatMember(c, s.w.bot.ID)
	s.enqueueLocked(UpdateMyChatMember, Update{MyChatMember: &ChatMemberUpdated{Chat: c.chat, From: by,
		Date: s.now().Unix(), OldChatMember: old, NewChatMember: updated}})
	s.emitLocked(Event{Kind: EventMemberChanged, ChatID: c.chat.ID, Member: &updated})
}

// setMemberLocked changes a user's membership and queues a chat_member
// update (delivered only if the bot asked for chat_member updates).
func (s *Server) setMemberLocked(c *chatState, userID int64, by User, nm member) {
	old := s.w.chatMember(c, userID)
	stored := nm
	c.members[userID] = &stored
	updated := s.w.chatMember(c, userID)
	s.enqueueLocked(UpdateChatMember, Update{ChatMember: &ChatMemberUpdated{Chat: c.chat, From: by,
		Date: s.now().Unix(), OldChatMember: old, NewChatMember: updated}})
	s.emitLocked(Event{Kind: EventMemberChanged, ChatID: c.chat.ID, Member: &updated})
}

// groupAndActorLocked resolves a group or supergroup and the user acting
// on it (any known user; 0 means the chat's creator).
func (s *Server) groupAndActorLocked(chatID, byID int64) (*chatState, User, error) {
	c, ok := s.w.chats[chatID]
	if !ok {
		return nil, User{}, fmt.Errorf("chat %d: %w", chatID, ErrChatNotFound)
	}
	if !c.isGroup() {
		return nil, User{}, fmt.Errorf("chat %d is not a group: %w", chatID, ErrInvalid)
	}
	if c.migratedTo != 0 {
		return nil, User{}, fmt.Errorf("chat %d is now %d: %w", chatID, c.migratedTo, ErrChatMigrated)
	}
	if byID == 0 {
		for id, m := range c.members {
			if m.status == StatusCreator {
				byID = id
			}
		}
	}
	u, ok := s.w.users[byID]
	if !ok {
		return nil, User{}, fmt.Errorf("acting user %d: %w", byID, ErrUserNotFound)
	}
	return c, *u, nil
}

// serviceLocked stores a service message from a user and, if the bot is
// in the chat, delivers it.
func (s *Server) serviceLocked(c *chatState, by User, fill func(*ChatMessage)) ChatMessage {
	m := s.newMessageLocked(c)
	from := by
	m.From = &from
	fill(&m)
	m.ReplyToMessage = c.replyTo(nil, m.MessageThreadID, m.MessageID)
	s.storeLocked(c, m)
	if s.botReceives(c, &m) {
		s.enqueueLocked(UpdateMessage, Update{Message: &m.Message})
	}
	return m
}

// AddBot adds the bot to a group, as user byID does in a client: the bot
// gets a my_chat_member update (left → member) and the "new_chat_members"
// service message.
func (s *Server) AddBot(chatID, byID int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, by, err := s.groupAndActorLocked(chatID, byID)
	if err != nil {
		return err
	}
	if c.bot.canPost() {
		return fmt.Errorf("bot is already in chat %d: %w", chatID, ErrInvalid)
	}
	s.setBotStatusLocked(c, by, member{status: StatusMember})
	bot := s.w.bot
	s.serviceLocked(c, by, func(m *ChatMessage) { m.NewChatMembers = []User{bot} })
	return nil
}

// KickBot bans the bot from a group: it gets a my_chat_member update
// (→ kicked), the "left_chat_member" service message is stored but not
// delivered, and afterwards requests for the chat fail with 403 "Forbidden:
// bot was kicked from the group chat".
func (s *Server) KickBot(chatID, byID int64) error {
	return s.removeBot(chatID, byID, StatusKicked)
}

// RemoveBot removes the bot from a group without banning it; afterwards
// requests fail with 403 "Forbidden: bot is not a member of the group chat".
func (s *Server) RemoveBot(chatID, byID int64) error {
	return s.removeBot(chatID, byID, StatusLeft)
}

func (s *Server) removeBot(chatID, byID int64, status string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, by, err := s.groupAndActorLocked(chatID, byID)
	if err != nil {
		return err
	}
	if !c.bot.canPost() {
		return fmt.Errorf("bot is not in chat %d: %w", chatID, ErrInvalid)
	}
	s.setBotStatusLocked(c, by, member{status: status})
	bot := s.w.bot
	s.serviceLocked(c, by, func(m *ChatMessage) { m.LeftChatMember = &bot })
	return nil
}

// BlockBot makes a user block (or unblock) the bot in their private chat:
// the bot gets a my_chat_member update and, while blocked, sending there
// fails with 403 "Forbidden: bot was blocked by the user".
func (s *Server) BlockBot(userID int64, blocked bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.w.users[userID]
	if !ok {
		return fmt.Errorf("user %d: %w", userID, ErrUserNotFound)
	}
	c, err := s.addChatLocked(ChatSpec{Type: ChatPrivate, ID: userID})
	if err != nil {
		return err
	}
	nm := member{status: StatusMember}
	if blocked {
		nm = member{status: StatusKicked}
	}
	s.setBotStatusLocked(c, *u, nm)
	return nil
}

// DeleteAccount deletes a user's account, as the user (or Telegram) may:
// the user acts no more, and the bot's messages to them fail with 403
// "Forbidden: user is deactivated". No update tells the bot.
func (s *Server) DeleteAccount(userID int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.w.users[userID]; !ok || userID == s.w.bot.ID {
		return fmt.Errorf("user %d: %w", userID, ErrUserNotFound)
	}
	s.w.deleted[userID] = true
	return nil
}

// AddMember adds a user to a group (registering the user if needed), with
// the "new_chat_members" service message and a chat_member update.
func (s *Server) AddMember(chatID int64, u User, byID int64) (User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u = User{ID: s.ensureUsersLocked([]User{u})[0]}
	u = *s.w.users[u.ID]
	if byID == 0 {
		byID = u.ID
	}
	c, by, err := s.groupAndActorLocked(chatID, byID)
	if err != nil {
		return User{}, err
	}
	if s.w.memberOf(c, u.ID).canPost() {
		return u, fmt.Errorf("user %d is already in chat %d: %w", u.ID, chatID, ErrInvalid)
	}
	s.setMemberLocked(c, u.ID, by, member{status: StatusMember})
	joined := u
	s.serviceLocked(c, by, func(m *ChatMessage) { m.NewChatMembers = []User{joined} })
	return u, nil
}

// serviceLeftLimit is the most members a supergroup may have for Telegram
// to post a "left_chat_member" service message when one leaves. Not
// documented: bot developers find that bots get none in larger
// supergroups (go-telegram-bot-api#322, node-telegram-bot-api#933, both
// at "over 50"); only a chat_member update, sent to an admin bot that
// asks for it, tells of those. A basic group always gets one.
const serviceLeftLimit = 50

// RemoveMember takes a member out of a group: the user leaves (byID is
// the user, or 0) or an admin byID removes them. Their status becomes
// "left", with a chat_member update, and the "left_chat_member" service
// message is posted, from byID, except in a supergroup of more than
// serviceLeftLimit members (counted before the leave).
func (s *Server) RemoveMember(chatID, userID, byID int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if byID == 0 {
		byID = userID
	}
	c, by, err := s.groupAndActorLocked(chatID, byID)
	if err != nil {
		return err
	}
	u, err := s.userLocked(userID)
	if err != nil {
		return err
	}
	if userID == s.w.bot.ID || !s.w.memberOf(c, userID).canPost() {
		return fmt.Errorf("user %d is not a member of chat %d: %w", userID, chatID, ErrInvalid)
	}
	if byID != userID && !s.w.memberOf(c, byID).isAdmin() {
		return fmt.Errorf("user %d is no admin of chat %d: %w", byID, chatID, ErrInvalid)
	}
	members := 0 // the bot among them
	if c.bot.canPost() {
		members++
	}
	for id := range c.members {
		if s.w.memberOf(c, id).canPost() {
			members++
		}
	}
	s.setMemberLocked(c, userID, by, member{status: StatusLeft})
	if c.chat.Type == ChatSupergroup && members > serviceLeftLimit {
		return nil
	}
	s.serviceLocked(c, by, func(m *ChatMessage) { m.LeftChatMember = &u })
	return nil
}

// SetMemberStatus sets a user's status in a group directly (creator,
// administrator, member, restricted, left or kicked), queueing a
// chat_member update. Promoting a new creator demotes the old one to
// administrator. For the bot itself it is setBotStatus: the bot's own
// status changes, and the bot gets my_chat_member, as Telegram sends it.
func (s *Server) SetMemberStatus(chatID, userID int64, status string) error {
	if userID == s.Bot().ID {
		return s.setBotStatus(chatID, status)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.userLocked(userID); err != nil {
		return err
	}
	c, by, err := s.groupAndActorLocked(chatID, 0)
	if errors.Is(err, ErrUserNotFound) {
		// A group without a creator: the user acts on themselves.
		c, by, err = s.groupAndActorLocked(chatID, userID)
	}
	if err != nil {
		return err
	}
	var nm member
	switch status {
	case StatusCreator:
		for id, m := range c.members {
			if m.status == StatusCreator && id != userID {
				s.setMemberLocked(c, id, by, member{status: StatusAdministrator, canDelete: true})
			}
		}
		nm = member{status: StatusCreator}
	case StatusAdministrator:
		nm = member{status: StatusAdministrator, canDelete: true}
	case StatusMember, StatusLeft, StatusKicked:
		nm = member{status: status}
	case StatusRestricted:
		nm = member{status: StatusRestricted, isMember: true}
	default:
		return fmt.Errorf("status %q: %w", status, ErrInvalid)
	}
	s.setMemberLocked(c, userID, by, nm)
	return nil
}

// setBotStatus promotes the bot in a group it is in to administrator (it
// may then delete messages, as AddChat's StatusAdministrator), or demotes
// it to member, as the group's creator does in a client: the bot's status
// changes (getChatMember of the bot says so) and the bot gets a
// my_chat_member update (Bot API: "The bot's chat member status was
// updated in a chat"), with no service message; left and kicked are
// RemoveBot's and KickBot's. A bot cannot own a group, and a restricted
// bot is not modelled: both are refused, as is a bot not in the group.
func (s *Server) setBotStatus(chatID int64, status string) error {
	var nm member
	switch status {
	case StatusAdministrator:
		nm = member{status: StatusAdministrator, canDelete: true}
	case StatusMember:
		nm = member{status: StatusMember}
	case StatusLeft:
		return s.RemoveBot(chatID, 0)
	case StatusKicked:
		return s.KickBot(chatID, 0)
	default:
		return fmt.Errorf("the bot's status %q: a bot owns no group, and a restricted bot is not modelled: %w", status, ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, by, err := s.groupAndActorLocked(chatID, 0)
	if err != nil {
		return err
	}
	if !c.bot.canPost() {
		return fmt.Errorf("bot is not in chat %d (AddBot): %w", chatID, ErrInvalid)
	}
	if c.bot.status == nm.status {
		return nil // Telegram tells of a change only
	}
	s.setBotStatusLocked(c, by, nm)
	return nil
}

func (s *Server) userLocked(id int64) (User, error) {
	u, ok := s.w.users[id]
	if !ok {
		return User{}, fmt.Errorf("user %d: %w", id, ErrUserNotFound)
	}
	return *u, nil
}

// MakeAdmin makes a user an administrator of a group.
func (s *Server) MakeAdmin(chatID, userID int64) error {
	return s.SetMemberStatus(chatID, userID, StatusAdministrator)
}

// UpgradeToSupergroup migrates a basic group to a new supergroup, as
// Telegram does: the old group gets a service message with
// migrate_to_chat_id, the new supergroup one with migrate_from_chat_id
// (both delivered to the bot if it is a member), members and the bot's
// membership move over, messages do not. The bot, if it was a member, also
// gets a my_chat_member update for the new supergroup (left → its status),
// as if it had been added there, and none for the old group. Afterwards
// every request for the old id fails with 400 "group chat was upgraded to
// a supergroup chat" carrying parameters.migrate_to_chat_id.
func (s *Server) UpgradeToSupergroup(chatID, byID int64) (Chat, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, by, err := s.groupAndActorLocked(chatID, byID)
	if err != nil {
		return Chat{}, err
	}
	if old.chat.Type != ChatGroup {
		return Chat{}, fmt.Errorf("chat %d is already a supergroup: %w", chatID, ErrInvalid)
	}
	if !s.w.memberOf(old, by.ID).isAdmin() {
		return Chat{}, fmt.Errorf("user %d is not an administrator of chat %d: %w", by.ID, chatID, ErrNotMember)
	}
	id := s.allocChatIDLocked(ChatSupergroup)
	sg := newChatState(Chat{ID: id, Type: ChatSupergroup, Title: old.chat.Title}, s.w.bot.ID, s.cfg.firstMessageID)
	for uid, m := range old.members {
		cp := *m
		sg.members[uid] = &cp
	}
	s.w.chats[id] = sg
	s.serviceLocked(old, by, func(m *ChatMessage) { m.MigrateToChatID = id })
	old.migratedTo = id
	// The bot's membership of the new supergroup reaches it as a
	// my_chat_member update from left, and no update says it left the old
	// group (telegram-bot-api Client.cpp, add_update_chat_member, passes on
	// TDLib's updateChatMember; tdlib/telegram-bot-api#266: "Bot join event
	// is sent for the supergroup", "Bot left event is never sent for
	// group"). Its order among the migration's messages is not documented
	// (membership updates have their own sequence): it comes here, before
	// migrate_from_chat_id, where a bot can least tell it from being added.
	if old.bot.canPost() {
		sg.bot = member{status: StatusLeft}
		s.setBotStatusLocked(sg, by, old.bot)
	} else {
		sg.bot = old.bot
	}
	// The supergroup's first message is the supergroup's own: from
	// GroupAnonymousBot with sender_chat the supergroup (as captured in
	// InsanusMokrassar/ktgbotapi#514).
	s.serviceLocked(sg, by, func(m *ChatMessage) {
		anon, chat := anonymousAdmin, sg.chat
		m.From, m.SenderChat = &anon, &chat
		m.MigrateFromChatID = chatID
	})
	s.emitLocked(Event{Kind: EventChatMigrated, ChatID: chatID, MigrateToChatID: id})
	return sg.chat, nil
}

// CreateTopic opens a topic in a forum supergroup and returns its thread
// id (the id of the "forum_topic_created" service message).
func (s *Server) CreateTopic(chatID, byID int64, name string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, by, err := s.groupAndActorLocked(chatID, byID)
	if err != nil {
		return 0, err
	}
	if !c.chat.IsForum {
		return 0, fmt.Errorf("chat %d is not a forum: %w", chatID, ErrInvalid)
	}
	if !s.w.memberOf(c, by.ID).canPost() {
		return 0, fmt.Errorf("user %d in chat %d: %w", by.ID, chatID, ErrNotMember)
	}
	m := s.serviceLocked(c, by, func(m *ChatMessage) {
		m.ForumTopicCreated = &ForumTopicCreated{Name: name, IconColor: 7322096}
		m.MessageThreadID, m.IsTopicMessage = m.MessageID, true
	})
	c.topics[m.MessageID] = name
	return m.MessageID, nil
}
