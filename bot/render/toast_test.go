package render_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
)

// TestStandToast: the toast of a Stand tells the duel's result, as the
// table's edit may come seconds later.
func TestStandToast(t *testing.T) {
	hand := func(codes ...string) game.Hand {
		var cards []game.Card
		for _, c := range codes {
			card, err := game.ParseCard(c)
			if err != nil {
				t.Fatal(err)
			}
			cards = append(cards, card)
		}
		return game.NewHand(cards...)
	}
	mine := hand("Th", "8s") // 18
	tests := []struct {
		result game.DuelResult
		banker game.Hand
		en, ru string
	}{
		{game.PlayerHigher, hand("9h", "8h"), "Stand at 18 · banker 17: you win 10", "Хватит: 18 · у банкира 17, банк платит тебе 10"},
		{game.BankerBust, hand("Th", "6h", "9c"), "Stand at 18 · banker busts with 25: you win 10", "Хватит: 18 · у банкира перебор (25), банк платит тебе 10"},
		{game.Tie, hand("Td", "8d"), "Stand at 18 · banker 18 too: a tie goes to the bank, you lose 10",
			"Хватит: 18 · у банкира тоже 18, а при равенстве выигрывает банкир: ставка 10 уходит в банк"},
		{game.BankerHigher, hand("Tc", "9c"), "Stand at 18 · banker 19: you lose 10", "Хватит: 18 · у банкира 19, ставка 10 уходит в банк"},
	}
	for _, tt := range tests {
		d := game.Duel{Hand: mine, Banker: tt.banker, Bet: 10, Result: tt.result}
		assert.Equal(t, tt.en, render.StandToast(i18n.EN, d))
		assert.Equal(t, tt.ru, render.StandToast(i18n.RU, d))
	}
}

// TestLeaveToast: leaving a duel after betting says that the bet stays in
// the bank, in the button's toast and the answer to /leave alike;
// leaving otherwise says only that the player left.
func TestLeaveToast(t *testing.T) {
	const bob game.UserID = 2
	leave := game.Command{Kind: game.Leave, User: bob}
	forfeit := game.Outcome{Events: []game.Event{
		{Kind: game.EventLeft, User: bob},
		{Kind: game.EventDuelEnded, User: bob, Amount: 40, Duel: game.Duel{User: bob, Bet: 40, Result: game.Forfeit, Reason: game.ReasonLeft}},
	}}
	othersDuel := game.Outcome{Events: []game.Event{
		{Kind: game.EventDuelEnded, User: 3, Amount: 40, Duel: game.Duel{User: 3, Bet: 40, Result: game.Forfeit, Reason: game.ReasonLeft}},
	}}
	tests := []struct {
		name string
		out  game.Outcome
		want map[i18n.Lang]string
	}{
		{"with a bet", forfeit, map[i18n.Lang]string{
			i18n.EN: "You left; your bet of 40 stays in the bank.",
			i18n.RU: "Ты больше не за столом; твоя ставка 40 остаётся в банке.",
			i18n.UK: "Ти вже не за столом; твоя ставка 40 лишається в банку.",
		}},
		{"without", game.Outcome{Events: []game.Event{{Kind: game.EventLeft, User: bob}}}, map[i18n.Lang]string{
			i18n.EN: "You left the table.", i18n.RU: "Ты больше не за столом.", i18n.UK: "Ти вже не за столом.",
		}},
		{"another's bet", othersDuel, map[i18n.Lang]string{
			i18n.EN: "You left the table.", i18n.RU: "Ты больше не за столом.", i18n.UK: "Ти вже не за столом.",
		}},
	}
	for _, tt := range tests {
		for _, lang := range i18n.Langs() {
			want, ok := tt.want[lang]
			if assert.True(t, ok, "%s: no expectation in %s", tt.name, lang) {
				assert.Equal(t, want, render.Toast(lang, leave, tt.out, &game.Table{}), "%s in %s", tt.name, lang)
			}
		}
	}
}

// TestJoinToast: a Join says the player is in, or, when it took the last
// seat of a table that starts by itself, that the game is on and who bets
// first, as Start's toast does.
func TestJoinToast(t *testing.T) {
	const bob game.UserID = 2
	join := game.Command{Kind: game.Join, User: bob, Name: "Bob"}
	tests := []struct {
		name string
		out  game.Outcome
		want string
	}{
		{"a seat", game.Outcome{Events: []game.Event{{Kind: game.EventJoined, User: bob}}}, "You're in."},
		{"the last seat, started", game.Outcome{Events: []game.Event{{Kind: game.EventJoined, User: bob},
			{Kind: game.EventDealt, User: bob, Card: mustCard(t, "Kh")}, {Kind: game.EventTurn, User: bob}}},
			"Game on · your bet first · your card K♥ (4)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, render.Toast(i18n.EN, join, tt.out, &game.Table{}))
		})
	}
}

func mustCard(t *testing.T, code string) game.Card {
	t.Helper()
	c, err := game.ParseCard(code)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
