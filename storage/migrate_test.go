package storage

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

const supergroup = int64(-1009999999999)

func TestMigrateChat(t *testing.T) {
	s := newStore(t, stacked(fullGameDeck, fullGameDeck))
	old := TableKey{Chat: group}
	var upd updates
	playFullGame(t, s, old, &upd)
	// A second game is under way, with Bob's bet on the table, when the
	// group becomes a supergroup.
	apply(t, s, old, upd.next(), bob, game.Command{Kind: game.Start}, t0)
	a := apply(t, s, old, upd.next(), carol, game.Command{Kind: game.Bet, Amount: 5}, t0)
	require.Equal(t, game.Drawing, a.Table.Phase())
	require.NoError(t, s.SetMessage(ctx, old, 4242))
	_, err := s.UpdateSettings(ctx, group, func(c *ChatSettings) error { c.Game.MaxKnocks = 1; return nil })
	require.NoError(t, err)
	before, err := s.Audit(ctx, group)
	require.NoError(t, err)
	require.True(t, before.OK, before.Problems)
	histBefore, err := s.History(ctx, group, bob.ID, 0)
	require.NoError(t, err)
	statsBefore, err := s.Stats(ctx, group, bob.ID)
	require.NoError(t, err)

	require.NoError(t, s.MigrateChat(ctx, group, supergroup))
	require.NoError(t, s.MigrateChat(ctx, group, supergroup), "the second report of the same upgrade does nothing")

	newKey := TableKey{Chat: supergroup}
	v, err := s.View(ctx, newKey)
	require.NoError(t, err)
	assert.Equal(t, a.Table.Version(), v.Table.Version())
	assert.Equal(t, game.Drawing, v.Table.Phase())
	assert.Equal(t, 4242, v.MessageID)
	assert.Equal(t, 1, v.Settings.Game.MaxKnocks)
	assert.Equal(t, "ru", v.Settings.Language)
	assert.Equal(t, a.Balances, v.Balances)

	// The old id leads to the new chat.
	ov, err := s.View(ctx, old)
	require.NoError(t, err)
	assert.Equal(t, newKey, ov.Key)
	after, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.Equal(t, supergroup, after.Chat)
	before.Chat = supergroup
	assert.Equal(t, before, after)

	hist, err := s.History(ctx, supergroup, bob.ID, 0)
	require.NoError(t, err)
	require.Len(t, hist, len(histBefore))
	for i := range hist {
		histBefore[i].Chat = supergroup
	}
	assert.Equal(t, histBefore, hist)
	st, err := s.Stats(ctx, supergroup, bob.ID)
	require.NoError(t, err)
	assert.Equal(t, statsBefore, st)
	rv, err := s.Reveals(ctx, supergroup, 1)
	require.NoError(t, err)
	assert.Len(t, rv, 1)
	lb, err := s.Leaderboard(ctx, supergroup, 3)
	require.NoError(t, err)
	assert.Len(t, lb, 3)
	timers, err := s.Timers(ctx)
	require.NoError(t, err)
	require.Len(t, timers, 1)
	assert.Equal(t, newKey, timers[0].Key)

	// Play goes on, through either id; the update ids carry over, with the
	// answer of the last.
	dup, err := s.Apply(ctx, ApplyRequest{Key: old, UpdateID: upd.n.Load(), User: carol, Command: game.Command{Kind: game.Bet, Amount: 5}, Now: t0})
	assert.ErrorIs(t, err, ErrDuplicate)
	assert.Equal(t, answerOf(carol.ID, &a.Outcome), dup.Outcome.Events)
	assert.NotEmpty(t, dup.Outcome.Events)
	a = apply(t, s, old, upd.next(), carol, game.Command{Kind: game.Stand}, t0)
	assert.Equal(t, newKey, a.Key)
	all, err := s.AuditAll(ctx)
	require.NoError(t, err)
	require.Len(t, all, 1, "the old chat is no longer audited on its own")
	assert.True(t, all[0].OK, all[0].Problems)

	assert.ErrorIs(t, s.MigrateChat(ctx, group, 31337), game.ErrInvalidInput, "already moved elsewhere")
	assert.ErrorIs(t, s.MigrateChat(ctx, supergroup, group), game.ErrInvalidInput, "a cycle")
	assert.ErrorIs(t, s.MigrateChat(ctx, group, group), game.ErrInvalidInput)
}

func TestMigrateChatMerge(t *testing.T) {
	s := newStore(t, stacked())
	old := TableKey{Chat: group}
	apply(t, s, old, 1, alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, old, 2, bob, game.Command{Kind: game.Join}, t0)
	apply(t, s, old, 3, alice, game.Command{Kind: game.Start}, t0)
	apply(t, s, old, 4, bob, game.Command{Kind: game.Bet, Amount: 10}, t0)
	_, err := s.Grant(ctx, group, carol, 50, 0, t0)
	require.NoError(t, err)

	// Before the migration is handled, the supergroup saw Bob and has a
	// table of its own.
	_, err = s.Grant(ctx, supergroup, bob, 300, 0, t0)
	require.NoError(t, err)
	apply(t, s, TableKey{Chat: supergroup}, 10, bob, game.Command{Kind: game.Open}, t0)

	require.NoError(t, s.MigrateChat(ctx, group, supergroup))

	a, err := s.Audit(ctx, supergroup)
	require.NoError(t, err)
	assert.True(t, a.OK, a.Problems)
	assert.Equal(t, int64(1000+1000+1050+1300), a.Granted)
	v, err := s.View(ctx, TableKey{Chat: supergroup})
	require.NoError(t, err)
	assert.Equal(t, uint64(1), v.Table.Version(), "the supergroup's own table stays")
	for u, want := range map[User]int64{alice: 1000, bob: 2300, carol: 1050} {
		acc, err := s.Account(ctx, supergroup, u, t0)
		require.NoError(t, err)
		assert.Equal(t, want, acc.Balance, "%s: the group's table was cancelled and balances merged", u.Name)
	}
	h, err := s.History(ctx, supergroup, bob.ID, 0)
	require.NoError(t, err)
	assert.Equal(t, int64(2300), h[0].Balance, "the merged ledger ends at the merged balance")
	assert.Equal(t, int64(10), h[0].Amount, "the refund")
}

// TestMigrateThenCommandInOneTransaction: a migration and a command on the
// moved table that share a commit keep the timer index right: the moved
// timer entry is seen, and removed when the table loses its deadline.
func TestMigrateThenCommandInOneTransaction(t *testing.T) {
	s := newStore(t, Options{})
	apply(t, s, TableKey{Chat: group}, 1, alice, game.Command{Kind: game.Open}, t0)
	moved := TableKey{Chat: supergroup}
	err := firstErr(s.write(ctx, func(tx *txn) error {
		if err := tx.migrate(group, supergroup, t0); err != nil {
			return err
		}
		var a Applied
		if err := tx.apply(ApplyRequest{Key: moved, UpdateID: 2, Command: game.Command{Kind: game.Cancel}, Now: t0}, &a); err != nil {
			return failure(err)
		}
		return nil
	}))
	require.NoError(t, err)
	timers, err := s.Timers(ctx)
	require.NoError(t, err)
	assert.Empty(t, timers)
	a, err := s.Audit(ctx, supergroup)
	require.NoError(t, err)
	assert.True(t, a.OK, a.Problems)
}
