package render

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// dump writes a message as its golden file holds it.
func dump(m message.Message) string {
	var b strings.Builder
	b.WriteString(m.Text)
	b.WriteString("\n\n=== keyboard ===\n")
	for _, row := range m.Keyboard {
		for i, btn := range row {
			if i > 0 {
				b.WriteString(" | ")
			}
			if btn.URL != "" {
				fmt.Fprintf(&b, "[%s] url %s", btn.Text, btn.URL)
				continue
			}
			if btn.WebApp != "" {
				fmt.Fprintf(&b, "[%s] web_app %s", btn.Text, btn.WebApp)
				continue
			}
			fmt.Fprintf(&b, "[%s] %s", btn.Text, btn.Data)
			if btn.Style != "" {
				fmt.Fprintf(&b, " (%s)", btn.Style)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./bot/render -update to create it")
	assert.Equal(t, string(want), got, "%s differs; run go test ./bot/render -update and review the diff", path)
}

func TestGoldenTable(t *testing.T) {
	for _, lang := range i18n.Langs() {
		require.Contains(t, plainNames, lang, "the scenarios need names in %s", lang)
	}
	for _, sc := range scenarios {
		for _, lang := range i18n.Langs() {
			t.Run(sc.name+"/"+string(lang), func(t *testing.T) {
				p := sc.play(t, plainNames[lang])
				golden(t, sc.name+"."+string(lang), dump(Table(p.input(lang))))
			})
		}
	}
}

func TestCurrentNamesReplaceTheKeptOnes(t *testing.T) {
	p := gameOver(t, plainNames[i18n.EN])
	in := p.input(i18n.EN)
	in.Names = map[game.UserID]string{dave: "David <3"}
	text := Table(in).Text
	assert.NotContains(t, text, "Dave")
	assert.Contains(t, text, "David &lt;3: A♥ A♦ → Golden 21! David &lt;3 wins 10")
	assert.Contains(t, text, "🏅 David &lt;3: Golden 21")
	assert.Contains(t, text, "Alice", "names not in Names stay")
}

// TestAwardsShowWithTheFinishedGameOnly: a game in play shows no awards,
// and an award to someone who did not play the game is left out.
func TestAwardsShowWithTheFinishedGameOnly(t *testing.T) {
	p := drawing(t, plainNames[i18n.EN]).award(bob, award.FivePictures)
	assert.NotContains(t, Table(p.input(i18n.EN)).Text, "🏅")
	p = gameOver(t, plainNames[i18n.EN]).award(eve, award.Veteran)
	text := Table(p.input(i18n.EN)).Text
	assert.Equal(t, 2, strings.Count(text, "🏅"), text)
	assert.NotContains(t, text, "Veteran")
}

func TestEveryAchievementHasAName(t *testing.T) {
	all := award.All()
	require.Len(t, achievementNames, len(all))
	for _, a := range all {
		k, ok := achievementNames[a]
		require.True(t, ok, "%s has no name", a)
		for _, lang := range i18n.Langs() {
			assert.NotEqual(t, string(k), i18n.T(lang, k), "%s in %s", a, lang)
		}
	}
}
