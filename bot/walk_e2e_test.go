package bot_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// allowAll asks the server for every kind of update, as a getUpdates with
// that allowed_updates (an older deployment's, or a curl) would, and
// confirms nothing.
func (h *harness) allowAll() {
	h.t.Helper()
	kinds := `["message","edited_message","channel_post","edited_channel_post","business_connection",` +
		`"business_message","edited_business_message","deleted_business_messages","message_reaction",` +
		`"message_reaction_count","my_chat_member","chat_member","chat_join_request","callback_query"]`
	u := fmt.Sprintf(h.srv.Endpoint(), h.srv.Token(), "getUpdates") + "?timeout=0&limit=1&allowed_updates=" + url.QueryEscape(kinds)
	resp, err := h.srv.Client().Get(u)
	require.NoError(h.t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	require.Equal(h.t, http.StatusOK, resp.StatusCode, string(body))
}

// TestUpdateWalk walks the updates and messages a bot can get in a group
// besides those it plays on. The bot asks only for messages, presses and
// its own membership, but an allowed_updates change does not reach the
// updates created before it (Bot API, getUpdates), so each kind may still
// come. Each is either handled or ignored on purpose: none may act (an
// edited or forwarded /cancel, one in a photo's caption, one for another
// bot or from a bot cancel nothing; members' joins and leaves change no
// seat), none is taken for a broken update, and the chat answers after.
func TestUpdateWalk(t *testing.T) {
	logs := &logBuffer{}
	h := newHarness(t, func(o *harnessOptions) { o.logs = logs })
	h.lobby("Bob")
	table := h.tableMessage(contains("Bob"))
	before := h.view()
	welcomes := h.welcomes(h.group.ID)
	last, ok := h.srv.LastMessage(h.group.ID)
	require.True(t, ok)
	h.stop()
	h.stop = nil
	h.allowAll()

	alice, bob, eve := rawUser(h.user("Alice")), rawUser(h.user("Bob")), rawUser(h.user("Eve"))
	group := h.rawChat()
	channel := obj{"id": -1001234567, "type": "channel", "title": "News"}
	private := obj{"id": h.user("Alice").ID, "type": "private", "first_name": "Alice"}
	cancel := func(fields obj) obj { return rawCommand("/cancel", fields) }
	service := func(fields obj) obj {
		m := obj{"message_id": 900100, "date": 1, "from": alice, "chat": group}
		for k, v := range fields {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name, kind string
		body       obj
	}{
		{"an edited /cancel", "edited_message", cancel(obj{"from": alice, "chat": group, "edit_date": 2})},
		{"a channel post", "channel_post", rawCommand("/newgame", obj{"chat": channel, "sender_chat": channel})},
		{"an edited channel post", "edited_channel_post", rawCommand("/newgame", obj{"chat": channel, "sender_chat": channel, "edit_date": 2})},
		{"a member leaving (chat_member)", "chat_member", obj{"chat": group, "from": bob, "date": 1,
			"old_chat_member": obj{"status": "member", "user": bob}, "new_chat_member": obj{"status": "left", "user": bob}}},
		{"a join request", "chat_join_request", obj{"chat": group, "from": eve, "user_chat_id": h.user("Eve").ID, "date": 1}},
		{"a reaction to the table", "message_reaction", obj{"chat": group, "message_id": table.MessageID, "user": alice, "date": 1,
			"old_reaction": []obj{}, "new_reaction": []obj{{"type": "emoji", "emoji": "👍"}}}},
		{"reaction counts", "message_reaction_count", obj{"chat": group, "message_id": table.MessageID, "date": 1,
			"reactions": []obj{{"type": obj{"type": "emoji", "emoji": "👍"}, "total_count": 3}}}},
		{"a business connection", "business_connection", obj{"id": "bc1", "user": alice, "user_chat_id": h.user("Alice").ID, "date": 1, "is_enabled": true}},
		{"a business message", "business_message", rawCommand("/newgame", obj{"from": alice, "chat": private, "business_connection_id": "bc1"})},
		{"an edited business message", "edited_business_message", rawCommand("/newgame", obj{"from": alice, "chat": private, "business_connection_id": "bc1", "edit_date": 2})},
		{"deleted business messages", "deleted_business_messages", obj{"business_connection_id": "bc1", "chat": private, "message_ids": []int{1}}},
		{"a /cancel in a photo's caption", "message", service(obj{"photo": []obj{{"file_id": "p", "file_unique_id": "p", "width": 1, "height": 1}},
			"caption": "/cancel", "caption_entities": []obj{{"type": "bot_command", "offset": 0, "length": 7}}})},
		{"a /cancel for another bot", "message", rawCommand("/cancel@other_bot", obj{"from": alice, "chat": group})},
		{"a /cancel from a bot", "message", cancel(obj{"from": obj{"id": 5550001, "is_bot": true, "first_name": "Helper", "username": "helper_bot"}, "chat": group})},
		{"a forwarded /cancel", "message", cancel(obj{"from": alice, "chat": group, "forward_date": 1, "forward_from": bob,
			"forward_origin": obj{"type": "user", "date": 1, "sender_user": bob}})},
		{"a story shared in the group", "message", service(obj{"story": obj{"chat": private, "id": 5}})},
		{"a pinned table", "message", service(obj{"pinned_message": obj{"message_id": table.MessageID, "date": 1, "chat": group, "text": table.Text}})},
		{"a new title", "message", service(obj{"new_chat_title": "Poker night"})},
		{"a seated player leaving", "message", service(obj{"from": bob, "left_chat_member": bob})},
		{"a member joining", "message", service(obj{"new_chat_members": []obj{eve}})},
	}
	ids := map[string]int{}
	for _, tt := range tests {
		ids[tt.name] = h.pushRaw(tt.kind, tt.body)
	}
	h.start()
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool { return v.PendingUpdates() == 0 }),
		"every update is confirmed")
	// The chat answers, with the bot named in the command as Telegram's
	// clients may write it: usernames are case-insensitive.
	h.command("Alice", "balance@TELEGRAMTEST_BOT")
	answer := h.botSays("Alice, your balance")

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Empty(t, logs.lines("update skipped", "update_id="+itoa(ids[tt.name])), "ignored on purpose, not taken for broken")
		})
	}
	assert.Empty(t, logs.lines("handling failed"), "no panic, even a recovered one")
	for _, m := range h.srv.Messages(h.group.ID) {
		if m.FromBot && m.MessageID > last.MessageID && m.MessageID < answer.MessageID {
			assert.Fail(t, "the bot answered", "message %d: %q", m.MessageID, m.Text)
		}
	}
	after := h.view()
	assert.Equal(t, before.Table.Version(), after.Table.Version(), "the table is as it was")
	assert.ElementsMatch(t, []string{"Alice", "Bob"}, h.seated(), "Bob keeps his seat")
	assert.Equal(t, welcomes, h.welcomes(h.group.ID), "a member joining gets no welcome")
	h.audit()
}
