package telegramtest_test

import (
	"context"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// runToyBot is a minimal bot: /newgame posts "Score: 0" with a Hit button,
// each press answers the query and edits the score. It stops with ctx.
func runToyBot(ctx context.Context, t *testing.T, api *tgbotapi.BotAPI) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		scores := map[[2]int64]int{}
		offset := 0
		for ctx.Err() == nil {
			updates, err := api.GetUpdates(tgbotapi.UpdateConfig{Offset: offset, Timeout: 1})
			if err != nil {
				if ctx.Err() == nil {
					t.Errorf("getUpdates: %v", err)
				}
				return
			}
			for _, u := range updates {
				offset = u.UpdateID + 1
				switch {
				case u.Message != nil && u.Message.Command() == "newgame":
					m := tgbotapi.NewMessage(u.Message.Chat.ID, "Score: 0")
					m.ReplyMarkup = keyboard("Hit", "hit")
					if _, err := api.Send(m); err != nil {
						t.Errorf("send: %v", err)
					}
				case u.CallbackQuery != nil:
					q := u.CallbackQuery
					key := [2]int64{q.Message.Chat.ID, int64(q.Message.MessageID)}
					scores[key]++
					if _, err := api.Request(tgbotapi.NewCallback(q.ID, "+1")); err != nil {
						t.Errorf("answer: %v", err)
					}
					edit := tgbotapi.NewEditMessageTextAndMarkup(key[0], int(key[1]), "Score: "+itoa(scores[key]), keyboard("Hit", "hit"))
					if _, err := api.Send(edit); err != nil {
						t.Errorf("edit: %v", err)
					}
				}
			}
		}
	}()
	return done
}

func TestManyChatsPressingConcurrently(t *testing.T) {
	const chats, usersPerChat, pressesPerUser = 10, 4, 5
	srv, api := start(t)
	sub := srv.Subscribe(4096)
	ctx, cancel := context.WithCancel(context.Background())
	botDone := runToyBot(ctx, t, api)
	defer func() {
		cancel()
		srv.Close()
		<-botDone
	}()

	type table struct {
		chat  telegramtest.Chat
		users []telegramtest.User
	}
	tables := make([]table, chats)
	for i := range tables {
		users := srv.NewUsers("A", "B", "C", "D")
		tables[i] = table{chat: srv.NewGroup("Table "+itoa(i), users...), users: users}
		_, err := srv.SendCommand(tables[i].chat.ID, users[0].ID, "newgame")
		require.NoError(t, err)
	}
	for _, tb := range tables {
		_, err := srv.WaitForBotMessage(deadline(t), tb.chat.ID, telegramtest.HasButton("Hit"))
		require.NoError(t, err)
	}
	// The tables' sendMessage calls are logged just after their messages
	// show: count from once they are.
	require.NoError(t, srv.WaitFor(deadline(t), func(*telegramtest.View) bool { return srv.Calls().OK("sendMessage") >= chats }))
	before := srv.Calls()

	var wg sync.WaitGroup
	for _, tb := range tables {
		for _, u := range tb.users {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range pressesPerUser {
					press, err := srv.PressButton(tb.chat.ID, u.ID, "Hit")
					if !assert.NoError(t, err) {
						return
					}
					answer, err := press.Wait(deadline(t))
					if !assert.NoError(t, err) {
						return
					}
					assert.Equal(t, "+1", answer.Text)
				}
			}()
		}
	}
	wg.Wait()

	want := "Score: " + itoa(usersPerChat*pressesPerUser)
	for _, tb := range tables {
		_, err := srv.WaitForBotMessage(deadline(t), tb.chat.ID, telegramtest.TextContains(want))
		assert.NoError(t, err)
	}
	presses := chats * usersPerChat * pressesPerUser
	// A call is logged just after its effect shows: wait for the log too.
	require.NoError(t, srv.WaitFor(deadline(t), func(v *telegramtest.View) bool {
		c := srv.Calls().Sub(before)
		return c.OK("editMessageText") >= presses && c.OK("answerCallbackQuery") >= presses
	}))
	calls := srv.Calls().Sub(before)
	assert.Equal(t, presses, calls.OK("answerCallbackQuery"))
	assert.Equal(t, presses, calls.OK("editMessageText"))
	assert.LessOrEqual(t, calls.Total("getUpdates"), 2*presses, "at most 2 Bot API calls per press")

	// Press-to-edit latency from the event stream, as the load tool measures it.
	pressedAt := map[[2]int64][]time.Time{}
	var latencies []time.Duration
	for len(latencies) < presses {
		select {
		case e := <-sub.C:
			key := [2]int64{e.ChatID, int64(e.MessageID)}
			switch e.Kind {
			case telegramtest.EventButtonPressed:
				pressedAt[key] = append(pressedAt[key], e.Callback.PressedAt)
			case telegramtest.EventMessageEdited:
				if q := pressedAt[key]; len(q) > 0 {
					latencies = append(latencies, e.Time.Sub(q[0]))
					pressedAt[key] = q[1:]
				}
			}
		case <-deadline(t).Done():
			t.Fatalf("saw %d of %d edits", len(latencies), presses)
		}
	}
	for _, l := range latencies {
		assert.GreaterOrEqual(t, l, time.Duration(0))
	}
	assert.Zero(t, sub.Dropped())
}

func BenchmarkPressAnswerEdit(b *testing.B) {
	srv, err := telegramtest.Start()
	require.NoError(b, err)
	defer srv.Close()
	api, err := tgbotapi.NewBotAPIWithClient(srv.Token(), srv.Endpoint(), srv.Client())
	require.NoError(b, err)
	users := srv.NewUsers("A", "B", "C", "D")
	chat := srv.NewGroup("Bench", users...)
	m := tgbotapi.NewMessage(chat.ID, "Score: 0")
	m.ReplyMarkup = keyboard("Hit", "hit")
	sent, err := api.Send(m)
	require.NoError(b, err)
	offset := 0
	b.ResetTimer()
	for i := range b.N {
		_, err := srv.PressButton(chat.ID, users[i%4].ID, "Hit")
		require.NoError(b, err)
		updates, err := api.GetUpdates(tgbotapi.UpdateConfig{Offset: offset})
		require.NoError(b, err)
		for _, u := range updates {
			offset = u.UpdateID + 1
			_, err = api.Request(tgbotapi.NewCallback(u.CallbackQuery.ID, ""))
			require.NoError(b, err)
			_, err = api.Send(tgbotapi.NewEditMessageTextAndMarkup(chat.ID, sent.MessageID, "Score: "+itoa(i+1), keyboard("Hit", "hit")))
			require.NoError(b, err)
		}
	}
}

func BenchmarkParallelSendMessage(b *testing.B) {
	srv, err := telegramtest.Start()
	require.NoError(b, err)
	defer srv.Close()
	users := srv.NewUsers("A")
	chats := make([]int64, 64)
	for i := range chats {
		chats[i] = srv.NewGroup("Bench", users...).ID
	}
	client := srv.Client()
	b.SetParallelism(16)
	var next atomicCounter
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		api, err := tgbotapi.NewBotAPIWithClient(srv.Token(), srv.Endpoint(), client)
		if err != nil {
			b.Error(err)
			return
		}
		chat := chats[next.inc()%len(chats)]
		for pb.Next() {
			m := tgbotapi.NewMessage(chat, "<b>Score</b>: 21")
			m.ParseMode = tgbotapi.ModeHTML
			m.ReplyMarkup = keyboard("Hit", "hit", "Stand", "stand")
			if _, err := api.Send(m); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

type atomicCounter struct {
	mu sync.Mutex
	n  int
}

func (c *atomicCounter) inc() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.n
}
