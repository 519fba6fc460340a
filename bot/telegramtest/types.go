package telegramtest

import (
	"encoding/json"
	"slices"
	"time"
)

// Chat types, as Telegram spells them in Chat.Type.
const (
	ChatPrivate    = "private"
	ChatGroup      = "group"
	ChatSupergroup = "supergroup"
	ChatChannel    = "channel"
)

// Member statuses, as Telegram spells them in ChatMember.Status.
const (
	StatusCreator       = "creator"
	StatusAdministrator = "administrator"
	StatusMember        = "member"
	StatusRestricted    = "restricted"
	StatusLeft          = "left"
	StatusKicked        = "kicked"
)

// Update types, as Telegram spells them in allowed_updates.
const (
	UpdateMessage       = "message"
	UpdateEditedMessage = "edited_message"
	UpdateCallbackQuery = "callback_query"
	UpdateMyChatMember  = "my_chat_member"
	UpdateChatMember    = "chat_member"
	// UpdateInlineQuery is a user's inline query (SendInlineQuery).
	UpdateInlineQuery = "inline_query"
	// UpdateChosenInlineResult is a user's choice of an inline result
	// (ChooseInlineResult), sent only with inline feedback on.
	UpdateChosenInlineResult = "chosen_inline_result"
	// UpdateGuestMessage is a message mentioning the bot in a chat it is
	// not a member of (SendGuestMessage; Bot API 10.0, guest mode).
	UpdateGuestMessage = "guest_message"
)

// AnonymousAdminID is the user id Telegram puts in "from" of messages that
// an anonymous group administrator sends (the user "GroupAnonymousBot").
const AnonymousAdminID int64 = 1087968824

// anonymousAdmin is the user Telegram shows as the sender of anonymous admin messages.
var anonymousAdmin = User{ID: AnonymousAdminID, IsBot: true, FirstName: "Group", Username: "GroupAnonymousBot"}

// User is a Telegram user or bot as the Bot API serialises it.
type User struct {
	ID           int64  `json:"id"`
	IsBot        bool   `json:"is_bot"`
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name,omitempty"`
	Username     string `json:"username,omitempty"`
	LanguageCode string `json:"language_code,omitempty"`
}

// Chat is a chat as the Bot API serialises it inside messages and from getChat.
type Chat struct {
	ID        int64  `json:"id"`
	Type      string `json:"type"`
	Title     string `json:"title,omitempty"`
	Username  string `json:"username,omitempty"`
	FirstName string `json:"first_name,omitempty"`
	LastName  string `json:"last_name,omitempty"`
	IsForum   bool   `json:"is_forum,omitempty"`
}

// MessageEntity is one formatting or auto-detected entity of a text.
// Offset and Length count UTF-16 code units, like Telegram.
type MessageEntity struct {
	Type          string `json:"type"`
	Offset        int    `json:"offset"`
	Length        int    `json:"length"`
	URL           string `json:"url,omitempty"`
	User          *User  `json:"user,omitempty"`
	Language      string `json:"language,omitempty"`
	CustomEmojiID string `json:"custom_emoji_id,omitempty"`
	// UnixTime and DateTimeFormat are a date_time entity's: the time it
	// shows and how ("r" relative, else "w", "d" or "D", "t" or "T" in
	// that order; "" shows the text as it is). Telegram always sends
	// date_time_format with a date_time entity, even empty (MarshalJSON).
	UnixTime       int64  `json:"unix_time,omitempty"`
	DateTimeFormat string `json:"date_time_format,omitempty"`
}

// MarshalJSON writes the entity as the Bot API does: date_time_format is
// present in every date_time entity (telegram-bot-api Client.cpp,
// JsonEntity), and in no other.
func (e MessageEntity) MarshalJSON() ([]byte, error) {
	type plain MessageEntity
	if e.Type != EntityDateTime {
		return json.Marshal(plain(e))
	}
	return json.Marshal(struct {
		plain
		DateTimeFormat string `json:"date_time_format"`
	}{plain(e), e.DateTimeFormat})
}

// InlineKeyboardMarkup is an inline keyboard attached to a message.
type InlineKeyboardMarkup struct {
	InlineKeyboard [][]InlineKeyboardButton `json:"inline_keyboard"`
}

// InlineKeyboardButton is one inline keyboard button: a callback button
// or a URL button, the kinds modelled. The Bot API writes only the field
// a button has (Client.cpp, JsonInlineKeyboardButton).
type InlineKeyboardButton struct {
	Text         string `json:"text"`
	CallbackData string `json:"callback_data,omitempty"`
	URL          string `json:"url,omitempty"`
	// WebApp opens a Mini App in the bot's private chat (see OpenWebAppButton).
	WebApp *WebAppInfo `json:"web_app,omitempty"`
	// Style is the button's colour (Bot API 9.4): "primary" (blue),
	// "success" (green) or "danger" (red); "" for the app's own.
	Style string `json:"style,omitempty"`
}

// WebAppInfo is a web_app button's Mini App: the page it opens.
type WebAppInfo struct {
	URL string `json:"url"`
}

// ForumTopicCreated is the service content of the message that opens a forum topic.
type ForumTopicCreated struct {
	Name      string `json:"name"`
	IconColor int    `json:"icon_color"`
}

// MessageOrigin is the origin of a forwarded message (Message's
// forward_origin, set with the legacy forward_from_chat,
// forward_from_message_id and forward_date); here always a channel's post
// (type "channel") automatically forwarded, see PostInChannel.
type MessageOrigin struct {
	Type      string `json:"type"`
	Date      int64  `json:"date"`
	Chat      *Chat  `json:"chat,omitempty"`
	MessageID int    `json:"message_id,omitempty"`
}

// Message is a message as the Bot API serialises it. Fields that
// tgbotapi v5.5.1 does not know (message_thread_id, is_topic_message) are
// present so that a bot can read them from the raw update.
type Message struct {
	// MessageID is 0 for an ephemeral message (Bot API 10.2, Message:
	// "0 for ephemeral messages"), which EphemeralMessageID names instead.
	MessageID             int                   `json:"message_id"`
	MessageThreadID       int                   `json:"message_thread_id,omitempty"`
	From                  *User                 `json:"from,omitempty"`
	SenderChat            *Chat                 `json:"sender_chat,omitempty"`
	ForwardOrigin         *MessageOrigin        `json:"forward_origin,omitempty"`
	ForwardFromChat       *Chat                 `json:"forward_from_chat,omitempty"`
	ForwardFromMessageID  int                   `json:"forward_from_message_id,omitempty"`
	ForwardDate           int64                 `json:"forward_date,omitempty"`
	IsAutomaticForward    bool                  `json:"is_automatic_forward,omitempty"`
	Date                  int64                 `json:"date"`
	Chat                  Chat                  `json:"chat"`
	IsTopicMessage        bool                  `json:"is_topic_message,omitempty"`
	ReplyToMessage        *Message              `json:"reply_to_message,omitempty"`
	EditDate              int64                 `json:"edit_date,omitempty"`
	Text                  string                `json:"text,omitempty"`
	Entities              []MessageEntity       `json:"entities,omitempty"`
	NewChatMembers        []User                `json:"new_chat_members,omitempty"`
	LeftChatMember        *User                 `json:"left_chat_member,omitempty"`
	GroupChatCreated      bool                  `json:"group_chat_created,omitempty"`
	SupergroupChatCreated bool                  `json:"supergroup_chat_created,omitempty"`
	MigrateToChatID       int64                 `json:"migrate_to_chat_id,omitempty"`
	MigrateFromChatID     int64                 `json:"migrate_from_chat_id,omitempty"`
	ForumTopicCreated     *ForumTopicCreated    `json:"forum_topic_created,omitempty"`
	ReplyMarkup           *InlineKeyboardMarkup `json:"reply_markup,omitempty"`
	// ViaBot is the bot a user posted the message through: a chosen
	// inline result (Client.cpp, JsonMessage: via_bot).
	ViaBot *User `json:"via_bot,omitempty"`
	// GuestQueryID is set only in a guest_message update: the id to
	// answer with answerGuestQuery (JsonMessage: guest_query_id).
	GuestQueryID string `json:"guest_query_id,omitempty"`
	// GuestBotCallerUser is, in a message a guest bot posted with
	// answerGuestQuery, the user whose message summoned it (JsonMessage:
	// guest_bot_caller_user).
	GuestBotCallerUser *User `json:"guest_bot_caller_user,omitempty"`
	// GuestBotCallerChat is, in place of GuestBotCallerUser, the chat
	// that sent the summoning message (an anonymous admin's group, a
	// channel posting in a group).
	GuestBotCallerChat *Chat `json:"guest_bot_caller_chat,omitempty"`
	// EphemeralMessageID is, for an ephemeral message (one member and the
	// bot see it), its id within the chat (Bot API 10.2, Message:
	// ephemeral_message_id); 0 for any other message.
	EphemeralMessageID int `json:"ephemeral_message_id,omitempty"`
	// ReceiverUser is, for an ephemeral message, the user who received
	// it: the member a bot's message is for, or the bot for a member's
	// ephemeral command (Bot API 10.2, Message: receiver_user; TDLib's
	// ephemeralMessage always carries receiver_id).
	ReceiverUser *User `json:"receiver_user,omitempty"`
}

// IsEphemeral reports whether the message is an ephemeral one, which
// only one member of the chat and the bot see.
func (m Message) IsEphemeral() bool { return m.EphemeralMessageID != 0 }

// Buttons returns the message's inline buttons row by row, flattened.
func (m Message) Buttons() []InlineKeyboardButton {
	if m.ReplyMarkup == nil {
		return nil
	}
	var out []InlineKeyboardButton
	for _, row := range m.ReplyMarkup.InlineKeyboard {
		out = append(out, row...)
	}
	return out
}

// Button returns the first inline button whose text is label.
func (m Message) Button(label string) (InlineKeyboardButton, bool) {
	return findButton(m.ReplyMarkup, label)
}

// Labels returns the texts of the message's inline buttons, flattened.
func (m Message) Labels() []string {
	buttons := m.Buttons()
	out := make([]string, len(buttons))
	for i, b := range buttons {
		out[i] = b.Text
	}
	return out
}

// IsService reports whether the message is a service message (member
// changes, migrations, topic creation) rather than a text.
func (m Message) IsService() bool {
	return len(m.NewChatMembers) > 0 || m.LeftChatMember != nil || m.GroupChatCreated ||
		m.SupergroupChatCreated || m.MigrateToChatID != 0 || m.MigrateFromChatID != 0 || m.ForumTopicCreated != nil
}

func findButton(markup *InlineKeyboardMarkup, label string) (InlineKeyboardButton, bool) {
	if markup == nil {
		return InlineKeyboardButton{}, false
	}
	for _, row := range markup.InlineKeyboard {
		for _, b := range row {
			if b.Text == label {
				return b, true
			}
		}
	}
	return InlineKeyboardButton{}, false
}

// ChatMessage is a message as it currently stands in a chat (edits applied),
// with bookkeeping that the Bot API does not show.
type ChatMessage struct {
	Message
	// FromBot is true for messages the bot sent through the API.
	FromBot bool `json:"from_bot"`
	// EditCount counts successful edits (text or reply markup).
	EditCount int `json:"edit_count"`
	// SentAt and EditedAt are the server clock's times of sending and of the last edit.
	SentAt time.Time `json:"sent_at"`
	// EditedAt is zero until the first edit.
	EditedAt time.Time `json:"edited_at,omitempty"`
	// InlineMessageID is the inline_message_id of a message posted through
	// the bot (a chosen inline result, a guest answer), by which alone the
	// bot addresses it; "" for any other message.
	InlineMessageID string `json:"inline_message_id,omitempty"`
	// VisibleTo is, for an ephemeral message, the one member who sees it
	// (the bot sees it too): the receiver of the bot's message, the
	// sender of an ephemeral command; 0 for a message every member sees.
	VisibleTo int64 `json:"visible_to,omitempty"`
	// ShownAfter is, for an ephemeral message, the id of the chat's
	// newest message when it was sent: the one it shows below.
	ShownAfter int `json:"shown_after,omitempty"`
	// Replaces is, for an ephemeral message sent with
	// replace_callback_query_message, the message it is shown in place
	// of, to VisibleTo only, for as long as it exists.
	Replaces int `json:"replaces_message_id,omitempty"`
	// ReplyToEphemeralMessageID is the ephemeral message an ephemeral
	// message replies to, which the Bot API leaves out of
	// reply_to_message ("may be omitted").
	ReplyToEphemeralMessageID int `json:"reply_to_ephemeral_message_id,omitempty"`
}

// CallbackQuery is the callback_query object of an update. A press on an
// inline message carries inline_message_id and no message
// (Client.cpp, JsonInlineCallbackQuery); any other press a message and no
// inline_message_id (JsonCallbackQuery).
type CallbackQuery struct {
	ID              string   `json:"id"`
	From            User     `json:"from"`
	Message         *Message `json:"message,omitempty"`
	InlineMessageID string   `json:"inline_message_id,omitempty"`
	ChatInstance    string   `json:"chat_instance"`
	Data            string   `json:"data,omitempty"`
}

// InlineQuery is the inline_query object of an update, as Client.cpp's
// JsonInlineQuery writes it (a user's location is not modelled).
type InlineQuery struct {
	ID   string `json:"id"`
	From User   `json:"from"`
	// ChatType is "sender" in the user's private chat with the bot,
	// "private" in another private chat, else "group", "supergroup" or
	// "channel".
	ChatType string `json:"chat_type,omitempty"`
	Query    string `json:"query"`
	Offset   string `json:"offset"`
}

// ChosenInlineResult is the chosen_inline_result object of an update
// (Client.cpp, JsonChosenInlineResult): inline_message_id only when the
// chosen result has an inline keyboard.
type ChosenInlineResult struct {
	ResultID        string `json:"result_id"`
	From            User   `json:"from"`
	InlineMessageID string `json:"inline_message_id,omitempty"`
	Query           string `json:"query"`
}

// ChatMember is a user's membership in a chat. Its JSON form carries the
// fields Telegram sends for the member's status.
type ChatMember struct {
	Status      string `json:"status"`
	User        User   `json:"user"`
	IsAnonymous bool   `json:"is_anonymous"`
	CustomTitle string `json:"custom_title,omitempty"`
	// CanDeleteMessages applies to administrators (true by default for ones made here).
	CanDeleteMessages bool `json:"can_delete_messages"`
	// IsMember applies to restricted members: whether they are still in the chat.
	IsMember bool `json:"is_member"`
	// UntilDate applies to restricted and kicked members; 0 means forever.
	UntilDate int64 `json:"until_date"`
}

// MarshalJSON writes the fields Telegram includes for the member's status.
func (m ChatMember) MarshalJSON() ([]byte, error) {
	out := map[string]any{"status": m.Status, "user": m.User}
	switch m.Status {
	case StatusCreator:
		out["is_anonymous"] = m.IsAnonymous
		if m.CustomTitle != "" {
			out["custom_title"] = m.CustomTitle
		}
	case StatusAdministrator:
		out["is_anonymous"] = m.IsAnonymous
		if m.CustomTitle != "" {
			out["custom_title"] = m.CustomTitle
		}
		out["can_be_edited"] = false
		out["can_manage_chat"] = true
		out["can_delete_messages"] = m.CanDeleteMessages
		out["can_manage_video_chats"] = true
		out["can_restrict_members"] = true
		out["can_promote_members"] = false
		out["can_change_info"] = true
		out["can_invite_users"] = true
		out["can_pin_messages"] = true
		out["can_manage_topics"] = true
	case StatusRestricted:
		out["is_member"] = m.IsMember
		out["until_date"] = m.UntilDate
		out["can_send_messages"] = false
	case StatusKicked:
		out["until_date"] = m.UntilDate
	}
	return json.Marshal(out)
}

// ChatMemberUpdated is the my_chat_member / chat_member object of an update.
type ChatMemberUpdated struct {
	Chat          Chat       `json:"chat"`
	From          User       `json:"from"`
	Date          int64      `json:"date"`
	OldChatMember ChatMember `json:"old_chat_member"`
	NewChatMember ChatMember `json:"new_chat_member"`
}

// Update is one update as getUpdates returns it and a webhook receives it.
type Update struct {
	UpdateID      int                `json:"update_id"`
	Message       *Message           `json:"message,omitempty"`
	EditedMessage *Message           `json:"edited_message,omitempty"`
	CallbackQuery *CallbackQuery     `json:"callback_query,omitempty"`
	MyChatMember  *ChatMemberUpdated `json:"my_chat_member,omitempty"`
	ChatMember    *ChatMemberUpdated `json:"chat_member,omitempty"`

	InlineQuery        *InlineQuery        `json:"inline_query,omitempty"`
	ChosenInlineResult *ChosenInlineResult `json:"chosen_inline_result,omitempty"`
	GuestMessage       *Message            `json:"guest_message,omitempty"`
}

// BotCommand is one command of a setMyCommands list.
type BotCommand struct {
	Command     string `json:"command"`
	Description string `json:"description"`
	// IsEphemeral: "True, if the command sends an ephemeral message,
	// which can be seen only by the sender of the message and the bot"
	// (Bot API 10.2): a client sends it so in a group.
	IsEphemeral bool `json:"is_ephemeral,omitempty"`
}

// CommandScope is a BotCommandScope: Type is one of "default",
// "all_private_chats", "all_group_chats", "all_chat_administrators",
// "chat", "chat_administrators", "chat_member".
type CommandScope struct {
	Type   string `json:"type"`
	ChatID int64  `json:"chat_id,omitempty"`
	UserID int64  `json:"user_id,omitempty"`
}

// CommandSet is the command list registered for one scope and language.
type CommandSet struct {
	Scope        CommandScope `json:"scope"`
	LanguageCode string       `json:"language_code,omitempty"`
	Commands     []BotCommand `json:"commands"`
}

// WebhookInfo is the result of getWebhookInfo.
type WebhookInfo struct {
	URL                string   `json:"url"`
	PendingUpdateCount int      `json:"pending_update_count"`
	LastErrorDate      int64    `json:"last_error_date,omitempty"`
	LastErrorMessage   string   `json:"last_error_message,omitempty"`
	MaxConnections     int      `json:"max_connections,omitempty"`
	AllowedUpdates     []string `json:"allowed_updates,omitempty"`
}

// clone deep-copies a message so that callers cannot alter stored state.
func (m Message) clone() Message {
	if m.From != nil {
		u := *m.From
		m.From = &u
	}
	if m.SenderChat != nil {
		c := *m.SenderChat
		m.SenderChat = &c
	}
	if m.ForwardOrigin != nil {
		o := *m.ForwardOrigin
		if o.Chat != nil {
			c := *o.Chat
			o.Chat = &c
		}
		m.ForwardOrigin = &o
	}
	if m.ForwardFromChat != nil {
		c := *m.ForwardFromChat
		m.ForwardFromChat = &c
	}
	if m.ReplyToMessage != nil {
		r := m.ReplyToMessage.clone()
		m.ReplyToMessage = &r
	}
	if m.Entities != nil {
		entities := make([]MessageEntity, len(m.Entities))
		for i, e := range m.Entities {
			if e.User != nil {
				u := *e.User
				e.User = &u
			}
			entities[i] = e
		}
		m.Entities = entities
	}
	m.NewChatMembers = slices.Clone(m.NewChatMembers)
	if m.LeftChatMember != nil {
		u := *m.LeftChatMember
		m.LeftChatMember = &u
	}
	if m.ForumTopicCreated != nil {
		f := *m.ForumTopicCreated
		m.ForumTopicCreated = &f
	}
	if m.ViaBot != nil {
		u := *m.ViaBot
		m.ViaBot = &u
	}
	if m.GuestBotCallerUser != nil {
		u := *m.GuestBotCallerUser
		m.GuestBotCallerUser = &u
	}
	if m.GuestBotCallerChat != nil {
		c := *m.GuestBotCallerChat
		m.GuestBotCallerChat = &c
	}
	if m.ReceiverUser != nil {
		u := *m.ReceiverUser
		m.ReceiverUser = &u
	}
	m.ReplyMarkup = m.ReplyMarkup.clone()
	return m
}

func (k *InlineKeyboardMarkup) clone() *InlineKeyboardMarkup {
	if k == nil {
		return nil
	}
	out := &InlineKeyboardMarkup{InlineKeyboard: make([][]InlineKeyboardButton, len(k.InlineKeyboard))}
	for i, row := range k.InlineKeyboard {
		out.InlineKeyboard[i] = slices.Clone(row)
	}
	return out
}

func (m ChatMessage) clone() ChatMessage {
	m.Message = m.Message.clone()
	return m
}
