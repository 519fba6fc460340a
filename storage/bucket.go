package storage

import (
	"bytes"

	bolt "go.etcd.io/bbolt"
)

// present is the value of an index key, whose key says it all. It is not
// nil: bbolt returns nil for a key written with a nil value in the same
// transaction, which would then read as absent.
var present = []byte{}

// keysWithPrefix returns copies of the bucket's keys that start with
// prefix, so that the caller may change the bucket while going through
// them.
func keysWithPrefix(b *bolt.Bucket, prefix []byte) [][]byte {
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, append([]byte(nil), k...))
	}
	return keys
}

// moveKey moves a value to a new key in the same bucket.
func moveKey(b *bolt.Bucket, from, to []byte) error {
	v := b.Get(from)
	if v == nil {
		return nil
	}
	v = bytes.Clone(v) // an index key's empty value stays present, not nil
	if err := b.Delete(from); err != nil {
		return err
	}
	return b.Put(to, v)
}
