package storage

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
	"github.com/twentyone-bot/twentyone/game/house"
)

// goldenDeck deals Bob A♥, and he draws A♠: Golden 21.
const goldenDeck = "Ah As"

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
	game1 := []award.Award{{User: bob.ID, Achievement: award.Golden21}, {User: bob.ID, Achievement: award.FirstWin}}
	assert.Equal(t, game1, a.Awards)
	assert.Equal(t, game1, view(t, s, key).Awards)
	st, err := s.Stats(ctx, group, bob.ID)
	require.NoError(t, err)
	assert.Equal(t, set(award.Golden21, award.FirstWin), st.Achievements)

	// The last update again: a duplicate, which awards nothing more.
	before := fileBytes(t, s)
	_, err = s.Apply(ctx, ApplyRequest{Key: key, UpdateID: upd.n.Load(), User: bob, Command: game.Command{Kind: game.Hit}, Now: t0})
	require.ErrorIs(t, err, ErrDuplicate)
	assert.Equal(t, before, fileBytes(t, s))

	// Game 2, Bob banks and Alice makes Golden 21: hers. The message of
	// game 1 becomes its record, with its awards.
	require.NoError(t, s.SetMessage(ctx, key, 10))
	a = duoGame(t, s, key, &upd)
	assert.Equal(t, []award.Award{{User: alice.ID, Achievement: award.Golden21}, {User: alice.ID, Achievement: award.FirstWin}}, a.Awards)
	require.Len(t, a.Retiring, 1)
	assert.Equal(t, game1, a.Retiring[0].Awards)

	// Game 3, Alice banks: Bob's second Golden 21 and game won award
	// nothing.
	a = duoGame(t, s, key, &upd)
	assert.Empty(t, a.Awards)
	st, err = s.Stats(ctx, group, bob.ID)
	require.NoError(t, err)
	assert.Equal(t, 2, st.Golden21s)
	assert.Equal(t, set(award.Golden21, award.FirstWin), st.Achievements)

	// Mid-game, no awards are read or shown.
	a = apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
	assert.Empty(t, a.Awards)
}

// TestAwardsInTheFailedTransaction: awards are written in the command's
// transaction: when it fails, nothing of them is, and the command applied
// again earns them once.
func TestAwardsInTheFailedTransaction(t *testing.T) {
	var in injector
	s := newFaultyStore(t, stacked(goldenDeck), in.faults())
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
	assert.Equal(t, []award.Award{{User: bob.ID, Achievement: award.Golden21}, {User: bob.ID, Achievement: award.FirstWin}}, a.Awards)
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
	require.Equal(t, []award.Award{{User: alice.ID, Achievement: award.Golden21}, {User: alice.ID, Achievement: award.FirstWin}}, a.Awards)

	require.NoError(t, s.MigrateChat(ctx, group, supergroup))
	v := view(t, s, TableKey{Chat: supergroup})
	assert.Equal(t, []award.Award{{User: bob.ID, Achievement: award.Golden21}, {User: bob.ID, Achievement: award.FirstWin}}, v.Awards, "the group's game, moved")
	assert.Equal(t, []award.Award{{User: alice.ID, Achievement: award.Golden21}, {User: alice.ID, Achievement: award.FirstWin}}, view(t, s, sg).Awards)
	for _, u := range []User{alice, bob} {
		st, err := s.Stats(ctx, supergroup, u.ID)
		require.NoError(t, err)
		assert.Equal(t, set(award.Golden21, award.FirstWin), st.Achievements, u.Name)
	}
}

func TestUserRecordWithAchievements(t *testing.T) {
	plain := userRec{balance: 5, name: "Bob", lastEntry: 3}
	enc := plain.encode()
	for _, u := range []userRec{
		plain,
		{balance: 5, name: "Bob", lastEntry: 3, Record: award.Record{Stats: award.Stats{Achievements: set(award.Knock, award.Veteran)}}},
		{balance: 5, name: "Bob", lastEntry: 3, Record: award.Record{Mark: award.Mark{Broke: true, Need: -70}}},
		{balance: 5, name: "Bob", lastEntry: 3, Record: award.Record{Stats: award.Stats{Achievements: set(award.FirstWin)},
			Mark: award.Mark{Broke: true, Need: 900}}},
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
