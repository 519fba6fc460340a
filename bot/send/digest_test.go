package send_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// holdGroup makes the group's next sendMessage wait until the returned
// function is called, and returns once it waits: the answers told
// meanwhile wait for the group's turn together.
func (w *world) holdGroup(t *testing.T, first func()) (release func()) {
	t.Helper()
	hold := make(chan struct{})
	held := w.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Methods: []string{"sendMessage"}, Count: 1, Hold: hold})
	first()
	deadline := time.Now().Add(15 * time.Second)
	for held.Fired() == 0 {
		require.False(t, time.Now().After(deadline), "the first answer's call was not held")
		time.Sleep(100 * time.Microsecond) // polls a condition; the clock does not move meanwhile
	}
	return func() { close(hold) }
}

// ask has the user send /cmd in the group as a message the group sees,
// and tells them text (with kb, if any) as its answer; it returns the
// command.
func (w *world) ask(t *testing.T, u telegramtest.User, cmd, text string, kb ...[]message.Button) telegramtest.ChatMessage {
	t.Helper()
	m, err := w.srv.SendCommand(w.group, u.ID, cmd)
	require.NoError(t, err)
	w.s.Tell(send.Personal{Chat: w.group, To: u.ID, ReplyTo: m.MessageID, Name: u.FirstName, Asked: "/" + cmd}, "",
		message.Message{Text: text, Keyboard: kb}, nil)
	return m
}

// botSaid waits until the bot said n messages in the group, and returns
// them.
func (w *world) botSaid(t *testing.T, n int) []telegramtest.ChatMessage {
	t.Helper()
	var said []telegramtest.ChatMessage
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	require.NoError(t, w.srv.WaitFor(ctx, func(v *telegramtest.View) bool {
		said = said[:0]
		for _, m := range v.Messages(w.group) {
			if m.FromBot {
				said = append(said, m)
			}
		}
		return len(said) >= n
	}), "%d messages of the bot", n)
	return said
}

// TestDigestGathersTheAnswersWaiting: where the bot may send no ephemeral
// message, the personal answers that wait for the group's turn together
// go as one message, in the order asked, each headed by its asker and
// command; the same answer to two is one part; an answer with buttons
// goes alone, as a reply; one answer waiting alone goes as today's reply.
func TestDigestGathersTheAnswersWaiting(t *testing.T) {
	w := newWorld(t)
	cat, err := w.srv.AddMember(w.group, telegramtest.User{FirstName: "Cat"}, 0)
	require.NoError(t, err)
	w.s.BotStatus(w.group, false)

	var first telegramtest.ChatMessage
	release := w.holdGroup(t, func() { first = w.ask(t, w.ann, "balance", "Ann: 10 chips") })
	w.ask(t, w.bob, "stats", "Bob: no games")
	w.ask(t, w.ann, "help", "The <b>help</b>")
	w.ask(t, w.bob, "help", "The <b>help</b>")
	panel := w.ask(t, cat, "settings", "⚙️ Settings", []message.Button{{Text: "Stake", Data: "s"}})
	w.ask(t, cat, "history", "Cat: nothing yet")
	release()

	said := w.botSaid(t, 3)
	require.Len(t, said, 3)
	alone := said[0]
	assert.Equal(t, "Ann: 10 chips", alone.Text)
	require.NotNil(t, alone.ReplyToMessage)
	assert.Equal(t, first.MessageID, alone.ReplyToMessage.MessageID, "today's reply")

	digest := said[1]
	assert.Equal(t, "Bob, /stats:\nBob: no games\n\nAnn, Bob, /help:\nThe help\n\nCat, /history:\nCat: nothing yet", digest.Text)
	assert.Nil(t, digest.ReplyToMessage)
	var mentioned []int64
	for _, e := range digest.Entities {
		if e.Type == "text_mention" && e.User != nil {
			mentioned = append(mentioned, e.User.ID)
		}
	}
	assert.Equal(t, []int64{w.bob.ID, w.ann.ID, w.bob.ID, cat.ID}, mentioned, "each asker mentioned, so told")

	buttons := said[2]
	assert.Equal(t, "⚙️ Settings", buttons.Text)
	require.NotNil(t, buttons.ReplyToMessage)
	assert.Equal(t, panel.MessageID, buttons.ReplyToMessage.MessageID)
	assert.NotEmpty(t, buttons.Buttons(), "alone, with its buttons")
	w.settle(t)
	assert.Equal(t, 3, w.srv.Calls().Count("sendMessage"), "three of the group's writes for six answers")
}

// TestDigestUpToOneMessage: a digest holds as many answers as fit in one
// message (render.MaxText); the next start another, which goes in the
// group's next turn, in order.
func TestDigestUpToOneMessage(t *testing.T) {
	w := newWorld(t)
	w.s.BotStatus(w.group, false)
	release := w.holdGroup(t, func() { w.ask(t, w.ann, "rules", "short") })
	var want []string
	for i, u := range []telegramtest.User{w.ann, w.bob, w.ann, w.bob, w.ann} {
		text := string(rune('A'+i)) + strings.Repeat("·", 1500)
		w.ask(t, u, "history", text)
		want = append(want, u.FirstName+", /history:\n"+text)
	}
	release()

	said := w.botSaid(t, 4)
	require.Len(t, said, 4, "the first alone, then 2, 2 and 1 answers")
	assert.Equal(t, "short", said[0].Text)
	assert.Equal(t, strings.Join(want[0:2], "\n\n"), said[1].Text)
	assert.Equal(t, strings.Join(want[2:4], "\n\n"), said[2].Text)
	assert.Equal(t, strings.TrimPrefix(want[4], "Ann, /history:\n"), said[3].Text, "the last, alone, as a reply")
	require.NotNil(t, said[3].ReplyToMessage)
	for _, m := range said {
		assert.LessOrEqual(t, len([]rune(m.Text)), render.MaxText)
	}
}

// TestDigestInEachLanguage: a digest says nothing of its own: the answers,
// rendered in the chat's language, read as they were, each headed by the
// asker's name and what they asked (a command, or a button's label in
// that language).
func TestDigestInEachLanguage(t *testing.T) {
	for _, l := range i18n.Langs() {
		t.Run(string(l), func(t *testing.T) {
			w := newWorld(t)
			w.s.BotStatus(w.group, false)
			release := w.holdGroup(t, func() { w.ask(t, w.ann, "rules", "first") })
			balance := render.Balance("Bob", 1000, l).Text
			w.ask(t, w.bob, "balance", balance)
			button := i18n.T(l, i18n.BtnVerify)
			w.s.Tell(send.Personal{Chat: w.group, To: w.ann.ID, Name: "Ann", Asked: button}, "", render.Plain(i18n.T(l, i18n.PopVerifyWait)), nil)
			release()

			said := w.botSaid(t, 2)
			require.Len(t, said, 2)
			want := "Bob, /balance:\n" + strings.NewReplacer("<b>", "", "</b>", "").Replace(balance) + "\n\nAnn, " + button + ":\n" + i18n.T(l, i18n.PopVerifyWait)
			assert.Equal(t, want, said[1].Text)
		})
	}
}

// TestLateAnswerGoesToTheGroup: an ephemeral answer whose window passes
// while it waits (Telegram asked to wait 20 s) goes to the group in the
// group's turn, as a reply to the command alone there.
func TestLateAnswerGoesToTheGroup(t *testing.T) {
	w := newWorld(t)
	cmd := w.ephemeralCommand(t)
	typed, err := w.srv.SendCommand(w.group, w.ann.ID, "stats")
	require.NoError(t, err)
	fault := w.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultTooManyRequests, Methods: []string{"sendMessage"}, Count: 1, RetryAfter: 20})
	w.s.Tell(send.Personal{Chat: w.group, To: w.ann.ID, Ephemeral: cmd, ReplyTo: typed.MessageID, Name: "Ann", Asked: "/stats"}, "",
		message.Message{Text: "late stats"}, nil)
	deadline := time.Now().Add(15 * time.Second)
	for fault.Fired() == 0 || w.clock.Armed() == 0 {
		require.False(t, time.Now().After(deadline), "the 429 was not waited for")
		time.Sleep(100 * time.Microsecond) // polls a condition; the clock does not move meanwhile
	}
	w.clock.Advance(20 * time.Second)
	said := w.botSaid(t, 1)
	assert.Equal(t, "late stats", said[0].Text)
	require.NotNil(t, said[0].ReplyToMessage)
	assert.Equal(t, typed.MessageID, said[0].ReplyToMessage.MessageID)
	assert.Empty(t, w.srv.EphemeralMessages(w.group)[1:], "no ephemeral answer: too late")
}
