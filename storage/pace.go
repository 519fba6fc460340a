package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Pace is what the bot called into its groups lately, kept so that a
// restarted bot does not spend again a group's budget of calls (Telegram:
// about 20 a minute) that the process before it spent, and the version
// each table message shows, so that a restarted bot redraws only the
// tables whose message may be behind.
type Pace struct {
	// At is when it was saved; Clean, that the bot stopped after saving
	// it, having called nothing since. When Clean is false the bot may
	// have made calls after At that it could not save (a crash).
	At    time.Time
	Clean bool
	// Calls holds each group's recent calls, oldest first.
	Calls map[int64][]time.Time
	// Shown holds the version of the table each table message shows, as
	// its last render that went out drew it. SavePace takes a version 0
	// as "forget the table" (it closed).
	Shown map[TableKey]uint64
}

// keyPaceSaved in the pace bucket holds Pace.At and Pace.Clean; it is not
// 8 bytes long, so it is no chat's key.
var keyPaceSaved = []byte("saved")

// paceShownPrefix starts the key of a table's shown version in the pace
// bucket: the prefix and the table's key, 21 bytes, no chat's key.
var paceShownPrefix = []byte("shown")

// shownKey is the pace bucket's key of the table's shown version.
func shownKey(k TableKey) []byte { return append(slices.Clone(paceShownPrefix), tableKeyBytes(k)...) }

// SavePace records p in one transaction: At and Clean, the calls of each
// group in p.Calls, replacing what the group had (none: removed), and the
// versions in p.Shown (0: removed). Groups whose calls all came before
// expire are removed, so that the bucket holds only the groups called
// lately; the shown versions stay until their table closes.
func (s *Store) SavePace(ctx context.Context, p Pace, expire time.Time) error {
	return firstErr(s.write(ctx, func(t *txn) error {
		b := t.tx.Bucket(bucketPace)
		saved := binary.AppendVarint([]byte{recordFormat}, timeMs(p.At))
		clean := byte(0)
		if p.Clean {
			clean = 1
		}
		if err := b.Put(keyPaceSaved, append(saved, clean)); err != nil {
			return err
		}
		for chat, calls := range p.Calls {
			if err := putPace(b, chat, calls); err != nil {
				return err
			}
		}
		for key, version := range p.Shown {
			var err error
			if version == 0 {
				err = b.Delete(shownKey(key))
			} else {
				err = b.Put(shownKey(key), binary.AppendUvarint([]byte{recordFormat}, version))
			}
			if err != nil {
				return err
			}
		}
		return expirePace(b, timeMs(expire))
	}))
}

// putPace writes a group's calls: their number, then each as a varint of
// Unix milliseconds, the first whole and the others as the difference to
// the one before.
func putPace(b *bolt.Bucket, chat int64, calls []time.Time) error {
	if len(calls) == 0 {
		return b.Delete(chatKey(chat))
	}
	calls = slices.SortedFunc(slices.Values(calls), time.Time.Compare)
	v := binary.AppendUvarint([]byte{recordFormat}, uint64(len(calls)))
	prev := int64(0)
	for _, c := range calls {
		ms := timeMs(c)
		v = binary.AppendVarint(v, ms-prev)
		prev = ms
	}
	return b.Put(chatKey(chat), v)
}

// expirePace removes the groups whose last call came before expire (Unix
// ms).
func expirePace(b *bolt.Bucket, expire int64) error {
	var old [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if len(k) != 8 {
			return nil
		}
		calls, err := decodePace(v)
		if err != nil || len(calls) == 0 || timeMs(calls[len(calls)-1]) < expire {
			old = append(old, slices.Clone(k)) // one that does not decode goes too
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

func decodePace(v []byte) ([]time.Time, error) {
	r := newRecReader(v)
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
	}
	var calls []time.Time
	ms := int64(0)
	for range n {
		ms += r.varint()
		calls = append(calls, msTime(ms))
	}
	return calls, r.done()
}

// LoadPace returns what SavePace saved; the zero Pace when nothing was.
// A group's record that does not decode is left out: it is advice, not
// data anyone owns.
func (s *Store) LoadPace(ctx context.Context) (Pace, error) {
	var p Pace
	err := s.read(ctx, func(t *txn) error {
		p = Pace{Calls: make(map[int64][]time.Time), Shown: make(map[TableKey]uint64)}
		b := t.tx.Bucket(bucketPace)
		if v := b.Get(keyPaceSaved); v != nil {
			r := newRecReader(v)
			p.At, p.Clean = msTime(r.varint()), r.byte() == 1
			if err := r.done(); err != nil {
				return t.corruptAt("pace", fmt.Errorf("when saved: %w", err))
			}
		}
		return b.ForEach(func(k, v []byte) error {
			switch {
			case len(k) == 8:
				if calls, err := decodePace(v); err == nil {
					p.Calls[getInt(k)] = calls
				}
			case len(k) == len(paceShownPrefix)+16 && bytes.HasPrefix(k, paceShownPrefix):
				r := newRecReader(v)
				version := r.uvarint()
				if r.done() == nil && version != 0 {
					t := k[len(paceShownPrefix):]
					p.Shown[TableKey{Chat: getInt(t), Thread: getInt(t[8:])}] = version
				}
			}
			return nil
		})
	})
	return p, err
}
