package storage

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// TestFloor: a Floor commits its value, and EncodedSize is the size of the
// table as stored.
func TestFloor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "floor.db")
	f, err := OpenFloor(path, 200)
	require.NoError(t, err)
	for i := range 70 {
		require.NoError(t, f.Commit(i))
	}
	require.NoError(t, f.Close())
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(floorBucket)
		require.NotNil(t, b)
		assert.Equal(t, 1, b.Stats().KeyN, "one value, rewritten")
		v := b.Get(floorKey)
		require.Len(t, v, 200)
		assert.Equal(t, byte(69), v[0], "the last commit's")
		return nil
	}))
	require.NoError(t, db.Close())

	s := newStore(t, Options{})
	key := TableKey{Chat: group}
	a := apply(t, s, key, 1, alice, game.Command{Kind: game.Open}, t0)
	size, err := EncodedSize(&a.View)
	require.NoError(t, err)
	require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
		assert.Len(t, tx.Bucket(bucketTables).Get(tableKeyBytes(key)), size)
		return nil
	}))
}
