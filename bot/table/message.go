package table

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/pace"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// messages shows each table in one message of its chat, edited in place,
// and retires the old messages a table is to retire. It remembers the
// message of each open table only: a closed table's is read from storage
// when a view needs it. Its methods are safe for concurrent use.
//
// A turn's clock runs only while the turn is shown. A render reads the
// table when its turn to be sent comes, so it shows the newest state
// however long it waited; the first render to show a turn whose clock
// started more than shownLate before starts the clock again, for the
// whole turn time, before it is built (Store.ShowTurn, one transaction for
// a render that waited, none for one that did not): the table stores the
// new deadline, where a restart finds it, and the render shows it as its
// tg-time. Whether a render showed a turn before, and whether a timer of
// the turn waits for the render on its way, is the table's turnShown
// (shown.go).
type messages struct {
	k *Keeper

	mu  sync.Mutex
	ids map[storage.TableKey]int // the message of each open table shown
	// last holds what this process last sent or edited each open table's
	// message to (sameAsShown).
	last    map[storage.TableKey]shownMessage
	renders map[storage.TableKey]*turnShown
	// openings holds the tables just opened whose lobby no new message
	// showed yet (opened.go).
	openings map[storage.TableKey]opening
	earlier  pace.Earlier
	// drawn holds the version each table message was rendered to since
	// takeDrawn last took them (0: the table closed).
	drawn map[storage.TableKey]uint64
}

func newMessages(k *Keeper) *messages {
	return &messages{k: k, ids: make(map[storage.TableKey]int), last: make(map[storage.TableKey]shownMessage),
		renders:  make(map[storage.TableKey]*turnShown),
		openings: make(map[storage.TableKey]opening), drawn: make(map[storage.TableKey]uint64)}
}

// setEarlier records what the start knows of the calls before it.
func (m *messages) setEarlier(e pace.Earlier) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.earlier = e
}

// started reports whether setEarlier recorded a start.
func (m *messages) started() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.earlier.Started()
}

// show renders the table into its message, through the outbox. The render
// reads the table when its turn comes, so that it shows the newest state
// however long it waited, and a queued render holds a key, not a view.
func (m *messages) show(v storage.View) {
	key := v.Key
	m.mu.Lock()
	if _, ok := m.ids[key]; !ok && v.MessageID != 0 {
		m.ids[key] = v.MessageID
	}
	was := m.state(key).queue()
	m.mu.Unlock()
	err := m.k.send.Enqueue(outbox.Op{Chat: key.Chat, Slot: tableOp(key), Do: func(ctx context.Context) error {
		return m.renderNewest(ctx, key)
	}})
	if err != nil {
		m.mu.Lock()
		m.state(key).unqueue(was)
		m.mu.Unlock()
	}
}

// takeDrawn returns the version each table message was rendered to since
// the last call (0: the table closed).
func (m *messages) takeDrawn() map[storage.TableKey]uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.drawn) == 0 {
		return nil
	}
	d := m.drawn
	m.drawn = make(map[storage.TableKey]uint64)
	return d
}

// current reports whether the table's message shows version, as the
// process before saved (pace.Earlier.Current), and no render of this
// process went out since.
func (m *messages) current(key storage.TableKey, version uint64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.earlier.Current(key, version)
}

// renderNewest renders the table as it is now into its message, first
// starting its turn's clock again if this render is the first to show the
// turn, late.
func (m *messages) renderNewest(ctx context.Context, key storage.TableKey) error {
	m.mu.Lock()
	m.state(key).begin()
	now := m.k.clock.Now()
	m.mu.Unlock()
	v, err := m.k.store.View(ctx, key)
	read := err == nil
	if read {
		v = m.showTurn(ctx, v, now)
	}
	m.mu.Lock()
	held := m.state(key).decide() // decided: the turn's clock runs from here
	m.mu.Unlock()
	if held {
		m.k.armShown(key) // the timers held wait no more
	}
	if read {
		err = m.render(ctx, v)
	} else {
		m.k.log.WarnContext(ctx, "reading a table to show", "table", key, "err", err)
		err = nil // nothing to retry: the next show reads it again
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.state(key)
	switch {
	case send.Retried(err):
		s.retry() // the outbox calls it again
	case err == nil && read:
		s.wentOut(clockOf(&v.Table))
		if m.earlier.Kept() {
			m.drawn[key] = v.Table.Version()
			if v.Table.Phase() == game.Closed {
				m.drawn[key] = 0
			}
		}
	}
	if err == nil && read && v.Table.Phase() == game.Closed && s.finished() {
		delete(m.renders, key)
		if len(m.renders) == 0 {
			m.renders = make(map[storage.TableKey]*turnShown)
		}
	}
	return err
}

// render edits the table's message to the view, or sends it as a new
// message when there is none, it was deleted, or it is one of the old
// messages the view says the table is to retire (a command moved the
// table into a new message). Once the table's message is not one of
// those, it retires them.
func (m *messages) render(ctx context.Context, v storage.View) error {
	key := v.Key
	msg := render.Table(render.Input{
		Table:    v.Table,
		Settings: v.Settings.Game,
		Balances: v.Balances,
		Names:    v.Names,
		Lang:     i18n.OfChat(v.Settings.Language),
		Now:      m.k.clock.Now(),
		Decks:    v.Decks,
		Cuts:     m.cuts(ctx, key, &v.Table, len(v.Decks)),
		Awards:   v.Awards,

		HouseForbidden: v.Settings.HouseForbidden,
		Solo:           v.Key.Chat > 0,
		Inline:         v.Inline != nil,
		App:            m.k.app.Link(key, v.Key.Chat > 0),
	})
	if v.Inline != nil {
		return m.renderInline(ctx, v, msg)
	}
	m.mu.Lock()
	id := m.ids[key]
	if id == 0 {
		id = v.MessageID
	}
	same := m.sameAsShown(key, id, msg)
	m.mu.Unlock()
	if id != 0 && !retiring(v, id) {
		var err error
		if !same {
			err = m.k.send.Edit(ctx, key.Chat, id, msg)
		}
		if err == nil {
			m.remember(key, id, msg)
			m.rendered(v, 0)
			m.retire(v)
			if v.Table.Phase() == game.Closed {
				m.forgetClosed(key, id)
			}
		}
		if !errors.Is(err, botapi.ErrGone) {
			return err
		}
		// The message was deleted: send a new one.
	}
	if v.Table.Phase() == game.Closed && id == 0 {
		m.rendered(v, 0)
		return nil // nothing to show for a table that closed unseen
	}
	newID, err := m.k.send.Send(ctx, key.Chat, int(key.Thread), msg, 0)
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.ids[key] = newID
	m.mu.Unlock()
	m.remember(key, newID, msg)
	// Store the new message's id before anything else: a crash before it
	// is stored leaves the new message behind, showing a state no restart
	// updates. Until it is stored, the old messages stay to retire:
	// retired now, a restart would render the table into them again.
	if err := m.k.store.SetMessage(ctx, key, newID); err != nil {
		m.k.log.WarnContext(ctx, "recording the table message", "table", key, "err", err)
		return nil
	}
	m.rendered(v, newID)
	m.retire(v)
	return nil
}

// renderInline edits the inline message the table is on to msg. The bot
// can send nothing else into its chat: no new message, nothing to retire.
// An inline message a user deleted cannot be edited again (the official
// server answers MESSAGE_ID_INVALID): its table closes and every chip on
// it goes back (Keeper.inlineGone).
func (m *messages) renderInline(ctx context.Context, v storage.View, msg message.Message) error {
	err := m.k.send.EditInline(ctx, v.Key.Chat, v.Inline.MessageID, msg)
	if err == nil {
		m.rendered(v, 0)
	}
	if errors.Is(err, botapi.ErrGone) {
		m.k.inlineGone(v.Key)
		return nil
	}
	return err
}

// forgetTable drops what the renders of the table at key did.
func (m *messages) forgetTable(key storage.TableKey) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.ids, key)
	delete(m.last, key)
	delete(m.renders, key)
	delete(m.openings, key)
	m.dropEmpty()
}

// forgetClosed drops the table's message id once its closed table was
// shown in it, unless a newer message replaced it meanwhile: only the
// messages of open tables are kept (a later view carries the id from
// storage), so that the memory kept grows with the open tables, not with
// every chat that ever played.
func (m *messages) forgetClosed(key storage.TableKey, id int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ids[key] == id {
		delete(m.ids, key)
		delete(m.last, key)
		m.dropEmpty()
	}
}

// forget drops the chat's table messages and returns their tables.
func (m *messages) forget(chat int64) []storage.TableKey {
	m.mu.Lock()
	defer m.mu.Unlock()
	var keys []storage.TableKey
	for k := range m.ids {
		if k.Chat == chat {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		delete(m.ids, k)
		delete(m.last, k)
	}
	for k := range m.renders {
		if k.Chat == chat {
			delete(m.renders, k)
		}
	}
	for k := range m.openings {
		if k.Chat == chat {
			delete(m.openings, k)
		}
	}
	m.dropEmpty()
	return keys
}

// dropEmpty replaces the emptied maps of message ids and openings with
// new ones, as a Go map keeps its size after deletions; m.mu is held.
func (m *messages) dropEmpty() {
	if len(m.ids) == 0 {
		m.ids = make(map[storage.TableKey]int)
		m.last = make(map[storage.TableKey]shownMessage)
	}
	if len(m.openings) == 0 {
		m.openings = make(map[storage.TableKey]opening)
	}
}

// len returns how many tables it remembers something of: their message,
// what their renders did, or that they just opened.
func (m *messages) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return max(len(m.ids), len(m.renders), len(m.openings))
}

// shownMessage is what a table's message was last sent or edited to.
type shownMessage struct {
	id  int
	msg message.Message
}

// sameAsShown reports whether this process last sent or edited the
// table's message id to msg: an edit to it would change nothing, and
// Telegram would answer "message is not modified" (two renders of the
// same version one after the other: one queued while the one before read
// the table). render makes no call then. A message a user deleted since
// is noticed at the next edit that changes it, or when a press on it
// tells that it is gone (Keeper.Reshow). m.mu is held.
func (m *messages) sameAsShown(key storage.TableKey, id int, msg message.Message) bool {
	last, ok := m.last[key]
	return ok && id != 0 && last.id == id && last.msg.Text == msg.Text &&
		slices.EqualFunc(last.msg.Keyboard, msg.Keyboard, slices.Equal)
}

// doubt forgets what the table's message was last sent or edited to: its
// next render edits it whatever it shows.
func (m *messages) doubt(key storage.TableKey) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.last, key)
}

// remember records that the table's message id was sent or edited to msg,
// unless the table is no longer remembered (closed and forgotten since).
func (m *messages) remember(key storage.TableKey, id int, msg message.Message) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ids[key] == id {
		m.last[key] = shownMessage{id: id, msg: msg}
	}
}

// retiring reports whether message id is one of the old messages the
// table is to retire.
func retiring(v storage.View, id int) bool {
	for _, r := range v.Retiring {
		if r.MessageID == id {
			return true
		}
	}
	return false
}

// retire edits each old message the table is to retire into the record of
// the game it showed, or deletes it (or, when it is too old to delete,
// edits it into a note that the table moved), as an outbox op of its own:
// paced as the call it is, and retried after a 429 or a 5xx, so that the
// old message does not stay behind showing buttons that look live. Once
// done (or found gone, or refused for good) it is reported to the store;
// what a crash or the retries leave undone stays to retire, and the next
// start finishes it. A turn's nudge is kept while its turn goes on.
func (m *messages) retire(v storage.View) {
	key := v.Key
	for _, r := range v.Retiring {
		if m.k.nudges.live(key, r.MessageID) {
			continue
		}
		m.k.send.Enqueue(outbox.Op{Chat: key.Chat, Class: outbox.Retire, Slot: retireOp(key, r.MessageID), Do: func(ctx context.Context) error {
			s, l := m.k.send, i18n.OfChat(v.Settings.Language)
			var err error
			if r.Record {
				err = s.Edit(ctx, key.Chat, r.MessageID, render.Summary(render.Input{
					Table: r.Table, Settings: v.Settings.Game, Names: r.Names,
					Lang: l, Now: m.k.clock.Now(), Decks: r.Decks, Cuts: m.cuts(ctx, key, &r.Table, len(r.Decks)), Awards: r.Awards,
				}))
			} else {
				err = s.Delete(ctx, key.Chat, r.MessageID)
				if errors.Is(err, botapi.ErrCannotDelete) {
					// Too old to delete: edited into a note without buttons
					// instead, so that none looks live.
					err = s.Edit(ctx, key.Chat, r.MessageID, message.Message{Text: i18n.T(l, i18n.TableMoved)})
				}
			}
			if errors.Is(err, botapi.ErrGone) {
				err = nil // gone already: nothing to leave
			}
			if send.Retried(err) {
				return err
			}
			if serr := m.k.store.Retired(ctx, key, r.MessageID); serr != nil {
				m.k.log.WarnContext(ctx, "recording an old table message retired", "table", key, "message", r.MessageID, "err", serr)
			}
			m.k.nudges.retired(key.Chat, r.MessageID)
			return err
		}})
	}
}
