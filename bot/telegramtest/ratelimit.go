package telegramtest

import (
	"maps"
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
// messages (sendMessage, editMessageText, editMessageReplyMarkup,
// answerGuestQuery, editEphemeralMessageText,
// editEphemeralMessageReplyMarkup). An ephemeral message, and its edits,
// count toward Global only: it is no message of the group's timeline (our
// assumption: Telegram documents no limit of its own). An inline message (a chosen inline result, a guest
// answer) counts as a group's message in its chat, whatever the chat:
// Group and Chat apply to its edits, with the bot's own messages there when
// the chat is a group, and Global to all. They do not apply to
// answerCallbackQuery, answerInlineQuery, getUpdates or reads. A request over a
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
	// Private limits each private chat, if set; TelegramRateLimits leaves
	// it off, as Chat stands for Telegram's "about one a second" there.
	Private RateLimit
	// Chat limits every chat, group or private, over a short window, on
	// top of Group or Private: Telegram's "about one a second" in a chat.
	Chat RateLimit
}

// TelegramRateLimits are Telegram's limits as this model reads the Bot FAQ
// (core.telegram.org/bots/faq, "My bot is hitting limits"): "not more than
// 30 messages per second" over all chats, "not ... more than 20 messages
// per minute to the same group", and "in a single chat, avoid sending more
// than one message per second. We may allow short bursts that go over this
// limit": at most 3 in any 2 s in a chat, a burst of one over the rate let
// through. A bot that spaces its calls into a chat by a second never meets
// that limit, even when its calls reach the server up to a second late.
func TelegramRateLimits() RateLimits {
	return RateLimits{
		Enabled: true,
		Global:  RateLimit{Limit: 30, Window: time.Second},
		Group:   RateLimit{Limit: 20, Window: time.Minute},
		Chat:    RateLimit{Limit: 3, Window: 2 * time.Second},
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

// chatWindows are one chat's windows: its Group or Private limit, and its
// Chat limit.
type chatWindows struct {
	long, short window
}

// chatKey names a chat's windows. A private chat has two sets: the bot's
// own messages count against Private there, and inline messages against
// Group, as Telegram limits an inline message like a group message.
type chatKey struct {
	chat    int64
	private bool
}

type rateLimiter struct {
	mu      sync.Mutex
	cfg     RateLimits
	global  window
	chats   map[chatKey]*chatWindows
	refused RateLimitCounts
	// refusedIn counts the requests refused with 429 by chat.
	refusedIn map[int64]int
}

// RateLimitCounts counts the requests refused with 429 by each limit; a
// request past two limits counts for both.
type RateLimitCounts struct {
	Global, Group, Private, Chat int
}

func newRateLimiter(cfg RateLimits) *rateLimiter {
	return &rateLimiter{cfg: cfg, chats: map[chatKey]*chatWindows{}, refusedIn: map[int64]int{}}
}

func (r *rateLimiter) set(cfg RateLimits) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cfg = cfg
	r.global = window{}
	r.chats = map[chatKey]*chatWindows{}
	r.refused = RateLimitCounts{}
	r.refusedIn = map[int64]int{}
}

func (r *rateLimiter) chatLimit(private bool) RateLimit {
	if private {
		return r.cfg.Private
	}
	return r.cfg.Group
}

// check returns the retry_after (whole seconds) if a message to the chat
// would exceed a limit now, else 0. private selects the Private limit
// (the bot's own messages in a private chat), else Group applies.
func (r *rateLimiter) check(now time.Time, chatID int64, private bool) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cfg.Enabled {
		return 0
	}
	d := r.global.wait(now, r.cfg.Global)
	if d > 0 {
		r.refused.Global++
	}
	if w := r.chats[chatKey{chatID, private}]; w != nil {
		if long := w.long.wait(now, r.chatLimit(private)); long > 0 {
			if private {
				r.refused.Private++
			} else {
				r.refused.Group++
			}
			d = max(d, long)
		}
		if short := w.short.wait(now, r.cfg.Chat); short > 0 {
			r.refused.Chat++
			d = max(d, short)
		}
	}
	if d <= 0 {
		return 0
	}
	r.refusedIn[chatID]++
	return int((d + time.Second - 1) / time.Second)
}

// checkGlobal is check for a write that counts toward the bot's limit
// over all chats only (an ephemeral message); refusals count in chatID.
func (r *rateLimiter) checkGlobal(now time.Time, chatID int64) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cfg.Enabled {
		return 0
	}
	d := r.global.wait(now, r.cfg.Global)
	if d <= 0 {
		return 0
	}
	r.refused.Global++
	r.refusedIn[chatID]++
	return int((d + time.Second - 1) / time.Second)
}

// recordGlobal counts an accepted write toward the global limit only.
func (r *rateLimiter) recordGlobal(now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cfg.Enabled {
		r.global.add(now, r.cfg.Global)
	}
}

// record counts an accepted message.
func (r *rateLimiter) record(now time.Time, chatID int64, private bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cfg.Enabled {
		return
	}
	r.global.add(now, r.cfg.Global)
	key := chatKey{chatID, private}
	w := r.chats[key]
	if w == nil {
		w = &chatWindows{}
		r.chats[key] = w
	}
	w.long.add(now, r.chatLimit(private))
	w.short.add(now, r.cfg.Chat)
}

// SetRateLimits replaces the rate limits at run time and forgets the
// messages counted and the requests refused so far.
func (s *Server) SetRateLimits(limits RateLimits) { s.limits.set(limits) }

// RateLimited counts the requests refused with 429 by each limit since
// the limits were set.
func (s *Server) RateLimited() RateLimitCounts {
	s.limits.mu.Lock()
	defer s.limits.mu.Unlock()
	return s.limits.refused
}

// RateLimitedChats counts the requests refused with 429 in each chat since
// the limits were set, by chat id: an inline message's edits count in the
// chat the message is in.
func (s *Server) RateLimitedChats() map[int64]int {
	s.limits.mu.Lock()
	defer s.limits.mu.Unlock()
	return maps.Clone(s.limits.refusedIn)
}
