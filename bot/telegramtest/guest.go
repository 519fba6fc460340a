package telegramtest

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Guest mode (Bot API 10.0; core.telegram.org/api/bots/guest-mode): a
// user mentions the bot's @username in a message in a private chat, group
// or supergroup the bot is not a member of; the bot gets the message as a
// guest_message update carrying guest_query_id (Client.cpp,
// add_new_guest_query, JsonMessage), and answers it once with
// answerGuestQuery(guest_query_id, result), one InlineQueryResult like an
// inline query's (Client.cpp, process_answer_guest_query_query). The
// answer is posted into the chat by the bot itself, its
// guest_bot_caller_user the summoning user, as an inline message; the
// method returns a SentGuestMessage, {"inline_message_id": …}
// (JsonInlineMessageId), and the bot edits the message by that id as any
// inline message.

// guestQueryDeadline is how long after a guest message answerGuestQuery is
// accepted. Telegram documents none; bot developers report a short window
// in which the answer must come (hermes-agent#21587: "long tool calls
// make the immediate answerGuestQuery response window expire"). Modelled
// as an inline query's.
const guestQueryDeadline = inlineQueryDeadline

type guestQueryState struct {
	id         string
	from       User
	senderChat *Chat // a chat that sent the summoning message, if one did
	chatID     int64
	messageID  int
	sentAt     time.Time
	deadline   time.Time
	answered   bool
	answer     InlineMessage
	done       chan struct{}
}

// sentGuestMessage is answerGuestQuery's result (Bot API docs,
// SentGuestMessage).
type sentGuestMessage struct {
	InlineMessageID string `json:"inline_message_id"`
}

// GuestRequest is a handle on a guest message: the guest_message the bot
// received and, once given, the inline message it answered with.
type GuestRequest struct {
	s     *Server
	state *guestQueryState
	msg   ChatMessage
}

// ID returns the guest query id (the message's guest_query_id).
func (g *GuestRequest) ID() string { return g.state.id }

// Message returns the summoning message as it was posted.
func (g *GuestRequest) Message() ChatMessage { return g.msg.clone() }

// Answer returns the inline message the bot answered with, if it did.
func (g *GuestRequest) Answer() (InlineMessage, bool) {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	return g.state.answer, g.state.answered
}

// Wait blocks until the bot answers the guest message or ctx ends.
func (g *GuestRequest) Wait(ctx context.Context) (InlineMessage, error) {
	if err := g.s.waitCtx(ctx, g.state.done); err != nil {
		return InlineMessage{}, fmt.Errorf("telegramtest: guest query %s not answered: %w", g.state.id, err)
	}
	a, _ := g.Answer()
	return a, nil
}

// guestRefusal says why a message with the text in the chat makes no
// guest query ("" when it makes one): the bot has no guest mode, is a
// member of the chat, the chat is a channel, or the text does not mention
// the bot.
func (s *Server) guestRefusal(c *chatState, text string) string {
	switch {
	case !s.cfg.guest:
		return "the bot has no guest mode (WithGuestMode)"
	case c.chat.Type == ChatChannel:
		return "guest mode works in private chats, groups and supergroups only"
	case c.bot.canPost() || c.chat.Type == ChatPrivate && !c.isUserChat():
		return fmt.Sprintf("the bot is a member of chat %d: it gets the message as a message", c.chat.ID)
	case !s.mentionsBot(text):
		return "the text does not mention @" + s.w.bot.Username
	}
	return ""
}

// mentionsBot reports whether a typed text holds a mention of the bot.
func (s *Server) mentionsBot(text string) bool {
	me := "@" + strings.ToLower(s.w.bot.Username)
	for _, e := range detectEntities(text) {
		if e.Type == EntityMention && strings.ToLower(utf16Slice(text, e.Offset, e.Length)) == me {
			return true
		}
	}
	return false
}

// guestQueryLocked makes the guest query of a posted message and queues
// the guest_message update: the message with its guest_query_id, in the
// chat as its sender sees it (in a chat between users, the other user's
// chat: Telegram does not document which chat the bot is shown there).
func (s *Server) guestQueryLocked(c *chatState, m ChatMessage) *guestQueryState {
	now := s.now()
	g := &guestQueryState{id: s.inline.queryID(s.w.bot.ID), chatID: c.chat.ID, messageID: m.MessageID,
		sentAt: now, deadline: now.Add(guestQueryDeadline), done: make(chan struct{})}
	if m.From != nil {
		g.from = *m.From
	}
	if m.SenderChat != nil {
		sc := *m.SenderChat
		g.senderChat = &sc
	}
	s.inline.addGuest(g)
	u := m.Message.clone()
	u.GuestQueryID = g.id
	if c.isUserChat() {
		u.Chat = s.userChatAsSeenBy(c, g.from.ID)
	}
	s.enqueueLocked(UpdateGuestMessage, Update{GuestMessage: &u})
	return g
}

// userChatAsSeenBy is a chat between users as one of them sees it: the
// private chat with the other.
func (s *Server) userChatAsSeenBy(c *chatState, userID int64) Chat {
	other := c.peers[0]
	if other == userID {
		other = c.peers[1]
	}
	u := s.w.users[other]
	if u == nil {
		return c.chat
	}
	return Chat{ID: u.ID, Type: ChatPrivate, FirstName: u.FirstName, LastName: u.LastName, Username: u.Username}
}

// SendGuestMessage posts a text from a user mentioning the bot in a chat
// the bot is not a member of (a group without it, or a chat between users,
// NewUserChat), which reaches a bot in guest mode (WithGuestMode) as a
// guest_message, and returns a handle to await the answer. Post does the
// same for any text that mentions the bot; SendGuestMessage fails with
// ErrInvalid, posting nothing, when the message would make no guest query.
func (s *Server) SendGuestMessage(chatID, fromID int64, text string) (*GuestRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, _, err := s.actorLocked(chatID, fromID)
	if err != nil {
		return nil, err
	}
	if why := s.guestRefusal(c, text); why != "" {
		return nil, fmt.Errorf("no guest message: %s: %w", why, ErrInvalid)
	}
	m, g, err := s.postLocked(Post{ChatID: chatID, From: fromID, Text: text})
	if err != nil {
		return nil, err
	}
	return &GuestRequest{s: s, state: g, msg: m}, nil
}

// answerGuestQuery checks its arguments as the official server does:
// Client.cpp parses the result (get_inline_query_result: "Result isn't
// specified", then the result's fields, their messages unwrapped), td
// checks its text, and the MTProto server refuses an unknown, answered or
// expired query (QUERY_ID_INVALID, worded "query is too old …") and what
// it refuses of an inline result. The answer is a write into the chat,
// rate limited as a group's message.
func (s *Server) answerGuestQuery(_ context.Context, p params) (any, *apiError) {
	arg := p.str("result")
	if arg == "" {
		return nil, badRequest("result isn't specified")
	}
	v, ok := decodeJSONValue(arg)
	if !ok {
		return nil, badRequest("can't parse JSON encoded web view query results")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, msg := s.inlineResultLocked(v)
	if msg != "" {
		return nil, badRequest(lowerFirst(msg))
	}
	parsed := parsedResults{r}
	if apiErr := parsed.tdError(); apiErr != nil {
		return nil, apiErr
	}
	g := s.inline.guests[p.str("guest_query_id")]
	now := s.now()
	if g == nil || g.answered || now.After(g.deadline) {
		return nil, errQueryTooOld
	}
	if apiErr := parsed.serverError(); apiErr != nil {
		return nil, apiErr
	}
	c := s.w.chats[g.chatID]
	if c == nil {
		return nil, errQueryTooOld
	}
	if retry := s.limits.check(now, c.chat.ID, false); retry > 0 {
		return nil, tooManyRequests(retry)
	}
	bot := s.w.bot
	caller, callerChat := g.from, g.senderChat
	im, _ := s.postInlineLocked(c, func(m *ChatMessage) {
		m.From, m.FromBot = &bot, true
		if callerChat != nil {
			m.GuestBotCallerChat = callerChat
		} else {
			m.GuestBotCallerUser = &caller
		}
		m.Text, m.Entities = r.result.Text, r.result.Entities
		m.ReplyMarkup = r.result.ReplyMarkup.clone()
	})
	s.limits.record(now, c.chat.ID, false)
	g.answered, g.answer = true, im
	close(g.done)
	return sentGuestMessage{InlineMessageID: im.ID}, nil
}
