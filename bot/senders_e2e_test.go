package bot_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// silent marks a case the bot answers with nothing.
const silent = ""

// quietSince asserts the bot said nothing in the group after message id
// since, once it answered a later /balance: updates of a chat are handled
// in order, and their answers sent in order.
func (h *harness) quietSince(since int) {
	h.t.Helper()
	h.command("Carol", "balance")
	answer := h.botSays("Carol, your balance")
	for _, m := range h.srv.Messages(h.group.ID) {
		if m.FromBot && m.MessageID > since && m.MessageID < answer.MessageID {
			assert.Fail(h.t, "the bot answered", "message %d: %q", m.MessageID, m.Text)
		}
	}
}

// TestChatSenders: in a supergroup with a linked channel, members post on
// behalf of the channel (from Channel_Bot, sender_chat the channel) and
// the channel's posts come in as automatic forwards (from 777000,
// is_automatic_forward). No chat plays or holds chips: a chat sender gets
// "post as yourself"; an automatic forward is the channel's post, not a
// command to the bot, and gets nothing; a reply naming a chat's message
// names no player. Anonymous admins keep their admin powers.
func TestChatSenders(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) {
		o.owners = []string{"Dave"}
		o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
			return s.NewSupergroup("Game night", users...)
		}
	})
	news, err := h.srv.NewChannel("News", h.group.ID, h.user("Alice"), h.user("Dave"))
	require.NoError(t, err)
	// A lobby open for a day: the clock moves on a minute a case, past
	// the reply quota, and must not close the table.
	h.command("Alice", "settings", "lobby", "86400")
	h.botSays("Saved")
	h.lobby("Bob")
	bobSaid := h.command("Bob", "balance")
	h.botSays("Bob, your balance")
	post := func(p telegramtest.Post) int {
		t.Helper()
		p.ChatID = h.group.ID
		m, err := h.srv.Post(p)
		require.NoError(t, err)
		h.said = m.MessageID
		return m.MessageID
	}
	asChannel := post(telegramtest.Post{From: h.user("Alice").ID, SenderChat: news.ID, Text: "Tonight at eight"})
	_, forward, err := h.srv.PostInChannel(news.ID, h.user("Alice").ID, "Big game tonight")
	require.NoError(t, err)
	const (
		yourself = "post as yourself"
		noPlayer = "names no player"
	)

	tests := []struct {
		name string
		post telegramtest.Post
		// channelPost posts in the channel instead: its automatic forward
		// reaches the group.
		channelPost string
		says        string
	}{
		{"newgame on behalf of the channel", telegramtest.Post{From: h.user("Alice").ID, SenderChat: news.ID, Text: "/newgame"}, "", yourself},
		{"balance on behalf of the channel", telegramtest.Post{From: h.user("Alice").ID, SenderChat: news.ID, Text: "/balance"}, "", yourself},
		{"cancel on behalf of the channel", telegramtest.Post{From: h.user("Alice").ID, SenderChat: news.ID, Text: "/cancel"}, "", yourself},
		{"settings on behalf of the channel", telegramtest.Post{From: h.user("Alice").ID, SenderChat: news.ID, Text: "/settings stake 25"}, "", yourself},
		{"kick on behalf of the channel", telegramtest.Post{From: h.user("Alice").ID, SenderChat: news.ID, Text: "/kick", ReplyTo: bobSaid.MessageID}, "", yourself},
		{"grant on behalf of the channel", telegramtest.Post{From: h.user("Dave").ID, SenderChat: news.ID, Text: "/grant 100", ReplyTo: bobSaid.MessageID}, "", yourself},
		{"a channel post starting with newgame", telegramtest.Post{}, "/newgame", silent},
		{"a channel post starting with cancel", telegramtest.Post{}, "/cancel", silent},
		{"stats in reply to the channel's message", telegramtest.Post{From: h.user("Bob").ID, Text: "/stats", ReplyTo: asChannel}, "", noPlayer},
		{"stats in reply to an automatic forward", telegramtest.Post{From: h.user("Bob").ID, Text: "/stats", ReplyTo: forward.MessageID}, "", noPlayer},
		{"kick in reply to the channel's message", telegramtest.Post{From: h.user("Alice").ID, Text: "/kick", ReplyTo: asChannel}, "", noPlayer},
		{"grant in reply to an automatic forward", telegramtest.Post{From: h.user("Dave").ID, Text: "/grant 100", ReplyTo: forward.MessageID}, "", noPlayer},
		{"an anonymous admin's audit", telegramtest.Post{From: h.user("Alice").ID, Anonymous: true, Text: "/audit"}, "", "The chips add up"},
	}
	settings, err := h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.clock.Advance(time.Minute)
			before := h.view()
			if last, ok := h.srv.LastMessage(h.group.ID); ok {
				h.said = last.MessageID
			}
			since := h.said
			if tt.channelPost != "" {
				_, fw, err := h.srv.PostInChannel(news.ID, h.user("Alice").ID, tt.channelPost)
				require.NoError(t, err)
				require.True(t, fw.IsAutomaticForward)
			} else {
				post(tt.post)
			}
			if tt.says == silent {
				h.quietSince(since)
			} else {
				h.botSays(tt.says)
			}

			after := h.view()
			assert.Equal(t, before.Table.Version(), after.Table.Version(), "the table is as it was")
			s, err := h.store.Settings(h.ctx(), h.group.ID)
			require.NoError(t, err)
			assert.Equal(t, settings, s, "the settings are as they were")
			rows, err := h.store.Leaderboard(h.ctx(), h.group.ID, 100)
			require.NoError(t, err)
			for _, r := range rows {
				assert.Positive(t, int64(r.User), "no chat holds chips")
				assert.NotEqual(t, telegramtest.ChannelBotID, int64(r.User))
				assert.NotEqual(t, telegramtest.ServiceNotificationsID, int64(r.User))
			}
			assert.EqualValues(t, 1000, h.balance("Bob"), "nobody was granted anything")
			h.audit()
		})
	}
}
