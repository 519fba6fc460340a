package send_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// told sends an answer to Ann with Tell and returns the message it went
// as, once sent.
func (w *world) told(t *testing.T, p send.Personal, text string) send.Sent {
	t.Helper()
	got := make(chan send.Sent, 1)
	w.s.Tell(p, "", message.Message{Text: text}, func(_ context.Context, at send.Sent) { got <- at })
	return w.sentOf(t, got)
}

// sentOf waits for the message an answer went as.
func (w *world) sentOf(t *testing.T, got <-chan send.Sent) send.Sent {
	t.Helper()
	select {
	case at := <-got:
		return at
	case <-time.After(15 * time.Second):
		t.Fatal("the answer was not sent")
		return send.Sent{}
	}
}

// adminClub adds a supergroup of Ann and Bob where the bot is an admin.
func (w *world) adminClub(t *testing.T) int64 {
	t.Helper()
	c, err := w.srv.AddChat(telegramtest.ChatSpec{Type: telegramtest.ChatSupergroup, Title: "Club",
		Members: []int64{w.ann.ID, w.bob.ID}, BotStatus: telegramtest.StatusAdministrator})
	require.NoError(t, err)
	return c.ID
}

// ephemeralCommand has Ann send /stats ephemerally in the group, and
// returns its ephemeral_message_id.
func (w *world) ephemeralCommand(t *testing.T) int {
	t.Helper()
	require.NoError(t, w.s.SetCommands(context.Background(), []botapi.MenuCommand{{Command: "stats", Description: "Stats", Ephemeral: true}}, ""))
	m, err := w.srv.SendEphemeralCommand(w.group, w.ann.ID, "stats")
	require.NoError(t, err)
	require.NotZero(t, m.EphemeralMessageID)
	return m.EphemeralMessageID
}

// TestTellGoesToTheAskerAlone: an answer to an ephemeral command, from a
// bot that is no admin, and one to a command the group sees, from an
// admin bot, go as ephemeral messages to the asker alone; they are edited
// and deleted as such.
func TestTellGoesToTheAskerAlone(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	cmd := w.ephemeralCommand(t)
	at := w.told(t, send.Personal{Chat: w.group, To: w.ann.ID, Ephemeral: cmd}, "your stats")
	require.True(t, at.Ephemeral())
	assert.Equal(t, w.ann.ID, at.Receiver)
	m, ok := w.srv.EphemeralMessage(w.group, at.ID)
	require.True(t, ok)
	assert.Equal(t, "your stats", m.Text)
	assert.Equal(t, w.ann.ID, m.VisibleTo)
	assert.Equal(t, cmd, m.ReplyToEphemeralMessageID, "in reply to the command")
	for _, seen := range w.srv.MessagesSeenBy(w.group, w.bob.ID) {
		assert.NotEqual(t, "your stats", seen.Text, "Bob does not see it")
	}

	club := w.adminClub(t)
	typed, err := w.srv.SendCommand(club, w.ann.ID, "stats")
	require.NoError(t, err)
	at = w.told(t, send.Personal{Chat: club, To: w.ann.ID, ReplyTo: typed.MessageID}, "yours")
	require.True(t, at.Ephemeral(), "the admin bot sends it as one")
	require.NoError(t, w.s.EditSent(ctx, club, at, message.Message{Text: "yours, edited"}))
	m, _ = w.srv.EphemeralMessage(club, at.ID)
	assert.Equal(t, "yours, edited", m.Text)
	require.NoError(t, w.s.DeleteSent(ctx, club, at))
	assert.ErrorIs(t, w.s.EditSent(ctx, club, at, message.Message{Text: "again"}), botapi.ErrGone)
	for _, chat := range []int64{w.group, club} {
		for _, m := range w.srv.Messages(chat) {
			assert.False(t, m.FromBot, "nothing in the group's timeline: %q", m.Text)
		}
	}
}

// TestTellFallsBackToTheGroup: where the bot may not send an ephemeral
// message, the answer goes to the group in reply to the command, as every
// answer did before: a bot that is no admin asks Telegram once
// (getChatMember), and sends nothing Telegram refuses; a bot that thought
// itself an admin and is refused answers in the group at once and tries
// no more there, for a while, the way it was refused; and an answer whose
// window passes while it waits goes to the group.
func TestTellFallsBackToTheGroup(t *testing.T) {
	w := newWorld(t)
	for i := range 2 {
		typed, err := w.srv.SendCommand(w.group, w.ann.ID, "stats")
		require.NoError(t, err)
		at := w.told(t, send.Personal{Chat: w.group, To: w.ann.ID, ReplyTo: typed.MessageID}, "in the group")
		require.False(t, at.Ephemeral(), "answer %d", i)
		m, ok := w.srv.Message(w.group, at.ID)
		require.True(t, ok)
		require.NotNil(t, m.ReplyToMessage)
		assert.Equal(t, typed.MessageID, m.ReplyToMessage.MessageID)
	}
	calls := w.srv.Calls()
	assert.Equal(t, 1, calls.Count("getChatMember"), "asked once whether it is an admin")
	assert.Zero(t, calls.Failed("sendMessage"), "nothing refused")

	// Told it is an admin (a my_chat_member), which Telegram does not
	// agree with: refused once, then no more.
	w.s.BotStatus(w.group, true)
	for i := range 2 {
		at := w.told(t, send.Personal{Chat: w.group, To: w.ann.ID}, "refused, then not tried")
		assert.False(t, at.Ephemeral(), "answer %d", i)
	}
	assert.Equal(t, 1, w.srv.Calls().Failed("sendMessage"), "one refusal")
	// The other way, within an ephemeral command's window, is still tried.
	at := w.told(t, send.Personal{Chat: w.group, To: w.ann.ID, Ephemeral: w.ephemeralCommand(t)}, "ephemeral")
	assert.True(t, at.Ephemeral())

	// Telegram asks the bot to wait past the window: the answer goes to
	// the group.
	fault := w.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultTooManyRequests, Methods: []string{"sendMessage"}, Count: 1, RetryAfter: 20})
	got := make(chan send.Sent, 1)
	w.s.Tell(send.Personal{Chat: w.group, To: w.ann.ID, Ephemeral: w.ephemeralCommand(t)}, "", message.Message{Text: "late"},
		func(_ context.Context, at send.Sent) { got <- at })
	deadline := time.Now().Add(15 * time.Second)
	for fault.Fired() == 0 || w.clock.Armed() == 0 {
		require.False(t, time.Now().After(deadline), "the 429 was not waited for")
		time.Sleep(100 * time.Microsecond) // polls a condition; the clock does not move meanwhile
	}
	w.clock.Advance(20 * time.Second)
	at = w.sentOf(t, got)
	assert.False(t, at.Ephemeral(), "too late for an ephemeral message")
	m, ok := w.srv.Message(w.group, at.ID)
	require.True(t, ok)
	assert.Equal(t, "late", m.Text)
}

// TestTellInPrivateIsRefused: a private chat has no ephemeral messages:
// Telegram refuses one (BOT_NOT_ADMIN), and the answer goes as a message.
func TestTellInPrivateIsRefused(t *testing.T) {
	w := newWorld(t)
	private := w.srv.PrivateChat(w.ann).ID
	w.s.BotStatus(private, true) // as if: only the refusal stops it
	at := w.told(t, send.Personal{Chat: private, To: w.ann.ID}, "hello")
	assert.False(t, at.Ephemeral())
	m, ok := w.srv.Message(private, at.ID)
	require.True(t, ok)
	assert.Equal(t, "hello", m.Text)
}
