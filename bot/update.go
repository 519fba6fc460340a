package bot

import (
	"encoding/json"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// update is a Telegram update with the fields tgbotapi v5.5.1 does not know:
// the forum topic a message belongs to.
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

// kind names the update's kind, for metrics and logs.
func (u *update) kind() string {
	switch {
	case u.CallbackQuery != nil:
		return "callback_query"
	case u.Message != nil:
		return "message"
	case u.MyChatMember != nil:
		return "my_chat_member"
	}
	return "other"
}
