package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"
)

// The trailers that end a POST /backup stream. A backup is complete only
// when its status trailer says "ok": the status line is sent before the
// copy is, so a failure midway can only be told at the end.
const (
	backupStatusTrailer = "X-Backup-Status"
	backupBytesTrailer  = "X-Backup-Bytes"
)

// adminOptions configure the admin HTTP handler.
type adminOptions struct {
	// Metrics serves /metrics.
	Metrics http.Handler
	// Ready returns nil when the process is ready: the bot started and the
	// store open.
	Ready func() error
	// Backup writes a consistent copy of the database to w; nil when there
	// is no store to back up.
	Backup func(ctx context.Context, w io.Writer) (int64, error)
	Logger *slog.Logger
}

// newAdminHandler returns the admin HTTP handler: GET /healthz (the process
// is alive), GET /readyz (it is ready), GET /metrics (Prometheus) and POST
// /backup (a consistent copy of the database, to loopback clients only).
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
	mux.HandleFunc("POST /backup", func(w http.ResponseWriter, r *http.Request) {
		if !loopbackClient(r) {
			http.Error(w, "backups are served to loopback clients only: run `twentyone backup` on the bot's host", http.StatusForbidden)
			return
		}
		if o.Backup == nil {
			http.Error(w, "no database open", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="twentyone.db"`)
		w.Header().Set("Trailer", backupStatusTrailer+", "+backupBytesTrailer)
		w.WriteHeader(http.StatusOK)
		start := time.Now()
		n, err := o.Backup(r.Context(), w)
		w.Header().Set(backupBytesTrailer, strconv.FormatInt(n, 10))
		if err != nil {
			o.Logger.Error("backup over HTTP failed", "err", err, "bytes", n)
			w.Header().Set(backupStatusTrailer, oneLine("error: "+err.Error()))
			return
		}
		w.Header().Set(backupStatusTrailer, "ok")
		o.Logger.Info("backup over HTTP", "bytes", n, "took", time.Since(start))
	})
	return mux
}

// loopbackClient reports whether r came from this host.
func loopbackClient(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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

// errNoAdmin reports that no admin server answered.
var errNoAdmin = errors.New("no admin server answered")

// backupOverHTTP asks the running bot's admin server for a backup and
// writes it to w. It returns an error wrapping errNoAdmin when nothing
// listens there, before anything was written to w.
func backupOverHTTP(ctx context.Context, listen string, w io.Writer) (int64, error) {
	base, err := adminURL(listen)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/backup", nil)
	if err != nil {
		return 0, err
	}
	client := &http.Client{Transport: &http.Transport{
		DialContext: (&net.Dialer{Timeout: 3 * time.Second}).DialContext,
	}}
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		if op, ok := errors.AsType[*net.OpError](err); ok && op.Op == "dial" {
			return 0, fmt.Errorf("%w at %s: %w", errNoAdmin, base, err)
		}
		return 0, fmt.Errorf("backup from %s: %w", base, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return 0, fmt.Errorf("backup from %s: %s: %s", base, resp.Status, oneLine(string(body)))
	}
	n, err := io.Copy(w, resp.Body)
	if err != nil {
		return n, fmt.Errorf("backup from %s: after %d bytes: %w", base, n, err)
	}
	if status := resp.Trailer.Get(backupStatusTrailer); status != "ok" {
		if status == "" {
			status = "the stream ended without a status"
		}
		return n, fmt.Errorf("backup from %s failed: %s", base, status)
	}
	if want := resp.Trailer.Get(backupBytesTrailer); want != strconv.FormatInt(n, 10) {
		return n, fmt.Errorf("backup from %s: got %d bytes, the server sent %s", base, n, want)
	}
	return n, nil
}

// healthcheck asks the admin server at listen for /healthz.
func healthcheck(ctx context.Context, listen string) error {
	if listen == "" {
		return errors.New("http.listen is empty: the admin server is off, so there is nothing to check")
	}
	base, err := adminURL(listen)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return err
	}
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1024))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s/healthz: %s", base, resp.Status)
	}
	return nil
}
