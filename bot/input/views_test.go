package input

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestEveryLedgerKindHasAnEntryKind: /history words every kind the ledger
// holds, each as a kind of its own.
func TestEveryLedgerKindHasAnEntryKind(t *testing.T) {
	seen := map[render.EntryKind]storage.LedgerKind{}
	kinds := 0
	for k := storage.LedgerKind(1); k.String() != "unknown"; k++ {
		kinds++
		ek, ok := entryKinds[k]
		require.True(t, ok, "ledger kind %s has no entry kind", k)
		_, twice := seen[ek]
		assert.False(t, twice, "%s and %s are one entry kind", seen[ek], k)
		seen[ek] = k
	}
	assert.Len(t, entryKinds, kinds, "every entry kind is a ledger kind's")
	assert.Equal(t, render.EntryWin, entryKinds[storage.LedgerWin])
	assert.Equal(t, render.EntryStart, entryKinds[storage.LedgerStart])
}

// TestViewsCarryWhatRenderShows: each view holds what the store gave of
// what render shows, in the order given; the players' standings leave out
// the house.
func TestViewsCarryWhatRenderShows(t *testing.T) {
	at := time.Date(2026, 3, 14, 21, 5, 0, 0, time.UTC)

	rows := []storage.Standing{
		{User: 1, Name: "Alice", Balance: 1520, Net: 520, Games: 12},
		{User: house.ID, Name: "House", Balance: 9170, Net: -830, Games: 9},
		{User: 3, Name: "Carol", Balance: 310, Net: -690, Games: 7},
	}
	assert.Equal(t, []render.Standing{
		{Name: "Alice", Balance: 1520, Net: 520, Games: 12},
		{Name: "Carol", Balance: 310, Net: -690, Games: 7},
	}, PlayerStandings(rows))
	assert.Empty(t, PlayerStandings(nil))
	assert.Equal(t, render.Standing{Name: "House", Balance: 9170, Net: -830, Games: 9}, standingView(rows[1]))

	assert.Equal(t, render.Bonus{Amount: 100, Balance: 150, OnTables: 70},
		bonusView(storage.Bonus{Amount: 100, Balance: 150, OnTables: 70, Next: at}))

	assert.Equal(t, []render.Entry{
		{Time: at, Kind: render.EntryWin, Amount: 80, Balance: 1040, Chat: -100, Thread: 7, Game: 4},
		{Time: at, Kind: render.EntryBonus, Amount: 100, Balance: 960, Chat: -100},
	}, historyView([]storage.LedgerEntry{
		{Seq: 9, Time: at, Chat: -100, Thread: 7, User: 2, Kind: storage.LedgerWin, Amount: 80, Balance: 1040, Game: 4, Update: 55},
		{Seq: 8, Time: at, Chat: -100, User: 2, Kind: storage.LedgerBonus, Amount: 100, Balance: 960},
	}))

	assert.Equal(t, render.Tally{Balances: 2900, OnTables: 150, Granted: 3000, Ledgered: 3000, Problems: 2},
		auditView(storage.Audit{Chat: -100, Balances: 2900, OnTables: 150, Granted: 3000, Ledgered: 3000, Problems: []string{"a", "b"}}))

	salt := "sha256-salt-v0 commitment=" + strings.Repeat("ab", 32) + " preimage=6s7h:" + strings.Repeat("0", 32)
	cut := "ochko-cut-v1 head=" + strings.Repeat("cd", 32) + " link=2 seed=" + strings.Repeat("ef", 32) +
		" game=7 circle=1 deck=1 cut=7461703a31 cards=6s7hKc dealt=Kc"
	reveals, err := revealsView([]storage.Reveal{
		{Game: 7, Scheme: game.SchemeSalt, Record: salt},
		{Game: 7, Scheme: game.SchemeCut, Record: cut, CutBy: 3, CutByName: "Carol"},
	})
	require.NoError(t, err)
	require.Len(t, reveals, 2)
	assert.Equal(t, salt, reveals[0].Record.String())
	assert.Empty(t, reveals[0].CutBy)
	assert.Equal(t, cut, reveals[1].Record.String())
	assert.Equal(t, "Carol", reveals[1].CutBy, "the cutter's name")
	_, err = revealsView([]storage.Reveal{{Game: 7, Record: cut + " extra=1"}})
	assert.ErrorIs(t, err, game.ErrInvalidInput, "a record that does not read is an error, not a check")

	assert.Equal(t, []render.Follow{{Chat: -1001, Title: "Casino"}, {Chat: -1002, Title: "Night"}},
		followsView([]storage.Follow{{Chat: -1001, Title: "Casino", Since: at}, {Chat: -1002, Title: "Night"}}))

	v := storage.View{Table: game.Table{}, Settings: storage.ChatSettings{Game: game.DefaultSettings()},
		Balances: map[game.UserID]int64{2: 40, 3: 900}}
	r := rejectedView(&v, 2)
	assert.Same(t, &v.Table, r.Table, "the view's own table")
	assert.Equal(t, game.DefaultSettings(), r.Settings)
	assert.Equal(t, game.UserID(2), r.User)
	assert.EqualValues(t, 40, r.Balance, "the sender's balance, not another's")
}
