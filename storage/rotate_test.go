package storage

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
