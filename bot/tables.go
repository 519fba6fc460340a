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
	"time"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// show arms the table's timers for the view, follows the lobby it may
// announce (notices.follow), and shows the table in its message (see
// tableMessages.show).
func (b *Bot) show(v storage.View) {
	b.arm(v)
	b.notices.follow(v)
	b.tables.show(v)
}

// arm arms the table's timers for the view: its deadline, its turn's
// nudge and the house's move, all from the start of the turn's clock. It
// runs on the chat's goroutine, as the commands do: a view armed elsewhere
// could re-arm a deadline a newer command replaced.
func (b *Bot) arm(v storage.View) {
	b.timers.set(v.Key, v.Table.Version(), v.Table.Deadline())
	b.timers.setHouse(v.Key, v.Table.Version(), house.MoveAt(&v.Table))
	b.followTurn(v)
}

// turnShown arms the timers of the table, whose turn's clock started
// again when a render first showed it (Store.ShowTurn), or whose timers
// were held while that render waited (tableMessages.hidden), on its chat's
// goroutine.
func (b *Bot) turnShown(key storage.TableKey) {
	b.onChat(key.Chat, "turn shown", func() {
		v, err := b.store.View(b.base, key)
		if err != nil {
			b.log.Warn("reading a table whose turn was shown", "table", key, "err", err)
			return
		}
		b.arm(v)
	}, "table", key)
}

// enqueue queues op on the outbox; an op the outbox refuses (the chat's
// queue is full, or the outbox closed) is logged and dropped, and its
// error returned.
func (b *Bot) enqueue(op outbox.Op) error {
	err := b.out.Enqueue(op)
	if err != nil {
		b.log.Warn("outgoing call dropped", "chat", op.Chat, "err", err)
	}
	return err
}

// tableMessages shows each table in one message of its chat, edited in
// place, and retires the old messages a table owes its chat. It remembers
// the message of each open table only: a closed table's is read from
// storage when a view needs it. Its methods are safe for concurrent use.
//
// A turn's clock runs only while the turn is shown. A render reads the
// table when its turn to be sent comes, so it shows the newest state
// however long it waited; the first render to show a turn whose clock
// started more than turnShownLate before starts the clock again, for the
// whole turn time, before it is built (Store.ShowTurn, one transaction for
// a render that waited, none for one that did not): the table stores the
// new deadline, where a restart finds it, and the render shows it as its
// tg-time. Whether a render showed a turn before is known from the turn
// the table's last render sent showed (renderState), and for a table no
// render of this process showed, from the calls the process before saved
// (earlier.showed).
// While a render that is to show a turn first waits, the turn's timeout
// waits too (Bot.timeout), and so do its nudge and the house's move
// (Bot.houseMove).
type tableMessages struct {
	api   *api
	store Store
	clock Clock
	log   *slog.Logger
	// enqueue queues an outgoing call (Bot.enqueue).
	enqueue func(outbox.Op) error
	// chatError acts on the error of a call into a chat and returns it
	// (Bot.chatError).
	chatError func(chat int64, err error) error
	// keep reports whether a message the table owes is to stay for now
	// (a turn's nudge while the turn goes on: nudges.live); retired is
	// told of each owed message once retired (nudges.retired).
	keep    func(key storage.TableKey, id int) bool
	retired func(chat int64, id int)
	// shown is told of a table whose turn's clock started again when a
	// render first showed it, or whose timers were held while the render
	// that shows the turn waited (Bot.turnShown); sent of each table
	// message sent anew, with the view it shows (Bot.tableSent).
	shown func(key storage.TableKey)
	sent  func(v storage.View, id int)

	mu      sync.Mutex
	ids     map[storage.TableKey]int // the message of each open table shown
	renders map[storage.TableKey]*renderState
	earlier earlier
}

// turnShownLate is how long a turn's clock may run before the turn is
// shown: a render that first shows a turn later than that starts its clock
// again. Renders under Telegram's pacing wait up to a few seconds.
const turnShownLate = 2 * time.Second

// renderState is what the renders of a table did, while it is open.
type renderState struct {
	// sent: a render went out since the start; shown is when the clock
	// of the turn the last one showed started (zero: it showed none).
	sent  bool
	shown time.Time
	// waiting: a render is queued; rendering: one is deciding whether to
	// start the turn's clock again; held: a timer of the table found its
	// turn hidden meanwhile (see hidden).
	waiting, rendering, held bool
}

// setEarlier records what the start knows of the calls before it.
func (t *tableMessages) setEarlier(e earlier) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.earlier = e
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
	rs := t.state(key)
	waited := rs.waiting
	rs.waiting = true
	t.mu.Unlock()
	err := t.enqueue(outbox.Op{Chat: key.Chat, Slot: "table:" + key.String(), Do: func(ctx context.Context) error {
		return t.renderNewest(ctx, key)
	}})
	if err != nil {
		t.mu.Lock()
		t.state(key).waiting = waited
		t.mu.Unlock()
	}
}

// state returns the table's renderState, made if it has none; t.mu is held.
func (t *tableMessages) state(key storage.TableKey) *renderState {
	rs := t.renders[key]
	if rs == nil {
		rs = &renderState{}
		t.renders[key] = rs
	}
	return rs
}

// renderNewest renders the table as it is now into its message, first
// starting its turn's clock again if this render is the first to show the
// turn, late.
func (t *tableMessages) renderNewest(ctx context.Context, key storage.TableKey) error {
	t.mu.Lock()
	rs := t.state(key)
	rs.waiting, rs.rendering = false, true
	now := t.clock.Now()
	t.mu.Unlock()
	v, err := t.store.View(ctx, key)
	read := err == nil
	if read {
		v = t.showTurn(ctx, v, now)
	}
	t.mu.Lock()
	rs = t.state(key)
	rs.rendering = false // decided: the turn's clock runs from here
	held := rs.held
	rs.held = false
	t.mu.Unlock()
	if held {
		t.shown(key) // the timers held wait no more
	}
	if read {
		err = t.render(ctx, v)
	} else {
		t.log.Warn("reading a table to show", "table", key, "err", err)
		err = nil // nothing to retry: the next show reads it again
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	rs = t.state(key)
	switch {
	case retried(err):
		rs.waiting = true // the outbox calls it again
	case err == nil && read:
		rs.sent, rs.shown = true, v.Table.TurnStarted()
	}
	if err == nil && read && v.Table.Phase() == game.Closed && !rs.waiting {
		delete(t.renders, key)
		if len(t.renders) == 0 {
			t.renders = make(map[storage.TableKey]*renderState)
		}
	}
	return err
}

// showTurn starts the clock of the view's turn again at now, if the turn
// began more than turnShownLate before and no render showed it (see
// tableMessages), and returns the view to render.
func (t *tableMessages) showTurn(ctx context.Context, v storage.View, now time.Time) storage.View {
	for range 3 { // a command may move the table meanwhile: look again
		started := v.Table.TurnStarted()
		if started.IsZero() || now.Sub(started) <= turnShownLate || t.seen(v.Key, started) {
			return v
		}
		shown, err := t.store.ShowTurn(ctx, v.Key, v.Table.Version(), now, turnShownLate)
		if err == nil {
			t.shown(v.Key)
			return shown
		}
		if !errors.Is(err, game.ErrOutdated) {
			t.log.Warn("starting a turn's clock as it is shown", "table", v.Key, "err", err)
			return v
		}
		newer, err := t.store.View(ctx, v.Key)
		if err != nil {
			t.log.Warn("reading a table to show", "table", v.Key, "err", err)
			return v
		}
		v = newer
	}
	return v
}

// seen reports whether a render showed the table's turn that began at
// started: the table's last render sent showed it, or, when none went
// since this start, the process before may have shown it.
func (t *tableMessages) seen(key storage.TableKey, started time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seenLocked(key, started)
}

func (t *tableMessages) seenLocked(key storage.TableKey, started time.Time) bool {
	if rs := t.renders[key]; rs != nil && rs.sent {
		return rs.shown.Equal(started)
	}
	return t.earlier.showed(key.Chat, started)
}

// hidden reports whether the table's turn that began at started is not
// shown yet while a render that will show it waits or is being made: its
// clock is not to run out meanwhile, nor the house to move. When it is,
// the render re-arms the table's timers (shown) once it decided the turn's
// clock, so that what the caller holds comes due then.
func (t *tableMessages) hidden(key storage.TableKey, started time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	rs := t.renders[key]
	if started.IsZero() || rs == nil || !(rs.waiting || rs.rendering) || t.seenLocked(key, started) {
		return false
	}
	rs.held = true
	return true
}

// pending reports whether a render of the table waits or is being made.
func (t *tableMessages) pending(key storage.TableKey) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	rs := t.renders[key]
	return rs != nil && (rs.waiting || rs.rendering)
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
		Solo:           v.Key.Chat > 0,
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
	for k := range t.renders {
		if k.Chat == chat {
			delete(t.renders, k)
		}
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

// len returns how many tables it remembers something of: their message,
// or what their renders did.
func (t *tableMessages) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return max(len(t.ids), len(t.renders))
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
		t.enqueue(outbox.Op{Chat: key.Chat, Class: outbox.Retire, Slot: fmt.Sprintf("old:%s:%d", key, r.MessageID), Do: func(ctx context.Context) error {
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
