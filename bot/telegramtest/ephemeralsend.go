package telegramtest

import "context"

// The bot's side of ephemeral messages (see ephemeral.go): sendMessage
// with ephemeral_message_parameters, editEphemeralMessageText,
// editEphemeralMessageReplyMarkup and deleteEphemeralMessage.
//
// Their errors: the official server's code for Bot API 10.2+ is not
// public (tdlib/telegram-bot-api here stops at 10.0), and TDLib checks
// none of the rules below (MessagesManager::send_ephemeral_message,
// MessageQueryManager::edit_ephemeral_message): they come from
// Telegram's MTProto server, passed through as "Bad Request: CODE"
// (Client.cpp, fail_query_with_error), and their codes are not
// documented. The one observed: a private chat answers BOT_NOT_ADMIN.
// The rest are our choice, plausible MTProto codes, each named where it
// is used; where fail_query_with_error words a code (QUERY_ID_INVALID,
// MESSAGE_NOT_MODIFIED) the wording is used.
var (
	// errEphemeralNotAdmin: a chat without ephemeral messages (observed
	// for a private chat), or a bot that is no administrator sending one
	// without a fresh callback query or ephemeral message to answer (our
	// choice).
	errEphemeralNotAdmin = badRequest("BOT_NOT_ADMIN")
	// errReceiverInvalid: a receiver_user_id that names no user (our
	// choice; TDLib's get_input_user passes any valid id on for a bot).
	errReceiverInvalid = badRequest("USER_ID_INVALID")
	// errReceiverIsBot: a receiver that is a bot (our choice).
	errReceiverIsBot = badRequest("USER_IS_BOT")
	// errReceiverNotMember: a receiver who is no member of the chat (our
	// choice).
	errReceiverNotMember = badRequest("USER_NOT_PARTICIPANT")
	// errReplaceInvalid: replace_callback_query_message for a query from
	// an ephemeral message ("Must be False for callback queries from
	// ephemeral messages"), or without a callback query (our choice).
	errReplaceInvalid = badRequest("REPLACE_CALLBACK_QUERY_MESSAGE_INVALID")
)

// ephemeralParams are sendMessage's ephemeral_message_parameters (Bot API
// 10.3, EphemeralMessageParameters).
type ephemeralParams struct {
	receiver int64
	queryID  string
	replace  bool
}

// ephemeralArgs reads ephemeral_message_parameters, nil when absent, as
// the official server reads its other JSON object parameters
// (get_reply_parameters: "Can't parse reply parameters JSON object",
// "Object expected as reply parameters", then td's field getters; the
// wording for this one is inferred from those).
func ephemeralArgs(p params) (*ephemeralParams, *apiError) {
	raw, ok := p.jsonArg("ephemeral_message_parameters")
	if !ok {
		return nil, nil
	}
	obj, ok := decodeJSONValue(raw)
	if !ok {
		return nil, badRequest("can't parse ephemeral message parameters JSON object")
	}
	fields, ok := obj.(map[string]any)
	if !ok {
		return nil, badRequest("object expected as ephemeral message parameters")
	}
	var e ephemeralParams
	var apiErr *apiError
	if e.receiver, apiErr = requiredLong(fields, "receiver_user_id"); apiErr != nil {
		return nil, apiErr
	}
	if e.queryID, apiErr = optionalString(fields, "callback_query_id"); apiErr != nil {
		return nil, apiErr
	}
	if e.replace, apiErr = optionalBool(fields, "replace_callback_query_message"); apiErr != nil {
		return nil, apiErr
	}
	return &e, nil
}

// ephemeralReceiverLocked checks receiver_user_id: "Any bot can send an
// ephemeral message to a user …", "to any non-bot member of the chat"
// (Bot API docs). An id that is no valid user id at all is refused by
// TDLib ("User not found", UserManager::get_input_user).
func (s *Server) ephemeralReceiverLocked(c *chatState, id int64) (User, *apiError) {
	if id <= 0 {
		return User{}, errUserNotFound
	}
	u, ok := s.w.users[id]
	switch {
	case !ok || s.w.deleted[id]:
		return User{}, errReceiverInvalid
	case u.IsBot:
		return User{}, errReceiverIsBot
	}
	m := s.w.memberOf(c, id)
	if !m.canPost() && !(m.status == StatusRestricted && m.isMember) {
		return User{}, errReceiverNotMember
	}
	return *u, nil
}

// sendEphemeralLocked sends the bot's ephemeral message, checking the
// docs' rules ("Ephemeral Messages and Commands") in this order: a group
// or supergroup; the receiver; the reply (an incoming ephemeral message
// of the receiver, at most 15 s old: "A reply to an ephemeral message
// must itself be an ephemeral message. An ephemeral message may only be
// replied to within 15 seconds of being sent", or a message every member
// sees); the callback query (the receiver's, in this chat, at most 15 s
// old; answered or not); replace_callback_query_message; then "Any bot
// can send an ephemeral message to a user within 15 seconds of the
// incoming eligible action", and "If the bot is a chat administrator, it
// can send an ephemeral message to any non-bot member of the chat at any
// time". Its rate limit is our assumption: it is no message of the
// group's timeline, so it counts toward the bot's limit over all chats
// only, not toward the group's 20 a minute nor a chat's one a second.
func (s *Server) sendEphemeralLocked(c *chatState, p params, e ephemeralParams, target replyTarget,
	text string, entities []MessageEntity, markup *InlineKeyboardMarkup) (any, *apiError) {
	if !c.isGroup() {
		return nil, errEphemeralNotAdmin
	}
	receiver, apiErr := s.ephemeralReceiverLocked(c, e.receiver)
	if apiErr != nil {
		return nil, apiErr
	}
	now := s.now()
	fresh := false // answers an eligible action of the last 15 s
	var reply, to *msgRecord
	switch {
	case target.ephemeralID != 0:
		to = c.ephemeral(int(target.ephemeralID))
		if to == nil || to.msg.FromBot || to.msg.VisibleTo != receiver.ID || now.Sub(to.msg.SentAt) > ephemeralWindow {
			return nil, errReplyNotFound
		}
		fresh = true
	case target.messageID != 0:
		if target.inChat == "" || target.inChat == p.str("chat_id") {
			reply = c.get(int(target.messageID))
		}
		if reply == nil && !target.allowWithout {
			return nil, errReplyNotFound
		}
	}
	var query *callbackState
	if e.queryID != "" {
		query = s.callbacks.byID[e.queryID]
		if query == nil || query.from.ID != receiver.ID || query.chatID != c.chat.ID || now.Sub(query.pressedAt) > ephemeralWindow {
			return nil, errQueryTooOld // QUERY_ID_INVALID, as Client.cpp words it
		}
		fresh = true
	}
	if e.replace && (query == nil || query.ephemeralID != 0) {
		return nil, errReplaceInvalid
	}
	if !fresh && !c.bot.isAdmin() {
		return nil, errEphemeralNotAdmin
	}
	thread, isTopic, apiErr := s.threadLocked(c, p.integer("message_thread_id", 0), reply)
	if apiErr != nil {
		return nil, apiErr
	}
	if to != nil && thread == 0 {
		// The answer to a command in a topic shows in that topic.
		thread, isTopic = to.msg.MessageThreadID, to.msg.IsTopicMessage
	}
	if retry := s.limits.checkGlobal(now, c.chat.ID); retry > 0 {
		return nil, tooManyRequests(retry)
	}
	bot := s.w.bot
	m := ChatMessage{Message: Message{Date: now.Unix(), Chat: c.chat, From: &bot, Text: text, Entities: entities,
		ReplyMarkup: markup, ReceiverUser: &receiver, MessageThreadID: thread, IsTopicMessage: isTopic},
		FromBot: true, SentAt: now, VisibleTo: receiver.ID, ReplyToEphemeralMessageID: int(target.ephemeralID)}
	// A reply to an ephemeral message: reply_to_message "may be omitted"
	// (Bot API, Message), and is.
	m.ReplyToMessage = c.replyTo(reply, thread, c.nextMsgID)
	if e.replace && c.get(query.messageID) != nil {
		// "shown in place of the original message" to the receiver, as
		// Telegram Desktop anchors it (applyAnchored); a message gone
		// meanwhile leaves it an ordinary ephemeral message.
		m.Replaces = query.messageID
	}
	rec := c.addEphemeral(&m)
	s.limits.recordGlobal(now)
	s.emitEphemeralLocked(EventMessageSent, c, rec, now)
	return rec.msg.Message.clone(), nil
}

// ephemeralTargetLocked finds the bot's ephemeral message an edit or a
// deletion names, checking in the order the official server would:
// receiver_user_id as Client::get_user_id reads one ("Invalid
// receiver_user_id specified"), the chat, ephemeral_message_id; then a
// message of the bot to that receiver, else notFound (our choice, as for
// a regular message; the MTProto server's code is not known).
func (s *Server) ephemeralTargetLocked(p params, notFound *apiError) (*chatState, *msgRecord, *apiError) {
	receiver := p.integer("receiver_user_id", 0)
	if receiver <= 0 {
		return nil, nil, badRequest("invalid receiver_user_id specified")
	}
	c, apiErr := s.chatArgLocked(p)
	if apiErr != nil {
		return nil, nil, apiErr
	}
	id := p.integer("ephemeral_message_id", 0)
	if id <= 0 {
		return nil, nil, errMessageIDMissing
	}
	rec := c.ephemeral(int(id))
	if rec == nil || !rec.msg.FromBot || rec.msg.VisibleTo != receiver {
		return nil, nil, notFound
	}
	return c, rec, nil
}

// editEphemeralLocked changes the bot's ephemeral message and answers
// True ("On success, True is returned"). It counts toward the bot's
// limit over all chats only, as the message does.
func (s *Server) editEphemeralLocked(c *chatState, rec *msgRecord, text string, entities []MessageEntity, markup *InlineKeyboardMarkup) (any, *apiError) {
	if rec.msg.Text == text && entitiesEqual(rec.msg.Entities, entities) && markupsEqual(rec.msg.ReplyMarkup, markup) {
		return nil, errNotModified
	}
	now := s.now()
	if retry := s.limits.checkGlobal(now, c.chat.ID); retry > 0 {
		return nil, tooManyRequests(retry)
	}
	rec.edit(now, text, entities, markup)
	s.limits.recordGlobal(now)
	s.emitEphemeralLocked(EventMessageEdited, c, rec, now)
	return true, nil
}

// editEphemeralMessageText reads its arguments as editMessageText's (the
// text, then reply_markup: absent removes the keyboard), then the message
// (ephemeralTargetLocked).
func (s *Server) editEphemeralMessageText(_ context.Context, p params) (any, *apiError) {
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
	c, rec, apiErr := s.ephemeralTargetLocked(p, errEditNotFound)
	if apiErr != nil {
		return nil, apiErr
	}
	if apiErr := s.checkWebAppLocked(c, false, markup); apiErr != nil {
		return nil, apiErr
	}
	return s.editEphemeralLocked(c, rec, text, entities, markup)
}

// editEphemeralMessageReplyMarkup changes only the keyboard of the bot's
// ephemeral message (absent reply_markup removes it).
func (s *Server) editEphemeralMessageReplyMarkup(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	markup, apiErr := editMarkupArg(p)
	if apiErr != nil {
		return nil, apiErr
	}
	c, rec, apiErr := s.ephemeralTargetLocked(p, errEditNotFound)
	if apiErr != nil {
		return nil, apiErr
	}
	if apiErr := s.checkWebAppLocked(c, false, markup); apiErr != nil {
		return nil, apiErr
	}
	return s.editEphemeralLocked(c, rec, rec.msg.Text, rec.msg.Entities, markup)
}

// deleteEphemeralMessage deletes the bot's ephemeral message and answers
// True. Deletions are not rate limited, as deleteMessage is not here. A
// message shown in place of a pressed one gives that one back to its
// receiver (Telegram Desktop, revertAnchored).
func (s *Server) deleteEphemeralMessage(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, rec, apiErr := s.ephemeralTargetLocked(p, errDeleteNotFound)
	if apiErr != nil {
		return nil, apiErr
	}
	c.removeEphemeral(rec.msg.EphemeralMessageID)
	s.emitEphemeralLocked(EventMessageDeleted, c, rec, s.now())
	return true, nil
}
