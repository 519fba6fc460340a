package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/game"
)

// TestFullGameWithKnockAndBrokenBank plays a 4-player game with fixed decks
// through our Bot API server: Bob busts, Carol loses to the banker, Dave
// beats him, the bank has tripled so the banker knocks, and Bob's Golden 21
// breaks the bank in the second circle.
func TestFullGameWithKnockAndBrokenBank(t *testing.T) {
	h := newHarness(t)
	h.decks(
		"Kh Tc 9d  Ts 8s  7c Td 8d  Ad 9h 8h", // circle 1: dealt Bob Carol Dave, then the duels
		"As 6c 6d  Ac",                        // circle 2 (after the knock)
	)

	h.command("Alice", "newgame")
	lobby := h.tableMessage(contains("Alice"))
	assert.Contains(t, lobby.Labels(), "Join")
	for _, name := range []string{"Bob", "Carol", "Dave"} {
		a := h.join(name)
		assert.Equal(t, "You're in.", a.Text)
	}
	h.tableMessage(contains("Dave"))
	assert.Equal(t, "Game on · Bob cuts the deck", h.startGame("Carol").Text)

	// The banker is Alice (seat 0); her stake is in the bank.
	v := h.view()
	require.Equal(t, game.Betting, v.Table.Phase())
	bi, _ := v.Table.Banker()
	assert.Equal(t, "Alice", v.Table.Seat(bi).Name)
	assert.EqualValues(t, 10, v.Table.Bank())
	assert.EqualValues(t, 990, h.balance("Alice"))

	// Someone else pressing Bob's bet gets a pop-up and changes nothing.
	a := h.pressData("Carol", func(d callbackData) bool { return d.Action == betAction })
	assert.Equal(t, "It's Bob's turn.", a.Text)
	assert.Equal(t, v.Table.Version(), h.version())

	// Circle 1. Bob: K♥, bets 10, draws 10♠ (14) and 8♠ (22): bust. The
	// toasts carry what the table's edit may show later.
	assert.Equal(t, "Bet 10 · your card K♥ (4) · Hit or Stand?", h.bet("Bob", 10).Text)
	assert.Equal(t, "10♠ · 14", h.hit("Bob").Text)
	assert.Equal(t, "8♠ · 22: bust!", h.hit("Bob").Text)
	assert.EqualValues(t, 20, h.bank())

	// Carol: 10♣, bets 20, draws 7♣ (17), stands; the banker draws 10♦ 8♦ = 18.
	h.bet("Carol", 20)
	assert.Equal(t, "7♣ · 17", h.hit("Carol").Text)
	assert.Equal(t, "Stand at 17 · banker 18: you lose 20", h.stand("Carol").Text)
	assert.EqualValues(t, 40, h.bank())

	// Dave: 9♦, bets 10, draws A♦ (20), stands; the banker draws 9♥ 8♥ = 17.
	h.bet("Dave", 10)
	h.hit("Dave")
	assert.Equal(t, "Stand at 20 · banker 17: you win 10", h.stand("Dave").Text)

	// The bank grew from 10 to 30: knock, a second circle with the same bank.
	v = h.view()
	assert.Equal(t, 1, v.Table.Knocks())
	assert.Equal(t, 2, v.Table.Circle())
	assert.EqualValues(t, 30, v.Table.Bank())
	assert.Empty(t, v.Decks, "no deck is read for a game in progress")
	h.tableMessage(contains("Knock"))

	// Circle 2. Bob: A♠, bets the whole bank (30), draws A♣: Golden 21.
	assert.Equal(t, "A♣ · Golden 21!", func() string { h.bet("Bob", 30); return h.hit("Bob").Text }())

	// The bank is broken: Carol and Dave sit out, the game is over.
	v = h.view()
	assert.Equal(t, game.Lobby, v.Table.Phase())
	assert.EqualValues(t, 0, v.Table.Bank())
	end := h.tableMessage(contains("Game over"))

	// Both circles' decks were revealed, and the message says there are
	// two to check behind /verify_1, with no line of hex (each one's short
	// hash was on the table during its circle).
	reveals, err := h.store.TableReveals(h.ctx(), h.key(), v.Table.Game())
	require.NoError(t, err)
	require.Len(t, reveals, 2)
	require.Len(t, v.Decks, 2)
	for i, r := range reveals {
		assert.Equal(t, r.Commitment, v.Decks[i].String())
	}
	assert.Contains(t, end.Text, "🔐 Deck check: 2\u00a0decks · /verify_1")
	assert.NotContains(t, end.Text, v.Decks[0].Short())
	assert.Contains(t, end.Text, "Carol: 6♣ → the bank was broken before their turn: no chips moved", "every player has a line")

	want := map[string]int64{"Alice": 990, "Bob": 1020, "Carol": 980, "Dave": 1010}
	for name, bal := range want {
		assert.Equal(t, bal, h.balance(name), name)
	}
	h.audit()

	// Play again: the game's message becomes its record, with both decks.
	h.decks("Kh Tc 9d")
	h.startGame("Carol")
	h.messageSays(end.MessageID, "Twenty One — game 1", "🔐 Deck check: 2\u00a0decks · /verify_1")
}

// TestStartToastWhenYouBetFirst: the player who starts the game and is
// asked to cut is told so in the toast; once they cut, that they bet
// first, with their card.
func TestStartToastWhenYouBetFirst(t *testing.T) {
	h := newHarness(t)
	h.decks("Kh Tc 9d Ts")
	h.lobby("Bob", "Carol")
	assert.Equal(t, "Game on · cut the deck: tap ✂️", h.pressData("Bob", action(callback.Start)).Text)
	cut := h.pressData("Bob", func(d callback.Data) bool { return d.Action == callback.Cut && d.Tap == 1 })
	assert.Equal(t, "✂️ Deck cut · your bet first · your card K♥ (4)", cut.Text)
}
