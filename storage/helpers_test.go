package storage

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/game/house"
)

var (
	ctx   = context.Background()
	t0    = time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)
	alice = User{ID: 101, Name: "Alice", Username: "alice", Language: "ru"}
	bob   = User{ID: 102, Name: "Bob", Username: "bob", Language: "en"}
	carol = User{ID: 103, Name: "Carol", Language: "de"}
	dave  = User{ID: 104, Name: "Dave", Language: "en"}
)

const group = int64(-1001234567890)

// openAt opens a store at path with test options (no fsync unless the
// options ask for it by leaving NoSync to the caller) and closes it at the
// end of the test.
func openAt(t testing.TB, path string, opts Options) *Store {
	t.Helper()
	return openHookedAt(t, path, opts, nil, nil)
}

// openHookedAt is openAt with f's failures in Apply and, when migs is not
// nil, migs in place of the package's migrations (openHooked).
func openHookedAt(t testing.TB, path string, opts Options, f *faults, migs []migration) *Store {
	t.Helper()
	s, err := openHooked(path, opts, f, migs)
	require.NoError(t, err)
	t.Cleanup(func() {
		if err := s.Close(); err != nil && !errors.Is(err, ErrClosed) {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

// newStore opens a fresh store in a temporary directory, without fsync.
func newStore(t testing.TB, opts Options) *Store {
	t.Helper()
	return newFaultyStore(t, opts, nil)
}

// newFaultyStore is newStore with f's failures in Apply.
func newFaultyStore(t testing.TB, opts Options, f *faults) *Store {
	t.Helper()
	opts.NoSync = true
	return openHookedAt(t, filepath.Join(t.TempDir(), "twentyone.db"), opts, f, nil)
}

// stacked returns Options whose decks are the given card codes.
func stacked(decks ...string) Options {
	return Options{Rand: gametest.Deck(decks...)}
}

// injector injects failures into the Apply of a store opened with its
// faults (newFaultyStore); what it injects may change while the store is
// open, and is nothing until it is set.
type injector struct {
	afterWrite atomic.Pointer[func(key TableKey, stage string) error]
	outcome    atomic.Pointer[func(*game.Outcome)]
}

// faults returns the injector's faults.
func (in *injector) faults() *faults {
	return &faults{
		outcome: func(o *game.Outcome) {
			if f := in.outcome.Load(); f != nil {
				(*f)(o)
			}
		},
		afterWrite: func(key TableKey, stage string) error {
			if f := in.afterWrite.Load(); f != nil {
				return (*f)(key, stage)
			}
			return nil
		},
	}
}

// failAfter has f told each stage of Apply's writes done; its error
// fails the write.
func (in *injector) failAfter(f func(key TableKey, stage string) error) { in.afterWrite.Store(&f) }

// changeOutcome has f change what game.Apply returns.
func (in *injector) changeOutcome(f func(*game.Outcome)) { in.outcome.Store(&f) }

// clear injects nothing more.
func (in *injector) clear() {
	in.afterWrite.Store(nil)
	in.outcome.Store(nil)
}

// fileBytes returns the database file's bytes in use (bbolt grows the
// file ahead of them), both meta pages included: equal before and after
// means nothing was committed.
func fileBytes(t testing.TB, s *Store) []byte {
	t.Helper()
	f, err := os.Open(s.Path())
	require.NoError(t, err)
	defer f.Close()
	head := make([]byte, 2*4096)
	_, err = f.ReadAt(head, 0)
	require.NoError(t, err)
	m0, ok0 := parseMeta(head)
	m1, ok1 := parseMeta(head[4096:])
	require.True(t, ok0 && ok1 && m0.pageSize == 4096)
	b := make([]byte, max(m0.hwm, m1.hwm)*4096)
	_, err = f.ReadAt(b, 0)
	require.NoError(t, err)
	return b
}

// updates hands out increasing update ids.
type updates struct{ n atomic.Int64 }

func (u *updates) next() int64 { return u.n.Add(1) }

// apply applies a command, failing the test when it is rejected. The
// language it gives a chat it opens is u's Telegram language code, which
// for the test users is a language tag.
func apply(t testing.TB, s *Store, key TableKey, upd int64, u User, cmd game.Command, now time.Time) Applied {
	t.Helper()
	a, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: upd, User: u, Command: cmd, Now: now, Language: u.Language})
	require.NoError(t, err, "%s by %s", cmd.Kind, u.Name)
	return a
}

// pickCommand chooses a command the table will most likely accept: the
// moves a sensible player makes in each phase, and the house's strategy
// for the house.
func pickCommand(v *View, users []User, r *rand.Rand) (User, game.Command) {
	tb := &v.Table
	byID := func(id game.UserID) User {
		for _, u := range users {
			if u.ID == id {
				return u
			}
		}
		return User{ID: id}
	}
	if i, ok := tb.Turn(); ok && tb.Seat(i).User == house.ID {
		if cmd, ok := house.Move(tb, house.ID, v.Balances[house.ID]); ok {
			return byID(house.ID), cmd
		}
	}
	cmd := game.Command{Version: tb.Version()}
	switch tb.Phase() {
	case game.Closed:
		cmd.Kind = game.Open
		return users[r.IntN(len(users))], cmd
	case game.Lobby:
		if tb.NumSeats() < 2 || tb.NumSeats() < min(len(users), game.MaxSeats) && r.IntN(3) == 0 {
			for _, i := range r.Perm(len(users)) {
				if _, seated := tb.SeatOf(users[i].ID); !seated {
					cmd.Kind = game.Join
					return users[i], cmd
				}
			}
		}
		cmd.Kind = game.Start
		return byID(tb.Seat(r.IntN(tb.NumSeats())).User), cmd
	case game.Cutting:
		cmd.Kind, cmd.Text = game.Cut, fmt.Sprintf("tap:%d", 1+r.IntN(3))
		for _, i := range r.Perm(tb.NumSeats()) {
			if u := tb.Seat(i).User; u != house.ID {
				return byID(u), cmd
			}
		}
		return byID(tb.Seat(0).User), cmd
	case game.Betting:
		i, _ := tb.Turn()
		u := tb.Seat(i).User
		offers := tb.Offers(v.Balances[u])
		cmd.Kind, cmd.Amount = game.Bet, 1
		if len(offers) > 0 {
			cmd.Amount = offers[r.IntN(len(offers))].Amount
		}
		return byID(u), cmd
	default:
		i, _ := tb.Turn()
		s := tb.Seat(i)
		cmd.Kind = game.Stand
		if s.Hand.Score() < 14+r.IntN(5) {
			cmd.Kind = game.Hit
		}
		return byID(s.User), cmd
	}
}

// randomCommand is any command at all, most of them rejected.
func randomCommand(v *View, users []User, r *rand.Rand) (User, game.Command) {
	u := users[r.IntN(len(users))]
	cmd := game.Command{Kind: game.CommandKind(1 + r.IntN(11)), Amount: int64(r.IntN(50)), Target: users[r.IntN(len(users))].ID,
		Text: []string{"", "tap:1", "x"}[r.IntN(3)]}
	if cmd.Kind == game.Cancel || cmd.Kind == game.Timeout {
		cmd.Kind = game.Leave
	}
	if r.IntN(2) == 0 {
		cmd.Version = v.Table.Version() - uint64(r.IntN(2))
	}
	return u, cmd
}

// seats returns the users of the players of n, from base.
func players(base game.UserID, n int) []User {
	us := make([]User, n)
	for i := range us {
		id := base + game.UserID(i)
		us[i] = User{ID: id, Name: "P" + string(rune('A'+i)), Language: "en"}
	}
	return us
}

var errCanceled = context.Canceled

func contextWithCancel() (context.Context, context.CancelFunc) { return context.WithCancel(ctx) }

// testUpdates hands out update ids that grow across every chat of a test.
var testUpdates updates

// set returns the set of the achievements as.
func set(as ...award.Achievement) award.Set {
	var s award.Set
	for _, a := range as {
		s |= 1 << a
	}
	return s
}
