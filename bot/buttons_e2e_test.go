package bot_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// inlineSeated returns the names of the players seated at the inline
// table.
func (h *harness) inlineSeated(it inlineTable) []string {
	v := h.inlineView(it)
	var names []string
	for _, s := range v.Table.Seats() {
		names = append(names, s.Name)
	}
	return names
}

// inlineRoutes draw each button pressed on an inline message in a state
// it shows in, on an inline message in a chat the bot is not in, press it
// through the whole bot, and check that the press did what its row says
// (button.Row.Does).
var inlineRoutes = map[callback.Action]func(t *testing.T, h *harness, it inlineTable){
	callback.InlineOpen: func(t *testing.T, h *harness, it inlineTable) {
		a := h.pressOnInline(it, "Alice", is(callback.InlineOpen))
		assert.Equal(t, "You're in.", a.Text)
		assert.Equal(t, []string{"Alice"}, h.inlineSeated(it))
		v := h.inlineView(it)
		require.NotNil(t, v.Inline, "the table keeps its preset")
	},
	callback.Join: func(t *testing.T, h *harness, it inlineTable) {
		h.pressOnInline(it, "Alice", is(callback.InlineOpen))
		h.pressOnInline(it, "Bob", is(callback.Join))
		assert.Equal(t, []string{"Alice", "Bob"}, h.inlineSeated(it))
	},
	callback.Leave: func(t *testing.T, h *harness, it inlineTable) {
		h.pressOnInline(it, "Alice", is(callback.InlineOpen))
		h.pressOnInline(it, "Bob", is(callback.Join))
		h.pressOnInline(it, "Bob", is(callback.Leave))
		assert.Equal(t, []string{"Alice"}, h.inlineSeated(it))
	},
	callback.Start: func(t *testing.T, h *harness, it inlineTable) {
		h.startInline(it, "Alice", "Bob")
		v := h.inlineView(it)
		assert.Equal(t, game.Betting, v.Table.Phase())
	},
	callback.SeatHouse: func(t *testing.T, h *harness, it inlineTable) {
		h.pressOnInline(it, "Alice", is(callback.InlineOpen))
		h.pressOnInline(it, "Alice", is(callback.SeatHouse))
		v := h.inlineView(it)
		_, seated := v.Table.SeatOf(house.ID)
		assert.True(t, seated)
	},
	callback.UnseatHouse: func(t *testing.T, h *harness, it inlineTable) {
		h.pressOnInline(it, "Alice", is(callback.InlineOpen))
		h.pressOnInline(it, "Alice", is(callback.SeatHouse))
		h.pressOnInline(it, "Alice", is(callback.UnseatHouse))
		assert.Equal(t, []string{"Alice"}, h.inlineSeated(it))
	},
	callback.Bet: func(t *testing.T, h *harness, it inlineTable) {
		h.decks("Kh Tc")
		h.startInline(it, "Alice", "Bob")
		h.pressOnInline(it, "Bob", bets(10))
		v := h.inlineView(it)
		assert.Equal(t, game.Drawing, v.Table.Phase())
	},
	callback.Hit: func(t *testing.T, h *harness, it inlineTable) {
		h.decks("Kh Tc")
		h.startInline(it, "Alice", "Bob")
		h.pressOnInline(it, "Bob", bets(10))
		assert.Equal(t, "10♣ · 14", h.pressOnInline(it, "Bob", is(callback.Hit)).Text)
	},
	callback.Stand: func(t *testing.T, h *harness, it inlineTable) {
		h.decks("Kh Tc")
		h.startInline(it, "Alice", "Bob")
		h.pressOnInline(it, "Bob", bets(10))
		a := h.pressOnInline(it, "Bob", is(callback.Stand))
		assert.Contains(t, a.Text, "Stand at 4")
	},
	callback.NewTable: func(t *testing.T, h *harness, it inlineTable) {
		h.pressOnInline(it, "Alice", is(callback.InlineOpen))
		h.pressOnInline(it, "Alice", is(callback.Leave))
		closed := h.inlineView(it)
		require.Equal(t, game.Closed, closed.Table.Phase())
		h.pressOnInline(it, "Bob", is(callback.NewTable))
		assert.Equal(t, []string{"Bob"}, h.inlineSeated(it))
		assert.Equal(t, it.im.MessageID, h.shows(it, nil).MessageID, "in the same message: no repost")
	},
	callback.Verify: func(t *testing.T, h *harness, it inlineTable) {
		h.inlineGameOver(it)
		a := h.pressOnInline(it, "Carol", is(callback.Verify))
		assert.Empty(t, a.Text, "no alert")
		assert.Contains(t, a.URL, "?start=verify_", "the bot's private chat opens")
	},
	callback.Cut: func(t *testing.T, h *harness, it inlineTable) {
		h.decks("Kh Tc")
		h.pressOnInline(it, "Alice", is(callback.InlineOpen))
		h.pressOnInline(it, "Bob", is(callback.Join))
		h.pressOnInline(it, "Alice", is(callback.Start))
		m := h.shows(it, contains("Bob, cut the deck: tap a button (15\u00a0s)"))
		assert.NotContains(t, m.Text, "/cut", "the bot reads no message there: a tap only")
		assert.Equal(t, []string{"✂️ ¼", "✂️ ½", "✂️ ¾"}, m.Labels())
		a := h.pressOnInline(it, "Bob", func(d callback.Data) bool { return d.Action == callback.Cut && d.Tap == 3 })
		assert.Equal(t, "✂️ Deck cut · your bet first · your card K♥ (4)", a.Text)
		v := h.inlineView(it)
		c, ok := v.Table.Cut()
		require.True(t, ok)
		assert.Equal(t, "tap:3", string(c.Cut))
		assert.Equal(t, game.UserID(h.user("Bob").ID), c.By)
		h.shows(it, contains("your bet, Bob"))
	},
	callback.Top: func(t *testing.T, h *harness, it inlineTable) {
		h.inlineGameOver(it)
		a := h.pressOnInline(it, "Carol", is(callback.Top))
		assert.True(t, a.ShowAlert)
		assert.Contains(t, a.Text, "1. Bob")
	},
}

// inlineGameOver plays a game at the inline table: Bob wins the bank with
// 21 at once.
func (h *harness) inlineGameOver(it inlineTable) {
	h.t.Helper()
	h.decks("Th Ah")
	h.startInline(it, "Alice", "Bob")
	h.pressOnInline(it, "Bob", bets(10))
	h.pressOnInline(it, "Bob", is(callback.Hit))
	h.shows(it, contains("Game over"))
}

// TestEveryInlineButtonRoutes: each row pressed on an inline message is
// drawn there in some state and does what its row says; any other row's
// data is refused there as a chat's button (a link's, as a bad button),
// and changes nothing.
func TestEveryInlineButtonRoutes(t *testing.T) {
	for _, r := range button.Rows() {
		t.Run(r.Action.String(), func(t *testing.T) {
			h := newHarness(t, inlineMode)
			club := h.withoutBot("Book club", "Alice", "Bob", "Carol")
			it := h.postInline(club, "Alice")
			if !r.Pressed() {
				// A link (the app's: TestAppButtonOpensTheTable): no
				// press of it reaches the bot, and its forged data is a
				// bad button.
				h.pressOnInline(it, "Alice", is(callback.InlineOpen))
				before := h.inlineView(it)
				a := h.pressInlineRaw(it, "Bob", callback.Data{Action: r.Action, Version: before.Table.Version()}.String())
				assert.Equal(t, "This button doesn't work here.", a.Text)
				after := h.inlineView(it)
				assert.Equal(t, before.Table.Version(), after.Table.Version())
				return
			}
			if !r.Kinds.Has(button.Inline) {
				h.pressOnInline(it, "Alice", is(callback.InlineOpen))
				before := h.inlineView(it)
				d := callback.Data{Action: r.Action, Version: before.Table.Version(), Field: "stake", Value: "25", Chat: -100}
				a := h.pressInlineRaw(it, "Bob", d.String())
				assert.Equal(t, "This button works only on a table of this chat.", a.Text)
				after := h.inlineView(it)
				assert.Equal(t, before.Table.Version(), after.Table.Version())
				return
			}
			route, ok := inlineRoutes[r.Action]
			require.True(t, ok, "a route of %s", r.Action)
			route(t, h, it)
		})
	}
}
