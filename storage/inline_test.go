package storage

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// inlineChat is a chat of inline messages as the bot names it: a
// synthetic id below -(1<<60), which no real chat has.
const inlineChat = -(int64(1) << 60) - 4242

// inlineKey is a table on an inline message in inlineChat.
var inlineKey = TableKey{Chat: inlineChat, Thread: 77}

// preset returns settings an inline table may be opened with, unlike the
// defaults in what a test can see: a stake of 20 and bets of a quarter of
// the bank or one stake (offered against a bank of 20: 5 and 20, where
// the defaults offer 5 and 10), shorter deadlines, one knock.
func preset() game.Settings {
	return game.Settings{Stake: 20, EntryLimit: 100,
		BetOptions:  []game.BetOption{{Kind: game.BankShare, N: 4}, {Kind: game.StakeTimes, N: 1}},
		TurnTimeout: 30 * time.Second, LobbyTimeout: 2 * time.Minute, MaxKnocks: 1}
}

// inlineOpen is the request that opens the table at key of the inline
// message id with settings.
func inlineOpen(key TableKey, upd int64, u User, id string, settings game.Settings) ApplyRequest {
	return ApplyRequest{Key: key, UpdateID: upd, User: u, Command: game.Command{Kind: game.Open}, Now: t0,
		Language: u.Language, Inline: &Inline{MessageID: id, Settings: settings}}
}

// TestInlineTable plays a whole game at a table on an inline message:
// the Open that carries the Inline record keeps it, every command after
// it plays by its settings without carrying it, and one that carries
// another changes nothing; every View reports it, the chat's own settings
// stay the defaults and its language is decided as any chat's. Chips,
// ledger, leaderboard and deadlines are the chat's, as for any table,
// and add up after the game.
func TestInlineTable(t *testing.T) {
	s := newStore(t, stacked(fullGameDeck))
	var upd updates
	now := t0
	step := func(u User, cmd game.Command) Applied {
		now = now.Add(time.Second)
		return apply(t, s, inlineKey, upd.next(), u, cmd, now)
	}

	a, err := s.Apply(ctx, inlineOpen(inlineKey, upd.next(), bob, "AgAAAD1", preset()))
	require.NoError(t, err)
	want := &Inline{MessageID: "AgAAAD1", Settings: preset()}
	assert.Equal(t, want, a.Inline)
	assert.True(t, preset().Equal(a.Settings.Game), "the View shows what the table plays by")
	assert.Equal(t, "en", a.Settings.Language, "the chat's language, decided by the first Open")
	timers, err := s.Timers(ctx)
	require.NoError(t, err)
	assert.Equal(t, []Timer{{Key: inlineKey, Version: 1, Deadline: t0.Add(2 * time.Minute)}}, timers, "the preset's lobby time")

	// Bob opened it, so he deals first; Alice and Carol join.
	step(alice, game.Command{Kind: game.Join})
	other := Inline{MessageID: "AgAAAD2", Settings: game.DefaultSettings()}
	j, err := s.Apply(ctx, ApplyRequest{Key: inlineKey, UpdateID: upd.next(), User: carol, Command: game.Command{Kind: game.Join}, Now: now, Inline: &other})
	require.NoError(t, err, "a request that carries another Inline applies")
	assert.Equal(t, want, j.Inline, "and changes nothing of the stored one")
	a = step(bob, game.Command{Kind: game.Start})
	require.Equal(t, game.Betting, a.Table.Phase())
	banker, _ := a.Table.Banker()
	require.Equal(t, bob.ID, a.Table.Seat(banker).User)
	assert.Equal(t, int64(20), a.Table.Chips(), "the preset's stake in the bank")
	assert.Equal(t, int64(980), a.Balances[bob.ID])
	offered := func(tb *game.Table, balance int64) []int64 {
		var amounts []int64
		for _, o := range tb.Offers(balance) {
			amounts = append(amounts, o.Amount)
		}
		return amounts
	}
	assert.Equal(t, []int64{5, 20}, offered(&a.Table, 1000))
	_, err = s.Apply(ctx, ApplyRequest{Key: inlineKey, UpdateID: upd.next(), User: alice, Command: game.Command{Kind: game.Bet, Amount: 10}, Now: now})
	assert.ErrorIs(t, err, game.ErrBetNotOffered, "the chat's defaults would offer 10")

	// Alice gets A♥ A♠, Golden 21, and wins 5 of the bank; Carol draws to
	// 19 and loses her bet to the banker's 21.
	step(alice, game.Command{Kind: game.Bet, Amount: 5})
	a = step(alice, game.Command{Kind: game.Hit})
	require.Equal(t, game.Betting, a.Table.Phase())
	carolBet := a.Table.Offers(1000)[0].Amount
	step(carol, game.Command{Kind: game.Bet, Amount: carolBet})
	step(carol, game.Command{Kind: game.Hit})
	a = step(carol, game.Command{Kind: game.Stand})
	require.Equal(t, game.Lobby, a.Table.Phase())
	assert.Equal(t, map[game.UserID]int64{bob.ID: 995 + carolBet, alice.ID: 1005, carol.ID: 1000 - carolBet}, a.Balances)
	assert.Equal(t, want, a.Inline)

	v, err := s.View(ctx, inlineKey)
	require.NoError(t, err)
	assert.Equal(t, encoded(t, &a.Table), encoded(t, &v.Table))
	v.Table, a.Table = game.Table{}, game.Table{} // what they hold beyond their encoding differs
	assert.Equal(t, a.View, v, "the View reports what the last command's did")
	cs, err := s.Settings(ctx, inlineChat)
	require.NoError(t, err)
	assert.True(t, game.DefaultSettings().Equal(cs.Game), "the chat's settings are not the table's")
	lb, err := s.Leaderboard(ctx, inlineChat, 10)
	require.NoError(t, err)
	assert.Len(t, lb, 3)

	// Another inline message of the chat is another table with its own
	// settings, and the same chips; a group's table has no Inline.
	second := TableKey{Chat: inlineChat, Thread: 78}
	b, err := s.Apply(ctx, inlineOpen(second, upd.next(), alice, "AgAAAD3", game.DefaultSettings()))
	require.NoError(t, err)
	assert.Equal(t, "AgAAAD3", b.Inline.MessageID)
	assert.True(t, game.DefaultSettings().Equal(b.Settings.Game))
	assert.Equal(t, int64(1005), b.Balances[alice.ID])
	g := apply(t, s, TableKey{Chat: group}, upd.next(), alice, game.Command{Kind: game.Open}, now)
	assert.Nil(t, g.Inline)
	keys, err := s.ChatTables(ctx, inlineChat)
	require.NoError(t, err)
	assert.Equal(t, []TableKey{inlineKey, second}, keys)

	au, err := s.Audit(ctx, inlineChat)
	require.NoError(t, err)
	assert.Equal(t, Audit{Chat: inlineChat, Balances: 3000, Granted: 3000, Ledgered: 3000, OK: true}, au)
	requireAudited(t, s)
}

// TestInlineRequestChecks: a request whose Inline is invalid, or that
// would make a table of a group, or one opened without it, an inline
// message's, is game.ErrInvalidInput and writes nothing.
func TestInlineRequestChecks(t *testing.T) {
	bad := preset()
	bad.Stake = 0
	tests := []struct {
		name string
		key  TableKey
		id   string
		set  game.Settings
		want error
		text string
	}{
		{"an empty message id", inlineKey, "", preset(), game.ErrInvalidInput, "inline message id is empty"},
		{"a message id of 65 bytes", inlineKey, strings.Repeat("x", 65), preset(), game.ErrInvalidInput, "inline message id of 65 bytes, at most 64"},
		{"invalid settings", inlineKey, "AgAAAD1", bad, game.ErrInvalidSettings, "stake must be"},
		{"no settings", inlineKey, "AgAAAD1", game.Settings{}, game.ErrInvalidSettings, "inline message's settings"},
		{"a group's table", TableKey{Chat: group}, "AgAAAD1", preset(), game.ErrInvalidInput, "is no chat of inline messages"},
		{"a group's table never opened", TableKey{Chat: group, Thread: 4}, "AgAAAD1", preset(), game.ErrInvalidInput, "is no chat of inline messages"},
		{"a table opened without one", TableKey{Chat: inlineChat}, "AgAAAD1", preset(), game.ErrInvalidInput, "opened without an inline message"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, Options{})
			apply(t, s, TableKey{Chat: group}, 1, alice, game.Command{Kind: game.Open}, t0)
			apply(t, s, TableKey{Chat: inlineChat}, 1, alice, game.Command{Kind: game.Open}, t0)
			before := fileBytes(t, s)
			_, err := s.Apply(ctx, inlineOpen(tc.key, 2, bob, tc.id, tc.set))
			assert.ErrorIs(t, err, game.ErrInvalidInput)
			assert.ErrorIs(t, err, tc.want)
			assert.ErrorContains(t, err, tc.text)
			assert.Equal(t, before, fileBytes(t, s), "nothing written")
		})
	}
	s := newStore(t, Options{})
	a, err := s.Apply(ctx, inlineOpen(inlineKey, 1, bob, strings.Repeat("x", MaxInlineMessageID), preset()))
	require.NoError(t, err, "a message id of 64 bytes")
	assert.Len(t, a.Inline.MessageID, MaxInlineMessageID)
}

// TestInlineChat: the chats of inline messages are those below -(1<<60),
// where no Telegram chat is.
func TestInlineChat(t *testing.T) {
	tests := []struct {
		chat int64
		want bool
	}{
		{inlineChat, true},
		{-(1 << 60) - 1, true},
		{math.MinInt64, true},
		{-(1 << 60), false},
		{group, false},
		{-(1 << 52), false},
		{-1, false},
		{int64(alice.ID), false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, InlineChat(tc.chat), "chat %d", tc.chat)
	}
}

// TestInlineRecordInTheCommandsTransaction: the Inline record is written
// by the command that opens the table, in its transaction: a command the
// game rejects writes none, and one whose transaction fails leaves none;
// the request's chained command plays by its settings too.
func TestInlineRecordInTheCommandsTransaction(t *testing.T) {
	var in injector
	s := newFaultyStore(t, Options{}, in.faults())
	join := ApplyRequest{Key: inlineKey, UpdateID: 1, User: bob, Command: game.Command{Kind: game.Join}, Now: t0,
		Inline: &Inline{MessageID: "AgAAAD1", Settings: preset()}}
	_, err := s.Apply(ctx, join)
	require.ErrorIs(t, err, game.ErrNoTable)
	v, err := s.View(ctx, inlineKey)
	require.NoError(t, err)
	assert.Nil(t, v.Inline, "a rejected command writes no record")

	boom := errors.New("injected")
	in.failAfter(func(_ TableKey, stage string) error {
		if stage == applySteps[len(applySteps)-1].name {
			return boom
		}
		return nil
	})
	_, err = s.Apply(ctx, inlineOpen(inlineKey, 2, bob, "AgAAAD1", preset()))
	require.ErrorIs(t, err, boom)
	v, err = s.View(ctx, inlineKey)
	require.NoError(t, err)
	assert.Nil(t, v.Inline, "the record rolls back with the table")
	assert.Zero(t, v.Table.Version())
	in.clear()

	// An entry limit above the starting chips: nobody sits, as the
	// defaults would let them.
	high := preset()
	high.EntryLimit = 2000
	req := inlineOpen(inlineKey, 3, bob, "AgAAAD1", high)
	req.Then = &Chained{User: carol, Command: game.Command{Kind: game.Join}}
	a, err := s.Apply(ctx, req)
	require.NoError(t, err)
	assert.ErrorIs(t, a.ThenErr, game.ErrBelowEntryLimit)
	assert.Zero(t, a.Table.NumSeats())
	assert.Equal(t, high.EntryLimit, a.Inline.Settings.EntryLimit)
	requireAudited(t, s)
}

// TestAuditInlineRecords: an inline message's record whose table is gone,
// that does not decode, or that a group's table has, is a problem the
// audit names; a View of a table whose record does not decode reports the
// file damaged.
func TestAuditInlineRecords(t *testing.T) {
	valid, err := encodeInline(&Inline{MessageID: "AgAAAD9", Settings: preset()})
	require.NoError(t, err)
	tests := []struct {
		name string
		k    []byte
		v    []byte
		want string
	}{
		{"no table", tableKeyBytes(TableKey{Chat: inlineChat, Thread: 5}), valid, "thread 5 has an inline message's record, and no table"},
		{"a value that does not decode", tableKeyBytes(inlineKey), []byte{recordFormat, 0xff}, "the inline message's record of thread 77"},
		{"settings that are no table's", tableKeyBytes(inlineKey), append([]byte{recordFormat, 1, 'x', recordFormat}, `{"language":"en"}`...), "the inline message's record of thread 77"},
		{"a key of 9 bytes", append(chatKey(inlineChat), 1), valid, "an inline message's record has the key"},
		{"a group's table", tableKeyBytes(TableKey{Chat: group}), valid, "thread 0 has an inline message's record, in a chat of no inline messages"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, Options{})
			_, err := s.Apply(ctx, inlineOpen(inlineKey, 1, alice, "AgAAAD1", preset()))
			require.NoError(t, err)
			apply(t, s, TableKey{Chat: group}, 1, alice, game.Command{Kind: game.Open}, t0)
			require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
				return tx.Bucket(bucketInline).Put(tc.k, tc.v)
			}))
			a, err := s.Audit(ctx, getInt(tc.k))
			require.NoError(t, err)
			assert.False(t, a.OK)
			require.Len(t, a.Problems, 1)
			assert.Contains(t, a.Problems[0], tc.want)
		})
	}
	s := newStore(t, Options{})
	_, err = s.Apply(ctx, inlineOpen(inlineKey, 1, alice, "AgAAAD1", preset()))
	require.NoError(t, err)
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketInline).Put(tableKeyBytes(inlineKey), []byte{recordFormat, 0xff})
	}))
	_, err = s.View(ctx, inlineKey)
	assert.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "inline message of chat")
	_, err = s.Apply(ctx, ApplyRequest{Key: inlineKey, UpdateID: 2, User: bob, Command: game.Command{Kind: game.Join}, Now: t0})
	assert.ErrorIs(t, err, ErrCorrupt)
}

// TestCopiesKeepInlineTables: a backup (of the open store or of the
// closed file) and a compacted copy keep the tables on inline messages,
// which play on by their settings.
func TestCopiesKeepInlineTables(t *testing.T) {
	tests := []struct {
		name string
		copy func(t *testing.T, src, dst string) error
	}{
		{"backup", func(t *testing.T, src, dst string) error {
			s := openAt(t, src, Options{NoSync: true})
			defer s.Close()
			return s.BackupFile(ctx, dst)
		}},
		{"backup of the closed file", func(_ *testing.T, src, dst string) error {
			return BackupClosed(ctx, src, dst, time.Second)
		}},
		{"compact", func(_ *testing.T, src, dst string) error { return Compact(ctx, src, dst) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src, dst := filepath.Join(dir, "src.db"), filepath.Join(dir, "dst.db")
			s, err := Open(src, Options{NoSync: true})
			require.NoError(t, err)
			a, err := s.Apply(ctx, inlineOpen(inlineKey, 1, alice, "AgAAAD1", preset()))
			require.NoError(t, err)
			require.NoError(t, s.Close())

			require.NoError(t, tc.copy(t, src, dst))
			c := openAt(t, dst, Options{NoSync: true})
			v, err := c.View(ctx, inlineKey)
			require.NoError(t, err)
			assert.Equal(t, a.Inline, v.Inline)
			j := apply(t, c, inlineKey, 2, bob, game.Command{Kind: game.Join}, t0)
			assert.Equal(t, t0.Add(preset().LobbyTimeout), j.Table.Deadline().UTC(), "the copy plays by the table's settings")
			requireAudited(t, c)
		})
	}
}

// TestMigrateChatAndInlineTables: a group's migration to a supergroup
// leaves the chats of inline messages as they are. Were such a chat ever
// migrated (the bot never does), each Inline record would go where its
// table goes: moved with it, or deleted with a table cancelled for the
// target's own.
func TestMigrateChatAndInlineTables(t *testing.T) {
	t.Run("a group", func(t *testing.T) {
		s := newStore(t, Options{})
		apply(t, s, TableKey{Chat: group}, 1, alice, game.Command{Kind: game.Open}, t0)
		in, err := s.Apply(ctx, inlineOpen(inlineKey, 1, bob, "AgAAAD1", preset()))
		require.NoError(t, err)
		require.NoError(t, s.MigrateChat(ctx, group, supergroup))
		v, err := s.View(ctx, inlineKey)
		require.NoError(t, err)
		assert.Equal(t, in.Inline, v.Inline)
		assert.Equal(t, in.Table.Version(), v.Table.Version())
		g, err := s.View(ctx, TableKey{Chat: supergroup})
		require.NoError(t, err)
		assert.Nil(t, g.Inline)
		timers, err := s.Timers(ctx)
		require.NoError(t, err)
		assert.Len(t, timers, 2)
		requireAudited(t, s)
	})
	t.Run("a chat of inline messages", func(t *testing.T) {
		s := newStore(t, Options{})
		to := inlineChat - 1
		moved, err := s.Apply(ctx, inlineOpen(inlineKey, 1, alice, "AgAAAD1", preset()))
		require.NoError(t, err)
		_, err = s.Apply(ctx, inlineOpen(TableKey{Chat: inlineChat, Thread: 78}, 2, alice, "AgAAAD2", preset()))
		require.NoError(t, err)
		kept, err := s.Apply(ctx, inlineOpen(TableKey{Chat: to, Thread: 78}, 1, bob, "AgAAAD3", game.DefaultSettings()))
		require.NoError(t, err)
		require.NoError(t, s.MigrateChat(ctx, inlineChat, to))

		v, err := s.View(ctx, TableKey{Chat: to, Thread: 77})
		require.NoError(t, err)
		assert.Equal(t, moved.Inline, v.Inline)
		v, err = s.View(ctx, TableKey{Chat: to, Thread: 78})
		require.NoError(t, err)
		assert.Equal(t, kept.Inline, v.Inline, "the target's own table keeps its record")
		require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
			assert.Empty(t, keysWithPrefix(tx.Bucket(bucketInline), chatKey(inlineChat)), "no record left behind")
			return nil
		}))
		requireAudited(t, s)
	})
}

// TestInlineIDs: the chat of a chat_instance is one id for every press in
// it, another for another chat, below every id Telegram gives a chat; the
// thread of an inline message is positive, another for another message.
func TestInlineIDs(t *testing.T) {
	assert.Equal(t, InlineChatID("-123"), InlineChatID("-123"), "one chat")
	assert.NotEqual(t, InlineChatID("-123"), InlineChatID("-456"))
	assert.True(t, InlineChat(InlineChatID("-123")))
	assert.False(t, InlineChat(-1001234567890123), "no chat Telegram numbers")
	assert.NotEqual(t, InlineThreadID("AAAA"), InlineThreadID("BBBB"))
	assert.Positive(t, InlineThreadID("AAAA"))
}
