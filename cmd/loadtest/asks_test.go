package main

import (
	"html"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game/award"
)

// TestPacedAsks is the short paced run with players who ask a lot: four
// groups whose players each send a personal command three times a minute
// besides playing, against the bot of this branch, which declares them
// ephemeral commands. Every ask is answered, once, every answer the
// server holds is counted, and no write is refused. It asserts no speed.
func TestPacedAsks(t *testing.T) {
	cfg := short(t, 4, 20*time.Second)
	cfg.Paced = true
	cfg.Asks = maxAsks
	cfg.Warmup = 2 * time.Second
	res := runOK(t, cfg)
	require.NotNil(t, res.Paced)
	require.NotNil(t, res.Asks)
	a := res.Asks
	assert.Zero(t, res.Paced.TooMany, "no 429: %v", res.Paced.TooManyMethod)
	assert.Positive(t, a.Asks, "the players asked")
	assert.Zero(t, a.Unanswered, "every ask is answered: %v", a.Open)
	assert.Equal(t, a.Asks, a.AnsweredEphemeral+a.AnsweredReply+a.AnsweredFallback+a.AnsweredDigest, "every ask answered once")
	assert.Zero(t, a.Twice, "no ask answered twice")
	assert.Zero(t, a.Unplaced, "every answer placed with its ask")
	assert.Zero(t, a.Uncounted, "every answer in the groups counted")
	assert.Zero(t, a.Failed)
	assert.Equal(t, a.Asks, a.Ephemeral, "the bot's menu declares the personal commands ephemeral: the clients send them so")
	assert.Positive(t, a.EphemeralAnswers+a.PublicAnswers, "answers in the measured part")
	assert.Positive(t, a.GroupWrites, "the groups' writes counted")
	assert.Positive(t, a.Max, "the answers were timed")
}

// TestAnswerOf: the answers to the commands the players ask are told
// from the bot's other messages by their first words, as the server shows
// them (the HTML parsed away), and name whose they are.
func TestAnswerOf(t *testing.T) {
	tag := regexp.MustCompile(`<[^>]*>`)
	shown := func(text string) string { return html.UnescapeString(tag.ReplaceAllString(text, "")) }
	en := i18n.EN
	tests := []struct {
		name string
		text string
		who  string // "": no answer
	}{
		{"balance", render.Balance("Ann", 1_000_000, en).Text, "Ann"},
		{"bonus granted", render.BonusGranted("Bob", render.Bonus{Amount: 100, Balance: 150}, en).Text, "Bob"},
		{"bonus too soon", render.BonusWait("Cid", 3*time.Hour, en).Text, "Cid"},
		{"bonus not needed", render.BonusNotNeeded("Dee", 500, render.Bonus{Balance: 1_000_000}, en).Text, "Dee"},
		{"bonus not needed, chips on a table", render.BonusNotNeeded("Dee", 500, render.Bonus{Balance: 100, OnTables: 900}, en).Text, "Dee"},
		{"stats", render.Stats("Ann", award.Stats{Games: 3}, 990, en).Text, "Ann"},
		{"no stats", render.StatsNone("Bob", en).Text, "Bob"},
		{"history", render.History("Cid", []render.Entry{{Time: t0, Kind: render.EntryStart, Amount: 1000, Balance: 1000}}, 5, en).Text, "Cid"},
		{"no history", render.History("Dee", nil, 5, en).Text, "Dee"},
		{"a nudge", i18n.T(en, i18n.TurnNudge, "Ann", "10s"), ""},
		{"a table", "Table\n1. Ann — 10 ←", ""},
		{"another player's name", render.Balance("Eve", 10, en).Text, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			who, ok := answerOf(shown(tt.text))
			assert.Equal(t, tt.who != "", ok, shown(tt.text))
			assert.Equal(t, tt.who, who)
		})
	}
}

func TestAskGap(t *testing.T) {
	r := newRand(5)
	const mean = time.Minute
	var sum time.Duration
	const n = 5000
	for range n {
		g := askGap(r, mean)
		require.GreaterOrEqual(t, g, mean/2)
		require.LessOrEqual(t, g, 3*mean/2)
		sum += g
	}
	assert.InDelta(t, float64(mean), float64(sum/n), float64(mean)/50, "the gaps' mean is the mean asked for")
	// At the most a player may ask, 8 asks (7 gaps) never fall within a
	// minute: the bot's reply quota of 8 answers a minute never holds one.
	minGap := time.Minute / maxAsks / 2
	assert.Greater(t, 7*minGap, time.Minute)
}

// TestDigestAskers: a digest, as the server shows it (the HTML parsed
// away), names its askers and what they asked in each part's heading, in
// order, whatever its answers say; the bot's other messages, and an
// answer alone, name none.
func TestDigestAskers(t *testing.T) {
	tag := regexp.MustCompile(`<[^>]*>`)
	shown := func(text string) string { return html.UnescapeString(tag.ReplaceAllString(text, "")) }
	en := i18n.EN
	asker := func(id int64, name, asked string) render.Asker { return render.Asker{ID: id, Name: name, Asked: asked} }
	digest := render.Digest([]render.DigestPart{
		render.NewDigestPart([]render.Asker{asker(1, "Ann", "/balance")}, render.Balance("Ann", 10, en).Text),
		render.NewDigestPart([]render.Asker{asker(2, "Bob", "/history"), asker(3, "Cid", "/history")}, "the same answer\n\nover lines"),
		render.NewDigestPart([]render.Asker{asker(4, "Dee", "/stats"), asker(1, "Ann", "/bonus")}, render.Stats("Dee", award.Stats{Games: 3}, 990, en).Text),
	}).Text
	names, asked := digestAskers(shown(digest))
	assert.Equal(t, []string{"Ann", "Bob", "Cid", "Dee", "Ann"}, names, shown(digest))
	assert.Equal(t, []string{"/balance", "/history", "/history", "/stats", "/bonus"}, asked)
	for _, text := range []string{
		render.Balance("Ann", 10, en).Text,
		i18n.T(en, i18n.TurnNudge, "Ann", "10s"),
		"Table\n1. Ann — 10 ←",
	} {
		names, _ := digestAskers(shown(text))
		assert.Empty(t, names, text)
	}
}
