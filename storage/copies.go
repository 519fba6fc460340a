package storage

import (
	"context"
	"encoding/binary"
	"io"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// A backup is marked as a copy, so that the file it becomes when it is
// restored knows it: the meta bucket's keyCopies counts the backups being
// taken of the file, and a backup is taken while it counts one at least.
// Open of a file with the mark gives every table waiting for its cut a
// new link (relinkCopy): the file the backup replaced may have dealt that
// deck, and revealed its seed, since the backup was taken. The file a
// backup is taken of holds the mark only while the backup is taken: after
// a crash meanwhile, its next Open relinks its waiting tables too, which
// costs those decks nothing but their commitment of before.

// keyCopies in the meta bucket counts the backups being taken of the file,
// 8 bytes big-endian; absent when none is.
var keyCopies = []byte("copies")

// addCopies adds n to the file's count of backups being taken.
func addCopies(tx *bolt.Tx, n int64) error {
	meta := tx.Bucket(bucketMeta)
	var count int64
	if v := meta.Get(keyCopies); len(v) == 8 {
		count = int64(binary.BigEndian.Uint64(v))
	}
	if count += n; count <= 0 {
		return meta.Delete(keyCopies)
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(count))
	return meta.Put(keyCopies, b[:])
}

// marked returns a Store.Backup's work, run while the file counts one
// backup more, so that the copy holds the mark.
func (s *Store) marked(ctx context.Context, copyFile func() error) error {
	if _, err := s.write(ctx, func(t *txn) error { return addCopies(t.tx, 1) }); err != nil {
		return err
	}
	err := copyFile()
	_, unmark := s.write(context.WithoutCancel(ctx), func(t *txn) error { return addCopies(t.tx, -1) })
	return firstErr(err, unmark)
}

// markCopy marks the database file at path, a backup of a file no Store
// had open, as a copy.
func markCopy(path string) error {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return err
	}
	if err := db.Update(func(tx *bolt.Tx) error { return addCopies(tx, 1) }); err != nil {
		_ = db.Close()
		return err
	}
	return db.Close()
}

// copyMarked writes a marked copy of the database that tx reads to w,
// through a temporary file, and returns the bytes written.
func copyMarked(ctx context.Context, tx *bolt.Tx, w io.Writer) (int64, error) {
	f, err := os.CreateTemp("", "twentyone-backup-*.db")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := tx.WriteTo(ctxWriter{ctx, f}); err != nil {
		return 0, err
	}
	if err := markCopy(f.Name()); err != nil {
		return 0, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	return io.Copy(ctxWriter{ctx, w}, f)
}

// relinkCopy, in Open's transaction, gives every table of a file marked as
// a copy that waits for its cut link 1 of a new chain of its own, and
// clears the mark. The wait and its deadline stay (game.Table.Relink). A
// table that does not decode is left as it is: reading it reports it.
func relinkCopy(tx *bolt.Tx, r game.Rand) error {
	meta := tx.Bucket(bucketMeta)
	if meta.Get(keyCopies) == nil {
		return nil
	}
	type put struct{ key, table, chain []byte }
	var puts []put
	err := tx.Bucket(bucketTables).ForEach(func(k, v []byte) error {
		tb, messageID, err := decodeTable(v)
		if err != nil {
			return nil
		}
		if w, ok := tb.Cut(); !ok || !w.Waiting {
			return nil
		}
		c := newChain(r, game.ChainLength)
		if !tb.Relink(c.take()) {
			return nil
		}
		enc, err := encodeTable(&tb, messageID)
		if err != nil {
			return err
		}
		puts = append(puts, put{key: append([]byte(nil), k...), table: enc, chain: c.encode()})
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range puts {
		if err := tx.Bucket(bucketTables).Put(p.key, p.table); err != nil {
			return err
		}
		if err := tx.Bucket(bucketChains).Put(p.key, p.chain); err != nil {
			return err
		}
	}
	return meta.Delete(keyCopies)
}
