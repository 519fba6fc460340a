package input

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/notice"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// The groups users follow (package notice sends the notices): /notify
// in a group follows it or stops; in private it lists the groups followed,
// with a button to stop each; the deep link of /notify follows a group
// from the private chat. A member who leaves a group, or is removed, stops
// following it.

// followers is the follows' job of the Handler: what the /notify commands,
// the deep link, the list's Unfollow buttons and a member's leaving do to
// the groups users follow (FollowStore), and the "start me in private"
// prompts they leave in groups. It is safe for concurrent use; it answers
// presses and reaches chats through send alone, and asks nothing of the
// tables.
type followers struct {
	store   FollowStore
	send    *send.Sender
	prompts *prompts
	clock   clock.Clock
	log     *slog.Logger
}

func newFollowers(store FollowStore, s *send.Sender, c clock.Clock, log *slog.Logger) *followers {
	return &followers{store: store, send: s, prompts: newPrompts(s, c), clock: c, log: log}
}

// notify handles /notify: in a group, follows it or stops (with anything
// after it, it only says how it is used); in private, lists the groups the
// user follows.
func notify(ctx context.Context, c *command) {
	if !botapi.IsGroup(c.m.Chat) {
		follows(ctx, c)
		return
	}
	if c.args != "" {
		// "/notify off" must not turn them on: a toggle takes no word.
		c.tell(i18n.T(c.lang, i18n.NotifyUsage))
		return
	}
	u, ok := c.player()
	if !ok {
		return
	}
	on, err := c.h.follows.store.ToggleFollow(ctx, c.m.Chat.ID, u, c.m.Chat.Title, int64(c.u.UpdateID), c.h.clock.Now())
	switch {
	case err == nil:
		c.sayMessage(render.NotifyToggled(u.Name, on, c.lang))
		c.h.follows.prompts.used(c.m.Chat.ID, int64(u.ID))
	case errors.Is(err, storage.ErrDuplicate):
		// Delivered again: toggled and answered the first time.
	case errors.Is(err, storage.ErrNoPrivateChat):
		chat, user := c.m.Chat.ID, int64(u.ID)
		c.h.follows.prompts.sending(chat, user)
		c.sayMessageThen(render.NotifyStartFirst(u.Name, notice.FollowLink(c.h.self().UserName, chat), c.lang),
			func(_ context.Context, at send.Sent) { c.h.follows.prompts.sent(chat, user, at) })
	case errors.Is(err, storage.ErrTooManyFollows):
		c.sayMessage(render.NotifyTooMany(storage.MaxFollows, c.lang))
	default:
		c.fail(ctx, err)
	}
}

// follows answers /notify in private: the groups the user follows.
func follows(ctx context.Context, c *command) {
	u, ok := c.player()
	if !ok {
		return
	}
	fs, err := c.h.follows.store.Follows(ctx, u.ID)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.sayMessage(render.Follows(followsView(fs), c.lang))
}

// followFromLink handles "/start notify_<group>" in private, the bot's deep
// link: the user follows the group, once Telegram says that the group is
// one the bot is in and the user a member of it. Nothing in the link is
// trusted: a forged one follows only a group the user could follow with
// /notify in it.
func followFromLink(ctx context.Context, c *command) {
	chat, ok := notice.FollowParam(c.args)
	if !ok {
		c.tell(i18n.T(c.lang, i18n.NotifyBadLink))
		return
	}
	u, ok := c.player()
	if !ok {
		return
	}
	chat, title, why := c.h.follows.checkMember(ctx, chat, int64(u.ID))
	if why != "" {
		c.tell(i18n.T(c.lang, why))
		return
	}
	already, err := c.h.follows.store.Follow(ctx, chat, u, title, c.h.clock.Now())
	switch {
	case err == nil:
		c.sayMessage(render.Followed(title, already, c.lang))
		c.h.follows.prompts.used(chat, int64(u.ID))
	case errors.Is(err, storage.ErrTooManyFollows):
		c.sayMessage(render.NotifyTooMany(storage.MaxFollows, c.lang))
	default:
		c.fail(ctx, err)
	}
}

// checkMember asks Telegram whether chat is a group the bot is in and the
// user a member of, and returns the group as it is now and its title;
// else why not, as the key of the answer. A group upgraded to a
// supergroup is followed to it (and moved in storage): the group returned
// is then the supergroup, where its tables open.
func (f *followers) checkMember(ctx context.Context, chat, user int64) (group int64, title string, why i18n.Key) {
	api := f.send // reports a group that moved
	for range 2 {
		info, err := api.Chat(ctx, chat)
		var m botapi.Member
		if err == nil {
			if info.Type != "group" && info.Type != "supergroup" {
				return 0, "", i18n.NotifyNoGroup
			}
			m, err = api.Member(ctx, chat, user)
		}
		if tg := (*botapi.Error)(nil); errors.As(err, &tg) && tg.MigrateTo != 0 {
			chat = tg.MigrateTo
			continue
		}
		switch {
		case errors.Is(err, botapi.ErrChatNotFound), errors.Is(err, botapi.ErrForbidden):
			return 0, "", i18n.NotifyNoGroup
		case err != nil:
			f.log.WarnContext(ctx, "checking a member for a deep link", "chat", chat, "err", err)
			return 0, "", i18n.NotifyCheckFailed
		case m.In():
			return chat, info.Title, ""
		}
		return 0, "", i18n.NotifyNotMember
	}
	return 0, "", i18n.NotifyCheckFailed
}

// pressUnfollow handles the button of the private list that stops
// following a group: only the presser's own following, whatever group the
// data names. The list is edited to what is left, in the chat's language
// chatLang (the presser is answered in lang). A press on a message that
// shows other buttons (a solo table) is forged: it changes nothing.
func (f *followers) pressUnfollow(ctx context.Context, q *tgbotapi.CallbackQuery, chat int64, lang i18n.Lang, chatLang func() i18n.Lang) {
	private := q.Message.Chat.ID
	answer := func(text string) { f.send.Answer(ctx, q.ID, text, false) }
	list, others := unfollowButtons(q.Message)
	if others {
		answer(i18n.T(lang, i18n.PopBadButton))
		return
	}
	user := game.UserID(q.From.ID)
	key := storage.TableKey{Chat: q.Message.Chat.ID}
	was, err := f.store.Unfollow(ctx, chat, user)
	if err != nil {
		fault.Log(ctx, f.log, "unfollow", key, err)
		answer(i18n.T(lang, i18n.PopError))
		return
	}
	if !was {
		answer(i18n.T(lang, i18n.PopNotFollowing))
	} else {
		answer(i18n.T(lang, i18n.PopUnfollowed))
	}
	if !list {
		// No list to edit: the list Telegram no longer gives (deleted, or
		// an inaccessible message), or one its last press emptied.
		return
	}
	fs, err := f.store.Follows(ctx, user)
	if err != nil {
		fault.Log(ctx, f.log, "unfollow", key, err)
		return
	}
	id := q.Message.MessageID
	msg := render.Follows(followsView(fs), chatLang())
	s := f.send
	s.Enqueue(outbox.Op{Chat: private, Slot: "follows:" + strconv.Itoa(id), Do: func(ctx context.Context) error {
		return s.Edit(ctx, private, id, msg)
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
// keeps following). The bot's own removal is the bot's (package bot).
func (f *followers) memberLeft(ctx context.Context, u botapi.Update) {
	m := u.Message
	left := m.LeftChatMember
	if !botapi.IsGroup(m.Chat) || left.ID <= 0 || left.ID == f.send.Self().ID {
		return
	}
	stopped, err := f.store.MemberLeft(ctx, m.Chat.ID, game.UserID(left.ID), int64(u.UpdateID), f.clock.Now())
	switch {
	case err != nil && !errors.Is(err, storage.ErrDuplicate):
		fault.Log(ctx, f.log, "member left", storage.TableKey{Chat: m.Chat.ID}, err)
	case stopped:
		f.log.InfoContext(ctx, "a follower left the group: no more notices", "chat", m.Chat.ID, "user", left.ID)
	}
}

// startedPrivate records that the user wrote to the bot in their private
// chat: the bot may write to them.
func (f *followers) startedPrivate(ctx context.Context, from *tgbotapi.User) {
	if err := f.store.StartedPrivate(ctx, Profile(from), f.clock.Now()); err != nil {
		fault.Log(ctx, f.log, "private chat", storage.TableKey{Chat: from.ID}, err)
	}
}

// prompts remembers the "start me in private" prompts the bot sent into
// groups (render.NotifyStartFirst, with the deep link's button: an
// ephemeral message where Telegram lets the bot send one), so that once
// used (the user followed the group, from the link or with /notify
// again) the prompt is deleted: its button has done its job, and the
// group (or the user) need not keep it. A prompt used while still on its way (the
// user's client shows it before the bot learns its id) is deleted once
// its id comes. A prompt forgotten (the bot restarted, or it is older than
// a bot may delete) stays.
type prompts struct {
	send *send.Sender
	ids  *expiring.Cache[promptKey, prompt]
}

type promptKey struct{ chat, user int64 }

// prompt is what prompts knows of a user's prompt in a group: its
// message, no id while it is on its way; used, when it was used on its
// way.
type prompt struct {
	at   send.Sent
	used bool
}

// The bounds of prompts: a bot deletes its messages only within 48 hours
// of sending them.
const (
	promptsKept = 47 * time.Hour
	promptsMost = 10_000
)

func newPrompts(s *send.Sender, c clock.Clock) *prompts {
	return &prompts{send: s, ids: expiring.New[promptKey, prompt](promptsMost, promptsKept, c)}
}

// sending records that a prompt for the user in the group is on its way
// (a newer one replaces an older, which stays).
func (p *prompts) sending(chat, user int64) { p.ids.Add(promptKey{chat, user}, prompt{}) }

// sent records the message of the user's prompt in the group; one used
// on its way is deleted now.
func (p *prompts) sent(chat, user int64, at send.Sent) {
	used := false
	p.ids.Update(promptKey{chat, user}, func(v prompt, ok bool) (prompt, bool) {
		used = ok && v.used
		return prompt{at: at}, !used
	})
	if used {
		p.delete(chat, at)
	}
}

// used deletes the user's prompt in the group, if one is remembered, or
// marks it to be deleted once sent.
func (p *prompts) used(chat, user int64) {
	var at send.Sent
	p.ids.Update(promptKey{chat, user}, func(v prompt, ok bool) (prompt, bool) {
		if ok && v.at.ID == 0 {
			v.used = true
			return v, true
		}
		at = v.at
		return v, false
	})
	if at.ID != 0 {
		p.delete(chat, at)
	}
}

// delete deletes the prompt at in the group, through the outbox: a
// message of the group's as a Retire, an ephemeral one apart from the
// group's pacing.
func (p *prompts) delete(chat int64, at send.Sent) {
	p.send.Enqueue(outbox.Op{Chat: chat, Class: at.Class(outbox.Retire), Slot: "prompt:" + at.String(), Do: func(ctx context.Context) error {
		err := p.send.DeleteSent(ctx, chat, at)
		if errors.Is(err, botapi.ErrGone) || errors.Is(err, botapi.ErrCannotDelete) {
			return nil // gone already, or too old: nothing to do
		}
		return err
	}})
}
