package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

// TestAchievementsAnnouncedOnce: Bob bets the whole bank on his ace and
// draws another: Golden 21, the bank broken, his first game won. The bot
// crashes after the Hit was committed, before its answer; the press,
// delivered again, awards nothing twice. The game's record announces the
// three once, /stats lists them, and the record the message becomes when
// the next game starts keeps them.
func TestAchievementsAnnouncedOnce(t *testing.T) {
	h := newHarness(t)
	h.decks("Ah As")
	h.lobby("Bob")
	h.startGame("Alice")
	h.bet("Bob", 10)

	a := h.hitThroughCrash("Bob")
	assert.Equal(t, "A♠ · Golden 21!", a.Text)

	const line = "🏅 Bob: Golden 21, Broke the bank, First win"
	end := h.tableMessage(contains(line))
	assert.Equal(t, 1, strings.Count(end.Text, "🏅"), end.Text)
	assert.Contains(t, end.Text, "🏁 Game over: the bank is broken")
	bob := game.UserID(h.user("Bob").ID)
	assert.Equal(t, []award.Award{{User: bob, Achievement: award.Golden21}, {User: bob, Achievement: award.BrokeBank},
		{User: bob, Achievement: award.FirstWin}}, h.view().Awards)

	h.command("Bob", "stats")
	h.botSays("📊 Bob", "🏅 Achievements, 3 of 13: First win, Golden 21, Broke the bank")
	h.command("Alice", "stats")
	h.botSays("📊 Alice", "🏅 No achievements yet (there are 13).")

	// Play again, Bob banks: game 1's message becomes its record, with
	// its achievements; the new game's message has none.
	h.decks("Th 9h")
	h.startGame("Alice")
	h.messageSays(end.MessageID, "Twenty One — game 1", line)
	now := h.tableMessage(contains("your bet, Alice"))
	assert.NotContains(t, now.Text, "🏅")
	h.audit()
}
