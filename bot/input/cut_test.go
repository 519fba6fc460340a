package input

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
)

// cutAsked starts a game at the group's lobby with Bob (Alice banks):
// its deck waits for the cut, Bob asked.
func (f *fixture) cutAsked() {
	f.t.Helper()
	f.lobby("Bob")
	f.decks("Th 9h 7c")
	f.pressButton(f.group.ID, "Alice", callback.Start)
	require.Equal(f.t, game.Cutting, f.table(f.group.ID).Phase())
}

// post sends text as the user named into the group, in reply to the
// message replyTo (0: none), and delivers it.
func (f *fixture) post(name string, replyTo int, text string) {
	f.t.Helper()
	_, err := f.srv.Post(telegramtest.Post{ChatID: f.group.ID, From: f.user(name).ID, ReplyTo: replyTo, Text: text})
	require.NoError(f.t, err)
	f.deliver()
}

func TestCutWords(t *testing.T) {
	tests := []struct{ text, want string }{
		{"/cut words", "words"},
		{"/cut    several  spaces  ", "several  spaces  "},
		{"/cut\nnext line", "\nnext line"},
		{"/cut@twentyone_bot  é ✂️", "é ✂️"},
		{"/cut", ""},
		{"/cut    ", ""},
	}
	for _, tt := range tests {
		n := len("/cut")
		if strings.HasPrefix(tt.text, "/cut@") {
			n = len("/cut@twentyone_bot")
		}
		assert.Equal(t, tt.want, cutWords(tt.text, n), "%q", tt.text)
	}
	assert.Empty(t, cutWords("/cut", 9), "an entity past the text")
}

// TestCutByCommandAndReply: /cut's words and a reply's whole text cut the
// deck, exactly; /cut alone tells how; a reply when no cut is asked, or
// to another message, changes nothing and is not answered.
func TestCutByCommandAndReply(t *testing.T) {
	f := newFixture(t, cutting)
	f.cutAsked()
	f.command(f.group.ID, "Bob", "cut")
	assert.Contains(t, f.botSaid(f.group.ID), "/cut WORDS")
	assert.Equal(t, game.Cutting, f.table(f.group.ID).Phase())

	f.post("Bob", 0, "/cut  Ünïcode  words ")
	c, ok := f.table(f.group.ID).Cut()
	require.True(t, ok)
	assert.Equal(t, "Ünïcode  words ", string(c.Cut))
	assert.Equal(t, game.UserID(f.user("Bob").ID), c.By)

	g := newFixture(t, cutting)
	g.cutAsked()
	table := g.view(g.group.ID).MessageID
	g.post("Carol", table, "hello") // Carol is not seated
	assert.Contains(t, g.botSaid(g.group.ID), "You're not at this table.")
	assert.Equal(t, game.Cutting, g.table(g.group.ID).Phase())
	said := g.botSaid(g.group.ID)
	g.post("Bob", 0, "a message that replies to nothing")
	assert.Equal(t, game.Cutting, g.table(g.group.ID).Phase())
	g.post("Bob", table, " my reply\n")
	c, ok = g.table(g.group.ID).Cut()
	require.True(t, ok)
	assert.Equal(t, " my reply\n", string(c.Cut))
	v := g.table(g.group.ID).Version()
	g.post("Carol", table, "nice cut")
	assert.Equal(t, v, g.table(g.group.ID).Version())
	assert.Equal(t, said, g.botSaid(g.group.ID), "the chat is not answered")
}

// TestCutWaitTimesOut: the table's timer deals the deck not cut when the
// wait passes, on the fake clock.
func TestCutWaitTimesOut(t *testing.T) {
	f := newFixture(t, cutting)
	f.cutAsked()
	f.clock.Advance(game.DefaultCutWait - time.Millisecond)
	f.settle()
	assert.Equal(t, game.Cutting, f.table(f.group.ID).Phase())
	f.clock.Advance(time.Millisecond)
	require.NoError(t, f.srv.WaitFor(f.ctx(), func(*telegramtest.View) bool {
		return f.table(f.group.ID).Phase() == game.Betting
	}), "dealt when the wait passed")
	c, ok := f.table(f.group.ID).Cut()
	require.True(t, ok)
	assert.Zero(t, c.By, "not cut")
	id := f.view(f.group.ID).MessageID
	require.NoError(t, f.srv.WaitFor(f.ctx(), func(v *telegramtest.View) bool {
		m, ok := v.Message(f.group.ID, id)
		return ok && strings.Contains(m.Text, "✂️ not cut")
	}), "the table says so")
}
