package bot_test

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/notice"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// inSupergroup makes the harness's chat a supergroup named "Game night",
// whose messages have links.
func inSupergroup(o *harnessOptions) {
	o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
		return s.NewSupergroup("Game night", users...)
	}
}

// privately waits for a message of the bot in the user's private chat,
// after message after, holding every part, and returns it.
func (h *harness) privately(name string, after int, parts ...string) telegramtest.ChatMessage {
	h.t.Helper()
	m, err := h.botMessage(h.user(name).ID, func(m telegramtest.ChatMessage) bool {
		if m.MessageID <= after {
			return false
		}
		for _, p := range parts {
			if !strings.Contains(m.Text, p) {
				return false
			}
		}
		return true
	})
	require.NoError(h.t, err, "%s is told %q", name, parts)
	return m
}

// sayPrivately sends text as the user in their private chat with the bot
// and returns the message.
func (h *harness) sayPrivately(name, text string) telegramtest.ChatMessage {
	h.t.Helper()
	u := h.user(name)
	m, err := h.srv.Post(telegramtest.Post{ChatID: u.ID, From: u.ID, Text: text})
	require.NoError(h.t, err)
	return m
}

// notices returns the messages in the user's private chat that tell of a
// table opened.
func (h *harness) notices(name string) []telegramtest.ChatMessage {
	var out []telegramtest.ChatMessage
	for _, m := range h.srv.Messages(h.user(name).ID) {
		if m.FromBot && strings.Contains(m.Text, "opened a table") {
			out = append(out, m)
		}
	}
	return out
}

// follows returns the groups the user follows, as stored.
func (h *harness) follows(name string) []int64 {
	h.t.Helper()
	fs, err := h.store.Follows(h.ctx(), game.UserID(h.user(name).ID))
	require.NoError(h.t, err)
	var out []int64
	for _, f := range fs {
		out = append(out, f.Chat)
	}
	return out
}

// follow makes the user follow the harness's group as a user who started
// the bot does: /start in private, then /notify in the group.
func (h *harness) follow(name string) {
	h.t.Helper()
	h.sayPrivately(name, "/start")
	h.privately(name, 0, "add me to a group")
	h.command(name, "notify")
	h.botSays(name + ", you'll get a private message when a table opens here.")
}

// openTable opens a table with /newgame as the user and returns the lobby
// message.
func (h *harness) openTable(name string) telegramtest.ChatMessage {
	h.t.Helper()
	h.command(name, "newgame")
	return h.tableMessage(contains("table open"))
}

// TestNotifyThroughTheDeepLink: a user who never started the bot is given
// its deep link; the link's /start follows the group; a table opened
// there reaches the follower in private with the group, the opener, the
// stake and entry, and a button to the table message, and does not reach
// the opener.
func TestNotifyThroughTheDeepLink(t *testing.T) {
	h := newHarness(t, inSupergroup)
	h.command("Bob", "notify")
	m := h.botSays("Bob, I can only write to you once you've started me in a private chat")
	require.Len(t, m.Buttons(), 1)
	link := m.Buttons()[0].URL
	assert.Equal(t, "https://t.me/telegramtest_bot?start=notify_"+strconv.FormatInt(-h.group.ID, 10), link)
	assert.Empty(t, h.follows("Bob"), "nothing followed before Bob started the bot")

	start, err := h.srv.OpenLink(h.user("Bob").ID, link)
	require.NoError(t, err)
	h.privately("Bob", start.MessageID, "Done: I'll write to you here when a table opens in", "Game night")
	assert.Equal(t, []int64{h.group.ID}, h.follows("Bob"))
	h.messageGone(m.MessageID) // the prompt has done its job: no button stays in the group
	again, err := h.srv.OpenLink(h.user("Bob").ID, link)
	require.NoError(t, err)
	h.privately("Bob", again.MessageID, "You already follow", "Game night")

	h.follow("Alice")
	lobby := h.openTable("Alice")
	n := h.privately("Bob", again.MessageID, "opened a table")
	assert.Equal(t, "🃏 Game night: Alice opened a table.\nStake 10 · min. balance 100 · 2–4\u00a0players\n"+
		"Closes at 18:40 UTC if nobody starts.", n.Text)
	require.Len(t, n.Buttons(), 1)
	assert.Equal(t, "Open the table", n.Buttons()[0].Text)
	assert.Equal(t, "https://t.me/c/"+strconv.FormatInt(-h.group.ID-1_000_000_000_000, 10)+"/"+strconv.Itoa(lobby.MessageID),
		n.Buttons()[0].URL, "the link names the lobby's message")

	// Bob's own table reaches Alice, and not Bob.
	h.command("Alice", "cancel")
	h.botSays("Table closed.")
	h.clock.Advance(notice.Quiet) // Bob could be told of the group again
	h.openTable("Bob")
	h.privately("Alice", 0, "Game night: Bob opened a table.")
	h.restart() // Close sends whatever notice waits
	assert.Len(t, h.notices("Bob"), 1, "the opener is not told of his own table")
}

// TestPromptUsedOnItsWay: Bob taps the prompt's button before the bot
// learns the prompt's id (Telegram's answer to its sendMessage is slow):
// the prompt is deleted once the id comes.
func TestPromptUsedOnItsWay(t *testing.T) {
	h := newHarness(t, inSupergroup)
	release := make(chan struct{})
	free := sync.OnceFunc(func() { close(release) })
	t.Cleanup(free)
	held := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Methods: []string{"sendMessage"},
		Count: 1, AfterHandling: true, Hold: release})
	h.command("Bob", "notify")
	m := h.botSays("Bob, I can only write to you once you've started me in a private chat")
	require.Equal(t, 1, held.Fired(), "the prompt's answer is held")
	require.Len(t, m.Buttons(), 1)
	start, err := h.srv.OpenLink(h.user("Bob").ID, m.Buttons()[0].URL)
	require.NoError(t, err)
	h.privately("Bob", start.MessageID, "Done: I'll write to you here when a table opens in", "Game night")
	assert.Equal(t, []int64{h.group.ID}, h.follows("Bob"))

	free()
	h.messageGone(m.MessageID)
}

// TestNotifyInABasicGroup: a basic group's messages have no links: the
// notice says to open the group instead of showing a button.
func TestNotifyInABasicGroup(t *testing.T) {
	h := newHarness(t)
	h.follow("Bob")
	h.openTable("Alice")
	n := h.privately("Bob", 0, "Game night: Alice opened a table.", "Open the group to sit down.")
	assert.Empty(t, n.Buttons())
}

// TestNotifyToggles: /notify in the group turns the messages on and off,
// and says which; one turned off gets no notice.
func TestNotifyToggles(t *testing.T) {
	h := newHarness(t)
	h.follow("Carol")
	assert.Equal(t, []int64{h.group.ID}, h.follows("Carol"))
	h.clock.Advance(time.Minute) // past the reply quota
	h.command("Carol", "notify")
	h.botSays("Carol, no more private messages about tables here. /notify to get them again.")
	assert.Empty(t, h.follows("Carol"))
	h.clock.Advance(time.Minute)
	h.command("Carol", "notify", "off")
	h.botSays("/notify takes nothing after it")
	assert.Empty(t, h.follows("Carol"), "an argument toggles nothing")

	h.follow("Dave")
	h.openTable("Alice")
	h.privately("Dave", 0, "opened a table")
	assert.Empty(t, h.notices("Carol"), "Carol stopped")
}

// TestNotifyListInPrivate: /notify in private lists the groups followed,
// each with a button that stops it and edits the list; a button naming a
// group not followed (forged, or pressed twice) changes nothing.
func TestNotifyListInPrivate(t *testing.T) {
	h := newHarness(t)
	poker := h.srv.NewGroup("Poker club", h.user("Alice"), h.user("Bob"))
	h.follow("Bob")
	h.clock.Advance(time.Second) // the list shows the groups in the order they were followed
	_, err := h.srv.SendCommand(poker.ID, h.user("Bob").ID, "notify")
	require.NoError(t, err)
	_, err = h.srv.WaitForBotMessage(h.ctx(), poker.ID, telegramtest.TextContains("Bob, you'll get a private message"))
	require.NoError(t, err)

	asked := h.sayPrivately("Bob", "/notify")
	list := h.privately("Bob", asked.MessageID, "I'll write to you when a table opens in:")
	assert.Contains(t, list.Text, "• Game night\n• Poker club")
	assert.Equal(t, []string{"🔕 Game night", "🔕 Poker club"}, list.Labels())

	press := func(data string) telegramtest.CallbackAnswer {
		cb, err := h.srv.Press(telegramtest.Press{ChatID: h.user("Bob").ID, From: h.user("Bob").ID, MessageID: list.MessageID, Data: data})
		require.NoError(t, err)
		a, err := cb.Wait(h.ctx())
		require.NoError(t, err)
		return a
	}
	stop, ok := list.Button("🔕 Poker club")
	require.True(t, ok)
	assert.Equal(t, "Done: no more messages about that group's tables.", press(stop.CallbackData).Text)
	assert.Equal(t, []int64{h.group.ID}, h.follows("Bob"))
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.Message(h.user("Bob").ID, list.MessageID)
		return ok && !strings.Contains(m.Text, "Poker club") && len(m.Buttons()) == 1
	}), "the list is edited to what is left")

	assert.Equal(t, "You don't follow that group any more.", press(stop.CallbackData).Text)
	forged := callback.Data{Action: callback.Unfollow, Chat: -42}.String()
	assert.Equal(t, "You don't follow that group any more.", press(forged).Text)
	assert.Equal(t, []int64{h.group.ID}, h.follows("Bob"), "nothing else changed")

	// The same button in a group is refused.
	cb, err := h.srv.Press(telegramtest.Press{ChatID: h.group.ID, From: h.user("Bob").ID, MessageID: 1,
		Data: callback.Data{Action: callback.Unfollow, Chat: h.group.ID}.String()})
	require.NoError(t, err)
	a, err := cb.Wait(h.ctx())
	require.NoError(t, err)
	assert.Equal(t, "This button doesn't work here.", a.Text)
	assert.Equal(t, []int64{h.group.ID}, h.follows("Bob"))
}

// TestUnfollowForgedOnATable: an Unfollow press forged on a solo table's
// message is refused: the table keeps its text and buttons, and the
// presser still follows the group named.
func TestUnfollowForgedOnATable(t *testing.T) {
	h := newHarness(t)
	h.follow("Alice")
	alice := h.user("Alice").ID
	_, err := h.srv.SendCommand(alice, alice, "newgame")
	require.NoError(t, err)
	var table telegramtest.ChatMessage
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		m, ok := h.srv.LastBotMessage(alice)
		table = m
		return ok && strings.Contains(m.Text, "🤖 House")
	}))
	cb, err := h.srv.Press(telegramtest.Press{ChatID: alice, From: alice, MessageID: table.MessageID,
		Data: callback.Data{Action: callback.Unfollow, Chat: h.group.ID}.String()})
	require.NoError(t, err)
	a, err := cb.Wait(h.ctx())
	require.NoError(t, err)
	assert.Equal(t, "This button doesn't work here.", a.Text)
	assert.Equal(t, []int64{h.group.ID}, h.follows("Alice"), "nothing changed")
	h.sayPrivately("Alice", "/balance") // the bot's answer comes after any edit of the table
	h.privately("Alice", table.MessageID, "your balance")
	m, ok := h.srv.Message(alice, table.MessageID)
	require.True(t, ok)
	assert.Equal(t, table.Text, m.Text, "the table message is not overwritten")
	assert.Equal(t, table.Labels(), m.Labels())
}

// TestNotifyForgedLinks: a deep link that names no group, a group the bot
// is not in, or one the user is not a member of gets a clear answer and
// follows nothing.
func TestNotifyForgedLinks(t *testing.T) {
	h := newHarness(t)
	eve := h.user("Eve") // not a member of the group
	elsewhere := h.srv.NewGroup("Elsewhere", h.user("Alice"))
	require.NoError(t, h.srv.RemoveBot(elsewhere.ID, h.user("Alice").ID))
	link := func(param string) string { return "https://t.me/telegramtest_bot?start=" + param }
	tests := []struct {
		name, param, says string
	}{
		{"not a number", "notify_abc", "This link is broken."},
		{"a leading zero", "notify_0" + strconv.FormatInt(-h.group.ID, 10), "This link is broken."},
		{"a minus", "notify_-" + strconv.FormatInt(-h.group.ID, 10), "This link is broken."},
		{"too long", "notify_" + strings.Repeat("9", 30), "This link is broken."},
		{"no group", "notify_999", "I'm not in that group"},
		{"a group the bot left", "notify_" + strconv.FormatInt(-elsewhere.ID, 10), "I'm not in that group"},
		{"a group Eve is not in", "notify_" + strconv.FormatInt(-h.group.ID, 10), "You're not a member of that group"},
		{"a user's id", "notify_" + strconv.FormatInt(eve.ID, 10), "I'm not in that group"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.clock.Advance(time.Minute) // past the reply quota
			m, err := h.srv.OpenLink(eve.ID, link(tt.param))
			require.NoError(t, err)
			h.privately("Eve", m.MessageID, tt.says)
			assert.Empty(t, h.follows("Eve"))
		})
	}
	m, err := h.srv.OpenLink(eve.ID, link("something_else"))
	require.NoError(t, err)
	h.privately("Eve", m.MessageID, "add me to a group", "/newgame")

	// Telegram does not say: nothing changes, and /notify in the group
	// itself works now that the user started the bot.
	fault := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{"getChatMember"}})
	h.clock.Advance(time.Minute)
	m, err = h.srv.OpenLink(h.user("Bob").ID, link("notify_"+strconv.FormatInt(-h.group.ID, 10)))
	require.NoError(t, err)
	h.privately("Bob", m.MessageID, "I couldn't check with Telegram", "Send /notify in the group itself")
	assert.Empty(t, h.follows("Bob"))
	fault.Remove()
	h.command("Bob", "notify")
	h.botSays("Bob, you'll get a private message when a table opens here.")
}

// TestNotifyStopsWhenBlocked: a user who blocks the bot follows nothing
// any more (my_chat_member "kicked"); a user whose account is gone stops
// at the first notice Telegram refuses (403); the others are still told.
func TestNotifyStopsWhenBlocked(t *testing.T) {
	h := newHarness(t)
	for _, name := range []string{"Bob", "Carol", "Dave"} {
		h.follow(name)
	}
	require.NoError(t, h.srv.BlockBot(h.user("Bob").ID, true))
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return len(h.follows("Bob")) == 0 }),
		"blocking the bot stops Bob's following")
	h.command("Bob", "notify")
	h.botSays("Bob, I can only write to you once you've started me in a private chat", "Start")

	require.NoError(t, h.srv.DeleteAccount(h.user("Carol").ID))
	h.openTable("Alice")
	h.privately("Dave", 0, "Alice opened a table")
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return len(h.follows("Carol")) == 0 }),
		"the 403 stops Carol's following")
	assert.Empty(t, h.notices("Bob"))
	assert.Empty(t, h.notices("Carol"))
	on, err := h.store.ToggleFollow(h.ctx(), h.group.ID, storage.User{ID: game.UserID(h.user("Carol").ID)}, "", 0, h.clock.Now())
	assert.ErrorIs(t, err, storage.ErrNoPrivateChat, "the bot may no longer write to Carol")
	assert.False(t, on)
}

// TestNotifyStopsWhenAMemberLeaves: a follower who leaves the group, or
// whom an admin removes, follows it no more (the left_chat_member service
// message, which a bot in privacy mode gets too); the others are still
// told of its tables.
func TestNotifyStopsWhenAMemberLeaves(t *testing.T) {
	h := newHarness(t)
	for _, name := range []string{"Bob", "Carol", "Dave"} {
		h.follow(name)
	}
	require.NoError(t, h.srv.RemoveMember(h.group.ID, h.user("Bob").ID, 0))
	require.NoError(t, h.srv.RemoveMember(h.group.ID, h.user("Carol").ID, h.user("Alice").ID))
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
		return len(h.follows("Bob")) == 0 && len(h.follows("Carol")) == 0
	}), "leaving stops Bob's following, being removed Carol's")
	assert.Equal(t, []int64{h.group.ID}, h.follows("Dave"))

	h.openTable("Alice")
	h.privately("Dave", 0, "Alice opened a table")
	assert.Empty(t, h.notices("Bob"))
	assert.Empty(t, h.notices("Carol"))
}

// TestNotifyFollowsTheSupergroup: a group upgraded to a supergroup keeps
// its followers, who are told of its tables with links to them.
func TestNotifyFollowsTheSupergroup(t *testing.T) {
	h := newHarness(t)
	h.follow("Bob")
	super, err := h.srv.UpgradeToSupergroup(h.group.ID, h.user("Alice").ID)
	require.NoError(t, err)
	h.group = super
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
		f := h.follows("Bob")
		return len(f) == 1 && f[0] == super.ID
	}), "Bob follows the supergroup")
	lobby := h.openTable("Alice")
	n := h.privately("Bob", 0, "Game night: Alice opened a table.")
	require.Len(t, n.Buttons(), 1)
	assert.Equal(t, "https://t.me/c/"+strconv.FormatInt(-super.ID-1_000_000_000_000, 10)+"/"+strconv.Itoa(lobby.MessageID), n.Buttons()[0].URL)
}

// TestNotifyLinkToAnUpgradedGroup: a deep link given in a basic group that
// became a supergroup before it was opened follows the supergroup, where
// the tables open, though the bot never stored the old group.
func TestNotifyLinkToAnUpgradedGroup(t *testing.T) {
	h := newHarness(t)
	h.command("Bob", "notify")
	m := h.botSays("Bob, I can only write to you once you've started me in a private chat")
	require.Len(t, m.Buttons(), 1)
	link := m.Buttons()[0].URL
	super, err := h.srv.UpgradeToSupergroup(h.group.ID, h.user("Alice").ID)
	require.NoError(t, err)
	h.group = super
	start, err := h.srv.OpenLink(h.user("Bob").ID, link)
	require.NoError(t, err)
	h.privately("Bob", start.MessageID, "Done: I'll write to you here when a table opens in")
	assert.Equal(t, []int64{super.ID}, h.follows("Bob"), "the link follows the supergroup")
	h.openTable("Alice")
	h.privately("Bob", start.MessageID, "opened a table")
}

// TestNoticesAtMostOncePerQuietTime: a group that opens tables again and
// again tells each follower at most once in ten minutes; a table that
// opens later is told again. A lobby that is over before its notice goes
// out is not told at all.
func TestNoticesAtMostOncePerQuietTime(t *testing.T) {
	h := newHarness(t)
	h.follow("Bob")
	h.openTable("Alice")
	h.privately("Bob", 0, "opened a table")
	h.command("Alice", "cancel")
	h.botSays("Table closed.")

	h.follow("Carol") // told of the next table: she was never told
	h.clock.Advance(9 * time.Minute)
	h.openTable("Alice")
	h.privately("Carol", 0, "opened a table")
	h.restart() // Close sends whatever notice waits
	assert.Len(t, h.notices("Bob"), 1, "Bob was told less than ten minutes ago")
	h.command("Alice", "cancel")
	h.botSays("Table closed.")

	h.clock.Advance(time.Minute)
	h.openTable("Alice")
	h.privately("Bob", h.notices("Bob")[0].MessageID, "opened a table")
	assert.Len(t, h.notices("Bob"), 2, "ten minutes on, Bob is told again")
	assert.Len(t, h.notices("Carol"), 1, "Carol was told a minute ago")
}

// TestNoticesYieldToTheTables: with Telegram's limits on, notices go at
// most NoticePerSecond a second, and a table's edit does not wait for the
// notices queued before it.
func TestNoticesYieldToTheTables(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) {
		o.limits = outbox.Limits{PerSecond: 25, GroupPerMinute: 19, ChatInterval: time.Second, NoticePerSecond: 1}
		o.stepped = true // the server's limits too on the harness's clock
	})
	h.srv.SetRateLimits(telegramtest.RateLimits{Enabled: true, Global: telegramtest.RateLimit{Limit: 30, Window: time.Second},
		Group: telegramtest.RateLimit{Limit: 20, Window: time.Minute}, Private: telegramtest.RateLimit{Limit: 1, Window: time.Second}})
	followers := []string{"Bob", "Carol", "Dave"}
	for i := range 3 {
		name := "Fan" + strconv.Itoa(i)
		u, err := h.srv.AddMember(h.group.ID, telegramtest.User{FirstName: name, LanguageCode: "en"}, 0)
		require.NoError(t, err)
		h.users[name] = u
		followers = append(followers, name)
	}
	for _, name := range followers {
		// As /start and /notify do (TestNotifyToggles), without spending
		// the group's pace on the answers.
		u := h.user(name)
		h.srv.PrivateChat(u)
		_, err := h.store.Follow(h.ctx(), h.group.ID, storage.User{ID: game.UserID(u.ID), Name: u.FirstName}, "Game night", h.clock.Now())
		require.NoError(t, err)
	}
	h.openTable("Alice")
	h.privately(followers[0], 0, "opened a table")
	h.join("Bob")
	edited := h.tableMessage(contains("2. Bob"))
	told := 0
	for _, name := range followers {
		told += len(h.notices(name))
	}
	assert.Less(t, told, len(followers), "the table's edit went before the last notice")

	var at []time.Time
	require.NoError(t, h.waitFor(func(*telegramtest.View) bool {
		at = at[:0]
		for _, name := range followers {
			for _, n := range h.notices(name) {
				at = append(at, n.SentAt)
			}
		}
		return len(at) == len(followers)
	}), "every follower is told")
	slices.SortFunc(at, func(a, b time.Time) int { return a.Compare(b) })
	for i := 1; i < len(at); i++ {
		assert.GreaterOrEqual(t, at[i].Sub(at[i-1]), time.Second, "one notice a second")
	}
	assert.True(t, edited.EditedAt.Before(at[len(at)-1]))
	calls := h.srv.Calls().Methods
	assert.Zero(t, calls["sendMessage"].Codes[429]+calls["editMessageText"].Codes[429], "no write refused")
}
