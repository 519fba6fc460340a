package panel

// Footprint returns how many chats' panels are remembered: a test's view
// of what the panels hold, not product API.
func (p *Panels) Footprint() int { return p.chats.Len() }
