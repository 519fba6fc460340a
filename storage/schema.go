package storage

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// Bucket names. See the package documentation for what each holds.
var (
	bucketMeta      = []byte("meta")
	bucketChats     = []byte("chats")
	bucketSettings  = []byte("settings")
	bucketTables    = []byte("tables")
	bucketTimers    = []byte("timers")
	bucketUsers     = []byte("users")
	bucketRank      = []byte("rank")
	bucketLedger    = []byte("log")
	bucketReveals   = []byte("reveals")
	bucketRetire    = []byte("retire")
	bucketAwards    = []byte("awards")
	bucketPrivate   = []byte("private")
	bucketFollows   = []byte("follows")
	bucketFollowing = []byte("following")
	bucketPace      = []byte("pace")
	bucketInline    = []byte("inline")
	bucketChains    = []byte("chains")
)

// buckets are the buckets of schema SchemaVersion, all created with a new
// file. A file of an older schema gains those it lacks from its
// migrations.
var buckets = [][]byte{bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank,
	bucketLedger, bucketReveals, bucketRetire, bucketAwards, bucketPrivate, bucketFollows, bucketFollowing, bucketPace,
	bucketInline, bucketChains}

var (
	// keySchema in the meta bucket holds the schema version, 8 bytes
	// big-endian.
	keySchema = []byte("version")
	// keyPreRelease is where the files of the pre-releases (before 1.0)
	// held their schema version: a file with it is one of theirs.
	keyPreRelease = []byte("schema")
)

// SchemaVersion is the layout this code reads and writes. Schema 1 is the
// first release's (1.0.0); schema 2 adds the inline bucket, the tables on
// inline messages; schema 3 the chains bucket, the tables' hash chains,
// and the reveals of decks of game.SchemeCut (a format of their own).
const SchemaVersion = 3

// migration upgrades a file from schema version from to from+1.
type migration struct {
	from uint64
	name string
	run  func(tx *bolt.Tx) error
}

// migrations upgrade the files of older schemas, in order; Open runs those
// a file needs, in one transaction, which also sets the version the last
// leads to. Schema 1 is the first release's, so they start from it.
var migrations = []migration{
	{from: 1, name: "keep the tables on inline messages", run: createBucket(bucketInline)},
	{from: 2, name: "keep the tables' hash chains", run: createBucket(bucketChains)},
}

// createBucket returns a migration's work that adds an empty bucket. A
// file that has it already is not of the schema it claims: the migration
// fails, and the file stays as it was.
func createBucket(name []byte) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		_, err := tx.CreateBucket(name)
		return err
	}
}

// upgrade creates the buckets of a new file, or migrates an older one with
// migs, then retires every table's hash chain (retireChains) and, in a
// file marked as a copy, gives the tables waiting for their cut new links
// drawn from r (relinkCopy), all in one transaction. It refuses a file of
// a newer schema (ErrNewerSchema), of a pre-release (ErrPreRelease), and
// one whose version is missing, or that no migration leads from, or that
// misses a bucket (ErrCorrupt).
func upgrade(db *bolt.DB, migs []migration, r game.Rand) error {
	return db.Update(func(tx *bolt.Tx) error {
		if err := upgradeSchema(db, tx, migs); err != nil {
			return err
		}
		if err := retireChains(tx); err != nil {
			return err
		}
		return relinkCopy(tx, r)
	})
}

// upgradeSchema is upgrade's work on the schema, in its transaction.
func upgradeSchema(db *bolt.DB, tx *bolt.Tx, migs []migration) error {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		empty := true
		_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
		if !empty {
			return fmt.Errorf("%w: %s: not a twentyone database (no %q bucket)", ErrCorrupt, db.Path(), bucketMeta)
		}
		for _, name := range buckets {
			if _, err := tx.CreateBucket(name); err != nil {
				return err
			}
		}
		return setSchema(tx, SchemaVersion)
	}
	raw := meta.Get(keySchema)
	if old := meta.Get(keyPreRelease); raw == nil && len(old) == 8 {
		return fmt.Errorf("%w: %s has pre-release schema %d", ErrPreRelease, db.Path(), binary.BigEndian.Uint64(old))
	}
	if len(raw) != 8 {
		return fmt.Errorf("%w: %s: schema version missing", ErrCorrupt, db.Path())
	}
	from := binary.BigEndian.Uint64(raw)
	if from > SchemaVersion {
		return fmt.Errorf("%w: %s has schema %d, this program reads %d", ErrNewerSchema, db.Path(), from, SchemaVersion)
	}
	v := from
	for _, m := range migs {
		if m.from != v {
			continue
		}
		if err := m.run(tx); err != nil {
			return fmt.Errorf("migrate %s from schema %d (%s): %w", db.Path(), v, m.name, err)
		}
		v++
	}
	if v != SchemaVersion {
		return fmt.Errorf("%w: %s has schema %d, from which no migration leads to %d", ErrCorrupt, db.Path(), v, SchemaVersion)
	}
	if err := checkBuckets(tx); err != nil {
		if from != v {
			return fmt.Errorf("%w: after migrating %s from schema %d: %w", ErrInternal, db.Path(), from, err)
		}
		return fmt.Errorf("%w: %s: %w", ErrCorrupt, db.Path(), err)
	}
	if from == v {
		return nil
	}
	return setSchema(tx, v)
}

// checkBuckets checks that the file has every bucket of the schema.
func checkBuckets(tx *bolt.Tx) error {
	for _, name := range buckets {
		if tx.Bucket(name) == nil {
			return fmt.Errorf("bucket %q missing", name)
		}
	}
	return nil
}

func setSchema(tx *bolt.Tx, v uint64) error {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	return tx.Bucket(bucketMeta).Put(keySchema, b[:])
}
