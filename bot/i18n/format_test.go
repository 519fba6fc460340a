package i18n

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

func TestNumber(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0"},
		{7, "7"},
		{999, "999"},
		{1000, "1\u202f000"},
		{12500, "12\u202f500"},
		{100000, "100\u202f000"},
		{1234567, "1\u202f234\u202f567"},
		{-20, "−20"},
		{-1000, "−1\u202f000"},
		{math.MaxInt64, "9\u202f223\u202f372\u202f036\u202f854\u202f775\u202f807"},
		{math.MinInt64, "−9\u202f223\u202f372\u202f036\u202f854\u202f775\u202f808"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Number(tt.n), "%d", tt.n)
	}
	assert.Equal(t, "1\u202f000", Number(1000), "a narrow no-break space, not a space")
	assert.Equal(t, "\u221220", Number(-20), "a real minus sign")
}

func TestSigned(t *testing.T) {
	assert.Equal(t, "+25", Signed(25))
	assert.Equal(t, "+1\u202f000", Signed(1000))
	assert.Equal(t, "−20", Signed(-20))
	assert.Equal(t, "0", Signed(0))
}

func TestChipsPlurals(t *testing.T) {
	tests := []struct {
		n    int64
		want map[Lang]string
	}{
		{0, map[Lang]string{EN: "0\u00a0chips", RU: "0\u00a0фишек", UK: "0\u00a0фішок"}},
		{1, map[Lang]string{EN: "1\u00a0chip", RU: "1\u00a0фишка", UK: "1\u00a0фішка"}},
		{2, map[Lang]string{EN: "2\u00a0chips", RU: "2\u00a0фишки", UK: "2\u00a0фішки"}},
		{4, map[Lang]string{EN: "4\u00a0chips", RU: "4\u00a0фишки", UK: "4\u00a0фішки"}},
		{5, map[Lang]string{EN: "5\u00a0chips", RU: "5\u00a0фишек", UK: "5\u00a0фішок"}},
		{11, map[Lang]string{EN: "11\u00a0chips", RU: "11\u00a0фишек", UK: "11\u00a0фішок"}},
		{12, map[Lang]string{EN: "12\u00a0chips", RU: "12\u00a0фишек", UK: "12\u00a0фішок"}},
		{14, map[Lang]string{EN: "14\u00a0chips", RU: "14\u00a0фишек", UK: "14\u00a0фішок"}},
		{21, map[Lang]string{EN: "21\u00a0chips", RU: "21\u00a0фишка", UK: "21\u00a0фішка"}},
		{22, map[Lang]string{EN: "22\u00a0chips", RU: "22\u00a0фишки", UK: "22\u00a0фішки"}},
		{25, map[Lang]string{EN: "25\u00a0chips", RU: "25\u00a0фишек", UK: "25\u00a0фішок"}},
		{101, map[Lang]string{EN: "101\u00a0chips", RU: "101\u00a0фишка", UK: "101\u00a0фішка"}},
		{111, map[Lang]string{EN: "111\u00a0chips", RU: "111\u00a0фишек", UK: "111\u00a0фішок"}},
		{1000, map[Lang]string{EN: "1\u202f000\u00a0chips", RU: "1\u202f000\u00a0фишек", UK: "1\u202f000\u00a0фішок"}},
		{1001, map[Lang]string{EN: "1\u202f001\u00a0chips", RU: "1\u202f001\u00a0фишка", UK: "1\u202f001\u00a0фішка"}},
		{-1, map[Lang]string{EN: "−1\u00a0chip", RU: "−1\u00a0фишка", UK: "−1\u00a0фішка"}},
		{-3, map[Lang]string{EN: "−3\u00a0chips", RU: "−3\u00a0фишки", UK: "−3\u00a0фішки"}},
	}
	for _, tt := range tests {
		inEveryLang(t, strconv.FormatInt(tt.n, 10), tt.want, func(l Lang) string { return Chips(l, tt.n) })
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want map[Lang]string
	}{
		{0, map[Lang]string{EN: "0\u00a0s", RU: "0\u00a0с", UK: "0\u00a0с"}},
		{-time.Second, map[Lang]string{EN: "0\u00a0s", RU: "0\u00a0с", UK: "0\u00a0с"}},
		{45 * time.Second, map[Lang]string{EN: "45\u00a0s", RU: "45\u00a0с", UK: "45\u00a0с"}},
		{45*time.Second + 900*time.Millisecond, map[Lang]string{EN: "45\u00a0s", RU: "45\u00a0с", UK: "45\u00a0с"}},
		{time.Minute, map[Lang]string{EN: "60\u00a0s", RU: "60\u00a0с", UK: "60\u00a0с"}},
		{90 * time.Second, map[Lang]string{EN: "90\u00a0s", RU: "90\u00a0с", UK: "90\u00a0с"}},
		{100 * time.Second, map[Lang]string{EN: "1\u00a0min\u00a040\u00a0s", RU: "1\u00a0мин\u00a040\u00a0с", UK: "1\u00a0хв\u00a040\u00a0с"}},
		{10 * time.Minute, map[Lang]string{EN: "10\u00a0min", RU: "10\u00a0мин", UK: "10\u00a0хв"}},
		{time.Hour, map[Lang]string{EN: "1\u00a0h", RU: "1\u00a0ч", UK: "1\u00a0год"}},
		{24 * time.Hour, map[Lang]string{EN: "24\u00a0h", RU: "24\u00a0ч", UK: "24\u00a0год"}},
		{time.Hour + 5*time.Minute + 3*time.Second, map[Lang]string{EN: "1\u00a0h\u00a05\u00a0min\u00a03\u00a0s", RU: "1\u00a0ч\u00a05\u00a0мин\u00a03\u00a0с", UK: "1\u00a0год\u00a05\u00a0хв\u00a03\u00a0с"}},
	}
	for _, tt := range tests {
		inEveryLang(t, tt.d.String(), tt.want, func(l Lang) string { return Duration(l, tt.d) })
	}
}

func TestCountdown(t *testing.T) {
	tests := []struct {
		left time.Duration
		want string
	}{
		{-5 * time.Second, "0\u00a0s"},
		{0, "0\u00a0s"},
		{time.Millisecond, "1\u00a0s"},
		{44*time.Second + time.Millisecond, "45\u00a0s"},
		{45 * time.Second, "45\u00a0s"},
		{60 * time.Second, "60\u00a0s"},
		{99 * time.Second, "99\u00a0s"},
		{99*time.Second + time.Millisecond, "2\u00a0min"},
		{9*time.Minute + 30*time.Second, "10\u00a0min"},
		{10 * time.Minute, "10\u00a0min"},
		{64*time.Minute + time.Second, "1\u00a0h\u00a05\u00a0min"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Countdown(EN, tt.left), "%s", tt.left)
	}
	assert.Equal(t, "45\u00a0с", Countdown(RU, 45*time.Second))
	assert.Equal(t, "2\u00a0хв", Countdown(UK, 99*time.Second+time.Millisecond))
}

// breakingSpaces returns the spaces in s a line may break at: every space
// but the no-break ones.
func breakingSpaces(s string) []string {
	var found []string
	for _, r := range s {
		if unicode.IsSpace(r) && r != '\u00a0' && r != '\u202f' && r != '\u2007' {
			found = append(found, fmt.Sprintf("%U", r))
		}
	}
	return found
}

func TestFormattedNumbersAndDurationsNeverBreak(t *testing.T) {
	numbers := []int64{0, 1, -1, 5, 999, 1000, -1000, 12500, 1234567, math.MaxInt64, math.MinInt64}
	durations := []time.Duration{0, time.Second, 10 * time.Second, 60 * time.Second, 99 * time.Second,
		90 * time.Second, 10 * time.Minute, time.Hour + 5*time.Minute + 3*time.Second, 1000 * time.Hour}
	for _, lang := range Langs() {
		var formatted []string
		for _, n := range numbers {
			formatted = append(formatted, Number(n), Signed(n), Chips(lang, n),
				BetOption(lang, game.BetOption{Kind: game.StakeTimes, N: n}))
		}
		for _, d := range durations {
			formatted = append(formatted, Duration(lang, d), Countdown(lang, d))
		}
		for _, s := range formatted {
			assert.Empty(t, breakingSpaces(s), "%s %q has a space a line may break at", lang, s)
		}
	}
}

func TestCards(t *testing.T) {
	// Russian and Ukrainian write jack, queen, king and ace alike: В
	// (валет), Д (дама), К (король), Т (туз).
	tests := []struct {
		code string
		want map[Lang]string
	}{
		{"6s", map[Lang]string{EN: "6♠", RU: "6♠", UK: "6♠"}},
		{"Th", map[Lang]string{EN: "10♥", RU: "10♥", UK: "10♥"}},
		{"9d", map[Lang]string{EN: "9♦", RU: "9♦", UK: "9♦"}},
		{"Jc", map[Lang]string{EN: "J♣", RU: "В♣", UK: "В♣"}},
		{"Qs", map[Lang]string{EN: "Q♠", RU: "Д♠", UK: "Д♠"}},
		{"Kh", map[Lang]string{EN: "K♥", RU: "К♥", UK: "К♥"}},
		{"Ad", map[Lang]string{EN: "A♦", RU: "Т♦", UK: "Т♦"}},
	}
	for _, tt := range tests {
		c := gametest.Cards(tt.code)[0]
		inEveryLang(t, tt.code, tt.want, func(l Lang) string { return Card(l, c) })
	}
	assert.Equal(t, "?", Card(EN, game.Card(0)))
	h := game.NewHand(gametest.Cards("Kh 9d 6s")...)
	inEveryLang(t, "a hand", map[Lang]string{EN: "K♥ 9♦ 6♠", RU: "К♥ 9♦ 6♠", UK: "К♥ 9♦ 6♠"},
		func(l Lang) string { return Hand(l, h) })
	assert.Equal(t, "", Hand(EN, game.Hand{}))
}

func TestBetOption(t *testing.T) {
	tests := []struct {
		o    game.BetOption
		want map[Lang]string
	}{
		{game.BetOption{Kind: game.StakeTimes, N: 1}, map[Lang]string{EN: "×1", RU: "×1", UK: "×1"}},
		{game.BetOption{Kind: game.StakeTimes, N: 1000}, map[Lang]string{EN: "×1\u202f000", RU: "×1\u202f000", UK: "×1\u202f000"}},
		{game.BetOption{Kind: game.BankShare, N: 1}, map[Lang]string{EN: "bank", RU: "ва-банк", UK: "ва-банк"}},
		{game.BetOption{Kind: game.BankShare, N: 2}, map[Lang]string{EN: "½", RU: "½", UK: "½"}},
		{game.BetOption{Kind: game.BankShare, N: 3}, map[Lang]string{EN: "⅓", RU: "⅓", UK: "⅓"}},
		{game.BetOption{Kind: game.BankShare, N: 7}, map[Lang]string{EN: "1/7", RU: "1/7", UK: "1/7"}},
		{game.BetOption{}, map[Lang]string{EN: "?", RU: "?", UK: "?"}},
	}
	for _, tt := range tests {
		inEveryLang(t, tt.o.String(), tt.want, func(l Lang) string { return BetOption(l, tt.o) })
	}
}

func TestBet(t *testing.T) {
	x := func(n int64) game.BetOption { return game.BetOption{Kind: game.StakeTimes, N: n} }
	share := func(n int64) game.BetOption { return game.BetOption{Kind: game.BankShare, N: n} }
	tests := []struct {
		name  string
		offer game.Offer
		bank  int64
		want  map[Lang]string
	}{
		{"a multiple of the stake is its amount", game.Offer{Amount: 20, Option: x(2)}, 80, map[Lang]string{EN: "20", RU: "20", UK: "20"}},
		{"a share of the bank says so", game.Offer{Amount: 40, Option: share(2)}, 80, map[Lang]string{EN: "40 · ½ bank", RU: "40 · ½ банка", UK: "40 · ½ банку"}},
		{"a share without a sign of its own", game.Offer{Amount: 11, Option: share(7)}, 80, map[Lang]string{EN: "11 · 1/7 bank", RU: "11 · 1/7 банка", UK: "11 · 1/7 банку"}},
		{"the whole bank", game.Offer{Amount: 80, Option: share(1)}, 80, map[Lang]string{EN: "80 · bank", RU: "80 · ва-банк", UK: "80 · ва-банк"}},
		{"a multiple that is the whole bank", game.Offer{Amount: 80, Option: x(8)}, 80, map[Lang]string{EN: "80 · bank", RU: "80 · ва-банк", UK: "80 · ва-банк"}},
		{"capped at the bank", game.Offer{Amount: 10, Option: x(5), Capped: true}, 10, map[Lang]string{EN: "10 · bank", RU: "10 · ва-банк", UK: "10 · ва-банк"}},
		{"capped at the balance", game.Offer{Amount: 35, Option: x(5), Capped: true}, 80, map[Lang]string{EN: "35 · all in", RU: "35 · все фишки", UK: "35 · усі фішки"}},
		{"thousands", game.Offer{Amount: 2500, Option: share(2)}, 5000, map[Lang]string{EN: "2\u202f500 · ½ bank", RU: "2\u202f500 · ½ банка", UK: "2\u202f500 · ½ банку"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inEveryLang(t, tt.name, tt.want, func(l Lang) string { return Bet(l, tt.offer, tt.bank) })
		})
	}
	// The defaults at the first duel, bank 10: ×1, ×2 and ×5 are capped to
	// the bank and merged into it (rules.md).
	var labels []string
	for _, o := range game.DefaultSettings().Offers(10, 1000) {
		labels = append(labels, Bet(EN, o, 10))
	}
	assert.Equal(t, []string{"5 · ½ bank", "10 · bank"}, labels)
}

func TestLanguageNames(t *testing.T) {
	// On a button a language is named as on its own; Russian and
	// Ukrainian write it in lowercase within a sentence.
	inEveryLang(t, "Name", map[Lang]string{EN: "English", RU: "Русский", UK: "Українська"}, Name)
	inEveryLang(t, "NameInText", map[Lang]string{EN: "English", RU: "русский", UK: "українська"}, NameInText)
	inEveryLang(t, "LangSet", map[Lang]string{EN: "Language: English.", RU: "Язык: русский.", UK: "Мова: українська."},
		func(l Lang) string { return T(l, LangSet, NameInText(l)) })
	// The settings offer every language by its own name, whatever the
	// chat's language: every catalogue names each one alike.
	for _, l := range Langs() {
		require.Contains(t, nameKeys, l, "%s has no name", l)
		for _, in := range Langs() {
			assert.Equal(t, Name(l), T(in, nameKeys[l]), "%s named in the %s catalogue", l, in)
		}
	}
}

func TestParseAndFromTelegram(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Lang
		ok   bool
	}{
		{"en", EN, true}, {"ru", RU, true}, {" RU ", RU, true}, {"En", EN, true}, {"uk", UK, true}, {" UK ", UK, true},
		{"", EN, false}, {"de", EN, false}, {"russian", EN, false}, {"ru-RU", EN, false},
		{"ua", EN, false}, {"uk-UA", EN, false}, {"ukr", EN, false},
	} {
		got, ok := Parse(tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
		assert.Equal(t, tt.ok, ok, "%q", tt.in)
	}
	for code, want := range map[string]Lang{
		"uk": UK, "uk-UA": UK, "uk_UA": UK, "UK": UK, " uk ": UK,
		"ru": RU, "ru-RU": RU, "RU": RU, "be": RU, "be_BY": RU,
		"en": EN, "en-US": EN, "de": EN, "": EN, "rus": EN, "rue": EN, "ukr": EN, "ua": EN, "bg": EN, "kk": EN,
	} {
		assert.Equal(t, want, FromTelegram(code), "%q", code)
	}
	for _, l := range Langs() {
		assert.True(t, l.Valid(), l)
		got, ok := Parse(l.String())
		assert.True(t, ok, l)
		assert.Equal(t, l, got, "Parse reads back every language's code")
	}
	assert.False(t, Lang("de").Valid())
	assert.False(t, Lang("").Valid())
	assert.Equal(t, "ru", RU.String())
	assert.Equal(t, "uk", UK.String())
	assert.Equal(t, []Lang{EN, RU, UK}, Langs(), "the default first")
}

// TestDateTime: a date names its month, in the language's order, so that
// "05.12" cannot be read as the 12th of May; times are 24-hour, without
// seconds.
func TestDateTime(t *testing.T) {
	at := time.Date(2025, 12, 5, 1, 52, 59, 0, time.UTC)
	inEveryLang(t, "Dec 5", map[Lang]string{EN: "Dec\u00a05, 01:52", RU: "5\u00a0дек., 01:52", UK: "5\u00a0груд., 01:52"},
		func(l Lang) string { return DateTime(l, at) })
	assert.Equal(t, "18:40", Clock(time.Date(2025, 3, 14, 18, 40, 15, 0, time.UTC)), "no seconds")
	for _, l := range Langs() {
		months := strings.Split(T(l, DateMonths), "|")
		require.Len(t, months, 12, "%s: twelve months", l)
		for m := time.January; m <= time.December; m++ {
			d := Date(l, time.Date(2025, m, 1, 0, 0, 0, 0, time.UTC))
			assert.Contains(t, d, months[m-1], "%s %s", l, m)
			assert.Empty(t, breakingSpaces(d), "%s: a date does not break", l)
		}
	}
	inEveryLang(t, "May", map[Lang]string{EN: "May\u00a031", RU: "31\u00a0мая", UK: "31\u00a0трав."},
		func(l Lang) string { return Date(l, time.Date(2025, 5, 31, 0, 0, 0, 0, time.UTC)) })
}
