package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

// fullGameDeck: Bob is dealt A♥ and draws A♠ (Golden 21); Carol is dealt
// 10♥, draws 9♠ and stands on 19; the banker draws 8♦ 7♣ 6♥ = 21.
const fullGameDeck = "Ah Th As 9s 8d 7c 6h"

// playFullGame plays one game of Alice (banker), Bob and Carol in key's
// table, with update ids from upd, and returns the last Applied.
func playFullGame(t *testing.T, s *Store, key TableKey, upd *updates) Applied {
	t.Helper()
	now := t0
	step := func(u User, cmd game.Command) Applied {
		now = now.Add(time.Second)
		return apply(t, s, key, upd.next(), u, cmd, now)
	}
	a := step(alice, game.Command{Kind: game.Open})
	require.Equal(t, game.Lobby, a.Table.Phase())
	step(bob, game.Command{Kind: game.Join})
	step(carol, game.Command{Kind: game.Join})
	a = step(alice, game.Command{Kind: game.Start})
	require.Equal(t, game.Betting, a.Table.Phase())
	b, _ := a.Table.Banker()
	require.Equal(t, alice.ID, a.Table.Seat(b).User, "the stacked Rand makes seat 0 the banker")
	step(bob, game.Command{Kind: game.Bet, Amount: 5})
	a = step(bob, game.Command{Kind: game.Hit})
	require.Equal(t, game.Betting, a.Table.Phase(), "Golden 21 wins at once; Carol's turn")
	step(carol, game.Command{Kind: game.Bet, Amount: 5})
	step(carol, game.Command{Kind: game.Hit})
	a = step(carol, game.Command{Kind: game.Stand, Version: a.Table.Version() + 2})
	require.Equal(t, game.Lobby, a.Table.Phase())
	return a
}

func TestApplyFullGame(t *testing.T) {
	s := newStore(t, stacked(fullGameDeck))
	key := TableKey{Chat: group}
	var upd updates
	last := playFullGame(t, s, key, &upd)

	// Balances: Alice staked 10 and took the bank of 10; Bob bet 5 and won
	// 10; Carol lost her 5.
	want := map[game.UserID]int64{alice.ID: 1000, bob.ID: 1005, carol.ID: 995}
	assert.Equal(t, want, last.Balances)
	assert.Equal(t, map[game.UserID]string{alice.ID: "Alice", bob.ID: "Bob", carol.ID: "Carol"}, last.Names)
	assert.Equal(t, uint64(9), last.Table.Version())
	assert.Equal(t, "ru", last.Settings.Language, "the chat has the language Alice's Open gave it")

	// The ledger, per user, newest first.
	type entry struct {
		Kind            LedgerKind
		Amount, Balance int64
		Game            uint64
	}
	ledger := map[game.UserID][]entry{
		alice.ID: {{LedgerBank, 10, 1000, 1}, {LedgerStake, -10, 990, 1}, {LedgerStart, 1000, 1000, 0}},
		bob.ID:   {{LedgerWin, 10, 1005, 1}, {LedgerBet, -5, 995, 1}, {LedgerStart, 1000, 1000, 0}},
		carol.ID: {{LedgerBet, -5, 995, 1}, {LedgerStart, 1000, 1000, 0}},
	}
	seqs := map[uint64]bool{}
	for u, want := range ledger {
		h, err := s.History(ctx, group, u, 0)
		require.NoError(t, err)
		got := make([]entry, len(h))
		for i, e := range h {
			got[i] = entry{e.Kind, e.Amount, e.Balance, e.Game}
			assert.Equal(t, group, e.Chat)
			assert.False(t, seqs[e.Seq], "seq %d twice", e.Seq)
			seqs[e.Seq] = true
			assert.NotZero(t, e.Update)
		}
		assert.Equal(t, want, got, "ledger of %d", u)
	}
	assert.Len(t, seqs, 8)
	h, err := s.History(ctx, group, bob.ID, 1)
	require.NoError(t, err)
	require.Len(t, h, 1)
	assert.Equal(t, LedgerWin, h[0].Kind, "limit keeps the newest")

	// Stats.
	stats := map[game.UserID]award.Stats{
		alice.ID: {Games: 1, GamesAsBanker: 1, DuelsWon: 1, DuelsLost: 1, Net: 0},
		bob.ID:   {Games: 1, DuelsWon: 1, Net: 5, BiggestWin: 5, Golden21s: 1, Achievements: set(award.Golden21, award.FirstWin)},
		carol.ID: {Games: 1, DuelsLost: 1, Net: -5},
	}
	for u, want := range stats {
		got, err := s.Stats(ctx, group, u)
		require.NoError(t, err)
		assert.Equal(t, want, got, "stats of %d", u)
	}

	// The game's awards, in the order earned: the Golden 21 in Bob's
	// duel, then his first game won at its end.
	assert.Equal(t, []award.Award{{User: bob.ID, Achievement: award.Golden21}, {User: bob.ID, Achievement: award.FirstWin}}, last.Awards)

	// Leaderboard.
	lb, err := s.Leaderboard(ctx, group, 10)
	require.NoError(t, err)
	assert.Equal(t, []Standing{
		{User: bob.ID, Name: "Bob", Balance: 1005, Net: 5, Games: 1},
		{User: alice.ID, Name: "Alice", Balance: 1000, Net: 0, Games: 1},
		{User: carol.ID, Name: "Carol", Balance: 995, Net: -5, Games: 1},
	}, lb)

	// Reveals: the one deck of game 1, which verifies against its
	// commitment.
	rv, err := s.Reveals(ctx, group, 1)
	require.NoError(t, err)
	require.Len(t, rv, 1)
	assert.NoError(t, game.VerifyDeck(rv[0].Preimage, rv[0].Commitment))
	assert.True(t, strings.HasPrefix(rv[0].Preimage, "AhThAs9s8d7c6h"), rv[0].Preimage)
	c, ok := last.Table.Revealed()
	require.True(t, ok)
	assert.Equal(t, c.String(), rv[0].Commitment)
	_, err = s.Reveals(ctx, group, 2)
	assert.ErrorIs(t, err, ErrNotFound)

	// The lobby's deadline is the one timer.
	timers, err := s.Timers(ctx)
	require.NoError(t, err)
	assert.Equal(t, []Timer{{Key: key, Version: 9, Deadline: last.Table.Deadline().UTC()}}, timers)

	// The audit.
	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.Equal(t, Audit{Chat: group, Balances: 3000, OnTables: 0, Granted: 3000, Ledgered: 3000, OK: true}, a)
}

func TestApplyMidGameAudit(t *testing.T) {
	s := newStore(t, stacked(fullGameDeck))
	key := TableKey{Chat: group, Thread: 7}
	var upd updates
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Join}, t0)
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
	a := apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Bet, Amount: 10}, t0)
	assert.Equal(t, int64(20), a.Table.Chips(), "bank 10 and Bob's bet 10")
	au, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.True(t, au.OK, au.Problems)
	assert.Equal(t, int64(20), au.OnTables)
	assert.Equal(t, int64(1980), au.Balances)

	timers, err := s.Timers(ctx)
	require.NoError(t, err)
	require.Len(t, timers, 1)
	assert.Equal(t, Timer{Key: key, Version: a.Table.Version(), Deadline: t0.Add(time.Minute)}, timers[0])
}

func TestApplyRejectedWritesNothing(t *testing.T) {
	s := newStore(t, stacked(fullGameDeck))
	key := TableKey{Chat: group}
	var upd updates
	apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Join}, t0)
	apply(t, s, key, upd.next(), carol, game.Command{Kind: game.Join}, t0)
	started := apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
	v := started.Table.Version()

	tests := []struct {
		name string
		user User
		cmd  game.Command
		want error
	}{
		{"someone else's turn", carol, game.Command{Kind: game.Bet, Amount: 5}, game.ErrNotYourTurn},
		{"banker bets", alice, game.Command{Kind: game.Bet, Amount: 5}, game.ErrNotYourTurn},
		{"bet not offered", bob, game.Command{Kind: game.Bet, Amount: 7}, game.ErrBetNotOffered},
		{"hit before betting", bob, game.Command{Kind: game.Hit}, game.ErrWrongPhase},
		{"outdated button", bob, game.Command{Kind: game.Bet, Amount: 5, Version: v - 1}, game.ErrOutdated},
		{"open an open table", carol, game.Command{Kind: game.Open}, game.ErrTableOpen},
		{"join during a game", dave, game.Command{Kind: game.Join}, game.ErrGameInProgress},
		{"a new user's first command", dave, game.Command{Kind: game.Stand}, game.ErrWrongPhase},
		{"timeout too early", User{}, game.Command{Kind: game.Timeout}, game.ErrTooEarly},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := fileBytes(t, s)
			a, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: upd.next(), User: tc.user, Command: tc.cmd, Now: t0})
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.want)
			assert.Equal(t, v, a.Table.Version(), "the current view comes with the rejection")
			assert.Equal(t, game.Betting, a.Table.Phase())
			i, _ := a.Table.Turn()
			assert.Equal(t, bob.ID, a.Table.Seat(i).User)
			assert.Equal(t, "Bob", a.Names[bob.ID])
			assert.Equal(t, before, fileBytes(t, s), "a rejected command writes nothing")
		})
	}
	_, err := s.Stats(ctx, group, dave.ID)
	assert.ErrorIs(t, err, ErrNotFound, "a rejected first command does not create the user")
}

func TestApplyDuplicateUpdate(t *testing.T) {
	s := newStore(t, Options{})
	key := TableKey{Chat: group}
	apply(t, s, key, 10, alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, 11, bob, game.Command{Kind: game.Join}, t0)

	for _, id := range []int64{11, 10} {
		before := fileBytes(t, s)
		a, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: id, User: carol, Command: game.Command{Kind: game.Join}, Now: t0})
		assert.ErrorIs(t, err, ErrDuplicate, "update %d", id)
		assert.Equal(t, uint64(2), a.Table.Version())
		assert.Equal(t, before, fileBytes(t, s))
	}
	// An update the chat did not handle is new, even below the last: a
	// webhook gets a chat's messages and each member's presses in queues of
	// their own, in parallel, so it may come after later ones.
	apply(t, s, key, 3, carol, game.Command{Kind: game.Join}, t0)
	_, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: 3, User: dave, Command: game.Command{Kind: game.Join}, Now: t0})
	assert.ErrorIs(t, err, ErrDuplicate, "handled now")
	// Another table of the same chat shares the chat's update ids.
	_, err = s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: group, Thread: 5}, UpdateID: 11, User: carol, Command: game.Command{Kind: game.Open}, Now: t0})
	assert.ErrorIs(t, err, ErrDuplicate)
	// Timer commands carry no update id and are never duplicates; another
	// chat counts its own.
	apply(t, s, key, 12, dave, game.Command{Kind: game.Join}, t0)
	apply(t, s, key, 0, User{}, game.Command{Kind: game.Timeout}, t0.Add(time.Hour))
	apply(t, s, TableKey{Chat: 42}, 5, carol, game.Command{Kind: game.Open}, t0)
}

// TestApplyDuplicateAnswer: the chat's last handled update, delivered
// again (a crash after the commit, before its answer), comes back with
// what its command did to its user the first time, through a restart:
// enough to answer it the same. An older update, or one after which a
// grant was the last, comes back with nothing.
func TestApplyDuplicateAnswer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s := openAt(t, path, Options{NoSync: true, Rand: stacked(fullGameDeck).Rand})
	key := TableKey{Chat: group}
	var upd updates
	req := func(u User, cmd game.Command) ApplyRequest {
		return ApplyRequest{Key: key, UpdateID: upd.next(), User: u, Command: cmd, Now: t0}
	}
	again := func(r ApplyRequest) []game.Event {
		t.Helper()
		a, err := s.Apply(ctx, r)
		require.ErrorIs(t, err, ErrDuplicate)
		return a.Outcome.Events
	}
	steps := []struct {
		u   User
		cmd game.Command
	}{
		{alice, game.Command{Kind: game.Open}},
		{bob, game.Command{Kind: game.Join}},
		{carol, game.Command{Kind: game.Join}},
		{alice, game.Command{Kind: game.Start}},
		{bob, game.Command{Kind: game.Bet, Amount: 5}},
		{bob, game.Command{Kind: game.Hit}},
	}
	var r ApplyRequest
	var first game.Outcome
	for _, st := range steps {
		r = req(st.u, st.cmd)
		a, err := s.Apply(ctx, r)
		require.NoError(t, err, "%s", st.cmd.Kind)
		first = a.Outcome
		want := answerOf(st.u.ID, &first)
		assert.Equal(t, want, again(r), "%s delivered again", st.cmd.Kind)
		for _, e := range want {
			assert.True(t, e.User == st.u.ID || e.Duel.User == st.u.ID, "%s: an event about its user", st.cmd.Kind)
		}
	}

	// Bob's Hit, after a restart: the card he drew and his Golden 21.
	require.NoError(t, s.Close())
	s = openAt(t, path, Options{NoSync: true})
	evs := again(r)
	require.NotEmpty(t, evs)
	var drew, ended bool
	for _, e := range evs {
		switch e.Kind {
		case game.EventDrew:
			drew = true
			assert.Equal(t, "As", e.Card.Code())
			assert.Equal(t, 21, e.Score)
		case game.EventDuelEnded:
			ended = true
			assert.True(t, e.Duel.Hand.Golden())
			assert.Equal(t, game.TwentyOne, e.Duel.Result)
		case game.EventRevealed:
			assert.Zero(t, e.Deck, "no deck is kept")
		}
	}
	assert.True(t, drew && ended, "%+v", evs)
	assert.Equal(t, answerOf(bob.ID, &first), evs)

	// A timer's command keeps the answer; a later update's replaces it.
	apply(t, s, key, 0, User{}, game.Command{Kind: game.Timeout}, t0.Add(time.Hour))
	assert.NotEmpty(t, again(r))
	_, err := s.Grant(ctx, group, dave, 5, upd.next(), t0)
	require.NoError(t, err)
	assert.Empty(t, again(r), "an older update")
	r.UpdateID = upd.n.Load()
	assert.Empty(t, again(r), "a grant: no command's answer")
}

// TestUpdateIDsRestartLower: an update id the chat handled is a duplicate
// only within RedeliveryWindow of the last. After a week with no updates
// Telegram starts the ids again at random, possibly lower: a chat must then
// take them, not ignore every command for good.
func TestUpdateIDsRestartLower(t *testing.T) {
	s := newStore(t, Options{})
	key := TableKey{Chat: group}
	apply(t, s, key, 7, alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, 1000, bob, game.Command{Kind: game.Join}, t0)
	join := func(id int64, u User, at time.Time) error {
		_, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: id, User: u, Command: game.Command{Kind: game.Join}, Now: at})
		return err
	}
	assert.ErrorIs(t, join(1000, carol, t0.Add(RedeliveryWindow-time.Minute)), ErrDuplicate, "a redelivery within the window")
	assert.ErrorIs(t, join(7, carol, t0.Add(RedeliveryWindow-time.Minute)), ErrDuplicate, "an older one within the window")

	later := t0.Add(8 * 24 * time.Hour)
	require.NoError(t, join(7, carol, later), "a restarted sequence after a week")
	assert.ErrorIs(t, join(7, dave, later.Add(time.Second)), ErrDuplicate, "the new sequence is tracked in turn")
	require.NoError(t, join(8, dave, later.Add(time.Second)))
	v, err := s.View(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, 4, v.Table.NumSeats())
}

// TestUpdatesHandledOutOfOrder: a chat remembers the last recentUpdates
// updates it handled, through a restart: a late update below them that it
// did not handle is new, once; below those it remembers, every update
// counts as handled.
func TestUpdatesHandledOutOfOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s := openAt(t, path, Options{NoSync: true})
	grant := func(id int64) error {
		_, err := s.Grant(ctx, group, alice, 1, id, t0)
		return err
	}
	require.NoError(t, grant(200))
	for id := int64(202); id < 202+recentUpdates-2; id++ { // recentUpdates-1 in all
		require.NoError(t, grant(id))
	}
	require.NoError(t, s.Close())
	s = openAt(t, path, Options{NoSync: true})
	require.NoError(t, grant(201), "late, and never handled: the chat remembers recentUpdates now")
	assert.ErrorIs(t, grant(201), ErrDuplicate)
	assert.ErrorIs(t, grant(200), ErrDuplicate)
	assert.EqualError(t, grant(202), fmt.Sprintf("update already handled: update 202 in chat %d", group),
		"handled before 201, the chat's last: the error names no last update that would look below it")

	require.NoError(t, grant(150), "below every update handled, and never handled")
	for _, id := range []int64{150, 149, 100} {
		assert.ErrorIs(t, grant(id), ErrDuplicate, "%d: one more than remembered, and every update up to the oldest counts as handled", id)
	}
	acc, err := s.Account(ctx, group, alice, t0)
	require.NoError(t, err)
	assert.EqualValues(t, 1000+recentUpdates+1, acc.Balance, "each update granted once")
}

// TestRejectedUpdateRedelivered: an update the game rejected wrote
// nothing, so it is not handled. Delivered again after a restart (a bot
// killed before it confirmed it), it runs again, on the tables as later
// updates of its chat left them, and applies if it now can, once: its
// ledger entries then come after those of a later update of the chat.
func TestRejectedUpdateRedelivered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s := openAt(t, path, Options{NoSync: true})
	topic, other := TableKey{Chat: group}, TableKey{Chat: group, Thread: 3}
	open := func(key TableKey, id int64, u User) error {
		_, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: id, User: u, Command: game.Command{Kind: game.Open}, Now: t0})
		return err
	}
	apply(t, s, topic, 10, alice, game.Command{Kind: game.Open}, t0)
	require.ErrorIs(t, open(topic, 11, carol), game.ErrTableOpen)
	apply(t, s, other, 12, bob, game.Command{Kind: game.Open}, t0)
	_, err := s.CancelAll(ctx, group, t0)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s = openAt(t, path, Options{NoSync: true})
	assert.ErrorIs(t, open(other, 12, bob), ErrDuplicate, "applied the first time")
	require.NoError(t, open(topic, 11, carol), "rejected the first time, and the table is closed now")
	assert.ErrorIs(t, open(topic, 11, carol), ErrDuplicate, "applied now")
	later, err := s.History(ctx, group, bob.ID, 10)
	require.NoError(t, err)
	late, err := s.History(ctx, group, carol.ID, 10)
	require.NoError(t, err)
	require.Len(t, later, 1)
	require.Len(t, late, 1, "carol's starting chips, once")
	assert.Equal(t, [2]int64{12, 11}, [2]int64{later[0].Update, late[0].Update})
	assert.Greater(t, late[0].Seq, later[0].Seq, "update 11 in the ledger after update 12")
}

func TestApplyFailureInjection(t *testing.T) {
	for _, stage := range []string{"table", "users", "ledger", "chat"} {
		t.Run(stage, func(t *testing.T) {
			var in injector
			s := newFaultyStore(t, stacked(fullGameDeck), in.faults())
			key := TableKey{Chat: group}
			apply(t, s, key, 1, alice, game.Command{Kind: game.Open}, t0)
			apply(t, s, key, 2, bob, game.Command{Kind: game.Join}, t0)
			before := fileBytes(t, s)
			boom := errors.New("injected")
			calls := 0
			in.failAfter(func(key TableKey, st string) error {
				if st == stage {
					calls++
					return boom
				}
				return nil
			})
			req := ApplyRequest{Key: key, UpdateID: 3, User: alice, Command: game.Command{Kind: game.Start}, Now: t0}
			_, err := s.Apply(ctx, req)
			assert.ErrorIs(t, err, boom)
			assert.Equal(t, 1, calls)
			assert.Equal(t, before, fileBytes(t, s), "nothing of the failed transaction is written")

			in.clear()
			a, err := s.Apply(ctx, req)
			require.NoError(t, err, "the same update applies once the failure is gone")
			assert.Equal(t, uint64(3), a.Table.Version())
			au, err := s.Audit(ctx, group)
			require.NoError(t, err)
			assert.True(t, au.OK, au.Problems)
		})
	}
}

func TestApplyInternalErrors(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*game.Outcome)
	}{
		{"negative balance", func(o *game.Outcome) {
			o.Transfers = append(o.Transfers, game.Transfer{User: bob.ID, Kind: game.TransferBet, Amount: -5000})
		}},
		{"chips not conserved", func(o *game.Outcome) { o.Transfers[0].Amount-- }},
		{"unknown user", func(o *game.Outcome) {
			o.Transfers = append(o.Transfers, game.Transfer{User: 999, Kind: game.TransferWin, Amount: 1})
		}},
		{"unknown transfer kind", func(o *game.Outcome) { o.Transfers[0].Kind = 77 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var in injector
			s := newFaultyStore(t, Options{}, in.faults())
			key := TableKey{Chat: group}
			apply(t, s, key, 1, alice, game.Command{Kind: game.Open}, t0)
			apply(t, s, key, 2, bob, game.Command{Kind: game.Join}, t0)
			before := fileBytes(t, s)
			in.changeOutcome(tc.mutate)
			_, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: 3, User: alice, Command: game.Command{Kind: game.Start}, Now: t0})
			assert.ErrorIs(t, err, ErrInternal)
			assert.Equal(t, game.KindInternal, game.Kind(err))
			assert.Equal(t, before, fileBytes(t, s))
		})
	}
}

// TestBatchFailureIsolation holds the commit loop on one write while others
// queue behind it, so that they share a transaction; one of them fails.
// The failed write leaves nothing; the others commit, with the results of
// the run that committed.
func TestBatchFailureIsolation(t *testing.T) {
	var in injector
	s := newFaultyStore(t, Options{}, in.faults())
	const chats = 12
	const bad = int64(7)
	for c := int64(1); c <= chats; c++ {
		apply(t, s, TableKey{Chat: c}, 1, alice, game.Command{Kind: game.Open}, t0)
	}
	h := holdCommits(t, &in, 1, func(chat int64) error {
		if chat == bad {
			return fmt.Errorf("chat %d: %w", chat, errInjected)
		}
		return nil
	})
	var wg sync.WaitGroup
	results := make([]Applied, chats+1)
	errs := make([]error, chats+1)
	run := func(c int64) {
		defer wg.Done()
		results[c], errs[c] = s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: c}, UpdateID: 2, User: bob, Command: game.Command{Kind: game.Join}, Now: t0})
	}
	wg.Add(1)
	go run(1)
	<-h.entered // the commit loop holds chat 1's transaction
	for c := int64(2); c <= chats; c++ {
		// One at a time, so that the batch holds them in order: chat 2
		// before the bad one, chat 12 after it.
		wg.Add(1)
		go run(c)
		waitQueued(t, s, int(c-1))
	}
	h.free()
	wg.Wait()

	for c := int64(1); c <= chats; c++ {
		v, err := s.View(ctx, TableKey{Chat: c})
		require.NoError(t, err)
		if c == bad {
			assert.ErrorIs(t, errs[c], errInjected)
			assert.Equal(t, 1, v.Table.NumSeats(), "the failed write left nothing")
			continue
		}
		require.NoError(t, errs[c], "chat %d", c)
		assert.Equal(t, 2, v.Table.NumSeats(), "chat %d", c)
		assert.Equal(t, v.Table.Version(), results[c].Table.Version())
		assert.Equal(t, int64(1000), results[c].Balances[bob.ID])
	}
	assert.Equal(t, 1, h.runs(1), "chat 1 committed alone before the others queued")
	assert.Equal(t, 2, h.runs(bad), "the failed write ran in the batch, then alone")
	assert.Equal(t, 2, h.runs(2), "a write queued before the failed one ran again without it")
	assert.Equal(t, 1, h.runs(chats), "a write queued after the failed one ran once")
	audits, err := s.AuditAll(ctx)
	require.NoError(t, err)
	for _, a := range audits {
		assert.True(t, a.OK, a.Problems)
	}
}

var errInjected = errors.New("injected failure")

// commitHold holds the commit loop inside the command of one chat, so that
// the writes queued meanwhile share the next transaction, and counts the
// runs of each chat's commands.
type commitHold struct {
	// entered is sent to when the loop is held.
	entered chan struct{}
	release chan struct{}
	once    sync.Once
	mu      sync.Mutex
	count   map[int64]int
}

// holdCommits holds the commit loop in the next command on a table of
// chat hold, at its last write, until free, in the store opened with in's
// options. fail, if set, may fail a chat's command there.
func holdCommits(t *testing.T, in *injector, hold int64, fail func(chat int64) error) *commitHold {
	h := &commitHold{entered: make(chan struct{}), release: make(chan struct{}), count: map[int64]int{}}
	t.Cleanup(h.free)
	last := applySteps[len(applySteps)-1].name
	in.failAfter(func(key TableKey, stage string) error {
		if stage != last {
			return nil
		}
		h.mu.Lock()
		h.count[key.Chat]++
		h.mu.Unlock()
		if key.Chat == hold {
			h.entered <- struct{}{}
			<-h.release
		}
		if fail != nil {
			return fail(key.Chat)
		}
		return nil
	})
	return h
}

// free lets the commit loop go on.
func (h *commitHold) free() { h.once.Do(func() { close(h.release) }) }

// runs returns how many times a command on the chat's tables ran.
func (h *commitHold) runs(chat int64) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.count[chat]
}

// waitQueued waits until n writes are queued for the commit loop.
func waitQueued(t *testing.T, s *Store, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(s.ops) < n {
		require.True(t, time.Now().Before(deadline), "only %d of %d writes queued", len(s.ops), n)
		runtime.Gosched()
	}
}

func TestCorruptTableValue(t *testing.T) {
	s := newStore(t, Options{})
	key := TableKey{Chat: group, Thread: 3}
	apply(t, s, key, 1, alice, game.Command{Kind: game.Open}, t0)
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTables)
		v := append([]byte(nil), b.Get(tableKeyBytes(key))...)
		v[len(v)/2] ^= 0x5a
		return b.Put(tableKeyBytes(key), v)
	}))
	_, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: 2, User: bob, Command: game.Command{Kind: game.Join}, Now: t0})
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorIs(t, err, game.ErrCorrupt)
	assert.Contains(t, err.Error(), fmt.Sprintf("chat %d thread 3", group))
	_, err = s.View(ctx, key)
	assert.ErrorIs(t, err, ErrCorrupt)
	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.False(t, a.OK)
	_, err = s.CancelAll(ctx, group, t0)
	assert.ErrorIs(t, err, ErrCorrupt)
	// Other tables of the chat play on.
	apply(t, s, TableKey{Chat: group}, 3, bob, game.Command{Kind: game.Open}, t0)
}

func TestCancelAll(t *testing.T) {
	s := newStore(t, stacked())
	var upd updates
	for thread := int64(0); thread < 3; thread++ {
		key := TableKey{Chat: group, Thread: thread}
		apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Open}, t0)
		if thread == 2 {
			continue // stays a lobby
		}
		apply(t, s, key, upd.next(), bob, game.Command{Kind: game.Join}, t0)
		a := apply(t, s, key, upd.next(), alice, game.Command{Kind: game.Start}, t0)
		i, _ := a.Table.Turn()
		offers := a.Table.Offers(1000)
		apply(t, s, key, upd.next(), User{ID: a.Table.Seat(i).User}, game.Command{Kind: game.Bet, Amount: offers[0].Amount}, t0)
	}
	apply(t, s, TableKey{Chat: 77}, 1, carol, game.Command{Kind: game.Open}, t0)

	res, err := s.CancelAll(ctx, group, t0)
	require.NoError(t, err)
	require.Len(t, res, 3)
	for _, a := range res {
		assert.Equal(t, game.Closed, a.Table.Phase())
		assert.Equal(t, game.ReasonCancelled, a.Table.ClosedBy())
	}
	for _, u := range []User{alice, bob} {
		acc, err := s.Account(ctx, group, u, t0)
		require.NoError(t, err)
		assert.Equal(t, int64(1000), acc.Balance, "every bet and bank returned to %s", u.Name)
	}
	timers, err := s.Timers(ctx)
	require.NoError(t, err)
	assert.Equal(t, []Timer{{Key: TableKey{Chat: 77}, Version: 1, Deadline: t0.Add(10 * time.Minute)}}, timers, "chat 77 is not touched")
	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.True(t, a.OK, a.Problems)

	res, err = s.CancelAll(ctx, 555, t0)
	assert.NoError(t, err, "an unknown chat has nothing to cancel")
	assert.Empty(t, res)
}

// TestOpenGivesTheChatItsLanguage: the first Open of a chat with no
// language gives it the request's, kept as given, whichever language it
// is; later requests do not change it, a request without one leaves the
// chat without, and a preset language is kept. A language that is no
// language tag is refused and changes nothing.
func TestOpenGivesTheChatItsLanguage(t *testing.T) {
	open := func(s *Store, key TableKey, upd int64, lang string) (Applied, error) {
		return s.Apply(ctx, ApplyRequest{Key: key, UpdateID: upd, User: bob, Command: game.Command{Kind: game.Open}, Now: t0, Language: lang})
	}
	for _, lang := range []string{"ru", "en", "de", "abcdefgh"} {
		t.Run(lang, func(t *testing.T) {
			s := newStore(t, Options{})
			a, err := open(s, TableKey{Chat: group}, 1, lang)
			require.NoError(t, err)
			assert.Equal(t, lang, a.Settings.Language)
			a, err = open(s, TableKey{Chat: group, Thread: 1}, 2, "xx")
			require.NoError(t, err)
			assert.Equal(t, lang, a.Settings.Language, "decided once: a later Open does not change it")
			cs, err := s.Settings(ctx, group)
			require.NoError(t, err)
			assert.Equal(t, lang, cs.Language, "stored")
		})
	}
	t.Run("none", func(t *testing.T) {
		s := newStore(t, Options{})
		a, err := open(s, TableKey{Chat: group}, 1, "")
		require.NoError(t, err)
		assert.Empty(t, a.Settings.Language)
		a, err = open(s, TableKey{Chat: group, Thread: 1}, 2, "ru")
		require.NoError(t, err)
		assert.Equal(t, "ru", a.Settings.Language, "the first Open with a language decides it")
	})
	t.Run("preset", func(t *testing.T) {
		s := newStore(t, Options{Defaults: ChatSettings{Language: "en"}})
		a, err := open(s, TableKey{Chat: group}, 1, "ru")
		require.NoError(t, err)
		assert.Equal(t, "en", a.Settings.Language)
	})
	for _, lang := range []string{"RU", "r", "abcdefghi", "en-US", "ru_RU", "рус"} {
		t.Run("refused "+lang, func(t *testing.T) {
			s := newStore(t, Options{})
			before := fileBytes(t, s)
			_, err := open(s, TableKey{Chat: group}, 1, lang)
			assert.ErrorIs(t, err, game.ErrInvalidInput)
			assert.Equal(t, before, fileBytes(t, s), "nothing written")
		})
	}
}

func TestApplyRequestChecks(t *testing.T) {
	s := newStore(t, Options{})
	tests := []ApplyRequest{
		{Key: TableKey{}, User: alice, Command: game.Command{Kind: game.Open}},
		{Key: TableKey{Chat: 1}, UpdateID: -1, User: alice, Command: game.Command{Kind: game.Open}},
		{Key: TableKey{Chat: 1}, User: alice, Command: game.Command{Kind: game.Open, User: bob.ID}},
	}
	for _, req := range tests {
		_, err := s.Apply(ctx, req)
		assert.ErrorIs(t, err, game.ErrInvalidInput)
	}
	// The command's user alone is enough.
	a, err := s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: 1}, Command: game.Command{Kind: game.Open, User: bob.ID, Name: "Bob"}, Now: t0})
	require.NoError(t, err)
	assert.Equal(t, "Bob", a.Names[bob.ID])
}
