package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// View returns a table as it is now. A table never opened is a closed
// table at version 0.
func (s *Store) View(ctx context.Context, key TableKey) (View, error) {
	var v View
	err := s.read(ctx, func(t *txn) error {
		c, _, _, err := t.resolve(key.Chat)
		if err != nil {
			return err
		}
		key.Chat = c
		tb, msgID, _, err := t.table(key)
		if err != nil {
			return err
		}
		return t.tableView(&v, key, &tb, msgID)
	})
	return v, err
}

// ChatTables returns the keys of a chat's tables (one per forum topic that
// ever had one), open or closed; none for an unknown chat.
func (s *Store) ChatTables(ctx context.Context, chat int64) ([]TableKey, error) {
	var keys []TableKey
	err := s.read(ctx, func(t *txn) error {
		c, _, _, err := t.resolve(chat)
		if err != nil {
			return err
		}
		keys = t.tableKeys(c)
		return nil
	})
	return keys, err
}

// SetMessage records the message the bot renders the table into. A table
// never opened is ErrNotFound.
func (s *Store) SetMessage(ctx context.Context, key TableKey, messageID int) error {
	if messageID < 0 {
		return fmt.Errorf("%w: message id %d", game.ErrInvalidInput, messageID)
	}
	return firstErr(s.write(ctx, func(t *txn) error {
		c, _, _, err := t.resolve(key.Chat)
		if err != nil {
			return reject(err)
		}
		k := tableKeyBytes(TableKey{Chat: c, Thread: key.Thread})
		v := t.tables.Get(k)
		if v == nil {
			return reject(fmt.Errorf("%w: no table at %v", ErrNotFound, key))
		}
		h, enc, err := splitTable(v)
		if err != nil {
			return reject(t.corruptAt(fmt.Sprintf("table of chat %d thread %d", c, key.Thread), err))
		}
		h.messageID = messageID
		return t.tables.Put(k, append(h.append(make([]byte, 0, len(v)+8)), enc...))
	}))
}

// ShowTurn starts the clock of the table's turn (or of its deck's cut
// wait) again at now when the turn started more than late before now
// (game.ShowTurn), in one transaction, and returns the table's View. It
// is for the render that first shows a turn, when it waited: the new
// deadline is stored in the table, where a restart finds it, and the
// version stays. A table at another version than version is
// game.ErrOutdated, and one never opened ErrNotFound: nothing changes.
func (s *Store) ShowTurn(ctx context.Context, key TableKey, version uint64, now time.Time, late time.Duration) (View, error) {
	var v View
	rejected, err := s.write(ctx, func(t *txn) error {
		v = View{}
		c, _, _, err := t.resolve(key.Chat)
		if err != nil {
			return reject(err)
		}
		key := TableKey{Chat: c, Thread: key.Thread}
		tb, msgID, found, err := t.table(key)
		switch {
		case err != nil:
			return reject(err)
		case !found:
			return reject(fmt.Errorf("%w: no table at %v", ErrNotFound, key))
		case tb.Version() != version:
			return reject(fmt.Errorf("%w: shown at version %d, the table is at %d", game.ErrOutdated, version, tb.Version()))
		}
		if shown, moved := game.ShowTurn(tb, now, late); moved {
			tb = shown
			if err := t.putTable(key, &tb, msgID); err != nil {
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

// Timers returns every table with a deadline, for re-arming the timers
// after a restart. It goes through the timer index and reads each table's
// header, without decoding the tables.
func (s *Store) Timers(ctx context.Context) ([]Timer, error) {
	var out []Timer
	err := s.read(ctx, func(t *txn) error {
		return t.timers.ForEach(func(k, v []byte) error {
			if len(k) != 16 {
				return t.corruptAt("timer index", fmt.Errorf("key %x", k))
			}
			key := parseTableKey(k)
			h, _, err := splitTable(t.tables.Get(k))
			if err != nil || h.deadline == 0 {
				return t.corruptAt(fmt.Sprintf("table of chat %d thread %d", key.Chat, key.Thread), fmt.Errorf("timer index: %v", err))
			}
			at, err := parseTimerValue(v)
			if err != nil {
				return t.corruptAt(fmt.Sprintf("timer of chat %d thread %d", key.Chat, key.Thread), err)
			}
			out = append(out, Timer{Key: key, Version: h.version, Deadline: msTime(h.deadline), HouseAt: at})
			return nil
		})
	})
	return out, err
}

// TableReveals returns the decks revealed in game number gameNo of the
// table at key, in the order they were revealed. ErrNotFound when there
// are none.
func (s *Store) TableReveals(ctx context.Context, key TableKey, gameNo uint64) ([]Reveal, error) {
	return s.reveals(ctx, key.Chat, gameNo, &key.Thread)
}

func (s *Store) reveals(ctx context.Context, chat int64, gameNo uint64, thread *int64) ([]Reveal, error) {
	var out []Reveal
	err := s.read(ctx, func(t *txn) error {
		c, _, _, err := t.resolve(chat)
		if err != nil {
			return err
		}
		prefix := revealKey(TableKey{Chat: c}, gameNo, 0, 0)[:16]
		cur := t.reveals.Cursor()
		for k, v := cur.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = cur.Next() {
			r, err := decodeReveal(k, v)
			if err != nil {
				return t.corruptAt(fmt.Sprintf("reveal of chat %d game %d", c, gameNo), err)
			}
			if thread != nil && r.Key.Thread != *thread {
				continue
			}
			if r.CutBy != 0 {
				u, _, err := t.user(c, r.CutBy)
				if err != nil {
					return err
				}
				r.CutByName = u.name
			}
			out = append(out, r)
		}
		if len(out) == 0 {
			return fmt.Errorf("%w: no deck revealed in game %d of chat %d", ErrNotFound, gameNo, chat)
		}
		return nil
	})
	return out, err
}

// Highest is the highest Telegram ids a file names.
type Highest struct {
	// Update is the highest update id any chat handled (recent or
	// not), 0 if none.
	Update int64
	// Message is the highest message id a table is shown in or is to retire in
	// its chat, 0 if none.
	Message int
}

// Highest returns the highest update and message ids the file names, so
// that a Bot API server started afresh on a kept file (the playground's)
// can number its updates and messages past them: an update at or below a
// chat's last is a redelivery, and a table's old message id must not name
// a new message.
func (s *Store) Highest(ctx context.Context) (Highest, error) {
	var h Highest
	err := s.read(ctx, func(t *txn) error {
		h = Highest{}
		c := t.chats.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			rec, err := decodeChat(v)
			if err != nil {
				return t.corruptAt(fmt.Sprintf("chat %x", k), err)
			}
			h.Update = max(h.Update, rec.lastUpdate, rec.floor)
			if n := len(rec.recent); n > 0 {
				h.Update = max(h.Update, rec.recent[n-1])
			}
		}
		c = t.tables.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			th, _, err := splitTable(v)
			if err != nil {
				return t.corruptAt(fmt.Sprintf("table %x", k), err)
			}
			h.Message = max(h.Message, th.messageID)
		}
		c = t.retire.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if len(k) != 24 {
				return t.corruptAt("old messages", fmt.Errorf("key %x", k))
			}
			h.Message = max(h.Message, int(getUint(k[16:])))
		}
		return nil
	})
	return h, err
}
