package appgate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Who may open a table in the app (webapp.Members): its seated players,
// and anyone else in its chat, as the chat's message is seen by its
// members alone. A table's reference is a link, and a link can be
// forwarded: holding it is not enough.
//
//   - A seated player is admitted, even one who left the chat since:
//     their chips are on the table.
//   - A group's or a supergroup's table: anyone Telegram says is in the
//     chat (getChatMember: creator, administrator, member, or restricted
//     and a member). Telegram's answer is kept for MemberTTL, a "yes" and
//     a "no" alike, so that a viewer who reconnects, or opens the app
//     again, costs no call; a user removed from the group keeps a stream
//     they hold open until it ends.
//   - A private chat's table (solo play against the house): its user
//     alone, whose id is the chat's (Bot API, Chat).
//   - A table on an inline message: whoever holds its link. The bot is
//     not in that chat and cannot ask who is (getChatMember needs a chat
//     id; an inline message's chat is known only by its chat_instance),
//     and Telegram does not document that a Mini App's chat_instance is
//     the one its callback queries carry.

// MemberTTL is how long Members keeps Telegram's answer on a user's
// membership of a chat.
const MemberTTL = time.Minute

// membersKnown bounds how many answers Members keeps.
const membersKnown = 10_000

// MemberAPI asks Telegram about a user in a chat (send.Sender's
// getChatMember, which also reports a group that became a supergroup).
type MemberAPI interface {
	Member(ctx context.Context, chat, user int64) (botapi.Member, error)
}

// Members is webapp.Members over the store and Telegram. Its methods are
// safe for concurrent use.
type Members struct {
	store Store
	api   MemberAPI
	known *expiring.Cache[memberKey, bool]
}

type memberKey struct{ chat, user int64 }

// NewMembers returns the Members that reads the tables' seats from store
// and asks api who is in a group, keeping each answer for MemberTTL of c.
func NewMembers(store Store, api MemberAPI, c clock.Clock) *Members {
	return &Members{store: store, api: api, known: expiring.New[memberKey, bool](membersKnown, MemberTTL, c)}
}

// Admit returns the key the table at key is kept under now (after a
// group became a supergroup, the supergroup's: the store follows the
// move) when user may open it in the app, as the package doc of this file
// says; an error wrapping webapp.ErrNotMember
// when they may not, webapp.ErrNoTable when key names no table, or
// another error when it could not tell (the store failed; Telegram did
// not answer, or answered that it could not say now): asking again later
// may admit them. It may call Telegram once.
func (m *Members) Admit(ctx context.Context, key storage.TableKey, user int64) (storage.TableKey, error) {
	switch {
	case user <= 0:
		return key, webapp.ErrNotMember
	case storage.InlineChat(key.Chat):
		return key, nil
	case key.Chat > 0:
		if user != key.Chat {
			return key, fmt.Errorf("%w: the table of another user's private chat", webapp.ErrNotMember)
		}
		return key, nil
	}
	sv, err := m.store.View(ctx, key)
	switch {
	case err != nil:
		return key, err
	case sv.Table.Version() == 0:
		return key, webapp.ErrNoTable
	}
	if _, seated := sv.Table.SeatOf(game.UserID(user)); seated {
		return sv.Key, nil
	}
	mk := memberKey{sv.Key.Chat, user}
	if in, ok := m.known.Get(mk); ok {
		return sv.Key, admitted(in)
	}
	mem, err := m.api.Member(ctx, sv.Key.Chat, user)
	if err != nil {
		if !telegramSaysNo(err) {
			return key, fmt.Errorf("appgate: whether user %d is in chat %d: %w", user, sv.Key.Chat, err)
		}
		m.known.Add(mk, false)
		return key, fmt.Errorf("%w: %w", webapp.ErrNotMember, err)
	}
	m.known.Add(mk, mem.In())
	return sv.Key, admitted(mem.In())
}

// admitted is Admit's answer for a user Telegram said is in the chat, or
// is not.
func admitted(in bool) error {
	if !in {
		return webapp.ErrNotMember
	}
	return nil
}

// telegramSaysNo reports whether getChatMember's error tells that the
// user is no member the bot may show the table to: a 400 ("user not
// found", "PARTICIPANT_ID_INVALID": Telegram knows no such user there) or
// a 403 (the bot is no longer in the group, whose table nobody sees any
// more). A 429, a 5xx, a group that moved and a call that got no answer
// say nothing of the user.
func telegramSaysNo(err error) bool {
	var e *botapi.Error
	if !errors.As(err, &e) || e.MigrateTo != 0 {
		return false
	}
	return e.Code == 400 || e.Code == 403
}
