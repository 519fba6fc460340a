package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the database to w while writes go on
// (one read transaction), and returns the bytes written. The copy is a
// BoltDB file that Open reads, marked as a copy (copies.go): it commits
// once before the copy and once after.
func (s *Store) Backup(ctx context.Context, w io.Writer) (int64, error) {
	var n int64
	err := s.marked(ctx, func() error {
		return s.read(ctx, func(t *txn) error {
			var err error
			n, err = t.tx.WriteTo(ctxWriter{ctx, w})
			return err
		})
	})
	return n, err
}

// ctxWriter stops a copy when its context is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// BackupClosed copies the database file at src, which no process may have
// open for writing (ErrInUse), to dst as BackupFile does, the copy marked
// as one (copies.go). It opens src read-only and never as a Store:
// nothing, not even a schema migration, changes the file it copies. A
// damaged file fails with ErrCorrupt.
func BackupClosed(ctx context.Context, src, dst string, lockTimeout time.Duration) error {
	return withClosed(ctx, src, lockTimeout, func(tx *bolt.Tx) error {
		return writeAtomic(dst, func(f *os.File) error {
			if _, err := tx.WriteTo(ctxWriter{ctx, f}); err != nil {
				return err
			}
			return markCopy(f.Name())
		})
	})
}

// BackupClosedTo is BackupClosed writing to w, through a temporary file,
// and returns the bytes written.
func BackupClosedTo(ctx context.Context, src string, w io.Writer, lockTimeout time.Duration) (int64, error) {
	var n int64
	err := withClosed(ctx, src, lockTimeout, func(tx *bolt.Tx) error {
		var err error
		n, err = copyMarked(ctx, tx, w)
		return err
	})
	return n, err
}

// withClosed runs fn in a read transaction of the database at path, opened
// read-only and checked.
func withClosed(ctx context.Context, path string, lockTimeout time.Duration, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	db, err := openBolt(path, lockTimeout, true, false)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := checkTree(db); err != nil {
		return err
	}
	return db.View(fn)
}

// WriteFile writes a database file, such as a backup received from a
// running bot, to path as the backups here are written: into a temporary
// file in the same directory, fsynced, renamed over path, the directory
// fsynced. A crash leaves either the old file or the whole new one.
func WriteFile(path string, fill func(io.Writer) error) error {
	return writeAtomic(path, func(f *os.File) error { return fill(f) })
}

// writeAtomic creates path through a temporary file that fill writes, then
// fsyncs, renames and fsyncs the directory.
func writeAtomic(path string, fill func(*os.File) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if err := fill(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// Compact copies the database at src into a new, compact file at dst,
// offline: src must not be open in another process (ErrInUse). dst must
// not exist; it appears only once complete.
func Compact(ctx context.Context, src, dst string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("compact %s: %s exists", src, dst)
	}
	in, err := openBolt(src, time.Second, true, false)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := checkTree(in); err != nil {
		return err
	}
	return writeAtomic(dst, func(f *os.File) error {
		out, err := bolt.Open(f.Name(), 0o600, &bolt.Options{NoSync: true, Timeout: time.Second})
		if err != nil {
			return err
		}
		if err := bolt.Compact(out, in, 64<<20); err != nil {
			_ = out.Close()
			return fmt.Errorf("compact %s: %w", src, err)
		}
		if err := ctx.Err(); err != nil {
			_ = out.Close()
			return err
		}
		if err := out.Sync(); err != nil {
			_ = out.Close()
			return err
		}
		return out.Close()
	})
}
