package storage

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// txn is one transaction with the buckets at hand and the helpers every
// method shares. Getters return copies, never slices into the mmap.
type txn struct {
	s        *Store
	tx       *bolt.Tx
	chats    *bolt.Bucket
	settings *bolt.Bucket
	tables   *bolt.Bucket
	timers   *bolt.Bucket
	users    *bolt.Bucket
	rank     *bolt.Bucket
	ledger   *bolt.Bucket
	reveals  *bolt.Bucket
	retire   *bolt.Bucket
	awards   *bolt.Bucket
	// inline is opened on first use (see inlineRecords): most
	// transactions concern no table on an inline message.
	inline *bolt.Bucket
	// chains is opened on first use (see chainRecords): most
	// transactions take no link.
	chains *bolt.Bucket
}

func (s *Store) newTxn(tx *bolt.Tx) *txn {
	t := &txn{
		s:        s,
		tx:       tx,
		chats:    tx.Bucket(bucketChats),
		settings: tx.Bucket(bucketSettings),
		tables:   tx.Bucket(bucketTables),
		timers:   tx.Bucket(bucketTimers),
		users:    tx.Bucket(bucketUsers),
		rank:     tx.Bucket(bucketRank),
		ledger:   tx.Bucket(bucketLedger),
		reveals:  tx.Bucket(bucketReveals),
		retire:   tx.Bucket(bucketRetire),
		awards:   tx.Bucket(bucketAwards),
	}
	if tx.Writable() {
		// The ledger is appended at its end, and reveal keys grow within
		// each game: fill pages before splitting.
		t.ledger.FillPercent = 1
		t.reveals.FillPercent = 0.9
	}
	return t
}

// corruptAt wraps a decoding error so that it names what failed.
func (t *txn) corruptAt(what string, err error) error {
	return fmt.Errorf("%w: %s: %s: %w", ErrCorrupt, t.s.path, what, err)
}

// maxMoves bounds how many migrations resolve follows.
const maxMoves = 8

// chat returns the chat's record; ok is false when the chat is unknown.
func (t *txn) chat(chat int64) (chatRec, bool, error) {
	v := t.chats.Get(chatKey(chat))
	if v == nil {
		return chatRec{}, false, nil
	}
	c, err := decodeChat(v)
	if err != nil {
		return chatRec{}, false, t.corruptAt(fmt.Sprintf("chat %d", chat), err)
	}
	return c, true, nil
}

// resolve follows the chat's migrations and returns the chat that holds its
// data now, with its record; ok is false when that chat is unknown.
func (t *txn) resolve(chat int64) (int64, chatRec, bool, error) {
	for range maxMoves {
		c, ok, err := t.chat(chat)
		if err != nil || !ok || c.movedTo == 0 {
			return chat, c, ok, err
		}
		chat = c.movedTo
	}
	return 0, chatRec{}, false, t.corruptAt(fmt.Sprintf("chat %d", chat), errors.New("migration chain too long"))
}

func (t *txn) putChat(chat int64, c *chatRec) error {
	return t.chats.Put(chatKey(chat), c.encode())
}

// chatSettings returns the chat's settings, defaults filled in, and what is
// stored.
func (t *txn) chatSettings(chat int64) (ChatSettings, settingsRec, error) {
	cs := ChatSettings{Game: t.s.opts.Defaults.Game.Clone(), Language: t.s.opts.Defaults.Language,
		HouseForbidden: t.s.opts.Defaults.HouseForbidden}
	v := t.settings.Get(chatKey(chat))
	if v == nil {
		return cs, settingsRec{}, nil
	}
	rec, err := t.s.settings.decode(v)
	if err != nil {
		return cs, rec, t.corruptAt(fmt.Sprintf("settings of chat %d", chat), err)
	}
	if rec.Game != nil {
		cs.Game = rec.Game.Clone()
	}
	if rec.Language != "" {
		cs.Language = rec.Language
	}
	if rec.NoHouse != nil {
		cs.HouseForbidden = *rec.NoHouse
	}
	return cs, rec, nil
}

func (t *txn) putSettings(chat int64, rec *settingsRec) error {
	v, err := rec.encode()
	if err != nil {
		return err
	}
	return t.settings.Put(chatKey(chat), v)
}

// user returns the user's record in the chat; ok is false when the user
// never appeared there.
func (t *txn) user(chat int64, u game.UserID) (userRec, bool, error) {
	v := t.users.Get(userKey(chat, u))
	if v == nil {
		return userRec{}, false, nil
	}
	rec, err := decodeUser(v)
	if err != nil {
		return userRec{}, false, t.corruptAt(fmt.Sprintf("user %d of chat %d", u, chat), err)
	}
	return rec, true, nil
}

// putUser writes the user's record and moves their leaderboard entry from
// oldBalance (ignored when the user is new) to the new balance.
func (t *txn) putUser(chat int64, u game.UserID, rec *userRec, oldBalance int64, isNew bool) error {
	if rec.balance < 0 {
		return fmt.Errorf("%w: balance of user %d in chat %d would be %d", ErrInternal, u, chat, rec.balance)
	}
	if err := t.users.Put(userKey(chat, u), rec.encode()); err != nil {
		return err
	}
	if !isNew && oldBalance == rec.balance {
		return nil
	}
	if !isNew {
		if err := t.rank.Delete(rankKey(chat, oldBalance, u)); err != nil {
			return err
		}
	}
	return t.rank.Put(rankKey(chat, rec.balance, u), present)
}

// newUserRec returns a new user's record with their starting chips.
func (t *txn) newUserRec(p User, now time.Time) userRec {
	rec := userRec{balance: t.startingChips(p.ID), created: timeMs(now)}
	rec.refresh(p)
	return rec
}

// startingChips returns what a user is granted on their first appearance
// in a chat: Options.HouseChips for the house, Options.StartingChips for
// everyone else.
func (t *txn) startingChips(u game.UserID) int64 {
	if u == house.ID {
		return t.s.opts.HouseChips
	}
	return t.s.opts.StartingChips
}

// appendLedger numbers e from the chat's sequence and appends it to the
// ledger, linked to the user's previous entry; rec, the user's record,
// then points at it: the caller writes rec after.
func (t *txn) appendLedger(c *chatRec, rec *userRec, e *LedgerEntry) error {
	n, err := t.ledger.NextSequence()
	if err != nil {
		return err
	}
	c.seq++
	e.Seq = c.seq
	if err := t.ledger.Put(entryKey(n), e.encode(rec.lastEntry)); err != nil {
		return err
	}
	rec.lastEntry = n
	return nil
}

// brokenChain is a user's chain of ledger entries that cannot be followed.
type brokenChain struct {
	chat int64
	user game.UserID
	err  error
}

func (b *brokenChain) Error() string {
	return fmt.Sprintf("user %d in chat %d: %v", b.user, b.chat, b.err)
}

func (b *brokenChain) Unwrap() error { return b.err }

// errStop stops walkLedger without an error.
var errStop = errors.New("stop")

// walkLedger calls fn for a user's ledger entries in a chat, newest first,
// from the entry numbered n (the user's last) back to their first. An
// entry that is missing or does not decode or is another user's, and a
// chain longer than most (a loop), are errors wrapping ErrCorrupt. fn may
// return errStop to stop early.
func (t *txn) walkLedger(chat int64, u game.UserID, n, most uint64, fn func(n uint64, e LedgerEntry, prev uint64) error) error {
	broken := func(format string, args ...any) error {
		return t.corruptAt("ledger", &brokenChain{chat: chat, user: u, err: fmt.Errorf(format, args...)})
	}
	for i := uint64(0); n != 0; i++ {
		if i == most {
			return broken("more than %d entries: the chain loops", most)
		}
		v := t.ledger.Get(entryKey(n))
		if v == nil {
			return broken("entry #%d is missing", n)
		}
		e, prev, err := decodeLedger(v)
		if err != nil {
			return broken("entry #%d: %w", n, err)
		}
		if e.Chat != chat || e.User != u {
			return broken("entry #%d is user %d's in chat %d", n, e.User, e.Chat)
		}
		if err := fn(n, e, prev); err != nil {
			if errors.Is(err, errStop) {
				return nil
			}
			return err
		}
		n = prev
	}
	return nil
}

// table returns the table at key; a table never opened is the zero Table.
func (t *txn) table(key TableKey) (game.Table, int, bool, error) {
	v := t.tables.Get(tableKeyBytes(key))
	if v == nil {
		return game.Table{}, 0, false, nil
	}
	tb, id, err := decodeTable(v)
	if err != nil {
		return game.Table{}, 0, false, t.corruptAt(fmt.Sprintf("table of chat %d thread %d", key.Chat, key.Thread), err)
	}
	return tb, id, true, nil
}

// putTable writes the table, and keeps the timer index (the keys of the
// tables with a deadline, each with the time the house moves there, if it
// does) up to date. The index changes only when a table gains or loses its
// deadline or the house's move: the deadline itself is in the table's
// header.
func (t *txn) putTable(key TableKey, tb *game.Table, messageID int) error {
	v, err := encodeTable(tb, messageID)
	if err != nil {
		return err
	}
	k := tableKeyBytes(key)
	if err := t.tables.Put(k, v); err != nil {
		return err
	}
	listed := t.timers.Get(k)
	switch has := !tb.Deadline().IsZero(); {
	case has:
		if want := timerValue(tb); listed == nil || !bytes.Equal(listed, want) {
			return t.timers.Put(k, want)
		}
	case listed != nil:
		return t.timers.Delete(k)
	}
	return nil
}

// tableKeys returns the keys of the chat's tables.
func (t *txn) tableKeys(chat int64) []TableKey {
	var keys []TableKey
	p := chatKey(chat)
	c := t.tables.Cursor()
	for k, _ := c.Seek(p); k != nil && hasPrefix(k, p); k, _ = c.Next() {
		if len(k) == 16 {
			keys = append(keys, parseTableKey(k))
		}
	}
	return keys
}

// eachTable calls fn with each of the chat's tables, in key order. A table
// that does not decode is passed with its error (and the zero Table); fn's
// error stops the walk.
func (t *txn) eachTable(chat int64, fn func(key TableKey, tb *game.Table, err error) error) error {
	for _, key := range t.tableKeys(chat) {
		tb, _, _, err := t.table(key)
		if err := fn(key, &tb, err); err != nil {
			return err
		}
	}
	return nil
}

// balances is game.Balances over the transaction, for one chat. Pending
// holds records not written yet (a user appearing for the first time).
type balances struct {
	t       *txn
	chat    int64
	pending map[game.UserID]*userRec
	err     error
}

// Balance implements game.Balances.
func (b *balances) Balance(u game.UserID) int64 {
	if rec, ok := b.pending[u]; ok {
		return rec.balance
	}
	rec, _, err := b.t.user(b.chat, u)
	if err != nil && b.err == nil {
		b.err = err
	}
	return rec.balance
}

// tableView sets v to the View of a table of key's chat (its chat
// resolved), as View returns it: with the chat's settings.
func (t *txn) tableView(v *View, key TableKey, tb *game.Table, messageID int) error {
	cs, _, err := t.chatSettings(key.Chat)
	if err != nil {
		return err
	}
	return t.view(v, key, tb, cs, messageID, nil)
}

// view sets v to the View of a table (in place: a View is big), whose
// chat has the settings cs: balances and names of everyone seated and of
// the extra users, the table's Inline record as stored, with its settings
// as the game's, and the table's owed messages.
func (t *txn) view(v *View, key TableKey, tb *game.Table, cs ChatSettings, messageID int, pending map[game.UserID]*userRec, extra ...game.UserID) error {
	in, err := t.inlineOf(key)
	if err != nil {
		return err
	}
	if in != nil {
		cs.Game = in.Settings.Clone() // v.Inline's is not shared
	}
	*v = View{Key: key, Table: *tb, Settings: cs, Inline: in, MessageID: messageID,
		Balances: make(map[game.UserID]int64, tb.NumSeats()+len(extra)),
		Names:    make(map[game.UserID]string, tb.NumSeats()+len(extra))}
	add := func(u game.UserID, seatName string) error {
		if u == 0 {
			return nil
		}
		if _, done := v.Balances[u]; done {
			return nil
		}
		rec, ok := pending[u]
		if !ok {
			r, found, err := t.user(key.Chat, u)
			if err != nil {
				return err
			}
			rec = &r
			if !found {
				rec.name = seatName
			}
		}
		v.Balances[u] = rec.balance
		name := rec.name
		if name == "" {
			name = seatName
		}
		v.Names[u] = name
		return nil
	}
	for _, s := range tb.Seats() {
		if err := add(s.User, s.Name); err != nil {
			return err
		}
	}
	for _, u := range extra {
		if err := add(u, ""); err != nil {
			return err
		}
	}
	decks, err := t.decks(key, tb)
	if err != nil {
		return err
	}
	v.Decks = decks
	if v.Awards, err = t.gameAwards(key, tb); err != nil {
		return err
	}
	v.Retiring, err = t.retirements(key)
	return err
}

// decks returns the commitments of the decks revealed in the game a table
// shows as finished (in the lobby or closed after it), oldest first; none
// while a game is played, so that a command in the middle of a game reads
// nothing more.
func (t *txn) decks(key TableKey, tb *game.Table) ([]game.Commitment, error) {
	if !tb.Finished() {
		return nil, nil
	}
	gameNo := tb.Game()
	var out []game.Commitment
	prefix := revealKey(key, gameNo, 0, 0)[:24] // chat|game|thread
	c := t.reveals.Cursor()
	for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
		r, err := decodeReveal(k, v)
		if err != nil {
			return nil, t.corruptAt(fmt.Sprintf("reveal of chat %d game %d", key.Chat, gameNo), err)
		}
		cm, err := game.ParseCommitment(r.Commitment)
		if err != nil {
			return nil, t.corruptAt(fmt.Sprintf("reveal of chat %d game %d", key.Chat, gameNo), err)
		}
		out = append(out, cm)
	}
	return out, nil
}
