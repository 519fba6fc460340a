package input

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

// TestHelpText pins /help in both languages, in a group and in a private
// chat: what the bot does, then a line for each command it lists.
func TestHelpText(t *testing.T) {
	for _, lang := range i18n.Langs() {
		for name, private := range map[string]bool{"help": false, "help.private": true} {
			path := filepath.Join("testdata", name+"."+string(lang)+".golden")
			got := helpText(lang, private)
			if *updateGolden {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				continue
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./bot/input -run TestHelpText -update to create it")
			assert.Equal(t, string(want), got, "%s differs; run go test ./bot/input -run TestHelpText -update and review the diff", path)
		}
	}
}
