package bot

import (
	"context"
	"time"
)

type adminKey struct{ chat, user int64 }

type adminEntry struct {
	admin   bool
	expires time.Time
}

// isAdmin reports whether the user is the creator or an administrator of
// the group, asking Telegram (getChatMember) afresh: every admin action
// calls it, so that an admin demoted a moment ago has lost the power. The
// bot cannot wait to be told of a demotion: chat_member updates come only
// to a bot that is an admin of the chat and asked for them (Bot API,
// Update). The answer is kept for seemsAdmin. A private chat's admin is
// its user, whose id is the chat's (Bot API, Chat): the only person there,
// who plays against the house with chips no one else holds, so their
// settings, /cancel and /audit concern nobody else. User 0 is nobody. An
// error means Telegram did not say: getChatMember on other users is
// guaranteed only when the bot is an admin of the chat.
func (b *Bot) isAdmin(ctx context.Context, chat, user int64) (bool, error) {
	if chat >= 0 || user <= 0 {
		return privateAdmin(chat, user), nil
	}
	status, _, err := b.api.memberStatus(chat, user)
	if err != nil {
		return false, err
	}
	admin := status == "creator" || status == "administrator"
	b.mu.Lock()
	if len(b.admins) > 10000 {
		clear(b.admins)
	}
	b.admins[adminKey{chat, user}] = adminEntry{admin: admin, expires: b.clock.Now().Add(b.cfg.AdminCacheTTL)}
	b.mu.Unlock()
	return admin, nil
}

// privateAdmin reports whether user is the admin of a chat that is no
// group: its own private chat.
func privateAdmin(chat, user int64) bool { return chat > 0 && chat == user }

// seemsAdmin is isAdmin for what only changes a display (whether the
// settings come with buttons): an answer isAdmin got within AdminCacheTTL
// serves. It must never decide an action.
func (b *Bot) seemsAdmin(ctx context.Context, chat, user int64) (bool, error) {
	if chat >= 0 || user <= 0 {
		return privateAdmin(chat, user), nil
	}
	b.mu.Lock()
	e, ok := b.admins[adminKey{chat, user}]
	b.mu.Unlock()
	if ok && b.clock.Now().Before(e.expires) {
		return e.admin, nil
	}
	return b.isAdmin(ctx, chat, user)
}
