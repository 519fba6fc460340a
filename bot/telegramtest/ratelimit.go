package telegramtest

import (
	"sync"
	"time"
)

// RateLimit allows Limit messages per Window; a zero Limit disables it.
type RateLimit struct {
	// Limit is how many messages fit in a window.
	Limit int
	// Window is the sliding window's length.
	Window time.Duration
}

// RateLimits are Telegram's flood limits on the methods that send or edit
// messages (sendMessage, editMessageText). They do
// not apply to answerCallbackQuery, getUpdates or reads. A request over a
// limit is answered 429 "Too Many Requests: retry after N" with
// parameters.retry_after = N, the whole seconds (at least 1) until the
// oldest counted message leaves its window. Only accepted requests count.
type RateLimits struct {
	// Enabled switches all limits; the zero RateLimits is off.
	Enabled bool
	// Global limits the bot as a whole (Telegram: about 30 per second).
	Global RateLimit
	// Group limits each group or supergroup (Telegram: 20 per minute).
	Group RateLimit
	// Private limits each private chat (Telegram: 1 per second).
	Private RateLimit
}

// TelegramRateLimits are Telegram's limits as its Bot FAQ gives them, on:
// about 30 messages a second over all chats, 20 a minute into one group,
// about one a second into one private chat. Edits count as messages.
func TelegramRateLimits() RateLimits {
	return RateLimits{Enabled: true,
		Global:  RateLimit{Limit: 30, Window: time.Second},
		Group:   RateLimit{Limit: 20, Window: time.Minute},
		Private: RateLimit{Limit: 1, Window: time.Second},
	}
}

// window is a ring of the times of the last Limit accepted messages.
type window struct {
	times []time.Time
	next  int
	count int
}

// wait returns how long until one more message fits (0: it fits now).
func (w *window) wait(now time.Time, limit RateLimit) time.Duration {
	if limit.Limit <= 0 || w.count < limit.Limit {
		return 0
	}
	oldest := w.times[w.next]
	if d := oldest.Add(limit.Window).Sub(now); d > 0 {
		return d
	}
	return 0
}

func (w *window) add(now time.Time, limit RateLimit) {
	if limit.Limit <= 0 {
		return
	}
	if len(w.times) != limit.Limit {
		w.times = make([]time.Time, limit.Limit)
		w.next, w.count = 0, 0
	}
	w.times[w.next] = now
	w.next = (w.next + 1) % limit.Limit
	w.count = min(w.count+1, limit.Limit)
}

type rateLimiter struct {
	mu     sync.Mutex
	cfg    RateLimits
	global window
	chats  map[int64]*window
}

func newRateLimiter(cfg RateLimits) *rateLimiter {
	return &rateLimiter{cfg: cfg, chats: map[int64]*window{}}
}

func (r *rateLimiter) set(cfg RateLimits) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cfg = cfg
	r.global = window{}
	r.chats = map[int64]*window{}
}

func (r *rateLimiter) chatLimit(private bool) RateLimit {
	if private {
		return r.cfg.Private
	}
	return r.cfg.Group
}

// check returns the retry_after (whole seconds) if a message to the chat
// would exceed a limit now, else 0.
func (r *rateLimiter) check(now time.Time, chatID int64, private bool) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cfg.Enabled {
		return 0
	}
	d := r.global.wait(now, r.cfg.Global)
	if w := r.chats[chatID]; w != nil {
		d = max(d, w.wait(now, r.chatLimit(private)))
	}
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}

// record counts an accepted message.
func (r *rateLimiter) record(now time.Time, chatID int64, private bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cfg.Enabled {
		return
	}
	r.global.add(now, r.cfg.Global)
	w := r.chats[chatID]
	if w == nil {
		w = &window{}
		r.chats[chatID] = w
	}
	w.add(now, r.chatLimit(private))
}

// SetRateLimits replaces the rate limits at run time and forgets the
// messages counted so far.
func (s *Server) SetRateLimits(limits RateLimits) { s.limits.set(limits) }
