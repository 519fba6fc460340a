package config

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// WebAppConfig is the Mini App (docs/TELEGRAM.md, "Mini Apps"): its HTTP
// server, and the names BotFather was given for it. Without listen no app
// server runs; without url and name the table shows no app button.
type WebAppConfig struct {
	// Listen is the address the app's HTTP server listens on (plain HTTP:
	// put a TLS-terminating proxy in front of it that url reaches); empty
	// or "off" for none. Never the admin server's nor the webhook's.
	Listen string `yaml:"listen"`
	// URL is the public https URL BotFather's /newapp was given for the
	// app: the page, served from Listen behind the proxy.
	URL string `yaml:"url"`
	// Name is the app's short name at BotFather (the <name> of
	// t.me/<bot>/<name>): the table message's button links to it.
	Name string `yaml:"name"`
	// MaxAge is how old the app's initData may be: Telegram does not
	// refresh it while the app stays open, and a game may last hours.
	MaxAge time.Duration `yaml:"max_age"`
	// MaxViewers bounds the live streams open over all tables.
	MaxViewers int `yaml:"max_viewers"`
	// MaxViewersPerTable bounds the live streams open on one table.
	MaxViewersPerTable int `yaml:"max_viewers_per_table"`
}

// The defaults of the webapp keys, as the issue sets them: those bot/webapp
// and bot/webapp/live take when given none (service_test checks the
// first).
const (
	DefaultAppMaxAge             = 24 * time.Hour
	DefaultAppMaxViewers         = 10_000
	DefaultAppMaxViewersPerTable = 50
)

// defaultWebApp returns the webapp keys at their defaults: no app.
func defaultWebApp() WebAppConfig {
	return WebAppConfig{MaxAge: DefaultAppMaxAge, MaxViewers: DefaultAppMaxViewers, MaxViewersPerTable: DefaultAppMaxViewersPerTable}
}

// LogValue describes the webapp keys for a log line.
func (w WebAppConfig) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("listen", w.Listen),
		slog.String("url", w.URL),
		slog.String("name", w.Name),
		slog.Duration("max_age", w.MaxAge),
		slog.Int("max_viewers", w.MaxViewers),
		slog.Int("max_viewers_per_table", w.MaxViewersPerTable),
	)
}

// appNameRE is an app's short name as we read BotFather's /newapp (3 to
// 30 of A-Z a-z 0-9 _; bot/telegramtest's model reads it the same).
var appNameRE = regexp.MustCompile(`^[A-Za-z0-9_]{3,30}$`)

// validateWebApp checks the webapp keys; webapp.listen "off" becomes "".
// It runs after the http and telegram keys were checked.
func (c *Config) validateWebApp(src sources) error {
	w := &c.WebApp
	if w.Listen == "off" {
		// An empty variable counts as unset: "off" turns a listen the
		// file set off from the environment.
		w.Listen = ""
	}
	if w.Listen != "" {
		if err := checkListen(w.Listen); err != nil {
			return src.bad("webapp.listen", "%v", err)
		}
		if c.HTTP.Listen != "" && sameAddr(w.Listen, c.HTTP.Listen) {
			return src.bad("webapp.listen", "%q is the admin server's address, %s: the app needs one of its own", w.Listen, src.ref("http.listen", c.HTTP.Listen))
		}
		if hook := c.Telegram.Webhook.Listen; c.Telegram.Mode == "webhook" && sameAddr(w.Listen, hook) {
			return src.bad("webapp.listen", "%q is the webhook server's address, %s: the app needs one of its own", w.Listen, src.ref("telegram.webhook.listen", hook))
		}
	}
	if w.URL != "" {
		if err := checkAppURL(w.URL); err != nil {
			return src.bad("webapp.url", "%v", err)
		}
	}
	if w.Name != "" && !appNameRE.MatchString(w.Name) {
		return src.bad("webapp.name", "must be the app's short name at BotFather, 3 to 30 of A-Z a-z 0-9 _, not %q", w.Name)
	}
	switch {
	case w.URL != "" && w.Name == "":
		return src.bad("webapp.name", "must be set with webapp.url: the app's short name at BotFather, which the table's button links to")
	case w.Name != "" && w.URL == "":
		return src.bad("webapp.url", "must be set with webapp.name: the https URL BotFather was given for the app")
	case w.URL != "" && w.Listen == "":
		return src.bad("webapp.listen", "must be set with webapp.url and webapp.name: the table's button would open an app no server of the bot serves")
	}
	if w.MaxAge <= 0 {
		return src.bad("webapp.max_age", "must be positive, such as 24h, not %s", w.MaxAge)
	}
	if w.MaxViewers <= 0 {
		return src.bad("webapp.max_viewers", "must be at least 1, not %d", w.MaxViewers)
	}
	if w.MaxViewersPerTable <= 0 {
		return src.bad("webapp.max_viewers_per_table", "must be at least 1, not %d", w.MaxViewersPerTable)
	}
	return nil
}

// checkAppURL demands an absolute https URL without a fragment: BotFather
// takes only https, and Telegram puts the launch parameters in the
// fragment.
func checkAppURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || u.Opaque != "":
		return fmt.Errorf("must be an absolute https URL, such as https://app.example.org/, not %q", raw)
	case u.Scheme != "https":
		return fmt.Errorf("must be https (BotFather takes no other), not %q", raw)
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return fmt.Errorf("must have no fragment (#...): Telegram puts the app's launch parameters there; not %q", raw)
	}
	return nil
}

// sameAddr reports whether two listen addresses (both checkListen'd)
// would take the same port: the same port, and the same host or either
// one every interface's. Port 0 (a free port) never collides.
func sameAddr(a, b string) bool {
	ha, pa, _ := net.SplitHostPort(a)
	hb, pb, _ := net.SplitHostPort(b)
	na, _ := net.LookupPort("tcp", pa)
	nb, _ := net.LookupPort("tcp", pb)
	if na != nb || na == 0 {
		return false
	}
	everywhere := func(h string) bool {
		ip := net.ParseIP(h)
		return h == "" || ip != nil && ip.IsUnspecified()
	}
	return strings.EqualFold(ha, hb) || everywhere(ha) || everywhere(hb)
}
