package storage

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// TestBatchRejection holds the commit loop on one write while two others
// queue behind it, so that they share a transaction: a command, then a
// write the store refuses. The refusal answers its caller with its error
// and writes nothing; the command queued before it runs once and commits:
// a refusal does not roll back the writes it is batched with.
func TestBatchRejection(t *testing.T) {
	open := func(t *testing.T, s *Store) {
		apply(t, s, TableKey{Chat: group}, 40, alice, game.Command{Kind: game.Open}, t0)
	}
	errRefused := errors.New("refused by fn")
	tests := []struct {
		name  string
		setup func(t *testing.T, s *Store)
		write func(s *Store) error
		want  error
	}{
		{"duplicate grant", func(t *testing.T, s *Store) {
			_, err := s.Grant(ctx, group, alice, 100, 40, t0)
			require.NoError(t, err)
		}, func(s *Store) error {
			_, err := s.Grant(ctx, group, alice, 100, 40, t0)
			return err
		}, ErrDuplicate},
		{"duplicate command", open, func(s *Store) error {
			_, err := s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: group}, UpdateID: 40, User: bob, Command: game.Command{Kind: game.Join}, Now: t0})
			return err
		}, ErrDuplicate},
		{"command the game rejects", open, func(s *Store) error {
			_, err := s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: group}, UpdateID: 41, User: alice, Command: game.Command{Kind: game.Join}, Now: t0})
			return err
		}, game.ErrAlreadySeated},
		{"bonus not needed", open, func(s *Store) error {
			_, err := s.ClaimBonus(ctx, group, alice, t0)
			return err
		}, ErrBonusNotNeeded},
		{"duplicate repost", open, func(s *Store) error {
			_, err := s.Repost(ctx, TableKey{Chat: group}, 40, t0)
			return err
		}, ErrDuplicate},
		{"message of no table", open, func(s *Store) error {
			return s.SetMessage(ctx, TableKey{Chat: group, Thread: 9}, 5)
		}, ErrNotFound},
		{"settings fn refuses", open, func(s *Store) error {
			_, err := s.UpdateSettings(ctx, group, func(*ChatSettings) error { return errRefused })
			return err
		}, errRefused},
		{"invalid settings", open, func(s *Store) error {
			_, err := s.UpdateSettings(ctx, group, func(cs *ChatSettings) error { cs.Game.Stake = 0; return nil })
			return err
		}, ErrInvalidSettings},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in injector
			s := newFaultyStore(t, Options{}, in.faults())
			for c := int64(1); c <= 2; c++ {
				apply(t, s, TableKey{Chat: c}, 1, alice, game.Command{Kind: game.Open}, t0)
			}
			tt.setup(t, s)
			before, err := s.Audit(ctx, group)
			require.NoError(t, err)
			settings, err := s.Settings(ctx, group)
			require.NoError(t, err)

			h := holdCommits(t, &in, 1, nil)
			join := func(c int64) error {
				_, err := s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: c}, UpdateID: 2, User: bob, Command: game.Command{Kind: game.Join}, Now: t0})
				return err
			}
			var wg sync.WaitGroup
			var errs [3]error
			wg.Add(3)
			go func() { defer wg.Done(); errs[0] = join(1) }()
			<-h.entered // the commit loop holds chat 1's transaction
			go func() { defer wg.Done(); errs[1] = join(2) }()
			waitQueued(t, s, 1)
			go func() { defer wg.Done(); errs[2] = tt.write(s) }()
			waitQueued(t, s, 2)
			h.free()
			wg.Wait()

			require.NoError(t, errs[0])
			require.NoError(t, errs[1])
			assert.ErrorIs(t, errs[2], tt.want)
			assert.Equal(t, 1, h.runs(2), "the command batched with the refusal ran once")
			v, err := s.View(ctx, TableKey{Chat: 2})
			require.NoError(t, err)
			assert.Equal(t, 2, v.Table.NumSeats(), "the command committed")
			after, err := s.Audit(ctx, group)
			require.NoError(t, err)
			assert.Equal(t, before, after, "the refusal moved no chips")
			got, err := s.Settings(ctx, group)
			require.NoError(t, err)
			assert.Equal(t, settings, got, "the refusal changed no settings")
		})
	}
}
