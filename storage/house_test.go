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
	"github.com/twentyone-bot/twentyone/game/house"
)

// theHouse is the house as the bot seats it.
var theHouse = User{ID: house.ID, Name: "House"}

// requireAudited requires every chat's audit to be clean.
func requireAudited(t *testing.T, s *Store) {
	t.Helper()
	audits, err := s.AuditAll(ctx)
	require.NoError(t, err)
	for _, a := range audits {
		assert.True(t, a.OK, "chat %d: %v", a.Chat, a.Problems)
	}
}

// TestHouseAccount: the house's first seat in a chat grants it the house's
// chips, ledgered like a member's starting chips; an owner's grant tops it
// up; it is a line of the leaderboard like anyone's.
func TestHouseAccount(t *testing.T) {
	s := newStore(t, Options{HouseChips: 5000})
	key := TableKey{Chat: group}
	var upd updates
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
	_, err := s.Standing(ctx, group, house.ID)
	require.ErrorIs(t, err, ErrNotFound, "no account before its first seat")

	a := apply(t, s, key, upd.next(), theHouse, game.Command{Kind: game.Join}, t0)
	_, seated := a.Table.SeatOf(house.ID)
	require.True(t, seated)
	assert.Equal(t, int64(5000), a.Balances[house.ID])
	h, err := s.History(ctx, group, house.ID, 0)
	require.NoError(t, err)
	require.Len(t, h, 1)
	assert.Equal(t, LedgerStart, h[0].Kind)
	assert.Equal(t, int64(5000), h[0].Amount)

	bal, err := s.Grant(ctx, group, theHouse, 700, upd.next(), t0)
	require.NoError(t, err)
	assert.Equal(t, int64(5700), bal)
	st, err := s.Standing(ctx, group, house.ID)
	require.NoError(t, err)
	assert.Equal(t, Standing{User: house.ID, Name: "House", Balance: 5700}, st)

	// In another chat, an owner's grant is the house's first appearance:
	// its chips and the grant.
	bal, err = s.Grant(ctx, 555, theHouse, 1, upd.next(), t0)
	require.NoError(t, err)
	assert.Equal(t, int64(5001), bal)

	a2, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.Equal(t, int64(1000+5700), a2.Granted)
	requireAudited(t, s)
}

// TestThen: solo play's Open is followed by the house's Join in the same
// transaction; a Join the game refuses leaves the Open applied alone.
func TestThen(t *testing.T) {
	rich := game.DefaultSettings()
	tests := []struct {
		name     string
		entry    int64
		seated   []game.UserID
		thenErr  error
		granted  int64
		versions uint64
	}{
		{"the house sits", 100, []game.UserID{alice.ID, house.ID}, nil, 1000 + DefaultHouseChips, 2},
		{"the house cannot meet the entry limit", 20_000, nil, game.ErrBelowEntryLimit, 1000, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t, Options{})
			settings := rich
			settings.EntryLimit = tt.entry
			_, err := s.UpdateSettings(ctx, int64(alice.ID), func(cs *ChatSettings) error { cs.Game = settings; return nil })
			require.NoError(t, err)
			key := TableKey{Chat: int64(alice.ID)}
			before := fileBytes(t, s)
			a, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: 7, User: alice, Command: game.Command{Kind: game.Open},
				Now: t0, Then: &Chained{User: theHouse, Command: game.Command{Kind: game.Join}}})
			require.NoError(t, err)
			assert.NotEqual(t, before, fileBytes(t, s))
			assert.ErrorIs(t, a.ThenErr, tt.thenErr)
			var seated []game.UserID
			for _, st := range a.Table.Seats() {
				seated = append(seated, st.User)
			}
			assert.Equal(t, tt.seated, seated)
			assert.Equal(t, tt.versions, a.Table.Version())
			au, err := s.Audit(ctx, key.Chat)
			require.NoError(t, err)
			assert.Equal(t, tt.granted, au.Granted)
			assert.True(t, au.OK, au.Problems)
			_, err = s.Standing(ctx, key.Chat, house.ID)
			assert.Equal(t, tt.thenErr != nil, errors.Is(err, ErrNotFound), "the house is created only when it sits")

			// Delivered again: nothing more.
			_, err = s.Apply(ctx, ApplyRequest{Key: key, UpdateID: 7, User: alice, Command: game.Command{Kind: game.Open},
				Now: t0, Then: &Chained{User: theHouse, Command: game.Command{Kind: game.Join}}})
			assert.ErrorIs(t, err, ErrDuplicate)
		})
	}
}

func TestThenRejectsNonsense(t *testing.T) {
	s := newStore(t, Options{})
	for _, f := range []Chained{
		{Command: game.Command{Kind: game.Join}},
		{User: theHouse, Command: game.Command{Kind: game.Join, User: bob.ID}},
		{User: theHouse, Command: game.Command{Kind: game.Timeout}},
	} {
		_, err := s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: group}, User: alice, Command: game.Command{Kind: game.Open}, Now: t0, Then: &f})
		assert.ErrorIs(t, err, game.ErrInvalidInput, "%+v", f)
	}
}

// houseGame opens a table of Alice and the house and starts a game in
// which the house is to bet (Alice banks), and returns the view.
func houseGame(t *testing.T, s *Store, key TableKey, upd *updates) View {
	t.Helper()
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, upd.next(), theHouse, game.Command{Kind: game.Join}, t0)
	a := apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
	i, ok := a.Table.Turn()
	require.True(t, ok)
	require.Equal(t, house.ID, a.Table.Seat(i).User, "the house is to bet")
	return a.View
}

// TestHouseMoveTimer: while the house is to move at a table, Timers lists
// the time it moves with the deadline, so that a restart re-arms both;
// the audit checks the index holds it.
func TestHouseMoveTimer(t *testing.T) {
	s := newStore(t, stacked())
	key := TableKey{Chat: group}
	var upd updates
	v := houseGame(t, s, key, &upd)
	timers, err := s.Timers(ctx)
	require.NoError(t, err)
	require.Len(t, timers, 1)
	want := house.MoveAt(&v.Table)
	require.False(t, want.IsZero())
	assert.True(t, want.Equal(timers[0].HouseAt), "%v, want %v", timers[0].HouseAt, want)
	assert.True(t, v.Table.Deadline().Equal(timers[0].Deadline))
	requireAudited(t, s)

	// The house bets and draws to its end: then the lobby waits, with no
	// move of the house.
	for v.Table.Phase().InGame() {
		cmd, ok := house.Move(&v.Table, house.ID, v.Balances[house.ID])
		require.True(t, ok)
		a := apply(t, s, key, upd.next(), theHouse, cmd, t0.Add(2*time.Second))
		v = a.View
		timers, err = s.Timers(ctx)
		require.NoError(t, err)
		require.Len(t, timers, 1)
		assert.True(t, house.MoveAt(&v.Table).Equal(timers[0].HouseAt))
	}
	assert.True(t, timers[0].HouseAt.IsZero(), "no move in the lobby")
	requireAudited(t, s)

	// An index that misses the house's move is found.
	houseGame(t, s, TableKey{Chat: group, Thread: 5}, &upd)
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketTimers).Put(tableKeyBytes(TableKey{Chat: group, Thread: 5}), present)
	}))
	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.False(t, a.OK)
	assert.Contains(t, a.Problems, "the timer index does not match the table of thread 5")
}

func TestHouseForbiddenSetting(t *testing.T) {
	s := newStore(t, Options{})
	cs, err := s.Settings(ctx, group)
	require.NoError(t, err)
	assert.False(t, cs.HouseForbidden, "allowed by default")
	cs, err = s.UpdateSettings(ctx, group, func(c *ChatSettings) error { c.HouseForbidden = true; return nil })
	require.NoError(t, err)
	assert.True(t, cs.HouseForbidden)
	cs, err = s.Settings(ctx, group)
	require.NoError(t, err)
	assert.True(t, cs.HouseForbidden)
	assert.True(t, cs.Game.Equal(game.DefaultSettings()), "the game's settings still follow the defaults")

	// A chat that never set it follows the defaults; one that did keeps
	// its own.
	path := s.Path()
	require.NoError(t, s.Close())
	s = openAt(t, path, Options{NoSync: true, Defaults: ChatSettings{HouseForbidden: true}})
	cs, err = s.Settings(ctx, 555)
	require.NoError(t, err)
	assert.True(t, cs.HouseForbidden)
	cs, err = s.UpdateSettings(ctx, group, func(c *ChatSettings) error { c.HouseForbidden = false; return nil })
	require.NoError(t, err)
	assert.False(t, cs.HouseForbidden)
	cs, err = s.Settings(ctx, group)
	require.NoError(t, err)
	assert.False(t, cs.HouseForbidden, "set, it overrides the default")
}

func TestHouseChipsOption(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "x.db"), Options{NoSync: true, HouseChips: MaxGrant + 1})
	assert.ErrorIs(t, err, game.ErrInvalidInput)
}
