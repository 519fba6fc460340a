package telegramtest

import (
	"fmt"
)

// The users Telegram puts in "from" of a group's messages that a chat sent
// (telegram-bot-api Client.cpp, Client::add_message: a message whose
// sender is a chat gets group_anonymous_bot_user_id when the chat is the
// group itself, service_notifications_user_id when it is a linked
// channel's automatic forward, and channel_bot_user_id otherwise).
const (
	// ChannelBotID is "from" of a message a member sends on behalf of a
	// channel (the user Channel_Bot).
	ChannelBotID int64 = 136817688
	// ServiceNotificationsID is "from" of a linked channel's post
	// automatically forwarded to its discussion group (the user Telegram).
	ServiceNotificationsID int64 = 777000
)

var (
	channelBot           = User{ID: ChannelBotID, IsBot: true, FirstName: "Channel", Username: "Channel_Bot"}
	serviceNotifications = User{ID: ServiceNotificationsID, FirstName: "Telegram"}
)

// NewChannel creates a channel. Its admins (the first is its creator) post
// in it with PostInChannel, and on behalf of it in supergroups (Post's
// SenderChat). The bot is not a member: it gets none of the channel's
// posts. When discussion is not 0 it names a supergroup, the channel's
// linked discussion group, where every post is forwarded automatically.
func (s *Server) NewChannel(title string, discussion int64, admins ...User) (Chat, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(admins) == 0 {
		return Chat{}, fmt.Errorf("a channel needs its creator: %w", ErrInvalid)
	}
	if discussion != 0 {
		g, ok := s.w.chats[discussion]
		if !ok {
			return Chat{}, fmt.Errorf("discussion group %d: %w", discussion, ErrChatNotFound)
		}
		if g.chat.Type != ChatSupergroup {
			return Chat{}, fmt.Errorf("a discussion group is a supergroup, not %s %d: %w", g.chat.Type, discussion, ErrInvalid)
		}
	}
	ids := s.ensureUsersLocked(admins)
	id := s.allocChatIDLocked(ChatSupergroup) // channels share the -100… ids of supergroups
	if title == "" {
		title = fmt.Sprintf("Channel %d", -id)
	}
	c := newChatState(Chat{ID: id, Type: ChatChannel, Title: title}, s.w.bot.ID, s.cfg.firstMessageID)
	c.bot = member{status: StatusLeft}
	c.discussion = discussion
	for i, uid := range ids {
		c.members[uid] = &member{status: StatusAdministrator, canDelete: true}
		if i == 0 {
			c.members[uid] = &member{status: StatusCreator}
		}
	}
	s.w.chats[id] = c
	return c.chat, nil
}

// channelLocked returns a channel and checks the user administers it.
func (s *Server) channelLocked(channelID int64, u User) (*chatState, error) {
	ch, ok := s.w.chats[channelID]
	if !ok {
		return nil, fmt.Errorf("channel %d: %w", channelID, ErrChatNotFound)
	}
	if ch.chat.Type != ChatChannel {
		return nil, fmt.Errorf("chat %d is no channel: %w", channelID, ErrInvalid)
	}
	if !s.w.memberOf(ch, u.ID).isAdmin() {
		return nil, fmt.Errorf("user %d does not administer channel %d: %w", u.ID, channelID, ErrNotMember)
	}
	return ch, nil
}

// sendAsLocked checks that user u may post in chat c on behalf of the
// channel, and returns the channel: a supergroup, a channel they
// administer.
func (s *Server) sendAsLocked(c *chatState, u User, channelID int64) (Chat, error) {
	if c.chat.Type != ChatSupergroup {
		return Chat{}, fmt.Errorf("posting on behalf of a channel in %s %d: only in supergroups: %w", c.chat.Type, c.chat.ID, ErrInvalid)
	}
	ch, err := s.channelLocked(channelID, u)
	if err != nil {
		return Chat{}, err
	}
	return ch.chat, nil
}

// PostInChannel posts a text in a channel as one of its admins, and
// returns the post and, when the channel has a discussion group, the
// post's automatic forward there as the bot gets it: "from" is the user
// Telegram (777000), "sender_chat" the channel, is_automatic_forward set
// (Client.cpp: a forward from a channel into a supergroup), with
// forward_origin naming the post, and the text and its entities as posted
// (a bot_command among them: the official server's TDLib marks bot
// commands in every message a bot receives, MessagesManager::
// need_skip_bot_commands). The forward is delivered like any other
// message of the group.
func (s *Server) PostInChannel(channelID, fromID int64, text string) (post, forward ChatMessage, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.w.users[fromID]
	if !ok {
		return ChatMessage{}, ChatMessage{}, fmt.Errorf("user %d: %w", fromID, ErrUserNotFound)
	}
	ch, err := s.channelLocked(channelID, *u)
	if err != nil {
		return ChatMessage{}, ChatMessage{}, err
	}
	text, entities, err := typedText(text)
	if err != nil {
		return ChatMessage{}, ChatMessage{}, err
	}
	post = s.newMessageLocked(ch)
	channel := ch.chat
	post.SenderChat = &channel
	post.Text, post.Entities = text, entities
	s.storeLocked(ch, post)
	g, ok := s.w.chats[ch.discussion]
	if !ok {
		return post.clone(), ChatMessage{}, nil
	}
	forward = s.newMessageLocked(g)
	from := serviceNotifications
	forward.From, forward.SenderChat = &from, &channel
	forward.Text, forward.Entities = text, append([]MessageEntity(nil), entities...)
	forward.ForwardOrigin = &MessageOrigin{Type: ChatChannel, Date: post.Date, Chat: &channel, MessageID: post.MessageID}
	forward.ForwardFromChat, forward.ForwardFromMessageID, forward.ForwardDate = &channel, post.MessageID, post.Date
	forward.IsAutomaticForward = true
	s.storeLocked(g, forward)
	if s.botReceives(g, &forward) {
		s.enqueueLocked(UpdateMessage, Update{Message: &forward.Message})
	}
	return post.clone(), forward.clone(), nil
}
