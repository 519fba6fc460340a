package view

import (
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

// log returns the record of the game in play or the last one, oldest
// first, as the chat's message words it in plain text (bot/render's log:
// every duel and circle sat out, a knock line where one circle led to the
// next); its last MaxLog lines.
func (m *maker) log() []string {
	duels := m.t.Log()
	out := []string{}
	if len(duels) == 0 {
		return out
	}
	inGame := m.t.Phase().InGame()
	banks := m.banks(duels, inGame)
	// starts[c] is the bank circle c began with, where the log shows it.
	starts := map[int]int64{1: m.t.Settings().Stake}
	for i, d := range duels {
		if i > 0 && duels[i-1].Circle != d.Circle || i == 0 && m.t.LogComplete() {
			starts[d.Circle] = banks[i]
		}
	}
	for i, d := range duels {
		out = append(out, m.duel(d))
		next := 0
		switch {
		case i+1 < len(duels):
			next = duels[i+1].Circle
		case inGame:
			next = m.t.Circle()
		}
		if next > d.Circle {
			out = append(out, m.knock(starts, d.Circle, banks[i+1]))
		}
	}
	if len(out) > MaxLog {
		out = out[len(out)-MaxLog:]
	}
	return out
}

// banks returns the bank before each line of duels and, last, after them
// all: back from the bank now, or from the bank the banker took, else
// forward from the stake.
func (m *maker) banks(duels []game.Duel, inGame bool) []int64 {
	banks := make([]int64, len(duels)+1)
	end, known := m.t.Bank(), inGame
	if !inGame {
		for _, p := range m.t.Players() {
			if p.Banker {
				end, known = p.Net+m.t.Settings().Stake, true
			}
		}
	}
	if !known {
		banks[0] = m.t.Settings().Stake
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

// knock words the knock that ended circle c, which left the bank at to.
func (m *maker) knock(starts map[int]int64, c int, to int64) string {
	if from, ok := starts[c]; ok {
		return m.tr(i18n.LogKnock, i18n.Number(from), i18n.Number(to))
	}
	return m.tr(i18n.LogKnockTo, i18n.Number(to))
}

// duel words one line of the record: "Bob: K♥ 9♦ 6♠ = 19 · banker: 10♣ 8♥
// = 18 → Bob wins 10", or a circle sat out.
func (m *maker) duel(d game.Duel) string {
	name := m.who(d.User, d.Name)
	special := d.Hand.Golden() || d.Hand.FivePictures()
	l := name + ":"
	if d.Hand.Len() > 0 {
		l += " " + i18n.Hand(m.lang, d.Hand)
		if !special && d.Result != game.Forfeit && d.Result != game.NoDuel {
			l += " = " + strconv.Itoa(d.Hand.Score())
		}
	}
	if d.Reason == game.ReasonTimeout && d.Result != game.NoDuel {
		l += " " + m.tr(i18n.LogTimedOut)
	}
	if d.Banker.Len() > 0 {
		l += " · " + m.tr(i18n.LogBanker) + ": " + i18n.Hand(m.lang, d.Banker) + " = " + strconv.Itoa(d.Banker.Score())
	}
	return l + " → " + m.result(d, name)
}

// result words how a line of the record ended.
func (m *maker) result(d game.Duel, name string) string {
	bet := i18n.Number(d.Bet)
	switch d.Result {
	case game.TwentyOne:
		switch {
		case d.Hand.Golden():
			return m.tr(i18n.LogGolden, name, bet)
		case d.Hand.FivePictures():
			return m.tr(i18n.LogFivePictures, name, bet)
		}
		return m.tr(i18n.LogTwentyOne, name, bet)
	case game.PlayerBust:
		return m.tr(i18n.LogPlayerBust, bet)
	case game.BankerBust:
		return m.tr(i18n.LogBankerBust, name, bet)
	case game.PlayerHigher:
		return m.tr(i18n.LogPlayerWins, name, bet)
	case game.BankerHigher:
		return m.tr(i18n.LogBankerWins, bet)
	case game.Tie:
		return m.tr(i18n.LogTie, bet)
	case game.Forfeit:
		return m.tr(i18n.LogForfeit, bet)
	case game.NoDuel:
		if key, ok := satOutWords[d.Reason]; ok {
			return m.tr(key)
		}
		return m.tr(i18n.LogSatOutTimeout)
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
