package render

import (
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

// log draws the record of the current or last game, oldest first: every
// duel and every circle sat out, with a knock line where one circle led to
// the next. inGame tells whether the game is still played. Each line
// carries what it did to the bank, so that fit can say what the lines it
// leaves out did.
func (v *view) log(inGame bool) []line {
	duels := v.t.Log()
	if len(duels) == 0 {
		return nil
	}
	banks := v.banks(duels, inGame)
	// starts[c] is the bank circle c began with, where the log shows it:
	// the bank before its first line, unless the log lost older lines.
	starts := map[int]int64{1: v.t.Settings().Stake}
	for i, d := range duels {
		if i > 0 && duels[i-1].Circle != d.Circle || i == 0 && v.t.LogComplete() {
			starts[d.Circle] = banks[i]
		}
	}
	var lines []line
	for i, d := range duels {
		lines = append(lines, line{html: v.duel(d), log: true, results: 1, from: banks[i], to: banks[i+1]})
		next := 0
		switch {
		case i+1 < len(duels):
			next = duels[i+1].Circle
		case inGame:
			next = v.t.Circle()
		}
		if next > d.Circle {
			lines = append(lines, line{html: v.knock(starts, d.Circle, banks[i+1]), log: true, from: banks[i+1], to: banks[i+1]})
		}
	}
	return lines
}

// banks returns the bank before each line of duels and, last, after them
// all: back from the bank now, or from the bank the banker took, so that
// it holds also for a log that lost its oldest lines.
func (v *view) banks(duels []game.Duel, inGame bool) []int64 {
	banks := make([]int64, len(duels)+1)
	end, known := v.t.Bank(), inGame
	if !inGame {
		for _, p := range v.t.Players() {
			if p.Banker {
				end, known = p.Net+v.t.Settings().Stake, true
			}
		}
	}
	if !known {
		// No banker to count back from: forward from the first bank.
		banks[0] = v.t.Settings().Stake
		for i, d := range duels {
			banks[i+1] = banks[i] + d.Delta()
		}
		return banks
	}
	banks[len(duels)] = end
	for i := len(duels) - 1; i >= 0; i-- {
		banks[i] = banks[i+1] - duels[i].Delta()
	}
	return banks
}

// knock draws the knock that ended circle c, which left the bank at to.
func (v *view) knock(starts map[int]int64, c int, to int64) string {
	if from, ok := starts[c]; ok {
		return v.tr(i18n.LogKnock, i18n.Number(from), i18n.Number(to))
	}
	return v.tr(i18n.LogKnockTo, i18n.Number(to))
}

// trimmed draws the marker that stands for results left out of the log:
// how many there were and what they did to the bank.
func trimmed(lang i18n.Lang, results int, from, to int64) string {
	n := i18n.Count(lang, i18n.NounLogResults, int64(results))
	if from == to {
		return i18n.T(lang, i18n.LogTrimmedSame, n, i18n.Number(from))
	}
	return i18n.T(lang, i18n.LogTrimmed, n, i18n.Number(from), i18n.Number(to))
}

// duel draws one line of the record: a duel, "Bob: K♥ 9♦ 6♠ = 19 · banker:
// 10♣ 8♥ = 18 → Bob wins 10", or a circle sat out, "Bob: K♥ → out of time:
// sat the circle out".
func (v *view) duel(d game.Duel) string {
	name := v.who(d.User, d.Name)
	special := d.Hand.Golden() || d.Hand.FivePictures()
	l := name + ":"
	if d.Hand.Len() > 0 {
		l += " " + i18n.Hand(v.lang, d.Hand)
		if !special && d.Result != game.Forfeit && d.Result != game.NoDuel {
			l += " = " + strconv.Itoa(d.Hand.Score())
		}
	}
	if d.Reason == game.ReasonTimeout && d.Result != game.NoDuel {
		l += " " + v.tr(i18n.LogTimedOut)
	}
	if d.Banker.Len() > 0 {
		l += " · " + v.tr(i18n.LogBanker) + ": " + i18n.Hand(v.lang, d.Banker) + " = " + strconv.Itoa(d.Banker.Score())
	}
	return l + " → " + v.result(d, name)
}

// result draws how a line of the record ended.
func (v *view) result(d game.Duel, name string) string {
	bet := i18n.Number(d.Bet)
	switch d.Result {
	case game.TwentyOne:
		switch {
		case d.Hand.Golden():
			return v.tr(i18n.LogGolden, name, bet)
		case d.Hand.FivePictures():
			return v.tr(i18n.LogFivePictures, name, bet)
		}
		return v.tr(i18n.LogTwentyOne, name, bet)
	case game.PlayerBust:
		return v.tr(i18n.LogPlayerBust, bet)
	case game.BankerBust:
		return v.tr(i18n.LogBankerBust, name, bet)
	case game.PlayerHigher:
		return v.tr(i18n.LogPlayerWins, name, bet)
	case game.BankerHigher:
		return v.tr(i18n.LogBankerWins, bet)
	case game.Tie:
		return v.tr(i18n.LogTie, bet)
	case game.Forfeit:
		return v.tr(i18n.LogForfeit, bet)
	case game.NoDuel:
		if key, ok := satOutWords[d.Reason]; ok {
			return v.tr(key)
		}
		return v.tr(i18n.LogSatOutTimeout)
	}
	return ""
}

// satOutWords say why a player sat a circle out, by the reason the record
// gives (running out of time to bet, the rest, is LogSatOutTimeout).
var satOutWords = map[game.Reason]i18n.Key{
	game.ReasonNoChips:    i18n.LogSatOutNoChips,
	game.ReasonLeft:       i18n.LogSatOutLeft,
	game.ReasonKicked:     i18n.LogSatOutKicked,
	game.ReasonBankBroken: i18n.LogSatOutBroken,
	game.ReasonBankerLeft: i18n.LogSatOutBanker,
	game.ReasonCancelled:  i18n.LogSatOutCancel,
}
