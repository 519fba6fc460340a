package gametest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// The players of plays: none is the house (house.ID).
const (
	Alice game.UserID = iota + 1
	Bob
	Carol
	Dave
	Eve
)

// T0 is when every play begins.
var T0 = time.Date(2025, 3, 14, 18, 30, 0, 0, time.UTC)

// Play drives a table through real game commands, as the bot would: each
// applied by game.Apply, which must accept it (else the test fails), the
// balances moved by its transfers. Its zero value is not ready: NewPlay
// makes one.
type Play struct {
	T testing.TB
	// Table is the table as the last command left it.
	Table game.Table
	// Env is what the commands are applied with; its Now moves on with
	// After only.
	Env game.Env
	// Bal holds the balances, Env.Balances.
	Bal game.BalanceMap
	// Names are the names the players give with their commands.
	Names map[game.UserID]string
	// States are the tables the play went through, oldest first.
	States []game.Table
}

// NewPlay returns a play at T0 of a table never opened, with the default
// settings, the decks of rnd, and Alice to Eve holding 1 000 chips each,
// the house 10 000.
func NewPlay(t testing.TB, rnd game.Rand, names map[game.UserID]string) *Play {
	bal := game.BalanceMap{Alice: 1000, Bob: 1000, Carol: 1000, Dave: 1000, Eve: 1000, house.ID: 10000}
	return &Play{T: t, Env: game.Env{Now: T0, Rand: rnd, Settings: game.DefaultSettings(), Balances: bal}, Bal: bal, Names: names}
}

// Do applies a command of kind by user, with their name and amount.
func (p *Play) Do(kind game.CommandKind, user game.UserID, amount int64) *Play {
	p.T.Helper()
	return p.Apply(game.Command{Kind: kind, User: user, Name: p.Names[user], Amount: amount})
}

// Cut cuts the deck the table waits for, as user, with text.
func (p *Play) Cut(user game.UserID, text string) *Play {
	p.T.Helper()
	return p.Apply(game.Command{Kind: game.Cut, User: user, Text: text})
}

// Apply applies cmd at the table's version.
func (p *Play) Apply(cmd game.Command) *Play {
	p.T.Helper()
	cmd.Version = p.Table.Version()
	next, out, err := game.Apply(p.Table, cmd, p.Env)
	require.NoError(p.T, err, "%s by %d", cmd.Kind, cmd.User)
	for _, tr := range out.Transfers {
		p.Bal[tr.User] += tr.Amount
	}
	p.Table = next
	p.States = append(p.States, next)
	return p
}

// After moves the clock on by d.
func (p *Play) After(d time.Duration) *Play {
	p.Env.Now = p.Env.Now.Add(d)
	return p
}

// CutDecks makes the play's next decks decks of the cut
// (docs/FAIRNESS.md), as at the bot's tables: each waits
// game.DefaultCutWait for its cut, which the house never makes, is dealt
// by deck (a Stacked derives what it deals) and takes its seed from a
// chain of NewLinks(7, 1000), from its link 2 on (link 1 served an
// earlier deck). It returns the chain.
func (p *Play) CutDecks(deck *Stacked) *Links {
	p.T.Helper()
	p.Env.CutWait, p.Env.Deriver, p.Env.House = game.DefaultCutWait, deck, house.ID
	links := NewLinks(7, 1000)
	_, err := links.NextLink()
	require.NoError(p.T, err)
	p.Env.Seeds = links
	return links
}
