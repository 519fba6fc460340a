package telegramtest_test

import (
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func TestInjectedFaults(t *testing.T) {
	tests := []struct {
		name  string
		fault telegramtest.Fault
		check func(t *testing.T, err error)
		// stored says whether the failed sendMessage still stored the message.
		stored   bool
		wantCode int
	}{
		{
			name:  "internal error",
			fault: telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{"sendMessage"}, Count: 1},
			check: func(t *testing.T, err error) {
				apiErr := asAPIError(t, err)
				assert.Equal(t, 500, apiErr.Code)
				assert.Equal(t, "Internal Server Error", apiErr.Message)
			},
			wantCode: 500,
		},
		{
			name:  "bad gateway is not JSON",
			fault: telegramtest.Fault{Kind: telegramtest.FaultBadGateway, Methods: []string{"SENDMESSAGE"}, Count: 1},
			check: func(t *testing.T, err error) {
				require.Error(t, err)
				var apiErr *tgbotapi.Error
				assert.False(t, errors.As(err, &apiErr), "the client cannot decode nginx's HTML page")
			},
			wantCode: 502,
		},
		{
			name:  "dropped connection",
			fault: telegramtest.Fault{Kind: telegramtest.FaultDropConnection, Methods: []string{"sendMessage"}, Count: 1},
			check: func(t *testing.T, err error) {
				require.Error(t, err)
				var apiErr *tgbotapi.Error
				assert.False(t, errors.As(err, &apiErr), "a transport error, not an answer: %v", err)
			},
			wantCode: 0,
		},
		{
			name:  "429 burst",
			fault: telegramtest.Fault{Kind: telegramtest.FaultTooManyRequests, Methods: []string{"sendMessage"}, Count: 1, RetryAfter: 7},
			check: func(t *testing.T, err error) {
				apiErr := asAPIError(t, err)
				assert.Equal(t, 429, apiErr.Code)
				assert.Equal(t, 7, apiErr.RetryAfter)
				assert.Equal(t, "Too Many Requests: retry after 7", apiErr.Message)
			},
			wantCode: 429,
		},
		{
			name:  "lost answer after the message was sent",
			fault: telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{"sendMessage"}, Count: 1, AfterHandling: true},
			check: func(t *testing.T, err error) {
				assert.Equal(t, 500, asAPIError(t, err).Code)
			},
			stored:   true,
			wantCode: 500,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, api := start(t)
			alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
			chat := srv.NewGroup("Table", alice)
			h := srv.InjectFault(tt.fault)

			_, err := api.GetMe()
			require.NoError(t, err, "other methods are not disturbed")
			_, err = api.Send(tgbotapi.NewMessage(chat.ID, "first"))
			tt.check(t, err)
			if tt.stored {
				assert.Len(t, srv.Messages(chat.ID), 1)
			} else {
				assert.Empty(t, srv.Messages(chat.ID))
			}
			assert.Equal(t, 1, h.Fired())
			assert.Equal(t, 1, srv.Calls().Methods["sendMessage"].Codes[tt.wantCode])

			_, err = api.Send(tgbotapi.NewMessage(chat.ID, "second"))
			require.NoError(t, err, "the fault fired its count")
			assert.Equal(t, 1, h.Fired())
		})
	}
}

func TestDelayFaultHoldsRequests(t *testing.T) {
	srv, api := start(t)
	h := srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Methods: []string{"getMe"}, Delay: 200 * time.Millisecond})
	begun := time.Now()
	_, err := api.GetMe()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(begun), 200*time.Millisecond)
	h.Remove()
	begun = time.Now()
	_, err = api.GetMe()
	require.NoError(t, err)
	assert.Less(t, time.Since(begun), 200*time.Millisecond)
	assert.Equal(t, 1, h.Fired())
}

// TestHeldAnswer: a delay after handling with a hold: the chat shows the
// message while the client still waits for its answer, which comes once
// the hold is released.
func TestHeldAnswer(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)
	release := make(chan struct{})
	h := srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Methods: []string{"sendMessage"},
		Count: 1, AfterHandling: true, Hold: release})
	type sent struct {
		m   tgbotapi.Message
		err error
	}
	answer := make(chan sent, 1)
	go func() {
		m, err := api.Send(tgbotapi.NewMessage(chat.ID, "held"))
		answer <- sent{m, err}
	}()
	var shown telegramtest.ChatMessage
	require.NoError(t, srv.WaitFor(deadline(t), func(v *telegramtest.View) bool {
		m, ok := v.LastBotMessage(chat.ID)
		shown = m
		return ok && m.Text == "held"
	}), "the chat shows the message before the answer")
	select {
	case a := <-answer:
		t.Fatalf("answered while held: %+v", a)
	default:
	}
	assert.Equal(t, 1, h.Fired())

	close(release)
	a := <-answer
	require.NoError(t, a.err)
	assert.Equal(t, shown.MessageID, a.m.MessageID)
	_, err := api.Send(tgbotapi.NewMessage(chat.ID, "not held"))
	require.NoError(t, err, "the fault fired its count")
}

func TestFractionalFaultsAreReproducibleWithASeed(t *testing.T) {
	run := func(seed uint64) []int {
		srv := telegramtest.StartTest(t, telegramtest.WithFaultSeed(seed))
		srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Rate: 0.3})
		codes := make([]int, 200)
		for i := range codes {
			codes[i] = call(t, srv, "getMe", url.Values{}).Status
		}
		return codes
	}
	count := func(codes []int) int {
		n := 0
		for _, c := range codes {
			if c == http.StatusInternalServerError {
				n++
			}
		}
		return n
	}
	a, b, c := run(7), run(7), run(8)
	assert.Equal(t, a, b, "same seed, same failures")
	assert.NotEqual(t, a, c, "another seed, other failures")
	assert.InDelta(t, 60, count(a), 25, "about 30%% of requests fail")
}

func TestClearFaultsStopsEverything(t *testing.T) {
	srv, api := start(t)
	srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError})
	_, err := api.GetMe()
	require.Error(t, err)
	srv.ClearFaults()
	_, err = api.GetMe()
	assert.NoError(t, err)
}
