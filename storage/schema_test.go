package storage

import (
	"encoding/binary"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// rewrite changes a closed database file with raw bbolt calls.
func rewrite(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(fn))
	require.NoError(t, db.Close())
}

func schemaOf(t *testing.T, path string) uint64 {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	var v uint64
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		v = binary.BigEndian.Uint64(tx.Bucket(bucketMeta).Get(keySchema))
		return nil
	}))
	return v
}

func setSchemaRaw(v uint64) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], v)
		return tx.Bucket(bucketMeta).Put(keySchema, b[:])
	}
}

func TestMigrateFromSchema1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	for i, u := range []User{alice, bob, carol, dave} {
		_, err := s.Grant(ctx, group, u, int64(100*(i+1)), 0, t0)
		require.NoError(t, err)
	}
	_, err = s.Grant(ctx, 55, alice, 7, 0, t0)
	require.NoError(t, err)
	want, err := s.Leaderboard(ctx, group, 10)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	// Schema 1: the same layout without the leaderboard index.
	rewrite(t, path, func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketRank); err != nil {
			return err
		}
		return setSchemaRaw(1)(tx)
	})
	require.Equal(t, uint64(1), schemaOf(t, path))

	s = openAt(t, path, Options{NoSync: true})
	got, err := s.Leaderboard(ctx, group, 10)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, dave.ID, got[0].User)
	audits, err := s.AuditAll(ctx)
	require.NoError(t, err)
	require.Len(t, audits, 2)
	for _, a := range audits {
		assert.True(t, a.OK, a.Problems)
	}
	require.NoError(t, s.Close())
	assert.Equal(t, uint64(SchemaVersion), schemaOf(t, path))
}

func TestAuditFindsMissingIndex(t *testing.T) {
	// What the migration repairs, the audit notices.
	path := filepath.Join(t.TempDir(), "db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	_, err = s.Grant(ctx, group, alice, 5, 0, t0)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	rewrite(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRank)
		k, _ := b.Cursor().First()
		return b.Delete(k)
	})
	s = openAt(t, path, Options{NoSync: true})
	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.False(t, a.OK)
	assert.Contains(t, a.Problems[0], "leaderboard")
}

func TestNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	rewrite(t, path, setSchemaRaw(SchemaVersion+1))
	_, err = Open(path, Options{NoSync: true})
	assert.ErrorIs(t, err, ErrNewerSchema)
	assert.Contains(t, err.Error(), path)
}

func TestNotOurDatabase(t *testing.T) {
	tests := map[string]func(tx *bolt.Tx) error{
		"another program's buckets": func(tx *bolt.Tx) error {
			_, err := tx.CreateBucket([]byte("wal"))
			return err
		},
		"no schema version": func(tx *bolt.Tx) error {
			_, err := tx.CreateBucket(bucketMeta)
			return err
		},
		"a bucket missing": func(tx *bolt.Tx) error {
			for _, name := range schemaBuckets[SchemaVersion] {
				if _, err := tx.CreateBucket(name); err != nil {
					return err
				}
			}
			if err := tx.DeleteBucket(bucketLedger); err != nil {
				return err
			}
			return setSchemaRaw(SchemaVersion)(tx)
		},
	}
	for name, fn := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "db")
			rewrite(t, path, fn)
			_, err := Open(path, Options{NoSync: true})
			assert.ErrorIs(t, err, ErrCorrupt)
			assert.Contains(t, err.Error(), path)
		})
	}
}

func TestCorruptRecords(t *testing.T) {
	tests := []struct {
		name   string
		bucket []byte
		key    []byte
		check  func(s *Store) error
		where  string
	}{
		{"user", bucketUsers, userKey(group, alice.ID), func(s *Store) error {
			_, err := s.Account(ctx, group, alice, t0)
			return err
		}, "user 101 of chat"},
		{"settings", bucketSettings, chatKey(group), func(s *Store) error {
			_, err := s.Settings(ctx, group)
			return err
		}, "settings of chat"},
		{"chat", bucketChats, chatKey(group), func(s *Store) error {
			_, err := s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: group}, UpdateID: 9, User: bob, Command: game.Command{Kind: game.Join}})
			return err
		}, "chat -100"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, Options{})
			apply(t, s, TableKey{Chat: group}, 1, alice, game.Command{Kind: game.Open}, t0)
			require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
				return tx.Bucket(tc.bucket).Put(tc.key, []byte{1, 0xff})
			}))
			err := tc.check(s)
			assert.ErrorIs(t, err, ErrCorrupt)
			assert.Contains(t, err.Error(), tc.where)
		})
	}
}

// TestMigrateFromSchema2 stamps each chat's last update with the time of
// the upgrade: a lower update id is a redelivery for a day after it, and a
// new sequence's after that.
func TestMigrateFromSchema2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	key := TableKey{Chat: group}
	apply(t, s, key, 500, alice, game.Command{Kind: game.Open}, t0)
	require.NoError(t, s.Close())

	// Schema 2: chat records without the time of their last update.
	rewrite(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketChats)
		c, err := decodeChat(b.Get(chatKey(group)))
		if err != nil {
			return err
		}
		old := []byte{recordFormat}
		for _, v := range []int64{c.lastUpdate, c.granted} {
			old = binary.AppendVarint(old, v)
		}
		old = binary.AppendUvarint(old, c.seq)
		old = binary.AppendVarint(old, c.movedTo)
		old = binary.AppendVarint(old, c.created)
		if err := b.Put(chatKey(group), old); err != nil {
			return err
		}
		return setSchemaRaw(2)(tx)
	})
	require.Equal(t, uint64(2), schemaOf(t, path))

	upgraded := time.Now()
	s = openAt(t, path, Options{NoSync: true})
	join := func(id int64, u User, at time.Time) error {
		_, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: id, User: u, Command: game.Command{Kind: game.Join}, Now: at})
		return err
	}
	assert.ErrorIs(t, join(100, bob, upgraded.Add(time.Hour)), ErrDuplicate, "within a day of the upgrade")
	require.NoError(t, join(100, bob, upgraded.Add(RedeliveryWindow+time.Hour)), "a day after it")
	require.NoError(t, s.Close())
	assert.Equal(t, uint64(SchemaVersion), schemaOf(t, path))
}
