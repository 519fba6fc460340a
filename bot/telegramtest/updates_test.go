package telegramtest_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func TestGetUpdatesOffsetConfirmsAndLimitCaps(t *testing.T) {
	srv, api := start(t, telegramtest.WithFirstUpdateID(500))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)
	for _, text := range []string{"one", "two", "three"} {
		_, err := srv.SendText(chat.ID, alice.ID, text)
		require.NoError(t, err)
	}
	texts := func(updates []tgbotapi.Update) []string {
		var out []string
		for _, u := range updates {
			require.NotNil(t, u.Message)
			out = append(out, u.Message.Text)
		}
		return out
	}

	tests := []struct {
		name    string
		cfg     tgbotapi.UpdateConfig
		want    []string
		pending int
	}{
		{"unconfirmed updates come again", tgbotapi.UpdateConfig{}, []string{"one", "two", "three"}, 3},
		{"limit caps the answer", tgbotapi.UpdateConfig{Limit: 2}, []string{"one", "two"}, 3},
		{"offset confirms smaller ids", tgbotapi.UpdateConfig{Offset: 501}, []string{"two", "three"}, 2},
		{"negative offset keeps the last ones", tgbotapi.UpdateConfig{Offset: -1}, []string{"three"}, 1},
		{"offset past the end empties the queue", tgbotapi.UpdateConfig{Offset: 503}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			updates, err := api.GetUpdates(tt.cfg)
			require.NoError(t, err)
			assert.Equal(t, tt.want, texts(updates))
			assert.Equal(t, tt.pending, srv.PendingUpdates())
		})
	}
}

func TestLongPollWakesOnFirstUpdateAndTimesOut(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)

	t.Run("returns empty after the timeout", func(t *testing.T) {
		begun := time.Now()
		updates, err := api.GetUpdates(tgbotapi.UpdateConfig{Timeout: 1})
		require.NoError(t, err)
		assert.Empty(t, updates)
		assert.GreaterOrEqual(t, time.Since(begun), 900*time.Millisecond)
	})

	t.Run("returns as soon as an update arrives", func(t *testing.T) {
		type result struct {
			updates []tgbotapi.Update
			err     error
			took    time.Duration
		}
		done := make(chan result, 1)
		go func() {
			begun := time.Now()
			u, err := api.GetUpdates(tgbotapi.UpdateConfig{Timeout: 30})
			done <- result{u, err, time.Since(begun)}
		}()
		// The poll must be waiting before the message is sent, else it
		// would return at once without proving the wake-up.
		require.NoError(t, srv.WaitFor(deadline(t), func(*telegramtest.View) bool { return srv.LongPollWaiting() }))
		_, err := srv.SendText(chat.ID, alice.ID, "wake up")
		require.NoError(t, err)
		select {
		case r := <-done:
			require.NoError(t, r.err)
			require.Len(t, r.updates, 1)
			assert.Equal(t, "wake up", r.updates[0].Message.Text)
			assert.Less(t, r.took, 5*time.Second)
		case <-deadline(t).Done():
			t.Fatal("long poll did not return after an update")
		}
	})
}

func TestSecondLongPollEndsTheFirstWithConflict(t *testing.T) {
	srv, api := start(t)
	first := make(chan error, 1)
	go func() {
		_, err := api.GetUpdates(tgbotapi.UpdateConfig{Timeout: 30})
		first <- err
	}()
	require.NoError(t, srv.WaitFor(deadline(t), func(*telegramtest.View) bool { return srv.LongPollWaiting() }))
	second := make(chan error, 1)
	go func() {
		_, err := api.GetUpdates(tgbotapi.UpdateConfig{Timeout: 1})
		second <- err
	}()
	select {
	case err := <-first:
		apiErr := asAPIError(t, err)
		assert.Equal(t, 409, apiErr.Code)
		assert.Equal(t, "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running", apiErr.Message)
	case <-deadline(t).Done():
		t.Fatal("the first long poll was not terminated")
	}
	require.NoError(t, <-second)
}

func TestAllowedUpdatesFilterNewUpdates(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)
	_, err := api.GetUpdates(tgbotapi.UpdateConfig{AllowedUpdates: []string{"callback_query"}})
	require.NoError(t, err)
	_, err = srv.SendText(chat.ID, alice.ID, "filtered out")
	require.NoError(t, err)
	assert.Equal(t, 0, srv.PendingUpdates(), "messages are not even queued once only callback queries are allowed")

	// tgbotapi sends allowed_updates=null when the list is nil: that keeps the setting.
	_, err = api.GetUpdates(tgbotapi.UpdateConfig{})
	require.NoError(t, err)
	_, err = srv.SendText(chat.ID, alice.ID, "still filtered")
	require.NoError(t, err)
	assert.Equal(t, 0, srv.PendingUpdates())

	// An empty list restores the default set.
	resp := call(t, srv, "getUpdates", url.Values{"allowed_updates": {"[]"}})
	require.True(t, resp.OK)
	_, err = srv.SendText(chat.ID, alice.ID, "delivered")
	require.NoError(t, err)
	updates, err := api.GetUpdates(tgbotapi.UpdateConfig{})
	require.NoError(t, err)
	require.Len(t, updates, 1)
	assert.Equal(t, "delivered", updates[0].Message.Text)
}

func TestGetUpdatesConcurrentWithTrafficIsRaceFree(t *testing.T) {
	srv, api := start(t)
	users := srv.NewUsers("A", "B", "C", "D")
	chat := srv.NewGroup("Table", users...)
	const perUser = 50
	var wg sync.WaitGroup
	for _, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range perUser {
				_, err := srv.SendCommand(chat.ID, u.ID, "hit")
				assert.NoError(t, err)
			}
		}()
	}
	seen := 0
	offset := 0
	ctx := deadline(t)
	for seen < perUser*len(users) && ctx.Err() == nil {
		updates, err := api.GetUpdates(tgbotapi.UpdateConfig{Offset: offset, Timeout: 1})
		require.NoError(t, err)
		for _, u := range updates {
			require.Greater(t, u.UpdateID, offset-1, "update ids increase")
			offset = u.UpdateID + 1
			seen++
		}
	}
	wg.Wait()
	assert.Equal(t, perUser*len(users), seen)
}

func TestPushRawUpdateQueuesWhatTheWorldNeverSends(t *testing.T) {
	srv, api := start(t, telegramtest.WithFirstUpdateID(40))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)
	_, err := srv.SendText(chat.ID, alice.ID, "before")
	require.NoError(t, err)

	// A message with no chat, and an update_id of its own the server replaces.
	id, err := srv.PushRawUpdate(telegramtest.UpdateMessage,
		json.RawMessage(`{"update_id":7,"message":{"message_id":1,"date":0,"text":"/cancel"}}`))
	require.NoError(t, err)
	assert.Equal(t, 41, id, "the next id after the world's update")
	_, err = srv.SendText(chat.ID, alice.ID, "after")
	require.NoError(t, err)
	assert.Equal(t, 3, srv.PendingUpdates())

	raw := rawUpdates(t, srv, 0)
	require.Len(t, raw, 3)
	assert.EqualValues(t, 41, raw[1]["update_id"])
	msg, ok := raw[1]["message"].(map[string]any)
	require.True(t, ok, "%v", raw[1])
	assert.Equal(t, "/cancel", msg["text"])
	assert.NotContains(t, msg, "chat", "delivered as it was pushed")
	assert.EqualValues(t, 42, raw[2]["update_id"])

	// The real client decodes it like any other and confirms it.
	updates, err := api.GetUpdates(tgbotapi.UpdateConfig{Offset: 41})
	require.NoError(t, err)
	require.Len(t, updates, 2)
	require.NotNil(t, updates[0].Message)
	assert.Nil(t, updates[0].Message.Chat)
	_, err = api.GetUpdates(tgbotapi.UpdateConfig{Offset: 43})
	require.NoError(t, err)
	assert.Zero(t, srv.PendingUpdates())
	assert.Len(t, srv.Messages(chat.ID), 2, "nothing of a raw update enters the world")
}

func TestPushRawUpdateRefusesWhatIsNoUpdate(t *testing.T) {
	srv, _ := start(t)
	tests := []struct {
		name, kind, update string
	}{
		{"unknown kind", "telegram_post", `{"telegram_post":{}}`},
		{"no kind", "", `{"message":{}}`},
		{"not JSON", telegramtest.UpdateMessage, `{"message":`},
		{"an array", telegramtest.UpdateMessage, `[{"message":{}}]`},
		{"null", telegramtest.UpdateMessage, `null`},
		{"a string", telegramtest.UpdateMessage, `"message"`},
		{"without the kind's field", telegramtest.UpdateCallbackQuery, `{"message":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := srv.PushRawUpdate(tt.kind, json.RawMessage(tt.update))
			assert.ErrorIs(t, err, telegramtest.ErrInvalid)
			assert.Zero(t, id)
			assert.Zero(t, srv.PendingUpdates())
		})
	}
}

func TestPushRawUpdateFollowsAllowedUpdates(t *testing.T) {
	srv, api := start(t)
	_, err := api.GetUpdates(tgbotapi.UpdateConfig{AllowedUpdates: []string{"message"}})
	require.NoError(t, err)
	id, err := srv.PushRawUpdate(telegramtest.UpdateCallbackQuery, json.RawMessage(`{"callback_query":{"id":"1"}}`))
	require.NoError(t, err)
	assert.Zero(t, id, "Telegram drops a kind the bot did not ask for")
	assert.Zero(t, srv.PendingUpdates())
	id, err = srv.PushRawUpdate(telegramtest.UpdateMessage, json.RawMessage(`{"message":{}}`))
	require.NoError(t, err)
	assert.Equal(t, 1, id)
	assert.Equal(t, 1, srv.PendingUpdates())
}

// TestHungUpFollowsARequestTheClientGaveUpOn: a client that sends a
// getUpdates and closes its connection without waiting for the answer
// (a bot stopping mid-poll) may still have it handled; once the server
// hung up that connection, it was.
func TestHungUpFollowsARequestTheClientGaveUpOn(t *testing.T) {
	srv, _ := start(t)
	assert.False(t, srv.HungUp("127.0.0.1:1"), "no connection from there yet")
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL(), "http://"))
	require.NoError(t, err)
	path := fmt.Sprintf(strings.TrimPrefix(srv.Endpoint(), srv.URL()), srv.Token(), "getUpdates")
	query := "?timeout=5&allowed_updates=" + url.QueryEscape(`["chat_member"]`)
	_, err = fmt.Fprintf(conn, "GET %s%s HTTP/1.1\r\nHost: telegramtest\r\n\r\n", path, query)
	require.NoError(t, err)
	require.NoError(t, conn.Close())

	require.NoError(t, srv.WaitFor(deadline(t), func(v *telegramtest.View) bool { return v.HungUp(conn.LocalAddr().String()) }))
	id, err := srv.PushRawUpdate(telegramtest.UpdateChatMember, json.RawMessage(`{"chat_member":{}}`))
	require.NoError(t, err)
	assert.NotZero(t, id, "the abandoned getUpdates was handled: it asked for chat_member, which is not sent by default")
}

// TestDefaultAllowedUpdates: without allowed_updates the bot gets every
// update type but chat_member, message_reaction and
// message_reaction_count (Client.h, DEFAULT_ALLOWED_UPDATE_TYPES), the
// inline and guest ones among them; a list names what it gets.
func TestDefaultAllowedUpdates(t *testing.T) {
	tests := []struct {
		kind    string
		allowed string // the getUpdates allowed_updates argument; "" for the default
		want    bool
	}{
		{telegramtest.UpdateInlineQuery, "", true},
		{telegramtest.UpdateChosenInlineResult, "", true},
		{telegramtest.UpdateGuestMessage, "", true},
		{telegramtest.UpdateChatMember, "", false},
		{"message_reaction", "", false},
		{"message_reaction_count", "", false},
		{telegramtest.UpdateGuestMessage, `["message"]`, false},
		{telegramtest.UpdateGuestMessage, `["guest_message"]`, true},
		{telegramtest.UpdateInlineQuery, `["chosen_inline_result"]`, false},
		{"message_reaction", `["message_reaction"]`, true},
	}
	for _, tt := range tests {
		t.Run(tt.kind+" "+tt.allowed, func(t *testing.T) {
			srv, _ := start(t)
			if tt.allowed != "" {
				resp := call(t, srv, "getUpdates", url.Values{"allowed_updates": {tt.allowed}})
				require.True(t, resp.OK, resp.Description)
			}
			id, err := srv.PushRawUpdate(tt.kind, json.RawMessage(`{"`+tt.kind+`":{}}`))
			require.NoError(t, err)
			assert.Equal(t, tt.want, id != 0)
			assert.Equal(t, tt.want, srv.PendingUpdates() == 1)
		})
	}
}
