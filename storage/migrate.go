package storage

import (
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

// MigrateChat moves everything chat from owns to chat to, for a group
// upgraded to a supergroup: tables, balances, settings, ledger, stats,
// achievements, the games' awards, revealed decks and followers, in one
// transaction; the old messages to retire in from (see View.Retiring) are
// dropped, as the old group can no longer change. Chat from is left pointing at to, so
// that later calls with the old id reach the new chat. Migrating again to
// the same chat does nothing (Telegram reports the upgrade in both chats).
//
// When to already holds data, it is merged: balances, grants and stats add
// up, achievements join, the moved ledger entries follow to's, and where
// both have a table in the same thread, to's stays and from's is cancelled
// (bets refunded) first. Settings stay to's when it has its own; a user
// who follows both keeps to's following.
func (s *Store) MigrateChat(ctx context.Context, from, to int64) error {
	if from == 0 || to == 0 || from == to {
		return fmt.Errorf("%w: migrate chat %d to %d", game.ErrInvalidInput, from, to)
	}
	now := time.Now()
	return firstErr(s.write(ctx, func(t *txn) error { return t.migrate(from, to, now) }))
}

// migrate does the work of MigrateChat inside a transaction. It rejects
// what it refuses before it writes: an unknown chat, one moved elsewhere
// already, a move into itself.
func (t *txn) migrate(from, to int64, now time.Time) error {
	to, done, err := t.migrationTarget(from, to)
	if err != nil {
		return reject(err)
	}
	if done {
		return nil
	}
	if err := t.moveTables(from, to, now); err != nil {
		return err
	}
	// The old messages to retire in from are in the old group, which the bot
	// cannot change any more: the debt ends with the chat.
	if err := t.dropRetiring(from); err != nil {
		return err
	}

	// The chat records, re-read: cancelling wrote to from's.
	src, _, err := t.chat(from)
	if err != nil {
		return err
	}
	dst, known, err := t.chat(to)
	if err != nil {
		return err
	}
	if !known {
		dst.created = src.created
	}
	if err := t.moveUsers(from, to, &src, &dst); err != nil {
		return err
	}
	if err := t.moveReveals(from, to); err != nil {
		return err
	}
	if err := t.moveAwards(from, to); err != nil {
		return err
	}
	if err := t.moveSettings(from, to); err != nil {
		return err
	}
	if err := t.moveFollows(from, to); err != nil {
		return err
	}

	dst.granted += src.granted
	dst.seq += src.seq
	if src.lastUpdate > dst.lastUpdate {
		dst.answer = src.answer
	}
	dst.lastUpdate = max(dst.lastUpdate, src.lastUpdate)
	dst.lastUpdateAt = max(dst.lastUpdateAt, src.lastUpdateAt)
	dst.mergeHandled(&src)
	if err := t.putChat(to, &dst); err != nil {
		return err
	}
	moved := chatRec{movedTo: to, created: src.created, lastUpdate: src.lastUpdate, lastUpdateAt: src.lastUpdateAt,
		floor: src.floor, recent: src.recent}
	return t.putChat(from, &moved)
}

// migrationTarget returns the chat that from's data moves into: to, or
// where to moved. done means from already moved there: nothing to do.
func (t *txn) migrationTarget(from, to int64) (int64, bool, error) {
	src, ok, err := t.chat(from)
	if err != nil {
		return 0, false, err
	}
	if !ok {
		return 0, false, fmt.Errorf("%w: chat %d", ErrNotFound, from)
	}
	if src.movedTo != 0 {
		final, _, _, err := t.resolve(from)
		if err != nil {
			return 0, false, err
		}
		if target, _, _, err := t.resolve(to); err == nil && target == final {
			return target, true, nil
		}
		return 0, false, fmt.Errorf("%w: chat %d already moved to %d", game.ErrInvalidInput, from, src.movedTo)
	}
	to, _, _, err = t.resolve(to)
	if err != nil {
		return 0, false, err
	}
	if to == from {
		return 0, false, fmt.Errorf("%w: chat %d would move into itself", game.ErrInvalidInput, from)
	}
	return to, false, nil
}

// moveTables moves from's tables to to, each with its timer, its Inline
// record and its hash chain. A thread both chats have keeps to's table; from's is
// cancelled first, so that its chips return to balances that move, and
// deleted with its own. (A chat of inline messages never migrates: the
// records move only so that none is ever left without its table.)
func (t *txn) moveTables(from, to int64, now time.Time) error {
	var moveTables []TableKey
	for _, key := range t.tableKeys(from) {
		_, _, taken, err := t.table(TableKey{Chat: to, Thread: key.Thread})
		if err != nil {
			return err
		}
		if !taken {
			moveTables = append(moveTables, key)
			continue
		}
		tb, _, _, err := t.table(key)
		if err != nil {
			return err
		}
		if tb.Phase() != game.Closed {
			var a Applied
			if err := t.apply(ApplyRequest{Key: key, Command: game.Command{Kind: game.Cancel}, Now: now}, &a); err != nil {
				return fmt.Errorf("cancel the table of chat %d thread %d: %w", from, key.Thread, failure(err))
			}
		}
		if err := t.tables.Delete(tableKeyBytes(key)); err != nil {
			return err
		}
		for _, b := range t.tableBuckets() {
			if err := b.Delete(tableKeyBytes(key)); err != nil {
				return err
			}
		}
	}
	for _, key := range moveTables {
		k := tableKeyBytes(key)
		nk := tableKeyBytes(TableKey{Chat: to, Thread: key.Thread})
		for _, b := range t.tableBuckets() {
			if err := moveKey(b, k, nk); err != nil {
				return err
			}
		}
	}
	return nil
}

// tableBuckets are the buckets that keep a table under its key: the
// table, its timer, its Inline record and its hash chain.
func (t *txn) tableBuckets() [4]*bolt.Bucket {
	return [...]*bolt.Bucket{t.tables, t.timers, t.inlineRecords(), t.chainRecords()}
}

// moveUsers moves from's users to to, or merges them into to's record of
// the same user. Their ledger entries follow to's, renumbered after them
// (dst.seq, not yet counting src's); a merged user's chain continues from
// their last entry in to, and their balances after each entry include what
// they held there.
func (t *txn) moveUsers(from, to int64, src, dst *chatRec) error {
	for _, k := range keysWithPrefix(t.users, chatKey(from)) {
		u := game.UserID(getInt(k[8:]))
		rec, _, err := t.user(from, u)
		if err != nil {
			return err
		}
		if err := t.rank.Delete(rankKey(from, rec.balance, u)); err != nil {
			return err
		}
		if err := t.users.Delete(k); err != nil {
			return err
		}
		have, exists, err := t.user(to, u)
		if err != nil {
			return err
		}
		err = t.walkLedger(from, u, rec.lastEntry, src.seq, func(n uint64, e LedgerEntry, prev uint64) error {
			if prev == 0 {
				prev = have.lastEntry
			}
			e.Chat, e.Seq = to, dst.seq+e.Seq
			e.Balance += have.balance
			return t.ledger.Put(entryKey(n), e.encode(prev))
		})
		if err != nil {
			return err
		}
		last := rec.lastEntry
		if exists {
			rec = mergeUsers(have, rec)
		}
		if last != 0 {
			rec.lastEntry = last
		}
		if err := t.putUser(to, u, &rec, have.balance, !exists); err != nil {
			return err
		}
	}
	return nil
}

// moveReveals moves from's revealed decks to to; to's own win a clash.
func (t *txn) moveReveals(from, to int64) error { return moveChatKeys(t.reveals, from, to) }

// moveAwards moves the awards of from's games to to; to's own win a clash
// (a game of the same table and number), as its decks do.
func (t *txn) moveAwards(from, to int64) error { return moveChatKeys(t.awards, from, to) }

// moveChatKeys moves the values of bucket b that chat from owns (their
// keys start with it) to to's keys; to's own values win a clash.
func moveChatKeys(b *bolt.Bucket, from, to int64) error {
	for _, k := range keysWithPrefix(b, chatKey(from)) {
		nk := withChat(k, to)
		if b.Get(nk) != nil {
			if err := b.Delete(k); err != nil {
				return err
			}
			continue
		}
		if err := moveKey(b, k, nk); err != nil {
			return err
		}
	}
	return nil
}

// moveSettings moves from's settings to to, unless to has its own.
func (t *txn) moveSettings(from, to int64) error {
	if t.settings.Get(chatKey(from)) == nil {
		return nil
	}
	if t.settings.Get(chatKey(to)) == nil {
		return moveKey(t.settings, chatKey(from), chatKey(to))
	}
	return t.settings.Delete(chatKey(from))
}

// mergeUsers adds the chips and the record of b (the user in the old
// chat) to a (the same user in the new one); award.Merge merges the
// records.
func mergeUsers(a, b userRec) userRec {
	a.Record = award.Merge(a.Record, b.Record)
	a.balance += b.balance
	a.created = min(a.created, b.created)
	a.lastBonus = max(a.lastBonus, b.lastBonus)
	return a
}
