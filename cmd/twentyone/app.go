package main

import (
	"context"
	"errors"
	"net/http"

	"github.com/twentyone-bot/twentyone/bot/webapp"
)

// App is what Main needs of the Mini App's server (service.App, wired in
// wire.go).
type App interface {
	// ServeHTTP answers the app's requests.
	http.Handler
	// Close ends the live streams and refuses new ones: before the HTTP
	// server's Shutdown, which would wait for them.
	Close()
}

// appServerOptions are the app's HTTP server's own: headers big enough
// for initData and no bigger.
func appServerOptions(s *http.Server) { s.MaxHeaderBytes = webapp.MaxHeaderBytes }

// listenApp takes webapp.listen, when it is set: Run takes it with the
// other addresses, before the database is opened, and serves the app on
// it once the bot runs (serveApp).
func (m *Main) listenApp() error {
	if m.Config.WebApp.Listen == "" {
		return nil
	}
	ln, err := listen("app", m.Config.WebApp.Listen)
	m.appListener = ln
	return err
}

// serveApp serves the app on the address listenApp took.
func (m *Main) serveApp(app App) {
	if m.appListener == nil || app == nil {
		return
	}
	m.appServer = serve("app", m.appListener, app, m.Logger, m.fatal, appServerOptions)
	m.appListener = nil
}

// closeApp stops the app: its live streams end, then the server, after
// the actions in flight were answered (they are taken on the bot's chat
// goroutines: the bot closes after). An address taken but never served is
// given back.
func (m *Main) closeApp(ctx context.Context) error {
	if m.app != nil {
		m.app.Close()
	}
	var errs []error
	if m.appServer != nil {
		errs = append(errs, m.appServer.Shutdown(ctx))
	}
	if m.appListener != nil {
		errs = append(errs, m.appListener.Close())
		m.appListener = nil
	}
	return errors.Join(errs...)
}

// AppAddr returns the app server's address ("" when none runs).
func (m *Main) AppAddr() string {
	if m.appServer == nil {
		return ""
	}
	return m.appServer.Addr()
}
