package bot

import (
	"context"
	"errors"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/input"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// handle handles one update on its chat's goroutine: the bot's own
// membership and a chat's migration here, the rest in package input. An
// update the bot cannot make sense of (no chat, a chat id that no chat
// has, nobody to act for where someone must be) is logged and skipped:
// delivering it again would not help, and nothing the bot reads from an
// update is trusted to be there.
func (b *Bot) handle(ctx context.Context, u botapi.Update) {
	switch {
	case u.CallbackQuery != nil && u.CallbackQuery.InlineMessageID != "":
		b.inline.Press(ctx, u)
	case u.CallbackQuery != nil:
		b.input.Press(ctx, u)
	case u.InlineQuery != nil:
		b.inline.Query(ctx, u)
	case u.ChosenInlineResult != nil:
		b.inline.Chosen(ctx, u)
	case u.Guest != nil:
		if u.Guest.Message == nil || u.Guest.QueryID == "" {
			b.skip(ctx, u, "a guest message without its query")
			return
		}
		b.inline.Guest(ctx, u)
	case u.Message != nil:
		if why := botapi.MessageProblem(u.Message); why != "" {
			b.skip(ctx, u, why)
			return
		}
		b.message(ctx, u)
	case u.MyChatMember != nil:
		if why := botapi.MemberProblem(u.MyChatMember); why != "" {
			b.skip(ctx, u, why)
			return
		}
		b.memberChanged(ctx, u.MyChatMember)
	default:
		// The kinds allowedUpdates leaves out, which still come for a while
		// after it changed (Bot API, getUpdates: "doesn't affect updates
		// created before the call"): an edited message is not sent again
		// (an edited /cancel cancels nothing), members' own joins and
		// leaves (chat_member) change no seat, and reactions, channel
		// posts and business updates are none of the game's.
		b.log.DebugContext(ctx, "update ignored", "update_id", u.UpdateID, "kind", u.Kind())
	}
}

// skip logs an update the bot cannot make sense of, which it skips.
func (b *Bot) skip(ctx context.Context, u botapi.Update, why string) {
	b.log.WarnContext(ctx, "update skipped", "update_id", u.UpdateID, "kind", u.Kind(), "why", why)
}

// message handles a message: the service messages of a chat's lifecycle
// here, everything else in package input.
func (b *Bot) message(ctx context.Context, u botapi.Update) {
	m := u.Message
	switch {
	case m.MigrateToChatID != 0:
		b.migrate(ctx, m.Chat.ID, m.MigrateToChatID)
	case m.MigrateFromChatID != 0:
		b.migrate(ctx, m.MigrateFromChatID, m.Chat.ID)
	case b.added(m):
		b.welcome(m)
	default:
		b.input.Message(ctx, u)
	}
}

// added reports whether a message says the bot joined its group: it was
// added (new_chat_members), or the group was created with it
// (group_chat_created). The bot says hello on these, not on my_chat_member
// from left: Telegram sends that also to a bot that was in a group upgraded
// to a supergroup, for the supergroup (tdlib/telegram-bot-api#266), in no
// documented order with the migration's messages, so that it cannot be
// told from being added; the service messages of an upgrade are
// migrate_to_chat_id and migrate_from_chat_id only.
func (b *Bot) added(m *tgbotapi.Message) bool {
	if !botapi.IsGroup(m.Chat) {
		return false
	}
	if m.GroupChatCreated {
		return true
	}
	for _, u := range m.NewChatMembers {
		if u.ID == b.ID() {
			return true
		}
	}
	return false
}

// welcome says hello to a group the bot joined: in the language the bot's
// config gives every chat (table.language), else in that of who added it.
func (b *Bot) welcome(m *tgbotapi.Message) {
	l := i18n.For(b.store.Defaults().Language, input.Profile(m.From).Language)
	chips, _ := b.store.Grants()
	b.send.Reply(m.Chat.ID, 0, 0, "", message.Message{Text: i18n.T(l, i18n.Welcome, i18n.Chips(l, chips))}, nil)
}

// memberChanged acts on the bot's own membership: removed from a chat, it
// refunds the bets of the chat's tables; promoted or demoted in a group,
// it may or may not send ephemeral messages as an admin; in a private
// chat, see privateMember. (It says hello on the message that it was added: see
// added.)
func (b *Bot) memberChanged(ctx context.Context, m *tgbotapi.ChatMemberUpdated) {
	if m.NewChatMember.User.ID != b.ID() {
		return
	}
	if m.Chat.IsPrivate() {
		b.privateMember(ctx, m)
		return
	}
	if botapi.IsGroup(&m.Chat) {
		// Promoted or demoted: whether it may send ephemeral messages as
		// an admin (send.Sender.Tell).
		b.send.BotStatus(m.Chat.ID, m.NewChatMember.IsAdministrator() || m.NewChatMember.IsCreator())
	}
	was, is := m.OldChatMember.Status, m.NewChatMember.Status
	gone := func(s string) bool { return s == "left" || s == "kicked" || s == "" }
	if gone(is) && !gone(was) {
		b.removed(ctx, m.Chat.ID)
	}
}

// privateMember acts on a change of the bot's membership in a private
// chat: the user blocked the bot (kicked), which stops what they follow,
// or unblocked it (member), after which the bot may write to them again.
func (b *Bot) privateMember(ctx context.Context, m *tgbotapi.ChatMemberUpdated) {
	switch m.NewChatMember.Status {
	case "kicked":
		b.stopPrivate(ctx, m.Chat.ID)
	case "member":
		u := storage.User{ID: game.UserID(m.Chat.ID)}
		if m.From.ID == m.Chat.ID {
			u = input.Profile(&m.From)
		}
		if err := b.store.StartedPrivate(ctx, u, b.clock.Now()); err != nil {
			fault.Log(ctx, b.log, "private chat", storage.TableKey{Chat: m.Chat.ID}, err)
		}
	}
}

// removed cancels the chat's open tables, refunding the bets, and forgets
// them: the bot can no longer write there (it was removed from the group,
// or blocked in the private chat).
func (b *Bot) removed(ctx context.Context, chat int64) {
	res, err := b.store.CancelAll(ctx, chat, b.clock.Now())
	if err != nil {
		fault.Log(ctx, b.log, "removed from chat", storage.TableKey{Chat: chat}, err)
		return
	}
	for _, r := range res {
		b.tables.Gone(r.View)
	}
	b.forget(chat)
	if len(res) > 0 {
		b.log.InfoContext(ctx, "removed from a chat: bets refunded", "chat", chat, "tables", len(res))
	}
}

// stopPrivate forgets that the bot may write to the user, and every group
// they follow, and cancels the solo table of their private chat as a
// group's tables are when the bot is removed: they blocked the bot, or
// Telegram refused a message to them. (Two transactions: a crash between
// them leaves a table whose next message Telegram refuses, which comes
// here again.)
func (b *Bot) stopPrivate(ctx context.Context, user int64) {
	n, err := b.store.StopPrivate(ctx, game.UserID(user))
	if err != nil {
		fault.Log(ctx, b.log, "stop private", storage.TableKey{Chat: user}, err)
		return
	}
	b.log.InfoContext(ctx, "the bot may not write to a user: what they follow stopped", "user", user, "groups", n)
	b.removed(ctx, user)
}

// forget drops what the bot remembers of a chat's tables (the notices
// of a table just opened wait with it in the table keeper).
func (b *Bot) forget(chat int64) {
	b.tables.Forget(chat)
}

// migrate moves a group's tables, chips and settings to the supergroup it
// became, and shows its open table there: the bot's old messages are not
// carried over.
func (b *Bot) migrate(ctx context.Context, from, to int64) {
	if err := b.store.MigrateChat(ctx, from, to); err != nil && !errors.Is(err, storage.ErrNotFound) {
		fault.Log(ctx, b.log, "migrate", storage.TableKey{Chat: from}, err)
		return
	}
	b.tables.Moved(from, to)
	b.onChat(to, "migrate", func(ctx context.Context) { b.tables.Refresh(ctx, storage.TableKey{Chat: to}) }, "from", from)
}

// host is the Bot as its rooms see it: what they ask of it (to run work on
// a chat's goroutine) and tell it (a chat that moved or refused the bot).
type host struct{ b *Bot }

// OnChat runs fn on the chat's goroutine (table.Host, notice.Host).
func (h host) OnChat(chat int64, kind string, fn func(ctx context.Context)) {
	h.b.onChat(chat, kind, fn)
}

// Moved is told that a group became a supergroup (send.Chats).
func (h host) Moved(chat, to int64) {
	h.b.onChat(chat, "migrate", func(ctx context.Context) { h.b.migrate(ctx, chat, to) }, "to", to)
}

// Refused is told that a private chat refused a message (send.Chats).
func (h host) Refused(chat int64) {
	h.b.onChat(chat, "blocked", func(ctx context.Context) { h.b.stopPrivate(ctx, chat) }, "user", chat)
}
