package i18n

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/twentyone-bot/twentyone/game"
)

// maxPopup is Telegram's limit on a callback answer's text.
const maxPopup = 200

// longestProblem returns the longest reason SettingsInvalid and PopInvalid
// may be given in lang: each setting's own, with the longest arguments,
// and the problems of bet options.
func longestProblem(lang Lang) string {
	big := Number(1_000_000_000_000_000)
	candidates := []string{
		T(lang, ProblemBetCount, Number(game.MaxBetOptions)),
		T(lang, ProblemBetOption, "bank/9223372036854775807", Number(game.MaxStakeTimes), Number(game.MaxBankDivisor)),
		T(lang, ProblemBetTwice, "bank/10"),
		T(lang, ProblemBetSyntax),
		T(lang, ProblemNumber, strings.Repeat("9", 24)),
		T(lang, ProblemLanguage, strings.Repeat("z", 8)),
	}
	for _, f := range game.Fields() {
		switch f.Kind {
		case game.FieldNumber:
			if f.AtLeast != "" {
				candidates = append(candidates, T(lang, SettingRange(f.Key), big), T(lang, SettingBelow(f.Key), big, big))
			} else {
				candidates = append(candidates, T(lang, SettingRange(f.Key), big, big))
			}
		case game.FieldDuration:
			long := Duration(lang, time.Duration(math.MaxInt64))
			if f.AtLeast != "" {
				candidates = append(candidates, T(lang, SettingRange(f.Key), long), T(lang, SettingBelow(f.Key), long, long))
			} else {
				candidates = append(candidates, T(lang, SettingRange(f.Key), long, long))
			}
		}
	}
	longest := ""
	for _, c := range candidates {
		if utf16Len(c) > utf16Len(longest) {
			longest = c
		}
	}
	return longest
}

// longestSetting returns the longest setting PopSavedSetting may be given
// in lang, as the settings panel lists it: the most bet options, each the
// longest, the highest number, the longest time, a toggle, a language.
func longestSetting(lang Lang) string {
	opts := make([]string, game.MaxBetOptions)
	for i := range opts {
		opts[i] = BetOption(lang, game.BetOption{Kind: game.StakeTimes, N: game.MaxStakeTimes})
	}
	longest := ""
	for _, f := range game.Fields() {
		var vals []string
		switch f.Kind {
		case game.FieldBets:
			vals = []string{strings.Join(opts, " · ")}
		case game.FieldNumber, game.FieldDuration:
			vals = []string{SettingValue(lang, f, f.Max)}
		case game.FieldToggle:
			vals = []string{T(lang, SettingOn(f.Key)), T(lang, SettingOff(f.Key))}
		case game.FieldLanguage:
			for _, l := range Langs() {
				vals = append(vals, NameInText(l))
			}
		}
		for _, v := range vals {
			if s := T(lang, SettingName(f.Key)) + ": " + v; utf16Len(s) > utf16Len(longest) {
				longest = s
			}
		}
	}
	return longest
}

// TestSettingInfoFitsAPopup: a setting's name and what it means, the
// answer to the icon buttons of older panels, fit a callback answer.
func TestSettingInfoFitsAPopup(t *testing.T) {
	for _, f := range game.Fields() {
		for _, lang := range Langs() {
			text := T(lang, SettingName(f.Key)) + ": " + T(lang, SettingAbout(f.Key))
			assert.LessOrEqual(t, utf16Len(text), maxPopup, "%s %s: %q", lang, f.Key, text)
		}
	}
}

func TestPopupsFitTelegramsLimitWithTheLongestArguments(t *testing.T) {
	// The longest name a seat keeps is game.MaxNameLen bytes; ASCII makes it
	// the longest in characters.
	name := strings.Repeat("W", game.MaxNameLen)
	bigNumber := Number(1_000_000_000_000_000)
	for _, lang := range Langs() {
		bigChips := Chips(lang, 1_000_000_000_000_000)
		// The card with the longest name and the highest score a hit can make.
		card := Card(lang, game.NewCard(game.Ten, game.Hearts))
		args := map[Key][]any{
			PopTurn:            {name},
			PopNeedChips:       {bigChips, bigNumber, bigNumber},
			PopNeedPlayers:     {Count(lang, NounPlayers, game.MinPlayers)},
			PopBet:             {bigNumber},
			PopLeftBet:         {bigNumber},
			PopHit:             {card, "20"},
			PopHitBust:         {card, "31"},
			PopHitTwentyOne:    {card},
			PopHitGolden:       {Card(lang, game.NewCard(game.Ace, game.Hearts))},
			PopHitFivePictures: {Card(lang, game.NewCard(game.Ace, game.Hearts))},
			PopStand:           {"20"},
			PopBetCard:         {bigNumber, card, "11"},
			PopStandWin:        {"20", "20", bigNumber},
			PopStandBankerBust: {"20", "30", bigNumber},
			PopStandTie:        {"20", "20", bigNumber},
			PopStandLose:       {"20", "21", bigNumber},
			PopStartYou:        {card, "11"},
			PopStartOther:      {name},
			PopInvalid:         {longestProblem(lang)},
			PopSavedSetting:    {longestSetting(lang)},
			PopHouseNeedChips:  {bigChips, bigChips},
			PopCutTooLong:      {Number(game.MaxCutLen)},
			PopCutYouBet:       {card, "11"},
			PopStartCutOther:   {name},
		}
		for name, k := range declaredKeys(t) {
			if !strings.HasPrefix(name, "Pop") {
				continue
			}
			n, _ := placeholders(en[k])
			a, ok := args[k]
			if len(n) > 0 && !assert.True(t, ok, "%s takes arguments: add its longest ones to this test", name) {
				continue
			}
			text := T(lang, k, a...)
			assert.LessOrEqual(t, utf16Len(text), maxPopup, "%s %s: %q", lang, name, text)
			assert.NotContains(t, text, "%!", "%s %s: %q", lang, name, text)
		}
	}
}

func TestCommandDescriptionsFitTelegramsLimits(t *testing.T) {
	for name, k := range declaredKeys(t) {
		if !strings.HasPrefix(name, "Desc") {
			continue
		}
		for _, lang := range Langs() {
			n := utf16Len(T(lang, k))
			assert.True(t, n >= 1 && n <= 256, "%s %s: %d characters", lang, name, n)
		}
	}
}
