package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// The cut at the bot's tables (docs/FAIRNESS.md, "The cut"): every new
// deck waits for a seated player's cut, by a tap, /cut or a reply to the
// table, or for the wait to pass (dealt "not cut").

// cutPrompt is what the group's table says while it asks name to cut.
func cutPrompt(name string) string {
	return name + ", cut the deck: tap a button, or /cut your words, or reply to this message with any text"
}

// tap picks cut button n.
func tap(n int) func(callback.Data) bool {
	return func(d callback.Data) bool { return d.Action == callback.Cut && d.Tap == n }
}

// cutWaiting starts a game of Alice (banker), Bob and Carol, whose deck
// waits for its cut: the table asks Bob. It returns the table's message
// as it asks.
func (h *harness) cutWaiting() telegramtest.ChatMessage {
	h.t.Helper()
	h.decks("Kh Tc 9d")
	h.lobby("Bob", "Carol")
	a := h.pressData("Alice", action(callback.Start))
	assert.Equal(h.t, "Game on · Bob cuts the deck", a.Text)
	return h.tableMessage(contains(cutPrompt("Bob")))
}

// cutOf returns the cut of the group's table's deck.
func (h *harness) cutOf() game.CutState {
	h.t.Helper()
	v := h.view()
	c, ok := v.Table.Cut()
	require.True(h.t, ok, "a deck of the cut")
	return c
}

// TestCutByTap: the table shows the deck's commitment and its link of the
// table's chain, asks Bob, and offers three cut buttons; Carol, seated
// too, taps ½ first: the deck is cut with "tap:2" by her, dealt, and the
// table names her with the first cards, in the same message (no message
// of its own, one edit for the prompt and one for the deal).
func TestCutByTap(t *testing.T) {
	h := newHarness(t)
	before := len(h.srv.Messages(h.group.ID))
	m := h.cutWaiting()
	c := h.cutOf()
	require.True(t, c.Waiting)
	assert.Equal(t, game.UserID(h.user("Bob").ID), c.Asked)
	assert.Contains(t, m.Text, "🔐 Deck "+c.Commitment.Short()+" · link 1 of chain "+c.Head.Short())
	assert.Equal(t, []string{"✂️ ¼", "✂️ ½", "✂️ ¾"}, m.Labels())
	edits := m.EditCount

	a := h.pressData("Carol", tap(2))
	assert.Equal(t, "✂️ Deck cut: dealing the cards.", a.Text)
	c = h.cutOf()
	assert.False(t, c.Waiting)
	assert.Equal(t, game.UserID(h.user("Carol").ID), c.By, "any seated player may cut: the first cut counts")
	assert.Equal(t, "tap:2", string(c.Cut))
	dealt := h.tableMessage(contains("your bet, Bob"))
	assert.Contains(t, dealt.Text, "✂️ cut by Carol")
	assert.Contains(t, dealt.Text, "K♥", "Bob's first card, from the stacked deck")
	assert.Equal(t, m.MessageID, dealt.MessageID, "the same table message")
	assert.Equal(t, edits+1, dealt.EditCount, "the cut shows on the edit that deals")
	assert.Len(t, h.srv.Messages(h.group.ID), before+2, "the cut costs no message: /newgame and the table")
	h.audit()
}

// TestCutByCommand: /cut with words cuts with the message's bytes after
// the command and the spaces that follow it, exactly (trailing spaces,
// other scripts); /cut alone says how it is used.
func TestCutByCommand(t *testing.T) {
	h := newHarness(t)
	h.cutWaiting()
	h.command("Bob", "cut")
	h.botSays("Cut the deck with your own words while the table asks for a cut", "/cut WORDS", "256 bytes")
	assert.True(t, h.cutOf().Waiting, "no words: no cut")

	words := "ночь  над Prague ✂️ 42 "
	_, err := h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user("Bob").ID, Text: "/cut   " + words})
	require.NoError(t, err)
	h.tableMessage(contains("✂️ cut by Bob"))
	c := h.cutOf()
	assert.Equal(t, words, string(c.Cut), "the exact bytes")
	assert.Equal(t, game.UserID(h.user("Bob").ID), c.By)
}

// TestCutByReply: a reply to the table's message while it asks for the
// cut cuts with the reply's whole text; a reply to it at another time,
// or to another message of the bot, is the players' chat: nothing
// happens, nobody is answered.
func TestCutByReply(t *testing.T) {
	h := newHarness(t)
	h.decks("Kh Tc 9d", "As 6c 6d")
	h.lobby("Bob", "Carol")
	lobby := h.tableMessage(contains("Bob"))
	h.reply("Carol", lobby.MessageID, "good luck all")
	v := h.version()

	m := h.cutWaitingAfterStart()
	h.reply("Carol", m.MessageID, "  the moon is  full\n")
	h.tableMessage(contains("✂️ cut by Carol"))
	c := h.cutOf()
	assert.Equal(t, "  the moon is  full\n", string(c.Cut), "the whole text")

	before := h.version()
	h.reply("Dave", m.MessageID, "not a cut: the deck is dealt")
	h.settle()
	assert.Equal(t, before, h.version(), "a reply while no cut is asked changes nothing")
	assert.Greater(t, before, v)
	for _, msg := range h.srv.Messages(h.group.ID) {
		if msg.FromBot {
			assert.NotContains(t, msg.Text, "not waiting for a cut", "the chat is left alone")
		}
	}
}

// cutWaitingAfterStart starts the lobby's game as Alice and returns the
// table's message asking Bob to cut.
func (h *harness) cutWaitingAfterStart() telegramtest.ChatMessage {
	h.t.Helper()
	h.pressData("Alice", action(callback.Start))
	return h.tableMessage(contains(cutPrompt("Bob")))
}

// TestNobodyCuts: when the wait passes with no cut, the deck is dealt
// "not cut", the table says so, and the record of the game names it.
func TestNobodyCuts(t *testing.T) {
	h := newHarness(t)
	h.decks("Th Ah")
	h.lobby("Bob")
	h.pressData("Alice", action(callback.Start))
	h.tableMessage(contains(cutPrompt("Bob") + " (15\u00a0s)"))
	h.settle()
	h.clock.Advance(game.DefaultCutWait - time.Second)
	h.settle()
	assert.True(t, h.cutOf().Waiting, "the wait is not over")
	h.clock.Advance(time.Second)
	dealt := h.tableMessage(contains("your bet, Bob"))
	assert.Contains(t, dealt.Text, "✂️ not cut")
	c := h.cutOf()
	assert.Zero(t, c.By)
	assert.Empty(t, c.Cut)

	h.bet("Bob", 10)
	h.hit("Bob") // 21: Bob takes the bank
	h.tableMessage(containsAll("Game over", "✂️ not cut"))
}

// TestCutRefusals: a cut by someone not seated, a second cut, a cut after
// the first card, a cut past 256 bytes, a forged or stale button, a cut
// where no deck waits: each refused with a clear answer (a toast for a
// press, a message for /cut and a reply), the table unchanged.
func TestCutRefusals(t *testing.T) {
	h := newHarness(t)
	h.decks("Kh Tc 9d")
	h.lobby("Bob", "Carol")
	h.command("Bob", "cut", "too", "soon")
	h.botSays("The table is not waiting for a cut.")

	m := h.cutWaitingAfterStart()
	v := h.version()
	id, stale := h.buttonOf(tap(1))
	a := h.pressRaw("Dave", m.MessageID, stale)
	assert.Equal(t, "You're not at this table.", a.Text, "not seated")
	h.command("Dave", "cut", "mine")
	h.botSays("You're not at this table.")
	h.command("Bob", "cut", strings.Repeat("x", game.MaxCutLen+1))
	h.botSays("Too long: a cut is at most 256 bytes.")
	for _, forged := range []string{fmt.Sprintf("x:%d:7", v), fmt.Sprintf("x:%d:0", v), "x:0:1", fmt.Sprintf("x:%d:tap:1", v),
		fmt.Sprintf("x:%d", v)} {
		a = h.pressRaw("Bob", id, forged)
		assert.Equal(t, "This button doesn't work here.", a.Text, "forged: %q", forged)
	}
	a = h.pressRaw("Bob", id, fmt.Sprintf("x:%d:1", v+5))
	assert.Equal(t, "This table has moved on.", a.Text, "a version the table is not at")
	assert.Equal(t, v, h.version(), "nothing changed")
	assert.True(t, h.cutOf().Waiting)

	a = h.pressRaw("Bob", id, stale)
	assert.Equal(t, "✂️ Deck cut · your bet first · your card K♥ (4)", a.Text)
	a = h.pressRaw("Carol", id, stale)
	assert.Equal(t, "The deck is cut already: the first cut counts.", a.Text, "a second cut, by the stale button")
	h.command("Carol", "cut", "me too")
	h.botSays("The deck is cut already: the first cut counts.")
	after := h.version()
	assert.Equal(t, game.UserID(h.user("Bob").ID), h.cutOf().By)
	assert.Equal(t, "tap:1", string(h.cutOf().Cut))
	assert.Equal(t, v+1, after)
}

// TestCutTooLate: a deck dealt not cut refuses a cut after its first card.
func TestCutTooLate(t *testing.T) {
	h := newHarness(t)
	h.decks("Kh Tc 9d")
	h.lobby("Bob", "Carol")
	m := h.cutWaitingAfterStart()
	_, stale := h.buttonOf(tap(3))
	h.settle()
	h.clock.Advance(game.DefaultCutWait)
	h.tableMessage(contains("✂️ not cut"))
	v := h.version()
	a := h.pressRaw("Bob", m.MessageID, stale)
	assert.Equal(t, "Too late: the deck is being dealt.", a.Text)
	h.command("Carol", "cut", "late words")
	h.botSays("Too late: the deck is being dealt.")
	h.reply("Carol", m.MessageID, "late reply")
	h.settle()
	assert.Equal(t, v, h.version(), "nothing changed")
}

// TestSoloCut: at a solo table the player cuts, whoever banks; the house
// is never asked and never cuts: the house's moves wait for the cut.
func TestSoloCut(t *testing.T) {
	h := newHarness(t, inPrivate)
	h.decks("9s Td 8h 7c 6d")
	h.deck.Banker = 1 // the house banks
	h.command("Alice", "newgame")
	h.tableMessage(contains("Alice"))
	h.pressData("Alice", action(callback.Start))
	m := h.tableMessage(contains(cutPrompt("Alice")))
	assert.Equal(t, game.UserID(h.user("Alice").ID), h.cutOf().Asked, "the player, not the house")
	h.settle()
	h.clock.Advance(5 * time.Second) // the house would have moved by now
	h.settle()
	assert.True(t, h.cutOf().Waiting, "the house does not cut")
	_, err := h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user("Alice").ID, ReplyTo: m.MessageID, Text: "my solo words"})
	require.NoError(t, err)
	h.tableMessage(contains("✂️ cut by Alice"))
	assert.Equal(t, "my solo words", string(h.cutOf().Cut))
	v := h.view()
	_, seated := v.Table.SeatOf(house.ID)
	assert.True(t, seated)
}

// TestCutAgainEachCircle: a knock's new circle is a new deck: it asks for
// its cut again, the next link of the chain, committed to by the seed the
// last deck revealed; and the record names each deck's cutter.
func TestCutAgainEachCircle(t *testing.T) {
	h := newHarness(t)
	h.decks("Kh Tc 9d  Ts 8s  7c Td 8d  Ad 9h 8h", "As 6c 6d  Ac")
	h.lobby("Bob", "Carol", "Dave")
	h.startGame("Carol") // Bob cuts with a tap
	first := h.cutOf()
	h.bet("Bob", 10)
	h.hit("Bob")
	h.hit("Bob")
	h.bet("Carol", 20)
	h.hit("Carol")
	h.stand("Carol")
	h.bet("Dave", 10)
	h.hit("Dave")
	h.stand("Dave")
	h.tableMessage(containsAll(cutPrompt("Bob"), "circle 2"))
	second := h.cutOf()
	require.True(t, second.Waiting, "the second circle's deck waits for its cut")
	assert.Equal(t, first.Link+1, second.Link, "the next link")
	assert.Equal(t, first.Head, second.Head, "of the same chain")
	reveals, err := h.store.TableReveals(h.ctx(), h.key(), 1)
	require.NoError(t, err)
	require.Len(t, reveals, 1)
	assert.Equal(t, reveals[0].Commitment, first.Commitment.String())
	assert.Equal(t, game.UserID(h.user("Bob").ID), reveals[0].CutBy)

	h.command("Dave", "cut", "circle two")
	h.tableMessage(contains("✂️ cut by Dave"))
	h.bet("Bob", 30)
	h.hit("Bob") // Golden 21: the bank is broken
	h.tableMessage(containsAll("Game over", "✂️ 1: cut by Bob · 2: cut by Dave"))
}

// TestCutWaitSurvivesARestart: a restart while the deck waits for its cut
// re-arms the wait from the stored deadline; the cut still works after
// it, and a wait that passes while the bot is down deals the deck not
// cut once it is back.
func TestCutWaitSurvivesARestart(t *testing.T) {
	h := newHarness(t)
	h.cutWaiting()
	h.restart()
	m := h.tableMessage(contains(cutPrompt("Bob")))
	h.pressRaw("Bob", m.MessageID, func() string { _, d := h.buttonOf(tap(3)); return d }())
	h.tableMessage(contains("✂️ cut by Bob"))
	assert.Equal(t, "tap:3", string(h.cutOf().Cut))

	h2 := newHarness(t)
	h2.cutWaiting()
	h2.crash(func() { h2.clock.Advance(game.DefaultCutWait + time.Second) })
	h2.tableMessage(containsAll("✂️ not cut", "your bet, Bob"))
}

// containsAll holds for a message whose text holds every part.
func containsAll(parts ...string) func(telegramtest.ChatMessage) bool {
	return func(m telegramtest.ChatMessage) bool { return holds(m.Text, parts) }
}
