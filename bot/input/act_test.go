package input

import (
	"context"
	"errors"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// act runs the act of the user named, with data (a button's string,
// parsed by callback.Parse as the app's front end does) at the group's
// table, on the chat's goroutine as a press is, and waits until the bot
// is quiet.
func (f *fixture) act(name, data string) (Acted, error) {
	f.t.Helper()
	d, err := callback.Parse(data)
	require.NoError(f.t, err, "%q parses", data)
	return f.actData(name, d)
}

// actData is act with the data parsed, or forged past what Parse takes.
func (f *fixture) actData(name string, d callback.Data) (Acted, error) {
	f.t.Helper()
	u := f.user(name)
	a := Act{Key: storage.TableKey{Chat: f.group.ID}, Data: d,
		From: storage.User{ID: game.UserID(u.ID), Name: u.FirstName, Language: u.LanguageCode},
		Chat: &tgbotapi.Chat{ID: f.group.ID, Type: f.group.Type, Title: f.group.Title}}
	f.host.mu.Lock()
	acted, err := f.h.Act(context.Background(), a)
	f.host.mu.Unlock()
	f.settle()
	return acted, err
}

// ledger is what a refused act must leave as it was: the table as
// stored, the chat's audit (balances, chips on tables, grants), every
// user's ledger and the table's hash chain (the fairness record).
type ledger struct {
	view    storage.View
	audit   storage.Audit
	entries map[string][]storage.LedgerEntry
	chain   storage.Chain
}

// ledger reads the group's ledger.
func (f *fixture) ledger() ledger {
	f.t.Helper()
	ctx := context.Background()
	l := ledger{view: f.view(f.group.ID), entries: map[string][]storage.LedgerEntry{}}
	var err error
	l.audit, err = f.store.Audit(ctx, f.group.ID)
	require.NoError(f.t, err)
	require.True(f.t, l.audit.OK, "the audit: %v", l.audit.Problems)
	for name, u := range f.users {
		l.entries[name], err = f.store.History(ctx, f.group.ID, game.UserID(u.ID), 100)
		if !errors.Is(err, storage.ErrNotFound) { // never played in the chat: no ledger
			require.NoError(f.t, err)
		}
	}
	l.chain, _, err = f.store.TableChain(ctx, storage.TableKey{Chat: f.group.ID})
	require.NoError(f.t, err)
	return l
}

// TestActAppliesAsAPressDoes: an act with the data of a button takes the
// press's path: applied, answered as the press is, the table stored and
// its message shown as after the press; with no update id, the same act
// again is caught by the version, told as a double tap, and changes
// nothing.
func TestActAppliesAsAPressDoes(t *testing.T) {
	pressed, acting := newFixture(t), newFixture(t)
	pressed.betting()
	acting.betting()
	_, bet := pressed.button(pressed.group.ID, callback.Bet)
	_, same := acting.button(acting.group.ID, callback.Bet)
	require.Equal(t, bet, same, "the twins show the same button")
	answer := pressed.pressButton(pressed.group.ID, "Bob", callback.Bet)

	before := acting.table(acting.group.ID).Version()
	acted, err := acting.act("Bob", bet)
	require.NoError(t, err)
	assert.True(t, acted.Applied)
	assert.Equal(t, answer.Text, acted.Text, "the press's toast")
	assert.Equal(t, answer.ShowAlert, acted.Alert)
	after := acting.view(acting.group.ID)
	assert.Equal(t, before+1, after.Table.Version(), "applied once")
	assert.Equal(t, after.Table.Version(), acted.View.Table.Version(), "the view applied")
	twin := pressed.view(pressed.group.ID)
	assert.Equal(t, twin.Table.Version(), after.Table.Version())
	assert.Equal(t, twin.Balances, after.Balances, "the same chips moved")
	assert.Equal(t, pressed.tableMessage(pressed.group.ID).Text, acting.tableMessage(acting.group.ID).Text,
		"the chat's message shows the act as it shows the press")

	l := acting.ledger()
	again, err := acting.act("Bob", bet)
	require.ErrorIs(t, err, game.ErrOutdated)
	assert.False(t, again.Applied)
	assert.Equal(t, acted.Text, again.Text, "told as a double tap: the first act's toast")
	assert.Equal(t, l, acting.ledger(), "nothing changed")
}

// TestActRefuses: an act that may not apply (drawn for an older version,
// forged data, one not seated, a stand-in) is told why, with an error for
// errors.Is, and leaves the table, the ledger and the fairness record as
// they were.
func TestActRefuses(t *testing.T) {
	tests := []struct {
		name string
		who  string
		// data returns the act's data string at the table.
		data  func(f *fixture) string
		err   error
		want  string
		alert bool
	}{
		{"drawn for an older version", "Bob", func(f *fixture) string {
			return callback.Data{Action: callback.Hit, Version: f.table(f.group.ID).Version() - 1}.String()
		}, game.ErrOutdated, pop(i18n.PopOutdated), false},
		{"a version not reached yet", "Bob", func(f *fixture) string {
			return callback.Data{Action: callback.Bet, Version: f.table(f.group.ID).Version() + 1, Amount: 10}.String()
		}, game.ErrOutdated, pop(i18n.PopOutdated), false},
		{"forged: a setting's button", "Alice", func(f *fixture) string {
			return callback.Data{Action: callback.SettingBack, Version: 1}.String()
		}, ErrBadAct, pop(i18n.PopBadButton), false},
		{"forged: an inline message's opening on a group's table", "Bob", func(*fixture) string { return "p:10:100:en" },
			ErrBadAct, pop(i18n.PopBadButton), false},
		{"forged: an inline message's leaderboard", "Bob", func(f *fixture) string {
			return callback.Data{Action: callback.Top, Version: f.table(f.group.ID).Version()}.String()
		}, ErrBadAct, pop(i18n.PopBadButton), false},
		{"forged: a bet the table does not offer", "Bob", func(f *fixture) string {
			return callback.Data{Action: callback.Bet, Version: f.table(f.group.ID).Version(), Amount: 7}.String()
		}, game.ErrBetNotOffered, pop(i18n.PopNotOffered), false},
		{"a bet by one not seated", "Carol", func(f *fixture) string {
			_, bet := f.button(f.group.ID, callback.Bet)
			return bet
		}, game.ErrNotYourTurn, pop(i18n.PopNotSeated), false},
		{"a bet by one not in the chat", "Dave", func(f *fixture) string {
			_, bet := f.button(f.group.ID, callback.Bet)
			return bet
		}, game.ErrNotYourTurn, pop(i18n.PopNotSeated), false},
		{"the house seated by one not seated", "Carol", func(f *fixture) string {
			return callback.Data{Action: callback.SeatHouse, Version: f.table(f.group.ID).Version()}.String()
		}, ErrRefused, pop(i18n.PopInProgress), false},
		{"the house's button drawn for an older version", "Bob", func(f *fixture) string {
			return callback.Data{Action: callback.SeatHouse, Version: f.table(f.group.ID).Version() - 1}.String()
		}, game.ErrOutdated, pop(i18n.PopOutdated), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.betting()
			data := tt.data(f)
			before := f.ledger()
			acted, err := f.act(tt.who, data)
			require.ErrorIs(t, err, tt.err)
			assert.False(t, acted.Applied)
			assert.Equal(t, tt.want, acted.Text)
			assert.Equal(t, tt.alert, acted.Alert)
			assert.Equal(t, before, f.ledger(), "nothing changed")
		})
	}

	t.Run("forged: a table's version as 0, which Parse refuses", func(t *testing.T) {
		f := newFixture(t)
		f.betting()
		before := f.ledger()
		acted, err := f.actData("Bob", callback.Data{Action: callback.Bet, Amount: 10})
		require.ErrorIs(t, err, ErrBadAct)
		assert.Equal(t, pop(i18n.PopBadButton), acted.Text)
		assert.Equal(t, before, f.ledger(), "nothing changed")
	})

	t.Run("by a stand-in", func(t *testing.T) {
		f := newFixture(t)
		f.betting()
		_, bet := f.button(f.group.ID, callback.Bet)
		d, err := callback.Parse(bet)
		require.NoError(t, err)
		before := f.ledger()
		f.host.mu.Lock()
		acted, err := f.h.Act(context.Background(), Act{Key: storage.TableKey{Chat: f.group.ID}, Data: d,
			From: storage.User{ID: botapi.AnonymousAdmin, Name: "Group"}, Chat: &tgbotapi.Chat{ID: f.group.ID, Type: f.group.Type}})
		f.host.mu.Unlock()
		f.settle()
		require.ErrorIs(t, err, ErrBadAct)
		assert.Equal(t, pop(i18n.PopAnonymous), acted.Text)
		assert.True(t, acted.Alert)
		assert.Equal(t, before, f.ledger(), "nothing changed")
	})
}
