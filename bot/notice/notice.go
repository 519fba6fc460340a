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
package notice

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
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
// Its methods are safe for concurrent use.
type Notices struct {
	store Store
	send  *send.Sender
	clock clock.Clock
	log   *slog.Logger
	host  Host
	// opening: the tables just opened, announced once their message is
	// sent (see Sent).
	opening *expiring.Cache[storage.TableKey, opening]

	mu sync.Mutex
	// open: the message of each lobby announced, while it is open, for
	// the notices still waiting (see live).
	open map[storage.TableKey]int
}

// opening is a table just opened: by whom, in which group.
type opening struct {
	by    storage.User
	group group
}

// The bounds of the tables just opened that wait for their message: a
// message is sent within seconds.
const (
	openingKept = time.Hour
	openingMost = 10_000
)

// New returns the notices of the groups in store, sent through s.
func New(store Store, s *send.Sender, c clock.Clock, log *slog.Logger, host Host) *Notices {
	return &Notices{store: store, send: s, clock: c, log: log, host: host,
		opening: expiring.New[storage.TableKey, opening](openingMost, openingKept, c),
		open:    map[storage.TableKey]int{}}
}

// Opened records that by opened the table of v in chat, to announce it to
// the group's followers once its message is sent. Call it before the table
// is shown, so that the render cannot come first. A private chat has no
// followers.
func (n *Notices) Opened(v storage.View, by storage.User, chat *tgbotapi.Chat) {
	if !botapi.IsGroup(chat) {
		return
	}
	n.opening.Add(v.Key, opening{by: by, group: groupOf(chat)})
}

// Shown forgets a table's lobby once the view shows it is over (a game
// started, or the table closed).
func (n *Notices) Shown(v storage.View) {
	if v.Table.Phase() == game.Lobby {
		return
	}
	n.opening.Remove(v.Key)
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.open, v.Key)
}

// Sent is told of each table message sent anew: a lobby just opened is
// announced, on its chat's goroutine.
func (n *Notices) Sent(v storage.View, id int) {
	n.Shown(v)
	if v.Table.Phase() != game.Lobby {
		return
	}
	o, ok := n.opening.Get(v.Key)
	if !ok {
		return
	}
	n.opening.Remove(v.Key)
	n.mu.Lock()
	n.open[v.Key] = id
	n.mu.Unlock()
	n.host.OnChat(v.Key.Chat, "announce", func(ctx context.Context) { n.announce(ctx, v.Key, id, o) })
}

// live reports whether the lobby announced in message id is still open.
func (n *Notices) live(key storage.TableKey, id int) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.open[key] == id
}

// Forget drops the chat's tables.
func (n *Notices) Forget(chat int64) {
	n.opening.RemoveIf(func(k storage.TableKey) bool { return k.Chat == chat })
	n.mu.Lock()
	defer n.mu.Unlock()
	for k := range n.open {
		if k.Chat == chat {
			delete(n.open, k)
		}
	}
}

// announce sends the followers of the group, but the opener, a private
// message that the table opened (each at most once per Quiet), as
// notices: they wait for every table's render and reply, and are dropped
// uncalled once the lobby is over.
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
			Stale: func() bool { return !n.live(key, id) },
			Do: func(ctx context.Context) error {
				v, err := n.store.View(ctx, key)
				if err != nil || v.Table.Phase() != game.Lobby {
					return nil // the lobby is over: nothing to tell
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
