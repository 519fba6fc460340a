package botapi

import (
	"context"
	"errors"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/message"
)

// Ephemeral messages (Bot API 10.2, their parameters as 10.3 names them):
// a message in a group or supergroup that only one member, its receiver,
// and the bot see. Telegram lets any bot send one within 15 seconds of
// the receiver's action, named by the callback query it answers or the
// incoming ephemeral message (an ephemeral command) it replies to; a bot
// that is an admin of the chat may send one to any member who is no bot
// at any time. A sent one has message_id 0 and an ephemeral_message_id,
// which the edits and the delete name with its receiver (Bot API,
// "Ephemeral Messages and Commands"; tgbotapi v5.5.1 knows none of it).

// EphemeralTo says to whom an ephemeral message goes and what lets the
// bot send it: sendMessage's ephemeral_message_parameters, and the
// incoming ephemeral message it replies to.
type EphemeralTo struct {
	// Receiver is the user who sees the message (receiver_user_id).
	Receiver int64
	// QueryID is the callback query the message answers
	// (callback_query_id), "" for none.
	QueryID string
	// ReplyTo is the ephemeral_message_id of the incoming ephemeral
	// message it replies to (reply_parameters.ephemeral_message_id), 0
	// for none. With neither, only an admin bot may send it.
	ReplyTo int
}

// ephemeralParams is ephemeral_message_parameters (EphemeralMessageParameters).
type ephemeralParams struct {
	ReceiverUserID  int64  `json:"receiver_user_id"`
	CallbackQueryID string `json:"callback_query_id,omitempty"`
}

// SendEphemeral sends m into the group chat (and forum topic thread, 0
// for none) as an ephemeral message to e.Receiver, and returns its
// ephemeral_message_id, ephemeral true. Telegram refuses it with a 400
// where the bot may not send one: a chat that has none (a private chat),
// a bot that is no admin without a fresh query or ephemeral message to
// answer, a receiver who is not in the chat. A Bot API server older than
// ephemeral messages (before 10.2) ignores the parameters and sends a
// message of the chat: its message_id is returned then, ephemeral false.
func (c *Client) SendEphemeral(ctx context.Context, chat int64, thread int, m message.Message, e EphemeralTo) (id int, ephemeral bool, err error) {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	p.AddNonZero("message_thread_id", thread)
	text(p, m)
	if err := p.AddInterface("ephemeral_message_parameters", ephemeralParams{ReceiverUserID: e.Receiver, CallbackQueryID: e.QueryID}); err != nil {
		return 0, false, err
	}
	if e.ReplyTo != 0 {
		p["reply_parameters"] = `{"ephemeral_message_id":` + strconv.Itoa(e.ReplyTo) + `}`
	}
	var msg struct {
		MessageID   int `json:"message_id"`
		EphemeralID int `json:"ephemeral_message_id"`
	}
	if err := c.call(ctx, "sendMessage", p, &msg, 0); err != nil {
		return 0, false, err
	}
	if msg.EphemeralID == 0 {
		return msg.MessageID, false, nil
	}
	return msg.EphemeralID, true, nil
}

// ephemeral adds the names of an ephemeral message to p.
func ephemeral(p tgbotapi.Params, chat, receiver int64, id int) {
	p.AddNonZero64("chat_id", chat)
	p.AddNonZero64("receiver_user_id", receiver)
	p.AddNonZero("ephemeral_message_id", id)
}

// EditEphemeral replaces the text and keyboard of the ephemeral message
// id of receiver in chat (editEphemeralMessageText). As Edit: an edit to
// what the message shows already succeeds, and one of a message that is
// gone (deleted, expired) fails with ErrGone.
func (c *Client) EditEphemeral(ctx context.Context, chat, receiver int64, id int, m message.Message) error {
	p := tgbotapi.Params{}
	ephemeral(p, chat, receiver, id)
	text(p, m)
	err := c.call(ctx, "editEphemeralMessageText", p, nil, 0)
	if errors.Is(err, errNotModified) {
		return nil
	}
	return err
}

// EditEphemeralKeyboard replaces only the keyboard of the ephemeral
// message id of receiver in chat (editEphemeralMessageReplyMarkup); none
// removes it. As EditEphemeral for what is there already, or gone.
func (c *Client) EditEphemeralKeyboard(ctx context.Context, chat, receiver int64, id int, kb [][]message.Button) error {
	p := tgbotapi.Params{}
	ephemeral(p, chat, receiver, id)
	if markup, ok := keyboardJSON(kb); ok {
		p["reply_markup"] = markup
	}
	err := c.call(ctx, "editEphemeralMessageReplyMarkup", p, nil, 0)
	if errors.Is(err, errNotModified) {
		return nil
	}
	return err
}

// DeleteEphemeral deletes the ephemeral message id of receiver in chat
// (deleteEphemeralMessage). One that is gone fails with ErrGone.
func (c *Client) DeleteEphemeral(ctx context.Context, chat, receiver int64, id int) error {
	p := tgbotapi.Params{}
	ephemeral(p, chat, receiver, id)
	return c.call(ctx, "deleteEphemeralMessage", p, nil, 0)
}

// MenuCommand is a line of the bot's command menu (BotCommand), with
// is_ephemeral, which tgbotapi v5.5.1 has no field for: a client sends an
// ephemeral command as an ephemeral message, seen by its sender and the
// bot alone.
type MenuCommand struct {
	Command     string `json:"command"`
	Description string `json:"description"`
	// Ephemeral: "True, if the command sends an ephemeral message, which
	// can be seen only by the sender of the message and the bot".
	Ephemeral bool `json:"is_ephemeral,omitempty"`
}

// OpenURL answers a button press by opening url in the presser's client
// (answerCallbackQuery's url): for a callback button, a t.me/<bot>?start=
// link that opens the bot's private chat with a start parameter. As
// AnswerCallback, a press too old to answer is no failure.
func (c *Client) OpenURL(ctx context.Context, id, url string) error {
	p := tgbotapi.Params{}
	p["callback_query_id"] = id
	p["url"] = url
	err := c.call(ctx, "answerCallbackQuery", p, nil, 0)
	if errors.Is(err, errQueryOld) {
		return nil
	}
	return err
}

// Ephemeral is what makes a message ephemeral: its ephemeral_message_id
// and, for one the bot sent, its receiver.
type Ephemeral struct {
	// ID is the message's ephemeral_message_id (its message_id is 0).
	ID int
	// Receiver is receiver_user: the user who sees a message the bot
	// sent; nil when Telegram names none (an incoming ephemeral command).
	Receiver *tgbotapi.User
}

// ephemeralFields are the fields of an ephemeral message read from the raw
// update (with the forum topic's: see topicFields).
type ephemeralFields struct {
	EphemeralID int            `json:"ephemeral_message_id"`
	Receiver    *tgbotapi.User `json:"receiver_user"`
}

// ephemeral returns what makes the message ephemeral, nil when it is
// not.
func (f *ephemeralFields) ephemeral() *Ephemeral {
	if f.EphemeralID == 0 {
		return nil
	}
	return &Ephemeral{ID: f.EphemeralID, Receiver: f.Receiver}
}
