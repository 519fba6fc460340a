package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

const testToken = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

func TestDefaultConfig(t *testing.T) {
	cfg, err := Load(filepath.Join(t.TempDir(), "missing.yaml"), false, nil)
	require.NoError(t, err)
	assert.Equal(t, Default(), *cfg)

	assert.Equal(t, TelegramEndpoint, cfg.Telegram.APIEndpoint)
	assert.Equal(t, "polling", cfg.Telegram.Mode)
	assert.Equal(t, 25*time.Second, cfg.Telegram.PollTimeout)
	assert.True(t, cfg.Telegram.RateLimits)
	assert.Equal(t, 25, cfg.Telegram.GlobalRate)
	assert.Equal(t, "twentyone.db", cfg.Storage.Path)
	assert.Equal(t, "127.0.0.1:9121", cfg.HTTP.Listen)
	assert.Equal(t, "twentyone.db.sock", cfg.BackupSocket(), "next to the database")
	assert.Equal(t, "info", cfg.Log.Level)
	assert.Equal(t, "text", cfg.Log.Format)
	assert.Empty(t, cfg.Owners)
	assert.True(t, game.DefaultSettings().Equal(cfg.Table.Game()), "the table defaults are the game's")
	assert.Equal(t, int64(1000), cfg.Table.StartingChips)
	assert.Equal(t, int64(100), cfg.Table.DailyBonus)
	assert.Equal(t, game.DefaultChatSettings(), cfg.Table.Settings, "the chat defaults are the game's")
	assert.Equal(t, "", cfg.Table.Settings.Language, "auto")
	assert.Equal(t, Secret(""), cfg.Telegram.Token)
}

func TestConfigFile(t *testing.T) {
	t.Run("missing default file is fine", func(t *testing.T) {
		_, err := Load(filepath.Join(t.TempDir(), "twentyone.yaml"), false, nil)
		require.NoError(t, err)
	})
	t.Run("missing explicit file is an error", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "nope.yaml")
		_, err := Load(path, true, nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), path)
		assert.Contains(t, err.Error(), "no such file")
	})
	t.Run("empty file", func(t *testing.T) {
		cfg, err := Load(writeFile(t, "c.yaml", ""), true, nil)
		require.NoError(t, err)
		assert.Equal(t, Default(), *cfg)
	})
	t.Run("null keeps the default", func(t *testing.T) {
		cfg, err := Load(writeFile(t, "c.yaml", "telegram:\n  mode:\ntable:\n"), true, nil)
		require.NoError(t, err)
		assert.Equal(t, Default(), *cfg)
	})
}

func TestYAMLOverrides(t *testing.T) {
	path := writeFile(t, "c.yaml", `
telegram:
  token: "`+testToken+`"
  api_endpoint: "http://127.0.0.1:8081/bot%s/%s"
  mode: webhook
  poll_timeout: 50s
  rate_limits: false
  global_rate: 1000
  webhook:
    listen: ":8443"
    url: https://bot.example.org/tg/hook
    secret: s3cr3t_-X
    max_connections: 20
storage:
  path: /var/lib/twentyone/bot.db
http:
  listen: "0.0.0.0:9999"
  backup_socket: /run/twentyone/backup.sock
log:
  level: debug
  format: json
owners: [111, 222]
table:
  stake: 5
  entry_limit: 50
  bet_options: "x1, x3, bank"
  turn_timeout: 90s
  lobby_timeout: 1h
  max_knocks: 0
  starting_chips: 500
  daily_bonus: 50
  house_chips: 2500
  language: ru
`)
	cfg, err := Load(path, true, nil)
	require.NoError(t, err)
	want := Default()
	want.Telegram = TelegramConfig{
		Token:       testToken,
		APIEndpoint: "http://127.0.0.1:8081/bot%s/%s",
		Mode:        "webhook",
		PollTimeout: 50 * time.Second,
		RateLimits:  false,
		GlobalRate:  1000,
		Webhook:     WebhookConfig{Listen: ":8443", URL: "https://bot.example.org/tg/hook", Secret: "s3cr3t_-X", MaxConnections: 20},
	}
	want.Storage.Path = "/var/lib/twentyone/bot.db"
	want.HTTP = HTTPConfig{Listen: "0.0.0.0:9999", BackupSocket: "/run/twentyone/backup.sock"}
	want.Log = LogConfig{Level: "debug", Format: "json"}
	want.Owners = []int64{111, 222}
	want.Table = TableConfig{
		Settings: game.ChatSettings{Game: game.Settings{
			Stake: 5, EntryLimit: 50,
			BetOptions:  []game.BetOption{{Kind: game.StakeTimes, N: 1}, {Kind: game.StakeTimes, N: 3}, {Kind: game.BankShare, N: 1}},
			TurnTimeout: 90 * time.Second, LobbyTimeout: time.Hour, MaxKnocks: 0,
		}, Language: "ru"},
		StartingChips: 500, DailyBonus: 50, HouseChips: 2500,
	}
	assert.Equal(t, want, *cfg)
	assert.Equal(t, "/tg/hook", WebhookPath(cfg.Telegram.Webhook.URL))
}

// TestEveryLanguageIsATableLanguage: table.language takes every language
// the bot speaks, as storage keeps it.
func TestEveryLanguageIsATableLanguage(t *testing.T) {
	for _, l := range i18n.Langs() {
		path := writeFile(t, "c.yaml", "telegram:\n  token: "+testToken+"\nowners: [1]\ntable:\n  language: "+string(l)+"\n")
		cfg, err := Load(path, true, nil)
		require.NoError(t, err, l)
		assert.Equal(t, string(l), cfg.Table.Settings.Language, l)
	}
}

func TestYAMLStyles(t *testing.T) {
	path := writeFile(t, "c.yaml", "log: {level: warn, format: json}\nowners:\n  - &o 7\n  - 8\ntable:\n  max_knocks: *o\n")
	cfg, err := Load(path, true, nil)
	require.NoError(t, err)
	assert.Equal(t, LogConfig{Level: "warn", Format: "json"}, cfg.Log)
	assert.Equal(t, []int64{7, 8}, cfg.Owners)
	assert.Equal(t, 7, cfg.Table.Settings.Game.MaxKnocks, "an alias")
}

// TestEnvOverrides sets one key of each type by its variable, over a file
// that sets it otherwise.
func TestEnvOverrides(t *testing.T) {
	file := writeFile(t, "c.yaml", "telegram:\n  token: from-file\n  api_endpoint: http://127.0.0.1:1/bot%s/%s\nstorage:\n  path: file.db\nowners: [1]\n")
	tests := []struct {
		name  string
		env   string
		check func(t *testing.T, c *Config)
	}{
		{"secret", "TWENTYONE_TELEGRAM_TOKEN=" + testToken, func(t *testing.T, c *Config) {
			assert.Equal(t, testToken, c.Telegram.Token.Reveal())
		}},
		{"string", "TWENTYONE_STORAGE_PATH=/data/twentyone.db", func(t *testing.T, c *Config) {
			assert.Equal(t, "/data/twentyone.db", c.Storage.Path)
		}},
		{"nested string", "TWENTYONE_TELEGRAM_WEBHOOK_URL=https://example.org/hook", func(t *testing.T, c *Config) {
			assert.Equal(t, "https://example.org/hook", c.Telegram.Webhook.URL)
		}},
		{"bool", "TWENTYONE_TELEGRAM_RATE_LIMITS=false", func(t *testing.T, c *Config) {
			assert.False(t, c.Telegram.RateLimits)
		}},
		{"int64", "TWENTYONE_TABLE_STAKE=20", func(t *testing.T, c *Config) {
			assert.Equal(t, int64(20), c.Table.Settings.Game.Stake)
		}},
		{"int", "TWENTYONE_TABLE_MAX_KNOCKS=5", func(t *testing.T, c *Config) {
			assert.Equal(t, 5, c.Table.Settings.Game.MaxKnocks)
		}},
		{"duration", "TWENTYONE_TELEGRAM_POLL_TIMEOUT=40s", func(t *testing.T, c *Config) {
			assert.Equal(t, 40*time.Second, c.Telegram.PollTimeout)
		}},
		{"list", "TWENTYONE_OWNERS=111, 222,333", func(t *testing.T, c *Config) {
			assert.Equal(t, []int64{111, 222, 333}, c.Owners)
		}},
		{"Ukrainian", "TWENTYONE_TABLE_LANGUAGE=uk", func(t *testing.T, c *Config) {
			assert.Equal(t, "uk", c.Table.Settings.Language)
		}},
		{"bet options", "TWENTYONE_TABLE_BET_OPTIONS=x2,bank/3", func(t *testing.T, c *Config) {
			assert.Equal(t, "x2, bank/3", game.FormatBetOptions(c.Table.Settings.Game.BetOptions))
		}},
		{"empty is unset", "TWENTYONE_STORAGE_PATH=", func(t *testing.T, c *Config) {
			assert.Equal(t, "file.db", c.Storage.Path)
		}},
		{"the admin server off", "TWENTYONE_HTTP_LISTEN=off", func(t *testing.T, c *Config) {
			assert.Empty(t, c.HTTP.Listen)
			assert.Equal(t, "file.db.sock", c.BackupSocket(), "the backup socket stays")
		}},
		{"the backup socket off", "TWENTYONE_HTTP_BACKUP_SOCKET=off", func(t *testing.T, c *Config) {
			assert.Empty(t, c.BackupSocket())
		}},
		{"the backup socket elsewhere", "TWENTYONE_HTTP_BACKUP_SOCKET=/run/twentyone.sock", func(t *testing.T, c *Config) {
			assert.Equal(t, "/run/twentyone.sock", c.BackupSocket())
		}},
		{"the backup socket follows the database", "TWENTYONE_STORAGE_PATH=/data/twentyone.db", func(t *testing.T, c *Config) {
			assert.Equal(t, "/data/twentyone.db.sock", c.BackupSocket())
		}},
		{"other variables are ignored", "TWENTYONEX=1", func(t *testing.T, c *Config) {
			assert.Equal(t, "file.db", c.Storage.Path)
		}},
		{"a Kubernetes service's port", "TWENTYONE_PORT=tcp://10.0.0.7:9121", func(t *testing.T, c *Config) {
			assert.Equal(t, "file.db", c.Storage.Path)
		}},
		{"a Kubernetes service's address", "TWENTYONE_PORT_9121_TCP_ADDR=10.0.0.7", func(t *testing.T, c *Config) {
			assert.Equal(t, "file.db", c.Storage.Path)
		}},
		{"a Kubernetes service's host", "TWENTYONE_SERVICE_HOST=10.0.0.7", func(t *testing.T, c *Config) {
			assert.Equal(t, "file.db", c.Storage.Path)
		}},
		{"a Docker link", "TWENTYONE_ENV_FOO=bar", func(t *testing.T, c *Config) {
			assert.Equal(t, "file.db", c.Storage.Path)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load(file, true, []string{"HOME=/root", tt.env})
			require.NoError(t, err)
			tt.check(t, cfg)
		})
	}
}

func TestConfigKeys(t *testing.T) {
	keys := configKeys()
	envs := make(map[string]string)
	var paths []string
	for _, k := range keys {
		if other, dup := envs[k.Env]; dup {
			t.Errorf("%s and %s both map to %s", other, k.Path, k.Env)
		}
		envs[k.Env] = k.Path
		paths = append(paths, k.Path)
		assert.Equal(t, EnvPrefix+strings.ToUpper(strings.ReplaceAll(k.Path, ".", "_")), k.Env)
	}
	var settings []string
	for _, f := range game.Fields() {
		if f.Config != "" {
			settings = append(settings, "table."+f.Config)
		}
	}
	want := []string{
		"telegram.token", "telegram.api_endpoint", "telegram.mode", "telegram.poll_timeout",
		"telegram.rate_limits", "telegram.global_rate", "telegram.webhook.listen", "telegram.webhook.url", "telegram.webhook.secret",
		"telegram.webhook.max_connections",
		"storage.path", "http.listen", "http.backup_socket",
		"webapp.listen", "webapp.url", "webapp.name", "webapp.max_age", "webapp.max_viewers", "webapp.max_viewers_per_table",
		"log.level", "log.format", "owners",
	}
	want = append(want, settings...)
	want = append(want, "table.starting_chips", "table.daily_bonus", "table.house_chips")
	assert.Equal(t, want, paths)
	// The keys of the settings that configs of before set stay.
	for _, k := range []string{"table.stake", "table.entry_limit", "table.bet_options", "table.turn_timeout",
		"table.lobby_timeout", "table.max_knocks", "table.language"} {
		assert.Contains(t, settings, k)
	}

	// Every key can be set from a string: the walk knows every field type.
	for _, k := range keys {
		cfg := Default()
		v := reflect.ValueOf(&cfg).Elem().FieldByIndex(k.index)
		if k.setting != nil {
			assert.NoError(t, setSetting(v, *k.setting, formatSetting(*k.setting, k.setting.Default)), k.Path)
			continue
		}
		sample := map[reflect.Kind]string{reflect.String: "x", reflect.Bool: "true", reflect.Int: "1", reflect.Int64: "1s", reflect.Slice: "1"}[v.Kind()]
		if v.Kind() == reflect.Int64 && v.Type() != durationType {
			sample = "1"
		}
		assert.NoError(t, setString(v, sample, false), k.Path)
	}
}

// TestExampleConfig: config.example.yaml sets every key, to its default.
func TestExampleConfig(t *testing.T) {
	path := filepath.Join("..", "..", "config.example.yaml")
	cfg := Default()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	src := sources{}
	require.NoError(t, applyYAML(&cfg, data, path, src))
	assert.Equal(t, Default(), cfg, "config.example.yaml must hold the defaults")
	for _, k := range configKeys() {
		assert.Contains(t, src, k.Path, "config.example.yaml lacks %s", k.Path)
	}
	loaded, err := Load(path, true, nil)
	require.NoError(t, err)
	assert.Equal(t, Default(), *loaded)
}

// TestConfigErrors: each bad configuration is refused with one line that
// names the key and where its value came from, and says what is wrong.
func TestConfigErrors(t *testing.T) {
	assertRefused(t, []refusal{
		{name: "unknown key", yaml: "telegram:\n  tokn: x\n", key: "telegram.tokn", source: "line 2", what: "unknown key"},
		{name: "unknown top key", yaml: "tables:\n  stake: 1\n", key: "tables", source: "line 1", what: "unknown key"},
		{name: "key twice", yaml: "log:\n  level: info\n  level: warn\n", key: "log.level", source: "line", what: "twice"},
		{name: "unknown env", env: []string{"TWENTYONE_TELEGRAM_TOKN=x"}, key: "", source: "TWENTYONE_TELEGRAM_TOKN", what: "no such config key"},
		{name: "env of a section", env: []string{"TWENTYONE_TABLE=x"}, source: "TWENTYONE_TABLE", what: "no such config key"},
		{name: "env like a port, misspelt", env: []string{"TWENTYONE_HTTP_PORT=9121"}, source: "TWENTYONE_HTTP_PORT", what: "no such config key"},
		{name: "yaml syntax", yaml: "telegram: [\n", source: "c.yaml", what: "yaml:"},
		{name: "two documents", yaml: "log:\n  level: info\n---\nlog:\n  level: warn\n", source: "c.yaml", what: "more than one"},
		{name: "mapping for a value", yaml: "storage:\n  path:\n    a: b\n", key: "storage.path", source: "line 3", what: "want a single value"},
		{name: "value for a section", yaml: "telegram: polling\n", key: "telegram", source: "line 1", what: "want a mapping"},
		{name: "scalar for a list", yaml: "owners: 5\n", key: "owners", source: "line 1", what: "want a list"},
		{name: "wrong type int", yaml: "table:\n  stake: ten\n", key: "table.stake", source: "line 2", what: `not "ten"`},
		{name: "wrong type int env", env: []string{"TWENTYONE_TABLE_STAKE=1.5"}, key: "table.stake", source: "TWENTYONE_TABLE_STAKE", what: "whole number"},
		{name: "wrong type bool", env: []string{"TWENTYONE_TELEGRAM_RATE_LIMITS=maybe"}, key: "telegram.rate_limits", source: "TWENTYONE_TELEGRAM_RATE_LIMITS", what: "true or false"},
		{name: "wrong type list item", yaml: "owners: [1, x]\n", key: "owners", source: "line 1", what: "item 2"},
		{name: "wrong type list env", env: []string{"TWENTYONE_OWNERS=1,x"}, key: "owners", source: "TWENTYONE_OWNERS", what: "item 2"},
		{name: "duration without unit", yaml: "telegram:\n  poll_timeout: 25\n", key: "telegram.poll_timeout", source: "line 2", what: "with a unit"},
		{name: "negative poll timeout", env: []string{"TWENTYONE_TELEGRAM_POLL_TIMEOUT=-5s"}, key: "telegram.poll_timeout", source: "TWENTYONE_TELEGRAM_POLL_TIMEOUT", what: "from 1s"},
		{name: "negative turn timeout", yaml: "table:\n  turn_timeout: -1m\n", key: "table.turn_timeout", source: "line 2", what: "from 10s"},
		{name: "too short turn timeout", env: []string{"TWENTYONE_TABLE_TURN_TIMEOUT=5s"}, key: "table.turn_timeout", source: "TWENTYONE_TABLE_TURN_TIMEOUT", what: "not 5s"},
		{name: "too short lobby timeout", yaml: "table:\n  lobby_timeout: 10s\n", key: "table.lobby_timeout", source: "line 2", what: "from 30s"},
		{name: "entry limit below stake", yaml: "table:\n  stake: 50\n  entry_limit: 20\n", key: "table.entry_limit", source: "line 3", what: "at least table.stake (50, from "},
		{name: "entry limit below env stake", env: []string{"TWENTYONE_TABLE_STAKE=500"}, key: "table.entry_limit", what: "at least table.stake (500, from TWENTYONE_TABLE_STAKE), not 100"},
		{name: "zero stake", env: []string{"TWENTYONE_TABLE_STAKE=0"}, key: "table.stake", source: "TWENTYONE_TABLE_STAKE", what: "from 1"},
		{name: "bad bet option", yaml: "table:\n  bet_options: x1, y2\n", key: "table.bet_options", source: "line 2", what: `"y2"`},
		{name: "bad bet option env", env: []string{"TWENTYONE_TABLE_BET_OPTIONS=x0"}, key: "table.bet_options", source: "TWENTYONE_TABLE_BET_OPTIONS", what: "stake multiple"},
		{name: "duplicate bet option", yaml: "table:\n  bet_options: x1, x1\n", key: "table.bet_options", what: "twice"},
		{name: "too many knocks", yaml: "table:\n  max_knocks: 11\n", key: "table.max_knocks", what: "from 0 to 10"},
		{name: "no starting chips", yaml: "table:\n  starting_chips: 0\n", key: "table.starting_chips", what: "from 1"},
		{name: "negative bonus", env: []string{"TWENTYONE_TABLE_DAILY_BONUS=-1"}, key: "table.daily_bonus", source: "TWENTYONE_TABLE_DAILY_BONUS", what: "from 1"},
		{name: "no house chips", yaml: "table:\n  house_chips: 0\n", key: "table.house_chips", what: "from 1"},
		{name: "too many house chips", env: []string{"TWENTYONE_TABLE_HOUSE_CHIPS=1000000000000001"}, key: "table.house_chips",
			source: "TWENTYONE_TABLE_HOUSE_CHIPS", what: "from 1"},
		{name: "bad language", yaml: "table:\n  language: de\n", key: "table.language", source: "line 2", what: `auto or one of en, ru, uk, not "de"`},
		{name: "a country for a language", env: []string{"TWENTYONE_TABLE_LANGUAGE=ua"}, key: "table.language", source: "TWENTYONE_TABLE_LANGUAGE", what: `auto or one of en, ru, uk, not "ua"`},
		{name: "bad log level", env: []string{"TWENTYONE_LOG_LEVEL=verbose"}, key: "log.level", source: "TWENTYONE_LOG_LEVEL", what: "debug, info, warn or error"},
		{name: "bad log format", yaml: "log:\n  format: xml\n", key: "log.format", source: "line 2", what: "text or json"},
		{name: "bad mode", env: []string{"TWENTYONE_TELEGRAM_MODE=push"}, key: "telegram.mode", source: "TWENTYONE_TELEGRAM_MODE", what: "polling or webhook"},
		{name: "webhook without url", yaml: "telegram:\n  mode: webhook\n", key: "telegram.webhook.url", what: "required"},
		{name: "webhook with http url", env: []string{"TWENTYONE_TELEGRAM_MODE=webhook", "TWENTYONE_TELEGRAM_WEBHOOK_URL=http://example.org/hook"}, key: "telegram.webhook.url", source: "TWENTYONE_TELEGRAM_WEBHOOK_URL", what: "must be https"},
		{name: "webhook with relative url", yaml: "telegram:\n  mode: webhook\n  webhook:\n    url: /hook\n", key: "telegram.webhook.url", source: "line 4", what: "absolute https"},
		{name: "webhook bad listen", env: []string{"TWENTYONE_TELEGRAM_MODE=webhook", "TWENTYONE_TELEGRAM_WEBHOOK_URL=https://e.org/", "TWENTYONE_TELEGRAM_WEBHOOK_LISTEN=8443"}, key: "telegram.webhook.listen", source: "TWENTYONE_TELEGRAM_WEBHOOK_LISTEN", what: "host:port"},
		{name: "bad webhook secret", yaml: "telegram:\n  webhook:\n    secret: has space\n", key: "telegram.webhook.secret", source: "line 3", what: "A-Z"},
		{name: "webhook on another port", env: []string{"TWENTYONE_TELEGRAM_WEBHOOK_URL=https://bot.example.org:8080/hook"}, key: "telegram.webhook.url", source: "TWENTYONE_TELEGRAM_WEBHOOK_URL", what: "port 443, 80, 88 or 8443, the only ports Telegram posts to, not 8080"},
		{name: "no webhook connections", yaml: "telegram:\n  webhook:\n    max_connections: 0\n", key: "telegram.webhook.max_connections", source: "line 3", what: "from 1 to 100"},
		{name: "too many webhook connections", env: []string{"TWENTYONE_TELEGRAM_WEBHOOK_MAX_CONNECTIONS=101"}, key: "telegram.webhook.max_connections", source: "TWENTYONE_TELEGRAM_WEBHOOK_MAX_CONNECTIONS", what: "not 101"},
		{name: "bad endpoint", env: []string{"TWENTYONE_TELEGRAM_API_ENDPOINT=https://api.telegram.org/bot"}, key: "telegram.api_endpoint", source: "TWENTYONE_TELEGRAM_API_ENDPOINT", what: "two %s"},
		{name: "no rate limits against telegram", yaml: "telegram:\n  rate_limits: false\n", key: "telegram.rate_limits", source: "line 2", what: "local test server"},
		{name: "global rate zero", yaml: "telegram:\n  global_rate: 0\n", key: "telegram.global_rate", source: "line 2", what: "from 1 to 1000"},
		{name: "global rate negative", env: []string{"TWENTYONE_TELEGRAM_GLOBAL_RATE=-5"}, key: "telegram.global_rate", source: "TWENTYONE_TELEGRAM_GLOBAL_RATE", what: "not -5"},
		{name: "global rate past paid broadcasts", env: []string{"TWENTYONE_TELEGRAM_GLOBAL_RATE=1001"}, key: "telegram.global_rate", source: "TWENTYONE_TELEGRAM_GLOBAL_RATE", what: "up to 1000 with paid broadcasts"},
		{name: "bad http listen", yaml: "http:\n  listen: localhost\n", key: "http.listen", source: "line 2", what: "host:port"},
		{name: "backup socket too long", env: []string{"TWENTYONE_HTTP_BACKUP_SOCKET=/" + strings.Repeat("s", MaxSocketPath)}, key: "http.backup_socket", source: "TWENTYONE_HTTP_BACKUP_SOCKET", what: "longer than a socket's path may be"},
		{name: "database path too long for the socket", yaml: "storage:\n  path: /" + strings.Repeat("d", MaxSocketPath-6) + ".db\n", key: "http.backup_socket", what: "made from storage.path (/ddd"},
		{name: "abstract backup socket", yaml: "http:\n  backup_socket: \"@twentyone\"\n", key: "http.backup_socket", source: "line 2", what: "abstract socket"},
		{name: "backup socket is the database", env: []string{"TWENTYONE_STORAGE_PATH=bot.db", "TWENTYONE_HTTP_BACKUP_SOCKET=./bot.db"}, key: "http.backup_socket", source: "TWENTYONE_HTTP_BACKUP_SOCKET", what: "the database itself"},
		{name: "empty storage path", yaml: "storage:\n  path: \"\"\n", key: "storage.path", source: "line 2", what: "empty"},
		{name: "negative owner", env: []string{"TWENTYONE_OWNERS=5,-3"}, key: "owners", source: "TWENTYONE_OWNERS", what: "positive"},
		{name: "token with a space", yaml: "telegram:\n  token: \"" + testToken + " x\"\n", key: "telegram.token", source: "line 2", what: "paste it exactly"},
	})
}

// refusal is a configuration Load must refuse: from the file yaml (none
// when empty) and the environment env, with one line naming key first,
// where its value came from (source), and what is wrong (what).
type refusal struct {
	name   string
	yaml   string
	env    []string
	key    string
	source string
	what   string
}

// assertRefused checks that Load refuses each configuration as its case
// says, in one line that never shows the token.
func assertRefused(t *testing.T, tests []refusal) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			if tt.yaml != "" {
				path = writeFile(t, "c.yaml", tt.yaml)
			}
			cfg, err := Load(path, path != "", tt.env)
			assert.Nil(t, cfg)
			var cerr *Error
			require.ErrorAs(t, err, &cerr)
			line := err.Error()
			assert.NotContains(t, line, "\n", "one line")
			assert.True(t, strings.HasPrefix(line, "config: "+tt.key), "%q names %q first", line, tt.key)
			assert.Equal(t, tt.key, cerr.Key, "the error's key")
			assert.Contains(t, line, tt.source)
			assert.Contains(t, line, tt.what)
			assert.NotContains(t, line, testToken)
		})
	}
}

// TestRateLimitsGuard: telegram.rate_limits may be false only with an
// endpoint that does not reach api.telegram.org, however its host is
// spelt.
func TestRateLimitsGuard(t *testing.T) {
	tests := []struct {
		endpoint string
		refused  bool
	}{
		{"https://api.telegram.org/bot%s/%s", true},
		{"https://api.telegram.org./bot%s/%s", true},
		{"https://api.telegram.org../bot%s/%s", true},
		{"https://API.Telegram.ORG./bot%s/%s", true},
		{"https://api.telegram.org:443/bot%s/%s", true},
		{"https://api.telegram.org.:443/bot%s/%s", true},
		{"http://api.telegram.org:80/bot%s/%s", true},
		{"https://user:pass@api.telegram.org./bot%s/%s", true},
		// net/http maps a host to ASCII (IDNA) before it dials: these two
		// reach api.telegram.org.
		{"https://\uff41\uff50\uff49.telegram.org/bot%s/%s", true}, // fullwidth "api"
		{"https://api\u3002telegram\u3002org/bot%s/%s", true},      // ideographic full stops
		{"http://127.0.0.1:8081/bot%s/%s", false},
		{"http://localhost:8081/bot%s/%s", false},
		{"http://[::1]:8081/bot%s/%s", false},
		{"https://api.telegram.org.example.com/bot%s/%s", false},
		{"https://bot-api.internal/bot%s/%s", false},
	}
	for _, tt := range tests {
		t.Run(tt.endpoint, func(t *testing.T) {
			_, err := Load("", false, []string{
				"TWENTYONE_TELEGRAM_API_ENDPOINT=" + tt.endpoint,
				"TWENTYONE_TELEGRAM_RATE_LIMITS=false",
			})
			if !tt.refused {
				assert.NoError(t, err)
				return
			}
			var cerr *Error
			require.ErrorAs(t, err, &cerr)
			assert.Equal(t, "telegram.rate_limits", cerr.Key)
		})
	}
}

func TestSecretIsNeverPrinted(t *testing.T) {
	s := Secret(testToken)
	cfg := Default()
	cfg.Telegram.Token = s
	cfg.Telegram.Webhook.Secret = "webhooksecret"
	for _, format := range []string{"%s", "%v", "%+v", "%#v", "%q", "%x", "%X", "%10s", "%d"} {
		out := fmt.Sprintf(format, cfg)
		assert.NotContains(t, out, testToken, format)
		assert.NotContains(t, out, "webhooksecret", format)
		assert.NotContains(t, fmt.Sprintf(format, s), testToken, format)
	}
	assert.Equal(t, "[REDACTED]", s.String())
	assert.Equal(t, "", Secret("").String())
	text, err := s.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, "[REDACTED]", string(text))
	assert.Equal(t, testToken, s.Reveal())
}

func TestWebhookPath(t *testing.T) {
	assert.Equal(t, "/", WebhookPath("https://example.org"))
	assert.Equal(t, "/", WebhookPath("https://example.org/"))
	assert.Equal(t, "/a/b", WebhookPath("https://example.org/a/b"))
	assert.NoError(t, checkWebhookURL("http://127.0.0.1:8080/hook"), "plain http to loopback, for a local test server")
	assert.NoError(t, checkWebhookURL("http://localhost/hook"))
	for _, port := range []string{"", ":443", ":80", ":88", ":8443"} {
		assert.NoError(t, checkWebhookURL("https://example.org"+port+"/hook"), "Telegram posts to port %q", port)
	}
	assert.ErrorContains(t, checkWebhookURL("https://example.org:8080/hook"), "port 443, 80, 88 or 8443")
	assert.ErrorContains(t, checkWebhookURL("https://example.org:444/hook"), "not 444")
	assert.NoError(t, checkWebhookURL("https://127.0.0.1:9443/hook"), "any port on loopback, for a local Bot API server")
	assert.Error(t, checkWebhookURL("http://10.0.0.1/hook"))
	assert.Error(t, checkWebhookURL("https://example.org/hook?x=1"))
	assert.Error(t, checkWebhookURL("ftp://example.org/hook"))
}

// otherValue returns a value of the setting f other than its default, as
// the config file takes it, that keeps the limits beside the defaults.
func otherValue(t *testing.T, f game.Field) (string, game.Value) {
	t.Helper()
	switch f.Kind {
	case game.FieldNumber, game.FieldDuration:
		for _, p := range f.Presets {
			c := game.DefaultChatSettings()
			f.Set(&c, game.Value{N: p})
			if p != f.Default.N && c.Validate() == nil {
				return formatSetting(f, game.Value{N: p}), game.Value{N: p}
			}
		}
	case game.FieldBets:
		v := game.Value{Bets: []game.BetOption{{Kind: game.StakeTimes, N: 2}, {Kind: game.BankShare, N: 1}}}
		return formatSetting(f, v), v
	case game.FieldToggle:
		v := game.Value{On: !f.Default.On}
		return formatSetting(f, v), v
	case game.FieldLanguage:
		return "ru", game.Value{Text: "ru"}
	}
	t.Fatalf("%s: no other value", f.Key)
	return "", game.Value{}
}

// badValues returns values of the setting f the config refuses, and what
// the error says of each.
func badValues(f game.Field) map[string]string {
	switch f.Kind {
	case game.FieldNumber:
		over := strconv.FormatInt(f.Max+1, 10)
		return map[string]string{"ten": `want a whole number, not "ten"`, over: strconv.FormatInt(f.Max, 10) + ", not " + over}
	case game.FieldDuration:
		over := time.Duration(f.Max) + time.Second
		return map[string]string{"5": "with a unit", over.String(): "not " + over.String()}
	case game.FieldBets:
		return map[string]string{"x1, y2": `"y2"`}
	case game.FieldToggle:
		return map[string]string{"maybe": `want on or off, not "maybe"`}
	case game.FieldLanguage:
		return map[string]string{"de": `auto or one of en, ru, uk, not "de"`}
	}
	return nil
}

// TestEverySettingIsAConfigKey: every setting with a config key is set by
// the file and by its variable alike, to what the file says, and a bad
// value is refused with a line that names the key and where it came from.
func TestEverySettingIsAConfigKey(t *testing.T) {
	for _, f := range settingKeys() {
		t.Run(f.Key, func(t *testing.T) {
			text, want := otherValue(t, f)
			key := "table." + f.Config
			for _, src := range []string{"file", "env"} {
				var cfg *Config
				var err error
				if src == "file" {
					cfg, err = Load(writeFile(t, "c.yaml", "table:\n  "+f.Config+": "+strconv.Quote(text)+"\n"), true, nil)
				} else {
					cfg, err = Load("", false, []string{envName(key) + "=" + text})
				}
				require.NoError(t, err, src)
				assert.True(t, f.Equal(want, f.Get(cfg.Table.Settings)), "%s: %s = %q", src, key, text)
				def := Default()
				for _, o := range game.Fields() {
					if o.Key != f.Key {
						assert.True(t, o.Equal(o.Get(def.Table.Settings), o.Get(cfg.Table.Settings)), "%s: %s leaves %s alone", src, key, o.Key)
					}
				}
			}
			for bad, what := range badValues(f) {
				_, err := Load("", false, []string{envName(key) + "=" + bad})
				var ce *Error
				require.ErrorAs(t, err, &ce, bad)
				assert.Equal(t, key, ce.Key, bad)
				assert.Equal(t, envName(key), ce.Source, bad)
				assert.Contains(t, ce.Msg, what, bad)
				assert.NotContains(t, err.Error(), "\n")
			}
		})
	}
}
