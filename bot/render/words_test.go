package render

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

// TestWordsAreTheMessagesLines: every text TableWords gives is a line of
// the table message as plain text, in every language and state, names
// with HTML's characters in them too; the log is the message's (a closed
// table's, its summary's), in order.
func TestWordsAreTheMessagesLines(t *testing.T) {
	cases := append([]scenario{}, scenarios...)
	cases = append(cases,
		scenario{"cut_asked", cutAsked},
		scenario{"cut_by", func(t testing.TB, n map[game.UserID]string) *play {
			return cutAsked(t, n).after(5*time.Second).cutDo(carol, "tap:2")
		}},
		scenario{"cut_none", func(t testing.TB, n map[game.UserID]string) *play {
			return cutAsked(t, n).after(game.DefaultCutWait).do(game.Timeout, 0, 0)
		}})
	logged, cuts := 0, 0
	for _, sc := range cases {
		for _, lang := range i18n.Langs() {
			for _, names := range []map[game.UserID]string{plainNames[lang], {alice: "<b>A&amp;", bob: `"Bob" <i>`, carol: "C&D", dave: "Dave"}} {
				in := sc.play(t, names).input(lang)
				msg := plainText(Table(in).Text)
				lines := strings.Split(msg, "\n")
				w := TableWords(in)
				assert.Contains(t, lines, w.Title, "%s/%s", sc.name, lang)
				logLines := lines
				if in.Table.Phase() == game.Closed {
					// A closed table's message shows no log: its summary does.
					logLines = strings.Split(plainText(Summary(in).Text), "\n")
				}
				inMsg := []string{}
				for _, l := range logLines {
					for _, g := range w.Log {
						if l == g {
							inMsg = append(inMsg, l)
							break
						}
					}
				}
				assert.Equal(t, w.Log, inMsg, "%s/%s: the log, whole and in order:\n%s", sc.name, lang, msg)
				logged += len(w.Log)
				for _, s := range []string{w.Closed, w.Deck} {
					if s != "" {
						assert.Contains(t, lines, s, "%s/%s", sc.name, lang)
					}
				}
				if w.Cut != "" {
					cuts++
					assert.Contains(t, lines, cutSign+w.Cut, "%s/%s", sc.name, lang)
				}
				for i, note := range w.Notes {
					for _, part := range strings.Split(note, " · ") {
						assert.Contains(t, msg, part, "%s/%s: seat %d's note", sc.name, lang, i)
					}
				}
				assert.Equal(t, in.Table.Phase().InGame(), w.Notes != nil, "%s/%s", sc.name, lang)
				assert.Equal(t, in.Table.Phase() == game.Closed, w.Closed != "", "%s/%s", sc.name, lang)
				assert.Equal(t, in.Table.Phase().InGame(), w.Deck != "", "%s/%s", sc.name, lang)
			}
		}
	}
	assert.Greater(t, logged, 100, "the scenarios log something")
	assert.Greater(t, cuts, 5, "some deck was dealt cut, or not")
}

// TestWordsOfTheCut: who cut the dealt deck, or is asked to cut the one
// that waits, by name; nothing for a deck of before the cut.
func TestWordsOfTheCut(t *testing.T) {
	names := map[game.UserID]string{alice: "Alice", bob: "<Bob>", carol: "Carol & co", dave: "Dave"}
	w := TableWords(cutAsked(t, names).input(i18n.EN))
	assert.Equal(t, Words{Title: w.Title, Log: []string{}, Deck: w.Deck, Cutter: "<Bob>", Notes: make([]string, 4)}, w, "waiting: who is asked")
	assert.Regexp(t, `^🔐 Deck [0-9a-f]{16}… · link 2 of chain [0-9a-f]{16}…$`, w.Deck)

	w = TableWords(cutAsked(t, names).after(5*time.Second).cutDo(carol, "tap:2").input(i18n.EN))
	assert.Equal(t, "Carol & co", w.Cutter)
	assert.Equal(t, "cut by Carol & co", w.Cut)
	assert.Regexp(t, `^🔐 Deck sha256: [0-9a-f]{16}…$`, w.Deck)

	w = TableWords(cutAsked(t, names).after(game.DefaultCutWait).do(game.Timeout, 0, 0).input(i18n.EN))
	assert.Equal(t, "", w.Cutter)
	assert.Equal(t, "not cut", w.Cut)

	w = TableWords(drawing(t, names).input(i18n.EN))
	require.NotEmpty(t, w.Deck)
	assert.Empty(t, w.Cut+w.Cutter, "a deck of before the cut")
}

// TestWordsKeepTheWholeLog: the words hold every log line, where the
// message leaves the oldest out to fit.
func TestWordsKeepTheWholeLog(t *testing.T) {
	in := fullLog(t, longNames("emoji")).input(i18n.EN)
	w := TableWords(in)
	msg := plainText(Table(in).Text)
	require.Contains(t, msg, "…", "the message left lines out")
	assert.Len(t, w.Log, len(in.Table.Log())+2, "every duel and the two knocks")
}

// TestWordsOfTheSeats: each seat's note, as its line words it after the
// cards but for a player's time left (Carol's bet to make); the banker's
// says nothing.
func TestWordsOfTheSeats(t *testing.T) {
	names := plainNames[i18n.EN]
	p := drawing(t, names)
	p.do(game.Leave, dave, 0)
	for _, tt := range []struct {
		name string
		in   Input
		want []string
	}{
		{"drawing", p.input(i18n.EN), []string{"", "✓ played", "bet 5", "sits this circle out · leaving"}},
		{"house thinking", houseThinking(t, names).input(i18n.EN), []string{"", "✓ played", "bet 10 · ← 🤖 House is thinking…"}},
		{"betting", betting(t, names).input(i18n.EN), []string{"", "✓ played", "", ""}},
		{"lobby", lobby(t, names, gametest.Deck()).input(i18n.EN), nil},
	} {
		assert.Equal(t, tt.want, TableWords(tt.in).Notes, tt.name)
	}
}
