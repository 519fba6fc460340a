package outbox

import "time"

// Limits says how fast the outbox may call. A zero field is no limit.
type Limits struct {
	// PerSecond caps the calls over all chats in any second (Telegram:
	// about 30); they go one every second/PerSecond, not a second's
	// worth at once.
	PerSecond int
	// GroupPerMinute caps the calls per GroupWindow into one group
	// (Telegram: 20 a minute).
	GroupPerMinute int
	// GroupWindow is the span GroupPerMinute counts over; default a minute.
	GroupWindow time.Duration
	// GroupBurst is how many calls may go into a group back to back (at
	// ChatInterval) before the rest are spread at one every
	// GroupWindow/(GroupPerMinute-GroupBurst+1); 0 is 3, and it is at
	// most GroupPerMinute (TelegramLimits sets 2).
	GroupBurst int
	// ChatInterval is the least time between two calls into the same chat
	// (Telegram: about one second).
	ChatInterval time.Duration
	// NoticePerSecond caps the Notice calls per second, within PerSecond,
	// so that a burst of notices leaves the rest of each second to the
	// renders and replies that come meanwhile; 0 is a third of PerSecond
	// (at least 1), or no cap without PerSecond (see NoticeRate).
	NoticePerSecond int
}

// TelegramLimits are Telegram's published limits with a margin: 25 calls a
// second over all chats (Telegram: about 30), of which notices take at most
// a third, 8, after the tables (see Notice), and answers at most a third
// ahead of them (EphemeralShare): 17 stay for the tables; and into a group
// at most 19 in any minute (Telegram: 20), a burst of 2 and then one every
// 60/18 s, at least a second apart (a burst of 3 spaced the rest 60/17 s
// apart: players who keep a table busy see it sooner with the shorter
// spacing). Raising PerSecond raises the notices' and answers' shares.
func TelegramLimits() Limits {
	return Limits{PerSecond: 25, GroupPerMinute: 19, GroupWindow: time.Minute, GroupBurst: 2,
		ChatInterval: time.Second}
}

// NoticeRate returns the notices' cap a second: NoticePerSecond, or when
// it is 0 a third of PerSecond (at least 1); 0 (no cap) with neither.
func (l Limits) NoticeRate() int {
	if l.NoticePerSecond > 0 || l.PerSecond <= 0 {
		return max(l.NoticePerSecond, 0)
	}
	return max(l.PerSecond/3, 1)
}

// GroupInterval returns the spacing of a group's calls once its burst is
// spent: GroupWindow/(GroupPerMinute-GroupBurst+1), rounded up, so that
// any span of GroupWindow holds at most GroupPerMinute calls; 0 without a
// group limit.
func (l Limits) GroupInterval() time.Duration {
	if l.GroupPerMinute <= 0 {
		return 0
	}
	w := l.GroupWindow
	if w <= 0 {
		w = time.Minute
	}
	k := time.Duration(l.GroupPerMinute - l.GroupBurstSize() + 1)
	return (w + k - 1) / k
}

// GroupBurstSize returns how many calls may go into a group back to back
// before the rest are spaced GroupInterval apart: GroupBurst, by default
// 3, at most GroupPerMinute.
func (l Limits) GroupBurstSize() int {
	b := l.GroupBurst
	if b <= 0 {
		b = 3
	}
	return min(b, l.GroupPerMinute)
}
