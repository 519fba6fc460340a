package storage

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// TestConcurrentChats: one chat applies its commands in order from one
// goroutine while many others hammer other chats, grants, bonuses, views
// and leaderboards. Every accepted command moves its table's version by
// exactly one, every rejected one by none, and every chat audits clean.
func TestConcurrentChats(t *testing.T) {
	s := newStore(t, Options{})
	const ordered = int64(-500)
	others := make([]int64, 32)
	for i := range others {
		others[i] = int64(i + 1)
	}

	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(2)
	go func() {
		defer wg.Done()
		playChats(t, s, others, 30, nil)
	}()
	go func() { // readers and grants
		defer wg.Done()
		r := rand.New(rand.NewPCG(7, 7))
		for {
			select {
			case <-stop:
				return
			default:
			}
			chat := others[r.IntN(len(others))]
			u := User{ID: game.UserID(chat*10 + int64(r.IntN(4))), Name: "P"}
			switch r.IntN(5) {
			case 0:
				_, err := s.Grant(ctx, chat, u, 1+r.Int64N(100), 0, t0)
				assert.NoError(t, err)
			case 1:
				_, err := s.ClaimBonus(ctx, chat, u, t0)
				if err != nil && !errors.Is(err, ErrBonusNotNeeded) && !errors.Is(err, ErrBonusTooSoon) {
					t.Error(err)
				}
			case 2:
				_, err := s.Leaderboard(ctx, chat, 3)
				assert.NoError(t, err)
			case 3:
				_, err := s.View(ctx, TableKey{Chat: chat})
				assert.NoError(t, err)
			case 4:
				_, err := s.Timers(ctx)
				assert.NoError(t, err)
			}
		}
	}()

	key := TableKey{Chat: ordered}
	us := players(9000, 4)
	r := rand.New(rand.NewPCG(1, 1))
	var v View
	var upd int64
	accepted := 0
	for i := 0; i < 150; i++ {
		u, cmd := pickCommand(&v, us, r)
		if r.IntN(5) == 0 {
			u, cmd = randomCommand(&v, us, r)
		}
		upd++
		a, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: upd, User: u, Command: cmd, Now: t0})
		switch {
		case err == nil:
			accepted++
			require.Equal(t, v.Table.Version()+1, a.Table.Version(), "step %d: %s", i, cmd.Kind)
		case errors.Is(err, ErrDuplicate), game.Kind(err) == game.KindInternal:
			require.NoError(t, err, "step %d", i)
		default:
			require.Equal(t, v.Table.Version(), a.Table.Version(), "a rejection leaves the version")
		}
		v = a.View
	}
	close(stop)
	wg.Wait()
	assert.Greater(t, accepted, 100)
	final, err := s.View(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, uint64(accepted), final.Table.Version())

	audits, err := s.AuditAll(ctx)
	require.NoError(t, err)
	assert.Len(t, audits, len(others)+1)
	for _, a := range audits {
		assert.True(t, a.OK, "chat %d: %v", a.Chat, a.Problems)
	}
}

// TestConcurrentSameChat: writes to one chat from many goroutines (which
// the bot never does) still serialise: no lost update, no negative
// balance, and the chips add up.
func TestConcurrentSameChat(t *testing.T) {
	s := newStore(t, Options{})
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := User{ID: game.UserID(g + 1), Name: "U"}
			for range 10 {
				_, err := s.Grant(ctx, group, u, 10, 0, t0)
				assert.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.True(t, a.OK, a.Problems)
	assert.Equal(t, int64(16*(1000+100)), a.Granted)
	lb, err := s.Leaderboard(ctx, group, 100)
	require.NoError(t, err)
	assert.Len(t, lb, 16)
}

// TestCancelledContext: a write whose context is done before it runs is
// not applied.
func TestCancelledContext(t *testing.T) {
	s := newStore(t, Options{})
	c, cancel := contextWithCancel()
	cancel()
	_, err := s.Apply(c, ApplyRequest{Key: TableKey{Chat: 1}, User: alice, Command: game.Command{Kind: game.Open}})
	assert.ErrorIs(t, err, errCanceled)
	_, err = s.Grant(c, 1, alice, 5, 0, t0)
	assert.ErrorIs(t, err, errCanceled)
	_, err = s.AuditAll(c)
	assert.ErrorIs(t, err, errCanceled)
	_, err = s.Audit(ctx, 1)
	assert.ErrorIs(t, err, ErrNotFound, "nothing was written")
}

// TestTimerIndexInOneTransaction: two commands on one table that share a
// transaction (as concurrent writers' commands may) keep the timer index
// right: the first gives the table a deadline, the second takes it away.
func TestTimerIndexInOneTransaction(t *testing.T) {
	s := newStore(t, Options{})
	key := TableKey{Chat: group}
	err := firstErr(s.write(ctx, func(tx *txn) error {
		for _, req := range []ApplyRequest{
			{Key: key, UpdateID: 1, User: alice, Command: game.Command{Kind: game.Open, User: alice.ID, Name: alice.Name}, Now: t0},
			{Key: key, UpdateID: 2, Command: game.Command{Kind: game.Cancel}, Now: t0},
		} {
			var a Applied
			if err := tx.apply(req, &a); err != nil {
				return failure(err)
			}
		}
		return nil
	}))
	require.NoError(t, err)
	v, err := s.View(ctx, key)
	require.NoError(t, err)
	require.Equal(t, game.Closed, v.Table.Phase())
	timers, err := s.Timers(ctx)
	require.NoError(t, err, "a closed table left in the timer index reads as damage")
	assert.Empty(t, timers)
}
