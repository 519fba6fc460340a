package config

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// appEnv is a whole Mini App's configuration, as the environment gives it.
var appEnv = []string{
	"TWENTYONE_WEBAPP_LISTEN=127.0.0.1:8080",
	"TWENTYONE_WEBAPP_URL=https://app.example.org/twentyone/",
	"TWENTYONE_WEBAPP_NAME=table",
}

// TestWebAppConfig: the webapp keys, from the file and the environment:
// off by default, "off" turns a listen off, listen alone serves the app
// without a button, and each key takes what it should.
func TestWebAppConfig(t *testing.T) {
	def := Default().WebApp
	assert.Equal(t, WebAppConfig{MaxAge: 24 * time.Hour, MaxViewers: 10_000, MaxViewersPerTable: 50}, def, "no app, the issue's bounds")

	tests := []struct {
		name string
		yaml string
		env  []string
		want WebAppConfig
	}{
		{name: "by default, none", want: def},
		{name: "a whole app from the environment", env: appEnv, want: WebAppConfig{Listen: "127.0.0.1:8080",
			URL: "https://app.example.org/twentyone/", Name: "table", MaxAge: def.MaxAge, MaxViewers: def.MaxViewers, MaxViewersPerTable: def.MaxViewersPerTable}},
		{name: "every key from the file", yaml: "webapp:\n  listen: \":8080\"\n  url: https://app.example.org\n  name: Twenty_One_21\n" +
			"  max_age: 2h\n  max_viewers: 100\n  max_viewers_per_table: 4\n",
			want: WebAppConfig{Listen: ":8080", URL: "https://app.example.org", Name: "Twenty_One_21", MaxAge: 2 * time.Hour, MaxViewers: 100, MaxViewersPerTable: 4}},
		{name: "listen alone: the app served, no button", env: []string{"TWENTYONE_WEBAPP_LISTEN=0.0.0.0:8080"},
			want: WebAppConfig{Listen: "0.0.0.0:8080", MaxAge: def.MaxAge, MaxViewers: def.MaxViewers, MaxViewersPerTable: def.MaxViewersPerTable}},
		{name: "off from the environment, over the file", yaml: "webapp:\n  listen: 127.0.0.1:8080\n", env: []string{"TWENTYONE_WEBAPP_LISTEN=off"}, want: def},
		{name: "a query in the url", env: []string{"TWENTYONE_WEBAPP_LISTEN=:8080", "TWENTYONE_WEBAPP_URL=https://example.org/app?v=2", "TWENTYONE_WEBAPP_NAME=abc"},
			want: WebAppConfig{Listen: ":8080", URL: "https://example.org/app?v=2", Name: "abc", MaxAge: def.MaxAge, MaxViewers: def.MaxViewers, MaxViewersPerTable: def.MaxViewersPerTable}},
		{name: "the admin server's port on another host", env: []string{"TWENTYONE_HTTP_LISTEN=127.0.0.1:9121", "TWENTYONE_WEBAPP_LISTEN=10.0.0.7:9121"},
			want: WebAppConfig{Listen: "10.0.0.7:9121", MaxAge: def.MaxAge, MaxViewers: def.MaxViewers, MaxViewersPerTable: def.MaxViewersPerTable}},
		{name: "the webhook's address in polling mode", env: []string{"TWENTYONE_WEBAPP_LISTEN=127.0.0.1:8443"},
			want: WebAppConfig{Listen: "127.0.0.1:8443", MaxAge: def.MaxAge, MaxViewers: def.MaxViewers, MaxViewersPerTable: def.MaxViewersPerTable}},
		{name: "free ports, as tests take them", env: []string{"TWENTYONE_HTTP_LISTEN=127.0.0.1:0", "TWENTYONE_WEBAPP_LISTEN=127.0.0.1:0"},
			want: WebAppConfig{Listen: "127.0.0.1:0", MaxAge: def.MaxAge, MaxViewers: def.MaxViewers, MaxViewersPerTable: def.MaxViewersPerTable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			if tt.yaml != "" {
				path = writeFile(t, "c.yaml", tt.yaml)
			}
			cfg, err := Load(path, path != "", tt.env)
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg.WebApp)
		})
	}
}

// TestWebAppConfigErrors: each bad webapp key is refused with one line
// that names it and where its value came from, and says what is wrong.
func TestWebAppConfigErrors(t *testing.T) {
	assertRefused(t, []refusal{
		{name: "listen not host:port", env: []string{"TWENTYONE_WEBAPP_LISTEN=8080"}, key: "webapp.listen", source: "TWENTYONE_WEBAPP_LISTEN", what: `must be host:port, such as 127.0.0.1:9121, not "8080"`},
		{name: "listen with a bad port", yaml: "webapp:\n  listen: \"127.0.0.1:http-alt-nope\"\n", key: "webapp.listen", source: "line 2", what: "bad port"},
		{name: "listen on the admin server's address", yaml: "http:\n  listen: 127.0.0.1:9121\nwebapp:\n  listen: 127.0.0.1:9121\n",
			key: "webapp.listen", source: "line 4", what: "the admin server's address, http.listen (127.0.0.1:9121, from "},
		{name: "listen on every interface at the admin server's port", env: []string{"TWENTYONE_WEBAPP_LISTEN=:9121"},
			key: "webapp.listen", source: "TWENTYONE_WEBAPP_LISTEN", what: "the admin server's address, http.listen (127.0.0.1:9121)"},
		{name: "listen on the admin server's port by name", env: []string{"TWENTYONE_HTTP_LISTEN=0.0.0.0:80", "TWENTYONE_WEBAPP_LISTEN=127.0.0.1:http"},
			key: "webapp.listen", source: "TWENTYONE_WEBAPP_LISTEN", what: "from TWENTYONE_HTTP_LISTEN"},
		{name: "listen on the webhook's address", env: []string{"TWENTYONE_TELEGRAM_MODE=webhook", "TWENTYONE_TELEGRAM_WEBHOOK_URL=https://bot.example.org/hook",
			"TWENTYONE_TELEGRAM_WEBHOOK_LISTEN=127.0.0.1:8443", "TWENTYONE_WEBAPP_LISTEN=127.0.0.1:8443"},
			key: "webapp.listen", source: "TWENTYONE_WEBAPP_LISTEN", what: "the webhook server's address, telegram.webhook.listen (127.0.0.1:8443, from TWENTYONE_TELEGRAM_WEBHOOK_LISTEN)"},
		{name: "url in plain http", env: []string{"TWENTYONE_WEBAPP_LISTEN=:8080", "TWENTYONE_WEBAPP_URL=http://app.example.org/", "TWENTYONE_WEBAPP_NAME=table"},
			key: "webapp.url", source: "TWENTYONE_WEBAPP_URL", what: "must be https"},
		{name: "url in plain http on loopback", env: []string{"TWENTYONE_WEBAPP_LISTEN=:8080", "TWENTYONE_WEBAPP_URL=http://127.0.0.1:8080/", "TWENTYONE_WEBAPP_NAME=table"},
			key: "webapp.url", source: "TWENTYONE_WEBAPP_URL", what: "must be https"},
		{name: "url relative", yaml: "webapp:\n  listen: :8080\n  url: /app\n  name: table\n", key: "webapp.url", source: "line 3", what: "absolute https URL"},
		{name: "url without a host", env: []string{"TWENTYONE_WEBAPP_LISTEN=:8080", "TWENTYONE_WEBAPP_URL=https:app", "TWENTYONE_WEBAPP_NAME=table"},
			key: "webapp.url", source: "TWENTYONE_WEBAPP_URL", what: "absolute https URL"},
		{name: "url with a fragment", yaml: "webapp:\n  listen: :8080\n  url: \"https://app.example.org/#start\"\n  name: table\n", key: "webapp.url", source: "line 3", what: "no fragment"},
		{name: "url with an empty fragment", env: []string{"TWENTYONE_WEBAPP_LISTEN=:8080", "TWENTYONE_WEBAPP_URL=https://app.example.org/#", "TWENTYONE_WEBAPP_NAME=table"},
			key: "webapp.url", source: "TWENTYONE_WEBAPP_URL", what: "no fragment"},
		{name: "url without name", env: []string{"TWENTYONE_WEBAPP_LISTEN=:8080", "TWENTYONE_WEBAPP_URL=https://app.example.org/"}, key: "webapp.name", what: "must be set with webapp.url"},
		{name: "name without url", yaml: "webapp:\n  listen: :8080\n  name: table\n", key: "webapp.url", what: "must be set with webapp.name"},
		{name: "url and name without listen", env: []string{"TWENTYONE_WEBAPP_URL=https://app.example.org/", "TWENTYONE_WEBAPP_NAME=table"}, key: "webapp.listen", what: "no server of the bot serves"},
		{name: "name too short", env: []string{"TWENTYONE_WEBAPP_LISTEN=:8080", "TWENTYONE_WEBAPP_URL=https://app.example.org/", "TWENTYONE_WEBAPP_NAME=ab"},
			key: "webapp.name", source: "TWENTYONE_WEBAPP_NAME", what: `3 to 30 of A-Z a-z 0-9 _, not "ab"`},
		{name: "name too long", env: []string{"TWENTYONE_WEBAPP_LISTEN=:8080", "TWENTYONE_WEBAPP_URL=https://app.example.org/", "TWENTYONE_WEBAPP_NAME=" + strings.Repeat("a", 31)},
			key: "webapp.name", source: "TWENTYONE_WEBAPP_NAME", what: "3 to 30"},
		{name: "name with a dash", yaml: "webapp:\n  listen: :8080\n  url: https://app.example.org/\n  name: my-app\n", key: "webapp.name", source: "line 4", what: `not "my-app"`},
		{name: "name as a link", env: []string{"TWENTYONE_WEBAPP_LISTEN=:8080", "TWENTYONE_WEBAPP_URL=https://app.example.org/", "TWENTYONE_WEBAPP_NAME=t.me/bot/table"},
			key: "webapp.name", source: "TWENTYONE_WEBAPP_NAME", what: "short name"},
		{name: "max age zero", env: []string{"TWENTYONE_WEBAPP_MAX_AGE=0s"}, key: "webapp.max_age", source: "TWENTYONE_WEBAPP_MAX_AGE", what: "must be positive, such as 24h, not 0s"},
		{name: "max age negative", yaml: "webapp:\n  max_age: -1h\n", key: "webapp.max_age", source: "line 2", what: "not -1h0m0s"},
		{name: "max age without a unit", yaml: "webapp:\n  max_age: 24\n", key: "webapp.max_age", source: "line 2", what: "with a unit"},
		{name: "no viewers", env: []string{"TWENTYONE_WEBAPP_MAX_VIEWERS=0"}, key: "webapp.max_viewers", source: "TWENTYONE_WEBAPP_MAX_VIEWERS", what: "at least 1, not 0"},
		{name: "negative viewers", yaml: "webapp:\n  max_viewers: -5\n", key: "webapp.max_viewers", source: "line 2", what: "not -5"},
		{name: "no viewers per table", yaml: "webapp:\n  max_viewers_per_table: 0\n", key: "webapp.max_viewers_per_table", source: "line 2", what: "at least 1, not 0"},
		{name: "negative viewers per table", env: []string{"TWENTYONE_WEBAPP_MAX_VIEWERS_PER_TABLE=-1"}, key: "webapp.max_viewers_per_table", source: "TWENTYONE_WEBAPP_MAX_VIEWERS_PER_TABLE", what: "not -1"},
		{name: "viewers not a number", env: []string{"TWENTYONE_WEBAPP_MAX_VIEWERS=many"}, key: "webapp.max_viewers", source: "TWENTYONE_WEBAPP_MAX_VIEWERS", what: "whole number"},
		{name: "an unknown key", yaml: "webapp:\n  port: 8080\n", key: "webapp.port", source: "line 2", what: "unknown key"},
	})
}

// TestWebAppInTheLogSummary: the configuration's log line (what `run`
// logs as it starts) holds the webapp keys.
func TestWebAppInTheLogSummary(t *testing.T) {
	cfg, err := Load("", false, append(appEnv, "TWENTYONE_WEBAPP_MAX_AGE=3h", "TWENTYONE_WEBAPP_MAX_VIEWERS_PER_TABLE=7"))
	require.NoError(t, err)
	var out bytes.Buffer
	slog.New(slog.NewTextHandler(&out, nil)).Info("starting", "config", cfg)
	for _, kv := range []string{"config.webapp.listen=127.0.0.1:8080", "config.webapp.url=https://app.example.org/twentyone/",
		"config.webapp.name=table", "config.webapp.max_age=3h0m0s", "config.webapp.max_viewers=10000", "config.webapp.max_viewers_per_table=7"} {
		assert.Contains(t, out.String(), kv)
	}
}
