// Package input handles what users send the bot: commands in messages
// (the command table, who may use each, the reply quota) and button
// presses (table buttons, the settings panel, the house, the deck check,
// the list of groups followed). Nothing in a message or in callback data
// is trusted: commands are read strictly, callback data parsed strictly,
// and who may do what is checked against the stored table by game.Apply
// and against Telegram for admins.
package input

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/notice"
	"github.com/twentyone-bot/twentyone/bot/panel"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/bot/table"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
	"github.com/twentyone-bot/twentyone/storage"
)

// TableStore is what the handlers need of storage for the tables.
type TableStore interface {
	Apply(ctx context.Context, req storage.ApplyRequest) (storage.Applied, error)
	View(ctx context.Context, key storage.TableKey) (storage.View, error)
	Repost(ctx context.Context, key storage.TableKey, update int64, now time.Time) (storage.View, error)
	ChatTables(ctx context.Context, chat int64) ([]storage.TableKey, error)
	TableReveals(ctx context.Context, key storage.TableKey, game uint64) ([]storage.Reveal, error)
	Settings(ctx context.Context, chat int64) (storage.ChatSettings, error)
}

// ChipStore is what the handlers need of storage for the chips and the
// standings.
type ChipStore interface {
	Account(ctx context.Context, chat int64, u storage.User, now time.Time) (storage.Account, error)
	ClaimBonus(ctx context.Context, chat int64, u storage.User, now time.Time) (storage.Bonus, error)
	Grant(ctx context.Context, chat int64, u storage.User, amount, update int64, now time.Time) (int64, error)
	Leaderboard(ctx context.Context, chat int64, n int) ([]storage.Standing, error)
	Standing(ctx context.Context, chat int64, user game.UserID) (storage.Standing, error)
	Stats(ctx context.Context, chat int64, user game.UserID) (award.Stats, error)
	History(ctx context.Context, chat int64, user game.UserID, limit int) ([]storage.LedgerEntry, error)
	Audit(ctx context.Context, chat int64) (storage.Audit, error)
	// Grants returns what the store grants: a user's starting chips in a
	// chat, and the daily bonus (for the texts that mention them).
	Grants() (startingChips, dailyBonus int64)
}

// FollowStore is what the handlers need of storage for the groups users
// follow.
type FollowStore interface {
	StartedPrivate(ctx context.Context, u storage.User, now time.Time) error
	ToggleFollow(ctx context.Context, chat int64, u storage.User, title string, update int64, now time.Time) (bool, error)
	Follow(ctx context.Context, chat int64, u storage.User, title string, now time.Time) (bool, error)
	Unfollow(ctx context.Context, chat int64, user game.UserID) (bool, error)
	Follows(ctx context.Context, user game.UserID) ([]storage.Follow, error)
	MemberLeft(ctx context.Context, chat int64, user game.UserID, update int64, now time.Time) (bool, error)
}

// Rooms are the bot's other rooms the handlers act through.
type Rooms struct {
	Send    *send.Sender
	Tables  *table.Keeper
	Notices *notice.Notices
	Panels  *panel.Panels
}

// Options configures a Handler.
type Options struct {
	// Owners are the user ids of the bot's owners (owner commands).
	Owners []int64
	// AdminTTL is how long a chat member's admin status is trusted for
	// what only changes a display (whether /settings shows buttons);
	// every admin action asks Telegram afresh.
	AdminTTL time.Duration
}

// Handler handles the messages and button presses of every chat. Message
// and Press must run on the update's chat's goroutine; its methods are
// safe for concurrent use.
type Handler struct {
	tables TableStore
	chips  ChipStore
	// follows does the groups users follow (follow.go).
	follows *followers
	rooms   Rooms
	clock   clock.Clock
	log     *slog.Logger
	opts    Options
	owners  map[int64]bool

	quota   *quota
	admins  *admins
	presses *presses
	checks  *checks
	// settings does the settings' commands and panel presses (settings.go).
	settings *settingsInput
}

// New returns a Handler on the stores, acting through rooms.
func New(tables TableStore, chips ChipStore, follows FollowStore, rooms Rooms, c clock.Clock, log *slog.Logger, opts Options) *Handler {
	h := &Handler{tables: tables, chips: chips, follows: newFollowers(follows, rooms.Send, c, log), rooms: rooms, clock: c, log: log, opts: opts,
		owners: make(map[int64]bool), quota: newQuota(c), presses: newPresses(c), checks: newChecks(c)}
	h.admins = newAdmins(rooms.Send, c, opts.AdminTTL)
	h.settings = &settingsInput{tables: tables, panels: rooms.Panels, admins: h.admins, send: rooms.Send, log: log}
	for _, id := range opts.Owners {
		h.owners[id] = true
	}
	return h
}

// self returns the bot's own user.
func (h *Handler) self() tgbotapi.User { return h.rooms.Send.Self() }

// chatLang returns the language to answer from in, in a message the chat
// sees: the chat's stored settings for the user (i18n.For), or from's
// alone when they cannot be read.
func (h *Handler) chatLang(ctx context.Context, chat int64, from *tgbotapi.User) i18n.Lang {
	return i18n.For(h.chatSetting(ctx, chat), Profile(from).Language)
}

// presserLang returns the language of an answer only from sees, a toast or
// an alert to their press: their own when the bot speaks it
// (i18n.ForPresser).
func (h *Handler) presserLang(ctx context.Context, chat int64, from *tgbotapi.User) i18n.Lang {
	return h.actorLang(ctx, chat, Profile(from))
}

// chatSetting returns the language the chat's settings name, "" when none
// or when they cannot be read.
func (h *Handler) chatSetting(ctx context.Context, chat int64) string {
	s, err := h.tables.Settings(ctx, chat)
	if err != nil {
		return ""
	}
	return s.Language
}

// request is the storage request of cmd made by u in update updateID. It
// carries the language a chat gets when cmd opens its first table: the one
// the bot speaks to u in a chat with none. In a private chat a Leave (the
// solo lobby's Close, or /leave) stands the house up with its player, so
// that the solo table closes (in a game, once it ends) instead of waiting
// with the house alone.
func (h *Handler) request(key storage.TableKey, updateID int, u storage.User, cmd game.Command) storage.ApplyRequest {
	req := storage.ApplyRequest{
		Key: key, UpdateID: int64(updateID), User: u, Command: cmd, Now: h.clock.Now(),
		Language: string(i18n.For("", u.Language)),
	}
	if cmd.Kind == game.Leave && key.Chat > 0 {
		req.Then = &storage.Chained{User: table.HouseUser, Command: game.Command{Kind: game.Leave}}
	}
	return req
}

// rejection is the answer to a command of user that err rejected
// (render.Rejection); an internal error is logged.
func (h *Handler) rejection(ctx context.Context, lang i18n.Lang, err error, v storage.View, user game.UserID) (string, bool) {
	_, bonus := h.chips.Grants()
	text, alert, internal := render.Rejection(lang, err, rejectedView(&v, user), bonus)
	if internal {
		fault.Log(ctx, h.log, "apply", v.Key, err)
	}
	return text, alert
}

// verifyMessage is the message listing the revealed decks of a game of
// the table; found is false when the game revealed none.
func (h *Handler) verifyMessage(ctx context.Context, key storage.TableKey, gameNo uint64, l i18n.Lang) (m message.Message, found bool, err error) {
	reveals, err := h.tables.TableReveals(ctx, key, gameNo)
	if errors.Is(err, storage.ErrNotFound) || err == nil && len(reveals) == 0 {
		return message.Message{}, false, nil
	}
	if err != nil {
		return message.Message{}, false, err
	}
	view, err := revealsView(reveals)
	if err != nil {
		return message.Message{}, false, err
	}
	return render.Verify(gameNo, view, l), true, nil
}

// Message handles a message that is not about the bot's own membership:
// a member who left (they follow the group no more), commands, and a
// reply to the table's message while its deck waits for the cut. A
// message in the user's private chat records that the bot may write to
// them.
func (h *Handler) Message(ctx context.Context, u botapi.Update) {
	m := u.Message
	if m.LeftChatMember != nil {
		h.follows.memberLeft(ctx, u)
		return
	}
	if why := botapi.Unheard(m); why != "" {
		h.log.DebugContext(ctx, "message ignored", "update_id", u.UpdateID, "why", why)
		return
	}
	if m.Chat.IsPrivate() && botapi.SenderOf(m) == botapi.ByPerson && m.From.ID == m.Chat.ID {
		h.follows.startedPrivate(ctx, m.From)
	}
	tc, ok, why := botapi.CommandOf(m)
	if why != "" {
		h.log.WarnContext(ctx, "update skipped", "update_id", u.UpdateID, "kind", u.Kind(), "why", why)
	}
	if !ok {
		h.replyCut(ctx, u)
		return
	}
	if tc.Bot != "" && !strings.EqualFold(tc.Bot, h.self().UserName) {
		return // a command for another bot
	}
	c := &command{h: h, u: u, m: m, key: storage.TableKey{Chat: m.Chat.ID, Thread: int64(u.Thread)}, name: tc.Name, args: tc.Args}
	c.lang = h.chatLang(ctx, m.Chat.ID, m.From)
	switch {
	case m.SenderChat != nil:
		c.who = m.SenderChat.ID // from is a stand-in then (see botapi.SenderOf)
	case m.From != nil:
		c.who = m.From.ID
	}
	c.route(ctx)
}
