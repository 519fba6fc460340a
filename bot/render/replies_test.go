package render

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game/award"
)

// hostile is a name with markup and a character that reverses what follows.
const hostile = "Bob <b>&\u202e"

// replies are the command replies the golden files hold, each with a name.
func replies() []struct {
	name string
	draw func(i18n.Lang) message.Message
} {
	at := time.Date(2026, 3, 14, 21, 5, 0, 0, time.FixedZone("MSK", 3*3600))
	return []struct {
		name string
		draw func(i18n.Lang) message.Message
	}{
		{"plain", func(l i18n.Lang) message.Message { return Plain(`It's <not> "yours" & mine`) }},
		{"nudge", func(l i18n.Lang) message.Message {
			return Nudge(42, hostile, at.Add(40*time.Second+300*time.Millisecond), at, l)
		}},
		{"balance", func(l i18n.Lang) message.Message { return Balance(hostile, 1250, l) }},
		{"bonus granted", func(l i18n.Lang) message.Message {
			return BonusGranted(hostile, Bonus{Amount: 100, Balance: 150}, l)
		}},
		{"bonus wait", func(l i18n.Lang) message.Message {
			return BonusWait(hostile, 2*time.Hour+14*time.Minute+31*time.Second, l)
		}},
		{"bonus not needed", func(l i18n.Lang) message.Message { return BonusNotNeeded(hostile, 100, Bonus{Balance: 500}, l) }},
		{"bonus not needed on a table", func(l i18n.Lang) message.Message {
			return BonusNotNeeded(hostile, 100, Bonus{Balance: 40, OnTables: 70}, l)
		}},
		{"top", func(l i18n.Lang) message.Message {
			return Top([]Standing{
				{Name: "Alice", Balance: 1520, Net: 520, Games: 12},
				{Name: hostile, Balance: 1000, Net: 0, Games: 1},
				{Name: "Carol", Balance: 310, Net: -690, Games: 7},
			}, &Standing{Name: "House", Balance: 9170, Net: -830, Games: 9}, l)
		}},
		{"top empty", func(l i18n.Lang) message.Message { return Top(nil, nil, l) }},
		{"top of the house alone", func(l i18n.Lang) message.Message {
			return Top(nil, &Standing{Name: "House", Balance: 10000}, l)
		}},
		{"stats", func(l i18n.Lang) message.Message {
			return Stats(hostile, award.Stats{Games: 12, GamesAsBanker: 3, DuelsWon: 5, DuelsLost: 3, Net: -40,
				BiggestWin: 200, Golden21s: 1, FivePictures: 2,
				Achievements: 1<<award.Regular | 1<<award.FirstWin | 1<<award.Golden21 | 1<<award.Knock}, 960, l)
		}},
		{"stats no duels", func(l i18n.Lang) message.Message {
			return Stats(hostile, award.Stats{Games: 1, GamesAsBanker: 1}, 1000, l)
		}},
		{"stats none", func(l i18n.Lang) message.Message { return StatsNone(hostile, l) }},
		{"history", func(l i18n.Lang) message.Message {
			return History(hostile, []Entry{
				{Time: at, Kind: EntryWin, Amount: 40, Balance: 1030, Game: 3},
				{Time: at.Add(-time.Minute), Kind: EntryBet, Amount: -20, Balance: 990, Game: 3},
				{Time: at.Add(-time.Hour), Kind: EntryBet, Amount: -10, Balance: 1010, Game: 2},
				{Time: at.Add(-24 * time.Hour), Kind: EntryBonus, Amount: 100, Balance: 1020},
				{Time: at.Add(-40 * 24 * time.Hour), Kind: EntryStart, Amount: 1000, Balance: 920},
			}, 10, l)
		}},
		{"history empty", func(l i18n.Lang) message.Message { return History(hostile, nil, 10, l) }},
		{"audit ok", func(l i18n.Lang) message.Message {
			return Audit(Tally{Balances: 2900, OnTables: 100, Granted: 3000, Ledgered: 3000, OK: true}, l)
		}},
		{"audit bad", func(l i18n.Lang) message.Message {
			return Audit(Tally{Balances: 2900, OnTables: 150, Granted: 3000, Ledgered: 3000, Problems: 2}, l)
		}},
		{"kick done", func(l i18n.Lang) message.Message { return KickDone(hostile, l) }},
		{"kick not seated", func(l i18n.Lang) message.Message { return KickNotSeated(hostile, l) }},
		{"grant done", func(l i18n.Lang) message.Message { return GrantDone(hostile, 500, 1500, l) }},
		{"verify", func(l i18n.Lang) message.Message { return Verify(7, saltReveals(), l) }},
		{"verify cut", func(l i18n.Lang) message.Message { return Verify(9, cutReveals(), l) }},
	}
}

func TestGoldenReplies(t *testing.T) {
	for _, lang := range i18n.Langs() {
		t.Run(string(lang), func(t *testing.T) {
			var b strings.Builder
			for _, r := range replies() {
				m := r.draw(lang)
				checkHTML(t, m.Text, r.name)
				assert.Nil(t, m.Keyboard, "%s: a reply has no buttons", r.name)
				assert.NotContains(t, m.Text, "\u202e", "%s: names are shown as Name shows them", r.name)
				b.WriteString("=== " + r.name + " ===\n" + m.Text + "\n\n")
			}
			golden(t, "replies."+string(lang), b.String())
		})
	}
}

// TestHistoryStatesADuelByWhatItWon: /history shows a won duel as what it
// won, as the toast and the record do ("you win 40": +40, not the payout
// of 80 with the bet in it), with the ledger's balance after it; a payout
// whose bet it does not show beside it says what it holds; lines are
// counted after the pairing.
func TestHistoryStatesADuelByWhatItWon(t *testing.T) {
	at := time.Date(2025, 12, 5, 1, 52, 0, 0, time.UTC)
	entries := []Entry{
		{Time: at, Kind: EntryWin, Amount: 80, Balance: 1040, Game: 4, Thread: 7},
		{Time: at, Kind: EntryBet, Amount: -40, Balance: 960, Game: 4, Thread: 7},
		{Time: at, Kind: EntryWin, Amount: 20, Balance: 1000, Game: 3},
		{Time: at, Kind: EntryBonus, Amount: 100, Balance: 980},
		{Time: at, Kind: EntryBet, Amount: -10, Balance: 880, Game: 3},
		{Time: at, Kind: EntryWin, Amount: 30, Balance: 890, Game: 2},
		{Time: at, Kind: EntryBet, Amount: -15, Balance: 860, Game: 2},
	}
	lines := func(max int) []string {
		return strings.Split(History("Bob", entries, max, i18n.EN).Text, "\n")[1:]
	}
	assert.Equal(t, []string{
		"Dec\u00a05, 01:52  +40 · won, game 4 → 1\u202f040",
		"Dec\u00a05, 01:52  +20 · 10 won and the bet of 10 back, game 3 → 1\u202f000",
		"Dec\u00a05, 01:52  +100 · daily bonus → 980",
		"Dec\u00a05, 01:52  −10 · bet, game 3 → 880",
		"Dec\u00a05, 01:52  +15 · won, game 2 → 890",
	}, lines(10))
	assert.Len(t, lines(2), 2, "at most max lines, a duel one line")
	assert.Equal(t, "Dec\u00a05, 01:52  +40 · won, game 4 → 1\u202f040", lines(1)[0])
	// Another table's bet is not this payout's.
	other := append([]Entry(nil), entries[:2]...)
	other[1].Thread = 8
	assert.Equal(t, "Dec\u00a05, 01:52  +80 · 40 won and the bet of 40 back, game 4 → 1\u202f040",
		strings.Split(History("Bob", other, 10, i18n.EN).Text, "\n")[1])
	ru := strings.Split(History("Борис", entries, 10, i18n.RU).Text, "\n")
	assert.Equal(t, "5\u00a0дек., 01:52  +40 · выигрыш, игра 4 → 1\u202f040", ru[1])
	uk := strings.Split(History("Богдан", entries, 10, i18n.UK).Text, "\n")
	assert.Equal(t, "5\u00a0груд., 01:52  +40 · виграш, гра 4 → 1\u202f040", uk[1])
}
