package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/setting"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// The users Telegram puts in "from" of a message a chat sent, which stand
// in for no person (telegram-bot-api Client.cpp, Client::add_message).
const (
	// anonymousAdmin (GroupAnonymousBot): an anonymous admin of the group;
	// sender_chat is the group itself.
	anonymousAdmin = 1087968824
	// channelBot (Channel_Bot): a member posting on behalf of a channel;
	// sender_chat is the channel.
	channelBot = 136817688
	// serviceNotifications (Telegram): a linked channel's post
	// automatically forwarded to its discussion group; sender_chat is the
	// channel.
	serviceNotifications = 777000
)

// standIn reports whether a user id is one of Telegram's stand-ins.
func standIn(id int64) bool {
	return id == anonymousAdmin || id == channelBot || id == serviceNotifications
}

// handle handles one update on its chat's goroutine. An update the bot
// cannot make sense of (no chat, a chat id that no chat has, nobody to act
// for where someone must be) is logged and skipped: delivering it again
// would not help, and nothing the bot reads from an update is trusted to
// be there.
func (b *Bot) handle(ctx context.Context, u update) {
	switch {
	case u.CallbackQuery != nil:
		b.press(ctx, u)
	case u.Message != nil:
		if why := messageProblem(u.Message); why != "" {
			b.skip(u, why)
			return
		}
		b.message(ctx, u)
	case u.MyChatMember != nil:
		if why := memberProblem(u.MyChatMember); why != "" {
			b.skip(u, why)
			return
		}
		b.memberChanged(ctx, u.MyChatMember)
	default:
		// The kinds allowedUpdates leaves out, which still come for a while
		// after it changed (Bot API, getUpdates: "doesn't affect updates
		// created before the call"): an edited message is not sent again
		// (an edited /cancel cancels nothing), members' own joins and
		// leaves (chat_member) change no seat, and reactions, channel
		// posts, business and inline updates are none of the game's.
		b.log.Debug("update ignored", "update_id", u.UpdateID, "kind", u.kind())
	}
}

// skip logs an update the bot cannot make sense of, which it skips.
func (b *Bot) skip(u update, why string) {
	b.log.Warn("update skipped", "update_id", u.UpdateID, "kind", u.kind(), "why", why)
}

// chatProblem says what is wrong with the chat of an update, "" when
// nothing is. A private chat has its user's id, positive; a group -N, a
// supergroup or channel -1000000000000 - N (telegram-bot-api's
// Client::get_basic_group_chat_id and get_supergroup_chat_id).
func chatProblem(c *tgbotapi.Chat) string {
	switch {
	case c == nil:
		return "no chat"
	case c.ID == 0:
		return "chat id 0"
	case c.IsPrivate() && c.ID < 0, (c.IsGroup() || c.IsSuperGroup() || c.IsChannel()) && c.ID > 0:
		return fmt.Sprintf("chat %d of type %q", c.ID, c.Type)
	case !c.IsPrivate() && !c.IsGroup() && !c.IsSuperGroup() && !c.IsChannel():
		return fmt.Sprintf("chat %d of unknown type %q", c.ID, c.Type)
	}
	return ""
}

// messageProblem says what makes a message senseless, "" when nothing.
func messageProblem(m *tgbotapi.Message) string {
	if why := chatProblem(m.Chat); why != "" {
		return why
	}
	switch {
	case m.MigrateToChatID > 0 || m.MigrateToChatID == m.Chat.ID:
		return fmt.Sprintf("migration of %d to %d", m.Chat.ID, m.MigrateToChatID)
	case m.MigrateFromChatID > 0 || m.MigrateFromChatID == m.Chat.ID:
		return fmt.Sprintf("migration of %d from %d", m.Chat.ID, m.MigrateFromChatID)
	}
	return ""
}

// memberProblem says what makes a change of the bot's membership
// senseless, "" when nothing.
func memberProblem(m *tgbotapi.ChatMemberUpdated) string {
	if why := chatProblem(&m.Chat); why != "" {
		return why
	}
	if m.NewChatMember.User == nil {
		return "no new_chat_member.user"
	}
	if !memberStatuses[m.OldChatMember.Status] || !memberStatuses[m.NewChatMember.Status] {
		return fmt.Sprintf("membership %q to %q", m.OldChatMember.Status, m.NewChatMember.Status)
	}
	return ""
}

// memberStatuses are the statuses a ChatMember has (Bot API, ChatMember):
// a change to or from any other is not one the bot can act on (a missing
// status read as "left" once refunded every table of the chat).
var memberStatuses = map[string]bool{
	"creator": true, "administrator": true, "member": true, "restricted": true, "left": true, "kicked": true,
}

// user returns the storage profile of a Telegram user.
func user(from *tgbotapi.User) storage.User {
	if from == nil {
		return storage.User{}
	}
	return storage.User{ID: game.UserID(from.ID), Name: from.FirstName, Username: from.UserName, Language: from.LanguageCode}
}

func isGroup(c *tgbotapi.Chat) bool { return c != nil && (c.IsGroup() || c.IsSuperGroup()) }

// person reports whether u is a user the bot may act for: there, with an
// id, no bot, and none of Telegram's stand-ins.
func person(u *tgbotapi.User) bool { return u != nil && u.ID > 0 && !u.IsBot && !standIn(u.ID) }

// sender says who sent a message.
type sender int

const (
	// byNobody: the message names no sender the bot can tell (no from, or
	// one with no id).
	byNobody sender = iota
	// byPerson: a user, the message's from.
	byPerson
	// byAnonymousAdmin: an admin of the group writing as the group.
	byAnonymousAdmin
	// byChat: another chat (a channel, or a linked channel's post
	// forwarded into its discussion group), which is no person.
	byChat
)

// senderOf says who sent a message. sender_chat names the chat a message
// was sent on behalf of: "the supergroup itself for messages sent by its
// anonymous administrators or a linked channel for messages automatically
// forwarded to the channel's discussion group"; from is then a stand-in
// (Bot API, Message), never a person to act for.
func senderOf(m *tgbotapi.Message) sender {
	switch {
	case m.SenderChat != nil && isGroup(m.Chat) && m.SenderChat.ID == m.Chat.ID:
		return byAnonymousAdmin
	case m.SenderChat != nil:
		return byChat
	case person(m.From):
		return byPerson
	}
	return byNobody
}

// typed is a command as typed: its name in lower case, the bot it names
// after "@" (if any) and its arguments.
type typed struct{ name, bot, args string }

// commandOf returns a message's command, or false when the message holds
// none. A command is a bot_command entity at the start of the text, "/"
// and ASCII (Telegram's commands are Latin letters, digits and
// underscores, so the entity's length in UTF-16 is its length in bytes);
// why says what is wrong with an entity that claims a command and is none.
func commandOf(m *tgbotapi.Message) (cmd typed, ok bool, why string) {
	if len(m.Entities) == 0 || m.Entities[0].Offset != 0 || !m.Entities[0].IsCommand() {
		return typed{}, false, ""
	}
	n := m.Entities[0].Length
	if n < 2 || n > len(m.Text) || m.Text[0] != '/' {
		return typed{}, false, fmt.Sprintf("a bot_command entity of length %d on a text of %d bytes", n, len(m.Text))
	}
	for i := range n {
		if m.Text[i] >= utf8.RuneSelf {
			return typed{}, false, "a bot_command entity over non-ASCII text"
		}
	}
	name, bot, _ := strings.Cut(m.Text[1:n], "@")
	return typed{name: strings.ToLower(name), bot: bot, args: strings.TrimSpace(m.Text[n:])}, true, ""
}

// unheard says why a message holds no command to the bot, whatever its
// text, "" when it may hold one:
//   - a linked channel's post automatically forwarded to the group
//     (is_automatic_forward): the channel posted it, to its readers;
//   - a forwarded message: someone else's words;
//   - a message from a bot: bots answering bots could loop for ever
//     (Telegram does not show bots each other's messages in groups, so
//     none should come).
func unheard(m *tgbotapi.Message) string {
	switch {
	case m.IsAutomaticForward:
		return "an automatic forward of a linked channel's post"
	case m.ForwardDate != 0:
		return "a forwarded message"
	case m.SenderChat == nil && m.From != nil && m.From.IsBot && !standIn(m.From.ID):
		return "a message from a bot"
	}
	return ""
}

// message handles a message: service messages and commands.
func (b *Bot) message(ctx context.Context, u update) {
	m := u.Message
	switch {
	case m.MigrateToChatID != 0:
		b.migrate(ctx, m.Chat.ID, m.MigrateToChatID)
		return
	case m.MigrateFromChatID != 0:
		b.migrate(ctx, m.MigrateFromChatID, m.Chat.ID)
		return
	case b.added(m):
		b.welcome(m)
		return
	case m.LeftChatMember != nil:
		b.memberLeft(ctx, u)
		return
	}
	if why := unheard(m); why != "" {
		b.log.Debug("message ignored", "update_id", u.UpdateID, "why", why)
		return
	}
	if m.Chat.IsPrivate() && senderOf(m) == byPerson && m.From.ID == m.Chat.ID {
		b.startedPrivate(ctx, m.From)
	}
	tc, ok, why := commandOf(m)
	if why != "" {
		b.skip(u, why)
	}
	if !ok {
		return
	}
	if tc.bot != "" && !strings.EqualFold(tc.bot, b.Username()) {
		return // a command for another bot
	}
	c := command{b: b, u: u, m: m, key: storage.TableKey{Chat: m.Chat.ID, Thread: int64(u.thread)}, name: tc.name, args: tc.args}
	c.lang = b.chatLang(ctx, m.Chat.ID, m.From)
	switch {
	case m.SenderChat != nil:
		c.who = m.SenderChat.ID // from is a stand-in then (see senderOf)
	case m.From != nil:
		c.who = m.From.ID
	}
	c.route(ctx)
}

// command is a command being handled.
type command struct {
	b    *Bot
	u    update
	m    *tgbotapi.Message
	key  storage.TableKey
	args string
	lang i18n.Lang
	// name is the command's name, lower case; who is the sender, for the
	// reply quota: the user, or the chat they posted as.
	name string
	who  int64
	// spec is the command's entry in commands, once routed.
	spec *commandSpec
}

// say answers the command with an HTML message, in reply to it.
func (c *command) say(text string) { c.sayMessage(render.Message{Text: text}) }

// sayMessage answers the command with a message, in reply to it, within
// the sender's reply quota: an answer past their budget is not sent, nor,
// for a command that only shows something, the answer they were just given
// to the same command (a command that changes something, or tries to, is
// always told how it went).
func (c *command) sayMessage(m render.Message) { c.sayMessageThen(m, nil) }

// sayMessageThen is sayMessage, calling sent, when not nil, with the id of
// the message once it is sent.
func (c *command) sayMessageThen(m render.Message, sent func(ctx context.Context, id int)) {
	slot := saySlot(c.u.thread, m)
	repeat := ""
	if c.showsOnly() {
		repeat = c.name + " " + c.args + " " + slot
	}
	if c.b.quota.allow(c.m.Chat.ID, c.who, repeat, c.b.clock.Now()) {
		c.b.replyThen(c.m.Chat.ID, c.u.thread, c.m.MessageID, slot, m, sent)
	}
}

// showsOnly reports whether the command only shows something, changing
// nothing (commandSpec.showsOnly).
func (c *command) showsOnly() bool {
	return c.spec != nil && c.spec.showsOnly != nil && c.spec.showsOnly(c.args)
}

// player returns the acting user, or false (after answering) when the
// command came from no person: an anonymous admin or a channel, who cannot
// play, or nobody the bot can tell.
func (c *command) player() (storage.User, bool) {
	switch senderOf(c.m) {
	case byPerson:
		return user(c.m.From), true
	case byAnonymousAdmin:
		c.say(i18n.T(c.lang, i18n.AnonymousPlay))
	case byChat:
		c.say(i18n.T(c.lang, i18n.ChatSender))
	default:
		c.say(i18n.T(c.lang, i18n.UnknownSender))
	}
	return storage.User{}, false
}

// actor returns the user an admin command acts as: none for an anonymous
// admin.
func (c *command) actor() storage.User {
	if senderOf(c.m) != byPerson {
		return storage.User{}
	}
	return user(c.m.From)
}

// apply applies a game command made by this message.
func (c *command) apply(ctx context.Context, u storage.User, cmd game.Command) (storage.Applied, error) {
	return c.b.store.Apply(ctx, c.request(u, cmd))
}

// request is the storage request of a game command made by this message.
func (c *command) request(u storage.User, cmd game.Command) storage.ApplyRequest {
	return c.b.request(c.key, c.u.UpdateID, u, cmd)
}

// newGame handles /newgame: it opens a table, or brings the open one to
// the bottom of the chat. In a private chat the house sits down at once:
// solo play.
func (c *command) newGame(ctx context.Context) {
	u, ok := c.player()
	if !ok {
		return
	}
	// Typed at the bottom of the chat: the lobby goes there, and the closed
	// table's message goes, or stays as the record of its last game.
	req := c.request(u, game.Command{Kind: game.Open, User: u.ID, Name: u.Name})
	req.Repost = true
	if err := c.b.soloThen(ctx, c.m.Chat, &req); err != nil {
		c.b.internal("newgame", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	res, err := c.b.store.Apply(ctx, req)
	switch {
	case err == nil:
		c.b.opened(res.View, u, c.m.Chat)
		c.b.show(res.View)
		if why := c.b.houseAbsent(res); why != "" {
			c.say(why)
		}
	case errors.Is(err, game.ErrTableOpen):
		// Bring the open table to the bottom of the chat: a new message,
		// within the sender's quota like an answer.
		if !c.b.quota.allow(c.m.Chat.ID, c.who, "repost:"+c.key.String(), c.b.clock.Now()) {
			return
		}
		v, err := c.b.store.Repost(ctx, c.key, int64(c.u.UpdateID), c.b.clock.Now())
		if errors.Is(err, storage.ErrDuplicate) {
			return // delivered again: moved down the first time
		}
		if err != nil {
			c.b.internal("newgame", err)
			c.say(i18n.T(c.lang, i18n.PopError))
			return
		}
		c.b.show(v)
	case errors.Is(err, storage.ErrDuplicate):
	default:
		c.sayError(err, res.View, u)
	}
}

func (c *command) leave(ctx context.Context) {
	u, ok := c.player()
	if !ok {
		return
	}
	cmd := game.Command{Kind: game.Leave, User: u.ID}
	res, err := c.apply(ctx, u, cmd)
	switch {
	case err == nil:
		c.b.show(res.View)
		// Told as the Leave button is: the table's edit names nobody.
		c.say(toast(c.lang, cmd, res.Outcome, &res.Table))
	case errors.Is(err, storage.ErrDuplicate):
	default:
		c.sayError(err, res.View, u)
	}
}

// sayError answers a rejected command with the reason, as a message.
func (c *command) sayError(err error, v storage.View, u storage.User) {
	text, _ := c.b.rejection(c.lang, err, v, u.ID)
	c.sayMessage(render.Plain(text))
}

func (c *command) balance(ctx context.Context) {
	u, ok := c.player()
	if !ok {
		return
	}
	acc, err := c.b.store.Account(ctx, c.m.Chat.ID, u, c.b.clock.Now())
	if err != nil {
		c.b.internal("balance", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	c.sayMessage(render.Balance(u.Name, acc.Balance, c.lang))
}

func (c *command) bonus(ctx context.Context) {
	u, ok := c.player()
	if !ok {
		return
	}
	now := c.b.clock.Now()
	got, err := c.b.store.ClaimBonus(ctx, c.m.Chat.ID, u, now)
	switch {
	case err == nil:
		c.sayMessage(render.BonusGranted(u.Name, got, c.lang))
	case errors.Is(err, storage.ErrBonusTooSoon):
		c.sayMessage(render.BonusWait(u.Name, got.Next.Sub(now), c.lang))
	case errors.Is(err, storage.ErrBonusNotNeeded):
		s, _ := c.b.store.Settings(ctx, c.m.Chat.ID)
		c.sayMessage(render.BonusNotNeeded(u.Name, s.Game.EntryLimit, got, c.lang))
	default:
		c.b.internal("bonus", err)
		c.say(i18n.T(c.lang, i18n.PopError))
	}
}

func (c *command) cancel(ctx context.Context) {
	u := c.actor()
	before, err := c.b.store.View(ctx, c.key)
	if err != nil {
		c.b.internal("cancel", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	res, err := c.apply(ctx, u, game.Command{Kind: game.Cancel, User: u.ID})
	switch {
	case err == nil:
		c.b.show(res.View)
		if before.Table.Phase().InGame() {
			c.say(i18n.T(c.lang, i18n.CancelDone))
		} else {
			c.say(i18n.T(c.lang, i18n.CancelLobby))
		}
	case errors.Is(err, game.ErrNoTable):
		c.say(i18n.T(c.lang, i18n.CancelNothing))
	case errors.Is(err, storage.ErrDuplicate):
	default:
		c.sayError(err, res.View, u)
	}
}

func (c *command) setLang(ctx context.Context) {
	if c.args == "" {
		c.say(i18n.T(c.lang, i18n.LangCurrent, i18n.NameInText(c.lang)))
		return
	}
	l, err := setting.ReadLang(c.args)
	var problem *setting.Problem
	if errors.As(err, &problem) {
		c.say(problem.Message(c.lang))
		return
	}
	s, err := c.b.editSettings(ctx, c.m.Chat.ID, func(cur setting.Chat) (setting.Chat, error) {
		return setting.Set(cur, callback.FieldLang, string(l))
	})
	if err != nil {
		c.b.internal("lang", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	c.say(i18n.T(l, i18n.LangSet, i18n.NameInText(l)))
	c.b.refreshChat(ctx, c.key.Chat)
	c.b.redrawPanels(c.m.Chat.ID, s)
}

// refreshChat re-renders every open table of a chat (one per forum topic):
// after a change of the chat's settings or language.
func (b *Bot) refreshChat(ctx context.Context, chat int64) {
	b.eachTable(ctx, chat, func(v storage.View) {
		if v.Table.Phase() != game.Closed {
			b.show(v)
		}
	})
}

// eachTable calls fn with the view of each of the chat's tables (one per
// forum topic); what it cannot read is logged and left out.
func (b *Bot) eachTable(ctx context.Context, chat int64, fn func(storage.View)) {
	keys, err := b.store.ChatTables(ctx, chat)
	if err != nil {
		b.log.Warn("listing a chat's tables", "chat", chat, "err", err)
		return
	}
	for _, key := range keys {
		v, err := b.store.View(ctx, key)
		if err != nil {
			b.log.Warn("loading a table", "table", key, "err", err)
			continue
		}
		fn(v)
	}
}

// refresh re-renders a table that is open.
func (b *Bot) refresh(ctx context.Context, key storage.TableKey) {
	v, err := b.store.View(ctx, key)
	if err != nil {
		b.log.Warn("loading a table", "table", key, "err", err)
		return
	}
	if v.Table.Phase() != game.Closed {
		b.show(v)
	}
}

func (b *Bot) internal(what string, err error) {
	b.log.Error("internal error", "action", what, "err", err)
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
	if !isGroup(m.Chat) {
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

// welcome says hello to a group the bot joined, in the language of who
// added it.
func (b *Bot) welcome(m *tgbotapi.Message) {
	l := langOf(storage.ChatSettings{}, user(m.From).Language)
	b.reply(m.Chat.ID, 0, 0, "", render.Message{Text: i18n.T(l, i18n.Welcome, i18n.Chips(l, b.cfg.StartingChips))})
}

// memberChanged acts on the bot's own membership: removed from a chat, it
// refunds the bets of the chat's tables; in a private chat, see
// privateMember. (It says hello on the message that it was added: see
// added.)
func (b *Bot) memberChanged(ctx context.Context, m *tgbotapi.ChatMemberUpdated) {
	if m.NewChatMember.User.ID != b.ID() {
		return
	}
	if m.Chat.IsPrivate() {
		b.privateMember(ctx, m)
		return
	}
	chat := m.Chat.ID
	was, is := m.OldChatMember.Status, m.NewChatMember.Status
	gone := func(s string) bool { return s == "left" || s == "kicked" || s == "" }
	if gone(is) && !gone(was) {
		b.removed(ctx, chat)
	}
}

// removed cancels the chat's open tables, refunding the bets, and forgets
// them: the bot can no longer write there (it was removed from the group,
// or blocked in the private chat).
func (b *Bot) removed(ctx context.Context, chat int64) {
	res, err := b.store.CancelAll(ctx, chat, b.clock.Now())
	if err != nil {
		b.internal("removed from chat", err)
		return
	}
	b.forget(chat)
	if len(res) > 0 {
		b.log.Info("removed from a chat: bets refunded", "chat", chat, "tables", len(res))
	}
}

// forget drops what the bot remembers of a chat's tables.
func (b *Bot) forget(chat int64) {
	for _, k := range b.tables.forget(chat) {
		b.timers.clear(k)
	}
	b.nudges.forget(chat)
	b.notices.forget(chat)
}

// migrate moves a group's tables, chips and settings to the supergroup it
// became, and shows its open table there: the bot's old messages are not
// carried over.
func (b *Bot) migrate(ctx context.Context, from, to int64) {
	if err := b.store.MigrateChat(ctx, from, to); err != nil && !errors.Is(err, storage.ErrNotFound) {
		b.internal("migrate", err)
		return
	}
	b.forget(from)
	b.onChat(to, "migrate", func() { b.refresh(b.base, storage.TableKey{Chat: to}) }, "from", from)
}
