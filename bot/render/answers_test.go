package render

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

// TestRejectionReadsItsView: the answer to a rejected command is told
// from the view it is given: the table (who is to move, who banks), the
// settings' entry limit and the sender's balance; an error of no kind the
// rules give is internal, answered only that something went wrong.
func TestRejectionReadsItsView(t *testing.T) {
	names := plainNames[i18n.EN]
	tb := betting(t, names).Table // Alice banks, Carol is to bet
	settings := game.DefaultSettings()
	settings.EntryLimit = 300
	at := func(user game.UserID, balance int64) Rejected {
		return Rejected{Table: &tb, Settings: settings, User: user, Balance: balance}
	}
	below := fmt.Errorf("%w: need 300, have 40", game.ErrBelowEntryLimit)
	tests := []struct {
		name     string
		err      error
		r        Rejected
		text     string
		alert    bool
		internal bool
	}{
		{"too few chips: the limit, the balance, the bonus", below, at(eve, 40),
			i18n.T(i18n.EN, i18n.PopNeedChips, i18n.Chips(i18n.EN, 300), i18n.Chips(i18n.EN, 40), i18n.Chips(i18n.EN, 100)), true, false},
		{"the banker", game.ErrNotYourTurn, at(alice, 1000), i18n.T(i18n.EN, i18n.PopBanker), false, false},
		{"another's turn: who is to move", game.ErrNotYourTurn, at(dave, 1000),
			i18n.T(i18n.EN, i18n.PopTurn, PlayerName(carol, names[carol], i18n.EN)), false, false},
		{"not seated", game.ErrNotYourTurn, at(eve, 1000), i18n.T(i18n.EN, i18n.PopNotSeated), false, false},
		{"internal", errors.New("disk on fire"), at(dave, 1000), i18n.T(i18n.EN, i18n.PopError), false, true},
	}
	for _, tt := range tests {
		text, alert, internal := Rejection(i18n.EN, tt.err, tt.r, 100)
		assert.Equal(t, tt.text, text, tt.name)
		assert.Equal(t, tt.alert, alert, tt.name)
		assert.Equal(t, tt.internal, internal, tt.name)
	}
}
