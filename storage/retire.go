package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// Retiring an old message: after a command moved a table into a new
// message, the old one is to be retired, edited into the record of the
// game it showed or deleted. It is written in the transaction of the
// command (see ApplyRequest.Repost), shown in every View of the table
// (View.Retiring) and kept until the bot reports it retired (Retired), so
// that a restart finishes it (Retiring lists the tables retiring one).

// addRetiring records a table's message as one to retire: to become the
// record of the finished game record holds, or, when record is nil, to be
// deleted. A message to retire as a record stays one; one to delete
// becomes a record when asked.
func (t *txn) addRetiring(key TableKey, messageID int, record *game.Table) error {
	k := retireKey(key, messageID)
	if v := t.retire.Get(k); v != nil && (record == nil || len(v) > 1) {
		return nil
	}
	v, err := encodeRetirement(record)
	if err != nil {
		return err
	}
	return t.retire.Put(k, v)
}

// dropRetiring forgets the old messages to retire in a chat whose messages the
// bot can no longer change.
func (t *txn) dropRetiring(chat int64) error {
	for _, k := range keysWithPrefix(t.retire, chatKey(chat)) {
		if err := t.retire.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// retirements returns the table's messages to retire, oldest first, with what
// their records need: the current names of the players and the decks of
// the game.
func (t *txn) retirements(key TableKey) ([]Retirement, error) {
	var out []Retirement
	prefix := tableKeyBytes(key)
	c := t.retire.Cursor()
	for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
		r, err := t.retirement(key, k, v)
		if err != nil {
			return nil, t.corruptAt(fmt.Sprintf("old message of chat %d thread %d", key.Chat, key.Thread), err)
		}
		out = append(out, r)
	}
	return out, nil
}

// retirement decodes one message to retire of the table at key.
func (t *txn) retirement(key TableKey, k, v []byte) (Retirement, error) {
	if len(k) != 24 || getUint(k[16:]) == 0 || getUint(k[16:]) > 1<<53 {
		return Retirement{}, fmt.Errorf("%w: key %x", errRecord, k)
	}
	tb, record, err := decodeRetirement(v)
	if err != nil {
		return Retirement{}, err
	}
	r := Retirement{MessageID: int(getUint(k[16:])), Record: record}
	if !record {
		return r, nil
	}
	r.Table = tb
	r.Names = make(map[game.UserID]string, len(tb.Players()))
	for _, p := range tb.Players() {
		rec, ok, err := t.user(key.Chat, p.User)
		if err != nil {
			return Retirement{}, err
		}
		if ok && rec.name != "" {
			r.Names[p.User] = rec.name
		}
	}
	if r.Decks, err = t.decks(key, &tb); err != nil {
		return Retirement{}, err
	}
	if r.Awards, err = t.gameAwards(key, &tb); err != nil {
		return Retirement{}, err
	}
	return r, nil
}

// Retire records a message the bot sent into the table's chat, besides
// the table's own, as one to retire by deleting it: it joins the table's
// View.Retiring (not as a record) and stays there until reported retired
// with Retired, so that a restart still deletes it (Retiring lists its
// table). It is for a short-lived message about the table, such as a
// turn's nudge. Retiring a message already to retire does nothing; key is
// the View's.
func (s *Store) Retire(ctx context.Context, key TableKey, messageID int) error {
	if messageID <= 0 {
		return fmt.Errorf("%w: message id %d", game.ErrInvalidInput, messageID)
	}
	return firstErr(s.write(ctx, func(t *txn) error { return t.addRetiring(key, messageID, nil) }))
}

// Retired records that an old message of the table (one of its
// View.Retiring) was retired: edited into its record, deleted, or found
// gone. Key is the View's. Reporting a message again, or one never to
// retire, does nothing.
func (s *Store) Retired(ctx context.Context, key TableKey, messageID int) error {
	if messageID <= 0 {
		return fmt.Errorf("%w: message id %d", game.ErrInvalidInput, messageID)
	}
	return firstErr(s.write(ctx, func(t *txn) error {
		k := retireKey(key, messageID)
		if t.retire.Get(k) == nil {
			return nil
		}
		return t.retire.Delete(k)
	}))
}

// Retiring returns the tables that have an old message to retire, for
// finishing after a restart: each table's View lists them.
func (s *Store) Retiring(ctx context.Context) ([]TableKey, error) {
	var out []TableKey
	err := s.read(ctx, func(t *txn) error {
		out = nil
		c := t.retire.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if len(k) != 24 {
				return t.corruptAt("old messages", fmt.Errorf("key %x", k))
			}
			key := parseTableKey(k)
			if n := len(out); n == 0 || out[n-1] != key {
				out = append(out, key)
			}
		}
		return nil
	})
	return out, err
}

// Repost makes the table's next render a new message at the bottom of the
// chat, in one transaction: its current message is to retire by deleting it
// (View.Retiring). It is for a table moved down without a command applied
// to it (a /newgame typed while it is open). It returns the table's View;
// a table never opened is ErrNotFound. update is the Telegram update that
// asked for it (0: none), stored as the chat's last handled one as Apply
// does: the same update delivered again returns ErrDuplicate and moves
// nothing.
func (s *Store) Repost(ctx context.Context, key TableKey, update int64, now time.Time) (View, error) {
	if now.IsZero() {
		now = time.Now()
	}
	var v View
	rejected, err := s.write(ctx, func(t *txn) error {
		v = View{}
		c, crec, _, err := t.resolve(key.Chat)
		if err != nil {
			return reject(err)
		}
		if crec.handled(update, now) {
			return reject(duplicate(update, c))
		}
		key := TableKey{Chat: c, Thread: key.Thread}
		tb, msgID, found, err := t.table(key)
		switch {
		case err != nil:
			return reject(err)
		case !found:
			return reject(fmt.Errorf("%w: no table at %v", ErrNotFound, key))
		}
		if msgID != 0 {
			if err := t.addRetiring(key, msgID, nil); err != nil {
				return err
			}
		}
		if update != 0 {
			crec.markHandled(update, now, nil)
			if err := t.putChat(c, &crec); err != nil {
				return err
			}
		}
		return t.tableView(&v, key, &tb, msgID)
	})
	if err := firstErr(err, rejected); err != nil {
		return View{}, err
	}
	return v, nil
}
