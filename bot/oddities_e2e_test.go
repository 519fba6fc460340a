package bot_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
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
	h.botSays("Reply to a user's message with /grant AMOUNT;")
	assert.EqualValues(t, 1000, h.balance("Alice"), "the topic's creator got nothing")
	h.post("Alice", topic, 0, "/kick")
	h.botSays("Reply to a player's message with /kick")

	carol := h.post("Carol", topic, 0, "hello")
	h.post("Bob", topic, carol.MessageID, "/stats")
	h.botSays("Carol hasn't played here yet.")
	h.post("Bob", topic, carol.MessageID, "/grant 500")
	h.botSays("Carol got 500\u00a0chips.")
	assert.EqualValues(t, 1500, h.balance("Carol"))
	h.audit()
}

// TestPressOnInaccessibleMessage: a press on a table message Telegram no
// longer gives the bot (deleted, or too old) arrives as an
// InaccessibleMessage, which names no topic. It moves no table (before,
// it was applied to the General table: Bob sat down there), is answered,
// and the table whose message it was is shown again.
func TestPressOnInaccessibleMessage(t *testing.T) {
	serverClock := telegramtest.NewManualClock(time.Now())
	tests := []struct {
		name string
		// spoil makes the topic's table message inaccessible.
		spoil func(h *harness, msg telegramtest.ChatMessage)
		// moved says whether the table is shown in another message after.
		moved bool
	}{
		{"deleted", func(h *harness, msg telegramtest.ChatMessage) {
			require.NoError(h.t, h.srv.DeleteMessage(h.group.ID, h.user("Alice").ID, msg.MessageID))
		}, true},
		{"too old", func(*harness, telegramtest.ChatMessage) { serverClock.Advance(49 * time.Hour) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, inForum, func(o *harnessOptions) {
				o.srvOpts = append(o.srvOpts, telegramtest.WithClock(serverClock), telegramtest.WithInaccessibleAfter(48*time.Hour))
			})
			topic, err := h.srv.CreateTopic(h.group.ID, h.user("Alice").ID, "Alice's table")
			require.NoError(t, err)
			inTopic := storage.TableKey{Chat: h.group.ID, Thread: int64(topic)}
			h.post("Carol", 0, 0, "/newgame")
			h.tableMessage(contains("Carol"))
			h.post("Alice", topic, 0, "/newgame")
			msg := h.tableAt(inTopic, contains("Alice"))
			var join string
			for _, b := range msg.Buttons() {
				if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == callback.Join {
					join = b.CallbackData
				}
			}
			require.NotEmpty(t, join)
			general, topical := h.view(), h.viewOf(inTopic)
			require.Equal(t, general.Table.Version(), topical.Table.Version(), "a press on either would pass the version check")

			tt.spoil(h, msg)
			cb, err := h.srv.Press(telegramtest.Press{ChatID: h.group.ID, From: h.user("Bob").ID, MessageID: msg.MessageID, Data: join})
			require.NoError(t, err)
			require.True(t, cb.Inaccessible())
			a, err := cb.Wait(h.ctx())
			require.NoError(t, err)
			assert.Equal(t, "This table has moved on.", a.Text)

			shown := h.tableAt(inTopic, func(m telegramtest.ChatMessage) bool { return tt.moved != (m.MessageID == msg.MessageID) })
			assert.Equal(t, topic, shown.MessageThreadID, "shown again in its topic")
			bob := game.UserID(h.user("Bob").ID)
			for _, v := range []storage.View{h.view(), h.viewOf(inTopic)} {
				_, seated := v.Table.SeatOf(bob)
				assert.False(t, seated, "Bob sat down at the table of thread %d", v.Key.Thread)
			}
			after := h.viewOf(inTopic)
			assert.Equal(t, general.Table.Version(), h.version(), "the General table did not move")
			assert.Equal(t, topical.Table.Version(), after.Table.Version(), "the topic's table did not move")
			h.audit()
		})
	}
}

// viewOf returns the stored table of key.
func (h *harness) viewOf(key storage.TableKey) storage.View {
	h.t.Helper()
	v, err := h.store.View(h.ctx(), key)
	require.NoError(h.t, err)
	return v
}

// welcomes counts the bot's welcomes in a chat.
func (h *harness) welcomes(chat int64) int {
	n := 0
	for _, m := range h.srv.Messages(chat) {
		if m.FromBot && strings.Contains(m.Text, "I host Twenty One here") {
			n++
		}
	}
	return n
}

// TestWelcomeOnceThroughAnUpgrade: the bot says hello when it is added to a
// group; when the group is upgraded to a supergroup, Telegram tells it that
// it joined the supergroup too (my_chat_member from left), and it does not
// say hello again.
func TestWelcomeOnceThroughAnUpgrade(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) {
		o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
			ids := make([]int64, len(users))
			for i, u := range users {
				ids[i] = u.ID
			}
			c, err := s.AddChat(telegramtest.ChatSpec{Title: "Game night", Members: ids, BotStatus: telegramtest.StatusLeft})
			if err != nil {
				panic(err)
			}
			return c
		}
	})
	alice := h.user("Alice").ID
	require.NoError(t, h.srv.AddBot(h.group.ID, alice))
	h.botSays("I host Twenty One here", "Everyone starts with 1\u202f000\u00a0chips.")

	old := h.group.ID
	super, err := h.srv.UpgradeToSupergroup(old, alice)
	require.NoError(t, err)
	h.group = super
	h.command("Bob", "balance")
	h.botSays("Bob, your balance") // handled after every update of the upgrade
	assert.Equal(t, 1, h.welcomes(old), "one welcome when the bot was added")
	assert.Zero(t, h.welcomes(super.ID), "no welcome for the upgrade")

	// Removed from the supergroup and added back: hello again.
	require.NoError(t, h.srv.RemoveBot(super.ID, alice))
	require.NoError(t, h.srv.AddBot(super.ID, alice))
	h.botSays("I host Twenty One here")
	assert.Equal(t, 1, h.welcomes(super.ID))
}

// TestWelcomeInACreatedGroup: a group created with the bot among its first
// members has no new_chat_members message, only group_chat_created (Bot
// API, Message): the bot says hello on that, in the creator's language.
func TestWelcomeInACreatedGroup(t *testing.T) {
	h := newHarness(t)
	alice := h.srv.AddUser(telegramtest.User{FirstName: "Алиса", LanguageCode: "ru"})
	fresh := h.srv.NewGroup("Новая", alice)
	raw, err := json.Marshal(map[string]any{"message": map[string]any{
		"message_id": 1, "date": time.Now().Unix(), "group_chat_created": true,
		"from": alice, "chat": fresh,
	}})
	require.NoError(t, err)
	_, err = h.srv.PushRawUpdate(telegramtest.UpdateMessage, raw)
	require.NoError(t, err)
	_, err = h.srv.WaitForBotMessage(h.ctx(), fresh.ID, telegramtest.TextContains("Я веду здесь игру в Очко"))
	require.NoError(t, err)
}
