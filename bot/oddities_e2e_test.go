package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// inForum makes the harness's chat a forum supergroup.
func inForum(o *harnessOptions) {
	o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
		return s.NewForum("Casino", users...)
	}
}

// post sends text as the user into a forum topic (0: General), in reply to
// a message (0: none), and returns it; botSays looks at what follows it.
func (h *harness) post(name string, topic, replyTo int, text string) telegramtest.ChatMessage {
	h.t.Helper()
	m, err := h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user(name).ID, ThreadID: topic, ReplyTo: replyTo, Text: text})
	require.NoError(h.t, err)
	h.said = m.MessageID
	return m
}

// TestTopicImplicitReplyIsNoReply: in a forum topic Telegram gives every
// message the topic's first message as reply_to_message; /stats, /grant
// and /kick take it for no reply, and a reply the sender made still names
// the person replied to.
func TestTopicImplicitReplyIsNoReply(t *testing.T) {
	h := newHarness(t, inForum, func(o *harnessOptions) { o.owners = []string{"Bob"} })
	topic, err := h.srv.CreateTopic(h.group.ID, h.user("Alice").ID, "Alice's table")
	require.NoError(t, err)

	h.post("Bob", topic, 0, "/stats")
	h.botSays("Bob hasn't played here yet.")
	h.post("Bob", topic, 0, "/grant 500")
	h.botSays("Reply to a user's message with /grant AMOUNT.")
	assert.EqualValues(t, 1000, h.balance("Alice"), "the topic's creator got nothing")
	h.post("Alice", topic, 0, "/kick")
	h.botSays("Reply to a player's message with /kick")

	carol := h.post("Carol", topic, 0, "hello")
	h.post("Bob", topic, carol.MessageID, "/stats")
	h.botSays("Carol hasn't played here yet.")
	h.post("Bob", topic, carol.MessageID, "/grant 500")
	h.botSays("Carol got 500 chips.")
	assert.EqualValues(t, 1500, h.balance("Carol"))
	h.audit()
}
