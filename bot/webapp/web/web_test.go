package web_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/webapp/web"
)

// pageFiles are the page's files in the package's directory, by name.
func pageFiles(t *testing.T) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".html", ".css", ".js":
			b, err := os.ReadFile(e.Name())
			require.NoError(t, err)
			out[e.Name()] = b
		}
	}
	require.Contains(t, out, "index.html")
	return out
}

// servedAt is where a file is served.
func servedAt(name string) string {
	if name == "index.html" {
		return "/"
	}
	return "/" + name
}

// TestEveryFileEmbedded: each of the page's files is served, as it is on
// disk, with its kind's Content-Type and an ETag of its content; nothing
// else is.
func TestEveryFileEmbedded(t *testing.T) {
	files := pageFiles(t)
	want := map[string]string{".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
		".js": "text/javascript; charset=utf-8"}
	var paths []string
	for name, body := range files {
		p := servedAt(name)
		paths = append(paths, p)
		f, ok := web.Lookup(p)
		require.True(t, ok, name)
		assert.Equal(t, p, f.Path)
		assert.Equal(t, want[filepath.Ext(name)], f.Type, name)
		assert.Equal(t, string(body), string(f.Body), name)
		assert.Regexp(t, `^"[0-9a-f]{24}"$`, f.ETag, name)
	}
	assert.ElementsMatch(t, paths, web.Paths())
	assert.Equal(t, "/", web.Paths()[0])
	for _, p := range []string{"/index.html", "/web.go", "/web_test.go", "", "app.js", "/../app.js", "/api/table", "/APP.JS"} {
		_, ok := web.Lookup(p)
		assert.False(t, ok, "%q is not served", p)
	}
	a, _ := web.Lookup("/app.js")
	b, _ := web.Lookup("/app.css")
	assert.NotEqual(t, a.ETag, b.ETag)
}

// TestNothingFromElsewhere: the page names no URL of another origin, so it
// needs no network but its own server (the CSP would refuse it anyway).
// A URL may appear only in a comment, and only one of the docs we cite.
func TestNothingFromElsewhere(t *testing.T) {
	cited := regexp.MustCompile(`https://(core\.telegram\.org|docs\.telegram-mini-apps\.com)/\S*`)
	relative := regexp.MustCompile("[\"'(`]\\s*//") // a protocol-relative URL in a string or url()
	for name, body := range pageFiles(t) {
		for i, line := range strings.Split(string(body), "\n") {
			where := name + ":" + strings.TrimSpace(line)
			trimmed := strings.TrimSpace(line)
			comment := strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "/*") || strings.HasPrefix(trimmed, "*")
			if strings.Contains(line, "http://") || strings.Contains(line, "https://") {
				assert.True(t, comment, "%s:%d names a URL outside a comment: %s", name, i+1, where)
				rest := cited.ReplaceAllString(line, "")
				assert.False(t, strings.Contains(rest, "http://") || strings.Contains(rest, "https://"),
					"%s:%d names a URL we do not cite: %s", name, i+1, where)
			}
			assert.NotRegexp(t, relative, line, "%s:%d", name, i+1)
			assert.NotContains(t, line, "@import", name)
			if idx := strings.Index(line, "url("); idx >= 0 && !comment {
				assert.True(t, strings.HasPrefix(line[idx:], "url(#"), "%s:%d: only a fragment of the page: %s", name, i+1, where)
			}
		}
	}
}

// TestNoInlineCode: nothing the Content Security Policy would refuse (an
// inline script or style, an event handler attribute), and no script
// turns text into HTML or code.
func TestNoInlineCode(t *testing.T) {
	files := pageFiles(t)
	page := string(files["index.html"])
	assert.NotContains(t, page, "<style")
	assert.NotRegexp(t, `\sstyle=`, page)
	assert.NotRegexp(t, `\son[a-z]+=`, page)
	assert.NotRegexp(t, `<script(\s[^>]*)?>[^<]`, page, "a script with code inside")
	for _, m := range regexp.MustCompile(`<script[^>]*>`).FindAllString(page, -1) {
		assert.Contains(t, m, ` src="`, m)
	}
	for name, body := range files {
		if filepath.Ext(name) != ".js" {
			continue
		}
		for _, sink := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
			"new Function", "setAttribute('style'", `setAttribute("style"`, "cssText", "setTimeout('", "javascript:"} {
			assert.NotContains(t, string(body), sink, name)
		}
	}
}

// TestReferencesServed: every file the page loads (its links and scripts,
// and the modules they import) is one the server serves.
func TestReferencesServed(t *testing.T) {
	files := pageFiles(t)
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(string(files["index.html"]), -1)
	require.NotEmpty(t, refs)
	seen := 0
	for _, m := range refs {
		if strings.HasPrefix(m[1], "data:") {
			continue
		}
		_, ok := web.Lookup("/" + m[1])
		assert.True(t, ok, "index.html loads %s", m[1])
		seen++
	}
	assert.GreaterOrEqual(t, seen, 2, "the style sheet and the script")
	imports := regexp.MustCompile(`(?m)^import .* from '\./([\w.]+)';$`)
	for name, body := range files {
		for _, m := range imports.FindAllStringSubmatch(string(body), -1) {
			_, ok := web.Lookup("/" + m[1])
			assert.True(t, ok, "%s imports %s", name, m[1])
		}
		assert.NotRegexp(t, `import\s*\(`, string(body), "%s: no dynamic import", name)
	}
}

// TestWordsInEveryLanguage: the page's own words are in en, ru and uk,
// each language with the same keys, none empty.
func TestWordsInEveryLanguage(t *testing.T) {
	src := string(pageFiles(t)["words.js"])
	start := strings.Index(src, "export const WORDS = ")
	require.GreaterOrEqual(t, start, 0)
	body := src[start+len("export const WORDS = "):]
	end := strings.Index(body, "\n};")
	require.GreaterOrEqual(t, end, 0)
	var words map[string]map[string]string
	require.NoError(t, json.Unmarshal([]byte(body[:end+2]), &words), "WORDS is JSON")
	require.ElementsMatch(t, []string{"en", "ru", "uk"}, keys(words))
	for lang, w := range words {
		assert.ElementsMatch(t, keys(words["en"]), keys(w), lang)
		for k, v := range w {
			assert.NotEmpty(t, strings.TrimSpace(v), "%s.%s", lang, k)
		}
	}
	assert.NotEqual(t, words["en"]["expired"], words["ru"]["expired"])
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
