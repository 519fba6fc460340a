package storage

import (
	"fmt"
	"math"
	"slices"

	"github.com/twentyone-bot/twentyone/game"
)

// Apply's writes: what plan decided, in the order of applySteps.

// applyStep is one stage of Apply's writes.
type applyStep struct {
	name  string
	write func(*applying) error
}

// applySteps are Apply's writes, in order: the table and its old message
// when it is to retire, the ledger entries, the users, then the chat with its
// last update, the revealed decks, the game's awards and the settings.
var applySteps = [...]applyStep{
	{"table", (*applying).writeTable},
	{"ledger", (*applying).writeLedger},
	{"users", (*applying).writeUsers},
	{"chat", (*applying).writeChat},
}

// write writes what plan decided, in the store's steps (applySteps). An
// error leaves some of it written: the transaction must roll back.
func (a *applying) write() error {
	for _, st := range a.t.s.steps {
		if err := st.write(a); err != nil {
			return err
		}
	}
	return nil
}

// writeUsers writes the changed user records, in the order of their ids.
func (a *applying) writeUsers() error {
	ids := make([]game.UserID, 0, len(a.changes))
	for u := range a.changes {
		ids = append(ids, u)
	}
	slices.Sort(ids)
	for _, u := range ids {
		c := a.changes[u]
		if err := a.t.putUser(a.key.Chat, u, &c.rec, c.old, c.isNew); err != nil {
			return err
		}
		a.pending[u] = &c.rec
	}
	return nil
}

// writeChat writes the chat record with the update handled, the revealed
// decks, the game's awards and the settings when the command decided the
// chat's language.
func (a *applying) writeChat() error {
	t, key, now := a.t, a.key, a.req.Now
	a.crec.markHandled(a.req.UpdateID, now, answerOf(a.actor.ID, &a.out))
	if err := t.putChat(key.Chat, &a.crec); err != nil {
		return err
	}
	for i, ev := range a.out.Events {
		if ev.Kind != game.EventRevealed {
			continue
		}
		r := Reveal{Time: now, Scheme: game.SchemeSalt, Commitment: ev.Commitment.String(), Preimage: ev.Deck.Preimage()}
		if rec, ok := ev.Record.(*game.CutRecord); ok {
			r = Reveal{Time: now, Scheme: game.SchemeCut, Commitment: ev.Commitment.String(), Record: rec.String(), CutBy: ev.User}
		}
		if err := t.reveals.Put(revealKey(key, a.nt.Game(), a.nt.Version(), i), r.encode()); err != nil {
			return err
		}
	}
	if len(a.awards) > 0 {
		if err := t.addAwards(key, a.nt.Game(), a.awards); err != nil {
			return err
		}
	}
	if a.langDecided {
		srec := a.srec // a copy: &a.srec would move all of a to the heap
		return t.putSettings(key.Chat, &srec)
	}
	return nil
}

// writeTable writes the new table with its hash chain when the command
// took a link of it (or gave one back), its Inline record when it is new,
// and retires its old message when the command replaced the game it
// showed or asked for a repost.
func (a *applying) writeTable() error {
	if err := a.t.putTable(a.key, &a.nt, a.msgID); err != nil {
		return err
	}
	if err := a.seeds.write(); err != nil {
		return err
	}
	if a.newInline {
		if err := a.t.putInline(a.key, a.inline); err != nil {
			return err
		}
	}
	if a.msgID == 0 {
		return nil
	}
	switch {
	case replacesGame(&a.tb, &a.nt, a.out):
		return a.t.addRetiring(a.key, a.msgID, &a.tb)
	case a.req.Repost:
		return a.t.addRetiring(a.key, a.msgID, nil)
	}
	return nil
}

// writeLedger appends the planned ledger entries, numbered in the chat's
// record, which counts the grant of a new actor's starting chips.
func (a *applying) writeLedger() error {
	if !a.known {
		a.crec.created = timeMs(a.req.Now)
	}
	a.crec.granted += a.granted
	for i := range a.entries {
		e := &a.entries[i]
		e.Chat, e.Thread, e.Time, e.Update = a.key.Chat, a.key.Thread, a.req.Now, a.req.UpdateID
		// Every entry's user is among the changes: their record, written
		// after, points at their last entry.
		c := a.changes[e.User]
		if c == nil {
			return fmt.Errorf("%w: a ledger entry of user %d, whose record is not written", ErrInternal, e.User)
		}
		if err := a.t.appendLedger(&a.crec, &c.rec, e); err != nil {
			return err
		}
	}
	return nil
}

// replacesGame reports whether a command replaced the finished game a
// table showed with another table: it started the next game, or opened a
// table over the closed one.
func replacesGame(before, after *game.Table, out game.Outcome) bool {
	if !before.Finished() {
		return false
	}
	if before.Phase() == game.Closed && after.Phase() != game.Closed {
		return true
	}
	for _, e := range out.Events {
		if e.Kind == game.EventStarted {
			return true
		}
	}
	return false
}

// addChips returns a+b and whether it did not overflow.
func addChips(a, b int64) (int64, bool) {
	if b > 0 && a > math.MaxInt64-b || b < 0 && a < math.MinInt64-b {
		return 0, false
	}
	return a + b, true
}
