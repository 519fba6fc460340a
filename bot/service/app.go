package service

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/twentyone-bot/twentyone/bot"
	"github.com/twentyone-bot/twentyone/bot/appgate"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/config"
	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/live"
	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/storage"
)

// WithApp builds the Mini App's server on the bot (Service.App), as the
// webapp keys say: its initData checked with the bot's token and
// webapp.max_age, its tables named with the store's key (storage's
// AppKey, drawn on first use), shown to the tables' players and their
// chats' members (bot.Bot.AppMembers), its live push bounded by
// webapp.max_viewers and webapp.max_viewers_per_table and told of every
// version the bot shows. Serving it (on webapp.listen) is the caller's.
func WithApp() Option { return func(o *options) { o.app = true } }

// WithAppFramedBy lets the app's page be framed by sources (its CSP's
// frame-ancestors, webapp.Options.FramedBy) in place of Telegram's web
// clients: the playground's, whose own page frames the app it serves
// ("'self'"). Without WithApp it changes nothing.
func WithAppFramedBy(sources string) Option { return func(o *options) { o.appFramedBy = sources } }

// WithAppLimits bounds each user's requests to the app's server by l
// (webapp.Limits; its zero fields, and without this option all of them,
// take the server's defaults): the playground's, whose one person plays
// every user on their own machine, and whose tests play faster than any
// human. Without WithApp it changes nothing.
func WithAppLimits(l webapp.Limits) Option { return func(o *options) { o.appLimits = l } }

// App is the Mini App's server on the running bot.
type App struct {
	// Handler answers the app's HTTP requests (bot/webapp.Server). Serve
	// it with an http.Server whose MaxHeaderBytes is
	// webapp.MaxHeaderBytes.
	Handler http.Handler
	hub     *live.Hub
}

// Close ends the app's live streams, whose pages reconnect (with the
// version they have) to whatever serves the app next, and refuses new
// ones. Call it before shutting down the HTTP server that serves Handler,
// whose Shutdown would otherwise wait for the streams, and that before
// the bot closes: an action in flight is taken on the bot's chat
// goroutines.
func (a *App) Close() { a.hub.Close() }

// AppLimits returns the bounds of the app's live push the config asks for.
func AppLimits(cfg *config.Config) live.Limits {
	return live.Limits{MaxViewers: cfg.WebApp.MaxViewers, MaxPerTable: cfg.WebApp.MaxViewersPerTable}
}

// appParts is what the app's server is built of before the bot connects:
// the hub the bot tells of every version it shows (bot.Config.Viewers),
// and the key of the tables' references.
type appParts struct {
	hub  *live.Hub
	refs tableref.Key
}

// prepareApp makes the hub and reads the store's key of the references.
func prepareApp(ctx context.Context, cfg *config.Config, st *storage.Store, log *slog.Logger) (*appParts, error) {
	raw, err := st.AppKey(ctx)
	if err != nil {
		return nil, fmt.Errorf("the Mini App's key: %w", err)
	}
	refs, err := tableref.KeyFrom(raw)
	if err != nil {
		return nil, fmt.Errorf("the Mini App's key: %w", err)
	}
	return &appParts{hub: live.New(appgate.Views{Store: st}, clock.System{}, log, AppLimits(cfg)), refs: refs}, nil
}

// build makes the app's server on the connected bot b.
func (p *appParts) build(cfg *config.Config, st *storage.Store, b *bot.Bot, o options) (*App, error) {
	srv, err := webapp.New(webapp.Options{
		Secret:   initdata.NewSecret(cfg.Telegram.Token.Reveal()),
		Refs:     p.refs,
		Members:  b.AppMembers(),
		Views:    appgate.Views{Store: st},
		Actor:    b.App(),
		Streams:  p.hub,
		Clock:    clock.System{},
		Log:      o.log,
		MaxAge:   cfg.WebApp.MaxAge,
		FramedBy: o.appFramedBy,
		Limits:   o.appLimits,
	})
	if err != nil {
		return nil, fmt.Errorf("the Mini App's server: %w", err)
	}
	return &App{Handler: srv, hub: p.hub}, nil
}
