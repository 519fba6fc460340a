package storage

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// A table's hash chain: the server seeds of its decks of game.SchemeCut.
//
// Each table (chat|thread) has a chain of its own, not each chat: the
// commitment of a chain's deck k is the seed of its deck k−1, so two
// tables of a chat (the topics of a forum, the inline messages of one
// chat) drawing from one chain would show the seed of a deck still in
// play at the other. A table's decks come one after the other: each is
// revealed before the next is asked for its cut.
//
// The record keeps the chain's secret S_N, its head S_0, the next link to
// take, and a cursor: link cursorAt, the first multiple of cursorStep at
// or above the next link (or N), from which the next links are hashed
// down, at most cursorStep hashes each; when the next link passes it, the
// cursor is hashed down from the secret again (at most N hashes, once
// every cursorStep decks). A new chain takes N hashes for its head.

// cursorStep is how far apart the cursors of a chain are.
const cursorStep = 1000

// chainFormat is the format byte of a chain record.
const chainFormat = 1

// chainRec is a table's chain as storage keeps it.
type chainRec struct {
	length   uint32
	next     uint32 // the next link to take, from 1; length+1 when used up
	head     game.Seed
	secret   game.Seed
	cursorAt uint32
	cursor   game.Seed
}

func (c *chainRec) encode() []byte {
	b := make([]byte, 0, 1+3*5+3*game.SeedSize)
	b = append(b, chainFormat)
	b = binary.AppendUvarint(b, uint64(c.length))
	b = binary.AppendUvarint(b, uint64(c.next))
	b = append(b, c.head[:]...)
	b = append(b, c.secret[:]...)
	b = binary.AppendUvarint(b, uint64(c.cursorAt))
	return append(b, c.cursor[:]...)
}

func decodeChain(v []byte) (chainRec, error) {
	if len(v) == 0 || v[0] != chainFormat {
		return chainRec{}, fmt.Errorf("%w: chain format", errRecord)
	}
	r := &recReader{b: v[1:]}
	var c chainRec
	length, next := r.uvarint(), r.uvarint()
	r.bytes(c.head[:])
	r.bytes(c.secret[:])
	at := r.uvarint()
	r.bytes(c.cursor[:])
	if err := r.done(); err != nil {
		return chainRec{}, err
	}
	if length == 0 || length > game.ChainLength || next == 0 || next > length+1 || at == 0 || at+1 < next || at > length {
		return chainRec{}, fmt.Errorf("%w: chain of %d links, next %d, cursor at %d", errRecord, length, next, at)
	}
	c.length, c.next, c.cursorAt = uint32(length), uint32(next), uint32(at)
	return c, nil
}

// bytes reads len(dst) bytes into dst.
func (r *recReader) bytes(dst []byte) {
	if len(r.b) < len(dst) {
		r.fail()
		return
	}
	r.b = r.b[copy(dst, r.b):]
}

// newChain returns a new chain of length links whose secret is drawn from
// r, its cursor at the first step.
func newChain(r game.Rand, length uint32) chainRec {
	c := chainRec{length: length, next: 1, secret: game.NewChain(r).Secret}
	c.cursorAt = min(cursorStep, length)
	s := c.secret
	for i := length; i > 0; i-- {
		if i == c.cursorAt {
			c.cursor = s
		}
		s = sha256.Sum256(s[:])
	}
	c.head = s
	return c
}

// take returns the next link and moves past it.
func (c *chainRec) take() game.Link {
	k := c.next
	if k > c.cursorAt {
		c.cursorAt = min((k+cursorStep-1)/cursorStep*cursorStep, c.length)
		c.cursor = hashTimes(c.secret, c.length-c.cursorAt)
	}
	c.next++
	return game.Link{Seed: hashTimes(c.cursor, c.cursorAt-k), Index: k, Head: c.head}
}

// hashTimes returns SHA-256 applied n times to s.
func hashTimes(s game.Seed, n uint32) game.Seed {
	for ; n > 0; n-- {
		s = sha256.Sum256(s[:])
	}
	return s
}

// chainSource is a table's chain as the rules take its links
// (game.SeedSource), within one write: it reads the chain on first use,
// makes a new one when there is none or it is used up, and is written
// with the table when a link was taken or given back (see write).
type chainSource struct {
	t      *txn
	key    TableKey
	length uint32 // of a new chain
	rec    chainRec
	loaded bool
	dirty  bool
	err    error
}

// NextLink implements game.SeedSource.
func (c *chainSource) NextLink() (game.Link, error) {
	if err := c.load(); err != nil {
		return game.Link{}, err
	}
	if c.rec.length == 0 || c.rec.next > c.rec.length {
		c.rec = newChain(c.t.s.opts.Rand, c.length)
	}
	c.dirty = true
	return c.rec.take(), nil
}

// PutBack implements game.SeedSource: the link taken last goes back.
func (c *chainSource) PutBack(l game.Link) {
	if err := c.load(); err != nil {
		c.err = err
		return
	}
	if c.rec.head == l.Head && l.Index+1 == c.rec.next {
		c.rec.next--
		c.dirty = true
	}
}

// load reads the table's chain, or starts none: NextLink makes one.
func (c *chainSource) load() error {
	if c.loaded {
		return c.err
	}
	c.loaded = true
	v := c.t.chainRecords().Get(tableKeyBytes(c.key))
	if v == nil {
		c.rec = chainRec{} // used up: the first NextLink makes one
		return nil
	}
	rec, err := decodeChain(v)
	if err != nil {
		c.err = c.t.corruptAt(fmt.Sprintf("chain of chat %d thread %d", c.key.Chat, c.key.Thread), err)
		return c.err
	}
	c.rec = rec
	return nil
}

// write writes the chain when a link was taken or given back.
func (c *chainSource) write() error {
	if c.err != nil {
		return c.err
	}
	if !c.dirty {
		return nil
	}
	return c.t.chainRecords().Put(tableKeyBytes(c.key), c.rec.encode())
}

// retireChains retires every table's chain, when the store opens: the
// next deck of each table takes a new chain, with a new head. A file
// opened may be a backup restored, whose chains stand where they stood
// when it was copied; the links they would give next may have been
// revealed since, by the file the backup replaced, and a revealed seed
// lets a cutter choose the deck (they could try cuts until one favours
// them) or, not cut, tells everyone its order. Storage cannot tell a
// restart from a restore, so it retires the chains on every open. A table
// waiting for its cut keeps the link it holds: see doc.go, "The cut".
func retireChains(tx *bolt.Tx) error {
	b := tx.Bucket(bucketChains)
	if k, _ := b.Cursor().First(); k == nil {
		return nil
	}
	if err := tx.DeleteBucket(bucketChains); err != nil {
		return err
	}
	_, err := tx.CreateBucket(bucketChains)
	return err
}

// chainRecords returns the chains bucket, opened on first use.
func (t *txn) chainRecords() *bolt.Bucket {
	if t.chains == nil {
		t.chains = t.tx.Bucket(bucketChains)
	}
	return t.chains
}

// Chain is the state of a table's hash chain, for tests and tools: its
// head, its length and the next link a deck takes. It holds no seed.
type Chain struct {
	Head   game.Seed
	Length uint32
	Next   uint32
}

// TableChain returns the hash chain of the table at key; ok is false when
// the table has none yet (no deck of game.SchemeCut was asked for there).
func (s *Store) TableChain(ctx context.Context, key TableKey) (Chain, bool, error) {
	var out Chain
	var ok bool
	err := s.read(ctx, func(t *txn) error {
		c, _, _, err := t.resolve(key.Chat)
		if err != nil {
			return err
		}
		key.Chat = c
		src := chainSource{t: t, key: key}
		if err := src.load(); err != nil {
			return err
		}
		ok = src.rec.length > 0
		out = Chain{Head: src.rec.head, Length: src.rec.length, Next: src.rec.next}
		return nil
	})
	return out, ok, err
}
