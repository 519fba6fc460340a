package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

func checkUser(chat int64, u User) error {
	if chat == 0 || u.ID == 0 {
		return fmt.Errorf("%w: chat %d, user %d", game.ErrInvalidInput, chat, u.ID)
	}
	return nil
}

// account builds an Account from a record.
func account(chat int64, id game.UserID, rec *userRec) Account {
	return Account{Chat: chat, User: rec.profile(id), Balance: rec.balance, LastBonus: msTime(rec.lastBonus),
		Created: msTime(rec.created), Stats: rec.Stats}
}

// ensured is a user loaded for a write, created if they never appeared.
type ensured struct {
	chat  int64
	crec  chatRec
	known bool // the chat record exists
	rec   userRec
	old   int64
	isNew bool
	dirty bool // the user record must be written
}

// ensure loads the user, creating them with the starting chips (ledgered)
// when they appear for the first time, and refreshes the profile. Nothing
// is written until save.
func (t *txn) ensure(chat int64, p User, now time.Time) (*ensured, error) {
	c, crec, known, err := t.resolve(chat)
	if err != nil {
		return nil, err
	}
	rec, ok, err := t.user(c, p.ID)
	if err != nil {
		return nil, err
	}
	e := &ensured{chat: c, crec: crec, known: known, rec: rec, old: rec.balance}
	if !ok {
		e.rec, e.isNew, e.dirty = t.newUserRec(p, now), true, true
	}
	if e.rec.refresh(p) {
		e.dirty = true
	}
	return e, nil
}

// save writes what ensure and grant changed: the user, the chat and the
// ledger entries of the grants, the starting grant first.
func (t *txn) save(e *ensured, p game.UserID, now time.Time, grants ...LedgerEntry) error {
	if !e.dirty && len(grants) == 0 {
		return nil
	}
	if !e.known {
		e.crec.created = timeMs(now)
	}
	if e.isNew {
		start := t.startingChips(p)
		grants = append([]LedgerEntry{{Kind: LedgerStart, Amount: start, Balance: start}}, grants...)
	}
	for i := range grants {
		g := &grants[i]
		g.Chat, g.User, g.Time = e.chat, p, now
		e.crec.granted += g.Amount
		if err := t.appendLedger(&e.crec, &e.rec, g); err != nil {
			return err
		}
	}
	if err := t.putUser(e.chat, p, &e.rec, e.old, e.isNew); err != nil {
		return err
	}
	return t.putChat(e.chat, &e.crec)
}

// grant adds a grant to the user's balance and returns its ledger entry.
func (e *ensured) grant(kind LedgerKind, amount int64) (LedgerEntry, error) {
	nb, ok := addChips(e.rec.balance, amount)
	if !ok || nb > MaxGrant*1000 {
		return LedgerEntry{}, fmt.Errorf("%w: a grant of %d would overflow the balance %d", game.ErrInvalidInput, amount, e.rec.balance)
	}
	e.rec.balance = nb
	e.dirty = true
	return LedgerEntry{Kind: kind, Amount: amount, Balance: nb}, nil
}

// Account returns the user's account in the chat, creating the user with
// the starting chips on their first appearance and refreshing the profile.
// It writes only when something changed.
func (s *Store) Account(ctx context.Context, chat int64, u User, now time.Time) (Account, error) {
	if err := checkUser(chat, u); err != nil {
		return Account{}, err
	}
	var acc Account
	fresh := false
	err := s.read(ctx, func(t *txn) error {
		c, _, _, err := t.resolve(chat)
		if err != nil {
			return err
		}
		rec, ok, err := t.user(c, u.ID)
		if err != nil || !ok || rec.refresh(u) {
			return err
		}
		acc, fresh = account(c, u.ID, &rec), true
		return nil
	})
	if err != nil || fresh {
		return acc, err
	}
	if now.IsZero() {
		now = time.Now()
	}
	rejected, err := s.write(ctx, func(t *txn) error {
		e, err := t.ensure(chat, u, now)
		if err != nil {
			return reject(err)
		}
		if err := t.save(e, u.ID, now); err != nil {
			return err
		}
		acc = account(e.chat, u.ID, &e.rec)
		return nil
	})
	if err := firstErr(err, rejected); err != nil {
		return Account{}, err
	}
	return acc, nil
}

// ClaimBonus grants the daily bonus: once per bonus interval, and only while
// what the user owns in the chat is below its entry limit: the balance and
// the user's chips on every table of the chat (a banker's bank, a bet),
// read in the same transaction. It returns ErrBonusNotNeeded when they
// reach the limit (with Bonus.Balance and Bonus.OnTables set) and
// ErrBonusTooSoon (with Bonus.Next set) when the last claim is too recent;
// a user appearing for the first time is created all the same.
func (s *Store) ClaimBonus(ctx context.Context, chat int64, u User, now time.Time) (Bonus, error) {
	if err := checkUser(chat, u); err != nil {
		return Bonus{}, err
	}
	if now.IsZero() {
		now = time.Now()
	}
	var b Bonus
	rejected, err := s.write(ctx, func(t *txn) error {
		b = Bonus{}
		e, err := t.ensure(chat, u, now)
		if err != nil {
			return reject(err)
		}
		cs, _, err := t.chatSettings(e.chat)
		if err != nil {
			return reject(err)
		}
		onTables, err := t.chipsOnTables(e.chat, u.ID)
		if err != nil {
			return reject(err)
		}
		last := msTime(e.rec.lastBonus)
		b.Balance, b.OnTables = e.rec.balance, onTables
		if !last.IsZero() {
			b.Next = last.Add(t.s.opts.BonusInterval)
		}
		var refused error
		switch {
		case e.rec.balance+onTables >= cs.Game.EntryLimit:
			refused = fmt.Errorf("%w: balance %d and %d on the tables reach the entry limit %d",
				ErrBonusNotNeeded, e.rec.balance, onTables, cs.Game.EntryLimit)
		case !last.IsZero() && now.Before(b.Next):
			refused = fmt.Errorf("%w: next bonus at %s", ErrBonusTooSoon, b.Next.UTC().Format(time.RFC3339))
		}
		if refused != nil {
			// Refused, the user it created all the same.
			if err := t.save(e, u.ID, now); err != nil {
				return err
			}
			return reject(refused)
		}
		g, err := e.grant(LedgerBonus, t.s.opts.DailyBonus)
		if err != nil {
			return reject(err)
		}
		e.rec.lastBonus = timeMs(now)
		if err := t.save(e, u.ID, now, g); err != nil {
			return err
		}
		b = Bonus{Amount: g.Amount, Balance: e.rec.balance, Next: now.Add(t.s.opts.BonusInterval)}
		return nil
	})
	if err != nil {
		return Bonus{}, err
	}
	return b, rejected
}

// chipsOnTables returns the user's chips on the chat's tables, every forum
// topic's included.
func (t *txn) chipsOnTables(chat int64, u game.UserID) (int64, error) {
	var sum int64
	err := t.eachTable(chat, func(_ TableKey, tb *game.Table, err error) error {
		sum += tb.ChipsOf(u)
		return err
	})
	return sum, err
}

// Grant adds amount (at least 1) to the user's balance as the bot owner's
// grant, ledgered, and returns the new balance. update is the Telegram
// update that asked for it (0: none), stored as the chat's last handled
// one as Apply does: the same update delivered again returns ErrDuplicate
// and grants nothing.
func (s *Store) Grant(ctx context.Context, chat int64, u User, amount, update int64, now time.Time) (int64, error) {
	if err := checkUser(chat, u); err != nil {
		return 0, err
	}
	if amount < 1 || amount > MaxGrant {
		return 0, fmt.Errorf("%w: a grant must be from 1 to %d chips, not %d", game.ErrInvalidInput, int64(MaxGrant), amount)
	}
	if now.IsZero() {
		now = time.Now()
	}
	var balance int64
	rejected, err := s.write(ctx, func(t *txn) error {
		balance = 0
		e, err := t.ensure(chat, u, now)
		if err != nil {
			return reject(err)
		}
		if e.crec.handled(update, now) {
			return reject(duplicate(update, e.chat))
		}
		g, err := e.grant(LedgerOwner, amount)
		if err != nil {
			return reject(err)
		}
		e.crec.markHandled(update, now, nil)
		if err := t.save(e, u.ID, now, g); err != nil {
			return err
		}
		balance = e.rec.balance
		return nil
	})
	return balance, firstErr(err, rejected)
}

// History returns the user's ledger entries in the chat, newest first, at
// most limit of them (all when limit ≤ 0). An unknown user is ErrNotFound.
func (s *Store) History(ctx context.Context, chat int64, user game.UserID, limit int) ([]LedgerEntry, error) {
	var out []LedgerEntry
	err := s.read(ctx, func(t *txn) error {
		c, crec, _, err := t.resolve(chat)
		if err != nil {
			return err
		}
		rec, ok, err := t.user(c, user)
		if err != nil || !ok {
			if err == nil {
				err = fmt.Errorf("%w: user %d in chat %d", ErrNotFound, user, chat)
			}
			return err
		}
		return t.walkLedger(c, user, rec.lastEntry, crec.seq, func(_ uint64, e LedgerEntry, _ uint64) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			out = append(out, e)
			if len(out) == limit {
				return errStop // without reading an entry more
			}
			return nil
		})
	})
	return out, err
}

// Stats returns the user's stats in the chat. An unknown user is
// ErrNotFound.
func (s *Store) Stats(ctx context.Context, chat int64, user game.UserID) (award.Stats, error) {
	rec, err := s.userRecord(ctx, chat, user)
	return rec.Stats, err
}

// Standing returns the user's line of the chat's leaderboard (for the
// house, which /top shows apart). An unknown user is ErrNotFound.
func (s *Store) Standing(ctx context.Context, chat int64, user game.UserID) (Standing, error) {
	rec, err := s.userRecord(ctx, chat, user)
	return Standing{User: user, Name: rec.name, Balance: rec.balance, Net: rec.Stats.Net, Games: rec.Stats.Games}, err
}

// userRecord reads the user's record in the chat. An unknown user is
// ErrNotFound.
func (s *Store) userRecord(ctx context.Context, chat int64, user game.UserID) (userRec, error) {
	var rec userRec
	err := s.read(ctx, func(t *txn) error {
		c, _, _, err := t.resolve(chat)
		if err != nil {
			return err
		}
		var ok bool
		rec, ok, err = t.user(c, user)
		if err == nil && !ok {
			err = fmt.Errorf("%w: user %d in chat %d", ErrNotFound, user, chat)
		}
		return err
	})
	return rec, err
}

// MaxLeaderboard bounds the n of Leaderboard.
const MaxLeaderboard = 1000

// Leaderboard returns the chat's top n users by balance, ties by user id.
// It reads the chat's leaderboard index, n entries of it, never every user.
func (s *Store) Leaderboard(ctx context.Context, chat int64, n int) ([]Standing, error) {
	n = min(n, MaxLeaderboard)
	if n <= 0 {
		return nil, nil
	}
	var out []Standing
	err := s.read(ctx, func(t *txn) error {
		c, _, _, err := t.resolve(chat)
		if err != nil {
			return err
		}
		out = make([]Standing, 0, n)
		prefix := chatKey(c)
		cur := t.rank.Cursor()
		for k, _ := cur.Seek(prefix); k != nil && hasPrefix(k, prefix) && len(out) < n; k, _ = cur.Next() {
			if len(k) != 24 {
				return t.corruptAt(fmt.Sprintf("leaderboard of chat %d", c), fmt.Errorf("key %x", k))
			}
			u := game.UserID(getInt(k[16:]))
			rec, ok, err := t.user(c, u)
			if err != nil {
				return err
			}
			if !ok {
				return t.corruptAt(fmt.Sprintf("leaderboard of chat %d", c), fmt.Errorf("user %d ranked but missing", u))
			}
			out = append(out, Standing{User: u, Name: rec.name, Balance: rec.balance, Net: rec.Stats.Net, Games: rec.Stats.Games})
		}
		return nil
	})
	return out, err
}
