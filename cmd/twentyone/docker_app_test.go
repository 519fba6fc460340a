package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
)

// dockerApp: with README's Mini App keys in the container's environment,
// the image serves the app on its own port. The lobby's app button opens,
// as a Telegram client would, a launch whose initData the app's API takes:
// the view names the seated player. A request without initData is refused,
// and the page itself is served.
func dockerApp(t *testing.T, d *dockerEnv) {
	srv := d.botAPI(t)
	require.NoError(t, srv.RegisterApp("table", "https://app.example.org/"))
	tb := newTable(t, srv)
	c := d.run(t, "app", d.name("app-data"), srv, runOptions{flags: []string{
		"-e", "TWENTYONE_WEBAPP_LISTEN=0.0.0.0:8080",
		"-e", "TWENTYONE_WEBAPP_URL=https://app.example.org/",
		"-e", "TWENTYONE_WEBAPP_NAME=table",
		"-p", "127.0.0.1::8080",
	}})
	tb.command(tb.alice, "newgame")
	lobby := tb.message(callback.Join, lobbyTitle, "Alice")
	var link string
	for _, b := range lobby.Buttons() {
		if strings.HasPrefix(b.URL, "https://t.me/") {
			link = b.URL
		}
	}
	require.NotEmpty(t, link, "the lobby links to the app")
	launch, err := srv.OpenAppLink(tb.group.ID, tb.bob.ID, link)
	require.NoError(t, err)

	hostPort := strings.Fields(docker(t, "port", c.name, "8080/tcp"))
	require.NotEmpty(t, hostPort, "the app's port is published")
	base := "http://" + hostPort[0]
	get := func(path, auth string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, base+path, nil)
		require.NoError(t, err)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(body)
	}
	status, body := get("/api/table", "")
	assert.Equal(t, http.StatusUnauthorized, status, body)
	assert.Contains(t, body, `"missing"`)
	status, body = get("/api/table", "tma "+launch.InitData)
	assert.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, "Alice", "Bob watches Alice's lobby")
	status, body = get("/", "")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "<html", "the page, from the binary")
	c.stop()
}
