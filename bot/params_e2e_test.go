package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestSendsCurrentParameters checks the bot sends reply_parameters and
// link_preview_options, not disable_web_page_preview, reply_to_message_id
// and allow_sending_without_reply, which the current Bot API docs no
// longer list (the official server still reads them; our server names
// them in Call.Legacy): a table sent, edited, and an answer in reply.
func TestSendsCurrentParameters(t *testing.T) {
	h := newHarness(t)
	h.srv.ResetCalls()
	h.lobby("Bob") // a table sent, then edited
	asked := h.command("Bob", "balance")
	answer := h.botSays("Bob, your balance")
	require.NotNil(t, answer.ReplyToMessage, "the answer replies to the command")
	assert.Equal(t, asked.MessageID, answer.ReplyToMessage.MessageID)

	// A call is logged just after its effect shows: count once the
	// answer's sendMessage is.
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return h.srv.Calls().OK("sendMessage") >= 2 }))
	used := map[string]int{}
	for _, c := range h.srv.RecentCalls() {
		if c.Method == "sendMessage" || c.Method == "editMessageText" {
			used[c.Method]++
			assert.Empty(t, c.Legacy, "%s with legacy parameters", c.Method)
		}
	}
	assert.GreaterOrEqual(t, used["sendMessage"], 2, "the table and the answer were sent")
	assert.GreaterOrEqual(t, used["editMessageText"], 1, "the table was edited")
}
