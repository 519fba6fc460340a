package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/pace"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// Store is what the tables need of storage.
type Store interface {
	View(ctx context.Context, key storage.TableKey) (storage.View, error)
	Apply(ctx context.Context, req storage.ApplyRequest) (storage.Applied, error)
	ChatTables(ctx context.Context, chat int64) ([]storage.TableKey, error)
	Timers(ctx context.Context) ([]storage.Timer, error)
	SetMessage(ctx context.Context, key storage.TableKey, messageID int) error
	ShowTurn(ctx context.Context, key storage.TableKey, version uint64, now time.Time, late time.Duration) (storage.View, error)
	Retire(ctx context.Context, key storage.TableKey, messageID int) error
	Retired(ctx context.Context, key storage.TableKey, messageID int) error
	Retiring(ctx context.Context) ([]storage.TableKey, error)
	TableReveals(ctx context.Context, key storage.TableKey, game uint64) ([]storage.Reveal, error)
}

// Host is what the tables ask of the bot above them: the one thing they
// need of it. They tell it nothing: who wants to hear of a table's new
// message asks for it when the table opens (Open).
type Host interface {
	// OnChat runs fn on the chat's goroutine, after what is queued there,
	// as work of kind (a timer's: "timeout", "nudge", "house", ...).
	OnChat(chat int64, kind string, fn func(ctx context.Context))
}

// Keeper keeps each table's message showing the table, and its timers
// running: the deadline of its turn or lobby, its turn's nudge, the
// house's move. Show, Open, Refresh, RefreshChat, UnseatHouse and Restore
// must run on the table's chat's goroutine (Host.OnChat), as the commands
// do: a view shown elsewhere could re-arm a deadline a newer command
// replaced.
// Its methods are safe for concurrent use.
type Keeper struct {
	store  Store
	send   *send.Sender
	clock  clock.Clock
	log    *slog.Logger
	host   Host
	views  Viewers
	timers *scheduler
	msgs   *messages
	nudges *nudges
	app    App // set once, before any render (SetApp)
}

// New returns a Keeper of the tables in store, shown through s, telling
// viewers of each version shown (nil: nobody).
func New(store Store, s *send.Sender, c clock.Clock, log *slog.Logger, host Host, viewers Viewers) *Keeper {
	if viewers == nil {
		viewers = noViewers{}
	}
	k := &Keeper{store: store, send: s, clock: c, log: log, host: host, views: viewers, nudges: newNudges()}
	k.msgs = newMessages(k)
	k.timers = newScheduler(c, k.fire("timeout", k.timeout), k.fire("nudge", k.sendNudge), k.fire("house", k.houseMove))
	return k
}

// fire returns what the scheduler calls for a timer of kind come due: act
// on the table's chat's goroutine.
func (k *Keeper) fire(kind string, act func(context.Context, storage.TableKey, uint64)) func(storage.TableKey, uint64) {
	return func(key storage.TableKey, version uint64) {
		k.host.OnChat(key.Chat, kind, func(ctx context.Context) { act(ctx, key, version) })
	}
}

// Show arms the table's timers for the view, tells the viewers of its
// version (Viewers.Changed) and shows the table in its message: the
// render reads the table when its turn to be sent comes.
func (k *Keeper) Show(v storage.View) {
	k.arm(v)
	k.views.Changed(v.Key, v.Table.Version())
	k.msgs.show(v)
}

// arm arms the table's timers for the view: its deadline, its turn's
// nudge and the house's move, all from the start of the turn's clock.
func (k *Keeper) arm(v storage.View) {
	k.timers.set(v.Key, v.Table.Version(), v.Table.Deadline())
	k.timers.setHouse(v.Key, v.Table.Version(), house.MoveAt(&v.Table))
	k.armNudge(v)
}

// Reshow shows the table again as Show does, its message edited even to
// what this process last showed in it: a press told that the message is
// inaccessible (deleted, or too old for Telegram to give), and only an
// edit tells which (a deleted one is sent anew).
func (k *Keeper) Reshow(v storage.View) {
	k.msgs.doubt(v.Key)
	k.Show(v)
}

// Refresh shows the table at key again, if it is open.
func (k *Keeper) Refresh(ctx context.Context, key storage.TableKey) {
	v, err := k.store.View(ctx, key)
	if err != nil {
		k.log.WarnContext(ctx, "loading a table", "table", key, "err", err)
		return
	}
	if v.Table.Phase() != game.Closed {
		k.Show(v)
	}
}

// RefreshChat shows every open table of a chat (one per forum topic)
// again: after a change of the chat's settings or language.
func (k *Keeper) RefreshChat(ctx context.Context, chat int64) {
	k.EachTable(ctx, chat, func(v storage.View) {
		if v.Table.Phase() != game.Closed {
			k.Show(v)
		}
	})
}

// EachTable calls fn with the view of each of the chat's tables (one per
// forum topic); what it cannot read is logged and left out.
func (k *Keeper) EachTable(ctx context.Context, chat int64, fn func(storage.View)) {
	keys, err := k.store.ChatTables(ctx, chat)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			k.log.WarnContext(ctx, "listing a chat's tables", "chat", chat, "err", err)
		}
		return
	}
	for _, key := range keys {
		v, err := k.store.View(ctx, key)
		if err != nil {
			k.log.WarnContext(ctx, "loading a table", "table", key, "err", err)
			continue
		}
		fn(v)
	}
}

// Gone tells the viewers of a table closed where no message can show it
// (the bot was removed from its chat, or blocked), v as the close left
// it; Forget the chat then. Run it on the chat's goroutine.
func (k *Keeper) Gone(v storage.View) { k.views.Changed(v.Key, v.Table.Version()) }

// Forget drops what the keeper remembers of a chat's tables and disarms
// their timers: the bot can no longer write there, or the chat moved.
func (k *Keeper) Forget(chat int64) {
	for _, key := range k.msgs.forget(chat) {
		k.timers.clear(key)
	}
	k.nudges.forget(chat)
}

// Moved forgets the tables of the group from, which became the supergroup
// to (Forget), and tells the viewers (Viewers.Moved). Run it on from's
// goroutine, once the store moved the chat.
func (k *Keeper) Moved(from, to int64) {
	k.Forget(from)
	k.views.Moved(from, to)
}

// Start arms the stored deadlines (and the house's pending moves), with
// none firing before grace has passed or Release is called, and returns
// the tables to Restore: every open one (a render may have been lost in a
// crash) and every one that has an old message to retire (its render
// retires it). earlier is what the start knows of the calls before it.
func (k *Keeper) Start(ctx context.Context, earlier pace.Earlier, grace time.Duration) ([]storage.TableKey, error) {
	k.msgs.setEarlier(earlier) // before any render: the restore's are the first
	timers, err := k.store.Timers(ctx)
	if err != nil {
		return nil, fmt.Errorf("table: loading deadlines: %w", err)
	}
	k.timers.holdUntil(k.clock.Now().Add(grace))
	keys := make([]storage.TableKey, len(timers))
	listed := make(map[storage.TableKey]bool, len(timers))
	for i, t := range timers {
		k.timers.set(t.Key, t.Version, t.Deadline)
		k.timers.setHouse(t.Key, t.Version, t.HouseAt)
		keys[i], listed[t.Key] = t.Key, true
	}
	retiring, err := k.store.Retiring(ctx)
	if err != nil {
		return nil, fmt.Errorf("table: loading the old messages to retire: %w", err)
	}
	for _, key := range retiring {
		if !listed[key] {
			keys = append(keys, key)
		}
	}
	return keys, nil
}

// Started reports whether Start ran.
func (k *Keeper) Started() bool { return k.msgs.started() }

// Restore shows a table Start returned again, unless its message shows
// the stored table already (pace.Earlier.Current): then only its timers
// are armed and the old messages it is to retire retired. The house
// setting may have been turned off just before a crash, with the house
// still seated: it stands up.
func (k *Keeper) Restore(ctx context.Context, key storage.TableKey) {
	v, err := k.store.View(ctx, key)
	if err != nil {
		k.log.WarnContext(ctx, "re-rendering a table", "table", key, "err", err)
		return
	}
	v, _ = k.houseStandsUp(ctx, v)
	if !k.msgs.current(key, v.Table.Version()) || retiring(v, v.MessageID) {
		k.Show(v)
		return
	}
	k.arm(v)
	k.msgs.retire(v)
}

// TakeShown returns the version each table message was rendered to since
// the last call (0: the table closed): for pace.Keeper to save.
func (k *Keeper) TakeShown() map[storage.TableKey]uint64 { return k.msgs.takeDrawn() }

// Release ends the hold Start put on the deadlines: those it held fire
// now.
func (k *Keeper) Release() { k.timers.release() }

// Stop disarms every timer and arms no more.
func (k *Keeper) Stop() { k.timers.stop() }

// inlineGone closes the table at key, on its chat's goroutine, and gives
// back every chip on it (a cancel): its inline message is gone, so nobody
// can see or press it any more.
func (k *Keeper) inlineGone(key storage.TableKey) {
	k.host.OnChat(key.Chat, "inline gone", func(ctx context.Context) {
		res, err := k.store.Apply(ctx, storage.ApplyRequest{Key: key, Command: game.Command{Kind: game.Cancel}, Now: k.clock.Now()})
		switch {
		case err == nil:
			k.log.InfoContext(ctx, "an inline message was deleted: its table closed, its chips given back", "table", key)
			k.arm(res.View) // a closed table: its timers go
			k.views.Changed(key, res.Table.Version())
		case errors.Is(err, game.ErrNoTable):
			// Closed already: nothing on it.
		default:
			fault.Log(ctx, k.log, "close a table whose inline message is gone", key, err)
		}
		k.msgs.forgetTable(key)
		k.nudges.forget(key.Chat)
	})
}

// retryAfterFailure is how long after a timeout or a move of the house
// failed in storage it is tried again.
const retryAfterFailure = time.Minute

// timeout applies a table's timeout for the version it was set for; but
// while a render that is to show the table's turn for the first time waits
// (see messages), it waits for that render, which re-arms the timeout
// once it decided the turn's clock (started again if late), and looks
// again after notShownRecheck meanwhile.
func (k *Keeper) timeout(ctx context.Context, key storage.TableKey, version uint64) {
	if k.turnNotShown(ctx, key, version) {
		k.timers.set(key, version, k.clock.Now().Add(notShownRecheck))
		return
	}
	res, err := k.store.Apply(ctx, storage.ApplyRequest{
		Key: key, Command: game.Command{Kind: game.Timeout, Version: version}, Now: k.clock.Now(),
	})
	switch {
	case err == nil:
		k.Show(res.View)
	case errors.Is(err, game.ErrTooEarly):
		// The clock fired early: arm the timer again for the stored deadline.
		k.timers.set(key, res.Table.Version(), res.Table.Deadline())
	case errors.Is(err, game.ErrOutdated), errors.Is(err, game.ErrNoTable):
		// The table moved on; its new deadline has its own timer.
	default:
		// A storage failure: try again later rather than leave the table
		// waiting for a timeout that never comes. A table that moved on
		// meanwhile answers ErrOutdated.
		fault.Log(ctx, k.log, "timeout", key, err)
		k.timers.set(key, version, k.clock.Now().Add(retryAfterFailure))
	}
}
