package bot

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestCloseWaitsForTheChats: Close returns only once what was queued on a
// chat's goroutine has run to its end, before it closes the connection to
// the Bot API: an update cut short there would lose its effects.
func TestCloseWaitsForTheChats(t *testing.T) {
	srv := telegramtest.StartTest(t)
	group := srv.NewGroup("Game night", srv.AddUser(telegramtest.User{FirstName: "Alice"}))
	b := newInternalBot(t, srv)

	closing := make(chan struct{})
	b.stopRestore = func() { close(closing) } // the first thing Close does
	sent := errors.New("the handler did not run")
	b.onChat(group.ID, "message", func(ctx context.Context) {
		<-closing
		_, sent = b.api.Send(ctx, group.ID, 0, message.Message{Text: "still here"}, 0)
	})
	require.NoError(t, b.Close(context.Background()))
	assert.NoError(t, sent, "the handler ran to its end while Close waited")
}

// newInternalBot returns a bot on srv and a new store that the test's end
// closes; the test closes the bot.
func newInternalBot(t *testing.T, srv *telegramtest.Server) *Bot {
	t.Helper()
	st, err := storage.Open(filepath.Join(t.TempDir(), "twentyone.db"), storage.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, st.Close()) })
	b, err := New(context.Background(), Config{Token: srv.Token(), Endpoint: srv.Endpoint(), Transport: srv.Client().Transport,
		Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	return b
}
