package bot

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/http"
	"strconv"
	"sync"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// show arms the table's timers for the view (its deadline, its turn's
// nudge, the house's move) and shows the table in its message (see
// tableMessages.show).
func (b *Bot) show(v storage.View) {
	b.timers.set(v.Key, v.Table.Version(), v.Table.Deadline())
	b.timers.setHouse(v.Key, v.Table.Version(), house.MoveAt(&v.Table))
	b.followTurn(v)
	b.notices.follow(v)
	b.tables.show(v)
}

// enqueue queues op on the outbox; an op the outbox refuses (the chat's
// queue is full, or the outbox closed) is logged and dropped.
func (b *Bot) enqueue(op outbox.Op) {
	if err := b.out.Enqueue(op); err != nil {
		b.log.Warn("outgoing call dropped", "chat", op.Chat, "err", err)
	}
}

// tableMessages shows each table in one message of its chat, edited in
// place, and retires the old messages a table owes its chat. It remembers
// the message of each open table only: a closed table's is read from
// storage when a view needs it. Its methods are safe for concurrent use.
type tableMessages struct {
	api   *api
	store Store
	clock Clock
	log   *slog.Logger
	// enqueue queues an outgoing call (Bot.enqueue).
	enqueue func(outbox.Op)
	// chatError acts on the error of a call into a chat and returns it
	// (Bot.chatError).
	chatError func(chat int64, err error) error
	// keep reports whether a message the table owes is to stay for now
	// (a turn's nudge while the turn goes on: nudges.live); retired is
	// told of each owed message once retired (nudges.retired).
	keep    func(key storage.TableKey, id int) bool
	retired func(chat int64, id int)
	// sent is told of each table message sent anew, with the view it
	// shows (Bot.tableSent).
	sent func(v storage.View, id int)

	mu  sync.Mutex
	ids map[storage.TableKey]int // the message of each open table shown
}

// show renders the table into its message, through the outbox. The render
// reads the table when its turn comes, so that it shows the newest state
// however long it waited, and a waiting render holds a key, not a view.
func (t *tableMessages) show(v storage.View) {
	key := v.Key
	t.mu.Lock()
	if _, ok := t.ids[key]; !ok && v.MessageID != 0 {
		t.ids[key] = v.MessageID
	}
	t.mu.Unlock()
	t.enqueue(outbox.Op{Chat: key.Chat, Slot: "table:" + key.String(), Do: func(ctx context.Context) error {
		v, err := t.store.View(ctx, key)
		if err != nil {
			t.log.Warn("reading a table to show", "table", key, "err", err)
			return nil
		}
		return t.render(ctx, v)
	}})
}

// render edits the table's message to the view, or sends it as a new
// message when there is none, it was deleted, or it is one of the old
// messages the view says the table owes the chat (a command moved the
// table into a new message). Once the table's message is not one of those,
// it retires them.
func (t *tableMessages) render(ctx context.Context, v storage.View) error {
	key := v.Key
	msg := render.Table(render.Input{
		Table:    v.Table,
		Settings: v.Settings.Game,
		Balances: v.Balances,
		Names:    v.Names,
		Lang:     lang(v.Settings),
		Now:      t.clock.Now(),
		Decks:    v.Decks,
		Awards:   v.Awards,

		HouseForbidden: v.Settings.HouseForbidden,
	})
	t.mu.Lock()
	id := t.ids[key]
	if id == 0 {
		id = v.MessageID
	}
	t.mu.Unlock()
	if id != 0 && !owed(v, id) {
		err := t.api.editMessage(key.Chat, id, msg)
		if err == nil {
			t.retire(v)
			if v.Table.Phase() == game.Closed {
				t.forgetClosed(key, id)
			}
		}
		if err == nil || !hasDescription(err, errEditGone...) {
			return forOutbox(t.chatError(key.Chat, err))
		}
		// The message was deleted: send a new one.
	}
	if v.Table.Phase() == game.Closed && id == 0 {
		return nil // nothing to show for a table that closed unseen
	}
	newID, err := t.api.sendMessage(key.Chat, int(key.Thread), msg, 0)
	if err != nil {
		return forOutbox(t.chatError(key.Chat, err))
	}
	t.mu.Lock()
	t.ids[key] = newID
	t.mu.Unlock()
	t.sent(v, newID)
	// Store the new message's id before anything else: a crash before it
	// is stored leaves the new message behind, showing a state no restart
	// updates. Until it is stored, the old messages stay owed: retired
	// now, a restart would render the table into them again.
	if err := t.store.SetMessage(ctx, key, newID); err != nil {
		t.log.Warn("recording the table message", "table", key, "err", err)
		return nil
	}
	t.retire(v)
	return nil
}

// forgetClosed drops the table's message id once its closed table was
// shown in it, unless a newer message replaced it meanwhile: only the
// messages of open tables are kept (a later view carries the id from
// storage), so that the memory kept grows with the open tables, not with
// every chat that ever played.
func (t *tableMessages) forgetClosed(key storage.TableKey, id int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ids[key] == id {
		delete(t.ids, key)
		t.dropEmpty()
	}
}

// forget drops the chat's table messages and returns their tables.
func (t *tableMessages) forget(chat int64) []storage.TableKey {
	t.mu.Lock()
	defer t.mu.Unlock()
	var keys []storage.TableKey
	for k := range t.ids {
		if k.Chat == chat {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		delete(t.ids, k)
	}
	t.dropEmpty()
	return keys
}

// dropEmpty replaces the emptied map of message ids with a new one, as a
// Go map keeps its size after deletions; t.mu is held.
func (t *tableMessages) dropEmpty() {
	if len(t.ids) == 0 {
		t.ids = make(map[storage.TableKey]int)
	}
}

// len returns how many table messages are remembered.
func (t *tableMessages) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.ids)
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
// edits it into a note that the table moved), as an outbox op of its own:
// paced as the call it is, and retried after a 429 or a 5xx, so that the
// old message does not stay behind showing buttons that look live. Once done
// (or found gone, or refused for good) it is reported to the store; what a
// crash or the retries leave undone stays owed, and the next start
// finishes it.
func (t *tableMessages) retire(v storage.View) {
	key := v.Key
	for _, r := range v.Retiring {
		if t.keep(key, r.MessageID) {
			continue
		}
		t.enqueue(outbox.Op{Chat: key.Chat, Slot: fmt.Sprintf("old:%s:%d", key, r.MessageID), Do: func(ctx context.Context) error {
			var err error
			if r.Record {
				err = t.api.editMessage(key.Chat, r.MessageID, render.Summary(render.Input{
					Table: r.Table, Settings: v.Settings.Game, Names: r.Names,
					Lang: lang(v.Settings), Now: t.clock.Now(), Decks: r.Decks, Awards: r.Awards,
				}))
			} else {
				err = t.api.deleteMessage(key.Chat, r.MessageID)
				if hasDescription(err, errDeleteRefused) {
					// Too old to delete: edited into a note without buttons
					// instead, so that none looks live.
					err = t.api.editMessage(key.Chat, r.MessageID, render.Message{Text: i18n.T(lang(v.Settings), i18n.TableMoved)})
				}
			}
			if hasDescription(err, errEditGone...) || hasDescription(err, errDeleteGone) {
				err = nil // gone already: nothing to leave
			}
			err = forOutbox(t.chatError(key.Chat, err))
			if retried(err) {
				return err
			}
			if serr := t.store.Retired(ctx, key, r.MessageID); serr != nil {
				t.log.Warn("recording an old table message retired", "table", key, "message", r.MessageID, "err", serr)
			}
			t.retired(key.Chat, r.MessageID)
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
	b.replyThen(chat, thread, replyTo, slot, m, nil)
}

// replyThen is reply, calling sent, when not nil, with the id of the
// message once it is sent.
func (b *Bot) replyThen(chat int64, thread int, replyTo int, slot string, m render.Message, sent func(ctx context.Context, id int)) {
	if slot == "" {
		slot = saySlot(thread, m)
	}
	b.enqueue(outbox.Op{Chat: chat, Class: outbox.Say, Slot: slot, Do: func(ctx context.Context) error {
		id, err := b.api.sendMessage(chat, thread, m, replyTo)
		if err == nil && sent != nil {
			sent(ctx, id)
		}
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
			fmt.Fprintf(h, "\x00%s\x00%s\x00%s", btn.Text, btn.Data, btn.URL)
		}
	}
	return "say:" + strconv.FormatUint(h.Sum64(), 36)
}

// chatError acts on errors that say the chat is gone or moved: a migrated
// group is moved in storage; a private chat that answers 403 (the user
// blocked the bot, never started it, or is deactivated: "Forbidden: bot
// was blocked by the user" and the like) stops what the user follows. It
// returns err.
func (b *Bot) chatError(chat int64, err error) error {
	if err == nil {
		return nil
	}
	tg, ok := tgError(err)
	switch {
	case ok && tg.MigrateToChatID != 0:
		to := tg.MigrateToChatID
		b.onChat(chat, "migrate", func() { b.migrate(b.base, chat, to) }, "to", to)
		return fmt.Errorf("chat %d moved to %d: %w", chat, to, err)
	case ok && tg.Code == http.StatusForbidden && chat > 0:
		b.onChat(chat, "blocked", func() { b.stopPrivate(b.base, chat) }, "user", chat)
	}
	return err
}
