package telegramtest

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// maxAnswerText is Telegram's limit on a callback answer's text, in characters.
const maxAnswerText = 200

// callbackGrace is how long past its deadline a press is remembered, so
// that late answers are counted in RejectedAnswers.
const callbackGrace = 10 * time.Second

// CallbackAnswer is the bot's answer to a button press.
type CallbackAnswer struct {
	// Text and ShowAlert are answerCallbackQuery's arguments; cache_time
	// only matters to clients.
	Text      string `json:"text,omitempty"`
	ShowAlert bool   `json:"show_alert,omitempty"`
	// URL is the link the presser's client opens: the bot's deep link
	// (t.me/<bot>?start=…), the only kind modelled. Follow it with
	// OpenLink, as the client does.
	URL string `json:"url,omitempty"`
	// AnsweredAt is the server clock's time of the answer.
	AnsweredAt time.Time `json:"answered_at"`
	// Latency is the time from the press to the answer.
	Latency time.Duration `json:"latency"`
}

type callbackState struct {
	id        string
	data      string
	from      User
	chatID    int64
	messageID int
	inlineID  string // the pressed inline message's inline_message_id, "" for a bot message
	// ephemeralID is the pressed ephemeral message's id, 0 for another.
	ephemeralID int
	pressedAt   time.Time
	deadline    time.Time
	gone        bool // the message was sent as an InaccessibleMessage
	answered    bool
	answer      CallbackAnswer
	rejected    int // answer attempts refused (twice, too late)
	done        chan struct{}
}

// callbackTable tracks the presses whose answers are still accepted; it is
// guarded by Server.mu. Old entries are forgotten in press order.
type callbackTable struct {
	byID  map[string]*callbackState
	fifo  []*callbackState
	head  int
	count uint64
}

func (t *callbackTable) init() { t.byID = map[string]*callbackState{} }

func (t *callbackTable) add(now time.Time, cs *callbackState) {
	for t.head < len(t.fifo) && now.After(t.fifo[t.head].deadline.Add(callbackGrace)) {
		delete(t.byID, t.fifo[t.head].id)
		t.fifo[t.head] = nil
		t.head++
	}
	if t.head > 1024 && t.head > len(t.fifo)/2 {
		n := copy(t.fifo, t.fifo[t.head:])
		clear(t.fifo[n:])
		t.fifo = t.fifo[:n]
		t.head = 0
	}
	t.byID[cs.id] = cs
	t.fifo = append(t.fifo, cs)
}

// Callback is a handle on a button press: the callback_query the bot
// received and, once given, its answer.
type Callback struct {
	s     *Server
	state *callbackState
}

// ID returns the callback query id.
func (c *Callback) ID() string { return c.state.id }

// Data returns the callback data sent to the bot.
func (c *Callback) Data() string { return c.state.data }

// MessageID returns the pressed message.
func (c *Callback) MessageID() int { return c.state.messageID }

// InlineMessageID returns the pressed inline message's inline_message_id,
// "" when the press was on a message of the bot.
func (c *Callback) InlineMessageID() string { return c.state.inlineID }

// EphemeralMessageID returns the pressed ephemeral message's id, 0 when
// the press was on another message.
func (c *Callback) EphemeralMessageID() int { return c.state.ephemeralID }

// Inaccessible reports whether the pressed message reached the bot as an
// InaccessibleMessage (deleted, or too old: see WithInaccessibleAfter).
func (c *Callback) Inaccessible() bool { return c.state.gone }

// Answer returns the answer if the bot has given one.
func (c *Callback) Answer() (CallbackAnswer, bool) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.state.answer, c.state.answered
}

// Wait blocks until the bot answers the press or ctx ends.
func (c *Callback) Wait(ctx context.Context) (CallbackAnswer, error) {
	if err := c.s.waitCtx(ctx, c.state.done); err != nil {
		return CallbackAnswer{}, fmt.Errorf("telegramtest: callback %s (data %q) not answered: %w", c.state.id, c.state.data, err)
	}
	a, _ := c.Answer()
	return a, nil
}

// Press describes a button press. Give Label to press a button by its text
// (on MessageID, or else on the newest message in the chat showing it), or
// Data to send arbitrary callback data (a forged or stale press) on MessageID.
// MessageID may name a deleted message, as a client that has not seen the
// deletion yet shows it: by Label on one of the last few deleted ones that
// had a keyboard, by Data on any. The bot then gets the message as an
// InaccessibleMessage.
type Press struct {
	// ChatID is the chat of the message.
	ChatID int64
	// From is the pressing user's id.
	From int64
	// MessageID is the message whose button is pressed (0: find by Label).
	MessageID int
	// Label is the button text. With MessageID it is looked up in the
	// message's current keyboard, then in the keyboards it showed before
	// edits, newest first, as a client with a stale view would press it.
	Label string
	// Data, when Label is empty, is sent as callback data as is.
	Data string
	// EphemeralMessageID, in place of MessageID, presses a button of the
	// bot's ephemeral message, which only its receiver sees and presses
	// (by Label on its keyboard or an earlier one, or Data). A deleted one
	// cannot be pressed: a client drops it at once.
	EphemeralMessageID int
}

// PressButton presses the button labelled label on the newest message of
// the chat that shows it.
func (s *Server) PressButton(chatID, fromID int64, label string) (*Callback, error) {
	return s.Press(Press{ChatID: chatID, From: fromID, Label: label})
}

// Press queues a callback_query update for the bot as if the user had
// pressed an inline button, and returns a handle to await the answer.
func (s *Server) Press(p Press) (*Callback, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, u, err := s.actorLocked(p.ChatID, p.From)
	if err != nil {
		return nil, err
	}
	if p.EphemeralMessageID != 0 {
		return s.pressEphemeralLocked(c, u, p)
	}
	var rec *msgRecord
	id := p.MessageID
	data := p.Data
	switch {
	case p.Label != "" && p.MessageID == 0:
		rec = c.newest(func(r *msgRecord) bool {
			b, ok := findButton(r.msg.ReplyMarkup, p.Label)
			return ok && b.CallbackData != ""
		})
		if rec == nil {
			return nil, fmt.Errorf("no message in chat %d shows a callback button %q: %w", c.chat.ID, p.Label, ErrButtonNotFound)
		}
		b, _ := findButton(rec.msg.ReplyMarkup, p.Label)
		data, id = b.CallbackData, rec.msg.MessageID
	case p.Label != "":
		keyboards, buried := c.gone[p.MessageID]
		if rec = c.get(p.MessageID); rec != nil {
			keyboards = append(slices.Clone(rec.history), rec.msg.ReplyMarkup)
		} else if !buried {
			return nil, fmt.Errorf("message %d in chat %d: %w", p.MessageID, c.chat.ID, ErrMessageNotFound)
		}
		var b InlineKeyboardButton
		ok := false
		for i := len(keyboards) - 1; !ok && i >= 0; i-- {
			b, ok = findButton(keyboards[i], p.Label)
		}
		if !ok || b.CallbackData == "" {
			return nil, fmt.Errorf("message %d in chat %d never showed a callback button %q: %w", p.MessageID, c.chat.ID, p.Label, ErrButtonNotFound)
		}
		data = b.CallbackData
	default:
		if rec = c.get(p.MessageID); rec == nil && !c.existed(p.MessageID) {
			return nil, fmt.Errorf("message %d in chat %d: %w", p.MessageID, c.chat.ID, ErrMessageNotFound)
		}
		if data == "" {
			return nil, fmt.Errorf("press without Label or Data: %w", ErrInvalid)
		}
	}
	// A press on an inline message reaches the bot wherever it is.
	inlineID := c.inlineIDs[id]
	if inlineID == "" && (c.chat.Type != ChatPrivate || c.isUserChat()) && !c.bot.canPost() {
		return nil, fmt.Errorf("bot in chat %d: %w", c.chat.ID, ErrNotMember)
	}
	now := s.now()
	qid := s.callbacks.nextID(s.w.bot.ID)
	query := &CallbackQuery{ID: qid, From: u, ChatInstance: c.instance, Data: data}
	// A message telegram-bot-api cannot get (deleted, or too old for
	// Telegram to give) is sent as JsonInaccessibleMessage: message_id,
	// chat and date 0, nothing else, no topic (Client.cpp, JsonCallbackQuery).
	// An inline message is named by its inline_message_id alone, deleted
	// or not, with the chat_instance of its chat (JsonInlineCallbackQuery).
	gone := inlineID == "" && (rec == nil || s.cfg.staleAfter > 0 && now.Sub(rec.msg.SentAt) > s.cfg.staleAfter)
	if inlineID != "" {
		query.InlineMessageID = inlineID
	} else {
		msg := Message{MessageID: id, Chat: c.chat}
		if !gone {
			msg = rec.msg.Message
		}
		query.Message = &msg
	}
	cs := &callbackState{id: qid, data: data, from: u, chatID: c.chat.ID, messageID: id, inlineID: inlineID, gone: gone,
		pressedAt: now, deadline: now.Add(callbackDeadline), done: make(chan struct{})}
	return s.queuePressLocked(cs, query), nil
}

// nextID numbers a press.
func (t *callbackTable) nextID(botID int64) string {
	t.count++
	return strconv.FormatUint(uint64(botID%1000000)<<32|t.count, 10)
}

// queuePressLocked remembers a press and queues its callback_query.
func (s *Server) queuePressLocked(cs *callbackState, query *CallbackQuery) *Callback {
	s.callbacks.add(cs.pressedAt, cs)
	s.enqueueLocked(UpdateCallbackQuery, Update{CallbackQuery: query})
	e := Event{Kind: EventButtonPressed, ChatID: cs.chatID, MessageID: cs.messageID, EphemeralMessageID: cs.ephemeralID,
		Time: cs.pressedAt, Callback: &CallbackInfo{ID: cs.id, From: cs.from, Data: cs.data, PressedAt: cs.pressedAt}}
	if cs.ephemeralID != 0 {
		e.VisibleTo = cs.from.ID
	}
	s.emitLocked(e)
	return &Callback{s: s, state: cs}
}

// pressEphemeralLocked presses a button of the bot's ephemeral message:
// its callback_query's message is the ephemeral message (message_id 0,
// ephemeral_message_id, receiver_user), as TDLib builds it from
// updateEphemeralBotCallbackQuery (CallbackQueriesManager::
// on_new_ephemeral_callback_query); CallbackQuery has no field of its
// own for it (Bot API 10.2).
func (s *Server) pressEphemeralLocked(c *chatState, u User, p Press) (*Callback, error) {
	rec := c.ephemeral(p.EphemeralMessageID)
	if rec == nil || !rec.msg.FromBot {
		return nil, fmt.Errorf("ephemeral message %d of the bot in chat %d: %w", p.EphemeralMessageID, c.chat.ID, ErrMessageNotFound)
	}
	if rec.msg.VisibleTo != u.ID {
		return nil, fmt.Errorf("user %d does not see ephemeral message %d in chat %d: %w", u.ID, p.EphemeralMessageID, c.chat.ID, ErrNotMember)
	}
	data := p.Data
	if p.Label != "" {
		keyboards := append(slices.Clone(rec.history), rec.msg.ReplyMarkup)
		var b InlineKeyboardButton
		ok := false
		for i := len(keyboards) - 1; !ok && i >= 0; i-- {
			b, ok = findButton(keyboards[i], p.Label)
		}
		if !ok || b.CallbackData == "" {
			return nil, fmt.Errorf("ephemeral message %d in chat %d never showed a callback button %q: %w", p.EphemeralMessageID, c.chat.ID, p.Label, ErrButtonNotFound)
		}
		data = b.CallbackData
	}
	if data == "" {
		return nil, fmt.Errorf("press without Label or Data: %w", ErrInvalid)
	}
	now := s.now()
	qid := s.callbacks.nextID(s.w.bot.ID)
	msg := rec.msg.Message.clone()
	query := &CallbackQuery{ID: qid, From: u, Message: &msg, ChatInstance: c.instance, Data: data}
	cs := &callbackState{id: qid, data: data, from: u, chatID: c.chat.ID, ephemeralID: p.EphemeralMessageID,
		pressedAt: now, deadline: now.Add(callbackDeadline), done: make(chan struct{})}
	return s.queuePressLocked(cs, query), nil
}

// errURLInvalid answers a url answerCallbackQuery may not open: the
// MTProto server's URL_INVALID, passed through by the official server
// (bot developers report "Bad Request: URL_INVALID" for any other link,
// another bot's deep link and a bot link without a start parameter:
// telegraf#62, #388, Telegram.Bot#329, Telethon#1452, teloxide#880).
var errURLInvalid = badRequest("URL_INVALID")

// answerCallbackQuery records the answer to a press. Its url: "If you
// have created a Game …, specify the URL that opens your game - note that
// this will only work if the query comes from a callback_game button.
// Otherwise, you may use links like t.me/your_bot?start=XXXX that open
// your bot with a parameter" (Bot API docs): the bot's deep link is taken
// for any press; games and callback_game buttons are not modelled, so any
// other url is URL_INVALID. The checks, made by the MTProto server, come
// after the query's own (the order is not known).
func (s *Server) answerCallbackQuery(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := s.callbacks.byID[p.str("callback_query_id")]
	if cs == nil {
		return nil, errQueryTooOld
	}
	now := s.now()
	if cs.answered || now.After(cs.deadline) {
		cs.rejected++
		return nil, errQueryTooOld
	}
	text := p.str("text")
	if utf8.RuneCountInString(text) > maxAnswerText {
		return nil, errAnswerTooLong
	}
	link := p.str("url")
	if link != "" {
		if _, valid, err := s.deepLink(link); err != nil || !valid {
			return nil, errURLInvalid
		}
	}
	cs.answered = true
	cs.answer = CallbackAnswer{Text: text, ShowAlert: p.boolean("show_alert"), URL: link, AnsweredAt: now, Latency: now.Sub(cs.pressedAt)}
	close(cs.done)
	answer := cs.answer
	e := Event{Kind: EventCallbackAnswered, ChatID: cs.chatID, MessageID: cs.messageID, EphemeralMessageID: cs.ephemeralID, Time: now,
		Callback: &CallbackInfo{ID: cs.id, From: cs.from, Data: cs.data, PressedAt: cs.pressedAt, Answer: &answer}}
	if cs.ephemeralID != 0 {
		e.VisibleTo = cs.from.ID
	}
	s.emitLocked(e)
	return true, nil
}
