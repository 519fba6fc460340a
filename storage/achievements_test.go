package storage

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/game/house"
)

// The players of the achievement scenarios, by the letter a script names
// them with.
var scriptUsers = map[string]game.UserID{"A": 1, "B": 2, "C": 3}

const (
	pa game.UserID = 1
	pb game.UserID = 2
	pc game.UserID = 3
)

// awardPlay plays a table with game.Apply and decides each command's
// achievements as Apply does, on user records held in memory.
type awardPlay struct {
	t      *testing.T
	table  game.Table
	now    time.Time
	rnd    *gametest.Stacked
	recs   map[game.UserID]*change
	rules  awardRules
	awards []Award
}

// Balance implements game.Balances.
func (p *awardPlay) Balance(u game.UserID) int64 { return p.recs[u].rec.balance }

func newAwardPlay(t *testing.T, decks ...string) *awardPlay {
	p := &awardPlay{t: t, now: t0, rnd: gametest.Deck(decks...), recs: map[game.UserID]*change{},
		rules: awardRules{startingChips: 1000}}
	for _, u := range scriptUsers {
		p.recs[u] = &change{rec: userRec{balance: 1000}}
	}
	return p
}

// run plays a script: commands separated by ";", each "X kind [amount]"
// with X a player's letter, or "timeout" (the clock moves to the
// deadline first). Every command must be accepted.
func (p *awardPlay) run(script string) *awardPlay {
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

// apply applies one command as storage's Apply does: transfers, stats,
// then achievements.
func (p *awardPlay) apply(cmd game.Command, step string) {
	p.t.Helper()
	env := game.Env{Now: p.now, Rand: p.rnd, Settings: game.DefaultSettings(), Balances: p}
	old := p.table
	nt, out, err := game.Apply(old, cmd, env)
	require.NoError(p.t, err, "step %q", step)
	for _, tr := range out.Transfers {
		c := p.recs[tr.User]
		c.rec.balance += tr.Amount
		c.rec.stats.Net += tr.Amount
	}
	get := func(u game.UserID) (*change, error) { return p.recs[u], nil }
	require.NoError(p.t, countStats(&old, &nt, out, get))
	got, err := countAchievements(&old, &nt, out, p.rules, get)
	require.NoError(p.t, err)
	p.awards = append(p.awards, got...)
	p.table = nt
	p.now = p.now.Add(time.Second)
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

func TestAchievementsOfOneGame(t *testing.T) {
	const duo = "A open; B join; A start; "
	const trio = "A open; B join; C join; A start; "
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
		setup  func(p *awardPlay)
		script string
		want   []Award
	}{
		{name: "Golden 21 on the whole bank breaks it", decks: []string{goldenDeck},
			script: duo + "B bet 10; B hit",
			want:   []Award{{pb, Golden21}, {pb, BrokeBank}, {pb, FirstWin}}},
		{name: "Golden 21 on half the bank leaves it", decks: []string{goldenDeck},
			script: duo + "B bet 5; B hit",
			want:   []Award{{pb, Golden21}, {pb, FirstWin}}},
		{name: "Five pictures", decks: []string{fivePicturesDeck},
			script: duo + "B bet 5; B hit; B hit; B hit; B hit",
			want:   []Award{{pb, FivePictures}, {pb, FirstWin}}},
		{name: "a plain 21 on the whole bank breaks it", decks: []string{twentyOneDeck},
			script: duo + "B bet 10; B hit",
			want:   []Award{{pb, BrokeBank}, {pb, FirstWin}}},
		{name: "the banker's Golden 21", decks: []string{bankerGoldenDeck},
			script: duo + "B bet 10; B stand",
			want:   []Award{{pa, Golden21}, {pa, FirstWin}}},
		{name: "stood at 10, the banker busts", decks: []string{bankerBustDeck},
			script: duo + "B bet 5; B stand",
			want:   []Award{{pb, SteelNerves}, {pb, FirstWin}}},
		{name: "stood at 12, the banker busts", decks: []string{"Th Jh 6h Ts 9s"},
			script: duo + "B bet 5; B hit; B stand",
			want:   []Award{{pb, SteelNerves}, {pb, FirstWin}}},
		{name: "stood at 13: no nerves of steel", decks: []string{"Th Qh 6h Ts 9s"},
			script: duo + "B bet 5; B hit; B stand",
			want:   []Award{{pb, FirstWin}}},
		{name: "stood by the clock at 10: no nerves of steel", decks: []string{bankerBustDeck},
			script: duo + "B bet 5; timeout",
			want:   []Award{{pb, FirstWin}}},
		{name: "stood at 10 and lost: no nerves of steel", decks: []string{"Th 7h Ts"},
			script: duo + "B bet 5; B stand",
			want:   []Award{{pa, FirstWin}}},
		{name: "bust at 22", decks: []string{bust22Deck},
			script: duo + "B bet 5; B hit; B hit",
			want:   []Award{{pb, OneTooMany}, {pa, FirstWin}}},
		{name: "bust at 27: not one too many", decks: []string{bust27Deck},
			script: duo + "B bet 5; B hit; B hit",
			want:   []Award{{pa, FirstWin}}},
		{name: "a knock, the banker's Golden 21, and Carol breaks the bank",
			decks:  []string{bothBustDeck, "Th Ac Ah As Ad"},
			script: knocks(1) + "; B bet 30; B stand; C bet 60; C hit",
			want:   []Award{{pa, Knock}, {pa, Golden21}, {pc, Golden21}, {pc, BrokeBank}, {pc, FirstWin}}},
		{name: "three knocks, then a fat bank swept clean", decks: []string{bothBustDeck, bothBustDeck, bothBustDeck, bothBustDeck},
			script: knocks(4),
			want:   []Award{{pa, Knock}, {pa, ThreeKnocks}, {pa, FatBank}, {pa, CleanSweep}, {pa, FirstWin}}},
		{name: "a bank of exactly ten stakes", decks: []string{bothBustDeck, bothBustDeck, "Th 9c 9h 8h"},
			script: knocks(2) + "; B bet 10; B hit; B hit; timeout",
			want:   []Award{{pa, Knock}, {pa, FatBank}, {pa, CleanSweep}, {pa, FirstWin}}},
		{name: "a bank of nine stakes, and a duel lost: neither fat nor a sweep", decks: []string{bothBustDeck, bothBustDeck, "Th Tc 9h 8h Ac"},
			script: knocks(2) + "; B bet 10; B hit; B hit; C bet 10; C hit",
			want:   []Award{{pa, Knock}, {pa, FirstWin}}},
		{name: "two duels won by the banker: too few to sweep", decks: []string{bothBustDeck},
			script: trio + "B bet 5; B hit; B hit; C bet 10; C hit; C hit",
			want:   []Award{{pa, FirstWin}}},
		{name: "a cancelled game: neither fat nor a sweep", decks: []string{bothBustDeck, bothBustDeck, bothBustDeck, bothBustDeck},
			script: knocks(3) + "; B bet 270; A cancel",
			want:   []Award{{pa, Knock}, {pa, ThreeKnocks}, {pa, FirstWin}}},
		{name: "the tenth game", decks: []string{bust27Deck},
			setup:  func(p *awardPlay) { p.recs[pb].rec.stats.Games = RegularGames - 1 },
			script: duo + "B bet 5; B hit; B hit",
			want:   []Award{{pa, FirstWin}, {pb, Regular}}},
		{name: "the ninth game", decks: []string{bust27Deck},
			setup:  func(p *awardPlay) { p.recs[pb].rec.stats.Games = RegularGames - 2 },
			script: duo + "B bet 5; B hit; B hit",
			want:   []Award{{pa, FirstWin}}},
		{name: "the hundredth game, with no achievement yet", decks: []string{bust27Deck},
			setup:  func(p *awardPlay) { p.recs[pb].rec.stats.Games = VeteranGames - 1 },
			script: duo + "B bet 5; B hit; B hit",
			want:   []Award{{pa, FirstWin}, {pb, Regular}, {pb, Veteran}}},
		{name: "earned once", decks: []string{goldenDeck},
			setup:  func(p *awardPlay) { p.recs[pb].rec.stats.Achievements = set(Golden21, FirstWin) },
			script: duo + "B bet 10; B hit",
			want:   []Award{{pb, BrokeBank}}},
		{name: "the house earns nothing", decks: []string{bankerGoldenDeck},
			setup:  func(p *awardPlay) { p.rules.none = func(u game.UserID) bool { return u == pa } },
			script: duo + "B bet 10; B stand",
			want:   nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newAwardPlay(t, tt.decks...)
			if tt.setup != nil {
				tt.setup(p)
			}
			p.run(tt.script)
			require.True(t, p.table.Finished(), "the script plays a whole game")
			assert.Equal(t, tt.want, p.awards)
			if tt.setup != nil {
				return
			}
			for u, c := range p.recs {
				var want Achievements
				for _, a := range tt.want {
					if a.User == u {
						want.add(a.Achievement)
					}
				}
				assert.Equal(t, want, c.rec.stats.Achievements, "user %d holds what they earned", u)
			}
		})
	}
}

// TestComeback: a game leaves Bob below the entry limit; what he wins back
// by play counts towards what he then lacked of the starting chips, his
// bonuses and grants do not.
func TestComeback(t *testing.T) {
	p := newAwardPlay(t, bust27Deck, bust27Deck, twentyOneDeck, bust27Deck)
	bob := &p.recs[pb].rec
	bob.balance = 105

	// Game 1, Alice banks: Bob loses 10 and has 95, below the entry limit
	// (100). He lacked 905 of the starting chips (1000): he is back once
	// his Net, now −10, reaches 895.
	p.run("A open; B join; A start; B bet 10; B hit; B hit")
	require.EqualValues(t, 95, bob.balance)
	assert.Equal(t, comebackMark{broke: true, need: 895}, bob.mark)
	assert.NotContains(t, p.awards, Award{pb, Comeback})

	// A bonus lets him sit again. Game 2, he banks and Alice busts: he
	// wins 10 by play.
	bob.balance += 100
	p.run("A start; A bet 10; A hit; A hit")
	assert.EqualValues(t, 0, bob.stats.Net)
	assert.True(t, bob.mark.broke)

	// An owner's grant takes his balance far past the starting chips: it
	// is no comeback. Game 3, Alice banks, Bob wins 10.
	bob.balance += 5000
	p.run("A start; B bet 10; B hit")
	assert.EqualValues(t, 10, bob.stats.Net)
	assert.True(t, bob.mark.broke)
	assert.NotContains(t, p.awards, Award{pb, Comeback})

	// Once his Net reaches 895 at the end of a game, the Comeback is his.
	// Game 4, he banks and wins 10 more: as if he had won 875 in games
	// since.
	bob.stats.Net += 875
	p.awards = nil
	p.run("A start; A bet 10; A hit; A hit")
	assert.Equal(t, []Award{{pb, Comeback}}, p.awards)
	assert.Equal(t, comebackMark{}, bob.mark)
}

// TestNotBrokeAtTheEntryLimit: a game that leaves a player with the entry
// limit exactly does not mark them broke.
func TestNotBrokeAtTheEntryLimit(t *testing.T) {
	p := newAwardPlay(t, bust27Deck)
	p.recs[pb].rec.balance = 110
	p.run("A open; B join; A start; B bet 10; B hit; B hit")
	assert.EqualValues(t, 100, p.recs[pb].rec.balance)
	assert.Equal(t, comebackMark{}, p.recs[pb].rec.mark)
}

func TestAchievementsSet(t *testing.T) {
	s := set(Veteran, FirstWin, Knock)
	assert.Equal(t, []Achievement{FirstWin, Knock, Veteran}, s.List())
	assert.Equal(t, 3, s.Len())
	assert.True(t, s.Has(Knock))
	assert.False(t, s.Has(Golden21))
	assert.False(t, s.Has(0))
	assert.False(t, s.Has(numAchievements))
	assert.True(t, s.valid())
	assert.False(t, (s | 1).valid(), "bit 0 names nothing")
	assert.False(t, (s | 1<<numAchievements).valid())
	all := AllAchievements()
	assert.Len(t, all, int(numAchievements)-1)
	for _, a := range all {
		assert.NotEqual(t, "unknown", a.String())
	}
	assert.Equal(t, "unknown", Achievement(numAchievements).String())
}

// duoGame plays a game of Alice and Bob in key's table, opening it first
// when it is not open: the seat after the last banker banks, and the
// other, dealt A♥, bets 5 and draws A♠: Golden 21. It returns the last
// Applied.
func duoGame(t *testing.T, s *Store, key TableKey, upd *updates) Applied {
	t.Helper()
	if v := view(t, s, key); v.Table.Phase() == game.Closed {
		apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
		apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Join}, t0)
	}
	a := apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
	i, _ := a.Table.Turn()
	p := User{ID: a.Table.Seat(i).User}
	apply(t, s, key, upd.next(), p, game.Command{Kind: game.Bet, Amount: 5}, t0)
	a = apply(t, s, key, upd.next(), p, game.Command{Kind: game.Hit}, t0)
	require.True(t, a.Table.Finished())
	return a
}

// TestAwardsAreStoredWithTheGame: a game's awards are written by the
// commands that earned them and shown with the finished game, in its
// lobby and in the record its message becomes; an achievement earned
// before is not awarded again; a redelivered update awards nothing.
func TestAwardsAreStoredWithTheGame(t *testing.T) {
	s := newStore(t, stacked(goldenDeck, goldenDeck, goldenDeck))
	key := TableKey{Chat: group}
	var upd updates

	// Game 1, Alice banks: Bob's Golden 21, then his first game won.
	a := duoGame(t, s, key, &upd)
	game1 := []Award{{bob.ID, Golden21}, {bob.ID, FirstWin}}
	assert.Equal(t, game1, a.Awards)
	assert.Equal(t, game1, view(t, s, key).Awards)
	st, err := s.Stats(ctx, group, bob.ID)
	require.NoError(t, err)
	assert.Equal(t, set(Golden21, FirstWin), st.Achievements)

	// The last update again: a duplicate, which awards nothing more.
	before := fileBytes(t, s)
	_, err = s.Apply(ctx, ApplyRequest{Key: key, UpdateID: upd.n.Load(), User: bob, Command: game.Command{Kind: game.Hit}, Now: t0})
	require.ErrorIs(t, err, ErrDuplicate)
	assert.Equal(t, before, fileBytes(t, s))

	// Game 2, Bob banks and Alice makes Golden 21: hers. The message of
	// game 1 becomes its record, with its awards.
	require.NoError(t, s.SetMessage(ctx, key, 10))
	a = duoGame(t, s, key, &upd)
	assert.Equal(t, []Award{{alice.ID, Golden21}, {alice.ID, FirstWin}}, a.Awards)
	require.Len(t, a.Retiring, 1)
	assert.Equal(t, game1, a.Retiring[0].Awards)

	// Game 3, Alice banks: Bob's second Golden 21 and game won award
	// nothing.
	a = duoGame(t, s, key, &upd)
	assert.Empty(t, a.Awards)
	st, err = s.Stats(ctx, group, bob.ID)
	require.NoError(t, err)
	assert.Equal(t, 2, st.Golden21s)
	assert.Equal(t, set(Golden21, FirstWin), st.Achievements)

	// Mid-game, no awards are read or shown.
	a = apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
	assert.Empty(t, a.Awards)
}

// TestAwardsInTheFailedTransaction: awards are written in the command's
// transaction: when it fails, nothing of them is, and the command applied
// again earns them once.
func TestAwardsInTheFailedTransaction(t *testing.T) {
	var in injector
	s := newStore(t, in.into(stacked(goldenDeck)))
	key := TableKey{Chat: group}
	apply(t, s, key, 1, alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, 2, bob, game.Command{Kind: game.Join}, t0)
	apply(t, s, key, 3, alice, game.Command{Kind: game.Start}, t0)
	apply(t, s, key, 4, bob, game.Command{Kind: game.Bet, Amount: 5}, t0)
	boom := errors.New("injected")
	in.failAfter(func(_ TableKey, stage string) error {
		if stage == applySteps[len(applySteps)-1].name {
			return boom
		}
		return nil
	})
	hit := ApplyRequest{Key: key, UpdateID: 5, User: bob, Command: game.Command{Kind: game.Hit}, Now: t0}
	_, err := s.Apply(ctx, hit)
	require.ErrorIs(t, err, boom)
	st, err := s.Stats(ctx, group, bob.ID)
	require.NoError(t, err)
	assert.Zero(t, st.Achievements)
	assert.Zero(t, st.Golden21s)

	in.clear()
	a, err := s.Apply(ctx, hit)
	require.NoError(t, err)
	assert.Equal(t, []Award{{bob.ID, Golden21}, {bob.ID, FirstWin}}, a.Awards)
}

// TestNoAchievementsForTheHouse: the users NoAchievements names earn none,
// by default the house, whose stats still count.
func TestNoAchievementsForTheHouse(t *testing.T) {
	t.Run("by default", func(t *testing.T) {
		s := newStore(t, stacked(goldenDeck))
		var upd updates
		key := TableKey{Chat: group}
		apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
		apply(t, s, key, upd.next(), theHouse, game.Command{Kind: game.Join}, t0)
		apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
		apply(t, s, key, upd.next(), theHouse, game.Command{Kind: game.Bet, Amount: 5}, t0)
		a := apply(t, s, key, upd.next(), theHouse, game.Command{Kind: game.Hit}, t0)
		require.True(t, a.Table.Finished())
		assert.Empty(t, a.Awards, "the house's Golden 21 and first win earn nothing")
		st, err := s.Stats(ctx, group, house.ID)
		require.NoError(t, err)
		assert.Equal(t, 1, st.Golden21s)
		assert.Zero(t, st.Achievements)
	})
	t.Run("as the options say", testNoAchievementsOption)
}

func testNoAchievementsOption(t *testing.T) {
	opts := stacked(goldenDeck)
	opts.NoAchievements = func(u game.UserID) bool { return u == bob.ID }
	s := newStore(t, opts)
	var upd updates
	a := duoGame(t, s, TableKey{Chat: group}, &upd)
	assert.Empty(t, a.Awards)
	st, err := s.Stats(ctx, group, bob.ID)
	require.NoError(t, err)
	assert.Equal(t, 1, st.Golden21s, "the house's stats count as anyone's")
	assert.Zero(t, st.Achievements)
}

// TestMigrateChatKeepsAchievements: the achievements of the users and the
// awards of the games move with the chat, and join those the supergroup
// held.
func TestMigrateChatKeepsAchievements(t *testing.T) {
	s := newStore(t, stacked(goldenDeck, goldenDeck))
	var upd updates
	duoGame(t, s, TableKey{Chat: group}, &upd)
	// The supergroup saw Alice and Bob already: Alice made a Golden 21
	// there; the game is game 1 of its table too.
	sg := TableKey{Chat: supergroup, Thread: 7}
	apply(t, s, sg, upd.next(), bob, game.Command{Kind: game.Open}, t0)
	apply(t, s, sg, upd.next(), alice, game.Command{Kind: game.Join}, t0)
	a := duoGame(t, s, sg, &upd)
	require.Equal(t, []Award{{alice.ID, Golden21}, {alice.ID, FirstWin}}, a.Awards)

	require.NoError(t, s.MigrateChat(ctx, group, supergroup))
	v := view(t, s, TableKey{Chat: supergroup})
	assert.Equal(t, []Award{{bob.ID, Golden21}, {bob.ID, FirstWin}}, v.Awards, "the group's game, moved")
	assert.Equal(t, []Award{{alice.ID, Golden21}, {alice.ID, FirstWin}}, view(t, s, sg).Awards)
	for _, u := range []User{alice, bob} {
		st, err := s.Stats(ctx, supergroup, u.ID)
		require.NoError(t, err)
		assert.Equal(t, set(Golden21, FirstWin), st.Achievements, u.Name)
	}
}

func TestMergeUsersAchievements(t *testing.T) {
	broke := func(need, net int64) userRec {
		return userRec{stats: Stats{Net: net}, mark: comebackMark{broke: true, need: need}}
	}
	tests := []struct {
		name string
		a, b userRec
		want comebackMark
	}{
		{"neither broke", userRec{stats: Stats{Net: 5}}, userRec{stats: Stats{Net: -5}}, comebackMark{}},
		{"the old chat's, moved by the new chat's Net", userRec{stats: Stats{Net: 30}}, broke(100, -50), comebackMark{true, 130}},
		{"the new chat's, moved by the old chat's Net", broke(100, -50), userRec{stats: Stats{Net: -20}}, comebackMark{true, 80}},
		{"both: the nearer", broke(100, 0), broke(500, 0), comebackMark{true, 100}},
		{"none once it is earned", broke(100, 0), userRec{stats: Stats{Achievements: set(Comeback)}}, comebackMark{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mergeUsers(tt.a, tt.b)
			assert.Equal(t, tt.want, m.mark)
			assert.Equal(t, tt.a.stats.Achievements|tt.b.stats.Achievements, m.stats.Achievements)
		})
	}
}

func TestUserRecordWithAchievements(t *testing.T) {
	plain := userRec{balance: 5, name: "Bob", lastEntry: 3}
	enc := plain.encode()
	for _, u := range []userRec{
		plain,
		{balance: 5, name: "Bob", lastEntry: 3, stats: Stats{Achievements: set(Knock, Veteran)}},
		{balance: 5, name: "Bob", lastEntry: 3, mark: comebackMark{broke: true, need: -70}},
		{balance: 5, name: "Bob", lastEntry: 3, stats: Stats{Achievements: set(FirstWin)}, mark: comebackMark{broke: true, need: 900}},
	} {
		got, err := decodeUser(u.encode())
		require.NoError(t, err)
		assert.Equal(t, u, got)
	}
	assert.Equal(t, byte(3), enc[len(enc)-1], "with none, the record ends at its last entry")

	bad := append(plain.encode(), 1) // bit 0: no achievement
	_, err := decodeUser(bad)
	assert.ErrorIs(t, err, errRecord)
}

func TestCorruptAwards(t *testing.T) {
	s := newStore(t, stacked(goldenDeck))
	key := TableKey{Chat: group}
	var upd updates
	duoGame(t, s, key, &upd)
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketAwards).Put(awardsKey(key, 1), []byte{recordFormat, 2, 99})
	}))
	_, err := s.View(ctx, key)
	assert.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "awards of chat")
}
