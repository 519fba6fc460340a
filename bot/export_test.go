package bot

// Quiet reports whether the bot does nothing until its clocks move or an
// update comes: no update, timeout or restore being handled on a chat,
// and the outbox quiet (outbox.Quiet). A test that moves the clocks by hand
// waits for it before moving them again.
func (b *Bot) Quiet() bool { return b.chats.len() == 0 && b.out.Quiet() }

// Pending returns how many outgoing calls wait (outbox.Pending).
func (b *Bot) Pending() int { return b.out.Pending() }

// Restored reports whether the bot started (Start) and queued the renders
// of its start; it waits for those once Start ran.
func (b *Bot) Restored() bool {
	started := b.tables.Started()
	if started {
		b.restoring.Wait()
	}
	return started
}
