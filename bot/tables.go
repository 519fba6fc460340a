package bot

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// show arms the table's timer for the view and renders the table into its
// message, through the outbox. The render reads the table when its turn
// comes, so that it shows the newest state however long it waited, and a
// waiting render holds a key, not a view (a hundred thousand tables timing
// out at once held as many views, 280 MB).
func (b *Bot) show(v storage.View) {
	b.timers.set(v.Key, v.Table.Version(), v.Table.Deadline())
	key := v.Key
	b.mu.Lock()
	if _, ok := b.messages[key]; !ok && v.MessageID != 0 {
		b.messages[key] = v.MessageID
	}
	b.mu.Unlock()
	b.enqueue(outbox.Op{Chat: key.Chat, Slot: "table:" + key.String(), Do: func(ctx context.Context) error {
		v, err := b.store.View(ctx, key)
		if err != nil {
			b.log.Warn("reading a table to show", "table", key, "err", err)
			return nil
		}
		return b.renderTable(ctx, v)
	}})
}

func (b *Bot) enqueue(op outbox.Op) {
	if err := b.out.Enqueue(op); err != nil {
		b.log.Warn("outgoing call dropped", "chat", op.Chat, "err", err)
	}
}

// renderTable edits the table's message to the view, or sends it as a new
// message when there is none, it was deleted, or it is one of the old
// messages the view says the table owes the chat (a command moved the
// table into a new message). Once the table's message is not one of those,
// it retires them.
func (b *Bot) renderTable(ctx context.Context, v storage.View) error {
	key := v.Key
	msg := render.Table(render.Input{
		Table:    v.Table,
		Settings: v.Settings.Game,
		Balances: v.Balances,
		Names:    v.Names,
		Lang:     lang(v.Settings),
		Now:      b.clock.Now(),
		Decks:    v.Decks,
	})
	b.mu.Lock()
	id := b.messages[key]
	if id == 0 {
		id = v.MessageID
	}
	b.mu.Unlock()
	if id != 0 && !owed(v, id) {
		err := b.api.editMessage(key.Chat, id, msg)
		if err == nil {
			b.retire(v)
			if v.Table.Phase() == game.Closed {
				b.forgetClosed(key, id)
			}
		}
		if err == nil || !hasDescription(err, errEditGone...) {
			return forOutbox(b.chatError(key.Chat, err))
		}
		// The message was deleted: send a new one.
	}
	if v.Table.Phase() == game.Closed && id == 0 {
		return nil // nothing to show for a table that closed unseen
	}
	newID, err := b.api.sendMessage(key.Chat, int(key.Thread), msg, 0)
	if err != nil {
		return forOutbox(b.chatError(key.Chat, err))
	}
	b.mu.Lock()
	b.messages[key] = newID
	b.mu.Unlock()
	// Store the new message's id before anything else: a crash before it
	// is stored leaves the new message behind, showing a state no restart
	// updates (cmd/loadtest -chaos-kills counted about one such orphan per
	// kill while the old message was edited first). Until it is stored,
	// the old messages stay owed: retired now, a restart would render the
	// table into them again.
	if err := b.store.SetMessage(ctx, key, newID); err != nil {
		b.log.Warn("recording the table message", "table", key, "err", err)
		return nil
	}
	b.retire(v)
	return nil
}

// forgetClosed drops the table's message id once its closed table was
// shown in it, unless a newer message replaced it meanwhile: the bot keeps
// the messages of open tables only (a later view carries the id from
// storage), so that a hundred thousand chats that played once cost nothing.
func (b *Bot) forgetClosed(key storage.TableKey, id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.messages[key] == id {
		delete(b.messages, key)
		b.dropEmptyMessages()
	}
}

// dropEmptyMessages replaces the emptied map of table messages with a new
// one: a Go map keeps its size after deletions, and a hundred thousand
// chats that played once would stay in memory; b.mu is held.
func (b *Bot) dropEmptyMessages() {
	if len(b.messages) == 0 {
		b.messages = make(map[storage.TableKey]int)
	}
}

// withRetiring adds to keys, the tables to re-render after a start, those
// that owe their chats an old message: their render finishes retiring it.
func (b *Bot) withRetiring(ctx context.Context, keys []storage.TableKey) ([]storage.TableKey, error) {
	owing, err := b.store.Retiring(ctx)
	if err != nil {
		return nil, fmt.Errorf("bot: loading the old messages owed: %w", err)
	}
	listed := make(map[storage.TableKey]bool, len(keys))
	for _, k := range keys {
		listed[k] = true
	}
	for _, k := range owing {
		if !listed[k] {
			keys = append(keys, k)
		}
	}
	return keys, nil
}

// owed reports whether message id is one of the old messages the table
// owes the chat.
func owed(v storage.View, id int) bool {
	for _, r := range v.Retiring {
		if r.MessageID == id {
			return true
		}
	}
	return false
}

// retire edits each old message the table owes the chat into the record of
// the game it showed, or deletes it (or, when it is too old to delete,
// edits it into a note that the table moved), as an outbox op of its own: paced as
// the call it is, and retried after a 429 or a 5xx, so that the old
// message does not stay behind showing buttons that look live. Once done
// (or found gone, or refused for good) it is reported to the store; what a
// crash or the retries leave undone stays owed, and the next start
// finishes it.
func (b *Bot) retire(v storage.View) {
	key := v.Key
	for _, r := range v.Retiring {
		b.enqueue(outbox.Op{Chat: key.Chat, Slot: fmt.Sprintf("old:%s:%d", key, r.MessageID), Do: func(ctx context.Context) error {
			var err error
			if r.Record {
				err = b.api.editMessage(key.Chat, r.MessageID, render.Summary(render.Input{
					Table: r.Table, Settings: v.Settings.Game, Names: r.Names,
					Lang: lang(v.Settings), Now: b.clock.Now(), Decks: r.Decks,
				}))
			} else {
				err = b.api.deleteMessage(key.Chat, r.MessageID)
				if hasDescription(err, errDeleteRefused) {
					// Too old to delete: edited into a note without buttons
					// instead, so that none looks live.
					err = b.api.editMessage(key.Chat, r.MessageID, render.Message{Text: i18n.T(lang(v.Settings), i18n.TableMoved)})
				}
			}
			if hasDescription(err, errEditGone...) || hasDescription(err, errDeleteGone) {
				err = nil // gone already: nothing to leave
			}
			err = forOutbox(b.chatError(key.Chat, err))
			if retried(err) {
				return err
			}
			if serr := b.store.Retired(ctx, key, r.MessageID); serr != nil {
				b.log.Warn("recording an old table message retired", "table", key, "message", r.MessageID, "err", serr)
			}
			return err
		}})
	}
}

// retried reports whether the outbox tries an op that failed with err
// again: after a 429 or a temporary failure.
func retried(err error) bool {
	var ra *outbox.RetryAfterError
	return errors.As(err, &ra) || outbox.IsTemporary(err)
}

// reply sends a message into a chat (and topic), in reply to a message when
// replyTo is not 0. It waits behind the chat's renders, and a message the
// same as one still waiting is sent once, in reply to the later.
//
// slot is saySlot(thread, m), or empty to compute it.
func (b *Bot) reply(chat int64, thread int, replyTo int, slot string, m render.Message) {
	if slot == "" {
		slot = saySlot(thread, m)
	}
	b.enqueue(outbox.Op{Chat: chat, Class: outbox.Say, Slot: slot, Do: func(ctx context.Context) error {
		_, err := b.api.sendMessage(chat, thread, m, replyTo)
		return forOutbox(b.chatError(chat, err))
	}})
}

// saySlot names a message by its topic, text and buttons, so that the
// outbox sends a message once however often it waits.
func saySlot(thread int, m render.Message) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s", thread, m.Text)
	for _, row := range m.Keyboard {
		for _, btn := range row {
			fmt.Fprintf(h, "\x00%s\x00%s", btn.Text, btn.Data)
		}
	}
	return "say:" + strconv.FormatUint(h.Sum64(), 36)
}

// chatError acts on errors that say the chat is gone or moved: a migrated
// group is moved in storage. It returns err.
func (b *Bot) chatError(chat int64, err error) error {
	if err == nil {
		return nil
	}
	if tg, ok := tgError(err); ok && tg.MigrateToChatID != 0 {
		to := tg.MigrateToChatID
		b.onChat(chat, "migrate", func() { b.migrate(b.base, chat, to) }, "to", to)
		return fmt.Errorf("chat %d moved to %d: %w", chat, to, err)
	}
	return err
}
