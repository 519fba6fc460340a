package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/twentyone-bot/twentyone/game"
)

// maxProblems bounds the problems an Audit lists.
const maxProblems = 20

// Audit checks the chat's chips: the sum of the balances plus every table's
// chips must equal the chat's running total of grants and the sum of the
// grants in its ledger; every user's ledger must sum to their balance and
// end at it, and the chat's entries must be numbered 1 to n; the
// leaderboard and timer indexes must match the users and tables; every
// table, every old table message owed to the chat and every inline
// message's record (see Inline) must decode, and each such message and
// record must belong to a table (a record, to one of a chat of inline
// messages). An unknown chat is ErrNotFound.
func (s *Store) Audit(ctx context.Context, chat int64) (Audit, error) {
	var a Audit
	err := s.read(ctx, func(t *txn) error {
		c, crec, ok, err := t.resolve(chat)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%w: chat %d", ErrNotFound, chat)
		}
		a, err = t.audit(ctx, c, crec)
		return err
	})
	return a, err
}

// AuditAll audits every chat, in one read transaction: a consistent
// picture even while writes go on.
func (s *Store) AuditAll(ctx context.Context) ([]Audit, error) {
	var out []Audit
	err := s.read(ctx, func(t *txn) error {
		out = nil
		return t.chats.ForEach(func(k, v []byte) error {
			if len(k) != 8 {
				return t.corruptAt("chats", fmt.Errorf("key %x", k))
			}
			chat := getInt(k)
			crec, err := decodeChat(v)
			if err != nil {
				return t.corruptAt(fmt.Sprintf("chat %d", chat), err)
			}
			if crec.movedTo != 0 {
				return nil
			}
			a, err := t.audit(ctx, chat, crec)
			if err != nil {
				return err
			}
			out = append(out, a)
			return nil
		})
	})
	return out, err
}

// audit audits one chat, whose record is crec.
func (t *txn) audit(ctx context.Context, chat int64, crec chatRec) (Audit, error) {
	au := &auditor{t: t, chat: chat, crec: crec, prefix: chatKey(chat),
		a:         Audit{Chat: chat, Granted: crec.granted},
		balance:   map[game.UserID]int64{},
		lastEntry: map[game.UserID]uint64{}}
	if err := au.users(ctx); err != nil {
		return Audit{}, err
	}
	au.tables()
	if err := au.ledger(ctx); err != nil {
		return Audit{}, err
	}
	a := &au.a
	if a.Granted != a.Ledgered {
		au.problem("the running total of grants is %d, the ledger's grants sum to %d", a.Granted, a.Ledgered)
	}
	if a.Balances+a.OnTables != a.Granted {
		au.problem("balances %d + on tables %d = %d, but %d chips were granted", a.Balances, a.OnTables, a.Balances+a.OnTables, a.Granted)
	}
	a.OK = len(a.Problems) == 0
	return *a, nil
}

// auditor is one chat's audit under way.
type auditor struct {
	t      *txn
	chat   int64
	crec   chatRec
	prefix []byte // the chat's key
	a      Audit
	n      int // records read, for checking the context now and then
	// The users' balances and last ledger entries, as their records say.
	balance   map[game.UserID]int64
	lastEntry map[game.UserID]uint64
}

// problem adds a problem to the audit, up to maxProblems.
func (au *auditor) problem(format string, args ...any) {
	if len(au.a.Problems) < maxProblems {
		au.a.Problems = append(au.a.Problems, fmt.Sprintf(format, args...))
	}
}

// tick counts a record read, and returns ctx's error every 1024.
func (au *auditor) tick(ctx context.Context) error {
	au.n++
	if au.n%1024 == 0 {
		return ctx.Err()
	}
	return nil
}

// users reads the users, and checks the leaderboard index against them.
func (au *auditor) users(ctx context.Context) error {
	t, prefix := au.t, au.prefix
	cur := t.users.Cursor()
	for k, v := cur.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = cur.Next() {
		if err := au.tick(ctx); err != nil {
			return err
		}
		u := game.UserID(getInt(k[8:]))
		rec, err := decodeUser(v)
		if err != nil {
			au.problem("user %d does not decode: %v", u, err)
			continue
		}
		au.balance[u] = rec.balance
		au.lastEntry[u] = rec.lastEntry
		au.a.Balances += rec.balance
		if t.rank.Get(rankKey(au.chat, rec.balance, u)) == nil {
			au.problem("user %d with balance %d is missing from the leaderboard index", u, rec.balance)
		}
	}
	ranked := 0
	cur = t.rank.Cursor()
	for k, _ := cur.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = cur.Next() {
		ranked++
	}
	if ranked != len(au.balance) {
		au.problem("the leaderboard index holds %d entries for %d users", ranked, len(au.balance))
	}
	return nil
}

// tables checks the tables, the timer index, the old messages owed and
// the inline messages' records.
func (au *auditor) tables() {
	t, prefix := au.t, au.prefix
	cur := t.timers.Cursor()
	for k, _ := cur.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = cur.Next() {
		if t.tables.Get(k) == nil {
			au.problem("the timer index lists thread %d, which has no table", getInt(k[8:]))
		}
	}
	_ = t.eachTable(au.chat, func(key TableKey, tb *game.Table, err error) error {
		if err != nil {
			au.problem("table of thread %d: %v", key.Thread, err)
			return nil
		}
		au.a.OnTables += tb.Chips()
		listed := t.timers.Get(tableKeyBytes(key))
		if (listed != nil) == tb.Deadline().IsZero() || listed != nil && !bytes.Equal(listed, timerValue(tb)) {
			au.problem("the timer index does not match the table of thread %d", key.Thread)
		}
		return nil
	})
	cur = t.retire.Cursor()
	for k, v := cur.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = cur.Next() {
		if len(k) != 24 {
			au.problem("an old message owed has the key %x", k)
			continue
		}
		key := parseTableKey(k)
		if _, err := t.retirement(key, k, v); err != nil {
			au.problem("an old message owed in thread %d: %v", key.Thread, err)
		}
		if t.tables.Get(k[:16]) == nil {
			au.problem("thread %d owes an old message, and has no table", key.Thread)
		}
	}
	cur = t.inlineRecords().Cursor()
	for k, v := cur.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = cur.Next() {
		if len(k) != 16 {
			au.problem("an inline message's record has the key %x", k)
			continue
		}
		thread := getInt(k[8:])
		if _, err := t.decodeInline(v); err != nil {
			au.problem("the inline message's record of thread %d: %v", thread, err)
		}
		switch {
		case !InlineChat(au.chat):
			au.problem("thread %d has an inline message's record, in a chat of no inline messages", thread)
		case t.tables.Get(k) == nil:
			au.problem("thread %d has an inline message's record, and no table", thread)
		}
	}
}

// ledger checks the ledger: each user's entries, in order, sum to the
// balance they record, the last to the user's balance; the chat's entries
// are numbered 1 to seq, each once.
func (au *auditor) ledger(ctx context.Context) error {
	seq := au.crec.seq
	numbered := make([]bool, seq+1)
	var entries uint64
	for _, u := range slices.Sorted(maps.Keys(au.balance)) {
		var chain []LedgerEntry // newest first
		err := au.t.walkLedger(au.chat, u, au.lastEntry[u], seq, func(_ uint64, e LedgerEntry, _ uint64) error {
			chain = append(chain, e)
			return au.tick(ctx)
		})
		if broken := (*brokenChain)(nil); errors.As(err, &broken) {
			au.problem("the ledger of user %d is broken: %v", u, broken.err)
		} else if err != nil {
			return err
		}
		var sum int64
		for i := len(chain) - 1; i >= 0; i-- {
			e := &chain[i]
			entries++
			if s := e.Seq; s == 0 || s > seq || numbered[s] {
				au.problem("ledger entry %d of user %d is numbered out of the chat's sequence (1 to %d) or twice", s, u, seq)
			} else {
				numbered[s] = true
			}
			if e.Kind.Grant() {
				au.a.Ledgered += e.Amount
			}
			sum += e.Amount
			if sum != e.Balance {
				au.problem("ledger entry %d leaves user %d at %d, the entries sum to %d", e.Seq, u, e.Balance, sum)
				sum = e.Balance
			}
		}
		var last int64
		if len(chain) > 0 {
			last = chain[0].Balance
		}
		if last != au.balance[u] {
			au.problem("user %d has balance %d, the ledger says %d", u, au.balance[u], last)
		}
	}
	if entries != seq {
		au.problem("the users' ledgers hold %d entries, the chat counts %d", entries, seq)
	}
	return nil
}
