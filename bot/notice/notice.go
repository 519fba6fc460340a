// Package notice tells the users who follow a group that a table opened
// there. A user follows a group (/notify in it, or the bot's deep link)
// and gets a private message when a table opens there (a new lobby:
// /newgame or New table; the lobby after a game, Play again, is the same
// table going on). A group is followed as a whole: the message names the
// table of whichever forum topic opened one, with a link to it. The bot
// can write only to a user who started it in a private chat (else Telegram
// answers 403 "bot can't initiate conversation with a user"): storage
// keeps who did, and a user who did not is given the bot's deep link,
// t.me/<bot>?start=notify_<group>, whose /start follows the group.
//
// A notice's life has one entry, Notices.Opened, which package input
// calls where a command or a press opens a table in a chat, and hands to
// the table keeper with the lobby to show (table.Keeper.Open):
//
//  1. Opened. Only input knows who opened the table and the group's
//     title, username and type: Opened keeps them in what it returns (in a
//     private chat it returns nil: no followers), and remembers nothing.
//  2. The table's first message. Only the table knows it: the keeper calls
//     what Opened returned once the lobby's first message is sent and its
//     id stored, and never when the lobby is over before (a game started,
//     the table closed) or the chat was forgotten.
//  3. Announce, on the group's goroutine (Host.OnChat): storage picks the
//     followers to tell (not the opener, each at most once per Quiet) and
//     notes that they were, and one private message each is queued in the
//     outbox as a Notice, which yields to every table's render and reply.
//  4. The notice. When its turn comes it reads the table: it tells of the
//     lobby, as the lobby is then, only while the table is still that
//     lobby in that message; once the lobby is over, or it moved into
//     another message, the notice tells nothing. A follower who blocked
//     the bot is forgotten (send.Chats.Refused).
//
// Nothing of a notice is kept in memory but in the table keeper, until its
// message is sent, and in the outbox, until it goes.
package notice

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Quiet is the least time between two notices of one group to one user: a
// group that opens, closes and opens tables again (a lobby left to time
// out, as short as 30 s) pings nobody more than once in it. It is the
// default lobby time: a follower hears of the group at most once per
// lobby that waits its whole time.
const Quiet = 10 * time.Minute

// Store is what the notices need of storage.
type Store interface {
	Announce(ctx context.Context, chat int64, opener game.UserID, title string, now time.Time, quiet time.Duration) ([]storage.Follower, error)
	View(ctx context.Context, key storage.TableKey) (storage.View, error)
	Settings(ctx context.Context, chat int64) (storage.ChatSettings, error)
}

// Host is what the notices ask of the bot above them.
type Host interface {
	// OnChat runs fn on the chat's goroutine, after what is queued there,
	// as work of kind.
	OnChat(chat int64, kind string, fn func(ctx context.Context))
}

// Notices announces the tables that open in groups to their followers.
// It remembers nothing of them: what a notice needs travels with it. Its
// methods are safe for concurrent use.
type Notices struct {
	store Store
	send  *send.Sender
	clock clock.Clock
	log   *slog.Logger
	host  Host
}

// New returns the notices of the groups in store, sent through s.
func New(store Store, s *send.Sender, c clock.Clock, log *slog.Logger, host Host) *Notices {
	return &Notices{store: store, send: s, clock: c, log: log, host: host}
}

// Opened returns what announces the table that by just opened in chat to
// the group's followers, for the table keeper to call once the table's
// first message is sent (table.Keeper.Open's sent): it is a notice's one
// entry. A private chat has no followers: Opened returns nil there.
func (n *Notices) Opened(by storage.User, chat *tgbotapi.Chat) func(v storage.View, id int) {
	if !botapi.IsGroup(chat) {
		return nil
	}
	o := opening{by: by, group: groupOf(chat)}
	return func(v storage.View, id int) {
		n.host.OnChat(v.Key.Chat, "announce", func(ctx context.Context) { n.announce(ctx, v.Key, id, o) })
	}
}

// opening is a table just opened: by whom, in which group.
type opening struct {
	by    storage.User
	group group
}

// announce sends the followers of the group, but the opener, a private
// message that the table opened in message id (each at most once per
// Quiet), as notices: they wait for every table's render and reply. A
// notice goes only while the table is still the lobby announced, in the
// message announced; one whose lobby is over (a game started, the table
// closed, or it moved into another message) by its turn tells nothing.
func (n *Notices) announce(ctx context.Context, key storage.TableKey, id int, o opening) {
	followers, err := n.store.Announce(ctx, key.Chat, o.by.ID, o.group.title, n.clock.Now(), Quiet)
	if err != nil {
		fault.Log(ctx, n.log, "announce", key, err)
		return
	}
	link := messageLink(key.Chat, o.group, id)
	for _, f := range followers {
		chat := int64(f.User)
		n.send.Enqueue(outbox.Op{Chat: chat, Class: outbox.Notice, Slot: "notice:" + key.String(),
			Do: func(ctx context.Context) error {
				v, err := n.store.View(ctx, key)
				if err != nil || v.Table.Phase() != game.Lobby || v.MessageID != id {
					return nil // the lobby is over, or in another message: nothing to tell
				}
				s, _ := n.store.Settings(ctx, chat)
				msg := render.Opened(render.Notice{Title: o.group.title, Opener: o.by.Name, Settings: v.Settings.Game,
					Closes: v.Table.Deadline(), Now: n.clock.Now(), Link: link, Lang: i18n.For(s.Language, f.Language)})
				_, err = n.send.Send(ctx, chat, 0, msg, 0)
				return err
			}})
	}
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

// startFollow is the start parameter of the deep link that follows a group:
// "notify_" and the group's id without its minus (a group's id is negative,
// and the parameter allows only A-Z a-z 0-9 _ -).
const startFollow = "notify_"

// FollowLink returns the deep link of the bot named username that follows
// the group.
func FollowLink(username string, chat int64) string {
	return "https://t.me/" + username + "?start=" + startFollow + strconv.FormatInt(-chat, 10)
}

// IsFollowParam reports whether a start parameter is one of FollowLink's,
// well formed or not.
func IsFollowParam(param string) bool { return strings.HasPrefix(param, startFollow) }

// FollowParam reads a start parameter of FollowLink: the group it names,
// or false when it is malformed (not digits, a leading zero, 0, or more
// than a chat id holds).
func FollowParam(param string) (int64, bool) {
	digits, ok := strings.CutPrefix(param, startFollow)
	if !ok || digits == "" || len(digits) > 16 || digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return -n, err == nil
}
