package storage

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// realFile writes a database with a few chats, tables and ledger entries,
// closes it and returns its bytes.
func realFile(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "real.db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	us := players(1, 4)
	for chat := int64(1); chat <= 30; chat++ {
		key := TableKey{Chat: -chat}
		var v View
		for i := 0; i < 15; i++ {
			u, cmd := pickCommand(&v, us, r)
			a, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: int64(i + 1), User: u, Command: cmd, Now: t0})
			if err == nil || a.Table.Version() > 0 {
				v = a.View
			}
		}
	}
	require.NoError(t, s.Close())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	// bbolt grows the file ahead of its high-water mark; keep the pages in
	// use, so that every byte of the result matters.
	m0, ok0 := parseMeta(b)
	m1, ok1 := parseMeta(b[4096:])
	require.True(t, ok0 && ok1)
	hwm := max(m0.hwm, m1.hwm)
	require.LessOrEqual(t, int(hwm)*4096, len(b))
	return b[:hwm*4096]
}

// openDamaged writes data to a file and opens it; a panic fails the test.
func openDamaged(t *testing.T, data []byte) (err error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "damaged.db")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Open panicked: %v", r)
		}
	}()
	s, err := Open(path, Options{NoSync: true})
	if err != nil {
		assert.Contains(t, err.Error(), path, "the error names the file")
		return err
	}
	defer s.Close()
	// Opened: whatever is damaged must come out as errors, not panics.
	if _, err := s.AuditAll(ctx); err != nil {
		return err
	}
	return nil
}

func TestOpenRandomBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 100, 1023, 4096, 8192, 64 << 10} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		err := openDamaged(t, data)
		assert.ErrorIs(t, err, ErrCorrupt, "%d random bytes", n)
	}
	// A text file, and a file of zeros.
	assert.ErrorIs(t, openDamaged(t, []byte("not a database\n")), ErrCorrupt)
	assert.ErrorIs(t, openDamaged(t, make([]byte, 16384)), ErrCorrupt)
}

func TestOpenTruncated(t *testing.T) {
	data := realFile(t)
	require.Greater(t, len(data), 8*4096)
	for _, n := range []int{100, 4096, 4096 + 100, 2 * 4096, 3 * 4096, len(data) / 2, len(data) - 4096, len(data) - 1} {
		err := openDamaged(t, data[:n])
		assert.ErrorIs(t, err, ErrCorrupt, "truncated to %d of %d bytes", n, len(data))
	}
}

func TestOpenBothMetasDamaged(t *testing.T) {
	data := realFile(t)
	d := append([]byte(nil), data...)
	d[16+3] ^= 0xff      // meta 0 magic
	d[4096+16+60] ^= 0x1 // meta 1 checksum
	assert.ErrorIs(t, openDamaged(t, d), ErrCorrupt)

	// One damaged meta page is what bbolt is built to survive: it falls
	// back to the other.
	d = append([]byte(nil), data...)
	d[16+3] ^= 0xff
	assert.NoError(t, openDamaged(t, d))
}

// TestOpenDamagedPages overwrites each page of a real file in turn, with
// random bytes and with a flipped header. Open never panics; damage to a
// page in use is found.
func TestOpenDamagedPages(t *testing.T) {
	data := realFile(t)
	const ps = 4096
	inUse := pagesInUse(t, data)
	require.NotEmpty(t, inUse)
	r := rand.New(rand.NewPCG(5, 6))
	for id := 2; id < len(data)/ps; id++ {
		for _, how := range []string{"random", "flip"} {
			d := append([]byte(nil), data...)
			p := d[id*ps : (id+1)*ps]
			switch how {
			case "random":
				for i := range p {
					p[i] = byte(r.Uint32())
				}
			case "flip":
				p[8] ^= 0x07 // page flags
			}
			err := openDamaged(t, d)
			if typ, ok := inUse[id]; ok {
				assert.ErrorIs(t, err, ErrCorrupt, "page %d (%s) damaged: %s", id, typ, how)
			} else if err != nil {
				assert.ErrorIs(t, err, ErrCorrupt, "page %d", id)
			}
		}
	}
}

// pagesInUse returns the branch and leaf pages reachable in the file,
// according to bbolt.
func pagesInUse(t *testing.T, data []byte) map[int]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "inspect.db")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	require.NoError(t, err)
	defer db.Close()
	in := map[int]string{}
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for id := 2; ; id++ {
			p, err := tx.Page(id)
			if err != nil || p == nil {
				return nil
			}
			if p.Type == "branch" || p.Type == "leaf" || p.Type == "freelist" {
				in[id] = p.Type
			}
		}
	}))
	return in
}

func TestOpenEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	require.NoError(t, os.WriteFile(path, nil, 0o600))
	s := openAt(t, path, Options{NoSync: true})
	_, err := s.Account(ctx, group, alice, t0)
	assert.NoError(t, err, "an empty file is a new database")
}

func TestOpenLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locked.db")
	s := openAt(t, path, Options{NoSync: true})
	start := time.Now()
	_, err := Open(path, Options{LockTimeout: 100 * time.Millisecond, NoSync: true})
	elapsed := time.Since(start)
	require.ErrorIs(t, err, ErrInUse)
	assert.Equal(t, "database is in use by another process: "+path, err.Error())
	assert.Less(t, elapsed, 2*time.Second, "a second process fails fast")
	assert.GreaterOrEqual(t, elapsed, 100*time.Millisecond, "it waits for the lock timeout")

	// Compact refuses a database in use too.
	err = Compact(ctx, path, path+".compact")
	assert.ErrorIs(t, err, ErrInUse)

	// Once closed, it opens again.
	require.NoError(t, s.Close())
	assert.ErrorIs(t, s.Close(), ErrClosed)
	_, err = s.Account(ctx, group, alice, t0)
	assert.ErrorIs(t, err, ErrClosed)
	_, err = s.View(ctx, TableKey{Chat: group})
	assert.ErrorIs(t, err, ErrClosed)
	s2 := openAt(t, path, Options{NoSync: true})
	_, err = s2.Apply(ctx, ApplyRequest{Key: TableKey{Chat: 1}, User: alice, Command: game.Command{Kind: game.Open}})
	assert.NoError(t, err)
}

func TestOpenMissingDirectory(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "no", "such", "dir.db"), Options{})
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestOpenWildPageReference points a branch page's child far past the end
// of the file: bbolt would read outside its memory map (a fault the runtime
// cannot recover from), so Open must catch it before bbolt reads the tree.
func TestOpenWildPageReference(t *testing.T) {
	data := realFile(t)
	const ps = 4096
	var branches []int
	for id, typ := range pagesInUse(t, data) {
		if typ == "branch" {
			branches = append(branches, id)
		}
	}
	require.NotEmpty(t, branches, "the file needs a branch page")
	for _, id := range branches {
		for _, child := range []uint64{uint64(len(data)/ps) + 3, 1 << 40} {
			d := append([]byte(nil), data...)
			le.PutUint64(d[id*ps+pageHeaderSize+8:], child) // element 0's pgid
			assert.ErrorIs(t, openDamaged(t, d), ErrCorrupt, "branch %d → page %d", id, child)
		}
	}
}

// TestCheckFree: a database another store holds is in use; a free one and
// a missing one are not, and checking creates nothing.
func TestCheckFree(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	require.NoError(t, CheckFree(missing))
	assert.NoFileExists(t, missing, "checking creates nothing")

	path := filepath.Join(dir, "db")
	s, err := Open(path, Options{NoSync: true})
	require.NoError(t, err)
	err = CheckFree(path)
	assert.ErrorIs(t, err, ErrInUse)
	assert.ErrorContains(t, err, path)
	require.NoError(t, s.Close())
	require.NoError(t, CheckFree(path))
	openAt(t, path, Options{NoSync: true}) // the check let go of its lock
}
