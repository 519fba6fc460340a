package bot

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestHelpText pins /help in both languages: what the bot does, then a
// line for each command it lists.
func TestHelpText(t *testing.T) {
	for _, lang := range i18n.Langs() {
		path := filepath.Join("testdata", "help."+string(lang)+".golden")
		got := helpText(lang)
		if *updateGolden {
			require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			continue
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "run go test ./bot -run TestHelpText -update to create it")
		assert.Equal(t, string(want), got, "%s differs; run go test ./bot -run TestHelpText -update and review the diff", path)
	}
}
