package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
	"github.com/twentyone-bot/twentyone/game/house"
)

// ApplyRequest is one command for one table.
type ApplyRequest struct {
	Key TableKey
	// UpdateID is the Telegram update the command comes from; 0 for
	// commands fired by a timer. It is stored as the chat's last handled
	// update in the same transaction; a request for an update the chat
	// handled already, within RedeliveryWindow of its last, returns
	// ErrDuplicate and changes nothing. A command the game rejects
	// leaves its update unhandled: delivered again, it runs again, on the
	// table as it is then.
	UpdateID int64
	// User is who acts: zero for Timeout. A user appearing in the chat for
	// the first time is created with the starting chips; the profile is
	// refreshed.
	User User
	// Command is the command. Its User and Name default to User's.
	Command game.Command
	// Language is the language the chat gets when the command opens a
	// table and the chat has none yet (ChatSettings.Language ""), as the
	// caller decided it; storage keeps it as given. It must be "" or a
	// language tag (see ChatSettings.Language); "" leaves the chat
	// without one.
	Language string
	// Now is the time of the command; the zero time means time.Now().
	Now time.Time
	// Repost asks, when the command applies, for the table's next render
	// in a new message at the bottom of the chat (a /newgame typed there):
	// the table's current message is then to retire, in the same
	// transaction (see View.Retiring). Apply retires it without being asked
	// when the command replaced the finished game the message showed (it
	// started the next game, or opened a table over the closed one): the
	// message then becomes that game's record, else it is deleted.
	Repost bool
	// Inline, when set, makes the table one on an inline message: the
	// request that opens the table of an inline message (game.Open)
	// carries it. When the table has no Inline record yet, the request's
	// command (and Then) plays by Inline.Settings, and the record is
	// written in the same transaction when the command applies; a
	// rejected command writes none. Once the table has its record, every
	// command on it plays by the stored one: a later request need not
	// carry it, and one that carries another changes nothing (the View
	// reports the stored one). Only a table of a chat of inline messages
	// (InlineChat) can have one. An Inline with an empty or too long
	// message id (MaxInlineMessageID) or invalid settings, one for a
	// table of another chat, and one for a table opened before without a
	// record, are game.ErrInvalidInput and change nothing.
	Inline *Inline
	// Then, when set, is a second command applied in the same transaction
	// right after Command, by Then.User, who is created like User on
	// their first appearance: solo play's Open is followed by the house's
	// Join. A Then the game rejects leaves Command applied alone, and
	// Applied.ThenErr says why.
	Then *Chained
}

// Chained is the second command of an ApplyRequest. Its Command's User
// and Name default to User's; its Version is not checked.
type Chained struct {
	User    User
	Command game.Command
}

// Apply applies a command to a table, in one write transaction: it loads
// the chat, the table and the balances the command needs, runs game.Apply,
// then writes the new table, every changed balance, one ledger entry per
// transfer, the stats and achievements the events imply (the awards of
// the game with them, see View.Awards), the revealed decks, the table's
// old message when it is to retire (see ApplyRequest.Repost) and the update id.
// If anything fails, nothing is written.
//
// A command the game rejects returns an error wrapping the game's error
// (errors.Is(err, game.ErrNotYourTurn) and the like) together with the
// table's current View, and writes nothing. So does ErrDuplicate; when the
// update is the chat's last handled one (the one a crash may have left
// unanswered: a chat's updates are handled one at a time), Outcome then
// holds what the command did to its user the first time: the events about
// them, without decks and transfers, enough to answer it the same. (A user
// appearing for the first time shows in that View with the starting chips
// they would get, though nothing was written.) When the
// chat's language is not decided yet, a successful Open sets it to the
// request's Language.
func (s *Store) Apply(ctx context.Context, req ApplyRequest) (Applied, error) {
	if err := req.normalize(); err != nil {
		return Applied{}, err
	}
	// Set afresh by each run of the write, in place: an Applied is big.
	var res Applied
	rejected, err := s.write(ctx, func(t *txn) error { return t.apply(req, &res) })
	if err != nil {
		return Applied{}, err
	}
	return res, rejected
}

// normalize fills the command's user from the request's and checks that
// they agree.
func (r *ApplyRequest) normalize() error {
	if r.Key.Chat == 0 {
		return fmt.Errorf("%w: chat 0", game.ErrInvalidInput)
	}
	if r.UpdateID < 0 {
		return fmt.Errorf("%w: update id %d", game.ErrInvalidInput, r.UpdateID)
	}
	if r.Language != "" && !game.LanguageCode(r.Language) {
		return fmt.Errorf("%w: language %q", game.ErrInvalidInput, r.Language)
	}
	if r.Inline != nil {
		if err := r.Inline.validate(); err != nil {
			return fmt.Errorf("%w: %w", game.ErrInvalidInput, err)
		}
	}
	if r.Now.IsZero() {
		r.Now = time.Now()
	}
	c := &r.Command
	if c.Kind == game.Timeout {
		r.User = User{}
		c.User = 0
		return nil
	}
	switch {
	case c.User == 0:
		c.User = r.User.ID
	case r.User.ID == 0:
		r.User.ID = c.User
	case c.User != r.User.ID:
		return fmt.Errorf("%w: command by user %d in a request of user %d", game.ErrInvalidInput, c.User, r.User.ID)
	}
	if c.Name == "" {
		c.Name = r.User.Name
	}
	return r.normalizeThen()
}

// normalizeThen fills the chained command's user from its own and checks
// that they agree.
func (r *ApplyRequest) normalizeThen() error {
	f := r.Then
	if f == nil {
		return nil
	}
	c := &f.Command
	if c.User == 0 {
		c.User = f.User.ID
	}
	switch {
	case f.User.ID == 0 || c.User != f.User.ID:
		return fmt.Errorf("%w: a chained command by user %d in a request of user %d", game.ErrInvalidInput, c.User, f.User.ID)
	case c.Kind == game.Timeout:
		return fmt.Errorf("%w: a timeout as a chained command", game.ErrInvalidInput)
	}
	if c.Name == "" {
		c.Name = f.User.Name
	}
	c.Version = 0
	return nil
}

// change is a user record being changed by a write.
type change struct {
	rec   userRec
	old   int64 // balance before, for the leaderboard index
	isNew bool
}

// apply does the work of Apply inside a transaction, setting res afresh
// (in place: an Applied is big), in three steps: load what the command
// needs, plan what it changes, write it. It rejects the command when it
// changes nothing (a game rejection, a duplicate, a damaged value): the
// loading and planning write nothing. An error from the writing is a
// failure: the transaction must roll back.
func (t *txn) apply(req ApplyRequest, res *Applied) error {
	*res = Applied{}
	var a applying // on the stack: it holds two tables
	if err := t.loadApply(req, &a); err != nil {
		return reject(err)
	}
	if err := a.plan(res); err != nil {
		return reject(err)
	}
	if err := a.write(); err != nil {
		return err
	}
	extra := []game.UserID{a.actor.ID}
	if req.Then != nil {
		extra = append(extra, req.Then.User.ID)
	}
	for _, tr := range a.out.Transfers {
		extra = append(extra, tr.User)
	}
	if err := t.view(&res.View, a.key, &a.nt, a.cs, a.msgID, a.pending, extra...); err != nil {
		return err
	}
	res.Outcome, res.ThenErr = a.out, a.thenErr
	return nil
}

// applying is a command being applied: what it loaded, then what it plans
// to write.
type applying struct {
	t     *txn
	req   ApplyRequest
	actor User

	// Loaded.
	key     TableKey // in the chat that holds the data now
	crec    chatRec
	known   bool // the chat record exists
	cs      ChatSettings
	srec    settingsRec
	tb      game.Table
	msgID   int
	changes map[game.UserID]*change  // the user records to write
	pending map[game.UserID]*userRec // the actor's record, before it is written
	// inline is the table's Inline record, or a copy of the request's
	// when the table has none yet (newInline: it is written with the
	// table); nil for a table of another kind. The command plays by its
	// settings instead of cs.Game.
	inline    *Inline
	newInline bool
	// seeds is the table's hash chain, the links its decks take.
	seeds chainSource

	// Planned.
	nt          game.Table
	out         game.Outcome
	thenErr     error // why Then was rejected
	entries     []LedgerEntry
	granted     int64 // the starting chips of the users new to the chat
	awards      []award.Award
	langDecided bool
}

// loadApply reads what the command needs: the chat, its settings, the
// table and the actor, created with the starting chips on their first
// appearance, into a.
func (t *txn) loadApply(req ApplyRequest, a *applying) error {
	chat, crec, known, err := t.resolve(req.Key.Chat)
	if err != nil {
		return err
	}
	*a = applying{t: t, req: req, actor: req.User,
		key: TableKey{Chat: chat, Thread: req.Key.Thread}, crec: crec, known: known,
		changes: map[game.UserID]*change{}, pending: map[game.UserID]*userRec{}}
	a.seeds = chainSource{t: t, key: a.key, length: t.s.chainLength}
	if a.cs, a.srec, err = t.chatSettings(chat); err != nil {
		return err
	}
	var found bool
	if a.tb, a.msgID, found, err = t.table(a.key); err != nil {
		return err
	}
	if err := a.loadInline(found); err != nil {
		return err
	}
	if a.actor.ID != 0 {
		if err := a.load(a.actor); err != nil {
			return err
		}
	}
	if req.Then != nil && req.Then.User.ID != a.actor.ID {
		return a.load(req.Then.User)
	}
	return nil
}

// loadInline reads the table's Inline record into a.inline, or takes the
// request's when the table has none, belongs to a chat of inline messages
// and was never opened (found: it was).
func (a *applying) loadInline(found bool) error {
	in, err := a.t.inlineOf(a.key)
	if err != nil || in != nil || a.req.Inline == nil {
		a.inline = in
		return err
	}
	switch {
	case !InlineChat(a.key.Chat):
		return fmt.Errorf("%w: chat %d is no chat of inline messages", game.ErrInvalidInput, a.key.Chat)
	case found:
		return fmt.Errorf("%w: the table at %v was opened without an inline message", game.ErrInvalidInput, a.key)
	}
	c := *a.req.Inline // each run of the write has its own
	c.Settings = c.Settings.Clone()
	a.inline, a.newInline = &c, true
	return nil
}

// load reads the record of a user who acts, created with their starting
// chips on their first appearance, into the pending records, and into the
// changes when it is new or its profile changed.
func (a *applying) load(u User) error {
	rec, ok, err := a.t.user(a.key.Chat, u.ID)
	if err != nil {
		return err
	}
	c := &change{rec: rec, old: rec.balance}
	if !ok {
		c.rec, c.isNew = a.t.newUserRec(u, a.req.Now), true
	}
	if c.rec.refresh(u) || c.isNew {
		a.changes[u.ID] = c
	}
	a.pending[u.ID] = &c.rec
	return nil
}

// plan runs the command and works out what it changes: the ledger
// entries, the balances, the stats and the achievements, and the chat's
// language when the command decides it. It writes nothing. On a duplicate
// or a rejection it sets res to the table's current View (and, for the
// chat's last update, to what the command did the first time) and returns
// why.
func (a *applying) plan(res *Applied) error {
	t, req, chat := a.t, &a.req, a.key.Chat
	if a.crec.handled(req.UpdateID, req.Now) {
		if err := t.view(&res.View, a.key, &a.tb, a.cs, a.msgID, a.pending, a.actor.ID); err != nil {
			return err
		}
		if req.UpdateID == a.crec.lastUpdate {
			res.Outcome.Events = a.crec.answer
		}
		return duplicate(req.UpdateID, chat)
	}
	bal := &balances{t: t, chat: chat, pending: a.pending}
	env := game.Env{Now: req.Now, Rand: t.s.opts.Rand, Settings: a.cs.Game, Balances: bal,
		CutWait: t.s.opts.CutWait, Seeds: &a.seeds, Deriver: t.s.opts.Deriver, House: house.ID}
	if a.inline != nil {
		env.Settings = a.inline.Settings
	}
	var gerr error
	a.nt, a.out, gerr = t.s.rules(a.tb, req.Command, env)
	if bal.err != nil {
		return bal.err
	}
	if gerr != nil {
		if err := t.view(&res.View, a.key, &a.tb, a.cs, a.msgID, a.pending, a.actor.ID); err != nil {
			return err
		}
		return fmt.Errorf("%s: %w", req.Command.Kind, gerr)
	}
	if req.Then != nil {
		a.planThen(env)
	}
	if err := a.planChips(); err != nil {
		return err
	}
	if err := a.planAwards(); err != nil {
		return err
	}
	if req.Command.Kind == game.Open && a.cs.Language == "" && req.Language != "" {
		a.cs.Language = req.Language
		a.srec.Language = a.cs.Language
		a.langDecided = true
	}
	return nil
}

// planThen applies the request's chained command to the table the first
// one left, on the balances it left, adding what it caused to the
// outcome; a rejection leaves both as they were, its user unwritten
// unless they act in the first command too, and is kept in a.thenErr.
func (a *applying) planThen(env game.Env) {
	f := a.req.Then
	env.Balances = afterTransfers{env.Balances, a.out.Transfers}
	seeds := a.seeds
	nt, out, err := a.t.s.rules(a.nt, f.Command, env)
	if err != nil {
		a.seeds = seeds // the links it took go back
		a.thenErr = fmt.Errorf("%s: %w", f.Command.Kind, err)
		if f.User.ID != a.actor.ID {
			delete(a.changes, f.User.ID)
		}
		return
	}
	a.nt = nt
	a.out.Events = append(a.out.Events, out.Events...)
	a.out.Transfers = append(a.out.Transfers, out.Transfers...)
}

// afterTransfers is game.Balances after transfers.
type afterTransfers struct {
	game.Balances
	transfers []game.Transfer
}

// Balance implements game.Balances.
func (b afterTransfers) Balance(u game.UserID) int64 {
	v := b.Balances.Balance(u)
	for _, tr := range b.transfers {
		if tr.User == u {
			v += tr.Amount
		}
	}
	return v
}

// planChips turns the outcome's transfers into ledger entries and new
// balances, after the new actor's starting chips, and checks that the
// chips the balances gain are those the table loses.
func (a *applying) planChips() error {
	chat := a.key.Chat
	users := []game.UserID{a.actor.ID}
	if a.req.Then != nil && a.req.Then.User.ID != a.actor.ID {
		users = append(users, a.req.Then.User.ID)
	}
	for _, u := range users {
		if c := a.changes[u]; c != nil && c.isNew {
			a.granted += c.rec.balance
			a.entries = append(a.entries, LedgerEntry{User: u, Kind: LedgerStart, Amount: c.rec.balance, Balance: c.rec.balance})
		}
	}
	for _, tr := range a.out.Transfers {
		kind, ok := ledgerKindOf(tr.Kind)
		if !ok {
			return fmt.Errorf("%w: transfer of unknown kind %d", ErrInternal, tr.Kind)
		}
		c, err := a.change(tr.User)
		if err != nil {
			return err
		}
		nb, ok := addChips(c.rec.balance, tr.Amount)
		if !ok || nb < 0 {
			return fmt.Errorf("%w: %s of %d would make the balance of user %d in chat %d %d",
				ErrInternal, kind, tr.Amount, tr.User, chat, c.rec.balance+tr.Amount)
		}
		c.rec.balance = nb
		a.entries = append(a.entries, LedgerEntry{User: tr.User, Kind: kind, Amount: tr.Amount, Balance: nb, Game: a.nt.Game()})
	}
	if d := a.out.Delta(); d != a.tb.Chips()-a.nt.Chips() {
		return fmt.Errorf("%w: balances change by %d but the table's chips by %d", ErrInternal, d, a.nt.Chips()-a.tb.Chips())
	}
	return nil
}

// planAwards counts the command's stats and achievements into the users'
// records (award.Count), after planChips: each user it reads shows their
// balance after the transfers.
func (a *applying) planAwards() error {
	rules := award.Rules{StartingChips: a.t.s.opts.StartingChips, NoAchievements: a.t.s.opts.NoAchievements}
	players, awards, err := award.Count(&a.tb, &a.nt, a.out, rules, a.player)
	if err != nil {
		return err
	}
	for _, p := range players {
		a.changes[p.User].rec.Record = p.Record
	}
	a.awards = awards
	return nil
}

// player returns user u's record as award.Count reads it, loading it into
// the changes (see change).
func (a *applying) player(u game.UserID) (award.Player, error) {
	c, err := a.change(u)
	if err != nil {
		return award.Player{}, err
	}
	return award.Player{User: u, Balance: c.rec.balance, Record: c.rec.Record}, nil
}

// change returns the record of user u to change, loading it the first
// time. A user who never appeared in the chat is an internal error: only
// the actor is created.
func (a *applying) change(u game.UserID) (*change, error) {
	if c, ok := a.changes[u]; ok {
		return c, nil
	}
	if u == a.actor.ID && a.actor.ID != 0 {
		c := &change{rec: *a.pending[u], old: a.pending[u].balance}
		a.changes[u] = c
		return c, nil
	}
	rec, ok, err := a.t.user(a.key.Chat, u)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: chips of user %d moved in chat %d, where they never appeared", ErrInternal, u, a.key.Chat)
	}
	c := &change{rec: rec, old: rec.balance}
	a.changes[u] = c
	return c, nil
}

// CancelAll cancels every open table of the chat, refunding the bets and
// returning the banks, in one transaction: for when the bot is removed from
// the chat. The old messages to retire there are dropped: the bot can no longer
// change them. An unknown chat has nothing to cancel.
func (s *Store) CancelAll(ctx context.Context, chat int64, now time.Time) ([]Applied, error) {
	if now.IsZero() {
		now = time.Now()
	}
	var res []Applied
	rejected, err := s.write(ctx, func(t *txn) error {
		res = nil
		c, _, ok, err := t.resolve(chat)
		if err != nil || !ok {
			return reject(err)
		}
		if err := t.dropRetiring(c); err != nil {
			return err
		}
		return t.eachTable(c, func(key TableKey, tb *game.Table, err error) error {
			if err != nil || tb.Phase() == game.Closed {
				return err
			}
			var a Applied
			if err := t.apply(ApplyRequest{Key: key, Command: game.Command{Kind: game.Cancel}, Now: now}, &a); err != nil {
				return failure(err) // one transaction: all tables or none
			}
			res = append(res, a)
			return nil
		})
	})
	if err := firstErr(err, rejected); err != nil {
		return nil, err
	}
	return res, nil
}
