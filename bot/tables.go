package bot

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// lang returns the language of a chat's settings.
func lang(s storage.ChatSettings) i18n.Lang {
	if l, ok := i18n.Parse(s.Language); ok {
		return l
	}
	return i18n.EN
}

// show renders the table into its message, through the outbox: the newest
// view of a table replaces an older one still waiting. It also arms the
// table's timer.
func (b *Bot) show(v storage.View) {
	b.timers.set(v.Key, v.Table.Version(), v.Table.Deadline())
	key := v.Key
	b.mu.Lock()
	if _, ok := b.messages[key]; !ok && v.MessageID != 0 {
		b.messages[key] = v.MessageID
	}
	b.mu.Unlock()
	b.enqueue(outbox.Op{Chat: key.Chat, Slot: "table:" + key.String(), Do: func(ctx context.Context) error {
		return b.renderTable(ctx, v)
	}})
}

// repost makes the next render of the table a new message at the bottom of
// the chat, deleting the old one.
func (b *Bot) repost(v storage.View) {
	b.repostNext(v.Key)
	b.show(v)
}

// repostNext makes the next render of the table a new message at the
// bottom of the chat, deleting the old one.
func (b *Bot) repostNext(key storage.TableKey) {
	b.mu.Lock()
	b.reposts[key] = repost{}
	b.mu.Unlock()
}

// repost says how the next render of a table leaves its old message: deleted,
// or (keep) edited into the record of the game it showed.
type repost struct {
	keep    bool
	summary render.Message
}

// showApplied shows the table after an applied command. When the command
// replaced a finished game in the table's message (it started the next
// game, or opened a lobby over the closed table), the finished game's
// message stays in the chat as its record, and the table gets a message of
// its own.
func (b *Bot) showApplied(res storage.Applied) {
	replaced := res.Before.Phase() == game.Closed && res.Table.Phase() != game.Closed
	for _, e := range res.Outcome.Events {
		replaced = replaced || e.Kind == game.EventStarted
	}
	if replaced && render.Finished(&res.Before) {
		b.mu.Lock()
		b.reposts[res.Key] = b.record(res)
		b.mu.Unlock()
	}
	b.show(res.View)
}

// record is the repost that edits the table's old message into the record
// of the game res.Before holds.
func (b *Bot) record(res storage.Applied) repost {
	return repost{keep: true, summary: render.Summary(render.Input{
		Table: res.Before, Settings: res.Settings.Game, Balances: res.Balances, Names: res.Names,
		Lang: lang(res.Settings), Now: b.clock.Now(), Decks: res.BeforeDecks,
	})}
}

func (b *Bot) enqueue(op outbox.Op) {
	if err := b.out.Enqueue(op); err != nil {
		b.log.Warn("outgoing call dropped", "chat", op.Chat, "err", err)
	}
}

// renderTable edits the table's message to the view, or sends it as a new
// message when there is none (or it was deleted, or a repost was asked for).
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
	rp, reposting := b.reposts[key]
	b.mu.Unlock()
	if id != 0 && !reposting {
		err := b.api.editMessage(key.Chat, id, msg)
		if err == nil && v.Table.Phase() == game.Closed {
			b.forgetClosed(key, id)
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
	delete(b.reposts, key)
	b.mu.Unlock()
	// Store the new message's id before anything else: a crash before it
	// is stored leaves the new message behind, showing a state no restart
	// updates (cmd/loadtest -chaos-kills counted about one such orphan per
	// kill while the old message was edited first).
	if err := b.store.SetMessage(ctx, key, newID); err != nil {
		b.log.Warn("recording the table message", "table", key, "err", err)
	}
	if reposting && id != 0 {
		b.leave(key, id, rp)
	}
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
	}
}

// leave edits a table's old message into its record, or deletes it, as an
// outbox op of its own: paced as the call it is, and retried after a 429 or
// a 5xx, so that the old message does not stay behind showing buttons that
// look live.
func (b *Bot) leave(key storage.TableKey, id int, rp repost) {
	b.enqueue(outbox.Op{Chat: key.Chat, Slot: fmt.Sprintf("old:%s:%d", key, id), Do: func(ctx context.Context) error {
		var err error
		if rp.keep {
			err = b.api.editMessage(key.Chat, id, rp.summary)
		} else {
			err = b.api.deleteMessage(key.Chat, id)
		}
		if hasDescription(err, errEditGone...) || hasDescription(err, errDeleteGone...) {
			return nil // gone already: nothing to leave
		}
		return forOutbox(b.chatError(key.Chat, err))
	}})
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
