package storage

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
)

// AppKeySize is the size of the Mini App's key, in bytes.
const AppKeySize = 32

// keyApp in the meta bucket holds the Mini App's key, AppKeySize bytes;
// absent until AppKey first draws it.
var keyApp = []byte("app")

// AppKey returns the Mini App's key: the secret its table references are
// made and checked with (bot/webapp/tableref.KeyFrom). The first call on
// a file draws it from crypto/rand and stores it in the meta bucket, in
// one transaction; every later call, after a restart too, returns the
// same AppKeySize bytes (a copy), and so does a backup of the file. Being
// the store's, not the configuration's, a new bot token keeps every link
// shown valid. Concurrent first calls return the same key. A stored key
// of another size is ErrCorrupt.
func (s *Store) AppKey(ctx context.Context) ([]byte, error) {
	var key []byte
	if err := s.read(ctx, func(t *txn) error {
		var err error
		key, err = s.storedAppKey(t)
		return err
	}); err != nil || key != nil {
		return key, err
	}
	err := firstErr(s.write(ctx, func(t *txn) error {
		var err error
		if key, err = s.storedAppKey(t); err != nil || key != nil {
			return reject(err)
		}
		key = make([]byte, AppKeySize)
		rand.Read(key) // never fails (crypto/rand, Go 1.24 on)
		return t.tx.Bucket(bucketMeta).Put(keyApp, key)
	}))
	if err != nil {
		return nil, err
	}
	return key, nil
}

// storedAppKey returns a copy of the stored key, nil when there is none.
func (s *Store) storedAppKey(t *txn) ([]byte, error) {
	v := t.tx.Bucket(bucketMeta).Get(keyApp)
	switch {
	case v == nil:
		return nil, nil
	case len(v) != AppKeySize:
		return nil, fmt.Errorf("%w: %s: the app key has %d bytes, not %d", ErrCorrupt, s.path, len(v), AppKeySize)
	}
	return bytes.Clone(v), nil
}
