package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/twentyone-bot/twentyone/bot/service"
	"github.com/twentyone-bot/twentyone/bot/webapp"
)

// appServer serves the Mini App of a bot run in this process or as
// `loadtest bot`, on webapp.listen, as `twentyone run` serves it: once the
// bot runs, with headers bounded by webapp.MaxHeaderBytes, stopped
// before the bot (its streams first).
type appServer struct {
	app *service.App
	srv *http.Server
}

// serveApp serves svc's app on addr; nil, and nothing served, when svc
// has none.
func serveApp(svc *service.Service, addr string, log *slog.Logger) (*appServer, error) {
	if svc.App == nil {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("the app's server: %w", err)
	}
	a := &appServer{app: svc.App, srv: &http.Server{
		Handler:           svc.App.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    webapp.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}}
	go func() {
		if err := a.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("the app's server", "err", err)
		}
	}()
	return a, nil
}

// shutdown ends the app's streams, then its server, within ctx; nil does
// nothing.
func (a *appServer) shutdown(ctx context.Context) error {
	if a == nil {
		return nil
	}
	a.app.Close()
	return a.srv.Shutdown(ctx)
}
