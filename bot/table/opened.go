package table

import (
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Sent is told of the new message that first shows a table just opened
// (Keeper.Open): the view it shows, a lobby, and the message's id, stored
// before Sent is told. It is called from the outbox's call, and must not
// wait: what it does on the table's chat it runs there (Host.OnChat).
type Sent func(v storage.View, id int)

// Open shows a table just opened, v its lobby, as Show does, and tells
// sent of the new message that shows the lobby once that message is sent
// and its id stored: once, however many renders it took. sent is told
// nothing when the lobby is over (a game started, the table closed)
// before a new message showed it, nor once the chat or the table is
// forgotten; another Open of the table replaces it. A nil sent tells
// nobody.
//
// Open needs no call before or after it: it holds sent from before it
// queues the render, so that no render of the lobby goes out unseen.
func (k *Keeper) Open(v storage.View, sent Sent) {
	k.msgs.opened(v.Key, v.Table.Version(), sent)
	k.Show(v)
}

// opening is a table just opened whose lobby no new message showed yet:
// the version it opened at, and who is told of its message.
type opening struct {
	version uint64
	sent    Sent
}

// opened records that the table at key opened at version, sent (if any)
// to be told of its first message.
func (m *messages) opened(key storage.TableKey, version uint64, sent Sent) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if sent == nil {
		delete(m.openings, key)
		m.dropEmpty()
		return
	}
	m.openings[key] = opening{version: version, sent: sent}
}

// rendered is told of each render that went out, of v, into the new
// message id (0: the message was edited, or none was sent), and tells the
// table's opening of it once it is its lobby's first message: a render of
// the table from before it opened leaves the opening waiting, and one of
// a later state that is no lobby drops it (the lobby is over, announced
// to nobody).
func (m *messages) rendered(v storage.View, id int) {
	lobby := v.Table.Phase() == game.Lobby
	m.mu.Lock()
	o, ok := m.openings[v.Key]
	if !ok || v.Table.Version() < o.version || lobby && id == 0 {
		m.mu.Unlock()
		return
	}
	delete(m.openings, v.Key)
	m.dropEmpty()
	m.mu.Unlock()
	if lobby {
		o.sent(v, id)
	}
}
