package send

import (
	"context"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/message"
)

// The calls into a chat. Each makes one Bot API call and settles its
// error: Send, Edit, EditInline and Delete (and the ephemeral messages'
// calls: ephemeral.go) are made in an outbox op's Do,
// and return what the outbox acts on (nil, an outbox.RetryAfterError after
// a 429, a temporary error after a 5xx or a dropped connection, or the
// error given up on, in which errors.Is finds the Bot API's kind: ErrGone,
// ErrCannotDelete, ...). Chat and Member are reads made outside the
// outbox: they report what the error says of the chat and return it
// otherwise as the Bot API did. What an error says of the chat (moved,
// refused) is reported each time it is met: Chats must take it twice.

// Send sends m into chat (and forum topic thread, 0 for none), in reply to
// message replyTo when it is not 0, and returns the new message's id.
func (s *Sender) Send(ctx context.Context, chat int64, thread int, m message.Message, replyTo int) (int, error) {
	id, err := s.api.Send(ctx, chat, thread, m, replyTo)
	return id, s.settle(chat, err)
}

// Edit replaces the text and keyboard of message id of chat. An edit to
// what the message shows already succeeds; one of a message that is gone
// fails with botapi.ErrGone.
func (s *Sender) Edit(ctx context.Context, chat int64, id int, m message.Message) error {
	return s.settle(chat, s.api.Edit(ctx, chat, id, m))
}

// EditInline replaces the text and keyboard of the inline message id,
// whose table is kept as chat (storage.InlineChatID). As Edit, one that is
// gone fails with botapi.ErrGone.
func (s *Sender) EditInline(ctx context.Context, chat int64, id string, m message.Message) error {
	return s.settle(chat, s.api.EditInline(ctx, id, m))
}

// Delete deletes message id of chat. One that is gone fails with
// botapi.ErrGone, one too old for a bot to delete with
// botapi.ErrCannotDelete.
func (s *Sender) Delete(ctx context.Context, chat int64, id int) error {
	return s.settle(chat, s.api.Delete(ctx, chat, id))
}

// Chat returns a chat's type and title (getChat).
func (s *Sender) Chat(ctx context.Context, chat int64) (botapi.ChatInfo, error) {
	info, err := s.api.Chat(ctx, chat)
	return info, s.report(chat, err)
}

// Member returns a user's membership of a chat (getChatMember).
func (s *Sender) Member(ctx context.Context, chat, user int64) (botapi.Member, error) {
	m, err := s.api.Member(ctx, chat, user)
	return m, s.report(chat, err)
}

// The calls into no chat: nothing to settle.

// Self returns the bot's own user, as the Bot API told it at the start.
func (s *Sender) Self() tgbotapi.User { return s.api.Self() }

// SetCommands registers the bot's command menu for a language ("" for the
// default of every language without its own).
func (s *Sender) SetCommands(ctx context.Context, cmds []botapi.MenuCommand, lang string) error {
	return s.api.SetCommands(ctx, cmds, lang)
}

// AnswerInline answers an inline query with results, cached by Telegram
// for cacheTime seconds (0: not at all), for the asking user alone when
// personal.
func (s *Sender) AnswerInline(ctx context.Context, queryID string, results []botapi.Article, cacheTime int, personal bool) error {
	return s.api.AnswerInline(ctx, queryID, results, cacheTime, personal)
}

// AnswerGuest answers a guest message with a result, which Telegram posts
// into the guest message's chat as an inline message; it returns the
// message's inline_message_id.
func (s *Sender) AnswerGuest(ctx context.Context, guestQueryID string, result botapi.Article) (string, error) {
	return s.api.AnswerGuest(ctx, guestQueryID, result)
}
