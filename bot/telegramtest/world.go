package telegramtest

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"strconv"
)

// world is the simulated Telegram: users, chats, memberships, messages.
// It is guarded by Server.mu.
type world struct {
	bot          User
	users        map[int64]*User
	deleted      map[int64]bool // the users whose accounts were deleted
	chats        map[int64]*chatState
	nextUser     int64
	nextGroup    int64
	nextChannel  int64
	nextUserChat int64
}

func (w *world) init(bot User) {
	w.bot = bot
	w.users = map[int64]*User{bot.ID: &bot}
	w.deleted = map[int64]bool{}
	w.chats = map[int64]*chatState{}
	w.nextUser = 100000001
	w.nextGroup = 4000000001
	w.nextChannel = 1000000000001
	w.nextUserChat = 9000000000001
}

// member is one user's membership in a chat.
type member struct {
	status      string
	isAnonymous bool
	customTitle string
	canDelete   bool
	isMember    bool // for restricted
	untilDate   int64
}

// maxMarkupHistory bounds the remembered earlier keyboards of a message.
const maxMarkupHistory = 16

// msgRecord is a stored message plus the keyboards it showed before edits,
// so that a stale client can still press an old button.
type msgRecord struct {
	msg     ChatMessage
	history []*InlineKeyboardMarkup
}

// chatState is one chat with its members and messages, indexed by id.
type chatState struct {
	chat       Chat
	members    map[int64]*member
	bot        member // the bot's own membership
	migratedTo int64
	firstID    int // the id of the chat's first message
	nextMsgID  int
	msgs       map[int]*msgRecord
	order      []int // message ids in sending order; deleted ids are skipped lazily
	deleted    int
	topics     map[int]string // forum topics: thread id → name
	instance   string
	discussion int64 // of a channel: its linked discussion group, 0 if none
	// peers are the two users of a private chat between users, which the
	// bot is no party to (NewUserChat); zero in every other chat.
	peers [2]int64
	// inlineIDs maps the ids of the chat's inline messages (deleted ones
	// too) to their inline_message_id.
	inlineIDs map[int]string

	// gone holds the keyboards of the last maxGone deleted messages that
	// showed one (goneOrder, oldest first), so that a client that has not
	// seen the deletion yet can still press their buttons.
	gone      map[int][]*InlineKeyboardMarkup
	goneOrder []int

	// eph holds the chat's ephemeral messages by ephemeral_message_id
	// (ephOrder in sending order, deleted ids skipped lazily); lastEph is
	// the last id given (see ephemeral.go).
	eph      map[int]*msgRecord
	ephOrder []int
	lastEph  int
}

func newChatState(chat Chat, botID int64, firstMsgID int) *chatState {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d", botID, chat.ID)
	return &chatState{
		chat:      chat,
		members:   map[int64]*member{},
		bot:       member{status: StatusMember},
		firstID:   firstMsgID,
		nextMsgID: firstMsgID,
		msgs:      map[int]*msgRecord{},
		topics:    map[int]string{},
		instance:  strconv.FormatInt(int64(h.Sum64()>>1), 10),
	}
}

func (c *chatState) isGroup() bool { return c.chat.Type == ChatGroup || c.chat.Type == ChatSupergroup }

// isUserChat reports whether the chat is a private chat between two users
// (NewUserChat), not one with the bot.
func (c *chatState) isUserChat() bool { return c.peers[0] != 0 }

// hasPeer reports whether the user is one of a user chat's two users.
func (c *chatState) hasPeer(userID int64) bool {
	return c.isUserChat() && (c.peers[0] == userID || c.peers[1] == userID)
}

// chatKindName is how error descriptions name the chat's kind.
func (c *chatState) chatKindName() string {
	switch c.chat.Type {
	case ChatSupergroup:
		return "supergroup chat"
	case ChatChannel:
		return "channel chat"
	}
	return "group chat"
}

func (c *chatState) add(rec *msgRecord) {
	c.msgs[rec.msg.MessageID] = rec
	c.order = append(c.order, rec.msg.MessageID)
}

func (c *chatState) get(id int) *msgRecord { return c.msgs[id] }

func (c *chatState) remove(id int) {
	rec, ok := c.msgs[id]
	if !ok {
		return
	}
	c.bury(rec)
	delete(c.msgs, id)
	c.deleted++
	if c.deleted > 64 && c.deleted > len(c.order)/2 {
		kept := c.order[:0]
		for _, mid := range c.order {
			if _, ok := c.msgs[mid]; ok {
				kept = append(kept, mid)
			}
		}
		c.order = kept
		c.deleted = 0
	}
}

// maxGone bounds the deleted messages of a chat whose keyboards are kept.
const maxGone = 8

// bury keeps the keyboards a deleted message showed, if it showed any.
func (c *chatState) bury(rec *msgRecord) {
	keyboards := slices.Clone(rec.history)
	if rec.msg.ReplyMarkup != nil {
		keyboards = append(keyboards, rec.msg.ReplyMarkup)
	}
	if len(keyboards) == 0 {
		return
	}
	if c.gone == nil {
		c.gone = map[int][]*InlineKeyboardMarkup{}
	}
	if len(c.goneOrder) == maxGone {
		delete(c.gone, c.goneOrder[0])
		c.goneOrder = append(c.goneOrder[:0], c.goneOrder[1:]...)
	}
	c.gone[rec.msg.MessageID] = keyboards
	c.goneOrder = append(c.goneOrder, rec.msg.MessageID)
}

// existed reports whether the chat ever had a message with the id.
func (c *chatState) existed(id int) bool { return id >= c.firstID && id < c.nextMsgID }

// newest walks messages from the newest back until fn returns true.
func (c *chatState) newest(fn func(*msgRecord) bool) *msgRecord {
	for i := len(c.order) - 1; i >= 0; i-- {
		if rec, ok := c.msgs[c.order[i]]; ok && fn(rec) {
			return rec
		}
	}
	return nil
}

func (c *chatState) messages() []ChatMessage {
	out := make([]ChatMessage, 0, len(c.msgs))
	for _, id := range c.order {
		if rec, ok := c.msgs[id]; ok {
			out = append(out, rec.msg.clone())
		}
	}
	return out
}

// memberOf returns the membership of a user (or the bot) in the chat.
func (w *world) memberOf(c *chatState, userID int64) member {
	if userID == w.bot.ID {
		return c.bot
	}
	if c.chat.Type == ChatPrivate {
		if userID == c.chat.ID && !c.isUserChat() || c.hasPeer(userID) {
			return member{status: StatusMember}
		}
		return member{status: StatusLeft}
	}
	if m, ok := c.members[userID]; ok {
		return *m
	}
	return member{status: StatusLeft}
}

// canPost reports whether a membership lets the user write in the chat.
func (m member) canPost() bool {
	switch m.status {
	case StatusCreator, StatusAdministrator, StatusMember:
		return true
	}
	return false
}

func (m member) isAdmin() bool { return m.status == StatusCreator || m.status == StatusAdministrator }

func (w *world) chatMember(c *chatState, userID int64) ChatMember {
	m := w.memberOf(c, userID)
	u := User{ID: userID}
	if p, ok := w.users[userID]; ok {
		u = *p
	}
	return ChatMember{Status: m.status, User: u, IsAnonymous: m.isAnonymous, CustomTitle: m.customTitle,
		CanDeleteMessages: m.canDelete, IsMember: m.isMember, UntilDate: m.untilDate}
}

// AddUser registers a user and returns it as stored. A zero ID gets a fresh
// one, an empty FirstName becomes "User <id>"; an existing ID is replaced.
func (s *Server) AddUser(u User) User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addUserLocked(u)
}

func (s *Server) addUserLocked(u User) User {
	if u.ID == 0 {
		for s.w.users[s.w.nextUser] != nil {
			s.w.nextUser++
		}
		u.ID = s.w.nextUser
		s.w.nextUser++
	}
	if u.FirstName == "" {
		u.FirstName = "User " + strconv.FormatInt(u.ID, 10)
	}
	stored := u
	s.w.users[u.ID] = &stored
	return u
}

// User returns a registered user.
func (s *Server) User(id int64) (User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, ok := s.w.users[id]; ok {
		return *u, true
	}
	return User{}, false
}

// Users returns every registered user except the bot, ordered by id.
func (s *Server) Users() []User {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]User, 0, len(s.w.users))
	for id, u := range s.w.users {
		if id != s.w.bot.ID {
			out = append(out, *u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ChatSpec describes a chat for AddChat.
type ChatSpec struct {
	// ID is the chat id; 0 allocates one of the right shape (negative for
	// groups, -100… for supergroups). For private chats it is the user's id.
	ID int64
	// Type is ChatGroup (default), ChatSupergroup or ChatPrivate.
	Type string
	// Title names the group.
	Title string
	// IsForum makes a supergroup a forum (topics, message_thread_id).
	IsForum bool
	// Creator is the creator's user id (default: the first member).
	Creator int64
	// Members are user ids that are plain members.
	Members []int64
	// Admins are user ids that are administrators.
	Admins []int64
	// BotStatus is the bot's membership (default StatusMember); use
	// StatusAdministrator, StatusLeft or StatusKicked for other setups.
	BotStatus string
}

// AddChat creates a chat as described, without any update: the chat simply
// exists, as if it had been there before the bot started.
func (s *Server) AddChat(spec ChatSpec) (Chat, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.addChatLocked(spec)
	if err != nil {
		return Chat{}, err
	}
	return c.chat, nil
}

func (s *Server) addChatLocked(spec ChatSpec) (*chatState, error) {
	if spec.Type == "" {
		spec.Type = ChatGroup
	}
	switch spec.Type {
	case ChatPrivate:
		u, ok := s.w.users[spec.ID]
		if !ok {
			return nil, fmt.Errorf("private chat with %d: %w", spec.ID, ErrUserNotFound)
		}
		if c, ok := s.w.chats[u.ID]; ok {
			return c, nil
		}
		c := newChatState(Chat{ID: u.ID, Type: ChatPrivate, FirstName: u.FirstName, LastName: u.LastName, Username: u.Username}, s.w.bot.ID, s.cfg.firstMessageID)
		s.w.chats[u.ID] = c
		return c, nil
	case ChatGroup, ChatSupergroup:
	default:
		return nil, fmt.Errorf("chat type %q: %w", spec.Type, ErrInvalid)
	}
	if spec.IsForum && spec.Type != ChatSupergroup {
		return nil, fmt.Errorf("only supergroups can be forums: %w", ErrInvalid)
	}
	id := spec.ID
	if id == 0 {
		id = s.allocChatIDLocked(spec.Type)
	} else if _, taken := s.w.chats[id]; taken {
		return nil, fmt.Errorf("chat id %d is taken: %w", id, ErrInvalid)
	}
	for _, uid := range append(append([]int64{spec.Creator}, spec.Members...), spec.Admins...) {
		if _, ok := s.w.users[uid]; uid != 0 && !ok {
			return nil, fmt.Errorf("member %d: %w", uid, ErrUserNotFound)
		}
	}
	title := spec.Title
	if title == "" {
		title = "Group " + strconv.FormatInt(-id, 10)
	}
	c := newChatState(Chat{ID: id, Type: spec.Type, Title: title, IsForum: spec.IsForum}, s.w.bot.ID, s.cfg.firstMessageID)
	creator := spec.Creator
	if creator == 0 && len(spec.Members) > 0 {
		creator = spec.Members[0]
	}
	if creator == 0 && len(spec.Admins) > 0 {
		creator = spec.Admins[0]
	}
	for _, uid := range spec.Members {
		c.members[uid] = &member{status: StatusMember}
	}
	for _, uid := range spec.Admins {
		c.members[uid] = &member{status: StatusAdministrator, canDelete: true}
	}
	if creator != 0 {
		c.members[creator] = &member{status: StatusCreator}
	}
	switch spec.BotStatus {
	case "", StatusMember:
		c.bot = member{status: StatusMember}
	case StatusAdministrator:
		c.bot = member{status: StatusAdministrator, canDelete: true}
	case StatusLeft, StatusKicked:
		c.bot = member{status: spec.BotStatus}
	default:
		return nil, fmt.Errorf("bot status %q: %w", spec.BotStatus, ErrInvalid)
	}
	s.w.chats[id] = c
	return c, nil
}

func (s *Server) allocChatIDLocked(chatType string) int64 {
	for {
		var id int64
		if chatType == ChatSupergroup {
			id = -(1000000000000 + s.w.nextChannel)
			s.w.nextChannel++
		} else {
			id = -s.w.nextGroup
			s.w.nextGroup++
		}
		if _, taken := s.w.chats[id]; !taken {
			return id
		}
	}
}

// ensureUsersLocked registers users that are not known yet.
func (s *Server) ensureUsersLocked(users []User) []int64 {
	ids := make([]int64, len(users))
	for i, u := range users {
		if u.ID == 0 || s.w.users[u.ID] == nil {
			u = s.addUserLocked(u)
		}
		ids[i] = u.ID
	}
	return ids
}

func (s *Server) newGroupLocked(spec ChatSpec, members []User) Chat {
	spec.Members = s.ensureUsersLocked(members)
	c, err := s.addChatLocked(spec)
	if err != nil {
		// Cannot happen: users were just registered and the id is fresh.
		panic(fmt.Sprintf("telegramtest: %v", err))
	}
	return c.chat
}

// NewGroup creates a basic group with the bot as a member. The first member
// is the creator; members not registered yet are added with AddUser.
func (s *Server) NewGroup(title string, members ...User) Chat {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newGroupLocked(ChatSpec{Type: ChatGroup, Title: title}, members)
}

// NewSupergroup is NewGroup for a supergroup.
func (s *Server) NewSupergroup(title string, members ...User) Chat {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newGroupLocked(ChatSpec{Type: ChatSupergroup, Title: title}, members)
}

// NewForum is NewGroup for a forum supergroup; create topics with CreateTopic.
func (s *Server) NewForum(title string, members ...User) Chat {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newGroupLocked(ChatSpec{Type: ChatSupergroup, Title: title, IsForum: true}, members)
}

// PrivateChat returns the private chat between the user and the bot,
// registering the user and creating the chat if needed.
func (s *Server) PrivateChat(u User) Chat {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.ensureUsersLocked([]User{u})[0]
	c, err := s.addChatLocked(ChatSpec{Type: ChatPrivate, ID: id})
	if err != nil {
		panic(fmt.Sprintf("telegramtest: %v", err))
	}
	return c.chat
}

// NewUserChat creates the private chat between two users (registering
// them if needed), a chat the bot is no party to: the bot gets none of its
// messages and cannot write in it, but its users may use the bot's inline
// mode (SendInlineQuery) and guest mode (SendGuestMessage) there. Telegram
// shows each user the chat under the other's id; the returned Chat is the
// world's handle for it (type "private", ID from a range of its own, named
// after b), which the Go API takes and the Bot API never accepts ("chat not
// found"). Either user may post, press and delete there.
func (s *Server) NewUserChat(a, b User) (Chat, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := s.ensureUsersLocked([]User{a, b})
	if ids[0] == ids[1] {
		return Chat{}, fmt.Errorf("a chat between user %d and themselves: %w", ids[0], ErrInvalid)
	}
	for _, id := range ids {
		if id == s.w.bot.ID {
			return Chat{}, fmt.Errorf("the bot's own chats are made by PrivateChat: %w", ErrInvalid)
		}
	}
	for _, c := range s.w.chats {
		if c.hasPeer(ids[0]) && c.hasPeer(ids[1]) {
			return c.chat, nil
		}
	}
	id := s.w.nextUserChat
	for s.w.chats[id] != nil || s.w.users[id] != nil {
		id++
	}
	s.w.nextUserChat = id + 1
	other := s.w.users[ids[1]]
	c := newChatState(Chat{ID: id, Type: ChatPrivate, FirstName: other.FirstName, LastName: other.LastName,
		Username: other.Username}, s.w.bot.ID, s.cfg.firstMessageID)
	c.peers = [2]int64{ids[0], ids[1]}
	c.bot = member{status: StatusLeft}
	s.w.chats[id] = c
	return c.chat, nil
}

// Chat returns a chat by id.
func (s *Server) Chat(id int64) (Chat, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.w.chats[id]; ok {
		return c.chat, true
	}
	return Chat{}, false
}

// Chats returns every chat, ordered by id.
func (s *Server) Chats() []Chat {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Chat, 0, len(s.w.chats))
	for _, c := range s.w.chats {
		out = append(out, c.chat)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Member returns a user's (or the bot's) membership in a chat.
func (s *Server) Member(chatID, userID int64) (ChatMember, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.w.chats[chatID]
	if !ok {
		return ChatMember{}, fmt.Errorf("chat %d: %w", chatID, ErrChatNotFound)
	}
	return s.w.chatMember(c, userID), nil
}

// MigratedTo returns the supergroup a group was upgraded to, or 0.
func (s *Server) MigratedTo(chatID int64) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.w.chats[chatID]; ok {
		return c.migratedTo
	}
	return 0
}

// Messages returns a chat's current messages in sending order: edits
// applied, deleted ones gone, service messages included. These are the
// messages every member sees: ephemeral ones are not among them (see
// EphemeralMessages and MessagesSeenBy).
func (s *Server) Messages(chatID int64) []ChatMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.w.chats[chatID]; ok {
		return c.messages()
	}
	return nil
}

// Message returns one current message of a chat.
func (s *Server) Message(chatID int64, messageID int) (ChatMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.w.chats[chatID]; ok {
		if rec := c.get(messageID); rec != nil {
			return rec.msg.clone(), true
		}
	}
	return ChatMessage{}, false
}

// LastMessage returns a chat's newest message.
func (s *Server) LastMessage(chatID int64) (ChatMessage, bool) {
	return s.lastMatching(chatID, func(*msgRecord) bool { return true })
}

// LastBotMessage returns the newest message the bot sent to a chat.
func (s *Server) LastBotMessage(chatID int64) (ChatMessage, bool) {
	return s.lastMatching(chatID, func(r *msgRecord) bool { return r.msg.FromBot })
}

func (s *Server) lastMatching(chatID int64, fn func(*msgRecord) bool) (ChatMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.w.chats[chatID]; ok {
		if rec := c.newest(fn); rec != nil {
			return rec.msg.clone(), true
		}
	}
	return ChatMessage{}, false
}
