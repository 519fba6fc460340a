package telegramtest

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Inline mode (Bot API docs, "Inline mode"): a user types the bot's
// username and a query in any chat (SendInlineQuery); the bot answers the
// inline_query with answerInlineQuery; the result the user chooses
// (ChooseInlineResult) is posted in the chat by the user "via @bot", with
// the result's inline keyboard, as an inline message that the bot edits
// by inline_message_id only (editMessageText, editMessageReplyMarkup) and
// whose presses reach it with inline_message_id and no message.
const (
	// inlineQueryDeadline is how long after an inline query
	// answerInlineQuery is accepted. Telegram documents none; bot
	// developers find answers refused some 10 s after the query
	// (pyTelegramBotAPI#270, #1615: "query is too old and response
	// timeout expired or query ID is invalid").
	inlineQueryDeadline = 10 * time.Second
	// maxInlineQuery is the longest query, in characters (Bot API docs,
	// InlineQuery.query: "up to 256 characters").
	maxInlineQuery = 256
	// maxInlineResults is the most results an answer may hold (Client.cpp,
	// get_inline_query_results: MAX_INLINE_QUERY_RESULT_COUNT).
	maxInlineResults = 50
	// maxResultID is the longest result id, in bytes (Bot API docs,
	// InlineQueryResultArticle.id: "1-64 Bytes"; longer or empty ones the
	// server refuses with RESULT_ID_INVALID).
	maxResultID = 64
	// inlineQueriesKept bounds the remembered queries (and so the ones a
	// user may still choose a result of).
	inlineQueriesKept = 1024
	// defaultCacheTime is answerInlineQuery's cache_time when not given
	// (Client.cpp, process_answer_inline_query_query: 300, clamped to a day).
	defaultCacheTime = 300
)

// Errors of answerInlineQuery, answerGuestQuery and the edits of inline
// messages. The official server lowers the first letter of td's messages
// and passes the MTProto server's (all capitals) as they are
// (Client.cpp, fail_query_with_error).
var (
	errTooManyResults   = badRequest("too many inline query results specified")
	errResultIDInvalid  = badRequest("RESULT_ID_INVALID")
	errResultIDDup      = badRequest("RESULT_ID_DUPLICATE")
	errArticleTitle     = badRequest("ARTICLE_TITLE_EMPTY")
	errInlineTextLong   = badRequest("MESSAGE_TOO_LONG")
	errInlineTextBlank  = badRequest("text must be non-empty")
	errMessageIDInvalid = badRequest("MESSAGE_ID_INVALID")
	// errInlineIDInvalid answers an inline_message_id that is no
	// base64url-encoded InputBotInlineMessageID (td, InlineMessageManager.cpp,
	// get_input_bot_inline_message_id).
	errInlineIDInvalid = badRequest("invalid inline message identifier specified")
)

// InlineResult is one result of the bot's answer to an inline query: an
// InlineQueryResultArticle posting an InputTextMessageContent, the kind
// modelled.
type InlineResult struct {
	// ID is the result's id, 1 to 64 bytes, unique in its answer.
	ID string `json:"id"`
	// Title and Description are what the user's client lists.
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	// Text and Entities are the message the result posts, parsed as
	// sendMessage parses a text (parse_mode HTML or none).
	Text     string          `json:"text"`
	Entities []MessageEntity `json:"entities,omitempty"`
	// ReplyMarkup is the inline keyboard the posted message shows.
	ReplyMarkup *InlineKeyboardMarkup `json:"reply_markup,omitempty"`
}

// InlineAnswer is the bot's answer to an inline query.
type InlineAnswer struct {
	// Results are the results in the bot's order.
	Results []InlineResult `json:"results"`
	// CacheTime, IsPersonal and NextOffset are answerInlineQuery's
	// arguments; results are never cached here: every query reaches the bot.
	CacheTime  int    `json:"cache_time"`
	IsPersonal bool   `json:"is_personal,omitempty"`
	NextOffset string `json:"next_offset,omitempty"`
	// AnsweredAt is the server clock's time of the answer.
	AnsweredAt time.Time `json:"answered_at"`
	// Latency is the time from the query to the answer.
	Latency time.Duration `json:"latency"`
}

// Result returns the answer's result with the id.
func (a InlineAnswer) Result(id string) (InlineResult, bool) {
	for _, r := range a.Results {
		if r.ID == id {
			return r, true
		}
	}
	return InlineResult{}, false
}

// InlineMessage names a message posted through the bot rather than sent
// by it (a chosen inline result, a guest answer): the bot knows it by ID
// only; ChatID and MessageID are where the world keeps it.
type InlineMessage struct {
	ID        string `json:"inline_message_id"`
	ChatID    int64  `json:"chat_id"`
	MessageID int    `json:"message_id"`
}

type inlineQueryState struct {
	id       string
	from     User
	chatID   int64
	query    string
	chatType string
	sentAt   time.Time
	deadline time.Time
	answered bool
	answer   InlineAnswer
	done     chan struct{}
}

// inlineTable holds the inline queries still remembered and every inline
// message by id; it is guarded by Server.mu.
type inlineTable struct {
	queries    map[string]*inlineQueryState
	order      []string // query ids, oldest first
	guests     map[string]*guestQueryState
	guestOrder []string // guest query ids, oldest first
	messages   map[string]InlineMessage
	count      uint64
}

func (t *inlineTable) init() {
	t.queries = map[string]*inlineQueryState{}
	t.guests = map[string]*guestQueryState{}
	t.messages = map[string]InlineMessage{}
}

// queryID makes the id of an inline query or a guest query: a number, as
// Telegram's are (Client.cpp writes td::to_string of an int64).
func (t *inlineTable) queryID(botID int64) string {
	t.count++
	return strconv.FormatUint(uint64(botID%1000000)<<32|1<<31|t.count, 10)
}

func (t *inlineTable) addQuery(q *inlineQueryState) {
	t.order = remember(t.order, q.id, func(id string) { delete(t.queries, id) })
	t.queries[q.id] = q
}

func (t *inlineTable) addGuest(g *guestQueryState) {
	t.guestOrder = remember(t.guestOrder, g.id, func(id string) { delete(t.guests, id) })
	t.guests[g.id] = g
}

// remember appends id to the ids kept, oldest first, forgetting the
// oldest with forget once inlineQueriesKept are kept.
func remember(ids []string, id string, forget func(string)) []string {
	if len(ids) >= inlineQueriesKept {
		forget(ids[0])
		ids = append(ids[:0], ids[1:]...)
	}
	return append(ids, id)
}

// InlineRequest is a handle on an inline query a user sent: the
// inline_query the bot received and, once given, its answer.
type InlineRequest struct {
	s     *Server
	state *inlineQueryState
}

// ID returns the inline query id.
func (q *InlineRequest) ID() string { return q.state.id }

// ChatType returns the query's chat_type.
func (q *InlineRequest) ChatType() string { return q.state.chatType }

// From returns the id of the user who sent the query.
func (q *InlineRequest) From() int64 { return q.state.from.ID }

// ChatID returns the id of the chat the query was typed in.
func (q *InlineRequest) ChatID() int64 { return q.state.chatID }

// Query returns the query's text.
func (q *InlineRequest) Query() string { return q.state.query }

// Deadline returns when, by the server's clock, the query can no longer be
// answered.
func (q *InlineRequest) Deadline() time.Time { return q.state.deadline }

// Answer returns the bot's answer if it gave one.
func (q *InlineRequest) Answer() (InlineAnswer, bool) {
	q.s.mu.Lock()
	defer q.s.mu.Unlock()
	return q.state.answer, q.state.answered
}

// Wait blocks until the bot answers the query or ctx ends.
func (q *InlineRequest) Wait(ctx context.Context) (InlineAnswer, error) {
	if err := q.s.waitCtx(ctx, q.state.done); err != nil {
		return InlineAnswer{}, fmt.Errorf("telegramtest: inline query %s (%q) not answered: %w", q.state.id, q.state.query, err)
	}
	a, _ := q.Answer()
	return a, nil
}

// InlineQuery returns the handle of the inline query id, while the server
// remembers it (the last 1024 sent); false for an unknown or forgotten id.
func (s *Server) InlineQuery(id string) (*InlineRequest, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.inline.queries[id]
	if !ok {
		return nil, false
	}
	return &InlineRequest{s: s, state: q}, true
}

// inlineChatType is the chat_type of an inline query from the user in the
// chat (Client.cpp, JsonInlineQuery): "sender" in the user's own private
// chat with the bot, "private" in a chat with another user.
func inlineChatType(c *chatState, from int64) string {
	switch {
	case c.chat.Type != ChatPrivate:
		return c.chat.Type
	case !c.isUserChat() && c.chat.ID == from:
		return "sender"
	}
	return ChatPrivate
}

// SendInlineQuery sends the bot an inline query as a user typing
// "@bot query" in a chat (for the user's private chat with the bot, the
// user's id; a chat the bot is not in works as well), and returns a handle
// to await the answer. The bot needs inline mode (WithInlineMode). Every
// query reaches the bot: Telegram's cache of answers (cache_time) is not
// modelled, nor are inline queries from channels and secret chats, a
// user's location or the offset of a next page (always "").
func (s *Server) SendInlineQuery(chatID, fromID int64, query string) (*InlineRequest, error) {
	if !s.cfg.inline {
		return nil, fmt.Errorf("the bot has no inline mode (WithInlineMode): %w", ErrInvalid)
	}
	if n := utf8.RuneCountInString(query); n > maxInlineQuery {
		return nil, fmt.Errorf("an inline query of %d characters is over %d: %w", n, maxInlineQuery, ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, u, err := s.actorLocked(chatID, fromID)
	if err != nil {
		return nil, err
	}
	if c.chat.Type == ChatChannel {
		return nil, fmt.Errorf("inline queries from channels are not modelled: %w", ErrInvalid)
	}
	now := s.now()
	q := &inlineQueryState{id: s.inline.queryID(s.w.bot.ID), from: u, chatID: c.chat.ID, query: query,
		chatType: inlineChatType(c, u.ID), sentAt: now, deadline: now.Add(inlineQueryDeadline), done: make(chan struct{})}
	s.inline.addQuery(q)
	s.enqueueLocked(UpdateInlineQuery, Update{InlineQuery: &InlineQuery{ID: q.id, From: u, ChatType: q.chatType, Query: query}})
	return &InlineRequest{s: s, state: q}, nil
}

// answerInlineQuery checks its arguments in the official server's order:
// what Client.cpp parses (process_answer_inline_query_query: button,
// results, each wrapped "Can't parse inline query result: …"), then what
// td checks of each result's text, then what the MTProto server refuses:
// an unknown, answered or expired query (QUERY_ID_INVALID, which
// Client.cpp words "query is too old …"), result ids (RESULT_ID_INVALID,
// RESULT_ID_DUPLICATE), an empty title, a text too long.
func (s *Server) answerInlineQuery(_ context.Context, p params) (any, *apiError) {
	if arg := p.str("button"); arg != "" {
		if _, ok := decodeJSONValue(arg); !ok {
			return nil, badRequest("can't parse inline query results button JSON object")
		}
		return nil, notModelled("answerInlineQuery's button")
	}
	if p.has("switch_pm_text") {
		return nil, notModelled("answerInlineQuery's switch_pm_text")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	parsed, apiErr := s.inlineResultsLocked(p.str("results"))
	if apiErr != nil {
		return nil, apiErr
	}
	if apiErr := parsed.tdError(); apiErr != nil {
		return nil, apiErr
	}
	q := s.inline.queries[p.str("inline_query_id")]
	now := s.now()
	if q == nil || q.answered || now.After(q.deadline) {
		return nil, errQueryTooOld
	}
	if apiErr := parsed.serverError(); apiErr != nil {
		return nil, apiErr
	}
	q.answered = true
	q.answer = InlineAnswer{Results: parsed.results(), CacheTime: int(p.clamped("cache_time", defaultCacheTime, 0, 86400)),
		IsPersonal: p.boolean("is_personal"), NextOffset: p.str("next_offset"), AnsweredAt: now, Latency: now.Sub(q.sentAt)}
	close(q.done)
	return true, nil
}

// inlineMessageID makes the inline_message_id of a message, as td makes
// one (InlineQueriesManager::get_inline_message_id): the base64url of an
// InputBotInlineMessageID64 (dc_id int32, owner_id int64, id int32,
// access_hash int64, little-endian), 32 characters.
func (s *Server) inlineMessageIDLocked(c *chatState, messageID int) string {
	s.inline.count++
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d/%d/%d", s.w.bot.ID, c.chat.ID, messageID, s.inline.count)
	b := make([]byte, 24)
	binary.LittleEndian.PutUint32(b[0:], 2)
	binary.LittleEndian.PutUint64(b[4:], uint64(c.chat.ID))
	binary.LittleEndian.PutUint32(b[12:], uint32(messageID))
	binary.LittleEndian.PutUint64(b[16:], h.Sum64())
	return base64.RawURLEncoding.EncodeToString(b)
}

// wellFormedInlineID reports whether id decodes as td decodes one
// (InlineMessageManager.cpp, parse_input_bot_inline_message_id): base64url,
// padded or not, of 20 bytes (InputBotInlineMessageID) or 24
// (InputBotInlineMessageID64), whose dc_id is 1 to 1000.
func wellFormedInlineID(id string) bool {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(id, "="))
	if err != nil || len(id)-len(strings.TrimRight(id, "=")) > 2 || len(b) != 20 && len(b) != 24 {
		return false
	}
	dc := int32(binary.LittleEndian.Uint32(b))
	return dc >= 1 && dc <= 1000
}

// postInlineLocked posts a message through the bot into the chat (a
// chosen result by a user, a guest answer by the bot itself) and records
// it as an inline message.
func (s *Server) postInlineLocked(c *chatState, fill func(*ChatMessage)) (InlineMessage, ChatMessage) {
	m := s.newMessageLocked(c)
	fill(&m)
	m.InlineMessageID = s.inlineMessageIDLocked(c, m.MessageID)
	if c.inlineIDs == nil {
		c.inlineIDs = map[int]string{}
	}
	c.inlineIDs[m.MessageID] = m.InlineMessageID
	im := InlineMessage{ID: m.InlineMessageID, ChatID: c.chat.ID, MessageID: m.MessageID}
	s.inline.messages[im.ID] = im
	s.storeLocked(c, m)
	return im, m
}

// ChooseInlineResult makes the user who sent an inline query choose one
// of the results the bot answered with: the result's message is posted
// in the query's chat from the user, "via" the bot (via_bot), with the
// result's keyboard, as an inline message. With inline feedback on
// (WithInlineFeedback) the bot gets a chosen_inline_result, carrying the
// inline_message_id when the result has a keyboard (Bot API docs,
// ChosenInlineResult); a bot in the chat gets the message too, as every
// message sent via it (Bot FAQ, privacy mode). It fails with ErrInvalid
// for an unknown or unanswered query or a result the answer does not hold.
func (s *Server) ChooseInlineResult(queryID, resultID string) (InlineMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.inline.queries[queryID]
	if q == nil {
		return InlineMessage{}, fmt.Errorf("inline query %q: %w", queryID, ErrInvalid)
	}
	if !q.answered {
		return InlineMessage{}, fmt.Errorf("inline query %s has no answer to choose from: %w", queryID, ErrInvalid)
	}
	result, ok := q.answer.Result(resultID)
	if !ok {
		return InlineMessage{}, fmt.Errorf("inline query %s has no result %q: %w", queryID, resultID, ErrInvalid)
	}
	c, u, err := s.actorLocked(q.chatID, q.from.ID)
	if err != nil {
		return InlineMessage{}, err
	}
	bot := s.w.bot
	im, m := s.postInlineLocked(c, func(m *ChatMessage) {
		m.From, m.ViaBot = &u, &bot
		m.Text, m.Entities = result.Text, result.Entities
		m.ReplyMarkup = result.ReplyMarkup.clone()
	})
	if s.botReceives(c, &m) {
		s.enqueueLocked(UpdateMessage, Update{Message: &m.Message})
	}
	if s.cfg.inlineFeedback {
		chosen := &ChosenInlineResult{ResultID: resultID, From: u, Query: q.query}
		if m.ReplyMarkup != nil {
			chosen.InlineMessageID = im.ID
		}
		s.enqueueLocked(UpdateChosenInlineResult, Update{ChosenInlineResult: chosen})
	}
	return im, nil
}

// InlineMessage returns an inline message as it stands; false when no
// inline message has the id or it was deleted.
func (s *Server) InlineMessage(id string) (ChatMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	im, ok := s.inline.messages[id]
	if !ok {
		return ChatMessage{}, false
	}
	if c := s.w.chats[im.ChatID]; c != nil {
		if rec := c.get(im.MessageID); rec != nil {
			return rec.msg.clone(), true
		}
	}
	return ChatMessage{}, false
}

// InlinePress describes a press of a button on an inline message: by
// Label on its keyboard (or, deleted, the keyboard it last showed), or
// arbitrary callback Data.
type InlinePress struct {
	// From is the pressing user's id, who must see the message's chat.
	From int64
	// InlineMessageID is the pressed message.
	InlineMessageID string
	// Label is the button text.
	Label string
	// Data, when Label is empty, is sent as callback data as is.
	Data string
}

// PressInline queues a callback_query as if the user pressed a button of
// an inline message: it carries inline_message_id and the chat's
// chat_instance, and no message (Client.cpp, JsonInlineCallbackQuery),
// whether or not the bot is in the chat. Press on the message's chat and
// id does the same.
func (s *Server) PressInline(p InlinePress) (*Callback, error) {
	s.mu.Lock()
	im, err := s.inlineMessageLocked(p.InlineMessageID)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return s.Press(Press{ChatID: im.ChatID, From: p.From, MessageID: im.MessageID, Label: p.Label, Data: p.Data})
}

// DeleteInlineMessage deletes an inline message as user byID does in a
// client (see DeleteMessage). The bot is told nothing; its edits fail
// from then on with "MESSAGE_ID_INVALID".
func (s *Server) DeleteInlineMessage(byID int64, inlineMessageID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	im, err := s.inlineMessageLocked(inlineMessageID)
	if err != nil {
		return err
	}
	return s.deleteMessageLocked(im.ChatID, byID, im.MessageID)
}

// inlineMessageLocked finds an inline message by id, deleted or not.
func (s *Server) inlineMessageLocked(id string) (InlineMessage, error) {
	im, ok := s.inline.messages[id]
	if !ok {
		return InlineMessage{}, fmt.Errorf("inline message %q: %w", id, ErrMessageNotFound)
	}
	return im, nil
}

// inlineTargetLocked finds the inline message an edit addresses by
// inline_message_id, answering like the official server: no id "message
// identifier is not specified" (Client.cpp, get_inline_message_id), one
// td cannot decode "invalid inline message identifier specified", one of
// no message, or of a deleted one, the MTProto server's
// "MESSAGE_ID_INVALID".
func (s *Server) inlineTargetLocked(p params) (*chatState, *msgRecord, *apiError) {
	id := p.str("inline_message_id")
	if id == "" {
		return nil, nil, errMessageIDMissing
	}
	if !wellFormedInlineID(id) {
		return nil, nil, errInlineIDInvalid
	}
	im, ok := s.inline.messages[id]
	if !ok {
		return nil, nil, errMessageIDInvalid
	}
	c := s.w.chats[im.ChatID]
	if c == nil {
		return nil, nil, errMessageIDInvalid
	}
	rec := c.get(im.MessageID)
	if rec == nil {
		return nil, nil, errMessageIDInvalid
	}
	return c, rec, nil
}

// ChatInstance returns the chat_instance the bot's presses on inline
// messages in the chat carry: a stable string per chat (and per bot),
// as Telegram's "global identifier, uniquely corresponding to the chat".
func (s *Server) ChatInstance(chatID int64) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.w.chats[chatID]
	if !ok {
		return "", false
	}
	return c.instance, true
}
