package table

import "github.com/twentyone-bot/twentyone/storage"

// Footprint returns how much the keeper holds: armed timers, tables it
// remembers a message or render of (or that they just opened), chats with
// a nudge. A test's view of what the keeper holds, not product API.
func (k *Keeper) Footprint() (timers, tables, nudges int) {
	return k.timers.len(), k.msgs.len(), k.nudges.len()
}

// Opening reports whether the table at key waits for its lobby's first
// message (Keeper.Open): a test's view, not product API.
func (k *Keeper) Opening(key storage.TableKey) bool {
	k.msgs.mu.Lock()
	defer k.msgs.mu.Unlock()
	_, ok := k.msgs.openings[key]
	return ok
}
