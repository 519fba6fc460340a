package storage

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// view returns the table's View, failing the test on an error.
func view(t *testing.T, s *Store, key TableKey) View {
	t.Helper()
	v, err := s.View(ctx, key)
	require.NoError(t, err)
	return v
}

// encoded returns the table's encoding, which says all the table holds.
func encoded(t *testing.T, tb *game.Table) []byte {
	t.Helper()
	b, err := tb.MarshalBinary()
	require.NoError(t, err)
	return b
}

// messageIDs returns the ids of the messages to retire.
func messageIDs(rs []Retirement) []int {
	var ids []int
	for _, r := range rs {
		ids = append(ids, r.MessageID)
	}
	return ids
}

// shown opens the table and closes it again, with no game played, in the
// message id: the table of a chat that has a table message.
func shown(t *testing.T, s *Store, key TableKey, upd *updates, id int) {
	t.Helper()
	apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Open}, t0)
	a := apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Leave}, t0)
	require.Equal(t, game.Closed, a.Table.Phase())
	require.NoError(t, s.SetMessage(ctx, key, id))
}

// TestRetireLifecycle: Play again moves the table into a new message; the
// old one, to retire as the finished game's record, is written in
// the command's transaction and kept, through the new message and a
// restart, until the bot reports it retired.
func TestRetireLifecycle(t *testing.T) {
	path := t.TempDir() + "/db"
	s := openAt(t, path, Options{NoSync: true, Rand: stacked(fullGameDeck, fullGameDeck).Rand})
	key := TableKey{Chat: group, Thread: 2}
	var upd updates
	shown(t, s, key, &upd, 10)
	last := playFullGame(t, s, key, &upd)
	assert.Empty(t, last.Retiring, "a game played in its message retires nothing")
	finished := last.Table
	require.True(t, finished.Finished())

	a := apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Start}, t0.Add(time.Minute)) // Play again
	require.Equal(t, game.Betting, a.Table.Phase())
	require.Len(t, a.Retiring, 1)
	r := a.Retiring[0]
	assert.Equal(t, 10, r.MessageID)
	assert.True(t, r.Record)
	assert.Equal(t, encoded(t, &finished), encoded(t, &r.Table), "the table as the old message showed it")
	assert.Equal(t, map[game.UserID]string{alice.ID: "Alice", bob.ID: "Bob", carol.ID: "Carol"}, r.Names)
	assert.Equal(t, last.Decks, r.Decks)
	require.Len(t, r.Decks, 1)
	assert.Equal(t, 10, a.MessageID, "the table still names the old message: the next render is a new one")
	keys, err := s.Retiring(ctx)
	require.NoError(t, err)
	assert.Equal(t, []TableKey{key}, keys)

	// The new message is recorded; the old one is still to retire, through a
	// restart and the commands that follow.
	require.NoError(t, s.SetMessage(ctx, key, 11))
	require.NoError(t, s.Close())
	s = openAt(t, path, Options{NoSync: true})
	v := view(t, s, key)
	assert.Equal(t, 11, v.MessageID)
	assert.Equal(t, []int{10}, messageIDs(v.Retiring))
	assert.Equal(t, r, v.Retiring[0])
	au, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.True(t, au.OK, au.Problems)

	// Reported retired, twice (a write run twice, a retry): nothing is left.
	require.NoError(t, s.Retired(ctx, key, 10))
	require.NoError(t, s.Retired(ctx, key, 10))
	assert.Empty(t, view(t, s, key).Retiring)
	keys, err = s.Retiring(ctx)
	require.NoError(t, err)
	assert.Empty(t, keys)
	assert.ErrorIs(t, s.Retired(ctx, key, 0), game.ErrInvalidInput)
}

// TestRetire: a message to retire besides the table's old ones is listed
// with them, for deletion, through a restart, until reported retired; a
// record to retire for the same message stays a record.
func TestRetire(t *testing.T) {
	path := t.TempDir() + "/db"
	s := openAt(t, path, Options{NoSync: true})
	key := TableKey{Chat: group}
	var upd updates
	apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Open}, t0)
	require.NoError(t, s.SetMessage(ctx, key, 10))

	require.NoError(t, s.Retire(ctx, key, 12))
	require.NoError(t, s.Retire(ctx, key, 12)) // a write run twice
	v := view(t, s, key)
	assert.Equal(t, []Retirement{{MessageID: 12}}, v.Retiring)
	assert.Equal(t, 10, v.MessageID, "the table keeps its message")
	require.NoError(t, s.Close())

	s = openAt(t, path, Options{NoSync: true})
	keys, err := s.Retiring(ctx)
	require.NoError(t, err)
	assert.Equal(t, []TableKey{key}, keys)
	au, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.True(t, au.OK, au.Problems)
	require.NoError(t, s.Retired(ctx, key, 12))
	assert.Empty(t, view(t, s, key).Retiring)
	assert.ErrorIs(t, s.Retire(ctx, key, 0), game.ErrInvalidInput)
}

// TestRetireWhen: which commands retire the table's old message, and for
// what: the record of the game it showed, or deletion.
func TestRetireWhen(t *testing.T) {
	type step func(t *testing.T, s *Store, key TableKey, upd *updates) []Retirement
	open := func(repost bool) step {
		return func(t *testing.T, s *Store, key TableKey, upd *updates) []Retirement {
			a, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: upd.next(), User: dave,
				Command: game.Command{Kind: game.Open}, Now: t0.Add(time.Hour), Repost: repost})
			require.NoError(t, err)
			return a.Retiring
		}
	}
	played := func(t *testing.T, s *Store, key TableKey, upd *updates) {
		playFullGame(t, s, key, upd)
	}
	closed := func(t *testing.T, s *Store, key TableKey, upd *updates) {
		playFullGame(t, s, key, upd)
		v := view(t, s, key)
		apply(t, s, key, 0, User{}, game.Command{Kind: game.Timeout}, v.Table.Deadline().Add(time.Second))
		v = view(t, s, key)
		require.Equal(t, game.Closed, v.Table.Phase())
	}
	closedEmpty := func(t *testing.T, s *Store, key TableKey, upd *updates) {
		apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
		a := apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Leave}, t0)
		require.Equal(t, game.Closed, a.Table.Phase())
	}
	lobby := func(t *testing.T, s *Store, key TableKey, upd *updates) {
		apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
		apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Join}, t0)
	}
	start := func(t *testing.T, s *Store, key TableKey, upd *updates) []Retirement {
		return apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Start}, t0.Add(time.Hour)).Retiring
	}
	reposted := func(t *testing.T, s *Store, key TableKey, upd *updates) []Retirement {
		v, err := s.Repost(ctx, key, upd.next(), t0)
		require.NoError(t, err)
		return v.Retiring
	}
	tests := []struct {
		name   string
		before func(t *testing.T, s *Store, key TableKey, upd *updates)
		then   []step
		want   []bool // per step: nil retires nothing, else whether the message becomes a record
	}{
		{"play again", played, []step{start}, []bool{true}},
		{"the first game starts in the lobby's message", lobby, []step{start}, nil},
		{"/newgame over the closed table after a game", closed, []step{open(true)}, []bool{true}},
		{"its New table button", closed, []step{open(false)}, []bool{true}},
		{"/newgame over a table closed with no game", closedEmpty, []step{open(true)}, []bool{false}},
		{"its New table button, with no game", closedEmpty, []step{open(false)}, nil},
		{"/newgame while the table is open", lobby, []step{reposted}, []bool{false}},
		{"then the game replaces it: still deleted", lobby, []step{reposted, start}, []bool{false, false}},
		{"/newgame in the lobby after a game, then play again: a record", played, []step{reposted, start}, []bool{false, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, stacked(fullGameDeck, fullGameDeck))
			key := TableKey{Chat: group}
			var upd updates
			shown(t, s, key, &upd, 7)
			tc.before(t, s, key, &upd)
			require.Empty(t, view(t, s, key).Retiring)
			for i, st := range tc.then {
				got := st(t, s, key, &upd)
				if tc.want == nil {
					assert.Empty(t, got, "step %d", i)
					continue
				}
				require.Equal(t, []int{7}, messageIDs(got), "step %d", i)
				assert.Equal(t, tc.want[i], got[0].Record, "step %d: a record", i)
				assert.Equal(t, tc.want[i], got[0].Table.Finished(), "step %d: the finished table, for its record", i)
			}
			au, err := s.Audit(ctx, group)
			require.NoError(t, err)
			assert.True(t, au.OK, au.Problems)
		})
	}
}

// TestRetireNothingToRetire: a table never shown retires no message, and a
// table never opened cannot be reposted.
func TestRetireNothingToRetire(t *testing.T) {
	s := newStore(t, stacked(fullGameDeck, fullGameDeck))
	key := TableKey{Chat: group}
	var upd updates
	playFullGame(t, s, key, &upd)
	a := apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Start}, t0)
	assert.Empty(t, a.Retiring, "no message to retire")
	v, err := s.Repost(ctx, key, 0, time.Time{})
	require.NoError(t, err)
	assert.Empty(t, v.Retiring)
	_, err = s.Repost(ctx, TableKey{Chat: group, Thread: 9}, 0, time.Time{})
	assert.ErrorIs(t, err, ErrNotFound)
	keys, err := s.Retiring(ctx)
	require.NoError(t, err)
	assert.Empty(t, keys)
}

// TestRetireEndsWithTheChat: the old messages owed in a chat are dropped
// when the bot can no longer change them: it was removed from the chat, or
// the group became a supergroup.
func TestRetireEndsWithTheChat(t *testing.T) {
	tests := []struct {
		name  string
		end   func(s *Store) error
		table TableKey // the table after the end
	}{
		{"removed from the chat", func(s *Store) error {
			_, err := s.CancelAll(ctx, group, t0)
			return err
		}, TableKey{Chat: group}},
		{"the group upgraded", func(s *Store) error { return s.MigrateChat(ctx, group, supergroup) }, TableKey{Chat: supergroup}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, stacked(fullGameDeck, fullGameDeck))
			key := TableKey{Chat: group}
			var upd updates
			shown(t, s, key, &upd, 10)
			playFullGame(t, s, key, &upd)
			a := apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Start}, t0)
			require.Len(t, a.Retiring, 1)
			require.NoError(t, tc.end(s))
			assert.Empty(t, view(t, s, tc.table).Retiring)
			keys, err := s.Retiring(ctx)
			require.NoError(t, err)
			assert.Empty(t, keys)
			au, err := s.Audit(ctx, group)
			require.NoError(t, err)
			assert.True(t, au.OK, au.Problems)
		})
	}
}

// TestAuditOldMessages: an owed message that does not decode, or whose
// table is gone, is a problem the audit names; the View reports the file
// damaged.
func TestAuditOldMessages(t *testing.T) {
	tests := []struct {
		name string
		k    []byte
		v    []byte
		want string
	}{
		{"a value that does not decode", retireKey(TableKey{Chat: group}, 10), []byte{recordFormat, 0xff}, "an old message owed in thread 0"},
		{"no table", retireKey(TableKey{Chat: group, Thread: 5}, 10), []byte{recordFormat}, "thread 5 owes an old message, and has no table"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, Options{})
			apply(t, s, TableKey{Chat: group}, 1, alice, game.Command{Kind: game.Open}, t0)
			require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
				return tx.Bucket(bucketRetire).Put(tc.k, tc.v)
			}))
			a, err := s.Audit(ctx, group)
			require.NoError(t, err)
			assert.False(t, a.OK)
			require.Len(t, a.Problems, 1)
			assert.Contains(t, a.Problems[0], tc.want)
		})
	}
	s := newStore(t, Options{})
	key := TableKey{Chat: group}
	apply(t, s, key, 1, alice, game.Command{Kind: game.Open}, t0)
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketRetire).Put(retireKey(key, 10), []byte{recordFormat, 0xff})
	}))
	_, err := s.View(ctx, key)
	assert.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "old message of chat")
}

// TestRepostOnce: a /newgame delivered again after a crash does not move
// the open table down a second time.
func TestRepostOnce(t *testing.T) {
	s := newStore(t, stacked(fullGameDeck))
	key := TableKey{Chat: group}
	var upd updates
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
	require.NoError(t, s.SetMessage(ctx, key, 7))
	n := upd.next()
	v, err := s.Repost(ctx, key, n, t0)
	require.NoError(t, err)
	require.Len(t, v.Retiring, 1)
	require.NoError(t, s.Retired(ctx, key, 7))
	require.NoError(t, s.SetMessage(ctx, key, 8))
	_, err = s.Repost(ctx, key, n, t0)
	assert.ErrorIs(t, err, ErrDuplicate)
	v = view(t, s, key)
	assert.Empty(t, v.Retiring, "the new message is not owed")
	_, err = s.Repost(ctx, key, upd.next(), t0)
	assert.NoError(t, err, "a later update moves it again")
}

// TestHighest: the highest ids a file names are those of the chats' last
// updates, however they arrived, and of the messages tables are shown in
// or owe, across chats and a restart.
func TestHighest(t *testing.T) {
	path := t.TempDir() + "/db"
	s := openAt(t, path, Options{NoSync: true, Rand: stacked(fullGameDeck, fullGameDeck).Rand})
	h, err := s.Highest(ctx)
	require.NoError(t, err)
	assert.Equal(t, Highest{}, h, "a new file names nothing")

	key := TableKey{Chat: group}
	var upd updates
	shown(t, s, key, &upd, 30)
	playFullGame(t, s, key, &upd)
	apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Start}, t0.Add(time.Minute)) // Play again: 30 is owed
	require.NoError(t, s.SetMessage(ctx, key, 7))
	last := upd.n.Load()
	// Another chat's update that came late, below this chat's last.
	other := TableKey{Chat: group - 1}
	apply(t, s, other, last-5, carol, game.Command{Kind: game.Open}, t0)
	require.NoError(t, s.SetMessage(ctx, other, 12))

	h, err = s.Highest(ctx)
	require.NoError(t, err)
	assert.Equal(t, Highest{Update: last, Message: 30}, h, "the owed message is the highest")
	require.NoError(t, s.Retired(ctx, key, 30))
	require.NoError(t, s.Close())
	s = openAt(t, path, Options{NoSync: true})
	h, err = s.Highest(ctx)
	require.NoError(t, err)
	assert.Equal(t, Highest{Update: last, Message: 12}, h)
}
