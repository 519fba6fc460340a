package input

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/notice"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// told returns the bot's notices in the user's private chat.
func (f *fixture) told(name string) []string {
	var out []string
	for _, m := range f.srv.Messages(f.user(name).ID) {
		if m.FromBot && strings.Contains(m.Text, "opened a table") {
			out = append(out, m.Text)
		}
	}
	return out
}

// TestOpenedIsAnnounced: a table opened in a group, by /newgame or by the
// New table button, is announced to the group's followers but its opener
// once its message is sent (showOpened); one opened in a private chat is
// announced to nobody.
func TestOpenedIsAnnounced(t *testing.T) {
	f := newFixture(t)
	for _, name := range []string{"Alice", "Bob", "Carol"} {
		f.srv.PrivateChat(f.user(name))
		_, err := f.store.Follow(f.ctx(), f.group.ID, storage.User{ID: game.UserID(f.user(name).ID), Name: name}, "Game night", f.clock.Now())
		require.NoError(t, err)
	}

	f.command(f.group.ID, "Alice", "newgame")
	assert.Equal(t, []string{"🃏 Game night: Alice opened a table."}, firstLines(f.told("Carol")), "/newgame")
	assert.Len(t, f.told("Bob"), 1)
	assert.Empty(t, f.told("Alice"), "the opener is not told")

	a := f.pressButton(f.group.ID, "Alice", callback.Leave)
	require.False(t, a.ShowAlert, a.Text)
	require.Equal(t, game.Closed, f.table(f.group.ID).Phase())
	f.clock.Advance(notice.Quiet) // the followers may be told of the group again
	a = f.pressButton(f.group.ID, "Bob", callback.NewTable)
	require.False(t, a.ShowAlert, a.Text)
	assert.Equal(t, []string{"🃏 Game night: Alice opened a table.", "🃏 Game night: Bob opened a table."},
		firstLines(f.told("Carol")), "the New table button")
	assert.Len(t, f.told("Alice"), 1, "Alice is told of Bob's table")
	assert.Len(t, f.told("Bob"), 1, "the opener is not told")

	alice := f.user("Alice").ID
	f.command(alice, "Alice", "newgame")
	require.Equal(t, game.Lobby, f.table(alice).Phase(), "a solo table opened")
	// A private chat has no followers: nobody is told more.
	assert.Len(t, f.told("Alice"), 1)
	assert.Len(t, f.told("Bob"), 1)
	assert.Len(t, f.told("Carol"), 2)
}

// firstLines returns the first line of each text.
func firstLines(texts []string) []string {
	out := make([]string, len(texts))
	for i, s := range texts {
		out[i], _, _ = strings.Cut(s, "\n")
	}
	return out
}
