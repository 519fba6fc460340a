package playground_test

import (
	"io"
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/playground"
)

// TestPageIsServed: the page, its style sheet and every script it loads
// are served, with the page's Content-Security-Policy, from the binary
// alone; no script turns text into HTML.
func TestPageIsServed(t *testing.T) {
	pg := startPlayground(t, playground.Options{})
	for path, want := range map[string]string{"/": "text/html", "/app.js": "javascript", "/style.css": "text/css"} {
		resp, err := http.Get(pg.URL() + path)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Contains(t, resp.Header.Get("Content-Type"), want, path)
		assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'self'", path)
		for _, remote := range []string{`src="http`, `href="http`, "url(http", "@import", "//cdn"} {
			assert.NotContains(t, string(body), remote, "%s works offline: nothing from elsewhere", path)
		}
	}
	// The page's scripts, every one index.html loads, never turn text
	// into HTML.
	resp, err := http.Get(pg.URL() + "/")
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	scripts := regexp.MustCompile(`<script src="([\w.]+\.js)"`).FindAllStringSubmatch(string(page), -1)
	require.NotEmpty(t, scripts)
	for _, m := range scripts {
		resp, err := http.Get(pg.URL() + "/" + m[1])
		require.NoError(t, err)
		script, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode, m[1])
		assert.Contains(t, resp.Header.Get("Content-Type"), "javascript", m[1])
		for _, sink := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("} {
			assert.NotContains(t, string(script), sink, m[1])
		}
	}
}
