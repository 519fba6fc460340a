package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// Options configure a Store. The zero value of each field means its
// default.
type Options struct {
	// LockTimeout is how long Open waits for another process to release the
	// file before it returns ErrInUse; default 1s.
	LockTimeout time.Duration
	// StartingChips are granted on a user's first appearance in a chat;
	// default DefaultStartingChips, at most MaxGrant.
	StartingChips int64
	// DailyBonus is what ClaimBonus grants; default DefaultDailyBonus, at
	// most MaxGrant.
	DailyBonus int64
	// HouseChips are granted to the house (house.ID) on its first
	// appearance in a chat, instead of StartingChips; default
	// DefaultHouseChips, at most MaxGrant.
	HouseChips int64
	// BonusInterval is how often the bonus may be claimed; default 24h.
	BonusInterval time.Duration
	// Defaults are the settings of a chat nobody configured. A zero Game
	// means game.DefaultSettings(); Language "" means: decided at the
	// chat's first Open (ApplyRequest.Language).
	Defaults ChatSettings
	// Rand picks the first bankers, shuffles the decks of
	// game.SchemeSalt and draws the secrets of the tables' hash chains;
	// default game.CryptoRand(). Store calls it from one goroutine at a
	// time, so a Rand that is not safe for concurrent use
	// (gametest.Stacked) will do.
	Rand game.Rand
	// CutWait is how long a new deck waits for a player's cut
	// (game.Env.CutWait): every deck is then of game.SchemeCut, its seed
	// the next link of its table's hash chain. 0, the default, asks for
	// no cut: decks are of game.SchemeSalt, as before the cut. The bot
	// passes game.DefaultCutWait once it shows the cut.
	CutWait time.Duration
	// Deriver orders the decks of game.SchemeCut; default the rules'
	// derivation (game.DeriveOrder). Tests stack decks with
	// gametest.Stacked.
	Deriver game.Deriver
	// NoSync skips fsync: for tests and for tools that prepare a file,
	// never for the bot players use; a crash may then lose or damage
	// the file.
	NoSync bool
	// NoAchievements reports the users who earn no achievements; default:
	// the house (house.ID, the bot seated as a player), whom nobody
	// congratulates. It must be a pure function of the user.
	NoAchievements func(game.UserID) bool
	// OnCommit, if set, is told how long each write transaction took to
	// commit (fsync included) and how many writes it carried. It runs on
	// the commit loop: it must be quick.
	OnCommit func(d time.Duration, writes int)
}

// withDefaults returns the options with every zero field set to its
// default.
func (o Options) withDefaults() (Options, error) {
	if o.LockTimeout <= 0 {
		o.LockTimeout = time.Second
	}
	if o.StartingChips <= 0 {
		o.StartingChips = DefaultStartingChips
	}
	if o.DailyBonus <= 0 {
		o.DailyBonus = DefaultDailyBonus
	}
	if o.HouseChips <= 0 {
		o.HouseChips = DefaultHouseChips
	}
	if o.NoAchievements == nil {
		o.NoAchievements = func(u game.UserID) bool { return u == house.ID }
	}
	if o.BonusInterval <= 0 {
		o.BonusInterval = 24 * time.Hour
	}
	if o.StartingChips > MaxGrant || o.DailyBonus > MaxGrant || o.HouseChips > MaxGrant {
		return o, fmt.Errorf("%w: starting chips, daily bonus and house chips must be at most %d", game.ErrInvalidInput, int64(MaxGrant))
	}
	if o.Defaults.Game.Equal(game.Settings{}) {
		o.Defaults.Game = game.DefaultSettings()
	}
	o.Defaults.Game = o.Defaults.Game.Clone()
	if err := validSettings(o.Defaults); err != nil {
		return o, fmt.Errorf("default settings: %w", err)
	}
	if o.Rand == nil {
		o.Rand = game.CryptoRand()
	}
	if o.CutWait < 0 {
		return o, fmt.Errorf("%w: a cut wait of %s", game.ErrInvalidInput, o.CutWait)
	}
	return o, nil
}

// The chips a user gets on their first appearance in a chat, the daily
// bonus, and the house's chips, unless Options say otherwise.
const (
	DefaultStartingChips = 1000
	DefaultDailyBonus    = 100
	DefaultHouseChips    = 10_000
)

// MaxGrant bounds a single grant (an owner's, the starting chips, the daily
// bonus), so that balances cannot overflow.
const MaxGrant = game.MaxStake * game.MaxStakeTimes

// maxBatch bounds how many writes share one transaction.
const maxBatch = 256

// gatherQuiet and gatherMax bound how long the commit loop waits for more
// writes to join a batch (see gather).
const (
	gatherQuiet = 20 * time.Microsecond
	gatherMax   = 300 * time.Microsecond
)

// Store is everything the groups own, in one BoltDB file. Its methods are
// safe for concurrent use. Writes from concurrent callers are committed
// together, in one transaction and one fsync.
type Store struct {
	db   *bolt.DB
	path string
	opts Options

	mu     sync.RWMutex // held for reading while submitting, for writing by Close
	closed bool
	ops    chan *op
	quit   chan struct{}
	done   chan struct{}

	settings settingsCache

	// rules applies a command to a table: game.Apply. The package's tests
	// may wrap it (hooks_test.go) before the commit loop starts.
	rules func(game.Table, game.Command, game.Env) (game.Table, game.Outcome, error)
	// steps are Apply's writes in order: applySteps. The package's tests
	// may follow each with a check of their own before the loop starts.
	steps []applyStep
	// chainLength is the length of a new hash chain: game.ChainLength;
	// the package's tests shorten it.
	chainLength uint32
}

// Open opens or creates the database at path. It returns an error wrapping
// ErrInUse when another process holds the file, ErrCorrupt when the file is
// not a database of this program or is damaged, ErrNewerSchema when a
// newer version of the program wrote it, and ErrPreRelease when a
// pre-release did (before 1.0). A file of an older schema is migrated, in
// one transaction.
func Open(path string, opts Options) (*Store, error) {
	s, err := open(path, opts, migrations)
	if err != nil {
		return nil, err
	}
	s.start()
	return s, nil
}

// open opens the database as Open does, migrating it with migs, and
// returns the store before its commit loop starts (start starts it).
func open(path string, opts Options, migs []migration) (*Store, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	db, err := openBolt(path, opts.LockTimeout, false, opts.NoSync)
	if err != nil {
		return nil, err
	}
	if err := checkTree(db); err != nil {
		_ = db.Close()
		return nil, err
	}
	if err := upgrade(db, migs, opts.Rand); err != nil {
		_ = db.Close()
		return nil, err
	}
	s := &Store{
		db:    db,
		path:  db.Path(),
		opts:  opts,
		ops:   make(chan *op, maxBatch),
		quit:  make(chan struct{}),
		done:  make(chan struct{}),
		rules: game.Apply,
		steps: applySteps[:],

		chainLength: game.ChainLength,
	}
	s.settings.defaults = opts.Defaults.Game.Clone()
	return s, nil
}

// start starts the commit loop: from then on the store takes writes.
func (s *Store) start() { go s.loop() }

// openBolt validates the file under a lock of our own, then opens it with
// bbolt. A panic inside bbolt (it trusts the file) becomes ErrCorrupt.
func openBolt(path string, timeout time.Duration, readOnly, noSync bool) (db *bolt.DB, err error) {
	flag := os.O_RDWR | os.O_CREATE
	if readOnly {
		flag = os.O_RDONLY
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := lockFile(f, !readOnly, timeout); err != nil {
		_ = f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, fmt.Errorf("%w: %s", ErrInUse, path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	verr := validateFile(f)
	_ = unlockFile(f)
	_ = f.Close()
	if verr != nil {
		if errors.Is(verr, ErrCorrupt) {
			return nil, fmt.Errorf("%s: %w", path, verr)
		}
		return nil, fmt.Errorf("read %s: %w", path, verr)
	}

	var file *os.File
	defer func() {
		if r := recover(); r != nil {
			if file != nil {
				_ = file.Close()
			}
			db, err = nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, path, r)
		}
	}()
	opts := boltOptions(readOnly, noSync)
	opts.Timeout = timeout
	opts.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	db, err = bolt.Open(path, 0o600, opts)
	switch {
	case err == nil:
		return db, nil
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("%w: %s", ErrInUse, path)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch):
		return nil, fmt.Errorf("%w: %s: %w", ErrCorrupt, path, err)
	}
	return nil, fmt.Errorf("open %s: %w", path, err)
}

// checkTree runs bbolt's consistency check, which the file validation made
// safe to run: every page it reads lies within the file.
func checkTree(db *bolt.DB) error {
	var problems []error
	err := db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			if len(problems) < 5 {
				problems = append(problems, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s: %w", ErrCorrupt, db.Path(), errors.Join(problems...))
	}
	return nil
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Grants returns the chips the store grants: to a user on their first
// appearance in a chat, and as the daily bonus (Options, defaults applied).
func (s *Store) Grants() (startingChips, dailyBonus int64) {
	return s.opts.StartingChips, s.opts.DailyBonus
}

// Defaults returns the settings of a chat nobody configured
// (Options.Defaults, defaults applied): the bot's default table.
func (s *Store) Defaults() ChatSettings {
	d := s.opts.Defaults
	d.Game = d.Game.Clone()
	return d
}

// Close waits for the writes in progress, then closes the file. Later
// calls return ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.closed = true
	s.mu.Unlock()
	close(s.quit)
	<-s.done
	return s.db.Close()
}

// errNothingWritten rolls back a transaction in which no write changed
// anything.
var errNothingWritten = errors.New("nothing written")

// op is one write waiting for the commit loop.
type op struct {
	ctx context.Context
	// run does the write inside a transaction shared with the writes of
	// other callers. What it returns says how it went:
	//   - nil: it is done, and what it wrote commits with the others;
	//   - a rejection (see reject): it refused, and wrote nothing it does
	//     not keep whatever the answer (most write nothing; ClaimBonus keeps
	//     the user it creates); its caller gets the rejection's error, and
	//     the others commit all the same;
	//   - any other error: it failed, and may have written what it cannot
	//     keep; the transaction rolls back, the others commit without it,
	//     and it runs again alone to give its own answer.
	// It may run more than once, so it must set its results afresh each
	// time.
	run      func(*txn) error
	rejected error // the error of the rejection run returned, if it did
	err      error
	done     chan struct{}
}

// rejection is a write's refusal: see op.run.
type rejection struct{ err error }

func (r *rejection) Error() string { return r.err.Error() }
func (r *rejection) Unwrap() error { return r.err }

// reject returns err as the refusal of the write that returns it; nil
// for nil. Only a rejection the write returns as it is counts as one: an
// error that wraps one is a failure.
func reject(err error) error {
	if err == nil {
		return nil
	}
	return &rejection{err: err}
}

// failure returns err as a failure, the error a rejection carries when it
// is one: for a write made of steps that are all done or none.
func failure(err error) error {
	if r, ok := err.(*rejection); ok {
		return r.err
	}
	return err
}

// write runs fn in a write transaction shared with the writes of other
// callers, and returns once it committed or failed: rejected is the error
// fn refused with (see op.run), err why the write failed. The results fn
// sets come from the run that committed.
func (s *Store) write(ctx context.Context, fn func(*txn) error) (rejected, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o := &op{ctx: ctx, run: fn, done: make(chan struct{})}
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return nil, ErrClosed
	}
	select {
	case s.ops <- o:
	case <-ctx.Done():
		s.mu.RUnlock()
		return nil, ctx.Err()
	}
	s.mu.RUnlock()
	// Once queued, the write is committed or not regardless of ctx: wait
	// for the answer, so that the caller never mistakes a committed write
	// for a failed one.
	<-o.done
	return o.rejected, o.err
}

// firstErr returns the first of errs that is not nil.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// loop is the commit loop: it takes every write queued while the previous
// transaction committed, and commits them together. After a commit of
// several writes it waits briefly for more (see gather); after a commit of
// one, a writer alone never waits for company: its write starts at once.
func (s *Store) loop() {
	defer close(s.done)
	batch := make([]*op, 0, maxBatch)
	last := 0 // the size of the last batch
	for {
		batch = batch[:0]
		select {
		case o := <-s.ops:
			batch = append(batch, o)
		case <-s.quit:
			// Close waited for every sender; finish what is queued.
			for {
				select {
				case o := <-s.ops:
					s.commit([]*op{o})
				default:
					return
				}
			}
		}
		s.gather(&batch, last > 1)
		last = len(batch)
		s.commit(batch)
	}
}

// gather adds the queued writes to batch. After a commit of several
// writes (busy), it also waits for those writers to queue their next ones,
// until none came for gatherQuiet, at most gatherMax: one commit of many
// writes costs much less per write than two of half as many (the fsyncs,
// and the pages they share), and without the wait a steady load of many
// writers settles into two alternating halves. The wait yields the
// processor to the writers rather than sleeping, as a sleep lasts far
// longer than the wait. A writer alone commits at once.
func (s *Store) gather(batch *[]*op, busy bool) {
	s.drain(batch)
	if !busy {
		return
	}
	start := time.Now()
	arrived := start
	for len(*batch) < maxBatch {
		runtime.Gosched()
		n := len(*batch)
		s.drain(batch)
		now := time.Now()
		if len(*batch) > n {
			arrived = now
		}
		if now.Sub(arrived) > gatherQuiet || now.Sub(start) > gatherMax {
			return
		}
	}
}

// drain appends the queued writes to batch, up to maxBatch.
func (s *Store) drain(batch *[]*op) {
	for len(*batch) < maxBatch {
		select {
		case o := <-s.ops:
			*batch = append(*batch, o)
		default:
			return
		}
	}
}

// commit runs ops in one transaction. When one fails, the transaction is
// rolled back; the others are committed without it, and it runs alone to
// give its own answer. One that refuses (see op.run) rolls nothing back.
func (s *Store) commit(ops []*op) {
	live := ops[:0:0]
	for _, o := range ops {
		if err := o.ctx.Err(); err != nil {
			o.finish(nil, err)
			continue
		}
		live = append(live, o)
	}
	if len(live) == 0 {
		return
	}
	failed, ferr := -1, error(nil)
	start := time.Now()
	err := s.db.Update(func(tx *bolt.Tx) error {
		t := s.newTxn(tx)
		for i, o := range live {
			err := t.run(o.run)
			if r, ok := err.(*rejection); ok {
				o.rejected = r.err
				continue
			}
			o.rejected = nil
			if err != nil {
				failed, ferr = i, err
				return err
			}
		}
		if st := tx.Stats(); st.GetNodeCount() == 0 {
			// Nothing was written (rejections, duplicates): a commit would
			// still write a meta page and a freelist; roll back instead.
			return errNothingWritten
		}
		return nil
	})
	if err == nil && s.opts.OnCommit != nil {
		s.opts.OnCommit(time.Since(start), len(live))
	}
	switch {
	case err == nil, errors.Is(err, errNothingWritten):
		for _, o := range live {
			o.finish(o.rejected, nil)
		}
	case failed < 0 || len(live) == 1:
		// The commit itself failed, or the one write did.
		if failed >= 0 {
			err = ferr
		}
		for _, o := range live {
			o.finish(nil, err)
		}
	default:
		rest := append(live[:failed:failed], live[failed+1:]...)
		s.commit(rest)
		s.commit(live[failed : failed+1])
	}
}

// finish answers the op's caller.
func (o *op) finish(rejected, err error) {
	o.rejected, o.err = rejected, err
	close(o.done)
}

// run calls fn, turning a panic into an error.
func (t *txn) run(fn func(*txn) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: panic in a write: %v\n%s", ErrInternal, r, debug.Stack())
		}
	}()
	return fn(t)
}

// read runs fn in a read transaction.
func (s *Store) read(ctx context.Context, fn func(*txn) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return ErrClosed
	}
	return s.db.View(func(tx *bolt.Tx) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%w: %s: panic in a read: %v", ErrCorrupt, s.path, r)
			}
		}()
		return fn(s.newTxn(tx))
	})
}

// CheckFree returns an error wrapping ErrInUse when another process holds
// the database at path, without opening it as a database: it creates,
// migrates and changes nothing. It returns nil when the file is free or
// does not exist. A process that starts other things (a server) before it
// opens the database asks this first, so that a second instance is told
// the database is in use, not what else the first one holds.
func CheckFree(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	if err := lockFile(f, false, 0); err != nil {
		if errors.Is(err, errWouldBlock) {
			return fmt.Errorf("%w: %s", ErrInUse, path)
		}
		return fmt.Errorf("lock %s: %w", path, err)
	}
	return unlockFile(f)
}
