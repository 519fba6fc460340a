package render

import (
	"strings"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

// achievementNames name each achievement.
var achievementNames = map[award.Achievement]i18n.Key{
	award.FirstWin:     i18n.AchFirstWin,
	award.Golden21:     i18n.AchGolden21,
	award.FivePictures: i18n.AchFivePictures,
	award.BrokeBank:    i18n.AchBrokeBank,
	award.Knock:        i18n.AchKnock,
	award.ThreeKnocks:  i18n.AchThreeKnocks,
	award.FatBank:      i18n.AchFatBank,
	award.CleanSweep:   i18n.AchCleanSweep,
	award.SteelNerves:  i18n.AchSteelNerves,
	award.OneTooMany:   i18n.AchOneTooMany,
	award.Comeback:     i18n.AchComeback,
	award.Regular:      i18n.AchRegular,
	award.Veteran:      i18n.AchVeteran,
}

// achievementList returns the names of achievements, joined.
func achievementList(lang i18n.Lang, as []award.Achievement) string {
	names := make([]string, 0, len(as))
	for _, a := range as {
		if k, ok := achievementNames[a]; ok {
			names = append(names, i18n.T(lang, k))
		}
	}
	return strings.Join(names, i18n.T(lang, i18n.AwardSep))
}

// awards draws the achievements earned in the game, a line per player in
// the order they earned their first: "🏅 Bob: Golden 21, First win".
// Awards of users who did not play the game are left out.
func (v *view) awards() []line {
	var order []game.UserID
	earned := map[game.UserID][]award.Achievement{}
	for _, a := range v.in.Awards {
		if _, ok := earned[a.User]; !ok {
			order = append(order, a.User)
		}
		earned[a.User] = append(earned[a.User], a.Achievement)
	}
	players := v.t.Players()
	var lines []line
	for _, u := range order {
		for _, p := range players {
			if p.User == u {
				lines = append(lines, text(v.tr(i18n.AwardLine, v.who(u, p.Name), achievementList(v.lang, earned[u]))))
			}
		}
	}
	return lines
}
