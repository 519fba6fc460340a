package render

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

func TestGoldenSummary(t *testing.T) {
	for _, lang := range i18n.Langs() {
		t.Run(string(lang), func(t *testing.T) {
			p := gameOver(t, plainNames[lang])
			in := p.input(lang)
			require.True(t, in.Table.Finished())
			m := Summary(in)
			golden(t, "summary."+string(lang), dump(m))
			// One button: the game's decks.
			require.Len(t, m.Keyboard, 1)
			require.Len(t, m.Keyboard[0], 1)
			d, err := callback.Parse(m.Keyboard[0][0].Data)
			require.NoError(t, err)
			assert.Equal(t, callback.Verify, d.Action)
			assert.Equal(t, in.Table.Game(), d.Game)
			assert.False(t, strings.Contains(m.Text, "Seated"), "a record, not a lobby")
		})
	}
}

// A game without a duel (everyone ran out of time to bet) has a log of
// circles sat out: its outcome is still a section of its own, after a
// blank line.
func TestNoDuelGameSetsTheOutcomeApart(t *testing.T) {
	p := noDuel(t, plainNames[i18n.EN])
	in := p.input(i18n.EN)
	require.True(t, in.Table.Finished())
	require.Len(t, in.Table.Log(), 2, "two circles sat out")
	outcome := "Carol: 8♥ → out of time: sat the circle out\n\n🏁 Game over. Alice, the banker, takes the bank: 10 back on a stake of 10 (±0).\n"
	assert.Contains(t, Summary(in).Text, outcome, "the record")
	assert.Contains(t, Table(in).Text, outcome, "the lobby after the game")
}

// TestGoldenRecord: the record of a game of four circles keeps every duel,
// knock, automatic stand and circle sat out, and the lines add up to the
// bank the banker took; with less room, the marker of the lines left out
// says what they did to the bank.
func TestGoldenRecord(t *testing.T) {
	for _, lang := range i18n.Langs() {
		t.Run(string(lang), func(t *testing.T) {
			p := record(t, plainNames[lang])
			in := p.input(lang)
			require.True(t, in.Table.Finished())
			require.Len(t, in.Table.Log(), 12, "eleven duels and a circle sat out")
			m := Summary(in)
			golden(t, "record."+string(lang), dump(m))
			golden(t, "record_lobby."+string(lang), dump(Table(in)))
			golden(t, "record_trimmed."+string(lang), fitWith(in, 800, buildSummary))
		})
	}
	p := record(t, plainNames[i18n.EN])
	text := Summary(p.input(i18n.EN)).Text
	for _, want := range []string{
		"Carol: 6♥ J♦ J♣ Q♦ = 13 (out of time, stood) · banker: 6♦ 6♣ 7♠ = 19 → the bank takes 80",
		"Dave: 7♥ → out of time: sat the circle out",
		"Dave: J♠ Q♣ K♠ = 9 (out of time, stood) · banker: A♥ A♠ = 21 → the bank takes 10",
		"🔔 Knock! The bank grew from 250 to 750",
		"Alice, the banker, takes the bank: 740 back on a stake of 10 (+730).",
	} {
		assert.Contains(t, text, want)
	}
}

// bankShort: Bob made 21 on half the bank and Carol ran out of time to
// bet: Alice, the banker, takes back less than her stake.
func bankShort(t testing.TB, names map[game.UserID]string) *play {
	p := lobby(t, names, gametest.Deck("Th 7c As")).do(game.Join, carol, 0).do(game.Start, alice, 0)
	p.do(game.Bet, bob, 5).do(game.Hit, bob, 0)
	return p.after(61*time.Second).do(game.Timeout, 0, 0)
}

// TestTheEndSaysWhatTheBankerMade: the line that ends a game says what
// became of the banker's stake, with the net figure, so that a bank
// smaller than the stake reads as the loss it is, and a broken bank as
// the stake lost.
func TestTheEndSaysWhatTheBankerMade(t *testing.T) {
	forEachRecord(t, []recordCase{
		{"a loss", bankShort, map[i18n.Lang]string{
			i18n.EN: "🏁 Game over. Alice, the banker, takes the bank: 5 back on a stake of 10 (−5).\n🎩 Alice −5 · Bob +5 · Carol 0",
			i18n.RU: "🏁 Игра окончена. Банкир Алиса забирает банк: 5 при ставке 10 (−5).\n🎩 Алиса −5 · Борис +5 · Вера 0",
			i18n.UK: "🏁 Гру закінчено. Банкір Олеся забирає банк: 5 при ставці 10 (−5).\n🎩 Олеся −5 · Богдан +5 · Віра 0",
		}},
		{"a win", gameOver, map[i18n.Lang]string{
			i18n.EN: "🏁 Game over. Alice, the banker, takes the bank: 290 back on a stake of 10 (+280).",
			i18n.RU: "🏁 Игра окончена. Банкир Алиса забирает банк: 290 при ставке 10 (+280).",
			i18n.UK: "🏁 Гру закінчено. Банкір Олеся забирає банк: 290 при ставці 10 (+280).",
		}},
		{"the bank broken", bankBroken, map[i18n.Lang]string{
			i18n.EN: "🏁 Game over: the bank is broken. Alice, the banker, loses the stake of 10 (−10).",
			i18n.RU: "🏁 Игра окончена: банк сорван. Банкир Алиса теряет ставку 10 (−10).",
			i18n.UK: "🏁 Гру закінчено: банк зірвано. Банкір Олеся втрачає ставку 10 (−10).",
		}},
	}, func(t *testing.T, in Input, want string) {
		assert.Contains(t, Summary(in).Text, want, "the record")
		assert.Contains(t, Table(in).Text, want, "the lobby after the game")
	})
}

// recordCase is a finished game and a text its record shows in each
// language.
type recordCase struct {
	name string
	play func(testing.TB, map[game.UserID]string) *play
	want map[i18n.Lang]string
}

// forEachRecord plays each case in each language and checks what its
// finished table shows against the case's text in that language.
func forEachRecord(t *testing.T, cases []recordCase, check func(t *testing.T, in Input, want string)) {
	for _, tt := range cases {
		for _, lang := range i18n.Langs() {
			t.Run(tt.name+"/"+string(lang), func(t *testing.T) {
				want, ok := tt.want[lang]
				require.True(t, ok, "no expectation in %s", lang)
				in := tt.play(t, plainNames[lang]).input(lang)
				require.True(t, in.Table.Finished())
				check(t, in, want)
			})
		}
	}
}

// TestEveryPlayerHasALineInTheRecord: a player the game's end left
// without a duel (the bank broken before their turn, the banker gone, the
// game cancelled) keeps a line of the record with the card dealt, saying
// why no chips of theirs moved.
func TestEveryPlayerHasALineInTheRecord(t *testing.T) {
	forEachRecord(t, []recordCase{
		{"the bank broken", bankBroken, map[i18n.Lang]string{
			i18n.EN: "Dave: A♠ → the bank was broken before their turn: no chips moved",
			i18n.RU: "Дима: Т♠ → банк сорван раньше, чем дошла очередь: фишки не тронуты",
			i18n.UK: "Євген: Т♠ → банк зірвано раніше, ніж дійшла черга: фішок не торкалися",
		}},
		{"the banker gone", func(t testing.TB, n map[game.UserID]string) *play {
			return drawing(t, n).do(game.Leave, alice, 0)
		}, map[i18n.Lang]string{
			i18n.EN: "Carol: 9♦ 6♣ → the banker left the game: no duel, no chips moved\nDave: A♠ → the banker left the game: no duel, no chips moved",
			i18n.RU: "Вера: 9♦ 6♣ → банкир вышел из игры: дуэли не было, фишки не тронуты\nДима: Т♠ → банкир вышел из игры: дуэли не было, фишки не тронуты",
			i18n.UK: "Віра: 9♦ 6♣ → банкір вийшов із гри: дуелі не було, фішок не торкалися\nЄвген: Т♠ → банкір вийшов із гри: дуелі не було, фішок не торкалися",
		}},
		{"the game cancelled", closedCancelled, map[i18n.Lang]string{
			i18n.EN: "Carol: 9♦ 6♣ → the game was cancelled: no duel, no chips moved\nDave: A♠ → the game was cancelled: no duel, no chips moved",
			i18n.RU: "Вера: 9♦ 6♣ → игра отменена: дуэли не было, фишки не тронуты\nДима: Т♠ → игра отменена: дуэли не было, фишки не тронуты",
			i18n.UK: "Віра: 9♦ 6♣ → гру скасовано: дуелі не було, фішок не торкалися\nЄвген: Т♠ → гру скасовано: дуелі не було, фішок не торкалися",
		}},
	}, func(t *testing.T, in Input, want string) {
		text := Summary(in).Text
		assert.Contains(t, text, want)
		for _, p := range in.Table.Players() {
			if !p.Banker {
				assert.Contains(t, text, "\n"+plainNames[in.Lang][p.User]+": ", "every player but the banker has a line")
			}
		}
	})
}

// TestRecordCarriesNoLineOfHex: a game of several circles names in its
// record how many decks /verify_N shows, not their hashes, which the table
// showed while each was played; a game of one deck keeps its short hash.
func TestRecordCarriesNoLineOfHex(t *testing.T) {
	p := gameOver(t, plainNames[i18n.EN])
	in := p.input(i18n.EN)
	one := Summary(in).Text
	c, ok := in.Table.Revealed()
	require.True(t, ok)
	assert.Contains(t, one, "🔐 Deck check: sha256 "+c.Short()+" · /verify_1")

	in.Decks = []game.Commitment{{1}, {2}, c}
	want := map[i18n.Lang]string{
		i18n.EN: "🔐 Deck check: 3\u00a0decks · /verify_1",
		i18n.RU: "🔐 Проверка колод: 3\u00a0колоды · /verify_1",
		i18n.UK: "🔐 Перевірка колод: 3\u00a0колоди · /verify_1",
	}
	for _, lang := range i18n.Langs() {
		in.Lang = lang
		for _, text := range []string{Summary(in).Text, Table(in).Text} {
			require.Contains(t, want, lang)
			assert.Contains(t, text, want[lang])
			assert.NotRegexp(t, `[0-9a-f]{16}`, text, "no hash in the record of several decks")
		}
	}
}
