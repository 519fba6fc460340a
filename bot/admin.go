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
// the chat (anonymous admins included: Telegram reports the real user in a
// button press). Answers are cached for AdminCacheTTL.
func (b *Bot) isAdmin(ctx context.Context, chat, user int64) (bool, error) {
	if chat > 0 {
		return true, nil // a private chat is its user's own
	}
	k := adminKey{chat, user}
	now := b.clock.Now()
	b.mu.Lock()
	e, ok := b.admins[k]
	b.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.admin, nil
	}
	status, err := b.api.memberStatus(chat, user)
	if err != nil {
		return false, err
	}
	admin := status == "creator" || status == "administrator"
	b.mu.Lock()
	if len(b.admins) > 10000 {
		clear(b.admins)
	}
	b.admins[k] = adminEntry{admin: admin, expires: now.Add(b.cfg.AdminCacheTTL)}
	b.mu.Unlock()
	return admin, nil
}
