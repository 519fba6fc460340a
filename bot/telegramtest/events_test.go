package telegramtest_test

import (
	"context"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func TestSubscriptionReportsEveryChangeInOrder(t *testing.T) {
	srv, api := start(t)
	sub := srv.Subscribe(64)
	defer sub.Close()
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)

	_, err := srv.SendCommand(chat.ID, alice.ID, "newgame")
	require.NoError(t, err)
	m := tgbotapi.NewMessage(chat.ID, "Score: 0")
	m.ReplyMarkup = keyboard("Hit", "hit")
	sent, err := api.Send(m)
	require.NoError(t, err)
	press, err := srv.PressButton(chat.ID, alice.ID, "Hit")
	require.NoError(t, err)
	_, err = api.Request(tgbotapi.NewCallback(press.ID(), "dealt"))
	require.NoError(t, err)
	_, err = api.Send(tgbotapi.NewEditMessageTextAndMarkup(chat.ID, sent.MessageID, "Score: 10", keyboard("Hit", "hit")))
	require.NoError(t, err)
	_, err = api.Request(tgbotapi.NewDeleteMessage(chat.ID, sent.MessageID))
	require.NoError(t, err)

	want := []telegramtest.EventKind{
		telegramtest.EventMessageSent, telegramtest.EventMessageSent, telegramtest.EventButtonPressed,
		telegramtest.EventCallbackAnswered, telegramtest.EventMessageEdited, telegramtest.EventMessageDeleted,
	}
	var got []telegramtest.Event
	for range want {
		select {
		case e := <-sub.C:
			got = append(got, e)
		case <-deadline(t).Done():
			t.Fatalf("only %d events arrived", len(got))
		}
	}
	for i, e := range got {
		assert.Equal(t, want[i], e.Kind, "event %d", i)
		assert.Equal(t, chat.ID, e.ChatID, "event %d", i)
		if i > 0 {
			assert.Greater(t, e.Seq, got[i-1].Seq)
			assert.False(t, e.Time.Before(got[i-1].Time))
		}
	}
	assert.Equal(t, "/newgame", got[0].Message.Text)
	assert.True(t, got[1].Message.FromBot)
	assert.Equal(t, "hit", got[2].Callback.Data)
	require.NotNil(t, got[3].Callback.Answer)
	assert.Equal(t, "dealt", got[3].Callback.Answer.Text)
	assert.Equal(t, "Score: 10", got[4].Message.Text)
	assert.Equal(t, sent.MessageID, got[5].MessageID)
	assert.Zero(t, sub.Dropped())
}

func TestSlowSubscriberNeverBlocksTheServer(t *testing.T) {
	srv := telegramtest.StartTest(t)
	slow := srv.Subscribe(2)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)
	for i := range 10 {
		_, err := srv.SendText(chat.ID, alice.ID, "msg "+itoa(i))
		require.NoError(t, err)
	}
	assert.Equal(t, uint64(8), slow.Dropped())
	assert.Len(t, slow.C, 2)
	slow.Close()
	for range slow.C {
	}
	_, open := <-slow.C
	assert.False(t, open)

	other := srv.Subscribe(1)
	srv.Close()
	_, open = <-other.C
	assert.False(t, open, "Close closes subscriptions")
}

func TestWaitForTimeoutSaysWhatItSaw(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	m := tgbotapi.NewMessage(chat.ID, "Dealer shows 17")
	m.ReplyMarkup = keyboard("Hit", "hit", "Stand", "stand")
	_, err := api.Send(m)
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = srv.WaitForBotMessage(ctx, chat.ID, telegramtest.TextContains("Blackjack"))
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), `"Dealer shows 17" [Hit | Stand]`)
	assert.Contains(t, err.Error(), "sendMessage=200")
}

func TestWaitForWakesOnChange(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	done := make(chan telegramtest.ChatMessage, 1)
	go func() {
		m, err := srv.WaitForBotMessage(deadline(t), chat.ID, telegramtest.HasButton("Join"))
		assert.NoError(t, err)
		done <- m
	}()
	_, err := api.Send(tgbotapi.NewMessage(chat.ID, "no buttons yet"))
	require.NoError(t, err)
	m := tgbotapi.NewMessage(chat.ID, "Join the table")
	m.ReplyMarkup = keyboard("Join", "join")
	_, err = api.Send(m)
	require.NoError(t, err)
	select {
	case got := <-done:
		assert.Equal(t, "Join the table", got.Text)
	case <-deadline(t).Done():
		t.Fatal("WaitForBotMessage did not wake up")
	}
}
