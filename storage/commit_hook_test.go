package storage

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

func TestOnCommitIsToldOfEveryCommit(t *testing.T) {
	var mu sync.Mutex
	var commits, writes int
	s := newStore(t, Options{OnCommit: func(d time.Duration, n int) {
		mu.Lock()
		defer mu.Unlock()
		commits++
		writes += n
		assert.Positive(t, d)
	}})
	ctx := context.Background()
	_, err := s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: group}, User: alice, Command: game.Command{Kind: game.Open}})
	require.NoError(t, err)
	// A rejection writes nothing and commits nothing.
	_, err = s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: group}, User: alice, Command: game.Command{Kind: game.Open}})
	require.ErrorIs(t, err, game.ErrTableOpen)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, 1, commits)
	assert.Equal(t, 1, writes)
}
