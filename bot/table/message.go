package table

import (
	"context"
	"errors"
	"sync"
	"time"

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
// tg-time. Whether a render showed a turn before is known from the turn
// the table's last render that went out showed (renderState), and for a
// table no render of this process showed, from the calls the process
// before saved (pace.Earlier).
// While a render that is to show a turn first is queued or deciding, the
// turn's timeout waits too (Keeper.timeout), and so do its nudge and the
// house's move (Keeper.houseMove).
type messages struct {
	k *Keeper

	mu      sync.Mutex
	ids     map[storage.TableKey]int // the message of each open table shown
	renders map[storage.TableKey]*renderState
	earlier pace.Earlier
	// drawn holds the version each table message was rendered to since
	// takeDrawn last took them (0: the table closed).
	drawn map[storage.TableKey]uint64
}

// shownLate is how long a turn's clock may run before the turn is shown:
// a render that first shows a turn later than that starts its clock again.
// Renders under Telegram's pacing wait up to a few seconds.
const shownLate = 2 * time.Second

// renderState is what the renders of a table did, while it is open.
type renderState struct {
	// out: a render went out since the start; turn is when the clock of
	// the turn the last one showed started (zero: it showed none).
	out  bool
	turn time.Time
	// queued: a render waits in the outbox; deciding: one is deciding
	// whether to start the turn's clock again; held: a timer of the table
	// found its turn not shown meanwhile (see notShown).
	queued, deciding, held bool
}

func newMessages(k *Keeper) *messages {
	return &messages{k: k, ids: make(map[storage.TableKey]int), renders: make(map[storage.TableKey]*renderState),
		drawn: make(map[storage.TableKey]uint64)}
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
	rs := m.state(key)
	was := rs.queued
	rs.queued = true
	m.mu.Unlock()
	err := m.k.send.Enqueue(outbox.Op{Chat: key.Chat, Slot: tableOp(key), Do: func(ctx context.Context) error {
		return m.renderNewest(ctx, key)
	}})
	if err != nil {
		m.mu.Lock()
		m.state(key).queued = was
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

// state returns the table's renderState, made if it has none; m.mu is held.
func (m *messages) state(key storage.TableKey) *renderState {
	rs := m.renders[key]
	if rs == nil {
		rs = &renderState{}
		m.renders[key] = rs
	}
	return rs
}

// renderNewest renders the table as it is now into its message, first
// starting its turn's clock again if this render is the first to show the
// turn, late.
func (m *messages) renderNewest(ctx context.Context, key storage.TableKey) error {
	m.mu.Lock()
	rs := m.state(key)
	rs.queued, rs.deciding = false, true
	now := m.k.clock.Now()
	m.mu.Unlock()
	v, err := m.k.store.View(ctx, key)
	read := err == nil
	if read {
		v = m.showTurn(ctx, v, now)
	}
	m.mu.Lock()
	rs = m.state(key)
	rs.deciding = false // decided: the turn's clock runs from here
	held := rs.held
	rs.held = false
	m.mu.Unlock()
	if held {
		m.k.turnShown(key) // the timers held wait no more
	}
	if read {
		err = m.render(ctx, v)
	} else {
		m.k.log.WarnContext(ctx, "reading a table to show", "table", key, "err", err)
		err = nil // nothing to retry: the next show reads it again
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	rs = m.state(key)
	switch {
	case send.Retried(err):
		rs.queued = true // the outbox calls it again
	case err == nil && read:
		rs.out, rs.turn = true, v.Table.TurnStarted()
		if m.earlier.Kept() {
			m.drawn[key] = v.Table.Version()
			if v.Table.Phase() == game.Closed {
				m.drawn[key] = 0
			}
		}
	}
	if err == nil && read && v.Table.Phase() == game.Closed && !rs.queued {
		delete(m.renders, key)
		if len(m.renders) == 0 {
			m.renders = make(map[storage.TableKey]*renderState)
		}
	}
	return err
}

// showTurn starts the clock of the view's turn again at now, if the turn
// began more than shownLate before and no render showed it (see
// messages), and returns the view to render.
func (m *messages) showTurn(ctx context.Context, v storage.View, now time.Time) storage.View {
	for range 3 { // a command may move the table meanwhile: look again
		started := v.Table.TurnStarted()
		if started.IsZero() || now.Sub(started) <= shownLate || m.shown(v.Key, started) {
			return v
		}
		shown, err := m.k.store.ShowTurn(ctx, v.Key, v.Table.Version(), now, shownLate)
		if err == nil {
			m.k.turnShown(v.Key)
			return shown
		}
		if !errors.Is(err, game.ErrOutdated) {
			m.k.log.WarnContext(ctx, "starting a turn's clock as it is shown", "table", v.Key, "err", err)
			return v
		}
		newer, err := m.k.store.View(ctx, v.Key)
		if err != nil {
			m.k.log.WarnContext(ctx, "reading a table to show", "table", v.Key, "err", err)
			return v
		}
		v = newer
	}
	return v
}

// shown reports whether a render showed the table's turn that began at
// started: the table's last render that went out showed it, or, when none
// went since this start, the process before may have shown it.
func (m *messages) shown(key storage.TableKey, started time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.shownLocked(key, started)
}

func (m *messages) shownLocked(key storage.TableKey, started time.Time) bool {
	if rs := m.renders[key]; rs != nil && rs.out {
		return rs.turn.Equal(started)
	}
	return m.earlier.Showed(key.Chat, started)
}

// notShown reports whether the table's turn that began at started is not
// shown yet while a render that will show it is queued or deciding: its
// clock is not to run out meanwhile, nor the house to move. When it is,
// the render re-arms the table's timers (Keeper.turnShown) once it decided
// the turn's clock, so that what the caller holds comes due then.
func (m *messages) notShown(key storage.TableKey, started time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	rs := m.renders[key]
	if started.IsZero() || rs == nil || !(rs.queued || rs.deciding) || m.shownLocked(key, started) {
		return false
	}
	rs.held = true
	return true
}

// rendering reports whether a render of the table is queued or deciding.
func (m *messages) rendering(key storage.TableKey) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	rs := m.renders[key]
	return rs != nil && (rs.queued || rs.deciding)
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
		Awards:   v.Awards,

		HouseForbidden: v.Settings.HouseForbidden,
		Solo:           v.Key.Chat > 0,
		Inline:         v.Inline != nil,
	})
	if v.Inline != nil {
		return m.renderInline(ctx, v, msg)
	}
	m.mu.Lock()
	id := m.ids[key]
	if id == 0 {
		id = v.MessageID
	}
	m.mu.Unlock()
	if id != 0 && !retiring(v, id) {
		err := m.k.send.Edit(ctx, key.Chat, id, msg)
		if err == nil {
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
		return nil // nothing to show for a table that closed unseen
	}
	newID, err := m.k.send.Send(ctx, key.Chat, int(key.Thread), msg, 0)
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.ids[key] = newID
	m.mu.Unlock()
	m.k.host.Sent(v, newID)
	// Store the new message's id before anything else: a crash before it
	// is stored leaves the new message behind, showing a state no restart
	// updates. Until it is stored, the old messages stay to retire:
	// retired now, a restart would render the table into them again.
	if err := m.k.store.SetMessage(ctx, key, newID); err != nil {
		m.k.log.WarnContext(ctx, "recording the table message", "table", key, "err", err)
		return nil
	}
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
	delete(m.renders, key)
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
	}
	for k := range m.renders {
		if k.Chat == chat {
			delete(m.renders, k)
		}
	}
	m.dropEmpty()
	return keys
}

// dropEmpty replaces the emptied map of message ids with a new one, as a
// Go map keeps its size after deletions; m.mu is held.
func (m *messages) dropEmpty() {
	if len(m.ids) == 0 {
		m.ids = make(map[storage.TableKey]int)
	}
}

// len returns how many tables it remembers something of: their message,
// or what their renders did.
func (m *messages) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return max(len(m.ids), len(m.renders))
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
					Lang: l, Now: m.k.clock.Now(), Decks: r.Decks, Awards: r.Awards,
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
