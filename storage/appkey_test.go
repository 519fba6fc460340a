package storage

import (
	"bytes"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// TestAppKey: the app's key is drawn once per file and kept: the same on
// every call, after reopening the file and in its backup; another file
// draws another.
func TestAppKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "twentyone.db")
	s := openAt(t, path, Options{NoSync: true})
	first, err := s.AppKey(ctx)
	require.NoError(t, err)
	require.Len(t, first, AppKeySize)
	assert.NotEqual(t, make([]byte, AppKeySize), first, "drawn, not zero")
	again, err := s.AppKey(ctx)
	require.NoError(t, err)
	assert.Equal(t, first, again, "the same on a later call")
	again[0] ^= 0xff
	third, err := s.AppKey(ctx)
	require.NoError(t, err)
	assert.Equal(t, first, third, "a copy: changing what was returned changes nothing kept")

	backup := filepath.Join(dir, "backup.db")
	require.NoError(t, s.BackupFile(ctx, backup))
	require.NoError(t, s.Close())
	reopened := openAt(t, path, Options{NoSync: true})
	got, err := reopened.AppKey(ctx)
	require.NoError(t, err)
	assert.Equal(t, first, got, "the same after reopening")
	restored := openAt(t, backup, Options{NoSync: true})
	got, err = restored.AppKey(ctx)
	require.NoError(t, err)
	assert.Equal(t, first, got, "in the backup")

	other := newStore(t, Options{})
	key, err := other.AppKey(ctx)
	require.NoError(t, err)
	require.Len(t, key, AppKeySize)
	assert.NotEqual(t, first, key, "a fresh file draws another")
}

// TestAppKeyConcurrentFirstCalls: callers racing for the first key all get
// the one stored.
func TestAppKeyConcurrentFirstCalls(t *testing.T) {
	s := newStore(t, Options{})
	const n = 8
	keys := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { keys[i], errs[i] = s.AppKey(ctx) })
	}
	wg.Wait()
	stored, err := s.AppKey(ctx)
	require.NoError(t, err)
	for i := range n {
		require.NoError(t, errs[i])
		assert.True(t, bytes.Equal(stored, keys[i]), "caller %d got the stored key", i)
	}
}

// TestAppKeyDamaged: a stored key of another size is ErrCorrupt, and is
// not replaced.
func TestAppKeyDamaged(t *testing.T) {
	s := newStore(t, Options{})
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyApp, []byte("short"))
	}))
	_, err := s.AppKey(ctx)
	require.ErrorIs(t, err, ErrCorrupt)
	require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
		assert.Equal(t, []byte("short"), tx.Bucket(bucketMeta).Get(keyApp), "left as it was")
		return nil
	}))
}
