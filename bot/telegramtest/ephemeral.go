package telegramtest

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Ephemeral messages (Bot API 10.2–10.3, "Ephemeral Messages and
// Commands"): in a group or supergroup, a message that one member and the
// bot see and no other member does. A bot sends one with sendMessage's
// ephemeral_message_parameters (ephemeralsend.go); a member sends one
// by sending a command the bot declared is_ephemeral, or by replying to
// the bot's ephemeral message (Post.Ephemeral), and the bot gets it as an
// ordinary message update with message_id 0 and ephemeral_message_id.
// The ids count from 1 in each chat; Telegram "may reuse" one once its
// message is gone, but TDLib drops a new message with a deleted id
// (MessagesManager::on_new_ephemeral_message checks
// deleted_ephemeral_message_ids), so the server plainly never reuses one.
// Telegram lets them "disappear automatically after some time, or if the
// app is restarted": here they stay until deleted (deleteEphemeralMessage,
// DeleteEphemeral).

// ephemeralWindow is how long after a callback query or an incoming
// ephemeral message a bot that is no administrator may answer it with an
// ephemeral message, and how long an ephemeral message may be replied to
// (Bot API docs: "within 15 seconds of the incoming eligible action";
// ReplyParameters.ephemeral_message_id: "within 15 seconds of being
// sent").
const ephemeralWindow = 15 * time.Second

// ephemeral returns the chat's ephemeral message with the id, nil when
// there is none (never was, or deleted).
func (c *chatState) ephemeral(id int) *msgRecord { return c.eph[id] }

// addEphemeral numbers an ephemeral message and stores it: shown below
// the chat's newest message.
func (c *chatState) addEphemeral(m *ChatMessage) *msgRecord {
	if c.eph == nil {
		c.eph = map[int]*msgRecord{}
	}
	c.lastEph++
	m.MessageID, m.EphemeralMessageID = 0, c.lastEph
	m.ShownAfter = c.nextMsgID - 1
	rec := &msgRecord{msg: *m}
	c.eph[c.lastEph] = rec
	c.ephOrder = append(c.ephOrder, c.lastEph)
	return rec
}

// removeEphemeral deletes an ephemeral message.
func (c *chatState) removeEphemeral(id int) {
	delete(c.eph, id)
	if len(c.ephOrder) > 64 && len(c.eph) < len(c.ephOrder)/2 {
		kept := c.ephOrder[:0]
		for _, eid := range c.ephOrder {
			if c.eph[eid] != nil {
				kept = append(kept, eid)
			}
		}
		c.ephOrder = kept
	}
}

// ephemerals returns the chat's ephemeral messages in sending order.
func (c *chatState) ephemerals() []ChatMessage {
	out := make([]ChatMessage, 0, len(c.eph))
	for _, id := range c.ephOrder {
		if rec := c.eph[id]; rec != nil {
			out = append(out, rec.msg.clone())
		}
	}
	return out
}

// seenBy is the chat as one member sees it (all of it for the bot): every
// message the members see and the ephemeral ones visible to them, each
// below the message that was the newest when it came, or in place of the
// message it replaces (replace_callback_query_message) while it exists,
// as Telegram Desktop anchors one (Data::EphemeralMessages::applyAnchored).
func (c *chatState) seenBy(userID, botID int64) []ChatMessage {
	type placed struct {
		at, sub, eph int
		msg          ChatMessage
	}
	var items []placed
	replaced := map[int]bool{}
	for _, id := range c.ephOrder {
		rec := c.eph[id]
		if rec == nil || userID != botID && rec.msg.VisibleTo != userID {
			continue
		}
		m := rec.msg.clone()
		if m.Replaces != 0 && userID != botID && c.get(m.Replaces) != nil {
			replaced[m.Replaces] = true
			items = append(items, placed{at: m.Replaces, eph: id, msg: m})
			continue
		}
		items = append(items, placed{at: m.ShownAfter, sub: 1, eph: id, msg: m})
	}
	for _, id := range c.order {
		if rec, ok := c.msgs[id]; ok && !replaced[id] {
			items = append(items, placed{at: id, msg: rec.msg.clone()})
		}
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.at != b.at {
			return a.at < b.at
		}
		if a.sub != b.sub {
			return a.sub < b.sub
		}
		return a.eph < b.eph
	})
	out := make([]ChatMessage, len(items))
	for i, it := range items {
		out[i] = it.msg
	}
	return out
}

// emitEphemeralLocked reports a change of an ephemeral message.
func (s *Server) emitEphemeralLocked(kind EventKind, c *chatState, rec *msgRecord, at time.Time) {
	e := Event{Kind: kind, ChatID: c.chat.ID, EphemeralMessageID: rec.msg.EphemeralMessageID, VisibleTo: rec.msg.VisibleTo, Time: at}
	if kind != EventMessageDeleted {
		snapshot := rec.msg.clone()
		e.Message = &snapshot
	}
	s.emitLocked(e)
}

// EphemeralMessages returns a chat's ephemeral messages in sending order,
// whoever sees them: the bot's and its members' ephemeral commands, edits
// applied, deleted ones gone.
func (s *Server) EphemeralMessages(chatID int64) []ChatMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.w.chats[chatID]; ok {
		return c.ephemerals()
	}
	return nil
}

// EphemeralMessage returns one current ephemeral message of a chat.
func (s *Server) EphemeralMessage(chatID int64, ephemeralID int) (ChatMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.w.chats[chatID]; ok {
		if rec := c.ephemeral(ephemeralID); rec != nil {
			return rec.msg.clone(), true
		}
	}
	return ChatMessage{}, false
}

// MessagesSeenBy returns a chat as a user sees it in a client: the
// messages every member sees (Messages) and the ephemeral messages only
// that user sees, each placed below the message that was the chat's
// newest when it came; one sent with replace_callback_query_message is
// shown in place of the pressed message, which the user no longer sees
// while it exists. For the bot's id it is every message of the chat.
func (s *Server) MessagesSeenBy(chatID, userID int64) []ChatMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.w.chats[chatID]; ok {
		return c.seenBy(userID, s.w.bot.ID)
	}
	return nil
}

// DeleteEphemeral deletes an ephemeral message as the member who sees it
// does in a client (Telegram Desktop deletes it with
// ephemeral.deleteMessage), or as Telegram lets it "disappear
// automatically after some time, or if the app is restarted": it is gone
// for the bot too, whose edits of it then fail as of a deleted message.
// The bot is told nothing.
func (s *Server) DeleteEphemeral(chatID, byID int64, ephemeralID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.w.chats[chatID]
	if !ok {
		return fmt.Errorf("chat %d: %w", chatID, ErrChatNotFound)
	}
	rec := c.ephemeral(ephemeralID)
	if rec == nil {
		return fmt.Errorf("ephemeral message %d in chat %d: %w", ephemeralID, chatID, ErrMessageNotFound)
	}
	if rec.msg.VisibleTo != byID {
		return fmt.Errorf("user %d does not see ephemeral message %d in chat %d: %w", byID, ephemeralID, chatID, ErrNotMember)
	}
	c.removeEphemeral(ephemeralID)
	s.emitEphemeralLocked(EventMessageDeleted, c, rec, s.now())
	return nil
}

// SendEphemeralCommand sends "/command args…" ephemerally as a member of a
// group, as a client sends a command the bot declared is_ephemeral (see
// Post.Ephemeral): only the member and the bot see it.
func (s *Server) SendEphemeralCommand(chatID, fromID int64, command string, args ...string) (ChatMessage, error) {
	text := "/" + strings.TrimPrefix(command, "/")
	if len(args) > 0 {
		text += " " + strings.Join(args, " ")
	}
	return s.Post(Post{ChatID: chatID, From: fromID, Text: text, Ephemeral: true})
}

// postEphemeralLocked posts p, whose text and entities are checked, as an
// ephemeral message to the bot, as Telegram Desktop sends one
// (Data::EphemeralMessages::trySend): in a group or supergroup only; a
// command the bot lists with is_ephemeral in the menu the user sees there
// (findCommandBot: "/cmd" or "/cmd@bot", then a space or the end), or any
// text replying to the bot's ephemeral message to the user. A command may
// also reply to a message every member sees. The bot gets it whatever its
// privacy mode: it is addressed to it.
func (s *Server) postEphemeralLocked(c *chatState, u User, p Post, text string, entities []MessageEntity) (ChatMessage, error) {
	switch {
	case !c.isGroup():
		return ChatMessage{}, fmt.Errorf("chat %d is no group: ephemeral messages exist in groups and supergroups only: %w", c.chat.ID, ErrInvalid)
	case p.Anonymous || p.SenderChat != 0:
		return ChatMessage{}, fmt.Errorf("an ephemeral message is sent as oneself, not anonymously or as a channel: %w", ErrInvalid)
	case !c.bot.canPost():
		return ChatMessage{}, fmt.Errorf("bot in chat %d: an ephemeral message goes to a bot of the chat: %w", c.chat.ID, ErrNotMember)
	case p.ReplyToEphemeral != 0 && p.ReplyTo != 0:
		return ChatMessage{}, fmt.Errorf("a reply to message %d and to ephemeral message %d at once: %w", p.ReplyTo, p.ReplyToEphemeral, ErrInvalid)
	}
	if p.ReplyToEphemeral != 0 {
		if to := c.ephemeral(p.ReplyToEphemeral); to == nil || !to.msg.FromBot || to.msg.VisibleTo != u.ID {
			return ChatMessage{}, fmt.Errorf("no ephemeral message %d of the bot to user %d in chat %d: %w", p.ReplyToEphemeral, u.ID, c.chat.ID, ErrMessageNotFound)
		}
	} else if !s.ephemeralCommandLocked(c, u.ID, text) {
		return ChatMessage{}, fmt.Errorf("%q is no command the bot lists with is_ephemeral for user %d in chat %d (setMyCommands): a client sends it as an ordinary message: %w", text, u.ID, c.chat.ID, ErrInvalid)
	}
	var reply *msgRecord
	if p.ReplyTo != 0 {
		if reply = c.get(p.ReplyTo); reply == nil {
			return ChatMessage{}, fmt.Errorf("reply to %d in chat %d: %w", p.ReplyTo, c.chat.ID, ErrMessageNotFound)
		}
	}
	thread, isTopic, apiErr := s.threadLocked(c, int64(p.ThreadID), reply)
	if apiErr != nil {
		return ChatMessage{}, fmt.Errorf("thread %d in chat %d: %w", p.ThreadID, c.chat.ID, ErrInvalid)
	}
	now := s.now()
	bot := s.w.bot
	m := ChatMessage{Message: Message{Date: now.Unix(), Chat: c.chat, From: &u, Text: text, Entities: entities,
		ReceiverUser: &bot, MessageThreadID: thread, IsTopicMessage: isTopic},
		SentAt: now, VisibleTo: u.ID, ReplyToEphemeralMessageID: p.ReplyToEphemeral}
	m.ReplyToMessage = c.replyTo(reply, thread, c.nextMsgID)
	rec := c.addEphemeral(&m)
	s.emitEphemeralLocked(EventMessageSent, c, rec, now)
	update := rec.msg.Message.clone()
	s.enqueueLocked(UpdateMessage, Update{Message: &update})
	return rec.msg.clone(), nil
}

// ephemeralCommandLocked reports whether a text is a command that the
// menu the user sees in the chat lists with is_ephemeral, addressed to no
// other bot: what Telegram Desktop sends ephemerally
// (Data::EphemeralMessages::findCommandBot, ParseCommand).
func (s *Server) ephemeralCommandLocked(c *chatState, userID int64, text string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "/")
	if !ok {
		return false
	}
	word, _, _ := strings.Cut(rest, " ")
	word, _, _ = strings.Cut(word, "\n")
	name, addressee, addressed := strings.Cut(word, "@")
	if name == "" || addressed && !strings.EqualFold(addressee, s.w.bot.Username) {
		return false
	}
	for _, cmd := range s.commandsForLocked(c, userID) {
		if cmd.IsEphemeral && strings.EqualFold(cmd.Command, name) {
			return true
		}
	}
	return false
}
