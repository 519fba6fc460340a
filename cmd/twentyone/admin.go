package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/twentyone-bot/twentyone/bot/config"
)

// adminOptions configure the admin HTTP handler.
type adminOptions struct {
	// Metrics serves /metrics.
	Metrics http.Handler
	// Ready returns nil when the process is ready: the bot started and the
	// store open.
	Ready func() error
}

// newAdminHandler returns the admin HTTP handler: GET /healthz (the process
// is alive), GET /readyz (it is ready) and GET /metrics (Prometheus). POST
// /backup, which it served once, it answers 410 Gone with where backups
// are now: the backup socket (backupsocket.go), never this server, which
// may sit behind a reverse proxy.
func newAdminHandler(o adminOptions) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := o.Ready(); err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, "ready\n")
	})
	mux.Handle("GET /metrics", o.Metrics)
	mux.HandleFunc("POST /backup", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "backups are not served here: run `twentyone backup` on the bot's host, which asks the bot through its backup socket (http.backup_socket)", http.StatusGone)
	})
	return mux
}

// adminURL returns the base URL to reach an admin server listening on
// listen from this host: an unspecified host (":9121", "0.0.0.0:9121",
// "[::]:9121") is reached on loopback.
func adminURL(listen string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("http.listen %q: %w", listen, err)
	}
	switch ip := net.ParseIP(host); {
	case host == "":
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified():
		if ip.To4() != nil {
			host = "127.0.0.1"
		} else {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port), nil
}

// healthcheck asks the running bot whether it is alive: GET /healthz on
// the admin server, or, with the admin server off (http.listen off), on
// the backup socket, so that a container's health check works either way.
func healthcheck(ctx context.Context, cfg *config.Config) error {
	var (
		client *http.Client
		url    string
	)
	switch sock := cfg.BackupSocket(); {
	case cfg.HTTP.Listen != "":
		base, err := adminURL(cfg.HTTP.Listen)
		if err != nil {
			return err
		}
		client, url = &http.Client{Transport: &http.Transport{}}, base+"/healthz"
	case sock != "":
		client, url = socketClient(sock), socketURL+"/healthz"
	default:
		return errors.New("http.listen and http.backup_socket are both off: there is nothing to ask whether the bot is alive")
	}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1024))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	return nil
}
