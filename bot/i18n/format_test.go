package i18n

import (
	"fmt"
	"math"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
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
		n      int64
		en, ru string
	}{
		{0, "0\u00a0chips", "0\u00a0фишек"},
		{1, "1\u00a0chip", "1\u00a0фишка"},
		{2, "2\u00a0chips", "2\u00a0фишки"},
		{4, "4\u00a0chips", "4\u00a0фишки"},
		{5, "5\u00a0chips", "5\u00a0фишек"},
		{11, "11\u00a0chips", "11\u00a0фишек"},
		{12, "12\u00a0chips", "12\u00a0фишек"},
		{14, "14\u00a0chips", "14\u00a0фишек"},
		{21, "21\u00a0chips", "21\u00a0фишка"},
		{22, "22\u00a0chips", "22\u00a0фишки"},
		{25, "25\u00a0chips", "25\u00a0фишек"},
		{101, "101\u00a0chips", "101\u00a0фишка"},
		{111, "111\u00a0chips", "111\u00a0фишек"},
		{1000, "1\u202f000\u00a0chips", "1\u202f000\u00a0фишек"},
		{1001, "1\u202f001\u00a0chips", "1\u202f001\u00a0фишка"},
		{-1, "−1\u00a0chip", "−1\u00a0фишка"},
		{-3, "−3\u00a0chips", "−3\u00a0фишки"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.en, Chips(EN, tt.n), "en %d", tt.n)
		assert.Equal(t, tt.ru, Chips(RU, tt.n), "ru %d", tt.n)
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d      time.Duration
		en, ru string
	}{
		{0, "0\u00a0s", "0\u00a0с"},
		{-time.Second, "0\u00a0s", "0\u00a0с"},
		{45 * time.Second, "45\u00a0s", "45\u00a0с"},
		{45*time.Second + 900*time.Millisecond, "45\u00a0s", "45\u00a0с"},
		{time.Minute, "60\u00a0s", "60\u00a0с"},
		{90 * time.Second, "90\u00a0s", "90\u00a0с"},
		{100 * time.Second, "1\u00a0min\u00a040\u00a0s", "1\u00a0мин\u00a040\u00a0с"},
		{10 * time.Minute, "10\u00a0min", "10\u00a0мин"},
		{time.Hour, "1\u00a0h", "1\u00a0ч"},
		{24 * time.Hour, "24\u00a0h", "24\u00a0ч"},
		{time.Hour + 5*time.Minute + 3*time.Second, "1\u00a0h\u00a05\u00a0min\u00a03\u00a0s", "1\u00a0ч\u00a05\u00a0мин\u00a03\u00a0с"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.en, Duration(EN, tt.d), "en %s", tt.d)
		assert.Equal(t, tt.ru, Duration(RU, tt.d), "ru %s", tt.d)
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
	tests := []struct {
		code   string
		en, ru string
	}{
		{"6s", "6♠", "6♠"},
		{"Th", "10♥", "10♥"},
		{"9d", "9♦", "9♦"},
		{"Jc", "J♣", "В♣"},
		{"Qs", "Q♠", "Д♠"},
		{"Kh", "K♥", "К♥"},
		{"Ad", "A♦", "Т♦"},
	}
	for _, tt := range tests {
		c := gametest.Cards(tt.code)[0]
		assert.Equal(t, tt.en, Card(EN, c), tt.code)
		assert.Equal(t, tt.ru, Card(RU, c), tt.code)
	}
	assert.Equal(t, "?", Card(EN, game.Card(0)))
	h := game.NewHand(gametest.Cards("Kh 9d 6s")...)
	assert.Equal(t, "K♥ 9♦ 6♠", Hand(EN, h))
	assert.Equal(t, "К♥ 9♦ 6♠", Hand(RU, h))
	assert.Equal(t, "", Hand(EN, game.Hand{}))
}

func TestBetOption(t *testing.T) {
	tests := []struct {
		o      game.BetOption
		en, ru string
	}{
		{game.BetOption{Kind: game.StakeTimes, N: 1}, "×1", "×1"},
		{game.BetOption{Kind: game.StakeTimes, N: 1000}, "×1\u202f000", "×1\u202f000"},
		{game.BetOption{Kind: game.BankShare, N: 1}, "bank", "ва-банк"},
		{game.BetOption{Kind: game.BankShare, N: 2}, "½", "½"},
		{game.BetOption{Kind: game.BankShare, N: 3}, "⅓", "⅓"},
		{game.BetOption{Kind: game.BankShare, N: 7}, "1/7", "1/7"},
		{game.BetOption{}, "?", "?"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.en, BetOption(EN, tt.o))
		assert.Equal(t, tt.ru, BetOption(RU, tt.o))
	}
}

func TestBet(t *testing.T) {
	x := func(n int64) game.BetOption { return game.BetOption{Kind: game.StakeTimes, N: n} }
	share := func(n int64) game.BetOption { return game.BetOption{Kind: game.BankShare, N: n} }
	tests := []struct {
		name   string
		offer  game.Offer
		bank   int64
		en, ru string
	}{
		{"a multiple of the stake is its amount", game.Offer{Amount: 20, Option: x(2)}, 80, "20", "20"},
		{"a share of the bank says so", game.Offer{Amount: 40, Option: share(2)}, 80, "40 · ½ bank", "40 · ½ банка"},
		{"a share without a sign of its own", game.Offer{Amount: 11, Option: share(7)}, 80, "11 · 1/7 bank", "11 · 1/7 банка"},
		{"the whole bank", game.Offer{Amount: 80, Option: share(1)}, 80, "80 · bank", "80 · ва-банк"},
		{"a multiple that is the whole bank", game.Offer{Amount: 80, Option: x(8)}, 80, "80 · bank", "80 · ва-банк"},
		{"capped at the bank", game.Offer{Amount: 10, Option: x(5), Capped: true}, 10, "10 · bank", "10 · ва-банк"},
		{"capped at the balance", game.Offer{Amount: 35, Option: x(5), Capped: true}, 80, "35 · all in", "35 · все фишки"},
		{"thousands", game.Offer{Amount: 2500, Option: share(2)}, 5000, "2\u202f500 · ½ bank", "2\u202f500 · ½ банка"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.en, Bet(EN, tt.offer, tt.bank))
			assert.Equal(t, tt.ru, Bet(RU, tt.offer, tt.bank))
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
	// On a button a language is named as on its own; Russian writes it in
	// lowercase within a sentence.
	assert.Equal(t, "English", Name(EN))
	assert.Equal(t, "Русский", Name(RU))
	assert.Equal(t, "English", NameInText(EN))
	assert.Equal(t, "русский", NameInText(RU))
	assert.Equal(t, "Language: English.", T(EN, LangSet, NameInText(EN)))
	assert.Equal(t, "Язык: русский.", T(RU, LangSet, NameInText(RU)))
}

func TestParseAndFromTelegram(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Lang
		ok   bool
	}{
		{"en", EN, true}, {"ru", RU, true}, {" RU ", RU, true}, {"En", EN, true},
		{"", EN, false}, {"de", EN, false}, {"russian", EN, false}, {"ru-RU", EN, false},
	} {
		got, ok := Parse(tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
		assert.Equal(t, tt.ok, ok, "%q", tt.in)
	}
	for code, want := range map[string]Lang{
		"ru": RU, "ru-RU": RU, "RU": RU, "uk": RU, "uk-UA": RU, "be": RU, "be_BY": RU,
		"UK": RU, "en": EN, "en-US": EN, "de": EN, "": EN, "rus": EN, "rue": EN, "ukr": EN, "bg": EN, "kk": EN,
	} {
		assert.Equal(t, want, FromTelegram(code), "%q", code)
	}
	assert.True(t, EN.Valid())
	assert.True(t, RU.Valid())
	assert.False(t, Lang("de").Valid())
	assert.Equal(t, "ru", RU.String())
}
