package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// rewriteValues replaces every value of bucket b with what fn makes of it;
// an error of fn stops it.
func rewriteValues(b *bolt.Bucket, fn func(v []byte) ([]byte, error)) error {
	var keys, values [][]byte
	err := b.ForEach(func(k, v []byte) error {
		nv, err := fn(v)
		keys, values = append(keys, bytes.Clone(k)), append(values, nv)
		return err
	})
	if err != nil {
		return err
	}
	for i, k := range keys {
		if err := b.Put(k, values[i]); err != nil {
			return err
		}
	}
	return nil
}

// toSchema9 rewrites a file in the layout of schema 9: that of schema 10
// (and 11, see toSchema10) with every value of the timer index empty (no
// move of the house).
func toSchema9(tx *bolt.Tx) error {
	if err := toSchema10(tx); err != nil {
		return err
	}
	if err := rewriteValues(tx.Bucket(bucketTimers), func([]byte) ([]byte, error) { return present, nil }); err != nil {
		return err
	}
	return setSchemaRaw(9)(tx)
}

// toSchema7 rewrites a file in the layout of schema 7: that of schema 8
// (and 9 to 11, see toSchema8) without the awards bucket, and with user records
// that hold no achievements and no way to Comeback.
func toSchema7(tx *bolt.Tx) error {
	if err := toSchema8(tx); err != nil {
		return err
	}
	if err := tx.DeleteBucket(bucketAwards); err != nil {
		return err
	}
	err := rewriteValues(tx.Bucket(bucketUsers), func(v []byte) ([]byte, error) {
		u, err := decodeUser(v)
		u.stats.Achievements, u.mark = 0, comebackMark{}
		return u.encode(), err
	})
	if err != nil {
		return err
	}
	return setSchemaRaw(7)(tx)
}

// toSchema5 rewrites a file in the layout of schema 5: that of schema 6
// with chat records that know only their last update, every update up to
// it counting as handled.
func toSchema5(tx *bolt.Tx) error {
	if err := toSchema7(tx); err != nil {
		return err
	}
	err := rewriteValues(tx.Bucket(bucketChats), func(v []byte) ([]byte, error) {
		c, err := decodeChat(v)
		c.floor, c.recent = c.lastUpdate, nil
		return c.encode(), err
	})
	if err != nil {
		return err
	}
	return setSchemaRaw(5)(tx)
}

// toSchema4 rewrites a file in the layout of schema 4: that of schema 5
// without the bucket of old messages owed (it drops those owed).
func toSchema4(tx *bolt.Tx) error {
	if err := toSchema5(tx); err != nil {
		return err
	}
	if err := tx.DeleteBucket(bucketRetire); err != nil {
		return err
	}
	return setSchemaRaw(4)(tx)
}

// toLedgerV3 rewrites a file in the layout of schema 4 with the ledger as
// schema 3 and older stored it: keyed chat|user|seq, each entry without
// its chat, number and link, and user records without their last entry.
func toLedgerV3(tx *bolt.Tx) error {
	if err := toSchema4(tx); err != nil {
		return err
	}
	old, err := tx.CreateBucket(bucketLedgerV3)
	if err != nil {
		return err
	}
	err = tx.Bucket(bucketLedger).ForEach(func(_, v []byte) error {
		e, _, err := decodeLedger(v)
		if err != nil {
			return err
		}
		return old.Put(ledgerKeyV3(e.Chat, e.User, e.Seq), e.appendFields([]byte{recordFormat}))
	})
	if err != nil {
		return err
	}
	if err := tx.DeleteBucket(bucketLedger); err != nil {
		return err
	}
	return rewriteValues(tx.Bucket(bucketUsers), func(v []byte) ([]byte, error) {
		rec, err := decodeUser(v)
		rec.lastEntry = 0
		enc := rec.encode()
		return enc[:len(enc)-1], err // without the 0
	})
}

// toSchema1 rewrites a file in the layout of schema 1: that of schema 3
// without the leaderboard index.
func toSchema1(tx *bolt.Tx) error {
	if err := toLedgerV3(tx); err != nil {
		return err
	}
	if err := tx.DeleteBucket(bucketRank); err != nil {
		return err
	}
	return setSchemaRaw(1)(tx)
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

	rewrite(t, path, toSchema1)
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

	// Schema 2: the layout of schema 3, with chat records without the time
	// of their last update.
	rewrite(t, path, func(tx *bolt.Tx) error {
		if err := toLedgerV3(tx); err != nil {
			return err
		}
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

// TestMigrateFromSchema3: the ledger, keyed by chat and user, becomes one
// log; every user's history, the audits and further play are as before.
func TestMigrateFromSchema3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	chats := []int64{-41, -42}
	playChats(t, s, chats, 60, nil)
	history := func(s *Store) map[int64]map[game.UserID][]LedgerEntry {
		out := map[int64]map[game.UserID][]LedgerEntry{}
		for _, chat := range chats {
			out[chat] = map[game.UserID][]LedgerEntry{}
			for _, u := range players(game.UserID(chat*10), 4) { // as playChats
				h, err := s.History(ctx, chat, u.ID, 0)
				if errors.Is(err, ErrNotFound) {
					continue // never sat down
				}
				require.NoError(t, err)
				out[chat][u.ID] = h
			}
		}
		return out
	}
	want := history(s)
	for _, chat := range chats {
		require.NotEmpty(t, want[chat], "chat %d has users with a ledger", chat)
	}
	require.NoError(t, s.Close())

	rewrite(t, path, func(tx *bolt.Tx) error {
		if err := toLedgerV3(tx); err != nil {
			return err
		}
		return setSchemaRaw(3)(tx)
	})
	require.Equal(t, uint64(3), schemaOf(t, path))

	s = openAt(t, path, Options{NoSync: true})
	assert.Equal(t, want, history(s))
	audits, err := s.AuditAll(ctx)
	require.NoError(t, err)
	require.Len(t, audits, len(chats))
	for _, a := range audits {
		assert.True(t, a.OK, a.Problems)
	}
	playChats(t, s, chats[:1], 60, nil)
	got := history(s)
	grown := false
	for u, old := range want[chats[0]] {
		now := got[chats[0]][u]
		require.GreaterOrEqual(t, len(now), len(old))
		assert.Equal(t, old, now[len(now)-len(old):], "user %d: the new entries come before the old", u)
		grown = grown || len(now) > len(old)
	}
	assert.True(t, grown, "the play moved chips")
	audits, err = s.AuditAll(ctx)
	require.NoError(t, err)
	for _, a := range audits {
		assert.True(t, a.OK, a.Problems)
	}
	require.NoError(t, s.Close())
	assert.Equal(t, uint64(SchemaVersion), schemaOf(t, path))
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

// TestMigrateFromSchema4: a file of schema 4 has no bucket of old messages
// owed (the bot kept them in memory); after the upgrade, play goes on and
// Play again owes the old message in the database.
func TestMigrateFromSchema4(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	key := TableKey{Chat: group}
	var upd updates
	shown(t, s, key, &upd, 10)
	require.NoError(t, s.Close())
	rewrite(t, path, toSchema4)
	require.Equal(t, uint64(4), schemaOf(t, path))

	s = openAt(t, path, Options{NoSync: true, Rand: stacked(fullGameDeck, fullGameDeck).Rand})
	assert.Empty(t, view(t, s, key).Retiring)
	playFullGame(t, s, key, &upd)
	a := apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Start}, t0)
	assert.Equal(t, []int{10}, messageIDs(a.Retiring))
	audits, err := s.AuditAll(ctx)
	require.NoError(t, err)
	require.Len(t, audits, 1)
	assert.True(t, audits[0].OK, audits[0].Problems)
	require.NoError(t, s.Close())
	assert.Equal(t, uint64(SchemaVersion), schemaOf(t, path))
}

// TestMigrateFromSchema5: a chat of a schema 5 file knows only its last
// update, and every update up to it counts as handled, as schema 5 counted
// them; after the upgrade, a later update is tracked as schema 6 does.
func TestMigrateFromSchema5(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	grant := func(id int64) error {
		_, err := s.Grant(ctx, group, alice, 1, id, t0)
		return err
	}
	require.NoError(t, grant(100))
	require.NoError(t, grant(102))
	require.NoError(t, s.Close())
	rewrite(t, path, toSchema5)
	require.Equal(t, uint64(5), schemaOf(t, path))

	s = openAt(t, path, Options{NoSync: true})
	assert.ErrorIs(t, grant(101), ErrDuplicate, "up to the last, as schema 5 counted")
	require.NoError(t, grant(104))
	require.NoError(t, grant(103), "after the upgrade, a late update is new")
	assert.ErrorIs(t, grant(103), ErrDuplicate)
	require.NoError(t, s.Close())
	assert.Equal(t, uint64(SchemaVersion), schemaOf(t, path))
}

// TestMigrateFromSchema6: a schema 6 file holds tables in game encoding 1,
// a game in play and a finished one owed as a record; after the upgrade
// both read as they were.
func TestMigrateFromSchema6(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	readV1 := func(name string) (game.Table, []byte) {
		enc, err := os.ReadFile(filepath.Join("..", "game", "testdata", name))
		require.NoError(t, err)
		require.Equal(t, byte(1), enc[0], "%s is of encoding 1", name)
		tb, err := game.Decode(enc)
		require.NoError(t, err)
		return tb, enc
	}
	playing, playingV1 := readV1("midgame-v1.bin")
	record, recordV1 := readV1("lobby-cut-v1.bin")
	key := TableKey{Chat: group}
	rewrite(t, path, func(tx *bolt.Tx) error {
		if err := toSchema7(tx); err != nil {
			return err
		}
		h := tableHeader{messageID: 20, deadline: timeMs(playing.Deadline()), version: playing.Version()}
		if err := tx.Bucket(bucketTables).Put(tableKeyBytes(key), append(h.append(nil), playingV1...)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketRetire).Put(retireKey(key, 10), append([]byte{recordFormat}, recordV1...)); err != nil {
			return err
		}
		return setSchemaRaw(6)(tx)
	})

	s = openAt(t, path, Options{NoSync: true})
	v := view(t, s, key)
	assert.Equal(t, 20, v.MessageID)
	assert.Equal(t, playing.Log(), v.Table.Log())
	assert.Equal(t, game.Drawing, v.Table.Phase())
	require.Len(t, v.Retiring, 1)
	assert.True(t, v.Retiring[0].Record)
	assert.Equal(t, record.Log(), v.Retiring[0].Table.Log())
	assert.Len(t, v.Retiring[0].Table.Log(), 8)
	assert.False(t, v.Retiring[0].Table.LogComplete())
	require.NoError(t, s.Close())
	assert.Equal(t, uint64(SchemaVersion), schemaOf(t, path))
}
