package storage

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

func TestStartingChips(t *testing.T) {
	s := newStore(t, Options{StartingChips: 1500})
	acc, err := s.Account(ctx, group, alice, t0)
	require.NoError(t, err)
	assert.Equal(t, Account{Chat: group, User: alice, Balance: 1500, Created: t0}, acc)

	h, err := s.History(ctx, group, alice.ID, 0)
	require.NoError(t, err)
	require.Len(t, h, 1)
	assert.Equal(t, LedgerEntry{Seq: 1, Time: t0, Chat: group, User: alice.ID, Kind: LedgerStart, Amount: 1500, Balance: 1500}, h[0])

	// A second look writes nothing; a changed profile is refreshed.
	before := fileBytes(t, s)
	again, err := s.Account(ctx, group, alice, t0.Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, acc, again)
	assert.Equal(t, before, fileBytes(t, s))
	renamed := alice
	renamed.Name = "Alicia"
	acc, err = s.Account(ctx, group, renamed, t0.Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, "Alicia", acc.User.Name)
	assert.Equal(t, int64(1500), acc.Balance, "no second grant")

	// Chips are per chat: another chat grants again.
	other, err := s.Account(ctx, 555, alice, t0)
	require.NoError(t, err)
	assert.Equal(t, int64(1500), other.Balance)

	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.Equal(t, Audit{Chat: group, Balances: 1500, Granted: 1500, Ledgered: 1500, OK: true}, a)
}

// TestGrants checks that Grants says what the store grants: a new user's
// starting chips and the daily bonus, defaults included.
func TestGrants(t *testing.T) {
	tests := []struct {
		name         string
		opts         Options
		chips, bonus int64
	}{
		{"defaults", Options{}, DefaultStartingChips, DefaultDailyBonus},
		{"given", Options{StartingChips: 40, DailyBonus: 7}, 40, 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, tc.opts)
			chips, bonus := s.Grants()
			assert.Equal(t, tc.chips, chips)
			assert.Equal(t, tc.bonus, bonus)

			acc, err := s.Account(ctx, group, bob, t0)
			require.NoError(t, err)
			assert.Equal(t, chips, acc.Balance)
			_, err = s.UpdateSettings(ctx, group, func(cs *ChatSettings) error {
				cs.Game.EntryLimit = chips + 1 // bob is below it
				return nil
			})
			require.NoError(t, err)
			b, err := s.ClaimBonus(ctx, group, bob, t0)
			require.NoError(t, err)
			assert.Equal(t, bonus, b.Amount)
		})
	}
}

func TestClaimBonus(t *testing.T) {
	rich := game.DefaultSettings()
	rich.EntryLimit = 5000 // everyone starts below it
	day := 24 * time.Hour
	tests := []struct {
		name     string
		settings game.Settings
		claims   []time.Duration // since t0
		want     []error
		balance  int64
	}{
		{"first claim", rich, []time.Duration{0}, []error{nil}, 1100},
		{"twice a day", rich, []time.Duration{0, day - time.Second}, []error{nil, ErrBonusTooSoon}, 1100},
		{"once a day", rich, []time.Duration{0, day, 2*day + time.Hour}, []error{nil, nil, nil}, 1300},
		{"not needed", game.DefaultSettings(), []time.Duration{0}, []error{ErrBonusNotNeeded}, 1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, Options{})
			_, err := s.UpdateSettings(ctx, group, func(cs *ChatSettings) error { cs.Game = tc.settings; return nil })
			require.NoError(t, err)
			var last Bonus
			for i, d := range tc.claims {
				b, err := s.ClaimBonus(ctx, group, bob, t0.Add(d))
				if tc.want[i] == nil {
					require.NoError(t, err, "claim %d", i)
					assert.Equal(t, int64(100), b.Amount)
					assert.Equal(t, t0.Add(d+day), b.Next)
				} else {
					assert.ErrorIs(t, err, tc.want[i], "claim %d", i)
					assert.Zero(t, b.Amount)
				}
				if tc.want[i] == ErrBonusTooSoon {
					assert.Equal(t, last.Next, b.Next, "the refusal says when")
				}
				last = b
			}
			acc, err := s.Account(ctx, group, bob, t0)
			require.NoError(t, err)
			assert.Equal(t, tc.balance, acc.Balance)
			a, err := s.Audit(ctx, group)
			require.NoError(t, err)
			assert.True(t, a.OK, a.Problems)
			assert.Equal(t, tc.balance, a.Granted)
		})
	}
}

func TestBonusAfterLosing(t *testing.T) {
	// Bob starts with 105, bets 10 and loses: at 95 he may claim the bonus.
	opts := stacked("6h Th 9h") // Bob is dealt 6♥ and stands; the banker draws 10♥ 9♥
	opts.StartingChips = 105
	s := newStore(t, opts)
	_, err := s.UpdateSettings(ctx, group, func(cs *ChatSettings) error {
		cs.Game.BetOptions = []game.BetOption{{Kind: game.StakeTimes, N: 1}}
		return nil
	})
	require.NoError(t, err)
	b, err := s.ClaimBonus(ctx, group, bob, t0)
	require.ErrorIs(t, err, ErrBonusNotNeeded)
	assert.Equal(t, int64(105), b.Balance)
	key := TableKey{Chat: group}
	apply(t, s, key, 1, alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, 2, bob, game.Command{Kind: game.Join}, t0)
	apply(t, s, key, 3, alice, game.Command{Kind: game.Start}, t0)
	apply(t, s, key, 4, bob, game.Command{Kind: game.Bet, Amount: 10}, t0)
	a := apply(t, s, key, 5, bob, game.Command{Kind: game.Stand}, t0)
	require.Equal(t, game.Lobby, a.Table.Phase())
	require.Equal(t, int64(95), a.Balances[bob.ID])

	b, err = s.ClaimBonus(ctx, group, bob, t0.Add(time.Minute))
	require.NoError(t, err)
	assert.Equal(t, Bonus{Amount: 100, Balance: 195, Next: t0.Add(time.Minute + 24*time.Hour)}, b)
	au, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.True(t, au.OK, au.Problems)
	assert.Equal(t, int64(105+105+100), au.Granted)
}

// TestBonusCountsChipsOnTables: the chips a user has on a table of the
// chat, in any forum topic, count towards the entry limit with the
// balance: a banker whose stake is in the bank, or a player with a bet
// out, gets no bonus while worth the limit.
func TestBonusCountsChipsOnTables(t *testing.T) {
	for _, thread := range []int64{0, 3} {
		t.Run(fmt.Sprintf("thread %d", thread), func(t *testing.T) {
			opts := stacked("6h Th 9h")
			opts.StartingChips = 105 // the entry limit is 100
			s := newStore(t, opts)
			key := TableKey{Chat: group, Thread: thread}
			apply(t, s, key, 1, alice, game.Command{Kind: game.Open}, t0)
			apply(t, s, key, 2, bob, game.Command{Kind: game.Join}, t0)
			a := apply(t, s, key, 3, alice, game.Command{Kind: game.Start}, t0)
			i, _ := a.Table.Banker()
			require.Equal(t, alice.ID, a.Table.Seat(i).User)
			apply(t, s, key, 4, bob, game.Command{Kind: game.Bet, Amount: 10}, t0)

			tests := []struct {
				name     string
				who      User
				balance  int64
				onTables int64
			}{
				{"the banker, stake in the bank", alice, 95, 10},
				{"a player with a bet out", bob, 95, 10},
				{"no chips on a table", carol, 105, 0},
			}
			for _, tc := range tests {
				b, err := s.ClaimBonus(ctx, group, tc.who, t0.Add(time.Minute))
				assert.ErrorIs(t, err, ErrBonusNotNeeded, tc.name)
				assert.Equal(t, Bonus{Balance: tc.balance, OnTables: tc.onTables}, b, tc.name)
			}
			au, err := s.Audit(ctx, group)
			require.NoError(t, err)
			assert.True(t, au.OK, au.Problems)
			assert.Equal(t, int64(3*105), au.Granted, "no bonus granted")
		})
	}
}

func TestGrant(t *testing.T) {
	s := newStore(t, Options{})
	for _, amount := range []int64{0, -5, MaxGrant + 1} {
		_, err := s.Grant(ctx, group, alice, amount, 0, t0)
		assert.ErrorIs(t, err, game.ErrInvalidInput, "amount %d", amount)
	}
	_, err := s.Grant(ctx, 0, alice, 10, 0, t0)
	assert.ErrorIs(t, err, game.ErrInvalidInput)
	_, err = s.Grant(ctx, group, User{}, 10, 0, t0)
	assert.ErrorIs(t, err, game.ErrInvalidInput)
	_, err = s.Stats(ctx, group, alice.ID)
	assert.ErrorIs(t, err, ErrNotFound, "a refused grant creates nobody")

	bal, err := s.Grant(ctx, group, alice, 250, 0, t0)
	require.NoError(t, err)
	assert.Equal(t, int64(1250), bal, "starting chips, then the grant")
	h, err := s.History(ctx, group, alice.ID, 0)
	require.NoError(t, err)
	require.Len(t, h, 2)
	assert.Equal(t, LedgerOwner, h[0].Kind)
	assert.Equal(t, int64(250), h[0].Amount)
	assert.Equal(t, LedgerStart, h[1].Kind)
	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.Equal(t, Audit{Chat: group, Balances: 1250, Granted: 1250, Ledgered: 1250, OK: true}, a)
}

// TestGrantOnce: the update that asked for a grant is recorded with it,
// so that the same update delivered again after a crash grants nothing;
// it shares the chat's update ids with the game's commands.
func TestGrantOnce(t *testing.T) {
	s := newStore(t, Options{})
	bal, err := s.Grant(ctx, group, alice, 100, 40, t0)
	require.NoError(t, err)
	assert.Equal(t, int64(1100), bal)
	before := fileBytes(t, s)
	_, err = s.Grant(ctx, group, alice, 100, 40, t0.Add(time.Minute))
	assert.ErrorIs(t, err, ErrDuplicate)
	assert.Equal(t, before, fileBytes(t, s), "a duplicate writes nothing")
	_, err = s.Apply(ctx, ApplyRequest{Key: TableKey{Chat: group}, UpdateID: 40, User: bob, Command: game.Command{Kind: game.Open}, Now: t0})
	assert.ErrorIs(t, err, ErrDuplicate, "a command of the same update")

	bal, err = s.Grant(ctx, group, alice, 100, 41, t0)
	require.NoError(t, err)
	assert.Equal(t, int64(1200), bal)
	a, err := s.Audit(ctx, group)
	require.NoError(t, err)
	assert.Equal(t, Audit{Chat: group, Balances: 1200, Granted: 1200, Ledgered: 1200, OK: true}, a)
}

func TestLeaderboard(t *testing.T) {
	s := newStore(t, Options{})
	grants := map[User]int64{alice: 500, bob: 2000, carol: 500, dave: 1}
	for u, g := range grants {
		_, err := s.Grant(ctx, group, u, g, 0, t0)
		require.NoError(t, err)
	}
	_, err := s.Grant(ctx, 999, User{ID: 1, Name: "Other"}, 1_000_000, 0, t0)
	require.NoError(t, err)

	tests := []struct {
		n    int
		want []game.UserID
	}{
		{10, []game.UserID{bob.ID, alice.ID, carol.ID, dave.ID}},
		{2, []game.UserID{bob.ID, alice.ID}},
		{0, nil},
		{-1, nil},
	}
	for _, tc := range tests {
		lb, err := s.Leaderboard(ctx, group, tc.n)
		require.NoError(t, err)
		var got []game.UserID
		for _, st := range lb {
			got = append(got, st.User)
		}
		assert.Equal(t, tc.want, got, "n=%d", tc.n)
	}
	lb, err := s.Leaderboard(ctx, group, 1)
	require.NoError(t, err)
	assert.Equal(t, []Standing{{User: bob.ID, Name: "Bob", Balance: 3000}}, lb)
	lb, err = s.Leaderboard(ctx, 12345, 10)
	require.NoError(t, err)
	assert.Empty(t, lb)
}

func TestUnknownChatAndUser(t *testing.T) {
	s := newStore(t, Options{})
	_, err := s.Account(ctx, group, alice, t0)
	require.NoError(t, err)

	_, err = s.Stats(ctx, group, 999)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = s.History(ctx, group, 999, 10)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = s.Stats(ctx, 4242, alice.ID)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = s.Audit(ctx, 4242)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = s.Reveals(ctx, group, 1)
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorIs(t, s.SetMessage(ctx, TableKey{Chat: group}, 10), ErrNotFound)
	assert.ErrorIs(t, s.MigrateChat(ctx, 4242, 4343), ErrNotFound)

	v, err := s.View(ctx, TableKey{Chat: 4242, Thread: 3})
	require.NoError(t, err, "a table never opened is a closed table")
	assert.Equal(t, game.Closed, v.Table.Phase())
	assert.Equal(t, uint64(0), v.Table.Version())
	assert.Equal(t, game.DefaultSettings(), v.Settings.Game)
	cs, err := s.Settings(ctx, 4242)
	require.NoError(t, err)
	assert.Equal(t, ChatSettings{Game: game.DefaultSettings()}, cs)
}

func TestSetMessage(t *testing.T) {
	s := newStore(t, Options{})
	key := TableKey{Chat: group, Thread: 2}
	apply(t, s, key, 1, alice, game.Command{Kind: game.Open}, t0)
	require.NoError(t, s.SetMessage(ctx, key, 777))
	v, err := s.View(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, 777, v.MessageID)
	a := apply(t, s, key, 2, bob, game.Command{Kind: game.Join}, t0)
	assert.Equal(t, 777, a.MessageID, "an applied command keeps the message")
	assert.Equal(t, uint64(2), a.Table.Version())
	assert.ErrorIs(t, s.SetMessage(ctx, key, -1), game.ErrInvalidInput)
}
