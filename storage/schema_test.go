package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// rewrite changes a closed database file with raw bbolt calls.
func rewrite(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(fn))
	require.NoError(t, db.Close())
}

// grantedFile returns the path of a closed database file in which alice
// got a grant in group.
func grantedFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	_, err = s.Grant(ctx, group, alice, 5, 0, t0)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	return path
}

// assertUnchanged returns a check that the file at path holds what it
// holds now.
func assertUnchanged(t *testing.T, path string) func(msg string) {
	t.Helper()
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	return func(msg string) {
		t.Helper()
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(before, after), msg)
	}
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

// schema1Buckets are the buckets of schema 1, as 1.0.0 created them.
var schema1Buckets = []string{"meta", "chats", "settings", "tables", "timers", "users", "rank", "log", "reveals",
	"retire", "awards", "private", "follows", "following", "pace"}

// toSchema2 rewrites a file of the schema in the layout a binary of
// schema 2 left: without the chains bucket, the version key at 2. It
// refuses a file with a hash chain or a deck of game.SchemeCut revealed,
// which schema 2 cannot hold.
func toSchema2(tx *bolt.Tx) error {
	if k, _ := tx.Bucket(bucketChains).Cursor().First(); k != nil {
		return errors.New("a hash chain: no file of schema 2")
	}
	err := tx.Bucket(bucketReveals).ForEach(func(_, v []byte) error {
		if v[0] != recordFormat {
			return errors.New("a deck of the cut: no file of schema 2")
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := tx.DeleteBucket(bucketChains); err != nil {
		return err
	}
	return setSchemaRaw(2)(tx)
}

// toSchema1 rewrites a file of the schema in the layout a 1.0.0 binary
// left: the buckets of schema 1 and the version key at 1. It refuses a
// file with a table on an inline message, which schema 1 cannot hold.
func toSchema1(tx *bolt.Tx) error {
	if err := toSchema2(tx); err != nil {
		return err
	}
	if k, _ := tx.Bucket(bucketInline).Cursor().First(); k != nil {
		return errors.New("a table on an inline message: no file of schema 1")
	}
	if err := tx.DeleteBucket(bucketInline); err != nil {
		return err
	}
	return setSchemaRaw(1)(tx)
}

// toSchema0 rewrites a file of the schema in the layout of a made-up
// schema 0, older than the first: that of schema 1 without the pace bucket
// (it drops the bot's recent calls into each group).
func toSchema0(tx *bolt.Tx) error {
	if err := toSchema1(tx); err != nil {
		return err
	}
	if err := tx.DeleteBucket(bucketPace); err != nil {
		return err
	}
	return setSchemaRaw(0)(tx)
}

// fromSchema0 are the migrations of a store that reads the made-up schema
// 0 (see toSchema0): the pace bucket is created, empty, then the real
// migrations follow.
var fromSchema0 = append([]migration{{from: 0, name: "keep the bot's recent calls into each group", run: createBucket(bucketPace)}},
	migrations...)

// bucketNames returns the names of the top-level buckets of the closed
// file at path, in bbolt's order.
func bucketNames(t *testing.T, path string) []string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	var names []string
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			names = append(names, string(name))
			return nil
		})
	}))
	return names
}

// TestMigrateFromSchema1 opens a file as a 1.0.0 binary left it (every
// bucket of schema 1, the version key at 1, a group with a game under
// way): Open migrates it to the schema in one transaction, and it keeps
// its tables, balances, ledger and leaderboard, and plays on, tables on
// inline messages included. Once migrated, it opens as it is.
func TestMigrateFromSchema1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	s, err := Open(path, Options{NoSync: true, Rand: gametest.Deck(fullGameDeck, fullGameDeck)})
	require.NoError(t, err)
	key := TableKey{Chat: group}
	var upd updates
	playFullGame(t, s, key, &upd)
	apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Start}, t0)
	under := apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Bet, Amount: 5}, t0)
	require.Equal(t, game.Drawing, under.Table.Phase(), "a game under way, chips on the table")
	require.NoError(t, s.SetMessage(ctx, key, 77))
	before, err := s.View(ctx, key)
	require.NoError(t, err)
	board, err := s.Leaderboard(ctx, group, 10)
	require.NoError(t, err)
	history, err := s.History(ctx, group, carol.ID, 0)
	require.NoError(t, err)
	audit, err := s.Audit(ctx, group)
	require.NoError(t, err)
	require.True(t, audit.OK, audit.Problems)
	require.NotZero(t, audit.OnTables)
	require.NoError(t, s.Close())
	rewrite(t, path, toSchema1)
	require.ElementsMatch(t, schema1Buckets, bucketNames(t, path), "the layout of 1.0.0")
	require.Equal(t, uint64(1), schemaOf(t, path))

	s = openAt(t, path, Options{NoSync: true, Rand: gametest.Deck(fullGameDeck)})
	v, err := s.View(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, before, v)
	got, err := s.Leaderboard(ctx, group, 10)
	require.NoError(t, err)
	assert.Equal(t, board, got)
	h, err := s.History(ctx, group, carol.ID, 0)
	require.NoError(t, err)
	assert.Equal(t, history, h)
	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.Equal(t, audit, a)

	// Play goes on: Carol stands, another table opens, and so does a
	// table on an inline message, which schema 2 adds.
	end := apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Stand}, t0)
	assert.Equal(t, before.Table.Version()+1, end.Table.Version())
	apply(t, s, TableKey{Chat: group, Thread: 9}, upd.next(), dave, game.Command{Kind: game.Open}, t0)
	in, err := s.Apply(ctx, inlineOpen(inlineKey, 1, alice, "AgAAAD1", preset()))
	require.NoError(t, err)
	assert.Equal(t, &Inline{MessageID: "AgAAAD1", Settings: preset()}, in.Inline)
	requireAudited(t, s)
	require.NoError(t, s.Close())
	assert.ElementsMatch(t, append(slices.Clone(schema1Buckets), "inline", "chains"), bucketNames(t, path))
	assert.Equal(t, uint64(SchemaVersion), schemaOf(t, path))

	// Migrated, the file opens without a migration.
	s = openHookedAt(t, path, Options{NoSync: true}, nil, []migration{})
	v, err = s.View(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, encoded(t, &end.Table), encoded(t, &v.Table))
	v, err = s.View(ctx, inlineKey)
	require.NoError(t, err)
	assert.Equal(t, in.Inline, v.Inline)
}

// TestMigrateFromSchema0 runs a chain of migrations through Open: a file
// of the made-up schema 0 (see toSchema0) is upgraded to 1 and then, by
// the real migration, to the schema, in one transaction, and reads and
// plays as it did; a failing migration leaves it as it was.
func TestMigrateFromSchema0(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	chats := []int64{-41, -42}
	playChats(t, s, chats, 60, nil)
	_, err = s.Grant(ctx, -41, alice, 7, 0, t0)
	require.NoError(t, err)
	want := map[int64][]Standing{}
	for _, chat := range chats {
		want[chat], err = s.Leaderboard(ctx, chat, 10)
		require.NoError(t, err)
		require.NotEmpty(t, want[chat])
	}
	history, err := s.History(ctx, -41, alice.ID, 0)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	rewrite(t, path, toSchema0)
	require.Equal(t, uint64(0), schemaOf(t, path))
	unchanged := assertUnchanged(t, path)

	// A migration that fails changes nothing.
	boom := errors.New("injected")
	failing := []migration{{from: 0, name: "fail", run: func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucket(bucketPace); err != nil {
			return err
		}
		return boom
	}}}
	_, err = openHooked(path, Options{NoSync: true}, nil, failing)
	require.ErrorIs(t, err, boom)
	assert.ErrorContains(t, err, "migrate "+path+" from schema 0 (fail)")
	unchanged("the failed migration wrote nothing")

	s = openHookedAt(t, path, Options{NoSync: true}, nil, fromSchema0)
	for _, chat := range chats {
		got, err := s.Leaderboard(ctx, chat, 10)
		require.NoError(t, err)
		assert.Equal(t, want[chat], got, "chat %d", chat)
	}
	got, err := s.History(ctx, -41, alice.ID, 0)
	require.NoError(t, err)
	assert.Equal(t, history, got)
	requireAudited(t, s)
	p, err := s.LoadPace(ctx)
	require.NoError(t, err)
	assert.Empty(t, p.Calls, "the new bucket starts empty")
	require.NoError(t, s.SavePace(ctx, Pace{At: t0, Calls: map[int64][]time.Time{group: {t0}}}, t0.Add(-time.Minute)))
	playChats(t, s, chats[:1], 20, nil)
	requireAudited(t, s)
	require.NoError(t, s.Close())
	assert.Equal(t, uint64(SchemaVersion), schemaOf(t, path))

	// Upgraded, the file opens without the migration.
	s = openAt(t, path, Options{NoSync: true})
	p, err = s.LoadPace(ctx)
	require.NoError(t, err)
	assert.Len(t, p.Calls[group], 1)
}

// TestRefusedSchemas: a file of a newer schema, of a pre-release, or
// whose version no migration leads from, is refused with an error that
// names it, and left as it was.
func TestRefusedSchemas(t *testing.T) {
	tests := []struct {
		name   string
		change func(tx *bolt.Tx) error
		want   error
		text   string
	}{
		{"newer", setSchemaRaw(SchemaVersion + 1), ErrNewerSchema, fmt.Sprintf("has schema %d, this program reads %d", SchemaVersion+1, SchemaVersion)},
		{"a pre-release's", func(tx *bolt.Tx) error {
			meta := tx.Bucket(bucketMeta)
			if err := meta.Delete(keySchema); err != nil {
				return err
			}
			return meta.Put(keyPreRelease, binary.BigEndian.AppendUint64(nil, 11))
		}, ErrPreRelease, "has pre-release schema 11"},
		{"older, with no migration", toSchema0, ErrCorrupt, fmt.Sprintf("has schema 0, from which no migration leads to %d", SchemaVersion)},
		{"1, with the bucket schema 2 adds", setSchemaRaw(1), berrors.ErrBucketExists, "from schema 1 (keep the tables on inline messages)"},
		{"2, with the bucket schema 3 adds", setSchemaRaw(2), berrors.ErrBucketExists, "from schema 2 (keep the tables' hash chains)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := grantedFile(t)
			rewrite(t, path, tc.change)
			unchanged := assertUnchanged(t, path)
			_, err := Open(path, Options{NoSync: true})
			require.ErrorIs(t, err, tc.want)
			assert.ErrorContains(t, err, path+" "+tc.text)
			unchanged("the file is left as it was")
		})
	}
}

// TestAuditFindsMissingIndex: a balance missing from the leaderboard
// index is a problem the audit names.
func TestAuditFindsMissingIndex(t *testing.T) {
	path := grantedFile(t)
	rewrite(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRank)
		k, _ := b.Cursor().First()
		return b.Delete(k)
	})
	s := openAt(t, path, Options{NoSync: true})
	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.False(t, a.OK)
	assert.Contains(t, a.Problems[0], "leaderboard")
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
		"a schema version of 3 bytes": func(tx *bolt.Tx) error {
			if err := createBuckets(tx); err != nil {
				return err
			}
			return tx.Bucket(bucketMeta).Put(keySchema, []byte{0, 0, 1})
		},
		"a bucket missing": func(tx *bolt.Tx) error {
			if err := createBuckets(tx); err != nil {
				return err
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

// createBuckets creates the buckets of the schema in an empty file.
func createBuckets(tx *bolt.Tx) error {
	for _, name := range buckets {
		if _, err := tx.CreateBucket(name); err != nil {
			return err
		}
	}
	return nil
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

// TestAuditBrokenLedger: a user's chain of ledger entries that cannot be
// followed to its start is a problem the audit names, and History reports
// the file damaged; the other users' ledgers still check.
func TestAuditBrokenLedger(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(log *bolt.Bucket, alices []uint64) error // alice's entries, oldest first
		want   string
	}{
		{"an entry missing", func(log *bolt.Bucket, alices []uint64) error {
			return log.Delete(entryKey(alices[1]))
		}, "entry #%d is missing"},
		{"an entry that does not decode", func(log *bolt.Bucket, alices []uint64) error {
			return log.Put(entryKey(alices[1]), []byte{entryFormat, 0xff})
		}, "entry #%d: malformed record"},
		{"a loop", func(log *bolt.Bucket, alices []uint64) error {
			e, _, err := decodeLedger(log.Get(entryKey(alices[1])))
			if err != nil {
				return err
			}
			return log.Put(entryKey(alices[1]), e.encode(alices[2]))
		}, "more than 8 entries: the chain loops"},
		{"another user's entry", func(log *bolt.Bucket, alices []uint64) error {
			e, prev, err := decodeLedger(log.Get(entryKey(alices[1])))
			if err != nil {
				return err
			}
			e.User = bob.ID
			return log.Put(entryKey(alices[1]), e.encode(prev))
		}, "entry #%d is user 102's"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "db")
			s, err := Open(path, Options{NoSync: true})
			require.NoError(t, err)
			for i := range 3 {
				_, err := s.Grant(ctx, group, alice, int64(10+i), 0, t0)
				require.NoError(t, err)
				_, err = s.Grant(ctx, group, bob, 5, 0, t0)
				require.NoError(t, err)
			}
			require.NoError(t, s.Close())
			var alices []uint64
			rewrite(t, path, func(tx *bolt.Tx) error {
				log := tx.Bucket(bucketLedger)
				err := log.ForEach(func(k, v []byte) error {
					e, _, err := decodeLedger(v)
					if err == nil && e.User == alice.ID {
						alices = append(alices, getUint(k))
					}
					return err
				})
				require.NoError(t, err)
				require.Len(t, alices, 4, "the start and three grants")
				return tc.tamper(log, alices)
			})
			want := tc.want
			if strings.Contains(want, "%d") {
				want = fmt.Sprintf(want, alices[1])
			}

			s = openAt(t, path, Options{NoSync: true})
			a, err := s.Audit(ctx, group)
			require.NoError(t, err)
			assert.False(t, a.OK)
			require.NotEmpty(t, a.Problems)
			assert.Contains(t, a.Problems[0], "the ledger of user 101 is broken: "+want)
			for _, p := range a.Problems {
				assert.NotContains(t, p, "ledger of user 102", "bob's ledger is whole")
				assert.NotContains(t, p, "user 102 has", "bob's ledger is whole")
			}
			_, err = s.History(ctx, group, alice.ID, 0)
			assert.ErrorIs(t, err, ErrCorrupt)
			assert.ErrorContains(t, err, want)
			h, err := s.History(ctx, group, alice.ID, 2)
			require.NoError(t, err, "the two newest entries are whole, and the one before is not read")
			assert.Len(t, h, 2)
			h, err = s.History(ctx, group, bob.ID, 0)
			require.NoError(t, err)
			assert.Len(t, h, 4)
		})
	}
}
