package input

import (
	"fmt"

	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// The views render draws the replies from, made from what the store
// gives: one function each, and render knows nothing of storage.

// rejectedView is what the answer to a command of user that the table of
// v rejected reads (render.Rejection).
func rejectedView(v *storage.View, user game.UserID) render.Rejected {
	return render.Rejected{Table: &v.Table, Settings: v.Settings.Game, User: user, Balance: v.Balances[user]}
}

// bonusView is a claim of the daily bonus as its answer tells it.
func bonusView(b storage.Bonus) render.Bonus {
	return render.Bonus{Amount: b.Amount, Balance: b.Balance, OnTables: b.OnTables}
}

// standingView is a line of the leaderboard as render draws it.
func standingView(s storage.Standing) render.Standing {
	return render.Standing{Name: s.Name, Balance: s.Balance, Net: s.Net, Games: s.Games}
}

// PlayerStandings are the lines of a chat's leaderboard as render draws
// them (render.Top, render.TopAlert), in the order given: the players',
// without the house's, whose chips are no player's (shown apart, if at
// all).
func PlayerStandings(rows []storage.Standing) []render.Standing {
	players := make([]render.Standing, 0, len(rows))
	for _, s := range rows {
		if s.User != house.ID {
			players = append(players, standingView(s))
		}
	}
	return players
}

// entryKinds are the ledger's kinds as /history words them.
var entryKinds = map[storage.LedgerKind]render.EntryKind{
	storage.LedgerStart:  render.EntryStart,
	storage.LedgerBonus:  render.EntryBonus,
	storage.LedgerOwner:  render.EntryOwner,
	storage.LedgerStake:  render.EntryStake,
	storage.LedgerBet:    render.EntryBet,
	storage.LedgerWin:    render.EntryWin,
	storage.LedgerRefund: render.EntryRefund,
	storage.LedgerBank:   render.EntryBank,
}

// historyView is a user's ledger entries as /history draws them, in the
// order given.
func historyView(es []storage.LedgerEntry) []render.Entry {
	out := make([]render.Entry, len(es))
	for i, e := range es {
		out[i] = render.Entry{Time: e.Time, Kind: entryKinds[e.Kind], Amount: e.Amount, Balance: e.Balance,
			Chat: e.Chat, Thread: e.Thread, Game: e.Game}
	}
	return out
}

// auditView is a check of a chat's chips as /audit tells it.
func auditView(a storage.Audit) render.Tally {
	return render.Tally{Balances: a.Balances, OnTables: a.OnTables, Granted: a.Granted, Ledgered: a.Ledgered,
		OK: a.OK, Problems: len(a.Problems)}
}

// revealsView is the decks revealed in a game as /verify lists them, in
// the order given: each record read back (game.ParseRecord), with the
// cutter's name. A record that does not read is an internal error.
func revealsView(rs []storage.Reveal) ([]render.Reveal, error) {
	out := make([]render.Reveal, len(rs))
	for i, r := range rs {
		rec, err := game.ParseRecord(r.Record)
		if err != nil {
			return nil, fmt.Errorf("the record of a deck of game %d of table %v: %w", r.Game, r.Key, err)
		}
		out[i] = render.Reveal{Record: rec, CutBy: r.CutByName}
	}
	return out, nil
}

// followsView is the groups a user follows as the list of /notify shows
// them, in the order given.
func followsView(fs []storage.Follow) []render.Follow {
	out := make([]render.Follow, len(fs))
	for i, f := range fs {
		out[i] = render.Follow{Chat: f.Chat, Title: f.Title}
	}
	return out
}
