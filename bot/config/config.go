// Package config is the configuration of twentyone: every key with its
// default, read from a YAML file and overridden by TWENTYONE_* environment
// variables, validated at once with one-line errors that name the key and
// where its value came from. The binary, the playground and the load tool
// load it the same way; package service builds the running bot from it.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// DefaultPath is the file `-config` names when it is not given. A
// missing default file is fine: every key has a default and can be set
// from the environment.
const DefaultPath = "twentyone.yaml"

// EnvPrefix starts the name of every environment variable that overrides a
// config key: TWENTYONE_ and the key's path upper-cased with dots as
// underscores (telegram.webhook.url is TWENTYONE_TELEGRAM_WEBHOOK_URL).
const EnvPrefix = "TWENTYONE_"

// TelegramEndpoint is Telegram's Bot API endpoint in tgbotapi's format
// (".../bot%s/%s": the token, then the method).
const TelegramEndpoint = "https://api.telegram.org/bot%s/%s"

// Config is the configuration. Its yaml tags are the keys of the
// config file; the environment variables are derived from them (see
// EnvPrefix). Load it with Load.
type Config struct {
	Telegram TelegramConfig `yaml:"telegram"`
	Storage  StorageConfig  `yaml:"storage"`
	HTTP     HTTPConfig     `yaml:"http"`
	WebApp   WebAppConfig   `yaml:"webapp"`
	Log      LogConfig      `yaml:"log"`
	// Owners are the user ids of the bot's owners, who may use the owner
	// commands.
	Owners []int64     `yaml:"owners"`
	Table  TableConfig `yaml:"table"`
}

// TelegramConfig is how the bot talks to the Bot API.
type TelegramConfig struct {
	// Token is the bot's token from @BotFather; empty means no bot to run.
	Token Secret `yaml:"token"`
	// APIEndpoint is the Bot API endpoint in tgbotapi's format.
	APIEndpoint string `yaml:"api_endpoint"`
	// Mode is "polling" (getUpdates) or "webhook".
	Mode string `yaml:"mode"`
	// PollTimeout is the long-polling timeout of getUpdates.
	PollTimeout time.Duration `yaml:"poll_timeout"`
	// RateLimits paces outgoing calls at Telegram's limits; false only
	// against a local test server.
	RateLimits bool `yaml:"rate_limits"`
	// GlobalRate is how many calls a second the bot makes over all chats
	// when RateLimits is on (Telegram: about 30; bots whose limits were
	// raised, as paid broadcasts are, up to 1,000). The per-group limits
	// stay Telegram's.
	GlobalRate int           `yaml:"global_rate"`
	Webhook    WebhookConfig `yaml:"webhook"`
}

// WebhookConfig is the webhook mode's HTTP endpoint.
type WebhookConfig struct {
	// Listen is the address the webhook server listens on (plain HTTP:
	// put a TLS-terminating proxy in front of it).
	Listen string `yaml:"listen"`
	// URL is the public https URL Telegram posts updates to; its path is
	// the path the webhook server serves.
	URL string `yaml:"url"`
	// Secret is sent by Telegram in X-Telegram-Bot-Api-Secret-Token; empty
	// means a random one is made at each start.
	Secret Secret `yaml:"secret"`
	// MaxConnections is how many updates Telegram posts at once (setWebhook's
	// max_connections, 1 to 100; Telegram's default is 40).
	MaxConnections int `yaml:"max_connections"`
}

// StorageConfig is where the data lives.
type StorageConfig struct {
	// Path is the BoltDB file.
	Path string `yaml:"path"`
}

// HTTPConfig is the admin HTTP server and the backup socket.
type HTTPConfig struct {
	// Listen is the address of /healthz, /readyz and /metrics; empty turns
	// the server off.
	Listen string `yaml:"listen"`
	// BackupSocket is the Unix socket that serves POST /backup to
	// `twentyone backup`: empty for the database's path + ".sock", "off"
	// for none. See Config.BackupSocket.
	BackupSocket string `yaml:"backup_socket"`
}

// backupSocketOff is the http.backup_socket that turns the socket off.
const backupSocketOff = "off"

// BackupSocket returns the path of the backup socket, "" when it is off:
// http.backup_socket, or storage.path + ".sock" when that is empty.
func (c *Config) BackupSocket() string {
	switch c.HTTP.BackupSocket {
	case backupSocketOff:
		return ""
	case "":
		return c.Storage.Path + ".sock"
	}
	return c.HTTP.BackupSocket
}

// LogConfig is how the binary logs.
type LogConfig struct {
	// Level is debug, info, warn or error.
	Level string `yaml:"level"`
	// Format is text or json.
	Format string `yaml:"format"`
}

// TableConfig are the defaults of a chat nobody configured, and the chips
// the bot grants.
type TableConfig struct {
	// Settings are the settings of a chat nobody configured. Each
	// setting with a config key (game.Field.Config) is a key under table:
	// ("table.stake", TWENTYONE_TABLE_STAKE), written by its kind (see
	// settings.go); the language is auto (decided per chat at its first
	// /newgame, "" here) or one the bot speaks (i18n.Langs: en, ru, uk).
	Settings      game.ChatSettings `yaml:"-"`
	StartingChips int64             `yaml:"starting_chips"`
	DailyBonus    int64             `yaml:"daily_bonus"`
	// HouseChips are the house's chips in a chat, granted on its first
	// seat there.
	HouseChips int64 `yaml:"house_chips"`
}

// Game returns the table settings as the game knows them.
func (t TableConfig) Game() game.Settings { return t.Settings.Game.Clone() }

// DefaultConfig returns the configuration with every key at its default.
func Default() Config {
	return Config{
		Telegram: TelegramConfig{
			APIEndpoint: TelegramEndpoint,
			Mode:        "polling",
			PollTimeout: 25 * time.Second,
			RateLimits:  true,
			GlobalRate:  defaultGlobalRate,
			Webhook:     WebhookConfig{Listen: "127.0.0.1:8443", MaxConnections: 40},
		},
		Storage: StorageConfig{Path: "twentyone.db"},
		HTTP:    HTTPConfig{Listen: "127.0.0.1:9121"},
		WebApp:  defaultWebApp(),
		Log:     LogConfig{Level: "info", Format: "text"},
		Owners:  []int64{},
		Table: TableConfig{
			Settings:      game.DefaultChatSettings(),
			StartingChips: storage.DefaultStartingChips,
			DailyBonus:    storage.DefaultDailyBonus,
			HouseChips:    storage.DefaultHouseChips,
		},
	}
}

// LogValue describes the configuration for a log line, the secrets
// redacted.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Group("telegram",
			slog.Any("token", c.Telegram.Token),
			slog.String("api_endpoint", c.Telegram.APIEndpoint),
			slog.String("mode", c.Telegram.Mode),
			slog.Duration("poll_timeout", c.Telegram.PollTimeout),
			slog.Bool("rate_limits", c.Telegram.RateLimits),
			slog.Int("global_rate", c.Telegram.GlobalRate),
			slog.String("webhook_listen", c.Telegram.Webhook.Listen),
			slog.String("webhook_url", c.Telegram.Webhook.URL),
			slog.Any("webhook_secret", c.Telegram.Webhook.Secret),
			slog.Int("webhook_max_connections", c.Telegram.Webhook.MaxConnections)),
		slog.String("storage_path", c.Storage.Path),
		slog.String("http_listen", c.HTTP.Listen),
		slog.String("http_backup_socket", c.BackupSocket()),
		slog.Any("webapp", c.WebApp),
		slog.Any("owners", c.Owners),
		slog.String("table_defaults", settingsLine(c.Table.Settings)),
		slog.Int64("starting_chips", c.Table.StartingChips),
		slog.Int64("daily_bonus", c.Table.DailyBonus),
		slog.Int64("house_chips", c.Table.HouseChips),
	)
}

// Secret is a string that must not be printed: the bot token, the webhook
// secret. Every fmt verb and slog print it redacted; Reveal returns it.
type Secret string

const redacted = "[REDACTED]"

// Reveal returns the secret itself.
func (s Secret) Reveal() string { return string(s) }

// String returns "[REDACTED]", or "" for an empty secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString is String, for %#v.
func (s Secret) GoString() string { return s.String() }

// Format prints the secret redacted whatever the verb (%s, %v, %q, %x ...).
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", s.String())
		return
	}
	_, _ = f.Write([]byte(s.String()))
}

// LogValue is String, for slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText redacts too, so that no encoder can leak the secret.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Error is a configuration that cannot be used: it names the key,
// where its value came from, and what is wrong. Its text is one line.
type Error struct {
	// Key is the key's path ("table.stake"); empty for an error of the
	// file as a whole.
	Key string
	// Source is where the value came from: "TWENTYONE_TABLE_STAKE",
	// "config.yaml line 12", or "" for the default.
	Source string
	// Msg says what is wrong.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

// Error returns the one line the binary prints.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("config: ")
	switch {
	case e.Key != "" && e.Source != "":
		b.WriteString(e.Key + " (from " + e.Source + "): ")
	case e.Key != "":
		b.WriteString(e.Key + ": ")
	case e.Source != "":
		b.WriteString(e.Source + ": ")
	}
	b.WriteString(e.Msg)
	return oneLine(b.String())
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// oneLine folds a message onto one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

// Load returns the defaults, overridden by the YAML file at path and
// then by the TWENTYONE_* variables of environ, validated. A missing file is
// an error only when explicit (the user named it with -config). Every error
// is a *Error.
func Load(path string, explicit bool, environ []string) (*Config, error) {
	cfg := Default()
	src := sources{}
	if path != "" {
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			if err := applyYAML(&cfg, data, path, src); err != nil {
				return nil, err
			}
		case errors.Is(err, os.ErrNotExist) && !explicit:
			// Env-only configuration, as in the Docker image.
		default:
			return nil, &Error{Msg: fmt.Sprintf("reading %s: %v", path, unwrapPathError(err)), Err: err}
		}
	}
	if err := applyEnv(&cfg, environ, src); err != nil {
		return nil, err
	}
	if err := cfg.validate(src); err != nil {
		return nil, err
	}
	return &cfg, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// sources records where each key's value came from.
type sources map[string]string

// bad returns the problem of key, with where its value came from.
func (src sources) bad(key, format string, args ...any) error {
	return &Error{Key: key, Source: src[key], Msg: fmt.Sprintf(format, args...)}
}

// ref names another key in a message, with its value and where that came
// from.
func (src sources) ref(key string, value any) string {
	if s := src[key]; s != "" {
		return fmt.Sprintf("%s (%v, from %s)", key, value, s)
	}
	return fmt.Sprintf("%s (%v)", key, value)
}

// validate checks every key, in the order of the file, and returns the
// first problem.
func (c *Config) validate(src sources) error {
	if err := c.Telegram.validate(src); err != nil {
		return err
	}
	if c.Storage.Path == "" {
		return src.bad("storage.path", "must not be empty")
	}
	if err := c.validateHTTP(src); err != nil {
		return err
	}
	if err := c.validateWebApp(src); err != nil {
		return err
	}
	if !slices.Contains([]string{"debug", "info", "warn", "error"}, c.Log.Level) {
		return src.bad("log.level", "must be debug, info, warn or error, not %q", c.Log.Level)
	}
	if c.Log.Format != "text" && c.Log.Format != "json" {
		return src.bad("log.format", "must be text or json, not %q", c.Log.Format)
	}
	for _, id := range c.Owners {
		if id <= 0 {
			return src.bad("owners", "a user id must be positive, not %d", id)
		}
	}
	return c.Table.validate(src)
}

// telegram.global_rate: by default the bot's pacing over all chats
// (outbox.TelegramLimits; wire_test checks they agree), and at most what
// Telegram allows paid broadcasts (Bot API, sendMessage's
// allow_paid_broadcast: "up to 1000 messages per second").
const (
	defaultGlobalRate = 25
	maxGlobalRate     = 1000
)

// validate checks the telegram keys.
func (t *TelegramConfig) validate(src sources) error {
	if strings.ContainsAny(t.Token.Reveal(), " \t\r\n/%?#") {
		// Never echo the value: it is the token.
		return src.bad("telegram.token", "the token contains a space, a line break or one of / %% ? #: paste it exactly as @BotFather gave it")
	}
	if err := checkEndpoint(t.APIEndpoint); err != nil {
		return src.bad("telegram.api_endpoint", "%v", err)
	}
	if t.Mode != "polling" && t.Mode != "webhook" {
		return src.bad("telegram.mode", "must be polling or webhook, not %q", t.Mode)
	}
	if t.PollTimeout < time.Second || t.PollTimeout > 10*time.Minute {
		return src.bad("telegram.poll_timeout", "must be from 1s to 10m, not %s", t.PollTimeout)
	}
	if t.GlobalRate <= 0 || t.GlobalRate > maxGlobalRate {
		return src.bad("telegram.global_rate", "must be from 1 to %d calls a second, not %d (Telegram allows a bot about 30; more only where Telegram raised the bot's limits, up to %d with paid broadcasts)", maxGlobalRate, t.GlobalRate, maxGlobalRate)
	}
	if !t.RateLimits && mayReachTelegram(t.APIEndpoint) {
		return src.bad("telegram.rate_limits", "may be false only against a local test server, not api.telegram.org (see telegram.api_endpoint; a host name not in plain ASCII counts as api.telegram.org)")
	}
	if t.Mode == "webhook" {
		if t.Webhook.URL == "" {
			msg := "is required when telegram.mode is webhook"
			if s := src["telegram.mode"]; s != "" {
				msg += " (as " + s + " says)"
			}
			return src.bad("telegram.webhook.url", "%s", msg)
		}
		if err := checkListen(t.Webhook.Listen); err != nil {
			return src.bad("telegram.webhook.listen", "%v", err)
		}
	}
	if t.Webhook.URL != "" {
		if err := checkWebhookURL(t.Webhook.URL); err != nil {
			return src.bad("telegram.webhook.url", "%v", err)
		}
	}
	if s := t.Webhook.Secret.Reveal(); s != "" && !validWebhookSecret(s) {
		return src.bad("telegram.webhook.secret", "must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -")
	}
	if n := t.Webhook.MaxConnections; n < 1 || n > 100 {
		return src.bad("telegram.webhook.max_connections", "must be from 1 to 100 (Telegram's limits), not %d", n)
	}
	return nil
}

// validateHTTP checks the http keys; http.listen "off" becomes "".
func (c *Config) validateHTTP(src sources) error {
	if c.HTTP.Listen == "off" {
		// An empty variable counts as unset, so the environment (the
		// Docker image sets 0.0.0.0:9121) turns it off with "off".
		c.HTTP.Listen = ""
	}
	if c.HTTP.Listen != "" {
		if err := checkListen(c.HTTP.Listen); err != nil {
			return src.bad("http.listen", "%v", err)
		}
	}
	if sock := c.BackupSocket(); sock != "" {
		what := fmt.Sprintf("%q", sock)
		if c.HTTP.BackupSocket == "" {
			what += ", made from " + src.ref("storage.path", c.Storage.Path) + ","
		}
		switch {
		case len(sock) > MaxSocketPath:
			return src.bad("http.backup_socket", "%s is %d bytes, longer than a socket's path may be (%d): set http.backup_socket to a shorter path", what, len(sock), MaxSocketPath)
		case strings.HasPrefix(sock, "@"):
			// Linux takes "@name" for an abstract socket: no file, no
			// permissions, anyone on the host may connect.
			return src.bad("http.backup_socket", "%s starts with @, an abstract socket that anyone on the host could connect to: give a file path", what)
		case SameFile(sock, c.Storage.Path):
			return src.bad("http.backup_socket", "%s is the database itself: give another path", what)
		}
	}
	return nil
}

// validate checks the table keys (the settings first, each as its row
// says: settings.go), then whatever else the game demands of its
// settings.
func (tb *TableConfig) validate(src sources) error {
	if err := validateSettings(tb.Settings, src); err != nil {
		return err
	}
	switch {
	case tb.StartingChips < 1 || tb.StartingChips > storage.MaxGrant:
		return src.bad("table.starting_chips", "must be from 1 to %d, not %d", int64(storage.MaxGrant), tb.StartingChips)
	case tb.DailyBonus < 1 || tb.DailyBonus > storage.MaxGrant:
		return src.bad("table.daily_bonus", "must be from 1 to %d, not %d", int64(storage.MaxGrant), tb.DailyBonus)
	case tb.HouseChips < 1 || tb.HouseChips > storage.MaxGrant:
		return src.bad("table.house_chips", "must be from 1 to %d, not %d", int64(storage.MaxGrant), tb.HouseChips)
	}
	// Whatever else the game demands of its settings.
	if err := tb.Settings.Validate(); err != nil {
		return &Error{Key: "table", Msg: err.Error(), Err: err}
	}
	return nil
}

// langList names the languages the bot speaks, for a message: "en, ru, uk".
func langList() string {
	var codes []string
	for _, l := range i18n.Langs() {
		codes = append(codes, string(l))
	}
	return strings.Join(codes, ", ")
}

func checkEndpoint(ep string) error {
	if strings.Count(ep, "%s") != 2 || strings.Count(ep, "%") != 2 {
		return fmt.Errorf("must hold two %%s, for the token and the method, like %s; not %q", TelegramEndpoint, ep)
	}
	u, err := url.Parse(strings.ReplaceAll(ep, "%s", "x"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("must be an http or https URL like %s, not %q", TelegramEndpoint, ep)
	}
	return nil
}

// endpointHost returns the host name an endpoint dials, as DNS compares
// it: without userinfo, port and trailing dots ("api.telegram.org." is
// api.telegram.org), in lower case.
func endpointHost(ep string) string {
	u, err := url.Parse(strings.ReplaceAll(ep, "%s", "x"))
	if err != nil {
		return ""
	}
	return strings.ToLower(strings.TrimRight(u.Hostname(), "."))
}

// mayReachTelegram reports whether endpoint ep may dial api.telegram.org:
// its host is api.telegram.org, or it is not plain ASCII. net/http maps a
// host to ASCII (IDNA, UTS #46) before it dials, so "ａｐｉ.telegram.org"
// (fullwidth letters) or "api。telegram。org" (ideographic full stops) do;
// a local test server has an ASCII name.
func mayReachTelegram(ep string) bool {
	host := endpointHost(ep)
	for i := range len(host) {
		if host[i] >= utf8.RuneSelf {
			return true
		}
	}
	return host == endpointHost(TelegramEndpoint)
}

func checkListen(addr string) error {
	if addr == "" {
		return errors.New("must not be empty: give host:port, such as 127.0.0.1:9121")
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return fmt.Errorf("must be host:port, such as 127.0.0.1:9121, not %q", addr)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("bad port in %q", addr)
	}
	return nil
}

// webhookPorts are the only ports Telegram posts to: setWebhook refuses
// another with "Bad Request: bad webhook: Webhook can be set up only on
// ports 80, 88, 443 or 8443" (tdlib/telegram-bot-api, WebhookActor.cpp).
var webhookPorts = []string{"443", "80", "88", "8443"}

// checkWebhookURL demands https on a port Telegram posts to, which is all
// it accepts. A loopback host is exempt, over plain http and on any port:
// only a Bot API server on the same machine reaches it, a test server or
// one in --local mode, which takes any URL.
func checkWebhookURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("must be an absolute https URL, not %q", raw)
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !isLoopbackHost(u.Hostname()) {
			return fmt.Errorf("must be https (Telegram posts only to https), not %q", raw)
		}
	default:
		return fmt.Errorf("must be an https URL, not %q", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("must have no query or fragment: %q", raw)
	}
	if port := u.Port(); port != "" && !slices.Contains(webhookPorts, port) && !isLoopbackHost(u.Hostname()) {
		return fmt.Errorf("must be on port 443, 80, 88 or 8443, the only ports Telegram posts to, not %s: %q", port, raw)
	}
	return nil
}

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validWebhookSecret reports whether s is a secret_token Telegram accepts.
func validWebhookSecret(s string) bool {
	if len(s) < 1 || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// WebhookPath returns the path the webhook server serves: that of the
// webhook URL, "/" when it has none.
func WebhookPath(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Path == "" {
		return "/"
	}
	return u.Path
}
