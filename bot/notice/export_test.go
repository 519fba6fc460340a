package notice

// Footprint returns how many tables the notices remember: a test's view
// of what the notices hold, not product API.
func (n *Notices) Footprint() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.opening.Len() + len(n.open)
}
