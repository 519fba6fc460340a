package table

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// The turn's nudge. Edits of the table message notify nobody, so when the
// player to move in a group has not acted after a third of the turn time
// (at least nudgeAfterLeast), the bot sends one short message, in reply to
// the table message, that mentions them (render.Nudge) with the time left.
// It is deleted as soon as the turn passes: any change of the player to
// move or of the turn's deadline (an action, a timeout, a leave, a cancel,
// a kick, the game's end).
//
//   - Its time is one more timer of the table in the scheduler, set by
//     every show of the table and checked when it fires: the same version
//     (so the same turn, and nobody acted), a turn with time left.
//   - It is a Say of the outbox, behind the chat's renders, asked whether
//     it went stale just before it goes: a nudge whose turn passed, or
//     with less than nudgeUseful left, is dropped without a call.
//   - Once sent it is one of the messages its table is to retire, in
//     storage (Store.Retire): it is in the table's View.Retiring, kept there
//     while its turn goes on (nudges.live), and deleted by the table's
//     first render after its turn passed, as an outbox Retire (after the
//     table's render, before any reply). A restart forgets the turns: the
//     first render after it deletes the nudge, and so does a nudge sent
//     after it, before it is sent (the turn, if it goes on, gets a new
//     one).
//   - A chat has at most one at a time, sent or waiting, over all its
//     tables (forum topics): another table's nudge waits for it.
//   - A turn not shown yet (its render waits for Telegram's pacing) is not
//     nudged: the render that shows it starts the turn's clock again, and
//     with it the time of its nudge.
const (
	// nudgeAfterLeast is the least time into a turn before its nudge.
	nudgeAfterLeast = 10 * time.Second
	// nudgeUseful is the least time left in the turn for a nudge to go.
	nudgeUseful = 3 * time.Second
	// nudgeBusyRetry is how soon a nudge that found another one in its
	// chat looks again.
	nudgeBusyRetry = 5 * time.Second
)

// turnID names a turn: whose it is and when it ends.
type turnID struct {
	user game.UserID
	ends int64 // the deadline, Unix milliseconds
}

// turnOf returns the table's turn, if a player is to move against a
// deadline.
func turnOf(t *game.Table) (turnID, bool) {
	i, ok := t.Turn()
	d := t.Deadline()
	if !ok || d.IsZero() || i >= t.NumSeats() {
		return turnID{}, false
	}
	return turnID{user: t.Seat(i).User, ends: d.UnixMilli()}, true
}

// nudgeTime returns when the table's turn is nudged: a third of the turn
// time into it, at least nudgeAfterLeast; zero when that is not before
// the turn ends.
func nudgeTime(t *game.Table) time.Time {
	ends := t.Deadline()
	turn := t.Settings().TurnTimeout
	at := ends.Add(-turn).Add(max(turn/3, nudgeAfterLeast))
	if ends.IsZero() || !at.Before(ends) {
		return time.Time{}
	}
	return at
}

// nudge is a chat's nudge, from its fire until its message is deleted.
type nudge struct {
	key  storage.TableKey
	turn turnID
	// id is the message, once sent; passed is set once its turn passed.
	id     int
	passed bool
}

// nudges holds the nudge of each chat that has one. Its methods are safe
// for concurrent use; none calls out.
type nudges struct {
	mu    sync.Mutex
	chats map[int64]*nudge
}

func newNudges() *nudges { return &nudges{chats: make(map[int64]*nudge)} }

// turnMoved marks the chat's nudge for the table at key passed unless
// turn (ok: the table has one) is still its turn. It reports whether turn
// already has its nudge.
func (n *nudges) turnMoved(key storage.TableKey, turn turnID, ok bool) (nudged bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := n.chats[key.Chat]
	if c == nil || c.key != key {
		return false
	}
	if !ok || c.turn != turn {
		c.passed = true
		return false
	}
	return !c.passed
}

// begin takes the chat's nudge for the turn of the table at key. It
// returns nil and whether the turn has its nudge already, when the chat
// has one.
func (n *nudges) begin(key storage.TableKey, turn turnID) (*nudge, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if c := n.chats[key.Chat]; c != nil {
		return nil, c.key == key && c.turn == turn
	}
	c := &nudge{key: key, turn: turn}
	n.chats[key.Chat] = c
	return c, false
}

// stale reports whether a nudge not sent yet is no longer worth sending:
// given up, its turn passed, or ending within nudgeUseful of now. A stale
// nudge is given up.
func (n *nudges) stale(c *nudge, now time.Time) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.chats[c.key.Chat] == c && !c.passed && now.Before(time.UnixMilli(c.turn.ends).Add(-nudgeUseful)) {
		return false
	}
	n.dropLocked(c)
	return true
}

// sent records the nudge's message.
func (n *nudges) sent(c *nudge, id int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	c.id = id
}

// drop gives the nudge up: its chat may have another.
func (n *nudges) drop(c *nudge) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.dropLocked(c)
}

func (n *nudges) dropLocked(c *nudge) {
	if n.chats[c.key.Chat] == c {
		delete(n.chats, c.key.Chat)
		if len(n.chats) == 0 {
			n.chats = make(map[int64]*nudge) // a Go map keeps its size
		}
	}
}

// live reports whether message id of the table at key is its chat's
// nudge, sent, whose turn goes on: it is not to be retired yet.
func (n *nudges) live(key storage.TableKey, id int) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := n.chats[key.Chat]
	return c != nil && c.key == key && c.id == id && !c.passed
}

// retired forgets the chat's nudge once its message id is deleted.
func (n *nudges) retired(chat int64, id int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if c := n.chats[chat]; c != nil && c.id == id {
		n.dropLocked(c)
	}
}

// forget drops the chat's nudge.
func (n *nudges) forget(chat int64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if c := n.chats[chat]; c != nil {
		n.dropLocked(c)
	}
}

// len returns how many chats have a nudge.
func (n *nudges) len() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.chats)
}

// armNudge arms the nudge of the view's turn, if it is a group's and has
// none yet, and marks a nudge whose turn passed (its table's next render
// deletes it).
func (k *Keeper) armNudge(v storage.View) {
	turn, ok := turnOf(&v.Table)
	nudged := k.nudges.turnMoved(v.Key, turn, ok)
	var at time.Time
	// Groups only: in a private chat (solo play) the player's turn comes a
	// second or two after their own press, the house moving in between,
	// so they are looking. The house needs no nudge, and an inline
	// message's chat can get none: the bot can send nothing there (the
	// table names whose turn it is, and the toasts say it).
	if ok && !nudged && v.Key.Chat < 0 && v.Inline == nil && turn.user != house.ID {
		at = nudgeTime(&v.Table)
	}
	k.timers.setNudge(v.Key, v.Table.Version(), at)
}

// sendNudge queues the nudge of the table's turn, if the table is still at
// version (nobody acted), the turn has time left, and the chat has no
// other nudge (then it looks again later).
func (k *Keeper) sendNudge(ctx context.Context, key storage.TableKey, version uint64) {
	v, err := k.store.View(ctx, key)
	if err != nil {
		k.log.WarnContext(ctx, "reading a table to nudge", "table", key, "err", err)
		return
	}
	turn, ok := turnOf(&v.Table)
	now := k.clock.Now()
	if v.Table.Version() != version || !ok || !now.Before(time.UnixMilli(turn.ends).Add(-nudgeUseful)) {
		return
	}
	if k.msgs.notShown(key, clockOf(&v.Table)) {
		// The turn is not shown yet: the render that shows it starts its
		// clock again, and arms its nudge anew.
		return
	}
	if at := nudgeTime(&v.Table); now.Before(at) {
		// Armed for the turn's clock before the render that showed it
		// late started it again (the two came due together): the nudge
		// is due a third into the turn as shown.
		k.timers.setNudge(key, version, at)
		return
	}
	if retiring(v, v.MessageID) {
		// The table is moving to a new message: nudge in reply to that.
		k.timers.setNudge(key, version, now.Add(nudgeBusyRetry))
		return
	}
	c, nudged := k.nudges.begin(key, turn)
	if c == nil {
		if !nudged {
			k.timers.setNudge(key, version, now.Add(nudgeBusyRetry))
		}
		return
	}
	// What the table is to retire goes first, as a Retire goes before a
	// Say: a nudge that a restart left behind is deleted before this one
	// is sent.
	k.msgs.retire(v)
	i, _ := v.Table.Turn()
	name := v.Table.Seat(i).Name
	if n, ok := v.Names[turn.user]; ok {
		name = n
	}
	l, table, ends := i18n.OfChat(v.Settings.Language), v.MessageID, time.UnixMilli(turn.ends)
	err = k.send.Enqueue(outbox.Op{Chat: key.Chat, Class: outbox.Say, Slot: nudgeOp(key),
		Stale: func() bool { return k.nudges.stale(c, k.clock.Now()) },
		Do: func(ctx context.Context) error {
			m := render.Nudge(int64(turn.user), name, ends, k.clock.Now(), l)
			id, err := k.send.Send(ctx, key.Chat, int(key.Thread), m, table)
			if err != nil {
				// Tried again after a 429 only (the outbox waits it out
				// and asks Stale first); given up after any other error.
				if ra := (*outbox.RetryAfterError)(nil); !errors.As(err, &ra) {
					k.nudges.drop(c)
				}
				return err
			}
			k.nudges.sent(c, id)
			k.keepNudge(ctx, c, id)
			return nil
		}})
	if err != nil {
		k.nudges.drop(c)
	}
}

// keepNudge records the nudge's message as one its table is to retire,
// for the table's renders to delete once its turn passed, after a restart
// too. When that fails it is deleted at once: it has buzzed already.
func (k *Keeper) keepNudge(ctx context.Context, c *nudge, id int) {
	key := c.key
	err := k.store.Retire(ctx, key, id)
	if err == nil {
		return
	}
	k.log.WarnContext(ctx, "recording a nudge", "table", key, "message", id, "err", err)
	k.nudges.drop(c)
	k.send.Enqueue(outbox.Op{Chat: key.Chat, Class: outbox.Retire, Slot: retireOp(key, id), Do: func(ctx context.Context) error {
		err := k.send.Delete(ctx, key.Chat, id)
		if errors.Is(err, botapi.ErrGone) {
			return nil
		}
		return err
	}})
}
