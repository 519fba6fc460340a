package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/notice"
	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// appUser is the user named as the Mini App's initData vouches for them.
func (h *harness) appUser(name string) initdata.User {
	u := h.user(name)
	return initdata.User{ID: u.ID, FirstName: u.FirstName, LanguageCode: u.LanguageCode}
}

// appAct takes an action through the bot's Mini App way in (bot.Bot.App),
// as the app's server does, with the data of the table message's button
// of action a.
func (h *harness) appAct(name string, key storage.TableKey, a callback.Action) (webapp.Answer, error) {
	h.t.Helper()
	_, data := h.buttonOf(func(d callback.Data) bool { return d.Action == a })
	d, err := callback.Parse(data)
	require.NoError(h.t, err)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	return h.bot.App().Act(ctx, key, h.appUser(name), d)
}

// TestAppActsAsAPress: an action of the Mini App takes the path of a
// press of the same button: Bob joins, answered as the press would be, and
// the table message shows him; the same again is answered and changes
// nothing; data of no action of the table, and a table never opened, are
// refused. A table the app opens anew in a supergroup is announced to the
// group's followers with the group's title, as a press's is.
func TestAppActsAsAPress(t *testing.T) {
	h := newHarness(t, inSupergroup)
	h.follow("Carol")
	h.lobby()
	before := h.version()
	ans, err := h.appAct("Bob", h.key(), callback.Join)
	require.NoError(t, err)
	assert.Equal(t, webapp.Answer{Text: "You're in.", Applied: true, Version: before + 1}, ans)
	h.tableMessage(containsAll("Alice", "Bob"))

	d := callback.Data{Action: callback.Join, Version: before}
	again, err := h.bot.App().Act(h.ctx(), h.key(), h.appUser("Bob"), d)
	require.NoError(t, err, "answered by the table")
	assert.False(t, again.Applied)
	assert.Equal(t, before+1, again.Version, "as the refusal found it")

	_, err = h.bot.App().Act(h.ctx(), h.key(), h.appUser("Bob"), callback.Data{Action: callback.Verify, Version: before + 1})
	assert.ErrorIs(t, err, webapp.ErrBadAct, "a deck check is no action")
	_, err = h.bot.App().Act(h.ctx(), storage.TableKey{Chat: h.group.ID, Thread: 42}, h.appUser("Bob"), d)
	assert.ErrorIs(t, err, webapp.ErrNoTable)
	assert.Equal(t, before+1, h.version(), "nothing changed")

	h.command("Alice", "cancel")
	h.clock.Advance(notice.Quiet) // Carol may be told of the group again
	opened, err := h.appAct("Bob", h.key(), callback.NewTable)
	require.NoError(t, err)
	assert.True(t, opened.Applied)
	v := h.view()
	assert.Equal(t, game.Lobby, v.Table.Phase())
	n := h.privately("Carol", 0, "Bob opened a table")
	assert.Contains(t, n.Text, "Game night: Bob opened a table.", "the notice names the group, as getChat gave its title")
	h.audit()
}

// TestAppActAfterTheGroupMoved: a link made before a group became a
// supergroup names the old chat; an action through it is taken at the
// table where it moved, and shown there.
func TestAppActAfterTheGroupMoved(t *testing.T) {
	h := newHarness(t)
	h.lobby()
	old := h.key()
	_, data := h.buttonOf(func(d callback.Data) bool { return d.Action == callback.Join })
	super, err := h.srv.UpgradeToSupergroup(old.Chat, h.user("Alice").ID)
	require.NoError(t, err)
	h.group = super
	h.tableMessage(contains("Alice"))

	d, err := callback.Parse(data)
	require.NoError(t, err)
	ans, err := h.bot.App().Act(h.ctx(), old, h.appUser("Bob"), d)
	require.NoError(t, err)
	assert.True(t, ans.Applied)
	h.tableMessage(containsAll("Alice", "Bob"))
	assert.Equal(t, ans.Version, h.version(), "the supergroup's table took it")
	h.audit()
}

// TestAppAfterTheGroupMovedNamesTheNewTable: when a group becomes a
// supergroup the viewers are told (their streams end, and come back), and
// a link made before names the supergroup's table to the app's server
// (Members.Admit), for its players and for its members; someone outside
// is still refused.
func TestAppAfterTheGroupMovedNamesTheNewTable(t *testing.T) {
	seen := &viewersSeen{}
	h := newHarness(t, withViewers(seen))
	h.lobby("Bob")
	old := h.key()
	super, err := h.srv.UpgradeToSupergroup(old.Chat, h.user("Alice").ID)
	require.NoError(t, err)
	h.group = super
	h.tableMessage(contains("Bob"))
	// Telegram tells of the move twice (the group's migrate_to_chat_id,
	// the supergroup's migrate_from_chat_id), and a call into the old
	// group a third time: each is told, none moves anything more.
	require.Eventually(t, func() bool { return len(seen.movedSeen()) > 0 }, wait, time.Millisecond)
	for _, m := range seen.movedSeen() {
		assert.Equal(t, [2]int64{old.Chat, super.ID}, m)
	}

	members := h.bot.AppMembers()
	for _, name := range []string{"Bob", "Carol"} { // seated; a member
		key, err := members.Admit(h.ctx(), old, h.user(name).ID)
		require.NoError(t, err, name)
		assert.Equal(t, storage.TableKey{Chat: super.ID}, key, "%s: the table where it is kept now", name)
	}
	_, err = members.Admit(h.ctx(), old, h.user("Eve").ID)
	assert.ErrorIs(t, err, webapp.ErrNotMember)
}

// TestAppWaitsForTheStart: a bot that has not started (Start arms the
// stored deadlines) takes no action of the app, as it handles no update:
// one waits for the start, and is answered with its context's error when
// the start does not come in time, nothing changed; once the bot started,
// it applies.
func TestAppWaitsForTheStart(t *testing.T) {
	h := newHarness(t)
	h.lobby()
	_, data := h.buttonOf(func(d callback.Data) bool { return d.Action == callback.Join })
	d, err := callback.Parse(data)
	require.NoError(t, err)
	before := h.version()
	h.stop()
	h.stop = nil

	st, err := storage.Open(h.dbPath, h.storeOptions())
	require.NoError(t, err)
	defer st.Close()
	b, err := bot.New(h.ctx(), bot.Config{Token: h.srv.Token(), Endpoint: h.srv.Endpoint(), Store: st, Clock: h.clock})
	require.NoError(t, err)
	defer func() { require.NoError(t, b.Close(h.ctx())) }()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = b.App().Act(ctx, h.key(), h.appUser("Bob"), d)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	v, err := st.View(h.ctx(), h.key())
	require.NoError(t, err)
	assert.Equal(t, before, v.Table.Version(), "nothing changed")

	require.NoError(t, b.Start(h.ctx()))
	ans, err := b.App().Act(h.ctx(), h.key(), h.appUser("Bob"), d)
	require.NoError(t, err)
	assert.True(t, ans.Applied)
}
