package webapp_test

import (
	"bufio"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/appgate"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestMembers: a table shows in the app to its seated players and to its
// chat's members, as Telegram tells them (getChatMember), and to nobody
// else, whatever link they hold; Telegram's answer is kept for
// appgate.MemberTTL; a seated player who left the chat still sees their
// table; when Telegram does not answer, the caller is asked to try again
// (503 and Retry-After), and nothing changes.
func TestMembers(t *testing.T) {
	a := newApp(t, webapp.Limits{})
	a.command("Alice", "newgame")
	a.press("Bob", "Join")
	view := func(name string) int {
		t.Helper()
		return a.do(http.MethodGet, "/api/table", "tma "+a.initData(name, 0), nil).status
	}
	asked := func() int { return a.tg.Calls().Methods["getChatMember"].Calls }

	// A member who sits nowhere watches; Telegram is asked once a
	// minute.
	require.Equal(t, http.StatusOK, view("Carol"))
	calls := asked()
	assert.Positive(t, calls, "Telegram was asked about Carol")
	assert.Equal(t, http.StatusOK, view("Carol"))
	assert.Equal(t, calls, asked(), "the answer is kept")
	assert.Equal(t, -1, a.getView("Carol").You.Seat, "Carol watches")

	// Someone outside the chat sees nothing, and cannot join from the
	// link.
	before := a.ledger()
	assert.Equal(t, http.StatusForbidden, view("Dave"))
	join := actData(t, a.getView("Carol"), "join")
	r := a.post("Dave", join)
	assert.Equal(t, http.StatusForbidden, r.status, "%s", r.body)
	assert.Equal(t, "not_member", r.errorCode(t))
	assert.Equal(t, before, a.ledger(), "nothing changed")

	// Joining the group lets Dave in once the "no" kept for him expires;
	// leaving it shuts Carol out the same way.
	_, err := a.tg.AddMember(a.group.ID, a.users["Dave"], a.users["Alice"].ID)
	require.NoError(t, err)
	require.NoError(t, a.tg.RemoveMember(a.group.ID, a.users["Carol"].ID, 0))
	assert.Equal(t, http.StatusForbidden, view("Dave"), "the answer kept")
	assert.Equal(t, http.StatusOK, view("Carol"), "the answer kept")
	a.clock.Advance(appgate.MemberTTL + time.Second)
	assert.Equal(t, http.StatusOK, view("Dave"))
	assert.Equal(t, http.StatusForbidden, view("Carol"))

	// A seated player who left the chat still sees their table.
	require.NoError(t, a.tg.RemoveMember(a.group.ID, a.users["Bob"].ID, 0))
	a.clock.Advance(appgate.MemberTTL + time.Second)
	assert.Equal(t, http.StatusOK, view("Bob"))

	// Telegram does not answer: try again.
	a.clock.Advance(appgate.MemberTTL + time.Second)
	fault := a.tg.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{"getChatMember"}})
	r = a.do(http.MethodGet, "/api/table", "tma "+a.initData("Dave", 0), nil)
	assert.Equal(t, http.StatusServiceUnavailable, r.status, "%s", r.body)
	assert.Equal(t, "busy", r.errorCode(t))
	assert.Equal(t, "2", r.header.Get("Retry-After"))
	assert.Positive(t, fault.Fired())
	fault.Remove()
	assert.Equal(t, http.StatusOK, view("Dave"), "asked again, Telegram answers")
}

// TestMembersPrivate: a table in the bot's private chat with a user (solo
// play) shows to that user alone.
func TestMembersPrivate(t *testing.T) {
	a := newApp(t, webapp.Limits{})
	alice := a.users["Alice"]
	_, err := a.tg.SendCommand(alice.ID, alice.ID, "/newgame")
	require.NoError(t, err)
	a.deliver()
	key := storage.TableKey{Chat: alice.ID}
	open := func(name string) int {
		u := a.users[name]
		d := a.secret.Sign(initdata.Data{AuthDate: a.clock.Now().Truncate(time.Second),
			User: initdata.User{ID: u.ID, FirstName: u.FirstName}, StartParam: a.refs.Ref(key)})
		return a.do(http.MethodGet, "/api/table", "tma "+d, nil).status
	}
	assert.Equal(t, http.StatusOK, open("Alice"))
	assert.Equal(t, http.StatusForbidden, open("Bob"))
}

// TestMovedTableStreams: a link made before the group became a supergroup
// names the group; the server streams the table where it is kept now, so
// that the supergroup's versions reach it.
func TestMovedTableStreams(t *testing.T) {
	a := newApp(t, webapp.Limits{})
	a.command("Alice", "newgame")
	a.press("Bob", "Join")
	const super = -1009999
	require.NoError(t, a.store.MigrateChat(context.Background(), a.group.ID, super))

	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.http.URL+"/api/stream", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "tma "+a.initData("Bob", 0)) // the group's ref
	resp, err := a.http.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	events := bufio.NewReader(resp.Body)
	first := nextID(t, events)
	assert.Equal(t, 1, a.hub.Watching(storage.TableKey{Chat: super}), "streamed under the supergroup's key")
	assert.Zero(t, a.hub.Watching(a.key()))
	a.hub.Rearmed(storage.TableKey{Chat: super}, first)
	assert.Equal(t, first, nextID(t, events), "what the bot tells of the new key reaches it")
}
