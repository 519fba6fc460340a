package storage

import (
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// Bucket names. See the package documentation for what each holds.
var (
	bucketMeta     = []byte("meta")
	bucketChats    = []byte("chats")
	bucketSettings = []byte("settings")
	bucketTables   = []byte("tables")
	bucketTimers   = []byte("timers")
	bucketUsers    = []byte("users")
	bucketRank     = []byte("rank")
	bucketLedger   = []byte("log") // schema 4: the ledger, as one log
	bucketReveals  = []byte("reveals")
	bucketRetire   = []byte("retire") // schema 5: the old table messages owed to their chats
	bucketAwards   = []byte("awards") // schema 8: the achievements earned in each game

	// Schema 9: the users the bot may write to, and the groups they follow.
	bucketPrivate   = []byte("private")
	bucketFollows   = []byte("follows")
	bucketFollowing = []byte("following")

	bucketPace = []byte("pace") // schema 11: the bot's recent calls into each group

	// bucketLedgerV3 is the ledger of schema 3 and older, keyed
	// chat|user|seq.
	bucketLedgerV3 = []byte("ledger")

	// keySchema in the meta bucket holds the schema version, 8 bytes
	// big-endian.
	keySchema = []byte("schema")
)

// SchemaVersion is the layout this code reads and writes.
const SchemaVersion = 11

// schemaBuckets lists the buckets of each schema version.
var schemaBuckets = map[uint64][][]byte{
	1: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketLedgerV3, bucketReveals},
	2: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank, bucketLedgerV3, bucketReveals},
	3: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank, bucketLedgerV3, bucketReveals},
	4: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank, bucketLedger, bucketReveals},
	5: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank, bucketLedger, bucketReveals, bucketRetire},
	6: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank, bucketLedger, bucketReveals, bucketRetire},
	7: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank, bucketLedger, bucketReveals, bucketRetire},
	8: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank, bucketLedger, bucketReveals, bucketRetire, bucketAwards},
	9: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank, bucketLedger, bucketReveals, bucketRetire, bucketAwards,
		bucketPrivate, bucketFollows, bucketFollowing},
	10: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank, bucketLedger, bucketReveals, bucketRetire, bucketAwards,
		bucketPrivate, bucketFollows, bucketFollowing},
	11: {bucketMeta, bucketChats, bucketSettings, bucketTables, bucketTimers, bucketUsers, bucketRank, bucketLedger, bucketReveals, bucketRetire, bucketAwards,
		bucketPrivate, bucketFollows, bucketFollowing, bucketPace},
}

// migration upgrades a file from schema version from to from+1.
type migration struct {
	from uint64
	name string
	run  func(tx *bolt.Tx) error
}

// migrations, in order. Open runs those a file needs, in one transaction.
var migrations = []migration{
	{from: 1, name: "build the leaderboard index", run: buildRankIndex},
	{from: 2, name: "stamp each chat's last update with the time of the upgrade", run: stampLastUpdates},
	{from: 3, name: "chain the ledger into one log", run: chainLedger},
	{from: 4, name: "keep the old table messages owed to the chats", run: addRetire},
	{from: 5, name: "remember the updates each chat handled out of order", run: keepHandled},
	{from: 6, name: "keep each game's whole record in its table", run: keepWholeRecord},
	{from: 7, name: "keep achievements, backfilled from the stats", run: addAchievements},
	{from: 8, name: "keep the private chats and the groups users follow", run: addFollows},
	{from: 9, name: "keep the house's moves in the timer index", run: indexHouseMoves},
	{from: 10, name: "keep the bot's recent calls into each group", run: addPace},
}

// upgrade creates the buckets of a new file, or migrates an older one.
func upgrade(db *bolt.DB) error {
	err := db.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			empty := true
			_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
			if !empty {
				return fmt.Errorf("%w: %s: not a twentyone database (no %q bucket)", ErrCorrupt, db.Path(), bucketMeta)
			}
			for _, name := range schemaBuckets[SchemaVersion] {
				if _, err := tx.CreateBucket(name); err != nil {
					return err
				}
			}
			return setSchema(tx, SchemaVersion)
		}
		raw := meta.Get(keySchema)
		if len(raw) != 8 {
			return fmt.Errorf("%w: %s: schema version missing", ErrCorrupt, db.Path())
		}
		v := binary.BigEndian.Uint64(raw)
		if v > SchemaVersion {
			return fmt.Errorf("%w: %s has schema %d, this program reads %d", ErrNewerSchema, db.Path(), v, SchemaVersion)
		}
		if v == 0 {
			return fmt.Errorf("%w: %s: schema version 0", ErrCorrupt, db.Path())
		}
		if err := checkBuckets(tx, v); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrCorrupt, db.Path(), err)
		}
		for _, m := range migrations {
			if m.from != v {
				continue
			}
			if err := m.run(tx); err != nil {
				return fmt.Errorf("migrate %s from schema %d (%s): %w", db.Path(), v, m.name, err)
			}
			v++
		}
		if v != SchemaVersion {
			return fmt.Errorf("%w: %s: no migration from schema %d", ErrInternal, db.Path(), v)
		}
		if err := checkBuckets(tx, v); err != nil {
			return fmt.Errorf("%w: after migrating %s: %w", ErrInternal, db.Path(), err)
		}
		return setSchema(tx, v)
	})
	return err
}

func checkBuckets(tx *bolt.Tx, v uint64) error {
	for _, name := range schemaBuckets[v] {
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

// buildRankIndex is the migration from schema 1 to 2: it creates the
// leaderboard index from the users' balances.
func buildRankIndex(tx *bolt.Tx) error {
	rank, err := tx.CreateBucket(bucketRank)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketUsers).ForEach(func(k, v []byte) error {
		if len(k) != 16 {
			return fmt.Errorf("%w: user key %x", ErrCorrupt, k)
		}
		u, err := decodeUser(v)
		if err != nil {
			return fmt.Errorf("%w: user %d of chat %d: %w", ErrCorrupt, getInt(k[8:]), getInt(k), err)
		}
		return rank.Put(rankKey(getInt(k), u.balance, game.UserID(getInt(k[8:]))), present)
	})
}

// stampLastUpdates is the migration from schema 2 to 3: chat records gain
// the time of their last update (see RedeliveryWindow). Schema 2 did not
// keep it; the time of the upgrade is a safe stand-in, as no redelivery
// can come later than a day after it.
func stampLastUpdates(tx *bolt.Tx) error {
	now := timeMs(time.Now())
	b := tx.Bucket(bucketChats)
	type stamped struct {
		k []byte
		c chatRec
	}
	var todo []stamped
	err := b.ForEach(func(k, v []byte) error {
		c, err := decodeChat(v)
		if err != nil {
			return fmt.Errorf("%w: chat %x: %w", ErrCorrupt, k, err)
		}
		if c.lastUpdate != 0 && c.lastUpdateAt == 0 {
			c.lastUpdateAt = now
			todo = append(todo, stamped{append([]byte(nil), k...), c})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, s := range todo {
		if err := b.Put(s.k, s.c.encode()); err != nil {
			return err
		}
	}
	return nil
}

// addRetire is the migration from schema 4 to 5: it creates the bucket of
// the old table messages the bot owes its chats. Schema 4 kept none (the
// bot held them in memory), so it starts empty.
func addRetire(tx *bolt.Tx) error {
	_, err := tx.CreateBucket(bucketRetire)
	return err
}

// keepHandled is the migration from schema 5 to 6: chat records gain the
// updates the chat handled (chatRec.floor and recent). A record of schema 5
// reads as every update up to its last handled, as schema 5 counted them,
// so nothing is rewritten.
func keepHandled(*bolt.Tx) error { return nil }

// keepWholeRecord is the migration from schema 6 to 7: tables (and the
// finished tables owed as records, in retire) are written in game encoding
// 2, which keeps a game's whole record; schema 6 wrote encoding 1.
// game.Decode reads both, so nothing is rewritten: a table moves to
// encoding 2 when it is next written. The version keeps a file that holds
// encoding 2 from a binary that cannot read it.
func keepWholeRecord(*bolt.Tx) error { return nil }

// addAchievements is the migration from schema 7 to 8: it creates the
// bucket of each game's awards, empty, and gives every user the
// achievements their stats show they earned (see backfill), quietly: no
// game announces them. Schema 7 kept no achievements, and no user is
// marked broke towards Comeback.
func addAchievements(tx *bolt.Tx) error {
	if _, err := tx.CreateBucket(bucketAwards); err != nil {
		return err
	}
	users := tx.Bucket(bucketUsers)
	type earned struct {
		k []byte
		u userRec
	}
	var todo []earned
	err := users.ForEach(func(k, v []byte) error {
		if len(k) != 16 {
			return fmt.Errorf("%w: user key %x", ErrCorrupt, k)
		}
		u, err := decodeUser(v)
		if err != nil {
			return fmt.Errorf("%w: user %d of chat %d: %w", ErrCorrupt, getInt(k[8:]), getInt(k), err)
		}
		if s := backfill(&u.stats); s != 0 {
			u.stats.Achievements = s
			todo = append(todo, earned{append([]byte(nil), k...), u})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, e := range todo {
		if err := users.Put(e.k, e.u.encode()); err != nil {
			return err
		}
	}
	return nil
}

// indexHouseMoves is the migration from schema 9 to 10: each value of the
// timer index, empty in schema 9, becomes the time the house moves at its
// table (timerValue). No house sat at a table of schema 9, so every value
// stays empty; the migration writes them all the same, from the tables,
// so that it holds for any file.
func indexHouseMoves(tx *bolt.Tx) error {
	timers, tables := tx.Bucket(bucketTimers), tx.Bucket(bucketTables)
	for _, k := range keysWithPrefix(timers, nil) {
		if len(k) != 16 {
			return fmt.Errorf("%w: timer key %x", ErrCorrupt, k)
		}
		v := tables.Get(k)
		if v == nil {
			continue // the audit reports an index without its table
		}
		tb, _, err := decodeTable(v)
		if err != nil {
			return fmt.Errorf("%w: table of chat %d thread %d: %w", ErrCorrupt, getInt(k), getInt(k[8:]), err)
		}
		if err := timers.Put(k, timerValue(&tb)); err != nil {
			return err
		}
	}
	return nil
}

// addPace is the migration from schema 10 to 11: it creates the bucket of the
// bot's recent calls into each group (see SavePace). Schema 10 kept none,
// so it starts empty, as after a crash that lost them.
func addPace(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketPace)
	return err
}

// chainLedger is the migration from schema 3 to 4. The ledger, keyed
// chat|user|seq, becomes one log keyed by a number from the bucket's
// sequence, each entry linked to the user's previous one, and each user
// record points at the user's last entry. A commit then writes every
// chat's new entries on the same pages at the log's end, where it used to
// touch a page per user.
func chainLedger(tx *bolt.Tx) error {
	old := tx.Bucket(bucketLedgerV3)
	log, err := tx.CreateBucket(bucketLedger)
	if err != nil {
		return err
	}
	log.FillPercent = 1 // appended in order: fill the pages
	users := tx.Bucket(bucketUsers)
	var (
		chat int64
		user game.UserID
		last uint64 // the user's last entry so far; 0 before the first
	)
	// link points the user's record at their last entry. An entry whose
	// user has no record stays in the log, unreachable: the audit counts
	// it missing, as it counted it before.
	link := func() error {
		if last == 0 {
			return nil
		}
		k := userKey(chat, user)
		v := users.Get(k)
		if v == nil {
			return nil
		}
		rec, err := decodeUser(v)
		if err != nil {
			return fmt.Errorf("%w: user %d of chat %d: %w", ErrCorrupt, user, chat, err)
		}
		rec.lastEntry = last
		return users.Put(k, rec.encode())
	}
	c := old.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 24 {
			return fmt.Errorf("%w: ledger key %x", ErrCorrupt, k)
		}
		ch, u, seq := getInt(k), game.UserID(getInt(k[8:])), getUint(k[16:])
		if ch != chat || u != user {
			if err := link(); err != nil {
				return err
			}
			chat, user, last = ch, u, 0
		}
		e, err := decodeLedgerV3(ch, seq, v)
		if err != nil {
			return fmt.Errorf("%w: ledger entry %d of chat %d: %w", ErrCorrupt, seq, ch, err)
		}
		n, err := log.NextSequence()
		if err != nil {
			return err
		}
		if err := log.Put(entryKey(n), e.encode(last)); err != nil {
			return err
		}
		last = n
	}
	if err := link(); err != nil {
		return err
	}
	return tx.DeleteBucket(bucketLedgerV3)
}
