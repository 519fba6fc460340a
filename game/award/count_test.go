package award_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// The players of the scripts, by the letter a script names them with.
var scriptUsers = map[string]game.UserID{"A": 1, "B": 2, "C": 3}

const (
	pa game.UserID = 1
	pb game.UserID = 2
	pc game.UserID = 3
)

var t0 = time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)

// play plays a table with game.Apply and counts each command with Count,
// as storage does, on players held in memory.
type play struct {
	t       *testing.T
	table   game.Table
	now     time.Time
	rnd     *gametest.Stacked
	players map[game.UserID]*award.Player
	rules   award.Rules
	awards  []award.Award
}

// Balance implements game.Balances.
func (p *play) Balance(u game.UserID) int64 { return p.players[u].Balance }

func newPlay(t *testing.T, decks ...string) *play {
	p := &play{t: t, now: t0, rnd: gametest.Deck(decks...), players: map[game.UserID]*award.Player{},
		rules: award.Rules{StartingChips: 1000}}
	for _, u := range scriptUsers {
		p.players[u] = &award.Player{User: u, Balance: 1000}
	}
	return p
}

// run plays a script: commands separated by ";", each "X kind [amount]"
// with X a player's letter, or "timeout" (the clock moves to the
// deadline first). Every command must be accepted.
func (p *play) run(script string) *play {
	p.t.Helper()
	for _, step := range strings.Split(script, ";") {
		f := strings.Fields(step)
		require.NotEmpty(p.t, f, "script %q", script)
		var cmd game.Command
		if f[0] == "timeout" {
			cmd.Kind = game.Timeout
			p.now = p.table.Deadline()
		} else {
			u, ok := scriptUsers[f[0]]
			require.True(p.t, ok, "step %q", step)
			cmd = game.Command{User: u, Name: f[0], Kind: map[string]game.CommandKind{"open": game.Open, "join": game.Join,
				"start": game.Start, "bet": game.Bet, "hit": game.Hit, "stand": game.Stand, "cancel": game.Cancel, "leave": game.Leave}[f[1]]}
			if len(f) > 2 {
				n, err := strconv.ParseInt(f[2], 10, 64)
				require.NoError(p.t, err)
				cmd.Amount = n
			}
		}
		p.apply(cmd, step)
	}
	return p
}

// apply applies one command as storage does: the transfers to the
// balances, then Count, whose players replace those it read.
func (p *play) apply(cmd game.Command, step string) {
	p.t.Helper()
	env := game.Env{Now: p.now, Rand: p.rnd, Settings: game.DefaultSettings(), Balances: p}
	old := p.table
	nt, out, err := game.Apply(old, cmd, env)
	require.NoError(p.t, err, "step %q", step)
	for _, tr := range out.Transfers {
		p.players[tr.User].Balance += tr.Amount
	}
	read := map[game.UserID]int{}
	lookup := func(u game.UserID) (award.Player, error) {
		read[u]++
		pl, ok := p.players[u]
		if !ok {
			return award.Player{}, fmt.Errorf("no user %d", u)
		}
		return *pl, nil
	}
	got, awards, err := award.Count(&old, &nt, out, p.rules, lookup)
	require.NoError(p.t, err, "step %q", step)
	require.Len(p.t, got, len(read), "step %q: every user read is returned", step)
	for _, pl := range got {
		require.Equal(p.t, 1, read[pl.User], "step %q: user %d read once", step, pl.User)
		require.Equal(p.t, p.players[pl.User].Balance, pl.Balance, "step %q: the balance is left as it was", step)
		*p.players[pl.User] = pl
	}
	p.awards = append(p.awards, awards...)
	p.table = nt
	p.now = p.now.Add(time.Second)
}

// set returns the set of the achievements as.
func set(as ...award.Achievement) award.Set {
	var s award.Set
	for _, a := range as {
		s |= 1 << a
	}
	return s
}

// Decks of the scenarios. A deck lists the cards dealt (to the players in
// seat order after the banker), then those drawn, in order.
const (
	// Bob is dealt A♥ and draws A♠: Golden 21.
	goldenDeck = "Ah As"
	// Bob is dealt J♠ and draws Q♥ K♦ J♥ Q♠: Five pictures.
	fivePicturesDeck = "Js Qh Kd Jh Qs"
	// Bob is dealt 10♥; the banker draws A♥ A♠: Golden 21.
	bankerGoldenDeck = "Th Ah As"
	// Bob is dealt 10♥; the banker draws 6♥ 10♠ 9♠: bust at 25.
	bankerBustDeck = "Th 6h Ts 9s"
	// Bob is dealt 10♥ and draws Q♥ 9♥: bust at 22.
	bust22Deck = "Th Qh 9h"
	// Bob is dealt 10♥ and draws 9♥ 8♥: bust at 27.
	bust27Deck = "Th 9h 8h"
	// Bob is dealt 10♥ and draws A♥: 21.
	twentyOneDeck = "Th Ah"
	// Bob and Carol are dealt 10♥ 10♣ and each draws a 9 and an 8: both
	// bust at 27.
	bothBustDeck = "Th Tc 9h 8h 9c 8c"
)

// Alice opens, Bob (and Carol) join, Alice starts and banks.
const (
	duo  = "A open; B join; A start; "
	trio = "A open; B join; C join; A start; "
)

func TestCountAchievements(t *testing.T) {
	// knocks plays n circles in which Bob bets the whole bank and Carol
	// half of it, and both go bust: the bank triples each circle (10, 30,
	// 90, 270 ...), so that each but the fourth ends with a knock.
	knocks := func(n int) string {
		var steps []string
		bank := int64(10)
		for range n {
			b := strconv.FormatInt(bank, 10)
			steps = append(steps, "B bet "+b+"; B hit; B hit; C bet "+b+"; C hit; C hit")
			bank *= 3
		}
		return trio + strings.Join(steps, "; ")
	}
	tests := []struct {
		name   string
		decks  []string
		setup  func(p *play)
		script string
		want   []award.Award
	}{
		{name: "Golden 21 on the whole bank breaks it", decks: []string{goldenDeck},
			script: duo + "B bet 10; B hit",
			want:   []award.Award{{pb, award.Golden21}, {pb, award.BrokeBank}, {pb, award.FirstWin}}},
		{name: "Golden 21 on half the bank leaves it", decks: []string{goldenDeck},
			script: duo + "B bet 5; B hit",
			want:   []award.Award{{pb, award.Golden21}, {pb, award.FirstWin}}},
		{name: "Five pictures", decks: []string{fivePicturesDeck},
			script: duo + "B bet 5; B hit; B hit; B hit; B hit",
			want:   []award.Award{{pb, award.FivePictures}, {pb, award.FirstWin}}},
		{name: "a plain 21 on the whole bank breaks it", decks: []string{twentyOneDeck},
			script: duo + "B bet 10; B hit",
			want:   []award.Award{{pb, award.BrokeBank}, {pb, award.FirstWin}}},
		{name: "the banker's Golden 21", decks: []string{bankerGoldenDeck},
			script: duo + "B bet 10; B stand",
			want:   []award.Award{{pa, award.Golden21}, {pa, award.FirstWin}}},
		{name: "stood at 10, the banker busts", decks: []string{bankerBustDeck},
			script: duo + "B bet 5; B stand",
			want:   []award.Award{{pb, award.SteelNerves}, {pb, award.FirstWin}}},
		{name: "stood at 12, the banker busts", decks: []string{"Th Jh 6h Ts 9s"},
			script: duo + "B bet 5; B hit; B stand",
			want:   []award.Award{{pb, award.SteelNerves}, {pb, award.FirstWin}}},
		{name: "stood at 13: no nerves of steel", decks: []string{"Th Qh 6h Ts 9s"},
			script: duo + "B bet 5; B hit; B stand",
			want:   []award.Award{{pb, award.FirstWin}}},
		{name: "stood by the clock at 10: no nerves of steel", decks: []string{bankerBustDeck},
			script: duo + "B bet 5; timeout",
			want:   []award.Award{{pb, award.FirstWin}}},
		{name: "stood at 10 and lost: no nerves of steel", decks: []string{"Th 7h Ts"},
			script: duo + "B bet 5; B stand",
			want:   []award.Award{{pa, award.FirstWin}}},
		{name: "bust at 22", decks: []string{bust22Deck},
			script: duo + "B bet 5; B hit; B hit",
			want:   []award.Award{{pb, award.OneTooMany}, {pa, award.FirstWin}}},
		{name: "bust at 27: not one too many", decks: []string{bust27Deck},
			script: duo + "B bet 5; B hit; B hit",
			want:   []award.Award{{pa, award.FirstWin}}},
		{name: "a knock, the banker's Golden 21, and Carol breaks the bank",
			decks:  []string{bothBustDeck, "Th Ac Ah As Ad"},
			script: knocks(1) + "; B bet 30; B stand; C bet 60; C hit",
			want: []award.Award{{pa, award.Knock}, {pa, award.Golden21}, {pc, award.Golden21}, {pc, award.BrokeBank},
				{pc, award.FirstWin}}},
		{name: "three knocks, then a fat bank swept clean", decks: []string{bothBustDeck, bothBustDeck, bothBustDeck, bothBustDeck},
			script: knocks(4),
			want: []award.Award{{pa, award.Knock}, {pa, award.ThreeKnocks}, {pa, award.FatBank}, {pa, award.CleanSweep},
				{pa, award.FirstWin}}},
		{name: "a bank of exactly ten stakes", decks: []string{bothBustDeck, bothBustDeck, "Th 9c 9h 8h"},
			script: knocks(2) + "; B bet 10; B hit; B hit; timeout",
			want:   []award.Award{{pa, award.Knock}, {pa, award.FatBank}, {pa, award.CleanSweep}, {pa, award.FirstWin}}},
		{name: "a bank of nine stakes, and a duel lost: neither fat nor a sweep", decks: []string{bothBustDeck, bothBustDeck, "Th Tc 9h 8h Ac"},
			script: knocks(2) + "; B bet 10; B hit; B hit; C bet 10; C hit",
			want:   []award.Award{{pa, award.Knock}, {pa, award.FirstWin}}},
		{name: "two duels won by the banker: too few to sweep", decks: []string{bothBustDeck},
			script: trio + "B bet 5; B hit; B hit; C bet 10; C hit; C hit",
			want:   []award.Award{{pa, award.FirstWin}}},
		{name: "a cancelled game: neither fat nor a sweep", decks: []string{bothBustDeck, bothBustDeck, bothBustDeck, bothBustDeck},
			script: knocks(3) + "; B bet 270; A cancel",
			want:   []award.Award{{pa, award.Knock}, {pa, award.ThreeKnocks}, {pa, award.FirstWin}}},
		{name: "the tenth game", decks: []string{bust27Deck},
			setup:  func(p *play) { p.players[pb].Stats.Games = award.RegularGames - 1 },
			script: duo + "B bet 5; B hit; B hit",
			want:   []award.Award{{pa, award.FirstWin}, {pb, award.Regular}}},
		{name: "the ninth game", decks: []string{bust27Deck},
			setup:  func(p *play) { p.players[pb].Stats.Games = award.RegularGames - 2 },
			script: duo + "B bet 5; B hit; B hit",
			want:   []award.Award{{pa, award.FirstWin}}},
		{name: "the hundredth game, with no achievement yet", decks: []string{bust27Deck},
			setup:  func(p *play) { p.players[pb].Stats.Games = award.VeteranGames - 1 },
			script: duo + "B bet 5; B hit; B hit",
			want:   []award.Award{{pa, award.FirstWin}, {pb, award.Regular}, {pb, award.Veteran}}},
		{name: "earned once", decks: []string{goldenDeck},
			setup:  func(p *play) { p.players[pb].Stats.Achievements = set(award.Golden21, award.FirstWin) },
			script: duo + "B bet 10; B hit",
			want:   []award.Award{{pb, award.BrokeBank}}},
		{name: "the house earns nothing", decks: []string{bankerGoldenDeck},
			setup:  func(p *play) { p.rules.NoAchievements = func(u game.UserID) bool { return u == pa } },
			script: duo + "B bet 10; B stand",
			want:   nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPlay(t, tt.decks...)
			if tt.setup != nil {
				tt.setup(p)
			}
			p.run(tt.script)
			require.True(t, p.table.Finished(), "the script plays a whole game")
			assert.Equal(t, tt.want, p.awards)
			if tt.setup != nil {
				return
			}
			for u, pl := range p.players {
				var want award.Set
				for _, a := range tt.want {
					if a.User == u {
						want |= 1 << a.Achievement
					}
				}
				assert.Equal(t, want, pl.Stats.Achievements, "user %d holds what they earned", u)
			}
		})
	}
}

// TestCountStats: the stats a game counts, added to those the players
// had.
func TestCountStats(t *testing.T) {
	tests := []struct {
		name   string
		decks  []string
		before map[game.UserID]award.Stats
		script string
		want   map[game.UserID]award.Stats
	}{
		{name: "the player's Golden 21 on the whole bank", decks: []string{goldenDeck},
			script: duo + "B bet 10; B hit",
			want: map[game.UserID]award.Stats{
				pa: {Games: 1, GamesAsBanker: 1, DuelsLost: 1, Net: -10},
				pb: {Games: 1, DuelsWon: 1, Net: 10, BiggestWin: 10, Golden21s: 1, Achievements: set(award.Golden21, award.BrokeBank, award.FirstWin)},
			}},
		{name: "the player's Five pictures", decks: []string{fivePicturesDeck},
			script: duo + "B bet 5; B hit; B hit; B hit; B hit",
			want: map[game.UserID]award.Stats{
				pa: {Games: 1, GamesAsBanker: 1, DuelsLost: 1, Net: -5},
				pb: {Games: 1, DuelsWon: 1, Net: 5, BiggestWin: 5, FivePictures: 1, Achievements: set(award.FivePictures, award.FirstWin)},
			}},
		{name: "the banker's Golden 21, added to what they had", decks: []string{bankerGoldenDeck},
			before: map[game.UserID]award.Stats{
				pa: {Games: 4, GamesAsBanker: 2, DuelsWon: 3, DuelsLost: 5, Net: -40, BiggestWin: 30, Golden21s: 1},
				pb: {Games: 2, DuelsWon: 1, Net: 25, BiggestWin: 20},
			},
			script: duo + "B bet 10; B stand",
			want: map[game.UserID]award.Stats{
				pa: {Games: 5, GamesAsBanker: 3, DuelsWon: 4, DuelsLost: 5, Net: -30, BiggestWin: 30, Golden21s: 2,
					Achievements: set(award.Golden21, award.FirstWin)},
				pb: {Games: 3, DuelsWon: 1, DuelsLost: 1, Net: 15, BiggestWin: 20},
			}},
		{name: "two players bust", decks: []string{bothBustDeck},
			script: trio + "B bet 5; B hit; B hit; C bet 10; C hit; C hit",
			want: map[game.UserID]award.Stats{
				pa: {Games: 1, GamesAsBanker: 1, DuelsWon: 2, Net: 15, BiggestWin: 15, Achievements: set(award.FirstWin)},
				pb: {Games: 1, DuelsLost: 1, Net: -5},
				pc: {Games: 1, DuelsLost: 1, Net: -10},
			}},
		{name: "a game cancelled before a duel", decks: []string{goldenDeck},
			script: duo + "A cancel",
			want: map[game.UserID]award.Stats{
				pa: {Games: 1, GamesAsBanker: 1},
				pb: {Games: 1},
				pc: {},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPlay(t, tt.decks...)
			for u, st := range tt.before {
				p.players[u].Stats = st
			}
			p.run(tt.script)
			require.True(t, p.table.Finished(), "the script plays a whole game")
			for u, want := range tt.want {
				assert.Equal(t, want, p.players[u].Stats, "user %d", u)
			}
			var balances int64
			for _, pl := range p.players {
				balances += pl.Balance
			}
			assert.Equal(t, int64(3000), balances+p.table.Chips(), "chips are conserved")
		})
	}
}

// TestComeback: a game leaves Bob below the entry limit; what he wins back
// by play counts towards what he then lacked of the starting chips, his
// bonuses and grants do not.
func TestComeback(t *testing.T) {
	p := newPlay(t, bust27Deck, bust27Deck, twentyOneDeck, bust27Deck)
	bob := p.players[pb]
	bob.Balance = 105

	// Game 1, Alice banks: Bob loses 10 and has 95, below the entry limit
	// (100). He lacked 905 of the starting chips (1000): he is back once
	// his Net, now −10, reaches 895.
	p.run(duo + "B bet 10; B hit; B hit")
	require.EqualValues(t, 95, bob.Balance)
	assert.Equal(t, award.Mark{Broke: true, Need: 895}, bob.Mark)
	assert.NotContains(t, p.awards, award.Award{User: pb, Achievement: award.Comeback})

	// A bonus lets him sit again. Game 2, he banks and Alice busts: he
	// wins 10 by play.
	bob.Balance += 100
	p.run("A start; A bet 10; A hit; A hit")
	assert.EqualValues(t, 0, bob.Stats.Net)
	assert.True(t, bob.Mark.Broke)

	// An owner's grant takes his balance far past the starting chips: it
	// is no comeback. Game 3, Alice banks, Bob wins 10.
	bob.Balance += 5000
	p.run("A start; B bet 10; B hit")
	assert.EqualValues(t, 10, bob.Stats.Net)
	assert.True(t, bob.Mark.Broke)
	assert.NotContains(t, p.awards, award.Award{User: pb, Achievement: award.Comeback})

	// Once his Net reaches 895 at the end of a game, the Comeback is his.
	// Game 4, he banks and wins 10 more: as if he had won 875 in games
	// since.
	bob.Stats.Net += 875
	p.awards = nil
	p.run("A start; A bet 10; A hit; A hit")
	assert.Equal(t, []award.Award{{User: pb, Achievement: award.Comeback}}, p.awards)
	assert.Equal(t, award.Mark{}, bob.Mark)
}

// TestNotBrokeAtTheEntryLimit: a game that leaves a player with the entry
// limit exactly does not mark them broke.
func TestNotBrokeAtTheEntryLimit(t *testing.T) {
	p := newPlay(t, bust27Deck)
	p.players[pb].Balance = 110
	p.run(duo + "B bet 10; B hit; B hit")
	assert.EqualValues(t, 100, p.players[pb].Balance)
	assert.Equal(t, award.Mark{}, p.players[pb].Mark)
}

// TestCountLookupFails: an error of the lookup stops Count, which returns
// it and nothing else.
func TestCountLookupFails(t *testing.T) {
	p := newPlay(t, goldenDeck)
	p.run(duo + "B bet 10")
	old := p.table
	nt, out, err := game.Apply(old, game.Command{User: pb, Kind: game.Hit}, game.Env{Now: p.now, Rand: p.rnd, Settings: game.DefaultSettings(), Balances: p})
	require.NoError(t, err)
	boom := errors.New("no such user")
	players, awards, err := award.Count(&old, &nt, out, p.rules, func(u game.UserID) (award.Player, error) {
		if u == pa {
			return award.Player{}, boom
		}
		return *p.players[u], nil
	})
	assert.ErrorIs(t, err, boom)
	assert.Nil(t, players)
	assert.Nil(t, awards)
}

func TestMerge(t *testing.T) {
	broke := func(need, net int64) award.Record {
		return award.Record{Stats: award.Stats{Net: net}, Mark: award.Mark{Broke: true, Need: need}}
	}
	net := func(n int64) award.Record { return award.Record{Stats: award.Stats{Net: n}} }
	tests := []struct {
		name string
		a, b award.Record
		want award.Record
	}{
		{"the counts add up, the biggest win is the larger, the achievements join",
			award.Record{Stats: award.Stats{Games: 3, GamesAsBanker: 1, DuelsWon: 2, DuelsLost: 4, Net: 20, BiggestWin: 15, Golden21s: 1,
				Achievements: set(award.FirstWin, award.Golden21)}},
			award.Record{Stats: award.Stats{Games: 7, GamesAsBanker: 2, DuelsWon: 5, DuelsLost: 1, Net: -5, BiggestWin: 40, FivePictures: 1,
				Achievements: set(award.FirstWin, award.FivePictures)}},
			award.Record{Stats: award.Stats{Games: 10, GamesAsBanker: 3, DuelsWon: 7, DuelsLost: 5, Net: 15, BiggestWin: 40, Golden21s: 1,
				FivePictures: 1, Achievements: set(award.FirstWin, award.Golden21, award.FivePictures)}}},
		{"neither broke", net(5), net(-5), net(0)},
		{"the old chat's mark, moved by the new chat's Net", net(30), broke(100, -50),
			award.Record{Stats: award.Stats{Net: -20}, Mark: award.Mark{Broke: true, Need: 130}}},
		{"the new chat's mark, moved by the old chat's Net", broke(100, -50), net(-20),
			award.Record{Stats: award.Stats{Net: -70}, Mark: award.Mark{Broke: true, Need: 80}}},
		{"both broke: the nearer", broke(100, 0), broke(500, 0), broke(100, 0)},
		{"no mark once Comeback is earned", broke(100, 0), award.Record{Stats: award.Stats{Achievements: set(award.Comeback)}},
			award.Record{Stats: award.Stats{Achievements: set(award.Comeback)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, award.Merge(tt.a, tt.b))
		})
	}
}
