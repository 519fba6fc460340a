package botapi

import (
	"encoding/json"
	"errors"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Update is a Telegram update with the fields tgbotapi v5.5.1 does not
// know: the forum topic a message belongs to, whether it is ephemeral. A message's
// reply_to_message is only a reply its sender made: the one Telegram
// implies in a topic is dropped (see implicitReply).
type Update struct {
	tgbotapi.Update
	// Thread is the forum topic of the message (or of the pressed
	// message), 0 outside topics.
	Thread int
	// Guest is a guest message (Bot API 10.0, guest mode): a message that
	// mentions the bot in a chat it is not in, to answer once with
	// answerGuestQuery. tgbotapi v5.5.1 does not know it.
	Guest *Guest
	// Ephemeral is, for an ephemeral message (an ephemeral command) or a
	// press on one, what makes it ephemeral; nil for any other.
	Ephemeral *Ephemeral
}

// Guest is a guest message: the message that mentions the bot, and the id
// of the query its answer answers.
type Guest struct {
	Message *tgbotapi.Message
	// QueryID is the message's guest_query_id.
	QueryID string
}

// topicFields are the fields of a message read from the raw update: its
// forum topic, and whether it is ephemeral.
type topicFields struct {
	ephemeralFields
	ThreadID int  `json:"message_thread_id"`
	IsTopic  bool `json:"is_topic_message"`
	Reply    *struct {
		MessageID    int       `json:"message_id"`
		TopicCreated *struct{} `json:"forum_topic_created"`
	} `json:"reply_to_message"`
}

// implicitReply reports whether the message's reply_to_message is the
// first message of its forum topic, which Telegram puts into every
// message of a topic that replies to nothing (telegram-bot-api Client.cpp,
// get_implicit_reply_to_message_id): no reply the sender made. A reply
// to the topic's first message itself reads the same, and is no reply to
// a person either.
func (f *topicFields) implicitReply() bool {
	if f == nil || f.Reply == nil {
		return false
	}
	return f.Reply.TopicCreated != nil || f.IsTopic && f.Reply.MessageID == f.ThreadID
}

// ephemeral returns what makes the message ephemeral, nil when it is not
// (or there is no message).
func (f *topicFields) ephemeral() *Ephemeral {
	if f == nil {
		return nil
	}
	return f.ephemeralFields.ephemeral()
}

func (f *topicFields) thread() int {
	if f == nil || !f.IsTopic {
		return 0 // a reply thread outside a forum topic is no topic
	}
	return f.ThreadID
}

// Decode decodes a raw update.
func Decode(raw []byte) (Update, error) {
	var u Update
	if err := json.Unmarshal(raw, &u.Update); err != nil {
		return u, fmt.Errorf("decoding an update: %w", err)
	}
	var extra struct {
		Message       *topicFields `json:"message"`
		CallbackQuery *struct {
			Message *topicFields `json:"message"`
		} `json:"callback_query"`
		GuestMessage *struct {
			tgbotapi.Message
			GuestQueryID string `json:"guest_query_id"`
		} `json:"guest_message"`
	}
	if err := json.Unmarshal(raw, &extra); err != nil {
		return u, fmt.Errorf("decoding an update: %w", err)
	}
	if g := extra.GuestMessage; g != nil {
		u.Guest = &Guest{Message: &g.Message, QueryID: g.GuestQueryID}
	}
	switch {
	case extra.Message != nil:
		u.Thread, u.Ephemeral = extra.Message.thread(), extra.Message.ephemeral()
		if extra.Message.implicitReply() && u.Message != nil {
			u.Message.ReplyToMessage = nil
		}
	case extra.CallbackQuery != nil:
		m := extra.CallbackQuery.Message
		u.Thread, u.Ephemeral = m.thread(), m.ephemeral()
	}
	return u, nil
}

// UpdateID returns the update_id of a raw update: a positive number, as
// the Bot API sends.
func UpdateID(raw []byte) (int, error) {
	var id struct {
		UpdateID *int `json:"update_id"`
	}
	if err := json.Unmarshal(raw, &id); err != nil {
		return 0, fmt.Errorf("decoding an update's id: %w", err)
	}
	if id.UpdateID == nil || *id.UpdateID <= 0 {
		return 0, errors.New("an update without a positive update_id")
	}
	return *id.UpdateID, nil
}

// Chat returns the chat the update belongs to, by which its handling is
// ordered with the chat's others, 0 when none: for a press on an inline
// message, which names no chat, 0 (ChatInstance names it); for an inline
// query or a chosen result, which name none either, the user's.
func (u *Update) Chat() int64 {
	switch {
	case u.Message != nil && u.Message.Chat != nil:
		return u.Message.Chat.ID
	case u.CallbackQuery != nil && u.CallbackQuery.Message != nil && u.CallbackQuery.Message.Chat != nil:
		return u.CallbackQuery.Message.Chat.ID
	case u.MyChatMember != nil:
		return u.MyChatMember.Chat.ID
	case u.Guest != nil && u.Guest.Message.Chat != nil:
		return u.Guest.Message.Chat.ID
	case u.InlineQuery != nil && u.InlineQuery.From != nil:
		return u.InlineQuery.From.ID
	case u.ChosenInlineResult != nil && u.ChosenInlineResult.From != nil:
		return u.ChosenInlineResult.From.ID
	}
	return 0
}

// ChatInstance returns the chat_instance of a press on an inline message,
// the only name of its chat: "" for any other update.
func (u *Update) ChatInstance() string {
	if u.CallbackQuery != nil && u.CallbackQuery.InlineMessageID != "" {
		return u.CallbackQuery.ChatInstance
	}
	return ""
}

// Kind names the update's kind, for metrics and logs: the field it holds,
// among those tgbotapi v5.5.1 decodes, "other" for the rest.
func (u *Update) Kind() string {
	switch {
	case u.CallbackQuery != nil:
		return "callback_query"
	case u.Message != nil:
		return "message"
	case u.MyChatMember != nil:
		return "my_chat_member"
	case u.EditedMessage != nil:
		return "edited_message"
	case u.ChannelPost != nil:
		return "channel_post"
	case u.EditedChannelPost != nil:
		return "edited_channel_post"
	case u.ChatMember != nil:
		return "chat_member"
	case u.ChatJoinRequest != nil:
		return "chat_join_request"
	case u.InlineQuery != nil:
		return "inline_query"
	case u.ChosenInlineResult != nil:
		return "chosen_inline_result"
	case u.Guest != nil:
		return "guest_message"
	case u.ShippingQuery != nil, u.PreCheckoutQuery != nil:
		return "payment"
	case u.Poll != nil, u.PollAnswer != nil:
		return "poll"
	}
	return "other"
}
