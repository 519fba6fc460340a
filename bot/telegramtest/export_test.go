package telegramtest

import "time"

// What this file declares serves the package's own tests only: nothing
// outside them needs it, so it is not part of the package.

// WithPrivacyMode switches the bot's group privacy mode (default on, like
// BotFather). With privacy on, in groups where the bot is not an
// administrator it receives only commands (unaddressed or addressed to it),
// replies to its own messages and service messages; everything else is
// still stored in the chat but not delivered as an update.
func WithPrivacyMode(on bool) Option { return func(c *config) { c.privacy = on } }

// RejectedAnswers counts answerCallbackQuery calls for this press that
// failed because the query was already answered or too old.
func (c *Callback) RejectedAnswers() int {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.state.rejected
}

// WithWebhookBackoff scales the retries of a refused webhook delivery
// (by default 50 ms, 100 ms, ... up to 1 s; see Server.retryDelay).
func WithWebhookBackoff(first, maxWait time.Duration) Option {
	return func(c *config) {
		c.webhookBackoff = first
		c.webhookMaxWait = maxWait
	}
}

// NewUsers registers one user per first name and returns them in order.
func (s *Server) NewUsers(firstNames ...string) []User {
	out := make([]User, len(firstNames))
	for i, name := range firstNames {
		out[i] = s.AddUser(User{FirstName: name})
	}
	return out
}

// LongPollWaiting reports whether a getUpdates request is parked waiting
// for updates, which lets a test act only once the bot is listening.
func (s *Server) LongPollWaiting() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.poll != nil && s.poll.parked
}

// WebhookInFlight returns how many webhook requests are in flight now.
func (s *Server) WebhookInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hook == nil {
		return 0
	}
	return s.hook.inFlight
}
