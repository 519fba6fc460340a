// Package house is the house's strategy: the moves the bot makes when it
// sits at a table as a player. To the rules the house is one more player
// (package game knows nothing of it); this package decides, as a pure
// function of the table, the command the house issues, and when.
//
// The strategy, which docs/RULES.md tells players:
//   - Bet: half the bank. The house picks the largest bet offered that is
//     at most half the bank; when every offer is more, the smallest.
//   - Draw: the house draws while its hand scores under 15, or under 16
//     when its bet is at most a quarter of the bank (a small bet, worth a
//     bolder hand), and stands from there. Against a banker who draws to
//     17 and wins ties, standing from 15 loses the least: about 12 % of
//     the bet, against 16 % for standing from 17 (a simulation of two
//     million duels for each threshold).
//   - As banker it decides nothing: the rules draw the banker's hand.
//   - It never cuts a deck: Move has nothing for it while a deck waits
//     for its cut (game.Cutting), and the rules refuse its cut when told
//     who it is (game.Env.House).
//
// It uses no randomness: a game with the house plays the same from the
// same decks. It thinks for Delay before each move, 1 to 2 seconds drawn
// from the table's version, so that its moves land as a player's would.
package house

import (
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// ID is the house's user id in every chat. Telegram's user ids are
// positive, so no Telegram user is ever the house; a fixed id, rather than
// the bot's own, keeps the house's account and seats the same if the bot's
// token (and so its id) changes, and lets every package tell the house
// without being told the bot's id.
const ID game.UserID = -1

// The strategy's numbers.
const (
	// BetShare: the house bets at most the bank divided by BetShare.
	BetShare = 2
	// StandAt is the score from which the house stands.
	StandAt = 15
	// BoldStandAt is the score from which it stands with a small bet.
	BoldStandAt = 16
	// SmallBetShare: a bet is small when at most the bank divided by
	// SmallBetShare.
	SmallBetShare = 4
)

// The house's thinking time: from MinDelay to MinDelay+DelaySpread.
const (
	MinDelay    = time.Second
	DelaySpread = time.Second
)

// Move returns the command player would issue at t by the house's
// strategy, given their balance, and whether they have one to issue: it is
// their turn to bet, draw or stand. The command carries t's version.
func Move(t *game.Table, player game.UserID, balance int64) (game.Command, bool) {
	i, ok := t.Turn()
	if !ok || t.Seat(i).User != player {
		return game.Command{}, false
	}
	s := t.Seat(i)
	cmd := game.Command{User: player, Version: t.Version()}
	switch t.Phase() {
	case game.Betting:
		offers := t.Offers(balance)
		if len(offers) == 0 {
			return game.Command{}, false // the rules sit such a player out
		}
		cmd.Kind, cmd.Amount = game.Bet, Bet(offers, t.Bank())
	case game.Drawing:
		cmd.Kind = game.Stand
		if s.Hand.Score() < Threshold(t.Bank(), s.Bet) {
			cmd.Kind = game.Hit
		}
	default:
		return game.Command{}, false
	}
	return cmd, true
}

// Bet returns the house's bet among offers (smallest first, as
// game.Table.Offers gives them) against bank: the largest at most
// bank/BetShare, else the smallest. offers must not be empty.
func Bet(offers []game.Offer, bank int64) int64 {
	pick := offers[0].Amount
	for _, o := range offers {
		if o.Amount <= bank/BetShare {
			pick = max(pick, o.Amount)
		}
	}
	return pick
}

// Threshold returns the score under which the house draws, with bet on the
// table against bank: BoldStandAt for a small bet (at most
// bank/SmallBetShare), else StandAt.
func Threshold(bank, bet int64) int {
	if bet <= bank/SmallBetShare {
		return BoldStandAt
	}
	return StandAt
}

// Delay returns how long the house thinks before its move at t: from
// MinDelay to MinDelay+DelaySpread, drawn from the table's game and
// version, so the same table always waits the same.
func Delay(t *game.Table) time.Duration {
	x := t.Version() ^ t.Game()<<40
	// splitmix64's finaliser: neighbouring versions get unrelated delays.
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return MinDelay + time.Duration(x%uint64(DelaySpread/time.Millisecond))*time.Millisecond
}

// MoveAt returns when the house moves at t: Delay after its turn began
// (the turn's deadline less the game's turn timeout, which every move
// restarts); the zero time when it is not the house's turn. It is a
// function of the table alone, so that a restart re-arms the same time.
func MoveAt(t *game.Table) time.Time {
	i, ok := t.Turn()
	d := t.Deadline()
	if !ok || t.Seat(i).User != ID || d.IsZero() {
		return time.Time{}
	}
	return d.Add(-t.Settings().TurnTimeout).Add(Delay(t))
}
