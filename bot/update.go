package bot

import (
	"encoding/json"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// update is a Telegram update with the fields tgbotapi v5.5.1 does not know:
// the forum topic a message belongs to. A message's reply_to_message is
// only a reply its sender made: the one Telegram implies in a topic is
// dropped (see implicitReply).
type update struct {
	tgbotapi.Update
	// thread is the forum topic of the message (or of the pressed
	// message), 0 outside topics.
	thread int
}

// topicFields are the fields of a message read from the raw update.
type topicFields struct {
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

func (f *topicFields) thread() int {
	if f == nil || !f.IsTopic {
		return 0 // a reply thread outside a forum topic is no topic
	}
	return f.ThreadID
}

func decodeUpdate(raw []byte) (update, error) {
	var u update
	if err := json.Unmarshal(raw, &u.Update); err != nil {
		return u, fmt.Errorf("decoding an update: %w", err)
	}
	var extra struct {
		Message       *topicFields `json:"message"`
		CallbackQuery *struct {
			Message *topicFields `json:"message"`
		} `json:"callback_query"`
	}
	if err := json.Unmarshal(raw, &extra); err != nil {
		return u, fmt.Errorf("decoding an update: %w", err)
	}
	switch {
	case extra.Message != nil:
		u.thread = extra.Message.thread()
		if extra.Message.implicitReply() && u.Message != nil {
			u.Message.ReplyToMessage = nil
		}
	case extra.CallbackQuery != nil:
		u.thread = extra.CallbackQuery.Message.thread()
	}
	return u, nil
}

// chat returns the chat the update belongs to, 0 when none.
func (u *update) chat() int64 {
	switch {
	case u.Message != nil && u.Message.Chat != nil:
		return u.Message.Chat.ID
	case u.CallbackQuery != nil && u.CallbackQuery.Message != nil && u.CallbackQuery.Message.Chat != nil:
		return u.CallbackQuery.Message.Chat.ID
	case u.MyChatMember != nil:
		return u.MyChatMember.Chat.ID
	}
	return 0
}

// kind names the update's kind, for metrics and logs: the field it holds,
// among those tgbotapi v5.5.1 decodes, "other" for the rest.
func (u *update) kind() string {
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
	case u.InlineQuery != nil, u.ChosenInlineResult != nil:
		return "inline_query"
	case u.ShippingQuery != nil, u.PreCheckoutQuery != nil:
		return "payment"
	case u.Poll != nil, u.PollAnswer != nil:
		return "poll"
	}
	return "other"
}
