package storage

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// The chains across a restart: every open retires them, so that a backup
// restored never deals a seed its chains gave after it was copied.

// rotateOptions ask for the cut with the bot's randomness: the secrets of
// the chains a store makes after a restart must differ from those it made
// before, as they do with crypto/rand (a stacked Rand would replay them).
func rotateOptions() Options { return Options{NoSync: true, CutWait: game.DefaultCutWait} }

// playCut plays a game at key to its end: Alice starts it, Bob cuts its
// first deck with cut, and the clock ends it. It returns the records of
// the decks the game revealed.
func playCut(t *testing.T, s *Store, key TableKey, upd *updates, cut string, now time.Time) []*game.CutRecord {
	t.Helper()
	a := apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, now)
	require.Equal(t, game.Cutting, a.Table.Phase())
	apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Cut, Text: cut}, now)
	end := endByTimeouts(t, s, key)
	revs, err := s.TableReveals(ctx, key, a.Table.Game())
	require.NoError(t, err)
	require.NotEmpty(t, revs)
	var out []*game.CutRecord
	for _, r := range revs {
		rec, err := game.ParseRecord(r.Record)
		require.NoError(t, err)
		_, err = rec.Verify()
		require.NoError(t, err, "the deck of record %s verifies", r.Record)
		cr, ok := rec.(*game.CutRecord)
		require.True(t, ok, "a deck of %s", game.SchemeCut)
		out = append(out, cr)
	}
	require.Len(t, end.Decks, len(out), "every deck of the game was revealed")
	return out
}

// TestRestoreNeverDealsARevealedSeed: a backup taken between two games,
// restored after the store went on to reveal more decks, and opened
// again, deals its next decks from a new chain: no seed either timeline
// revealed comes back, and every later deck verifies against its new
// head.
func TestRestoreNeverDealsARevealedSeed(t *testing.T) {
	dir := t.TempDir()
	path, backup := filepath.Join(dir, "db"), filepath.Join(dir, "backup.db")
	s, err := Open(path, rotateOptions())
	require.NoError(t, err)
	key := TableKey{Chat: group}
	var upd updates
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Join}, t0)
	apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Join}, t0)

	revealed := map[game.Seed]string{}
	keep := func(when string, recs []*game.CutRecord) {
		for _, r := range recs {
			_, seen := revealed[r.Seed]
			require.False(t, seen, "%s: seed %s (link %d) was revealed before", when, r.Seed, r.Link)
			revealed[r.Seed] = when
		}
	}
	keep("before the backup", playCut(t, s, key, &upd, "tap:1", t0))
	first := tableChain(t, s, key)
	require.NoError(t, s.BackupFile(ctx, backup))

	// The store goes on: the links after the backup's are revealed.
	after := playCut(t, s, key, &upd, "tap:2", t0.Add(time.Hour))
	keep("after the backup", after)
	assert.Equal(t, first.Head, after[0].Head, "the same chain went on")
	require.NoError(t, s.Close())

	// The file is lost; the backup takes its place.
	b, err := os.ReadFile(backup)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o600))
	s = openAt(t, path, rotateOptions())
	_, ok, err := s.TableChain(ctx, key)
	require.NoError(t, err)
	assert.False(t, ok, "opening the file retired the table's chain")
	for i, cut := range []string{"tap:2", "my own words", "tap:3"} {
		recs := playCut(t, s, key, &upd, cut, t0.Add(time.Duration(i+2)*time.Hour))
		keep("after the restore", recs)
		for _, r := range recs {
			assert.NotEqual(t, first.Head, r.Head, "a new head after the restore")
		}
	}
	requireAudited(t, s)
}

// TestWaitingTableKeepsItsLink: a table stored while its deck waits for
// the cut keeps that deck's link, its commitment and head, across a
// restart (the seed was never revealed: its deck was never dealt), and
// the cut after the restart deals from it; the table's next deck takes a
// new chain.
func TestWaitingTableKeepsItsLink(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s, err := Open(path, rotateOptions())
	require.NoError(t, err)
	key := TableKey{Chat: group}
	var upd updates
	a := toCut(t, s, key, &upd, t0)
	asked, ok := a.Table.Cut()
	require.True(t, ok)
	require.True(t, asked.Waiting)
	require.NoError(t, s.Close())

	s = openAt(t, path, rotateOptions())
	_, ok, err = s.TableChain(ctx, key)
	require.NoError(t, err)
	assert.False(t, ok, "the chain is retired")
	v, err := s.View(ctx, key)
	require.NoError(t, err)
	still, ok := v.Table.Cut()
	require.True(t, ok)
	assert.Equal(t, asked, still, "the table waits for its cut on the link it held")

	apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Cut, Text: "after the restart"}, t0.Add(time.Second))
	end := endByTimeouts(t, s, key)
	revs, err := s.TableReveals(ctx, key, a.Table.Game())
	require.NoError(t, err)
	require.NotEmpty(t, revs)
	rec, err := game.ParseRecord(revs[0].Record)
	require.NoError(t, err)
	_, err = rec.Verify()
	require.NoError(t, err)
	cr := rec.(*game.CutRecord)
	assert.Equal(t, asked.Link, cr.Link)
	assert.Equal(t, asked.Head, cr.Head)
	assert.Equal(t, asked.Commitment, game.Commitment(cr.Seed.Hash()))
	assert.Equal(t, []byte("after the restart"), cr.Cut)
	assert.Equal(t, asked.Commitment, end.Decks[0])

	// The next deck: link 1 of a new chain.
	a = apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Start}, t0.Add(time.Minute))
	next, ok := a.Table.Cut()
	require.True(t, ok)
	assert.Equal(t, uint32(1), next.Link)
	assert.NotEqual(t, asked.Head, next.Head)
	assert.Equal(t, game.Commitment(next.Head), next.Commitment)
	requireAudited(t, s)
}

// copies returns the mark of the file at path: how many backups it counts
// being taken of it (0: none, not a copy).
func copies(t *testing.T, path string) uint64 {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	require.NoError(t, err)
	defer db.Close()
	var n uint64
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketMeta).Get(keyCopies); len(v) == 8 {
			n = binary.BigEndian.Uint64(v)
		}
		return nil
	}))
	return n
}

// TestRestoredCopyRelinksAWaitingTable: a backup taken while a table
// waits for its cut, restored after the file it replaced dealt that deck
// and revealed its seed, opens with the table waiting on a new link (link
// 1 of a new chain) and deals from it: the seed revealed is never dealt
// again. The file backed up holds no mark once the backup is taken, so
// its own restarts keep the links its tables wait on; the backups of a
// file no Store has open are marked as well.
func TestRestoredCopyRelinksAWaitingTable(t *testing.T) {
	dir := t.TempDir()
	path, backup := filepath.Join(dir, "db"), filepath.Join(dir, "backup.db")
	s, err := Open(path, rotateOptions())
	require.NoError(t, err)
	key := TableKey{Chat: group}
	var upd updates
	a := toCut(t, s, key, &upd, t0)
	asked, _ := a.Table.Cut()
	require.NoError(t, s.BackupFile(ctx, backup))
	assert.Equal(t, uint64(1), copies(t, backup), "the backup is marked as a copy")

	// The file goes on: the deck is cut, dealt and revealed.
	apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Cut, Text: "tap:1"}, t0.Add(time.Second))
	endByTimeouts(t, s, key)
	revs, err := s.TableReveals(ctx, key, a.Table.Game())
	require.NoError(t, err)
	rec, err := game.ParseRecord(revs[0].Record)
	require.NoError(t, err)
	revealed := rec.(*game.CutRecord).Seed
	require.NoError(t, s.Close())
	assert.Zero(t, copies(t, path), "the file backed up is no copy")

	// The backup takes its place.
	b, err := os.ReadFile(backup)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o600))
	s = openAt(t, path, rotateOptions())
	v, err := s.View(ctx, key)
	require.NoError(t, err)
	relinked, ok := v.Table.Cut()
	require.True(t, ok)
	assert.True(t, relinked.Waiting)
	assert.Equal(t, uint32(1), relinked.Link)
	assert.NotEqual(t, asked.Head, relinked.Head, "a new chain")
	assert.NotEqual(t, game.Commitment(revealed.Hash()), relinked.Commitment)
	assert.Equal(t, asked.Deadline, relinked.Deadline, "the wait stays")
	assert.Equal(t, a.Table.Version()+1, v.Table.Version(), "the buttons of before are stale")
	c := tableChain(t, s, key)
	assert.Equal(t, relinked.Head, c.Head)
	assert.Equal(t, uint32(2), c.Next)

	a = apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Cut, Text: "tap:1"}, t0.Add(time.Second))
	require.Equal(t, game.Betting, a.Table.Phase())
	endByTimeouts(t, s, key)
	revs, err = s.TableReveals(ctx, key, a.Table.Game())
	require.NoError(t, err)
	rec, err = game.ParseRecord(revs[0].Record)
	require.NoError(t, err)
	_, err = rec.Verify()
	require.NoError(t, err)
	assert.NotEqual(t, revealed, rec.(*game.CutRecord).Seed, "the seed revealed is not dealt again")
	assert.Equal(t, relinked.Head, rec.(*game.CutRecord).Head)
	require.NoError(t, s.Close())
	assert.Zero(t, copies(t, path), "opened, the copy is marked no more")

	// A backup of a file no Store has open is marked too, and the file
	// is left as it was.
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	closed := filepath.Join(dir, "closed.db")
	require.NoError(t, BackupClosed(ctx, path, closed, time.Second))
	assert.Equal(t, uint64(1), copies(t, closed))
	var buf bytes.Buffer
	n, err := BackupClosedTo(ctx, path, &buf, time.Second)
	require.NoError(t, err)
	assert.Equal(t, int64(buf.Len()), n)
	streamed := filepath.Join(dir, "streamed.db")
	require.NoError(t, os.WriteFile(streamed, buf.Bytes(), 0o600))
	assert.Equal(t, uint64(1), copies(t, streamed))
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "the file backed up is unchanged")
}
