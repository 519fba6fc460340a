package table

// Footprint returns how much the keeper holds: armed timers, tables it
// remembers a message or render of, chats with a nudge. A test's view of
// what the keeper holds, not product API.
func (k *Keeper) Footprint() (timers, tables, nudges int) {
	return k.timers.len(), k.msgs.len(), k.nudges.len()
}
