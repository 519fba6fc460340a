package playground_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// declarationRE matches a CSS declaration: a property (custom ones too) and
// its value.
var declarationRE = regexp.MustCompile(`([\w-]+)\s*:\s*([^;{}]+)`)

// genericFamilies are CSS's generic font families.
var genericFamilies = []string{
	"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "math", "emoji", "fangsong",
	"ui-serif", "ui-sans-serif", "ui-monospace", "ui-rounded",
}

// TestEmojiFontsComeLast checks every font list of the page's style sheets:
// an emoji font before the generic family would draw the digits and spaces
// of the text where it is the only font installed besides the generic one.
func TestEmojiFontsComeLast(t *testing.T) {
	sheets, err := filepath.Glob(filepath.Join("web", "*.css"))
	require.NoError(t, err)
	require.NotEmpty(t, sheets)
	emojiLists := 0
	for _, path := range sheets {
		css, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, m := range declarationRE.FindAllStringSubmatch(string(css), -1) {
			var families []string
			for _, f := range strings.Split(m[2], ",") {
				families = append(families, strings.Trim(strings.TrimSpace(f), `"'`))
			}
			lastGeneric := -1
			for i, f := range families {
				if slices.Contains(genericFamilies, f) && f != "emoji" {
					lastGeneric = i
				}
			}
			if lastGeneric < 0 {
				continue // not a font list
			}
			for i, f := range families {
				if strings.Contains(strings.ToLower(f), "emoji") {
					emojiLists++
					assert.Greater(t, i, lastGeneric, "%s: %s: the emoji font %q comes before the generic family %q",
						path, m[1], f, families[lastGeneric])
				}
			}
		}
	}
	assert.Positive(t, emojiLists, "the style sheets name emoji fonts, for the cards and the table's signs")
}
