package storage

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// boltOptions are the options every database file of this package is
// opened with (Open, the read-only backups, Floor).
func boltOptions(readOnly, noSync bool) *bolt.Options {
	return &bolt.Options{
		ReadOnly:        readOnly,
		NoSync:          noSync,
		FreelistType:    bolt.FreelistMapType,
		InitialMmapSize: 256 << 20,
	}
}

// Floor is the baseline of a write: a bare bbolt commit of one value,
// fsync included, in a file of its own opened with the options Open uses.
// Benchmarks and the load tool measure it beside Apply, on the same disk
// and in the same run.
type Floor struct {
	db  *bolt.DB
	val []byte
}

// floorBucket is the one bucket of a Floor's file.
var floorBucket = []byte("floor")

// OpenFloor creates a Floor at path whose commits write size bytes.
func OpenFloor(path string, size int) (*Floor, error) {
	db, err := bolt.Open(path, 0o600, boltOptions(false, false))
	if err != nil {
		return nil, fmt.Errorf("floor %s: %w", path, err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(floorBucket)
		return err
	}); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("floor %s: %w", path, err)
	}
	return &Floor{db: db, val: make([]byte, max(size, 1))}, nil
}

// floorKey is the one key a Floor writes.
var floorKey = []byte("table")

// Commit writes the value, its first byte set to i, in one write
// transaction.
func (f *Floor) Commit(i int) error {
	f.val[0] = byte(i)
	return f.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(floorBucket).Put(floorKey, f.val) })
}

// Close closes the Floor's file.
func (f *Floor) Close() error { return f.db.Close() }

// EncodedSize is how many bytes the view's table takes in the database.
func EncodedSize(v *View) (int, error) {
	b, err := encodeTable(&v.Table, v.MessageID)
	return len(b), err
}
