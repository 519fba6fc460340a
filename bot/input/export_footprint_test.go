package input

// Footprint returns how many entries the handler's caches hold: the reply
// quota, the admins asked about, the last presses, the deck checks sent,
// the prompts to start the bot in private. A test's view of what the
// handler holds, not product API.
func (h *Handler) Footprint() int {
	return h.quota.users.Len() + h.admins.known.Len() + h.presses.last.Len() + h.checks.sent.Len() + h.follows.prompts.ids.Len()
}
