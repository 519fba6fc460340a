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
