package i18n

import (
	"math"
	"testing"
	"time"

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
		{1000, "1\u2009000"},
		{12500, "12\u2009500"},
		{100000, "100\u2009000"},
		{1234567, "1\u2009234\u2009567"},
		{-20, "−20"},
		{-1000, "−1\u2009000"},
		{math.MaxInt64, "9\u2009223\u2009372\u2009036\u2009854\u2009775\u2009807"},
		{math.MinInt64, "−9\u2009223\u2009372\u2009036\u2009854\u2009775\u2009808"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Number(tt.n), "%d", tt.n)
	}
	assert.Equal(t, "1\u2009000", Number(1000), "a thin space, not a space")
	assert.Equal(t, "\u221220", Number(-20), "a real minus sign")
}

func TestSigned(t *testing.T) {
	assert.Equal(t, "+25", Signed(25))
	assert.Equal(t, "+1\u2009000", Signed(1000))
	assert.Equal(t, "−20", Signed(-20))
	assert.Equal(t, "0", Signed(0))
}

func TestChipsPlurals(t *testing.T) {
	tests := []struct {
		n      int64
		en, ru string
	}{
		{0, "0 chips", "0 фишек"},
		{1, "1 chip", "1 фишка"},
		{2, "2 chips", "2 фишки"},
		{4, "4 chips", "4 фишки"},
		{5, "5 chips", "5 фишек"},
		{11, "11 chips", "11 фишек"},
		{12, "12 chips", "12 фишек"},
		{14, "14 chips", "14 фишек"},
		{21, "21 chips", "21 фишка"},
		{22, "22 chips", "22 фишки"},
		{25, "25 chips", "25 фишек"},
		{101, "101 chips", "101 фишка"},
		{111, "111 chips", "111 фишек"},
		{1000, "1\u2009000 chips", "1\u2009000 фишек"},
		{1001, "1\u2009001 chips", "1\u2009001 фишка"},
		{-1, "−1 chip", "−1 фишка"},
		{-3, "−3 chips", "−3 фишки"},
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
		{0, "0 s", "0 с"},
		{-time.Second, "0 s", "0 с"},
		{45 * time.Second, "45 s", "45 с"},
		{45*time.Second + 900*time.Millisecond, "45 s", "45 с"},
		{time.Minute, "60 s", "60 с"},
		{90 * time.Second, "90 s", "90 с"},
		{100 * time.Second, "1 min 40 s", "1 мин 40 с"},
		{10 * time.Minute, "10 min", "10 мин"},
		{time.Hour, "1 h", "1 ч"},
		{24 * time.Hour, "24 h", "24 ч"},
		{time.Hour + 5*time.Minute + 3*time.Second, "1 h 5 min 3 s", "1 ч 5 мин 3 с"},
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
		{-5 * time.Second, "0 s"},
		{0, "0 s"},
		{time.Millisecond, "1 s"},
		{44*time.Second + time.Millisecond, "45 s"},
		{45 * time.Second, "45 s"},
		{60 * time.Second, "60 s"},
		{99 * time.Second, "99 s"},
		{99*time.Second + time.Millisecond, "2 min"},
		{9*time.Minute + 30*time.Second, "10 min"},
		{10 * time.Minute, "10 min"},
		{64*time.Minute + time.Second, "1 h 5 min"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Countdown(EN, tt.left), "%s", tt.left)
	}
	assert.Equal(t, "45 с", Countdown(RU, 45*time.Second))
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
		{game.BetOption{Kind: game.StakeTimes, N: 1000}, "×1\u2009000", "×1\u2009000"},
		{game.BetOption{Kind: game.BankShare, N: 1}, "bank", "банк"},
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
