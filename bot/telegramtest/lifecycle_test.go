package telegramtest_test

import (
	"encoding/json"
	"net/url"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func TestUpgradeToSupergroupMigratesLikeTelegram(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	group := srv.NewGroup("Table", alice)
	old, err := api.Send(tgbotapi.NewMessage(group.ID, "Game on"))
	require.NoError(t, err)

	sg, err := srv.UpgradeToSupergroup(group.ID, alice.ID)
	require.NoError(t, err)
	assert.Equal(t, "supergroup", sg.Type)
	assert.Equal(t, "Table", sg.Title)
	assert.Equal(t, sg.ID, srv.MigratedTo(group.ID))

	updates, err := api.GetUpdates(tgbotapi.UpdateConfig{})
	require.NoError(t, err)
	require.Len(t, updates, 3, "the two migration messages and the bot's membership of the supergroup")
	require.NotNil(t, updates[0].Message)
	assert.Equal(t, group.ID, updates[0].Message.Chat.ID)
	assert.Equal(t, sg.ID, updates[0].Message.MigrateToChatID)
	assert.Equal(t, alice.ID, updates[0].Message.From.ID)
	joined := updates[1].MyChatMember
	require.NotNil(t, joined, "as if the bot had been added to the supergroup")
	assert.Equal(t, sg.ID, joined.Chat.ID)
	assert.Equal(t, "left", joined.OldChatMember.Status)
	assert.Equal(t, "member", joined.NewChatMember.Status)
	assert.Equal(t, api.Self.ID, joined.NewChatMember.User.ID)
	assert.Equal(t, alice.ID, joined.From.ID)
	require.NotNil(t, updates[2].Message)
	assert.Equal(t, sg.ID, updates[2].Message.Chat.ID)
	assert.Equal(t, group.ID, updates[2].Message.MigrateFromChatID)
	assert.Equal(t, telegramtest.AnonymousAdminID, updates[2].Message.From.ID, "the supergroup's own message")
	require.NotNil(t, updates[2].Message.SenderChat)
	assert.Equal(t, sg.ID, updates[2].Message.SenderChat.ID)

	tests := []struct {
		name string
		req  tgbotapi.Chattable
	}{
		{"send", tgbotapi.NewMessage(group.ID, "still there?")},
		{"edit", tgbotapi.NewEditMessageText(group.ID, old.MessageID, "edited")},
		{"delete", tgbotapi.NewDeleteMessage(group.ID, old.MessageID)},
		{"get a member", tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: group.ID, UserID: alice.ID}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := api.Request(tt.req)
			apiErr := asAPIError(t, err)
			assert.Equal(t, 400, apiErr.Code)
			assert.Equal(t, "Bad Request: group chat was upgraded to a supergroup chat", apiErr.Message)
			assert.Equal(t, sg.ID, apiErr.MigrateToChatID)
		})
	}

	msgs := srv.Messages(sg.ID)
	require.Len(t, msgs, 1, "the bot's messages are not carried over")
	assert.Equal(t, group.ID, msgs[0].MigrateFromChatID)
	_, err = api.Send(tgbotapi.NewMessage(sg.ID, "moved"))
	require.NoError(t, err)
	member, err := srv.Member(sg.ID, alice.ID)
	require.NoError(t, err)
	assert.Equal(t, telegramtest.StatusCreator, member.Status)
	_, err = srv.SendText(group.ID, alice.ID, "hello?")
	assert.ErrorIs(t, err, telegramtest.ErrChatMigrated)
}

// TestUpgradeCarriesTheBotsStatus: an admin bot is announced an admin of
// the supergroup; a bot not in the group hears nothing.
func TestUpgradeCarriesTheBotsStatus(t *testing.T) {
	tests := []struct {
		name       string
		botStatus  string
		wantStatus string
	}{
		{"administrator", telegramtest.StatusAdministrator, "administrator"},
		{"not a member", telegramtest.StatusLeft, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, api := start(t)
			alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
			group, err := srv.AddChat(telegramtest.ChatSpec{Title: "Table", Creator: alice.ID, BotStatus: tt.botStatus})
			require.NoError(t, err)
			sg, err := srv.UpgradeToSupergroup(group.ID, alice.ID)
			require.NoError(t, err)
			member, err := srv.Member(sg.ID, api.Self.ID)
			require.NoError(t, err)
			assert.Equal(t, tt.botStatus, member.Status)
			updates, err := api.GetUpdates(tgbotapi.UpdateConfig{})
			require.NoError(t, err)
			var statuses []string
			for _, u := range updates {
				if u.MyChatMember != nil {
					statuses = append(statuses, u.MyChatMember.NewChatMember.Status)
				}
			}
			if tt.wantStatus == "" {
				assert.Empty(t, updates)
				return
			}
			assert.Equal(t, []string{tt.wantStatus}, statuses)
		})
	}
}

func TestRemovedBotGets403AndMyChatMemberUpdates(t *testing.T) {
	tests := []struct {
		name       string
		supergroup bool
		remove     func(srv *telegramtest.Server, chatID, by int64) error
		wantStatus string
		wantDesc   string
	}{
		{"kicked from a group", false, (*telegramtest.Server).KickBot, "kicked", "Forbidden: bot was kicked from the group chat"},
		{"kicked from a supergroup", true, (*telegramtest.Server).KickBot, "kicked", "Forbidden: bot was kicked from the supergroup chat"},
		{"removed from a group", false, (*telegramtest.Server).RemoveBot, "left", "Forbidden: bot is not a member of the group chat"},
		{"removed from a supergroup", true, (*telegramtest.Server).RemoveBot, "left", "Forbidden: bot is not a member of the supergroup chat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, api := start(t)
			alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
			chat := srv.NewGroup("Table", alice)
			if tt.supergroup {
				chat = srv.NewSupergroup("Table", alice)
			}
			require.NoError(t, tt.remove(srv, chat.ID, alice.ID))

			updates, err := api.GetUpdates(tgbotapi.UpdateConfig{})
			require.NoError(t, err)
			require.Len(t, updates, 1, "the left_chat_member message does not reach a bot that is gone")
			mcm := updates[0].MyChatMember
			require.NotNil(t, mcm)
			assert.Equal(t, "member", mcm.OldChatMember.Status)
			assert.Equal(t, tt.wantStatus, mcm.NewChatMember.Status)
			assert.Equal(t, api.Self.ID, mcm.NewChatMember.User.ID)
			assert.Equal(t, alice.ID, mcm.From.ID)

			_, err = api.Send(tgbotapi.NewMessage(chat.ID, "hello?"))
			apiErr := asAPIError(t, err)
			assert.Equal(t, 403, apiErr.Code)
			assert.Equal(t, tt.wantDesc, apiErr.Message)

			_, err = srv.SendCommand(chat.ID, alice.ID, "start")
			require.NoError(t, err)
			assert.Equal(t, 1, srv.PendingUpdates(), "a bot that is not a member gets no messages")

			require.NoError(t, srv.AddBot(chat.ID, alice.ID))
			updates, err = api.GetUpdates(tgbotapi.UpdateConfig{Offset: updates[0].UpdateID + 1})
			require.NoError(t, err)
			require.Len(t, updates, 2)
			require.NotNil(t, updates[0].MyChatMember)
			assert.Equal(t, "member", updates[0].MyChatMember.NewChatMember.Status)
			require.NotNil(t, updates[1].Message)
			require.Len(t, updates[1].Message.NewChatMembers, 1)
			assert.Equal(t, api.Self.ID, updates[1].Message.NewChatMembers[0].ID)
			_, err = api.Send(tgbotapi.NewMessage(chat.ID, "back"))
			assert.NoError(t, err)
		})
	}
}

func TestBlockedBotGets403InPrivate(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.PrivateChat(alice)
	require.NoError(t, srv.BlockBot(alice.ID, true))
	_, err := api.Send(tgbotapi.NewMessage(chat.ID, "hi"))
	apiErr := asAPIError(t, err)
	assert.Equal(t, 403, apiErr.Code)
	assert.Equal(t, "Forbidden: bot was blocked by the user", apiErr.Message)

	stranger := srv.AddUser(telegramtest.User{FirstName: "Stranger"})
	_, err = api.Send(tgbotapi.NewMessage(stranger.ID, "hi"))
	assert.Equal(t, "Forbidden: bot can't initiate conversation with a user", asAPIError(t, err).Message)
}

func TestForumTopicsCarryThreadIDsInRawUpdates(t *testing.T) {
	srv, api := start(t, telegramtest.WithPrivacyMode(false))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	forum := srv.NewForum("Casino", alice)
	topic, err := srv.CreateTopic(forum.ID, alice.ID, "Table 1")
	require.NoError(t, err)
	inTopic, err := srv.Post(telegramtest.Post{ChatID: forum.ID, From: alice.ID, Text: "/deal", ThreadID: topic})
	require.NoError(t, err)
	general, err := srv.SendText(forum.ID, alice.ID, "in General")
	require.NoError(t, err)
	_, err = srv.Post(telegramtest.Post{ChatID: forum.ID, From: alice.ID, ReplyTo: general.MessageID, Text: "a reply in General"})
	require.NoError(t, err)

	raw := rawUpdates(t, srv, 0)
	require.Len(t, raw, 4)
	msg := func(i int) map[string]any { return raw[i]["message"].(map[string]any) }
	assert.Equal(t, float64(topic), msg(0)["message_thread_id"], "topic creation")
	assert.Equal(t, true, msg(0)["is_topic_message"])
	assert.Equal(t, float64(topic), msg(1)["message_thread_id"])
	assert.Equal(t, true, msg(1)["is_topic_message"])
	assert.NotContains(t, msg(2), "message_thread_id", "General has no thread")
	assert.Equal(t, float64(general.MessageID), msg(3)["message_thread_id"], "a reply in General names its reply thread")
	assert.NotContains(t, msg(3), "is_topic_message")

	tests := []struct {
		name       string
		form       url.Values
		wantThread int
		wantDesc   string
	}{
		{"explicit topic", url.Values{"message_thread_id": {itoa(topic)}}, topic, ""},
		{"reply inherits the topic", url.Values{"reply_to_message_id": {itoa(inTopic.MessageID)}}, topic, ""},
		{"unknown thread", url.Values{"message_thread_id": {"999"}}, 0, "Bad Request: message thread not found"},
		{"a reply thread of General is not a topic", url.Values{"message_thread_id": {itoa(general.MessageID)}}, 0, "Bad Request: message thread not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.form.Set("chat_id", itoa(int(forum.ID)))
			tt.form.Set("text", "dealt")
			resp := call(t, srv, "sendMessage", tt.form)
			if tt.wantDesc != "" {
				assert.Equal(t, tt.wantDesc, resp.Description)
				return
			}
			require.True(t, resp.OK, resp.Description)
			var m telegramtest.Message
			require.NoError(t, json.Unmarshal(resp.Result, &m))
			assert.Equal(t, tt.wantThread, m.MessageThreadID)
			assert.True(t, m.IsTopicMessage)
			stored, ok := srv.Message(forum.ID, m.MessageID)
			require.True(t, ok)
			assert.Equal(t, tt.wantThread, stored.MessageThreadID)
		})
	}
	_ = api
}

// TestThreadMessagesImplicitlyReplyToTheirFirstMessage: in a forum topic
// (and a reply thread) a message replying to nothing carries the thread's
// first message as reply_to_message, as telegram-bot-api does
// (get_implicit_reply_to_message_id); General and the topic's own first
// message carry none, and an explicit reply wins.
func TestThreadMessagesImplicitlyReplyToTheirFirstMessage(t *testing.T) {
	srv, _ := start(t, telegramtest.WithPrivacyMode(false))
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	forum := srv.NewForum("Casino", alice, bob)
	topic, err := srv.CreateTopic(forum.ID, alice.ID, "Table 1")
	require.NoError(t, err)
	plain, err := srv.Post(telegramtest.Post{ChatID: forum.ID, From: bob.ID, ThreadID: topic, Text: "/stats"})
	require.NoError(t, err)
	_, err = srv.Post(telegramtest.Post{ChatID: forum.ID, From: bob.ID, ThreadID: topic, ReplyTo: plain.MessageID, Text: "me again"})
	require.NoError(t, err)
	_, err = srv.SendText(forum.ID, bob.ID, "in General")
	require.NoError(t, err)
	group := srv.NewSupergroup("Lounge", alice, bob)
	root, err := srv.SendText(group.ID, alice.ID, "root")
	require.NoError(t, err)
	_, err = srv.Post(telegramtest.Post{ChatID: group.ID, From: bob.ID, ThreadID: root.MessageID, Text: "in the thread"})
	require.NoError(t, err)

	raw := rawUpdates(t, srv, 0)
	require.Len(t, raw, 6)
	replyOf := func(i int) map[string]any {
		r, _ := raw[i]["message"].(map[string]any)["reply_to_message"].(map[string]any)
		return r
	}
	assert.Nil(t, replyOf(0), "the topic's first message replies to nothing")
	require.NotNil(t, replyOf(1), "a message in the topic")
	assert.Equal(t, float64(topic), replyOf(1)["message_id"])
	assert.Contains(t, replyOf(1), "forum_topic_created")
	assert.Equal(t, float64(alice.ID), replyOf(1)["from"].(map[string]any)["id"], "the topic's creator")
	require.NotNil(t, replyOf(2))
	assert.Equal(t, float64(plain.MessageID), replyOf(2)["message_id"], "an explicit reply wins")
	assert.Nil(t, replyOf(3), "General is no thread")
	assert.Nil(t, replyOf(4))
	require.NotNil(t, replyOf(5), "a reply thread of a supergroup")
	assert.Equal(t, float64(root.MessageID), replyOf(5)["message_id"])

	stored, ok := srv.Message(forum.ID, plain.MessageID)
	require.True(t, ok)
	require.NotNil(t, stored.ReplyToMessage)
	assert.Equal(t, topic, stored.ReplyToMessage.MessageID)

	resp := call(t, srv, "sendMessage", url.Values{"chat_id": {itoa(int(forum.ID))}, "message_thread_id": {itoa(topic)}, "text": {"dealt"}})
	require.True(t, resp.OK, resp.Description)
	var sent telegramtest.Message
	require.NoError(t, json.Unmarshal(resp.Result, &sent))
	require.NotNil(t, sent.ReplyToMessage, "the bot's own message in the topic too")
	assert.Equal(t, topic, sent.ReplyToMessage.MessageID)
	assert.NotNil(t, sent.ReplyToMessage.ForumTopicCreated)
}

// TestPrivacyModeIgnoresImplicitReplies: an implicit reply to a message of
// the bot (the thread it started) does not make a message one the bot
// receives in privacy mode; only a reply the user made does.
func TestPrivacyModeIgnoresImplicitReplies(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	group := srv.NewSupergroup("Lounge", alice)
	root, err := api.Send(tgbotapi.NewMessage(group.ID, "root"))
	require.NoError(t, err)
	_, err = srv.Post(telegramtest.Post{ChatID: group.ID, From: alice.ID, ThreadID: root.MessageID, Text: "chatting"})
	require.NoError(t, err)
	_, err = srv.Post(telegramtest.Post{ChatID: group.ID, From: alice.ID, ReplyTo: root.MessageID, Text: "to the bot"})
	require.NoError(t, err)
	updates, err := api.GetUpdates(tgbotapi.UpdateConfig{})
	require.NoError(t, err)
	require.Len(t, updates, 1)
	assert.Equal(t, "to the bot", updates[0].Message.Text)
}

func TestAnonymousAdminMessages(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	chat := srv.NewSupergroup("Table", alice, bob)
	require.NoError(t, srv.MakeAdmin(chat.ID, bob.ID))

	_, err := srv.Post(telegramtest.Post{ChatID: chat.ID, From: bob.ID, Text: "/newgame", Anonymous: true})
	require.NoError(t, err)
	updates, err := api.GetUpdates(tgbotapi.UpdateConfig{})
	require.NoError(t, err)
	require.Len(t, updates, 1)
	m := updates[0].Message
	require.NotNil(t, m)
	assert.Equal(t, telegramtest.AnonymousAdminID, m.From.ID)
	assert.Equal(t, "GroupAnonymousBot", m.From.UserName)
	assert.True(t, m.From.IsBot)
	require.NotNil(t, m.SenderChat)
	assert.Equal(t, chat.ID, m.SenderChat.ID)
	assert.Equal(t, "newgame", m.Command())

	_, err = srv.Post(telegramtest.Post{ChatID: chat.ID, From: alice.ID, Text: "x", Anonymous: true})
	assert.NoError(t, err, "the creator is an administrator too")
	plain := srv.AddUser(telegramtest.User{FirstName: "Carol"})
	_, err = srv.AddMember(chat.ID, plain, 0)
	require.NoError(t, err)
	_, err = srv.Post(telegramtest.Post{ChatID: chat.ID, From: plain.ID, Text: "x", Anonymous: true})
	assert.ErrorIs(t, err, telegramtest.ErrInvalid)
}

func TestPrivacyModeDecidesWhatTheBotSees(t *testing.T) {
	botName := telegramtest.DefaultBot.Username
	tests := []struct {
		name    string
		opts    []telegramtest.Option
		admin   bool
		text    string
		reply   bool
		wantGet bool
	}{
		{"plain text is hidden", nil, false, "hello all", false, false},
		{"a command is seen", nil, false, "/newgame", false, true},
		{"a command for this bot is seen", nil, false, "/newgame@" + botName, false, true},
		{"a command for another bot is hidden", nil, false, "/newgame@other_bot", false, false},
		{"a reply to the bot is seen", nil, false, "me too", true, true},
		{"an administrator bot sees everything", nil, true, "hello all", false, true},
		{"privacy off sees everything", []telegramtest.Option{telegramtest.WithPrivacyMode(false)}, false, "hello all", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, api := start(t, tt.opts...)
			alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
			spec := telegramtest.ChatSpec{Title: "Table", Creator: alice.ID}
			if tt.admin {
				spec.BotStatus = telegramtest.StatusAdministrator
			}
			chat, err := srv.AddChat(spec)
			require.NoError(t, err)
			botMsg, err := api.Send(tgbotapi.NewMessage(chat.ID, "Who plays?"))
			require.NoError(t, err)
			drain(t, api)
			p := telegramtest.Post{ChatID: chat.ID, From: alice.ID, Text: tt.text}
			if tt.reply {
				p.ReplyTo = botMsg.MessageID
			}
			_, err = srv.Post(p)
			require.NoError(t, err)
			assert.Equal(t, tt.wantGet, srv.PendingUpdates() == 1)
			assert.Equal(t, tt.text, mustLast(t, srv, chat.ID).Text, "the chat shows the message either way")
		})
	}
}

func mustLast(t *testing.T, srv *telegramtest.Server, chatID int64) telegramtest.ChatMessage {
	t.Helper()
	m, ok := srv.LastMessage(chatID)
	require.True(t, ok)
	return m
}

func TestGetChatMember(t *testing.T) {
	srv, api := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice", Username: "alice"})
	bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
	carol := srv.AddUser(telegramtest.User{FirstName: "Carol"})
	chat, err := srv.AddChat(telegramtest.ChatSpec{Type: telegramtest.ChatSupergroup, Title: "Table",
		Creator: alice.ID, Members: []int64{bob.ID}, Admins: []int64{carol.ID}, BotStatus: telegramtest.StatusAdministrator})
	require.NoError(t, err)
	require.NoError(t, srv.SetMemberStatus(chat.ID, bob.ID, telegramtest.StatusRestricted))

	tests := []struct {
		user int64
		want string
	}{
		{alice.ID, "creator"}, {bob.ID, "restricted"}, {carol.ID, "administrator"}, {api.Self.ID, "administrator"},
		{srv.AddUser(telegramtest.User{FirstName: "Dan"}).ID, "left"},
	}
	for _, tt := range tests {
		m, err := api.GetChatMember(tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: chat.ID, UserID: tt.user}})
		require.NoError(t, err)
		assert.Equal(t, tt.want, m.Status, "user %d", tt.user)
		assert.Equal(t, tt.user, m.User.ID)
	}
	_, err = api.GetChatMember(tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: chat.ID, UserID: 31337}})
	assert.Equal(t, "Bad Request: user not found", asAPIError(t, err).Message)

	require.NoError(t, srv.SetMemberStatus(chat.ID, carol.ID, telegramtest.StatusCreator))
	m, err := srv.Member(chat.ID, alice.ID)
	require.NoError(t, err)
	assert.Equal(t, telegramtest.StatusAdministrator, m.Status, "the old creator becomes an administrator")
}

// TestRemoveMemberPostsLeftChatMember: a member who leaves, or whom an
// admin removes, is "left"; the left_chat_member service message reaches
// a bot in privacy mode, from whoever acted, except in a supergroup of
// more than 50 members, where Telegram posts none.
func TestRemoveMemberPostsLeftChatMember(t *testing.T) {
	tests := []struct {
		name        string
		supergroup  bool
		others      int // members besides Alice, Bob and the bot
		byAdmin     bool
		wantService bool
	}{
		{name: "leaves a group", wantService: true},
		{name: "removed from a group", byAdmin: true, wantService: true},
		{name: "leaves a supergroup of 50", supergroup: true, others: 47, wantService: true},
		{name: "leaves a supergroup of 51", supergroup: true, others: 48},
		{name: "leaves a group of 51", others: 48, wantService: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, api := start(t)
			alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
			bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
			members := []telegramtest.User{alice, bob}
			for i := range tt.others {
				members = append(members, srv.AddUser(telegramtest.User{FirstName: "M" + itoa(i)}))
			}
			chat := srv.NewGroup("Table", members...)
			if tt.supergroup {
				chat = srv.NewSupergroup("Table", members...)
			}
			by := bob.ID
			if tt.byAdmin {
				by = alice.ID
			}
			require.ErrorIs(t, srv.RemoveMember(chat.ID, alice.ID, bob.ID), telegramtest.ErrInvalid, "only an admin removes others")
			require.NoError(t, srv.RemoveMember(chat.ID, bob.ID, by))
			assert.ErrorIs(t, srv.RemoveMember(chat.ID, bob.ID, by), telegramtest.ErrInvalid, "gone already")
			m, err := api.GetChatMember(tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: chat.ID, UserID: bob.ID}})
			require.NoError(t, err)
			assert.Equal(t, "left", m.Status)

			updates, err := api.GetUpdates(tgbotapi.UpdateConfig{})
			require.NoError(t, err)
			var left []*tgbotapi.Message
			for _, u := range updates {
				if u.Message != nil && u.Message.LeftChatMember != nil {
					left = append(left, u.Message)
				}
			}
			if !tt.wantService {
				assert.Empty(t, left)
				return
			}
			require.Len(t, left, 1)
			assert.Equal(t, bob.ID, left[0].LeftChatMember.ID)
			assert.Equal(t, by, left[0].From.ID)
		})
	}
}

// TestPromotingTheBot: SetMemberStatus of the bot itself promotes or
// demotes it as a group's creator does in a client: getChatMember of the
// bot says its new status, the bot gets a my_chat_member update (and no
// chat_member, no service message), and it may, or may no longer, send
// an ephemeral message as an admin. A status that is already the bot's
// tells nothing; a bot owns no group, a restricted bot is not modelled,
// and a bot not in the group cannot be promoted; leaving is RemoveBot's.
func TestPromotingTheBot(t *testing.T) {
	for _, supergroup := range []bool{false, true} {
		t.Run(map[bool]string{false: "group", true: "supergroup"}[supergroup], func(t *testing.T) {
			srv, api := start(t)
			alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
			bob := srv.AddUser(telegramtest.User{FirstName: "Bob"})
			chat := srv.NewGroup("Table", alice, bob)
			if supergroup {
				chat = srv.NewSupergroup("Table", alice, bob)
			}
			next := drain(t, api)
			botID := srv.Bot().ID
			steps := []struct {
				status     string
				from, want string
				ephemeral  bool // an ephemeral message to Bob, with no action to answer
			}{
				{telegramtest.StatusAdministrator, "member", "administrator", true},
				{telegramtest.StatusAdministrator, "", "administrator", true},
				{telegramtest.StatusMember, "administrator", "member", false},
				{telegramtest.StatusLeft, "member", "left", false},
			}
			for _, st := range steps {
				require.NoError(t, srv.SetMemberStatus(chat.ID, botID, st.status))
				m, err := api.GetChatMember(tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: chat.ID, UserID: botID}})
				if st.want == "left" {
					assert.Equal(t, "Forbidden: bot is not a member of the "+map[bool]string{false: "group", true: "supergroup"}[supergroup]+" chat",
						asAPIError(t, err).Message, "a bot that left reads the chat no more")
				} else {
					require.NoError(t, err)
					assert.Equal(t, st.want, m.Status, "getChatMember of the bot")
					assert.Equal(t, st.want == "administrator", m.CanDeleteMessages)
				}
				stored, err := srv.Member(chat.ID, botID)
				require.NoError(t, err)
				assert.Equal(t, st.want, stored.Status)

				updates, err := api.GetUpdates(tgbotapi.UpdateConfig{Offset: next})
				require.NoError(t, err)
				var mine []*tgbotapi.ChatMemberUpdated
				for _, u := range updates {
					next = u.UpdateID + 1
					assert.Nil(t, u.ChatMember, "no chat_member for the bot's own status")
					if u.MyChatMember != nil {
						mine = append(mine, u.MyChatMember)
					} else if st.want != "left" {
						assert.Nil(t, u.Message, "no service message for a promotion")
					}
				}
				if st.from == "" {
					assert.Empty(t, mine, "already %s: nothing changed", st.want)
				} else if assert.Len(t, mine, 1, "%s: one my_chat_member", st.want) {
					assert.Equal(t, chat.ID, mine[0].Chat.ID)
					assert.Equal(t, alice.ID, mine[0].From.ID, "the creator acts")
					assert.Equal(t, st.from, mine[0].OldChatMember.Status)
					assert.Equal(t, st.want, mine[0].NewChatMember.Status)
					assert.Equal(t, botID, mine[0].NewChatMember.User.ID)
				}
				if st.want != "left" {
					resp := sendEphemeral(t, srv, chat.ID, receiver(bob.ID, ""))
					if st.ephemeral {
						assert.True(t, resp.OK, "an admin bot sends one at any time: %s", resp.Description)
					} else {
						assert.Equal(t, "Bad Request: BOT_NOT_ADMIN", resp.Description)
					}
				}
			}
		})
	}
	srv, _ := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	chat := srv.NewGroup("Table", alice)
	for _, status := range []string{telegramtest.StatusCreator, telegramtest.StatusRestricted, "owner"} {
		assert.ErrorIs(t, srv.SetMemberStatus(chat.ID, srv.Bot().ID, status), telegramtest.ErrInvalid, status)
	}
	require.NoError(t, srv.RemoveBot(chat.ID, alice.ID))
	assert.ErrorIs(t, srv.SetMemberStatus(chat.ID, srv.Bot().ID, telegramtest.StatusAdministrator), telegramtest.ErrInvalid, "not in the group")
	m, err := srv.Member(chat.ID, srv.Bot().ID)
	require.NoError(t, err)
	assert.Equal(t, telegramtest.StatusLeft, m.Status)
}
