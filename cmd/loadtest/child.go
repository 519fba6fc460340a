package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
)

// childEnv, set to "bot", makes this binary (or a test binary of this
// package) run as the bot under load instead of the load tool.
const childEnv = "LOADTEST_CHILD"

// runChild runs the bot as cmd/twentyone does, configured by the same
// TWENTYONE_* variables, until SIGTERM or SIGINT (graceful) or SIGKILL. It
// serves /readyz, /metrics (go_goroutines and process_resident_memory_bytes
// only) and /debug/pprof/ on TWENTYONE_HTTP_LISTEN.
func runChild() int {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	set, err := settingsFromEnv(os.Getenv)
	if err != nil {
		log.Error("loadtest bot: configuration", "err", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var ready atomic.Bool
	if set.HTTPListen != "" {
		l, err := net.Listen("tcp", set.HTTPListen)
		if err != nil {
			log.Error("loadtest bot: admin server", "err", err)
			return 1
		}
		srv := &http.Server{Handler: adminMux(&ready), ReadHeaderTimeout: 5 * time.Second}
		go func() { _ = srv.Serve(l) }()
		defer srv.Close()
	}

	svc, err := openBot(ctx, set, log, nil)
	if err != nil {
		log.Error("loadtest bot: start", "err", err)
		return 1
	}
	ran := make(chan error, 1)
	go func() { ran <- svc.Bot.Run(ctx) }()
	app, err := serveApp(svc, set.WebappListen, log)
	if err == nil {
		ready.Store(true)
		select {
		case runErr := <-ran:
			err, ran = runErr, nil
		case <-ctx.Done():
		}
	}
	ready.Store(false)
	sctx, cancel := context.WithTimeout(context.Background(), 9*time.Second)
	defer cancel()
	// As twentyone stops: the app (its streams first), then the bot.
	err = errors.Join(err, app.shutdown(sctx))
	stop()
	if ran != nil {
		err = errors.Join(err, <-ran)
	}
	err = errors.Join(err, svc.Close(sctx))
	if err != nil {
		log.Error("loadtest bot: stop", "err", err)
		return 1
	}
	return 0
}

func adminMux(ready *atomic.Bool) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !ready.Load() {
			http.Error(w, "starting", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, _ *http.Request) {
		rss, _, _ := procStatus("self")
		fmt.Fprintf(w, "go_goroutines %d\nprocess_resident_memory_bytes %d\n", runtime.NumGoroutine(), rss)
	})
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
