package storage

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/game/house"
)

// The cut in storage: each table's hash chain, taken a link at a time in
// the transaction of the command that asks for a deck's cut, and the
// cut with the deal in one transaction.

// cutOptions asks for the cut; decks are derived by the rules, unless
// stacked are given. Seat 0 is the first banker, and the chains' secrets
// are fixed (gametest.Stacked.Uint64).
func cutOptions(decks ...string) Options {
	d := gametest.Deck(decks...)
	o := Options{CutWait: game.DefaultCutWait, Rand: d}
	if len(decks) > 0 {
		o.Deriver = d
	}
	return o
}

// shortChains makes the store's new chains n links long; before its first
// write.
func shortChains(s *Store, n uint32) *Store {
	s.chainLength = n
	return s
}

// toCut opens a table at key, seats Alice, Bob and Carol and starts a
// game: its deck waits for the cut.
func toCut(t *testing.T, s *Store, key TableKey, upd *updates, now time.Time) Applied {
	t.Helper()
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, now)
	apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Join}, now)
	apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Join}, now)
	a := apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, now)
	require.Equal(t, game.Cutting, a.Table.Phase())
	return a
}

func tableChain(t *testing.T, s *Store, key TableKey) Chain {
	t.Helper()
	c, ok, err := s.TableChain(ctx, key)
	require.NoError(t, err)
	require.True(t, ok, "the table has a chain")
	return c
}

// endByTimeouts times the table out until its game is over.
func endByTimeouts(t *testing.T, s *Store, key TableKey) Applied {
	t.Helper()
	for {
		v, err := s.View(ctx, key)
		require.NoError(t, err)
		if !v.Table.Phase().InGame() {
			return Applied{View: v}
		}
		_, err = s.Apply(ctx, ApplyRequest{Key: key, Command: game.Command{Kind: game.Timeout, Version: v.Table.Version()}, Now: v.Table.Deadline()})
		require.NoError(t, err)
	}
}

func TestApplyCut(t *testing.T) {
	s := newStore(t, cutOptions())
	key := TableKey{Chat: group}
	var upd updates
	_, ok, err := s.TableChain(ctx, key)
	require.NoError(t, err)
	assert.False(t, ok, "no chain before the first deck")

	// The start takes the chain's first link, in its transaction: the
	// table waits for the cut, committed to the head.
	a := toCut(t, s, key, &upd, t0)
	c := tableChain(t, s, key)
	assert.Equal(t, uint32(game.ChainLength), c.Length)
	assert.Equal(t, uint32(2), c.Next)
	cm, ok := a.Table.Commitment()
	require.True(t, ok)
	assert.Equal(t, game.Commitment(c.Head), cm)
	ask := eventOf(t, a.Outcome, game.EventCutAsked)
	assert.Equal(t, bob.ID, ask.User)
	timers, err := s.Timers(ctx)
	require.NoError(t, err)
	require.Len(t, timers, 1)
	assert.True(t, timers[0].Deadline.Equal(t0.Add(game.DefaultCutWait)), "the cut wait is a stored deadline")
	assert.True(t, timers[0].HouseAt.IsZero())
	requireAudited(t, s)

	// Carol cuts: the deck is dealt in the same transaction.
	cutUpd := upd.next()
	a = apply(t, s, key, cutUpd, carol, game.Command{Kind: game.Cut, Text: "my words"}, t0.Add(time.Second))
	assert.Equal(t, game.Betting, a.Table.Phase())
	assert.Equal(t, carol.ID, eventOf(t, a.Outcome, game.EventCut).User)
	assert.Len(t, eventsOf(a.Outcome, game.EventDealt), 2)
	assert.Equal(t, uint32(2), tableChain(t, s, key).Next, "the cut takes no link")
	requireAudited(t, s)

	// Delivered again, the cut is a duplicate, answered the same.
	_, err = s.Apply(ctx, ApplyRequest{Key: key, UpdateID: cutUpd, User: carol, Command: game.Command{Kind: game.Cut, Text: "my words"}, Now: t0.Add(time.Second)})
	require.ErrorIs(t, err, ErrDuplicate)
	dup, _ := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: cutUpd, User: carol, Command: game.Command{Kind: game.Cut, Text: "my words"}, Now: t0.Add(time.Second)})
	require.NotEmpty(t, dup.Outcome.Events)
	assert.Equal(t, game.EventCut, dup.Outcome.Events[0].Kind)

	// The game ends; its deck's record is kept, and verifies.
	end := endByTimeouts(t, s, key)
	revs, err := s.TableReveals(ctx, key, end.Table.Game())
	require.NoError(t, err)
	require.Len(t, revs, 1)
	r := revs[0]
	assert.Equal(t, game.SchemeCut, r.Scheme)
	assert.Equal(t, carol.ID, r.CutBy)
	assert.Equal(t, carol.Name, r.CutByName, "the cutter's name, for /verify")
	assert.Equal(t, c.Head.String(), r.Commitment)
	assert.Empty(t, r.Preimage)
	rec, err := game.ParseRecord(r.Record)
	require.NoError(t, err)
	_, err = rec.Verify()
	require.NoError(t, err)
	cr := rec.(*game.CutRecord)
	assert.Equal(t, []byte("my words"), cr.Cut)
	assert.Equal(t, uint32(1), cr.Link)
	assert.Equal(t, c.Head, cr.Head)
	assert.Len(t, cr.Dealt, 2)
	assert.Equal(t, []game.Commitment{cm}, end.Decks)
	requireAudited(t, s)

	// The next game takes the next link, committed to by the seed just
	// revealed.
	a = apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Start}, t0.Add(time.Minute))
	next, _ := a.Table.Commitment()
	assert.Equal(t, game.Commitment(cr.Seed), next)
	assert.Equal(t, uint32(3), tableChain(t, s, key).Next)
}

func eventsOf(o game.Outcome, k game.EventKind) []game.Event {
	var es []game.Event
	for _, e := range o.Events {
		if e.Kind == k {
			es = append(es, e)
		}
	}
	return es
}

func eventOf(t *testing.T, o game.Outcome, k game.EventKind) game.Event {
	t.Helper()
	es := eventsOf(o, k)
	require.Len(t, es, 1, "one %s", k)
	return es[0]
}

// TestChainPerTable: each table has a chain of its own (two topics of a
// forum would else show each other's seeds), and a chain used up is
// followed by a new one, with a new head.
func TestChainPerTable(t *testing.T) {
	s := shortChains(newStore(t, cutOptions()), 2)
	var upd updates
	one, two := TableKey{Chat: group, Thread: 1}, TableKey{Chat: group, Thread: 2}
	toCut(t, s, one, &upd, t0)
	apply(t, s, two, upd.next(), dave, game.Command{Kind: game.Open}, t0)
	apply(t, s, two, upd.next(), theHouse, game.Command{Kind: game.Join}, t0)
	a := apply(t, s, two, upd.next(), dave, game.Command{Kind: game.Start}, t0)
	require.Equal(t, game.Cutting, a.Table.Phase())
	assert.Equal(t, dave.ID, eventOf(t, a.Outcome, game.EventCutAsked).User, "the house never cuts")
	c1, c2 := tableChain(t, s, one), tableChain(t, s, two)
	assert.NotEqual(t, c1.Head, c2.Head)
	assert.Equal(t, uint32(2), c1.Next)
	assert.Equal(t, uint32(2), c2.Next)

	// Two more games at table one use its chain up: the third takes link
	// 1 of a new one.
	heads := map[game.Seed]bool{c1.Head: true}
	for i := range 2 {
		endByTimeouts(t, s, one)
		a = apply(t, s, one, upd.next(), bob, game.Command{Kind: game.Start}, t0.Add(time.Duration(i+1)*time.Minute))
		ask, ok := a.Table.Cut()
		require.True(t, ok)
		heads[ask.Head] = true
		assert.Equal(t, uint32(2-i), ask.Link)
	}
	assert.Len(t, heads, 2, "a new head")
	assert.Equal(t, uint32(2), tableChain(t, s, one).Next)
	requireAudited(t, s)
}

// TestCutCrashBetweenWrites: a write that fails between the stages of
// the cut's transaction (the table written, not the rest) rolls back
// whole: the table still waits for the cut with its commitment and link,
// the chain has not moved, and the cut, made again, deals what it would
// have dealt. A start that fails takes no link.
func TestCutCrashBetweenWrites(t *testing.T) {
	in := &injector{}
	s := newFaultyStore(t, cutOptions(), in.faults())
	twin := newStore(t, cutOptions())
	key := TableKey{Chat: group}
	var upd updates

	// The start fails after writing its table: no link, no chain.
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Join}, t0)
	boom := errors.New("power cut")
	in.failAfter(func(_ TableKey, stage string) error {
		if stage == "users" {
			return boom
		}
		return nil
	})
	_, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: upd.next(), User: alice, Command: game.Command{Kind: game.Start}, Now: t0})
	require.ErrorIs(t, err, boom)
	_, ok, err := s.TableChain(ctx, key)
	require.NoError(t, err)
	assert.False(t, ok, "the chain made in the failed write is gone with it")
	v, err := s.View(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, game.Lobby, v.Table.Phase())
	in.clear()
	a := apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
	require.Equal(t, game.Cutting, a.Table.Phase())
	before := tableChain(t, s, key)
	waiting := encoded(t, &a.Table)

	// The cut fails after its table was written, then after every stage.
	for _, stage := range []string{"table", "ledger", "users", "chat"} {
		in.failAfter(func(_ TableKey, st string) error {
			if st == stage {
				return boom
			}
			return nil
		})
		_, err = s.Apply(ctx, ApplyRequest{Key: key, UpdateID: upd.next(), User: bob, Command: game.Command{Kind: game.Cut, Text: "tap:2"}, Now: t0})
		require.ErrorIs(t, err, boom, stage)
		v, err = s.View(ctx, key)
		require.NoError(t, err)
		assert.Equal(t, waiting, encoded(t, &v.Table), "after %s: the table waits as it did, its commitment and link with it", stage)
		assert.Equal(t, before, tableChain(t, s, key), "after %s: the chain has not moved", stage)
	}
	in.clear()
	a = apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Cut, Text: "tap:2"}, t0)
	require.Equal(t, game.Betting, a.Table.Phase())

	// A store that never failed, with the same chain, deals the same:
	// the deck is the seed's and the cut's alone.
	var tu updates
	apply(t, twin, key, tu.next(), alice, game.Command{Kind: game.Open}, t0)
	apply(t, twin, key, tu.next(), bob, game.Command{Kind: game.Join}, t0)
	copyChain(t, s, twin, key)
	apply(t, twin, key, tu.next(), alice, game.Command{Kind: game.Start}, t0)
	b := apply(t, twin, key, tu.next(), bob, game.Command{Kind: game.Cut, Text: "tap:2"}, t0)
	assert.Equal(t, eventsOf(a.Outcome, game.EventDealt), eventsOf(b.Outcome, game.EventDealt))
	requireAudited(t, s)
}

// copyChain gives table key of store to the chain of store from's, as it
// was before its first link was taken.
func copyChain(t *testing.T, from, to *Store, key TableKey) {
	t.Helper()
	var rec chainRec
	require.NoError(t, from.db.View(func(tx *bolt.Tx) error {
		var err error
		rec, err = decodeChain(tx.Bucket(bucketChains).Get(tableKeyBytes(key)))
		return err
	}))
	rec.next = 1
	require.NoError(t, to.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketChains).Put(tableKeyBytes(key), rec.encode())
	}))
}

// TestRestartInCutWait: a table stored in its cut wait comes back with
// its deadline after a restart, and times out into a deal not cut; the
// house, seated, has no move to make meanwhile.
func TestRestartInCutWait(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s, err := Open(path, Options{NoSync: true, CutWait: game.DefaultCutWait})
	require.NoError(t, err)
	key := TableKey{Chat: int64(alice.ID)} // solo play: the player and the house
	var upd updates
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, upd.next(), theHouse, game.Command{Kind: game.Join}, t0)
	a := apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
	require.Equal(t, game.Cutting, a.Table.Phase())
	assert.Equal(t, alice.ID, eventOf(t, a.Outcome, game.EventCutAsked).User, "in solo play the player cuts")
	require.NoError(t, s.Close())

	s = openAt(t, path, Options{NoSync: true, CutWait: game.DefaultCutWait})
	timers, err := s.Timers(ctx)
	require.NoError(t, err)
	require.Len(t, timers, 1)
	assert.Equal(t, key, timers[0].Key)
	assert.Equal(t, a.Table.Version(), timers[0].Version)
	assert.True(t, timers[0].Deadline.Equal(t0.Add(game.DefaultCutWait)), "the deadline is re-armed from the file")
	assert.True(t, timers[0].HouseAt.IsZero(), "the house does not cut")
	_, ok, err := s.TableChain(ctx, key)
	require.NoError(t, err)
	assert.False(t, ok, "the open retired the chain; the table keeps its link (TestWaitingTableKeepsItsLink)")
	_, err = s.Apply(ctx, ApplyRequest{Key: key, Command: game.Command{Kind: game.Timeout, Version: timers[0].Version}, Now: timers[0].Deadline.Add(-time.Millisecond)})
	require.ErrorIs(t, err, game.ErrTooEarly)
	a, err = s.Apply(ctx, ApplyRequest{Key: key, Command: game.Command{Kind: game.Timeout, Version: timers[0].Version}, Now: timers[0].Deadline})
	require.NoError(t, err)
	assert.Equal(t, game.UserID(0), eventOf(t, a.Outcome, game.EventCut).User, "not cut")
	assert.Equal(t, game.Betting, a.Table.Phase())
	requireAudited(t, s)

	// A cut by the house is refused, whoever asks for it.
	s2 := newStore(t, cutOptions())
	var u2 updates
	apply(t, s2, key, u2.next(), alice, game.Command{Kind: game.Open}, t0)
	apply(t, s2, key, u2.next(), theHouse, game.Command{Kind: game.Join}, t0)
	apply(t, s2, key, u2.next(), alice, game.Command{Kind: game.Start}, t0)
	_, err = s2.Apply(ctx, ApplyRequest{Key: key, UpdateID: u2.next(), User: theHouse, Command: game.Command{Kind: game.Cut, Text: "tap:1"}, Now: t0})
	require.ErrorIs(t, err, game.ErrHouseCannotCut)
}

// TestCutOff: with no cut wait (the default until the bot shows the
// cut), decks are dealt at once as before, of game.SchemeSalt, and no
// chain is made.
func TestCutOff(t *testing.T) {
	s := newStore(t, stacked(fullGameDeck))
	key := TableKey{Chat: group}
	var upd updates
	end := playFullGame(t, s, key, &upd)
	_, ok, err := s.TableChain(ctx, key)
	require.NoError(t, err)
	assert.False(t, ok)
	revs, err := s.TableReveals(ctx, key, end.Table.Game())
	require.NoError(t, err)
	require.Len(t, revs, 1)
	assert.Equal(t, game.SchemeSalt, revs[0].Scheme)
	assert.NoError(t, game.VerifyDeck(revs[0].Preimage, revs[0].Commitment))
	rec, err := game.ParseRecord(revs[0].Record)
	require.NoError(t, err)
	_, err = rec.Verify()
	assert.NoError(t, err)

	_, err = Open(filepath.Join(t.TempDir(), "db"), Options{CutWait: -time.Second})
	assert.ErrorIs(t, err, game.ErrInvalidInput)
}

// TestMigrateChatMovesChain: a group upgraded to a supergroup keeps its
// tables' chains, and a table waiting for its cut there is cut in the new
// chat.
func TestMigrateChatMovesChain(t *testing.T) {
	s := newStore(t, cutOptions())
	key := TableKey{Chat: group}
	var upd updates
	toCut(t, s, key, &upd, t0)
	before := tableChain(t, s, key)
	const super = int64(-1009999)
	require.NoError(t, s.MigrateChat(ctx, group, super))
	moved := TableKey{Chat: super}
	assert.Equal(t, before, tableChain(t, s, moved))
	a := apply(t, s, moved, upd.next(), bob, game.Command{Kind: game.Cut, Text: "tap:3"}, t0)
	assert.Equal(t, game.Betting, a.Table.Phase())
	require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
		assert.Nil(t, tx.Bucket(bucketChains).Get(tableKeyBytes(key)), "no chain left behind")
		return nil
	}))
	requireAudited(t, s)
	_ = house.ID
}

// TestMigrateFromSchema2: a file of schema 2 (no chains, every deck of
// game.SchemeSalt), a game finished and one under way, opens migrated to
// schema 3 in one transaction: the decks revealed keep their records of
// sha256-salt-v0 and verify as before, the game under way plays on with
// its deck, and the next game's deck is of the cut.
func TestMigrateFromSchema2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	s, err := Open(path, Options{NoSync: true, Rand: gametest.Deck(fullGameDeck, fullGameDeck)})
	require.NoError(t, err)
	key := TableKey{Chat: group}
	var upd updates
	first := playFullGame(t, s, key, &upd)
	apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Start}, t0)
	under := apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Bet, Amount: 5}, t0)
	require.Equal(t, game.Drawing, under.Table.Phase())
	old, err := s.TableReveals(ctx, key, first.Table.Game())
	require.NoError(t, err)
	require.NoError(t, s.Close())
	rewrite(t, path, toSchema2)
	require.Equal(t, uint64(2), schemaOf(t, path))
	require.NotContains(t, bucketNames(t, path), "chains")

	s = openAt(t, path, Options{NoSync: true, CutWait: game.DefaultCutWait})
	got, err := s.TableReveals(ctx, key, first.Table.Game())
	require.NoError(t, err)
	assert.Equal(t, old, got)
	require.Len(t, got, 1)
	assert.Equal(t, game.SchemeSalt, got[0].Scheme)
	assert.NoError(t, game.VerifyDeck(got[0].Preimage, got[0].Commitment), "verifies as before")
	rec, err := game.ParseRecord(got[0].Record)
	require.NoError(t, err)
	assert.Equal(t, game.SchemeSalt, rec.Scheme())
	_, err = rec.Verify()
	assert.NoError(t, err)

	// The game under way plays on with its deck of before the cut.
	v, err := s.View(ctx, key)
	require.NoError(t, err)
	_, isCut := v.Table.Cut()
	assert.False(t, isCut)
	apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Stand}, t0)
	end := endByTimeouts(t, s, key)
	revs, err := s.TableReveals(ctx, key, end.Table.Game())
	require.NoError(t, err)
	require.Len(t, revs, 1)
	assert.Equal(t, game.SchemeSalt, revs[0].Scheme)

	// The next game's deck waits for its cut.
	a := apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Start}, t0)
	assert.Equal(t, game.Cutting, a.Table.Phase())
	assert.Equal(t, uint32(2), tableChain(t, s, key).Next)
	requireAudited(t, s)
	require.NoError(t, s.Close())
	assert.Equal(t, uint64(SchemaVersion), schemaOf(t, path))
	assert.Contains(t, bucketNames(t, path), "chains")
}
