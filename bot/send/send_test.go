package send_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// chats records what the calls told of the chats (send.Chats).
type chats struct {
	mu      sync.Mutex
	moved   map[int64]int64
	refused []int64
}

func (c *chats) Moved(chat, to int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.moved[chat] = to
}

func (c *chats) Refused(chat int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refused = append(c.refused, chat)
}

// world is a Sender on our Bot API server: a group of Ann and Bob, and
// Ann's private chat.
type world struct {
	srv      *telegramtest.Server
	s        *send.Sender
	out      *outbox.Outbox
	chats    *chats
	clock    *clocktest.Clock
	ann, bob telegramtest.User
	group    int64
}

func newWorld(t *testing.T) *world {
	t.Helper()
	srv := telegramtest.StartTest(t)
	w := &world{srv: srv, chats: &chats{moved: map[int64]int64{}}}
	w.ann = srv.AddUser(telegramtest.User{FirstName: "Ann"})
	w.bob = srv.AddUser(telegramtest.User{FirstName: "Bob"})
	w.group = srv.NewGroup("Game night", w.ann, w.bob).ID
	srv.PrivateChat(w.ann)
	api, err := botapi.New(context.Background(), botapi.Options{Token: srv.Token(), Endpoint: srv.Endpoint(), Transport: srv.Client().Transport})
	require.NoError(t, err)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	w.clock = clocktest.NewClock(time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC))
	w.out = outbox.New(outbox.Options{Clock: w.clock, Logger: log})
	w.s = send.New(api, w.out, w.chats, log)
	return w
}

// settle waits until the outbox has made every call it holds: each
// answered, so in the server's call log (a message shows in the chat a
// moment before its call is logged).
func (w *world) settle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !w.out.Quiet() {
		require.False(t, time.Now().After(deadline), "the outbox did not settle")
		time.Sleep(100 * time.Microsecond) // polls a condition; no clock moves meanwhile
	}
}

func hello(text string) message.Message { return message.Message{Text: text} }

// TestCallsIntoAChatSettle: every call into a chat reports what its error
// says of the chat, and returns what the outbox acts on, with the Bot
// API's kind still found by errors.Is.
func TestCallsIntoAChatSettle(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// call makes the call in the world w, after set changed it.
		set  func(t *testing.T, w *world)
		call func(ctx context.Context, w *world) error
		// want says of the error returned.
		want             func(t *testing.T, err error)
		moved, refusedBy bool
	}{
		{
			name: "a message sent",
			call: func(ctx context.Context, w *world) error {
				id, err := w.s.Send(ctx, w.group, 0, hello("hi"), 0)
				if err == nil && id == 0 {
					return errors.New("no message id")
				}
				return err
			},
			want: func(t *testing.T, err error) { assert.NoError(t, err) },
		},
		{
			name: "an edit to what the message shows already",
			call: func(ctx context.Context, w *world) error {
				id, err := w.s.Send(ctx, w.group, 0, hello("hi"), 0)
				if err != nil {
					return err
				}
				return w.s.Edit(ctx, w.group, id, hello("hi"))
			},
			want: func(t *testing.T, err error) { assert.NoError(t, err) },
		},
		{
			name: "an edit of a deleted message",
			call: func(ctx context.Context, w *world) error {
				id, err := w.s.Send(ctx, w.group, 0, hello("hi"), 0)
				if err != nil {
					return err
				}
				if err := w.s.Delete(ctx, w.group, id); err != nil {
					return err
				}
				return w.s.Edit(ctx, w.group, id, hello("again"))
			},
			want: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, botapi.ErrGone)
				assert.False(t, send.Retried(err), "given up")
			},
		},
		{
			name: "a delete of a deleted message",
			call: func(ctx context.Context, w *world) error {
				id, err := w.s.Send(ctx, w.group, 0, hello("hi"), 0)
				if err != nil {
					return err
				}
				if err := w.s.Delete(ctx, w.group, id); err != nil {
					return err
				}
				return w.s.Delete(ctx, w.group, id)
			},
			want: func(t *testing.T, err error) { assert.ErrorIs(t, err, botapi.ErrGone) },
		},
		{
			name: "a 429",
			set: func(t *testing.T, w *world) {
				w.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultTooManyRequests, Methods: []string{"sendMessage"}, Count: 1, RetryAfter: 3})
			},
			call: func(ctx context.Context, w *world) error {
				_, err := w.s.Send(ctx, w.group, 0, hello("hi"), 0)
				return err
			},
			want: func(t *testing.T, err error) {
				var ra *outbox.RetryAfterError
				require.ErrorAs(t, err, &ra)
				assert.Equal(t, 3*time.Second, ra.After, "retry_after")
				assert.True(t, send.Retried(err))
			},
		},
		{
			name: "a 5xx",
			set: func(t *testing.T, w *world) {
				w.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultBadGateway, Methods: []string{"editMessageText"}, Count: 1})
			},
			call: func(ctx context.Context, w *world) error { return w.s.Edit(ctx, w.group, 1, hello("hi")) },
			want: func(t *testing.T, err error) {
				assert.True(t, outbox.IsTemporary(err), "%v", err)
				assert.True(t, send.Retried(err))
			},
		},
		{
			name: "a group that became a supergroup",
			set: func(t *testing.T, w *world) {
				_, err := w.srv.UpgradeToSupergroup(w.group, w.ann.ID)
				require.NoError(t, err)
			},
			call: func(ctx context.Context, w *world) error {
				_, err := w.s.Send(ctx, w.group, 0, hello("hi"), 0)
				return err
			},
			want: func(t *testing.T, err error) {
				var tg *botapi.Error
				require.ErrorAs(t, err, &tg, "the Bot API's error is kept")
				assert.NotZero(t, tg.MigrateTo)
				assert.False(t, send.Retried(err), "given up: the chat moves")
			},
			moved: true,
		},
		{
			name: "a read of a group that became a supergroup",
			set: func(t *testing.T, w *world) {
				_, err := w.srv.UpgradeToSupergroup(w.group, w.ann.ID)
				require.NoError(t, err)
			},
			call: func(ctx context.Context, w *world) error { _, err := w.s.Member(ctx, w.group, w.bob.ID); return err },
			want: func(t *testing.T, err error) {
				var tg *botapi.Error
				require.ErrorAs(t, err, &tg)
				assert.NotZero(t, tg.MigrateTo)
			},
			moved: true,
		},
		{
			name: "a user who blocked the bot",
			set:  func(t *testing.T, w *world) { require.NoError(t, w.srv.BlockBot(w.ann.ID, true)) },
			call: func(ctx context.Context, w *world) error {
				_, err := w.s.Send(ctx, w.ann.ID, 0, hello("hi"), 0)
				return err
			},
			want: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, botapi.ErrForbidden)
				assert.False(t, send.Retried(err))
			},
			refusedBy: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			if tc.set != nil {
				tc.set(t, w)
			}
			tc.want(t, tc.call(ctx, w))
			w.chats.mu.Lock()
			defer w.chats.mu.Unlock()
			if tc.moved {
				assert.Equal(t, map[int64]int64{w.group: w.srv.MigratedTo(w.group)}, w.chats.moved, "reported moved")
			} else {
				assert.Empty(t, w.chats.moved, "no move reported")
			}
			if tc.refusedBy {
				assert.Equal(t, []int64{w.ann.ID}, w.chats.refused, "reported refused")
			} else {
				assert.Empty(t, w.chats.refused, "no refusal reported")
			}
		})
	}
}

// TestReplyGoesThroughTheOutbox: Reply sends once, through the outbox, in
// reply to the message named, and tells sent the new message's id.
func TestReplyGoesThroughTheOutbox(t *testing.T) {
	w := newWorld(t)
	first, err := w.s.Send(context.Background(), w.group, 0, hello("the table"), 0)
	require.NoError(t, err)
	got := make(chan int, 1)
	w.s.Reply(w.group, 0, first, "", hello("a reply"), func(_ context.Context, id int) { got <- id })
	select {
	case id := <-got:
		m, ok := w.srv.Message(w.group, id)
		require.True(t, ok)
		assert.Equal(t, "a reply", m.Text)
		require.NotNil(t, m.ReplyToMessage)
		assert.Equal(t, first, m.ReplyToMessage.MessageID)
	case <-time.After(15 * time.Second):
		t.Fatal("the reply was not sent")
	}
}
