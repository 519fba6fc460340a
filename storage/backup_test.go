package storage

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// playChats plays n commands on each of chats from one goroutine per chat,
// or, when n is 0, until stop is closed. Update ids come from the clock of
// the package's tests, shared by every call.
func playChats(t testing.TB, s *Store, chats []int64, n int, stop <-chan struct{}) {
	var wg sync.WaitGroup
	for _, chat := range chats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(chat), 9))
			us := players(game.UserID(chat*10), 4)
			var v View
			for i := 0; n == 0 || i < n; i++ {
				select {
				case <-stop:
					return
				default:
				}
				u, cmd := pickCommand(&v, us, r)
				a, err := s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: chat}, UpdateID: testUpdates.next(), User: u, Command: cmd, Now: t0})
				if err != nil && (errors.Is(err, ErrDuplicate) || game.Kind(err) == game.KindInternal) {
					t.Errorf("chat %d: %v", chat, err)
					return
				}
				v = a.View
			}
		}()
	}
	wg.Wait()
}

func TestBackupWhileWriting(t *testing.T) {
	s := newStore(t, Options{})
	chats := []int64{1, 2, 3, 4, 5, 6, 7, 8}
	playChats(t, s, chats, 20, nil)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		playChats(t, s, chats, 0, stop)
	}()
	dir := t.TempDir()
	var paths []string
	for i := range 5 {
		p := filepath.Join(dir, "backup-"+string(rune('a'+i))+".db")
		require.NoError(t, s.BackupFile(ctx, p))
		paths = append(paths, p)
	}
	var buf bytes.Buffer
	n, err := s.Backup(ctx, &buf)
	require.NoError(t, err)
	assert.Equal(t, int64(buf.Len()), n)
	close(stop)
	wg.Wait()

	streamed := filepath.Join(dir, "streamed.db")
	require.NoError(t, os.WriteFile(streamed, buf.Bytes(), 0o600))
	for _, p := range append(paths, streamed) {
		b := openAt(t, p, Options{NoSync: true})
		audits, err := b.AuditAll(ctx)
		require.NoError(t, err)
		assert.Len(t, audits, len(chats), p)
		for _, a := range audits {
			assert.True(t, a.OK, "%s: %v", p, a.Problems)
		}
		require.NoError(t, b.Close())
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, len(paths)+1, "no temporary files left behind")

	cancelled, cancel := contextWithCancel()
	cancel()
	_, err = s.Backup(cancelled, &buf)
	assert.ErrorIs(t, err, errCanceled)
}

func TestCompact(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	s, err := Open(src, Options{NoSync: true})
	require.NoError(t, err)
	playChats(t, s, []int64{1, 2, 3}, 40, nil)
	want, err := s.AuditAll(ctx)
	require.NoError(t, err)
	lb, err := s.Leaderboard(ctx, 1, 5)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	dst := filepath.Join(dir, "dst.db")
	require.NoError(t, Compact(ctx, src, dst))
	si, err := os.Stat(src)
	require.NoError(t, err)
	di, err := os.Stat(dst)
	require.NoError(t, err)
	assert.Less(t, di.Size(), si.Size())

	c := openAt(t, dst, Options{NoSync: true})
	got, err := c.AuditAll(ctx)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	lb2, err := c.Leaderboard(ctx, 1, 5)
	require.NoError(t, err)
	assert.Equal(t, lb, lb2)

	assert.Error(t, Compact(ctx, src, dst), "an existing destination is not overwritten")
	bad := filepath.Join(dir, "bad.db")
	require.NoError(t, os.WriteFile(bad, []byte("garbage garbage garbage"), 0o600))
	assert.ErrorIs(t, Compact(ctx, bad, filepath.Join(dir, "out.db")), ErrCorrupt)
	_, err = os.Stat(filepath.Join(dir, "out.db"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestBackupClosed copies a file no Store has open without changing it:
// a file of an older schema (schema 1, as 1.0.0 left it) stays as it was,
// and so does its copy, which Open then migrates. A file in use and a
// damaged file are refused.
func TestBackupClosed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "old.db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	playChats(t, s, []int64{-1, -2}, 40, nil)
	require.NoError(t, s.Close())
	rewrite(t, path, toSchema1)
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	out := filepath.Join(dir, "copy.db")
	require.NoError(t, BackupClosed(ctx, path, out, time.Second))
	var buf bytes.Buffer
	n, err := BackupClosedTo(ctx, path, &buf, time.Second)
	require.NoError(t, err)
	assert.Equal(t, int64(buf.Len()), n)

	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "the file backed up is unchanged")
	assert.Equal(t, uint64(1), schemaOf(t, path))
	assert.Equal(t, uint64(1), schemaOf(t, out), "the copy is of the file as it was")
	c := openAt(t, out, Options{NoSync: true})
	audits, err := c.AuditAll(ctx)
	require.NoError(t, err)
	require.Len(t, audits, 2)
	for _, a := range audits {
		assert.True(t, a.OK, a.Problems)
	}

	held := openAt(t, path, Options{NoSync: true})
	err = BackupClosed(ctx, path, filepath.Join(dir, "x.db"), 50*time.Millisecond)
	assert.ErrorIs(t, err, ErrInUse)
	assert.NoFileExists(t, filepath.Join(dir, "x.db"))
	require.NoError(t, held.Close())

	junk := filepath.Join(dir, "junk.db")
	require.NoError(t, os.WriteFile(junk, bytes.Repeat([]byte("twentyone"), 2000), 0o600))
	_, err = BackupClosedTo(ctx, junk, &buf, time.Second)
	assert.ErrorIs(t, err, ErrCorrupt)
}
