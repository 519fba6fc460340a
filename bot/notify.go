package bot

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// /notify: a user follows a group, and gets a private message when a table
// opens there (a new lobby: /newgame or New table; the lobby after a game,
// Play again, is the same table going on). A group is followed as a whole:
// the message names the table of whichever forum topic opened one, with a
// link to it. The bot can write only to a user who started it in a
// private chat (else Telegram answers 403 "bot can't initiate conversation
// with a user"): storage keeps who did, and a user who did not is given
// the bot's deep link, t.me/<bot>?start=notify_<group>, whose /start
// follows the group. A 403 in a private chat (the user blocked the bot, or
// is deactivated) or a my_chat_member "kicked" there stops every group the
// user follows; a member who leaves a group, or is removed, stops
// following it.

// noticeQuiet is the least time between two notices of one group to one
// user: a group that opens, closes and opens tables again (a lobby left to
// time out, as short as 30 s) pings nobody more than once in it. It is the
// default lobby time: a follower hears of the group at most once per
// lobby that waits its whole time.
const noticeQuiet = 10 * time.Minute

// startFollow is the start parameter of the deep link that follows a group:
// "notify_" and the group's id without its minus (a group's id is negative,
// and the parameter allows only A-Z a-z 0-9 _ -).
const startFollow = "notify_"

// followLink returns the bot's deep link that follows the group.
func (b *Bot) followLink(chat int64) string {
	return "https://t.me/" + b.Username() + "?start=" + startFollow + strconv.FormatInt(-chat, 10)
}

// followParam reads a start parameter of startFollow: the group it names,
// or false when it is malformed (not digits, a leading zero, 0, or more
// than a chat id holds).
func followParam(param string) (int64, bool) {
	digits, ok := strings.CutPrefix(param, startFollow)
	if !ok || digits == "" || len(digits) > 16 || digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return -n, err == nil
}

// group is what a notice needs of a group: its title, and what a link to
// one of its messages is made of.
type group struct {
	title, username string
	super           bool
}

func groupOf(c *tgbotapi.Chat) group {
	return group{title: c.Title, username: c.UserName, super: c.IsSuperGroup()}
}

// messageLink returns the t.me link to a message of a group: by the
// group's username when it is public, t.me/c/<id>/<message> for a private
// supergroup (its id without the -100 prefix), "" for a basic group, whose
// messages have no links (Telegram's "Message links").
func messageLink(chat int64, g group, id int) string {
	switch {
	case g.username != "":
		return "https://t.me/" + g.username + "/" + strconv.Itoa(id)
	case g.super && chat < -1_000_000_000_000:
		return "https://t.me/c/" + strconv.FormatInt(-chat-1_000_000_000_000, 10) + "/" + strconv.Itoa(id)
	}
	return ""
}

// notices remembers the tables being announced. Its methods are safe for
// concurrent use.
type notices struct {
	mu sync.Mutex
	// opening: the tables just opened, announced once their message is
	// sent (see Bot.tableSent); open: the message of each lobby announced,
	// while it is open, for the notices still waiting (see live).
	opening map[storage.TableKey]opening
	open    map[storage.TableKey]int
}

// opening is a table just opened: by whom, in which group, when.
type opening struct {
	by    storage.User
	group group
	at    time.Time
}

// openingKept bounds how long a table opened waits for its message to be
// announced, once the bot holds many: a message is sent within seconds.
const openingKept = time.Hour

func newNotices() *notices {
	return &notices{opening: map[storage.TableKey]opening{}, open: map[storage.TableKey]int{}}
}

// opened records a table just opened.
func (n *notices) opened(key storage.TableKey, o opening) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.opening) >= 1024 {
		for k, old := range n.opening {
			if o.at.Sub(old.at) >= openingKept {
				delete(n.opening, k)
			}
		}
	}
	n.opening[key] = o
}

// sent takes the table opened whose lobby was just sent in message id,
// and records the lobby as open; false when none waits.
func (n *notices) sent(key storage.TableKey, id int) (opening, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	o, ok := n.opening[key]
	if ok {
		delete(n.opening, key)
		n.open[key] = id
	}
	return o, ok
}

// follow forgets a table's lobby once the view shows it is over (a game
// started, or the table closed).
func (n *notices) follow(v storage.View) {
	if v.Table.Phase() == game.Lobby {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.opening, v.Key)
	delete(n.open, v.Key)
}

// live reports whether the lobby announced in message id is still open.
func (n *notices) live(key storage.TableKey, id int) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.open[key] == id
}

// forget drops the chat's tables.
func (n *notices) forget(chat int64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for k := range n.opening {
		if k.Chat == chat {
			delete(n.opening, k)
		}
	}
	for k := range n.open {
		if k.Chat == chat {
			delete(n.open, k)
		}
	}
}

// opened records that by opened the table of v in chat, to announce it to
// the group's followers once its message is sent. It is called before the
// table is shown, so that the render cannot come first.
func (b *Bot) opened(v storage.View, by storage.User, chat *tgbotapi.Chat) {
	if !isGroup(chat) {
		return // nobody follows a private chat: no Announce to write
	}
	b.notices.opened(v.Key, opening{by: by, group: groupOf(chat), at: b.clock.Now()})
}

// tableSent is told of each table message sent anew (tableMessages.sent):
// a lobby just opened is announced.
func (b *Bot) tableSent(v storage.View, id int) {
	b.notices.follow(v)
	if v.Table.Phase() != game.Lobby {
		return
	}
	if o, ok := b.notices.sent(v.Key, id); ok {
		b.onChat(v.Key.Chat, "announce", func() { b.announce(b.base, v.Key, id, o) }, "table", v.Key)
	}
}

// announce sends the followers of the group, but the opener, a private
// message that the table opened (each at most once per noticeQuiet), as
// notices: they wait for every table's render and reply, and are dropped
// uncalled once the lobby is over.
func (b *Bot) announce(ctx context.Context, key storage.TableKey, id int, o opening) {
	followers, err := b.store.Announce(ctx, key.Chat, o.by.ID, o.group.title, b.clock.Now(), noticeQuiet)
	if err != nil {
		b.internal("announce", err)
		return
	}
	link := messageLink(key.Chat, o.group, id)
	for _, f := range followers {
		chat := int64(f.User)
		b.enqueue(outbox.Op{Chat: chat, Class: outbox.Notice, Slot: "notice:" + key.String(),
			Stale: func() bool { return !b.notices.live(key, id) },
			Do: func(ctx context.Context) error {
				v, err := b.store.View(ctx, key)
				if err != nil || v.Table.Phase() != game.Lobby {
					return nil // the lobby is over: nothing to tell
				}
				s, _ := b.store.Settings(ctx, chat)
				msg := render.Opened(render.Notice{Title: o.group.title, Opener: o.by.Name, Settings: v.Settings.Game,
					Closes: v.Table.Deadline(), Now: b.clock.Now(), Link: link, Lang: langOf(s, f.Language)})
				_, err = b.api.sendMessage(chat, 0, msg, 0)
				return forOutbox(b.chatError(chat, err))
			}})
	}
}

// notify handles /notify: in a group, follows it or stops (with anything
// after it, it only says how it is used); in private, lists the groups the
// user follows.
func (c *command) notify(ctx context.Context) {
	if !isGroup(c.m.Chat) {
		c.follows(ctx)
		return
	}
	if c.args != "" {
		// "/notify off" must not turn them on: a toggle takes no word.
		c.say(i18n.T(c.lang, i18n.NotifyUsage))
		return
	}
	u, ok := c.player()
	if !ok {
		return
	}
	on, err := c.b.store.ToggleFollow(ctx, c.m.Chat.ID, u, c.m.Chat.Title, int64(c.u.UpdateID), c.b.clock.Now())
	switch {
	case err == nil:
		c.sayMessage(render.NotifyToggled(u.Name, on, c.lang))
	case errors.Is(err, storage.ErrDuplicate):
		// Delivered again: toggled and answered the first time.
	case errors.Is(err, storage.ErrNoPrivateChat):
		c.sayMessage(render.NotifyStartFirst(u.Name, c.b.followLink(c.m.Chat.ID), c.lang))
	case errors.Is(err, storage.ErrTooManyFollows):
		c.sayMessage(render.NotifyTooMany(c.lang))
	default:
		c.b.internal("notify", err)
		c.say(i18n.T(c.lang, i18n.PopError))
	}
}

// follows answers /notify in private: the groups the user follows.
func (c *command) follows(ctx context.Context) {
	u, ok := c.player()
	if !ok {
		return
	}
	fs, err := c.b.store.Follows(ctx, u.ID)
	if err != nil {
		c.b.internal("notify", err)
		c.say(i18n.T(c.lang, i18n.PopError))
		return
	}
	c.sayMessage(render.Follows(fs, c.lang))
}

// followFromLink handles "/start notify_<group>" in private, the bot's deep
// link: the user follows the group, once Telegram says that the group is
// one the bot is in and the user a member of it. Nothing in the link is
// trusted: a forged one follows only a group the user could follow with
// /notify in it.
func (c *command) followFromLink(ctx context.Context, param string) {
	chat, ok := followParam(param)
	if !ok {
		c.say(i18n.T(c.lang, i18n.NotifyBadLink))
		return
	}
	u, ok := c.player()
	if !ok {
		return
	}
	chat, title, why := c.b.checkMember(chat, int64(u.ID))
	if why != "" {
		c.say(i18n.T(c.lang, why))
		return
	}
	already, err := c.b.store.Follow(ctx, chat, u, title, c.b.clock.Now())
	switch {
	case err == nil:
		c.sayMessage(render.Followed(title, already, c.lang))
	case errors.Is(err, storage.ErrTooManyFollows):
		c.sayMessage(render.NotifyTooMany(c.lang))
	default:
		c.b.internal("follow", err)
		c.say(i18n.T(c.lang, i18n.PopError))
	}
}

// checkMember asks Telegram whether chat is a group the bot is in and the
// user a member of, and returns the group as it is now and its title;
// else why not, as the key of the answer. A group upgraded to a
// supergroup is followed to it (and moved in storage): the group returned
// is then the supergroup, where its tables open.
func (b *Bot) checkMember(chat, user int64) (group int64, title string, why i18n.Key) {
	for range 2 {
		kind, title, err := b.api.chatInfo(chat)
		var status string
		isMember := false
		if err == nil {
			if kind != "group" && kind != "supergroup" {
				return 0, "", i18n.NotifyNoGroup
			}
			status, isMember, err = b.api.memberStatus(chat, user)
		}
		if tg, ok := tgError(err); ok && tg.MigrateToChatID != 0 {
			_ = b.chatError(chat, err)
			chat = tg.MigrateToChatID
			continue
		}
		switch {
		case hasDescription(err, "chat not found"), isForbidden(err):
			return 0, "", i18n.NotifyNoGroup
		case err != nil:
			b.log.Warn("checking a member for a deep link", "chat", chat, "err", err)
			return 0, "", i18n.NotifyCheckFailed
		case status == "creator" || status == "administrator" || status == "member" || status == "restricted" && isMember:
			return chat, title, ""
		}
		return 0, "", i18n.NotifyNotMember
	}
	return 0, "", i18n.NotifyCheckFailed
}

// isForbidden reports whether err is Telegram's 403.
func isForbidden(err error) bool {
	tg, ok := tgError(err)
	return ok && tg.Code == http.StatusForbidden
}

// pressUnfollow handles the button of the private list that stops
// following a group: only the presser's own following, whatever group the
// data names. The list is edited to what is left. A press on a message
// that shows other buttons (a solo table) is forged: it changes nothing.
func (b *Bot) pressUnfollow(ctx context.Context, q *tgbotapi.CallbackQuery, chat int64, lang i18n.Lang) {
	list, others := unfollowButtons(q.Message)
	if others {
		b.answer(q, i18n.T(lang, i18n.PopBadButton), false)
		return
	}
	user := game.UserID(q.From.ID)
	was, err := b.store.Unfollow(ctx, chat, user)
	if err != nil {
		b.internal("unfollow", err)
		b.answer(q, i18n.T(lang, i18n.PopError), false)
		return
	}
	if !was {
		b.answer(q, i18n.T(lang, i18n.PopNotFollowing), false)
	} else {
		b.answer(q, i18n.T(lang, i18n.PopUnfollowed), false)
	}
	if !list {
		// No list to edit: the list Telegram no longer gives (deleted, or
		// an inaccessible message), or one its last press emptied.
		return
	}
	fs, err := b.store.Follows(ctx, user)
	if err != nil {
		b.internal("unfollow", err)
		return
	}
	private, id := q.Message.Chat.ID, q.Message.MessageID
	msg := render.Follows(fs, lang)
	b.enqueue(outbox.Op{Chat: private, Slot: "follows:" + strconv.Itoa(id), Do: func(context.Context) error {
		return forOutbox(b.chatError(private, b.api.editMessage(private, id, msg)))
	}})
}

// unfollowButtons reports whether the message shows Unfollow buttons (it
// is the list of the groups followed), and whether it shows any other.
func unfollowButtons(m *tgbotapi.Message) (list, others bool) {
	if m.ReplyMarkup == nil {
		return false, false
	}
	for _, row := range m.ReplyMarkup.InlineKeyboard {
		for _, btn := range row {
			if btn.CallbackData == nil {
				others = true
				continue
			}
			d, err := callback.Parse(*btn.CallbackData)
			unfollow := err == nil && d.Action == callback.Unfollow
			list, others = list || unfollow, others || !unfollow
		}
	}
	return list, others
}

// memberLeft handles the service message of a member who left the group
// or was removed from it: they follow it no more, as they could not open
// its tables (Telegram sends the message to a bot in privacy mode too; in
// a supergroup of more than about 50 members it sends none, and a leaver
// keeps following). The bot's own removal is memberChanged's.
func (b *Bot) memberLeft(ctx context.Context, u update) {
	m := u.Message
	left := m.LeftChatMember
	if !isGroup(m.Chat) || left.ID <= 0 || left.ID == b.ID() {
		return
	}
	stopped, err := b.store.MemberLeft(ctx, m.Chat.ID, game.UserID(left.ID), int64(u.UpdateID), b.clock.Now())
	switch {
	case err != nil && !errors.Is(err, storage.ErrDuplicate):
		b.internal("member left", err)
	case stopped:
		b.log.Info("a follower left the group: no more notices", "chat", m.Chat.ID, "user", left.ID)
	}
}

// startedPrivate records that the user wrote to the bot in their private
// chat: the bot may write to them.
func (b *Bot) startedPrivate(ctx context.Context, from *tgbotapi.User) {
	if err := b.store.StartedPrivate(ctx, user(from), b.clock.Now()); err != nil {
		b.internal("private chat", err)
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
			u = user(&m.From)
		}
		if err := b.store.StartedPrivate(ctx, u, b.clock.Now()); err != nil {
			b.internal("private chat", err)
		}
	}
}

// stopPrivate forgets that the bot may write to the user, and every group
// they follow, and cancels the solo table of their private chat as a
// group's tables are when the bot is removed: they blocked the bot, or
// Telegram refused a message to them. (Two transactions: a crash between
// them leaves a table whose next message Telegram refuses, which comes
// here again.)
func (b *Bot) stopPrivate(ctx context.Context, userID int64) {
	n, err := b.store.StopPrivate(ctx, game.UserID(userID))
	if err != nil {
		b.internal("stop private", err)
		return
	}
	b.log.Info("the bot may not write to a user: what they follow stopped", "user", userID, "groups", n)
	b.removed(ctx, userID)
}
