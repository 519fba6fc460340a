package telegramtest

import (
	"context"
	"strings"
	"time"
)

type methodFunc func(s *Server, ctx context.Context, p params) (any, *apiError)

type methodSpec struct {
	name string
	fn   methodFunc
}

// methodTable maps lower-cased method names (Telegram's are
// case-insensitive) to their handlers.
var methodTable map[string]methodSpec

func init() {
	specs := []methodSpec{
		{"getMe", (*Server).getMe},
		{"getUpdates", (*Server).getUpdates},
		{"setWebhook", (*Server).setWebhook},
		{"deleteWebhook", (*Server).deleteWebhook},
		{"sendMessage", (*Server).sendMessage},
		{"editMessageText", (*Server).editMessageText},
		{"editMessageReplyMarkup", (*Server).editMessageReplyMarkup},
		{"answerInlineQuery", (*Server).answerInlineQuery},
		{"answerGuestQuery", (*Server).answerGuestQuery},
		{"deleteMessage", (*Server).deleteMessage},
		{"answerCallbackQuery", (*Server).answerCallbackQuery},
		{"getChatMember", (*Server).getChatMember},
		{"getChat", (*Server).getChat},
		{"setMyCommands", (*Server).setMyCommands},
		{"getMyCommands", (*Server).getMyCommands},
		{"editEphemeralMessageText", (*Server).editEphemeralMessageText},
		{"editEphemeralMessageReplyMarkup", (*Server).editEphemeralMessageReplyMarkup},
		{"deleteEphemeralMessage", (*Server).deleteEphemeralMessage},
	}
	methodTable = make(map[string]methodSpec, len(specs))
	for _, spec := range specs {
		methodTable[strings.ToLower(spec.name)] = spec
	}
}

type getMeResult struct {
	User
	CanJoinGroups           bool `json:"can_join_groups"`
	CanReadAllGroupMessages bool `json:"can_read_all_group_messages"`
	SupportsInlineQueries   bool `json:"supports_inline_queries"`
	SupportsGuestQueries    bool `json:"supports_guest_queries"`
}

func (s *Server) getMe(context.Context, params) (any, *apiError) {
	return getMeResult{User: s.cfg.bot, CanJoinGroups: true, CanReadAllGroupMessages: !s.cfg.privacy,
		SupportsInlineQueries: s.cfg.inline, SupportsGuestQueries: s.cfg.guest}, nil
}

// sendMessage checks its arguments in the official server's order
// (Client::process_send_message_query, then do_send_message): link preview
// options, text, reply parameters, reply markup, ephemeral message
// parameters (where Bot API 10.3 reads them is not known: with the other
// parameters, before the chat), chat, replied message. With
// ephemeral_message_parameters it sends an ephemeral message
// (sendEphemeralLocked).
func (s *Server) sendMessage(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	text, entities, apiErr := s.textArgsLocked(p)
	if apiErr != nil {
		return nil, apiErr
	}
	target, apiErr := replyArgs(p)
	if apiErr != nil {
		return nil, apiErr
	}
	var markup *InlineKeyboardMarkup
	if raw, ok := p.jsonArg("reply_markup"); ok {
		var other string
		if markup, other, apiErr = parseReplyMarkup(raw); apiErr != nil {
			return nil, apiErr
		}
		if other != "" {
			return nil, notModelled("reply_markup with " + other)
		}
	}
	eph, apiErr := ephemeralArgs(p)
	if apiErr != nil {
		return nil, apiErr
	}
	c, apiErr := s.chatArgLocked(p)
	if apiErr != nil {
		return nil, apiErr
	}
	if eph != nil {
		if apiErr := s.checkWebAppLocked(c, false, markup); apiErr != nil {
			return nil, apiErr
		}
		return s.sendEphemeralLocked(c, p, *eph, target, text, entities, markup)
	}
	if target.ephemeralID != 0 {
		// "A reply to an ephemeral message must itself be an ephemeral
		// message" (Bot API, ReplyParameters): a message every member
		// sees finds none to reply to.
		return nil, errReplyNotFound
	}
	var reply *msgRecord
	if target.messageID != 0 {
		// A reply into another chat (reply_parameters.chat_id naming it) is
		// not modelled: its message is never found.
		if target.inChat == "" || target.inChat == p.str("chat_id") {
			reply = c.get(int(target.messageID))
		}
		if reply == nil && !target.allowWithout {
			return nil, errReplyNotFound
		}
	}
	thread, isTopic, apiErr := s.threadLocked(c, p.integer("message_thread_id", 0), reply)
	if apiErr != nil {
		return nil, apiErr
	}
	// The MTProto server's refusal, after what the official server checks.
	if apiErr := s.checkWebAppLocked(c, false, markup); apiErr != nil {
		return nil, apiErr
	}
	now := s.now()
	private := c.chat.Type == ChatPrivate
	if retry := s.limits.check(now, c.chat.ID, private); retry > 0 {
		return nil, tooManyRequests(retry)
	}
	m := s.newMessageLocked(c)
	// Sent when the limits counted it, so that its event's time is the
	// one the limits hold against the next message.
	m.SentAt, m.Date = now, now.Unix()
	bot := s.w.bot
	m.From = &bot
	m.Text, m.Entities = text, entities
	m.ReplyMarkup = markup
	m.ReplyToMessage = c.replyTo(reply, thread, m.MessageID)
	m.MessageThreadID, m.IsTopicMessage = thread, isTopic
	m.FromBot = true
	s.storeLocked(c, m)
	s.limits.record(now, c.chat.ID, private)
	return m.Message, nil
}

// editTarget is the message an edit method addresses.
type editTarget struct {
	c   *chatState
	rec *msgRecord
	// inline: addressed by inline_message_id, and answered True.
	inline bool
}

// editTargetLocked finds the message an edit method addresses as
// Client.cpp does (process_edit_message_text_query): by
// inline_message_id when the request has neither chat_id nor a
// message_id (see inlineTargetLocked), else by the two.
func (s *Server) editTargetLocked(p params) (editTarget, *apiError) {
	id := max(p.integer("message_id", 0), 0)
	if p.str("chat_id") == "" && id == 0 {
		c, rec, apiErr := s.inlineTargetLocked(p)
		return editTarget{c: c, rec: rec, inline: true}, apiErr
	}
	c, apiErr := s.chatArgLocked(p)
	if apiErr != nil {
		return editTarget{}, apiErr
	}
	if id == 0 {
		return editTarget{}, errMessageIDMissing
	}
	rec := c.get(int(id))
	if rec == nil {
		return editTarget{}, errEditNotFound
	}
	if !rec.msg.FromBot || rec.msg.IsService() || rec.msg.InlineMessageID != "" {
		return editTarget{}, errCantEdit
	}
	return editTarget{c: c, rec: rec}, nil
}

// editMarkupArg reads reply_markup of an edit: absent removes the keyboard,
// as on Telegram; only inline keyboards are allowed.
func editMarkupArg(p params) (*InlineKeyboardMarkup, *apiError) {
	raw, ok := p.jsonArg("reply_markup")
	if !ok {
		return nil, nil
	}
	markup, other, apiErr := parseReplyMarkup(raw)
	if apiErr != nil {
		return nil, apiErr
	}
	if other != "" {
		return nil, badRequest("inline keyboard expected")
	}
	return markup, nil
}

// applyEditLocked changes a bot message or an inline message, counts it
// against the rate limits and reports it. It answers the edited message,
// or True for an inline message (Client.cpp, TdOnEditInlineMessageCallback).
func (s *Server) applyEditLocked(t editTarget, text string, entities []MessageEntity, markup *InlineKeyboardMarkup) (any, *apiError) {
	c, rec := t.c, t.rec
	if rec.msg.Text == text && entitiesEqual(rec.msg.Entities, entities) && markupsEqual(rec.msg.ReplyMarkup, markup) {
		return nil, errNotModified
	}
	now := s.now()
	private := c.chat.Type == ChatPrivate && !t.inline
	if retry := s.limits.check(now, c.chat.ID, private); retry > 0 {
		return nil, tooManyRequests(retry)
	}
	rec.edit(now, text, entities, markup)
	m := rec.msg
	s.limits.record(now, c.chat.ID, private)
	snapshot := m.clone()
	s.emitLocked(Event{Kind: EventMessageEdited, ChatID: c.chat.ID, MessageID: m.MessageID, Message: &snapshot, Time: now})
	if t.inline {
		return true, nil
	}
	return m.Message, nil
}

// edit changes a message's text and keyboard, remembering the keyboard it
// showed before (a stale client may still press it).
func (rec *msgRecord) edit(now time.Time, text string, entities []MessageEntity, markup *InlineKeyboardMarkup) {
	if rec.msg.ReplyMarkup != nil && !markupsEqual(rec.msg.ReplyMarkup, markup) {
		rec.history = append(rec.history, rec.msg.ReplyMarkup)
		if len(rec.history) > maxMarkupHistory {
			rec.history = append(rec.history[:0:0], rec.history[len(rec.history)-maxMarkupHistory:]...)
		}
	}
	m := rec.msg
	m.Text, m.Entities, m.ReplyMarkup = text, entities, markup
	m.EditDate = now.Unix()
	m.EditedAt = now
	m.EditCount++
	rec.msg = m
}

func (s *Server) editMessageText(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	text, entities, apiErr := s.textArgsLocked(p)
	if apiErr != nil {
		return nil, apiErr
	}
	markup, apiErr := editMarkupArg(p)
	if apiErr != nil {
		return nil, apiErr
	}
	t, apiErr := s.editTargetLocked(p)
	if apiErr != nil {
		return nil, apiErr
	}
	if apiErr := s.checkWebAppLocked(t.c, t.inline, markup); apiErr != nil {
		return nil, apiErr
	}
	return s.applyEditLocked(t, text, entities, markup)
}

// editMessageReplyMarkup changes a message's keyboard only, checking its
// arguments as Client.cpp's process_edit_message_reply_markup_query does:
// the keyboard, then the message (editTargetLocked).
func (s *Server) editMessageReplyMarkup(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	markup, apiErr := editMarkupArg(p)
	if apiErr != nil {
		return nil, apiErr
	}
	t, apiErr := s.editTargetLocked(p)
	if apiErr != nil {
		return nil, apiErr
	}
	if apiErr := s.checkWebAppLocked(t.c, t.inline, markup); apiErr != nil {
		return nil, apiErr
	}
	return s.applyEditLocked(t, t.rec.msg.Text, t.rec.msg.Entities, markup)
}

func (s *Server) deleteMessage(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, apiErr := s.chatArgLocked(p)
	if apiErr != nil {
		return nil, apiErr
	}
	id := int(p.integer("message_id", 0))
	if id == 0 {
		return nil, errMessageIDMissing
	}
	rec := c.get(id)
	if rec == nil {
		return nil, errDeleteNotFound
	}
	if apiErr := s.deleteRefusal(c, rec); apiErr != nil {
		return nil, apiErr
	}
	c.remove(id)
	s.emitLocked(Event{Kind: EventMessageDeleted, ChatID: c.chat.ID, MessageID: id})
	return true, nil
}

func (s *Server) getChatMember(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, apiErr := s.chatArgLocked(p)
	if apiErr != nil {
		return nil, apiErr
	}
	uid := p.integer("user_id", 0)
	if uid <= 0 {
		return nil, badRequest("invalid user_id specified")
	}
	if _, ok := s.w.users[uid]; !ok {
		return nil, errUserNotFound
	}
	return s.w.chatMember(c, uid), nil
}
