package render

import (
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

// log draws the duels of the current or last game, oldest first, with a
// knock line where one circle led to the next. inGame tells whether the game
// is still played.
func (v *view) log(inGame bool) []line {
	duels := v.t.Log()
	if len(duels) == 0 {
		return nil
	}
	starts := v.circleStarts(duels, inGame)
	var lines []line
	for i, d := range duels {
		lines = append(lines, line{html: v.duel(d), log: true})
		next := 0
		switch {
		case i+1 < len(duels):
			next = duels[i+1].Circle
		case inGame:
			next = v.t.Circle()
		}
		if next > d.Circle {
			lines = append(lines, line{html: v.knock(starts, d.Circle), log: true})
		}
	}
	return lines
}

// knock draws the knock that ended circle c.
func (v *view) knock(starts map[int]int64, c int) string {
	to, ok := starts[c+1]
	if !ok {
		return ""
	}
	if from, ok := starts[c]; ok {
		return v.tr(i18n.LogKnock, i18n.Number(from), i18n.Number(to))
	}
	return v.tr(i18n.LogKnockTo, i18n.Number(to))
}

// circleStarts works out what the bank held when each circle of the log
// began, back from what is known: the bank the current circle began with,
// or the bank the banker took at the end. A circle whose first duels the
// log no longer holds gets no start, only its successor.
func (v *view) circleStarts(duels []game.Duel, inGame bool) map[int]int64 {
	starts := map[int]int64{}
	last := duels[len(duels)-1].Circle
	var bank int64 // the bank at the end of circle last
	if inGame {
		for c := last + 1; c < v.t.Circle(); c++ {
			starts[c] = v.t.CircleBank() // circles without duels do not move the bank
		}
		bank = v.t.CircleBank()
		if v.t.Circle() == last {
			// The current circle: its start is known, and nothing after it.
			starts[last] = v.t.CircleBank()
			bank = -1
		}
	} else {
		for _, p := range v.t.Players() {
			if p.Banker {
				bank = p.Net + v.t.Settings().Stake
			}
		}
	}
	complete := len(duels) < game.LogSize // no duel of this game was dropped
	oldest := duels[0].Circle
	starts[1] = v.t.Settings().Stake // every game's first bank
	for c := last; c >= oldest; c-- {
		if bank < 0 {
			bank = starts[c]
			continue
		}
		starts[c+1] = bank
		for _, d := range duels {
			if d.Circle != c {
				continue
			}
			if d.Result.PlayerWon() {
				bank += d.Bet
			} else {
				bank -= d.Bet
			}
		}
		if c > oldest || complete || c == 1 {
			starts[c] = bank
		}
	}
	return starts
}

// duel draws one duel: "Bob: K♥ 9♦ 6♠ = 19 · banker: 10♣ 8♥ = 18 → Bob wins 10".
func (v *view) duel(d game.Duel) string {
	name := v.who(d.User, d.Name)
	special := d.Hand.Golden() || d.Hand.FivePictures()
	l := name + ":"
	if d.Hand.Len() > 0 {
		l += " " + i18n.Hand(v.lang, d.Hand)
		if !special && d.Result != game.Forfeit {
			l += " = " + strconv.Itoa(d.Hand.Score())
		}
	}
	if d.Banker.Len() > 0 {
		l += " · " + v.tr(i18n.LogBanker) + ": " + i18n.Hand(v.lang, d.Banker) + " = " + strconv.Itoa(d.Banker.Score())
	}
	bet := i18n.Number(d.Bet)
	var result string
	switch d.Result {
	case game.TwentyOne:
		switch {
		case d.Hand.Golden():
			result = v.tr(i18n.LogGolden, name, bet)
		case d.Hand.FivePictures():
			result = v.tr(i18n.LogFivePictures, name, bet)
		default:
			result = v.tr(i18n.LogTwentyOne, name, bet)
		}
	case game.PlayerBust:
		result = v.tr(i18n.LogPlayerBust, bet)
	case game.BankerBust:
		result = v.tr(i18n.LogBankerBust, name, bet)
	case game.PlayerHigher:
		result = v.tr(i18n.LogPlayerWins, name, bet)
	case game.BankerHigher:
		result = v.tr(i18n.LogBankerWins, bet)
	case game.Tie:
		result = v.tr(i18n.LogTie, bet)
	case game.Forfeit:
		result = v.tr(i18n.LogForfeit, bet)
	}
	return l + " → " + result
}
