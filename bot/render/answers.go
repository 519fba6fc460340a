package render

import (
	"errors"
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

// The answers to what a player did: the toast of a press that applied,
// and the answer to a command the rules rejected. Callback answers are
// not paced, while the table's edit may wait seconds for Telegram's
// pacing, so a toast carries what the player needs now.

// Toast is the short answer to an accepted press: after Hit, the card and
// the new score; after Stand, the duel's result; after a bet, the player's
// card and the next step; after a start, who bets first, and so after a
// join that took the last seat of a table that starts by itself
// (Settings.AutoStart). tb is the table after the command (for a
// redelivered press, as it is now).
func Toast(lang i18n.Lang, cmd game.Command, out game.Outcome, tb *game.Table) string {
	switch cmd.Kind {
	case game.Join:
		if started := startToast(lang, cmd, out, tb); started != "" {
			return started
		}
		return i18n.T(lang, i18n.PopJoined)
	case game.Leave:
		return leaveToast(lang, cmd, out)
	case game.Start:
		return startToast(lang, cmd, out, tb)
	case game.Bet:
		return betToast(lang, cmd, tb)
	case game.Hit:
		return hitToast(lang, out)
	case game.Stand:
		for _, e := range out.Events {
			if e.Kind == game.EventDuelEnded {
				return StandToast(lang, e.Duel)
			}
		}
	case game.Cut:
		return cutToast(lang, cmd, out)
	}
	return ""
}

// leaveToast tells the player who left that they did, and when they left
// a duel they had bet in, that the bet stays in the bank.
func leaveToast(lang i18n.Lang, cmd game.Command, out game.Outcome) string {
	for _, e := range out.Events {
		if e.Kind == game.EventDuelEnded && e.Duel.User == cmd.User && e.Duel.Result == game.Forfeit {
			return i18n.T(lang, i18n.PopLeftBet, i18n.Number(e.Duel.Bet))
		}
	}
	return i18n.T(lang, i18n.PopLeft)
}

// betToast tells the bet, and while the player is to draw (the table has
// not moved on), their card and the choice they have.
func betToast(lang i18n.Lang, cmd game.Command, tb *game.Table) string {
	amount := i18n.Number(cmd.Amount)
	if i, ok := tb.Turn(); ok && tb.Phase() == game.Drawing && tb.Seat(i).User == cmd.User {
		if h := tb.Seat(i).Hand; h.Len() == 1 {
			return i18n.T(lang, i18n.PopBetCard, amount, i18n.Card(lang, h.Card(0)), strconv.Itoa(h.Score()))
		}
	}
	return i18n.T(lang, i18n.PopBet, amount)
}

// hitToast tells the card drawn and the new score, or how the duel ended.
func hitToast(lang i18n.Lang, out game.Outcome) string {
	for _, e := range out.Events {
		if e.Kind != game.EventDrew {
			continue
		}
		card := i18n.Card(lang, e.Card)
		var hand game.Hand
		for _, d := range out.Events {
			if d.Kind == game.EventDuelEnded {
				hand = d.Duel.Hand
			}
		}
		switch {
		case e.Score > 21:
			return i18n.T(lang, i18n.PopHitBust, card, strconv.Itoa(e.Score))
		case e.Score == 21 && hand.Golden():
			return i18n.T(lang, i18n.PopHitGolden, card)
		case e.Score == 21 && hand.FivePictures():
			return i18n.T(lang, i18n.PopHitFivePictures, card)
		case e.Score == 21:
			return i18n.T(lang, i18n.PopHitTwentyOne, card)
		}
		return i18n.T(lang, i18n.PopHit, card, strconv.Itoa(e.Score))
	}
	return ""
}

// StandToast tells the score stood at and the duel's result.
func StandToast(lang i18n.Lang, d game.Duel) string {
	mine, banker, bet := strconv.Itoa(d.Hand.Score()), strconv.Itoa(d.Banker.Score()), i18n.Number(d.Bet)
	switch d.Result {
	case game.PlayerHigher:
		return i18n.T(lang, i18n.PopStandWin, mine, banker, bet)
	case game.BankerBust:
		return i18n.T(lang, i18n.PopStandBankerBust, mine, banker, bet)
	case game.Tie:
		return i18n.T(lang, i18n.PopStandTie, mine, banker, bet)
	case game.BankerHigher:
		return i18n.T(lang, i18n.PopStandLose, mine, banker, bet)
	}
	return i18n.T(lang, i18n.PopStand, mine)
}

// cutToast tells the cutter the deck is cut, and when they bet first,
// their card.
func cutToast(lang i18n.Lang, cmd game.Command, out game.Outcome) string {
	for _, e := range out.Events {
		if e.Kind != game.EventTurn || e.User != cmd.User {
			continue
		}
		for _, d := range out.Events {
			if d.Kind == game.EventDealt && d.User == cmd.User {
				return i18n.T(lang, i18n.PopCutYouBet, i18n.Card(lang, d.Card), strconv.Itoa(d.Card.Points()))
			}
		}
	}
	return i18n.T(lang, i18n.PopCut)
}

// startToast tells who bets first: the presser, with their card, or
// another player; or, when the deck waits for its cut, who cuts it;
// nothing when nobody is to bet (the game ended at once).
func startToast(lang i18n.Lang, cmd game.Command, out game.Outcome, tb *game.Table) string {
	for _, e := range out.Events {
		if e.Kind != game.EventCutAsked || e.User == 0 {
			continue
		}
		if e.User == cmd.User {
			return i18n.T(lang, i18n.PopStartCutYou)
		}
		if i, ok := tb.SeatOf(e.User); ok {
			return i18n.T(lang, i18n.PopStartCutOther, PlayerName(e.User, tb.Seat(i).Name, lang))
		}
	}
	for _, e := range out.Events {
		if e.Kind != game.EventTurn {
			continue
		}
		if e.User != cmd.User {
			if i, ok := tb.SeatOf(e.User); ok {
				return i18n.T(lang, i18n.PopStartOther, PlayerName(e.User, tb.Seat(i).Name, lang))
			}
			return ""
		}
		for _, d := range out.Events {
			if d.Kind == game.EventDealt && d.User == cmd.User {
				return i18n.T(lang, i18n.PopStartYou, i18n.Card(lang, d.Card), strconv.Itoa(d.Card.Points()))
			}
		}
	}
	return ""
}

// Rejection is the answer to a command of r.User that err rejected, as
// r.Table stands, and whether it should be an alert rather than a toast:
// an answer for each kind of error (game.Kind), the reason told where it
// helps the user. dailyBonus is what /bonus grants, for one who has too
// few chips to sit down. An internal error (of no kind the rules give) is
// answered only "something went wrong", and reported by internal true:
// the caller logs it.
func Rejection(lang i18n.Lang, err error, r Rejected, dailyBonus int64) (text string, alert, internal bool) {
	t, user := r.Table, r.User
	switch game.Kind(err) {
	case game.KindOutdated:
		return i18n.T(lang, i18n.PopOutdated), false, false
	case game.KindNotYourTurn:
		seat, seated := t.SeatOf(user)
		banker, inGame := t.Banker()
		switch {
		case !seated || t.Seat(seat).Leaving:
			return i18n.T(lang, i18n.PopNotSeated), false, false
		case inGame && seat == banker:
			return i18n.T(lang, i18n.PopBanker), false, false
		}
		if i, ok := t.Turn(); ok {
			return i18n.T(lang, i18n.PopTurn, PlayerName(t.Seat(i).User, t.Seat(i).Name, lang)), false, false
		}
		return i18n.T(lang, i18n.PopNotNow), false, false
	case game.KindInvalid:
		switch {
		case errors.Is(err, game.ErrBetNotOffered):
			return i18n.T(lang, i18n.PopNotOffered), false, false
		case errors.Is(err, game.ErrInvalidSettings):
			return i18n.T(lang, i18n.PopInvalid, i18n.SettingsProblem(lang, err)), true, false
		case errors.Is(err, game.ErrCutTooLong):
			return i18n.T(lang, i18n.PopCutTooLong, i18n.Number(game.MaxCutLen)), false, false
		}
		return i18n.T(lang, i18n.PopBadButton), false, false
	case game.KindNotAllowed:
		text, alert := notAllowed(lang, err, r, dailyBonus)
		return text, alert, false
	}
	return i18n.T(lang, i18n.PopError), false, true
}

// notAllowed returns the answer to a command the table's state does not
// allow (game.KindNotAllowed), and whether it should be an alert.
func notAllowed(lang i18n.Lang, err error, r Rejected, dailyBonus int64) (string, bool) {
	switch {
	case errors.Is(err, game.ErrBelowEntryLimit):
		return i18n.T(lang, i18n.PopNeedChips, i18n.Chips(lang, r.Settings.EntryLimit),
			i18n.Chips(lang, r.Balance), i18n.Chips(lang, dailyBonus)), true
	case errors.Is(err, game.ErrAlreadySeated):
		return i18n.T(lang, i18n.PopSeated), false
	case errors.Is(err, game.ErrTableFull):
		return i18n.T(lang, i18n.PopFull), false
	case errors.Is(err, game.ErrNotSeated):
		return i18n.T(lang, i18n.PopNotSeated), false
	case errors.Is(err, game.ErrNotEnoughPlayers):
		return i18n.T(lang, i18n.PopNeedPlayers, i18n.Count(lang, i18n.NounPlayers, game.MinPlayers)), false
	case errors.Is(err, game.ErrGameInProgress):
		return i18n.T(lang, i18n.PopInProgress), false
	case errors.Is(err, game.ErrNoTable):
		return i18n.T(lang, i18n.PopNoTable), false
	case errors.Is(err, game.ErrTableOpen):
		return i18n.T(lang, i18n.NewGameOpen), false
	case errors.Is(err, game.ErrNoCutAsked):
		return i18n.T(lang, i18n.PopNoCutAsked), false
	case errors.Is(err, game.ErrAlreadyCut):
		return i18n.T(lang, i18n.PopCutAlready), false
	case errors.Is(err, game.ErrCutTooLate):
		return i18n.T(lang, i18n.PopCutTooLate), false
	case errors.Is(err, game.ErrHouseCannotCut):
		return i18n.T(lang, i18n.PopHouseNoCut), false
	}
	// The wrong phase, a timeout too early.
	return i18n.T(lang, i18n.PopNotNow), false
}
