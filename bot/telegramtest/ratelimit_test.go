package telegramtest_test

import (
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func TestRateLimitsAnswer429WithRetryAfterAndRecover(t *testing.T) {
	type step struct {
		do        string // "send", "edit", "answer", "advance"
		chat      string // "private", "group", "other"
		advance   time.Duration
		wantRetry int // 0: must succeed
	}
	limits := telegramtest.RateLimits{
		Enabled: true,
		Global:  telegramtest.RateLimit{Limit: 5, Window: time.Second},
		Group:   telegramtest.RateLimit{Limit: 3, Window: 10 * time.Second},
		Private: telegramtest.RateLimit{Limit: 1, Window: time.Second},
	}
	tests := []struct {
		name   string
		limits telegramtest.RateLimits
		steps  []step
	}{
		{"private chat: one per second", limits, []step{
			{do: "send", chat: "private"},
			{do: "send", chat: "private", wantRetry: 1},
			{do: "advance", advance: 999 * time.Millisecond},
			{do: "send", chat: "private", wantRetry: 1},
			{do: "advance", advance: time.Millisecond},
			{do: "send", chat: "private"},
		}},
		{"group: edits count, answers do not", limits, []step{
			{do: "send", chat: "group"},
			{do: "edit", chat: "group"},
			{do: "send", chat: "group"},
			{do: "edit", chat: "group", wantRetry: 10},
			{do: "send", chat: "group", wantRetry: 10},
			{do: "answer", chat: "group"},
			{do: "advance", advance: 4 * time.Second},
			{do: "send", chat: "group", wantRetry: 6},
			{do: "advance", advance: 6 * time.Second},
			{do: "send", chat: "group"},
		}},
		{"global limit across chats", limits, []step{
			{do: "send", chat: "group"},
			{do: "send", chat: "private"},
			{do: "send", chat: "other"},
			{do: "send", chat: "other"},
			{do: "send", chat: "group"},
			{do: "send", chat: "other", wantRetry: 1},
			{do: "advance", advance: time.Second},
			{do: "send", chat: "other"},
		}},
		{"disabled limits never answer 429", telegramtest.RateLimits{}, []step{
			{do: "send", chat: "private"}, {do: "send", chat: "private"}, {do: "send", chat: "private"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := telegramtest.NewManualClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
			srv, api := start(t, telegramtest.WithClock(clock))
			alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
			chats := map[string]int64{
				"private": srv.PrivateChat(alice).ID,
				"group":   srv.NewGroup("Table", alice).ID,
				"other":   srv.NewSupergroup("Other", alice).ID,
			}
			// A message to edit and a press to answer, made before limits apply.
			seed := tgbotapi.NewMessage(chats["group"], "seed")
			seed.ReplyMarkup = keyboard("Hit", "hit")
			seedMsg, err := api.Send(seed)
			require.NoError(t, err)
			srv.SetRateLimits(tt.limits)

			edits := 0
			for i, st := range tt.steps {
				var err error
				switch st.do {
				case "advance":
					clock.Advance(st.advance)
					continue
				case "send":
					_, err = api.Send(tgbotapi.NewMessage(chats[st.chat], "hi"))
				case "edit":
					edits++
					_, err = api.Send(tgbotapi.NewEditMessageTextAndMarkup(chats[st.chat], seedMsg.MessageID, "edit "+itoa(edits), keyboard("Hit", "hit")))
				case "answer":
					press, perr := srv.PressButton(chats[st.chat], alice.ID, "Hit")
					require.NoError(t, perr)
					_, err = api.Request(tgbotapi.NewCallback(press.ID(), "ok"))
				}
				if st.wantRetry == 0 {
					assert.NoError(t, err, "step %d (%s %s)", i, st.do, st.chat)
					continue
				}
				apiErr := asAPIError(t, err)
				assert.Equal(t, 429, apiErr.Code, "step %d", i)
				assert.Equal(t, "Too Many Requests: retry after "+itoa(st.wantRetry), apiErr.Message, "step %d", i)
				assert.Equal(t, st.wantRetry, apiErr.RetryAfter, "step %d", i)
			}
		})
	}
}

// TestTelegramRateLimits sends into chats at given moments under
// TelegramRateLimits: each send is taken or refused with the retry_after
// Telegram would give.
func TestTelegramRateLimits(t *testing.T) {
	type send struct {
		at        time.Duration // since the first send
		wantRetry int           // 0: taken
	}
	// oneASecond sends n at one a second from start, all taken.
	oneASecond := func(start time.Duration, n int) []send {
		var out []send
		for i := range n {
			out = append(out, send{at: start + time.Duration(i)*time.Second})
		}
		return out
	}
	tests := []struct {
		name    string
		private bool
		sends   []send
		refused telegramtest.RateLimitCounts
	}{
		{"a burst of three, then one a second", false, append([]send{
			{at: 0}, {at: 0}, {at: 0},
			{at: 0, wantRetry: 2},
			{at: time.Second, wantRetry: 1},
		}, oneASecond(2*time.Second, 3)...), telegramtest.RateLimitCounts{Chat: 2}},
		{"one a second, arriving up to 0.9 s late, is never refused", false, []send{
			{at: 900 * time.Millisecond}, {at: time.Second}, {at: 2 * time.Second},
			{at: 3900 * time.Millisecond}, {at: 4 * time.Second}, {at: 5 * time.Second},
		}, telegramtest.RateLimitCounts{}},
		{"a group's 21st message in a minute waits for the first to leave it", false, append(oneASecond(0, 20),
			send{at: 20 * time.Second, wantRetry: 40},
			send{at: 59 * time.Second, wantRetry: 1},
			send{at: time.Minute}), telegramtest.RateLimitCounts{Group: 2}},
		{"a private chat has no minute's limit", true, append(oneASecond(0, 21),
			send{at: 21 * time.Second}), telegramtest.RateLimitCounts{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			clock := telegramtest.NewManualClock(t0)
			srv, api := start(t, telegramtest.WithClock(clock))
			alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
			chat := srv.NewGroup("Table", alice).ID
			if tt.private {
				chat = srv.PrivateChat(alice).ID
			}
			srv.SetRateLimits(telegramtest.TelegramRateLimits())
			var now time.Duration
			for i, s := range tt.sends {
				clock.Advance(s.at - now)
				now = s.at
				_, err := api.Send(tgbotapi.NewMessage(chat, "hi"))
				if s.wantRetry == 0 {
					assert.NoError(t, err, "send %d at %s", i, s.at)
					continue
				}
				apiErr := asAPIError(t, err)
				assert.Equal(t, 429, apiErr.Code, "send %d at %s", i, s.at)
				assert.Equal(t, s.wantRetry, apiErr.RetryAfter, "send %d at %s", i, s.at)
			}
			assert.Equal(t, tt.refused, srv.RateLimited(), "the refusals by limit")
		})
	}
}

// TestTelegramRateLimitsGlobal: over all chats, 30 messages in a second.
func TestTelegramRateLimitsGlobal(t *testing.T) {
	clock := telegramtest.NewManualClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	srv, api := start(t, telegramtest.WithClock(clock))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	var chats []int64
	for i := range 31 {
		chats = append(chats, srv.NewGroup("Table "+itoa(i), alice).ID)
	}
	srv.SetRateLimits(telegramtest.TelegramRateLimits())
	for _, c := range chats[:30] {
		_, err := api.Send(tgbotapi.NewMessage(c, "hi"))
		require.NoError(t, err)
	}
	_, err := api.Send(tgbotapi.NewMessage(chats[30], "hi"))
	assert.Equal(t, 1, asAPIError(t, err).RetryAfter)
	assert.Equal(t, telegramtest.RateLimitCounts{Global: 1}, srv.RateLimited())
	clock.Advance(time.Second)
	_, err = api.Send(tgbotapi.NewMessage(chats[30], "hi"))
	assert.NoError(t, err)
}
