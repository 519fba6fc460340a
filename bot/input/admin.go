package input

import (
	"context"
	"time"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
)

// admins asks Telegram who the admins of a group are, and remembers the
// answers for what only changes a display.
type admins struct {
	api   members
	known *expiring.Cache[adminKey, bool]
}

// members is what admins asks Telegram: a user's membership of a chat
// (send.Sender.Member, which reports a group that moved).
type members interface {
	Member(ctx context.Context, chat, user int64) (botapi.Member, error)
}

type adminKey struct{ chat, user int64 }

// adminsKnown bounds how many answers are remembered.
const adminsKnown = 10_000

func newAdmins(api members, c clock.Clock, ttl time.Duration) *admins {
	if ttl <= 0 {
		ttl = time.Minute
	}
	return &admins{api: api, known: expiring.New[adminKey, bool](adminsKnown, ttl, c)}
}

// is reports whether the user is the creator or an administrator of the
// group, asking Telegram (getChatMember) afresh: every admin action calls
// it, so that an admin demoted a moment ago has lost the power. The bot
// cannot wait to be told of a demotion: chat_member updates come only to a
// bot that is an admin of the chat and asked for them (Bot API, Update).
// The answer is kept for seems. A private chat's admin is its user, whose
// id is the chat's (Bot API, Chat): the only person there, who plays
// against the house with chips no one else holds, so their settings,
// /cancel and /audit concern nobody else. User 0 is nobody. An error means
// Telegram did not say: getChatMember on other users is guaranteed only
// when the bot is an admin of the chat.
func (a *admins) is(ctx context.Context, chat, user int64) (bool, error) {
	if chat >= 0 || user <= 0 {
		return privateAdmin(chat, user), nil
	}
	m, err := a.api.Member(ctx, chat, user)
	if err != nil {
		return false, err
	}
	a.known.Add(adminKey{chat, user}, m.Admin())
	return m.Admin(), nil
}

// privateAdmin reports whether user is the admin of a chat that is no
// group: its own private chat.
func privateAdmin(chat, user int64) bool { return chat > 0 && chat == user }

// seems is is for what only changes a display (whether the settings come
// with buttons): an answer is got within its time to live serves. It must
// never decide an action.
func (a *admins) seems(ctx context.Context, chat, user int64) (bool, error) {
	if chat >= 0 || user <= 0 {
		return privateAdmin(chat, user), nil
	}
	if admin, ok := a.known.Get(adminKey{chat, user}); ok {
		return admin, nil
	}
	return a.is(ctx, chat, user)
}
