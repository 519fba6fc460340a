package storage

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// TestShowTurn: a turn shown late gets its deadline moved in the table, at
// the same version, where Timers (a restart) finds it; one shown in time
// and a stale version change nothing.
func TestShowTurn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s := openAt(t, path, Options{NoSync: true, Rand: stacked(fullGameDeck).Rand})
	key := TableKey{Chat: group}
	var upd updates
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Join}, t0)
	a := apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
	require.Equal(t, game.Betting, a.Table.Phase())
	turn := a.Table.Settings().TurnTimeout
	version := a.Table.Version()

	v, err := s.ShowTurn(ctx, key, version, t0.Add(time.Second), 2*time.Second)
	require.NoError(t, err)
	assert.Equal(t, a.Table.Deadline(), v.Table.Deadline(), "shown in time")

	_, err = s.ShowTurn(ctx, key, version-1, t0.Add(30*time.Second), 2*time.Second)
	assert.ErrorIs(t, err, game.ErrOutdated)
	after := view(t, s, key)
	assert.Equal(t, a.Table.Deadline(), after.Table.Deadline())

	shownAt := t0.Add(30 * time.Second)
	v, err = s.ShowTurn(ctx, key, version, shownAt, 2*time.Second)
	require.NoError(t, err)
	assert.Equal(t, version, v.Table.Version())
	assert.True(t, shownAt.Add(turn).Equal(v.Table.Deadline()), "deadline %s", v.Table.Deadline())
	assert.Equal(t, v.Table, view(t, s, key).Table)
	assert.Equal(t, "Bob", v.Names[bob.ID])
	timers, err := s.Timers(ctx)
	require.NoError(t, err)
	require.Len(t, timers, 1)
	assert.True(t, shownAt.Add(turn).Equal(timers[0].Deadline))

	_, err = s.Apply(ctx, ApplyRequest{Key: key, Command: game.Command{Kind: game.Timeout, Version: version}, Now: a.Table.Deadline()})
	assert.ErrorIs(t, err, game.ErrTooEarly, "the old deadline passed, the new one did not")
	audits, err := s.AuditAll(ctx)
	require.NoError(t, err)
	require.Len(t, audits, 1)
	assert.True(t, audits[0].OK, audits[0].Problems)

	_, err = s.ShowTurn(ctx, TableKey{Chat: group, Thread: 9}, 1, shownAt, time.Second)
	assert.ErrorIs(t, err, ErrNotFound)
}

// TestPace: what SavePace saves LoadPace returns, across a restart; a
// group saved with no calls is removed, and so is one whose calls all came
// before the expiry.
func TestPace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s := openAt(t, path, Options{NoSync: true})
	p, err := s.LoadPace(ctx)
	require.NoError(t, err)
	assert.True(t, p.At.IsZero(), "nothing saved")
	assert.Empty(t, p.Calls)

	at := t0.Add(time.Minute)
	calls := []time.Time{t0.Add(50 * time.Second), t0.Add(20 * time.Second), t0.Add(57*time.Second + 250*time.Millisecond)}
	require.NoError(t, s.SavePace(ctx, Pace{At: at, Calls: map[int64][]time.Time{
		-1: calls, -2: {t0.Add(10 * time.Second)}, -3: {t0.Add(30 * time.Second)}}}, at.Add(-time.Minute)))
	require.NoError(t, s.SavePace(ctx, Pace{At: at.Add(time.Second), Clean: true, Calls: map[int64][]time.Time{
		-3: nil}}, at.Add(-45*time.Second)))
	require.NoError(t, s.Close())

	s = openAt(t, path, Options{NoSync: true})
	p, err = s.LoadPace(ctx)
	require.NoError(t, err)
	assert.True(t, at.Add(time.Second).Equal(p.At))
	assert.True(t, p.Clean)
	require.Len(t, p.Calls, 1, "-2 expired, -3 emptied")
	require.Len(t, p.Calls[-1], 3)
	for i, want := range []time.Time{calls[1], calls[0], calls[2]} {
		assert.True(t, want.Equal(p.Calls[-1][i]), "call %d: %s", i, p.Calls[-1][i])
	}
}

// TestPaceShown: the versions the table messages show are saved with the
// pace and outlive its expiry; a version 0 forgets a table.
func TestPaceShown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s := openAt(t, path, Options{NoSync: true})
	a, b, c := TableKey{Chat: -1}, TableKey{Chat: -1, Thread: 7}, TableKey{Chat: 5}
	require.NoError(t, s.SavePace(ctx, Pace{At: t0, Shown: map[TableKey]uint64{a: 3, b: 9, c: 12}}, t0))
	require.NoError(t, s.SavePace(ctx, Pace{At: t0.Add(time.Hour), Shown: map[TableKey]uint64{a: 4, b: 0}}, t0.Add(time.Hour)))
	require.NoError(t, s.Close())

	s = openAt(t, path, Options{NoSync: true})
	p, err := s.LoadPace(ctx)
	require.NoError(t, err)
	assert.Equal(t, map[TableKey]uint64{a: 4, c: 12}, p.Shown, "a moved on, b forgotten, c kept past the pace's expiry")
	assert.Empty(t, p.Calls, "no group's calls: the shown versions are none")
}
