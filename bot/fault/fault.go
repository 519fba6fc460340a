// Package fault is the one way the bot reports an internal error: a
// failure of its own (storage, a bug), not of the user's input nor of
// Telegram's answer. It is logged at Error with what failed, the chat and
// table it concerns and the error; the user is told only that something
// went wrong, by the caller, in the caller's way (a reply, a toast).
package fault

import (
	"context"
	"log/slog"

	"github.com/twentyone-bot/twentyone/storage"
)

// Log logs an internal error of action what at the table key (its chat
// alone when key.Thread is 0 and no table is meant).
func Log(ctx context.Context, log *slog.Logger, what string, key storage.TableKey, err error) {
	log.ErrorContext(ctx, "internal error", "action", what, "chat", key.Chat, "thread", key.Thread, "err", err)
}
