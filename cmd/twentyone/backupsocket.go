package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Backups of the running bot are served over a Unix socket of their own
// (http.backup_socket), not by the admin server: the admin server's
// /metrics is what gets put behind a reverse proxy, and a proxy on the
// same host makes every request come from loopback. The socket's file
// mode (0600) lets only the bot's user and root connect.

// The trailers that end a POST /backup stream. A backup is complete only
// when its status trailer says "ok": the status line is sent before the
// copy is, so a failure midway can only be told at the end.
const (
	backupStatusTrailer = "X-Backup-Status"
	backupBytesTrailer  = "X-Backup-Bytes"
)

// newBackupHandler returns the backup socket's handler: POST /backup
// writes a consistent copy of the database, made by backup, unless the
// request came through a proxy (see forwardingHeader).
func newBackupHandler(backup func(ctx context.Context, w io.Writer) (int64, error), log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	// Alive, as the admin server's: `twentyone healthcheck` asks here when
	// the admin server is off.
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("POST /backup", func(w http.ResponseWriter, r *http.Request) {
		if h := forwardingHeader(r.Header); h != "" {
			log.Warn("backup refused: the request came through a proxy", "header", h)
			http.Error(w, "backups are not served through a proxy (the request carries "+h+"): run `twentyone backup` on the bot's host", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="twentyone.db"`)
		w.Header().Set("Trailer", backupStatusTrailer+", "+backupBytesTrailer)
		w.WriteHeader(http.StatusOK)
		start := time.Now()
		n, err := backup(r.Context(), w)
		w.Header().Set(backupBytesTrailer, strconv.FormatInt(n, 10))
		if err != nil {
			log.Error("backup over the socket failed", "err", err, "bytes", n)
			w.Header().Set(backupStatusTrailer, oneLine("error: "+err.Error()))
			return
		}
		w.Header().Set(backupStatusTrailer, "ok")
		log.Info("backup over the socket", "bytes", n, "took", time.Since(start))
	})
	return mux
}

// forwardingHeader returns a header of h that a proxy adds to the
// requests it forwards, "" when there is none. `twentyone backup` sends
// none of them. Caddy adds X-Forwarded-For, -Proto and -Host by default;
// Traefik those, -Port, -Server and X-Real-Ip; Apache's mod_proxy
// X-Forwarded-For, -Host and -Server; Squid and Varnish Via; RFC 7239
// proxies Forwarded. nginx and HAProxy add none unless told to, and a
// client may ask a proxy to drop one (Connection: X-Forwarded-For): this
// catches a proxy by mistake, it does not make proxying safe.
func forwardingHeader(h http.Header) string {
	for name := range h { // canonical: "X-Real-Ip", "X-Forwarded-For"
		switch {
		case name == "Forwarded", name == "Via", name == "X-Real-Ip",
			strings.HasPrefix(name, "X-Forwarded-"):
			return name
		}
	}
	return ""
}

// listenBackupSocket listens on a new socket at path, with mode 0600. A
// socket left there by a process that ended without removing it (a crash)
// is replaced; a socket some process answers on, or a file that is no
// socket, is left alone and an error. Closing the listener removes the
// socket, unless another took its place.
func listenBackupSocket(path string) (net.Listener, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("backup socket: %w", err)
	case fi.Mode().Type() != os.ModeSocket:
		return nil, fmt.Errorf("backup socket: %s exists and is not a socket: remove it, or set http.backup_socket to another path", path)
	default:
		c, err := net.DialTimeout("unix", path, time.Second)
		if err == nil {
			_ = c.Close()
			return nil, fmt.Errorf("backup socket: another process answers on %s: set http.backup_socket to another path", path)
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("backup socket: %w", err)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("backup socket: removing the one left by a process that ended: %w", err)
		}
	}
	ln, err := listenPrivateUnix(path)
	if err != nil {
		return nil, fmt.Errorf("backup socket: %w", err)
	}
	if fi, err = os.Lstat(path); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("backup socket: %w", err)
	}
	return &socketListener{Listener: ln, path: path, file: fi}, nil
}

// socketListener is a Unix socket's listener that removes its file when
// closed.
type socketListener struct {
	net.Listener
	path string
	file os.FileInfo // the socket's file, as created
	once sync.Once
	err  error
}

// Close stops listening and removes the socket's file if it is still the
// one this listener made; if that fails, the next start replaces the file
// left behind. Later calls return the first's result.
func (l *socketListener) Close() error {
	l.once.Do(func() {
		l.err = l.Listener.Close()
		if fi, err := os.Lstat(l.path); err == nil && os.SameFile(fi, l.file) {
			_ = os.Remove(l.path)
		}
	})
	return l.err
}

// socketClient returns an HTTP client whose every request goes to the Unix
// socket at path, whatever its URL's host (see socketURL).
func socketClient(path string) *http.Client {
	dialer := &net.Dialer{Timeout: 3 * time.Second}
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, "unix", path)
		},
	}}
}

// socketURL is the base URL of socketClient's requests: its host is a
// placeholder, the client dials the socket.
const socketURL = "http://twentyone"

// errNoBot reports that no running bot answered on the backup socket.
var errNoBot = errors.New("no running bot answered")

// backupOverSocket asks the running bot, through its backup socket at
// path, for a backup and writes it to w. It returns an error wrapping
// errNoBot when there is no socket or nobody listens on it (the bot does
// not run, or crashed), before anything was written to w.
func backupOverSocket(ctx context.Context, path string, w io.Writer) (int64, error) {
	client := socketClient(path)
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, socketURL+"/backup", nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	switch {
	case err == nil:
	case errors.Is(err, os.ErrNotExist), errors.Is(err, syscall.ECONNREFUSED):
		return 0, fmt.Errorf("%w on %s: %w", errNoBot, path, err)
	case errors.Is(err, os.ErrPermission):
		return 0, fmt.Errorf("backup from %s: %w: run twentyone backup as the user the bot runs as", path, err)
	default:
		return 0, fmt.Errorf("backup from %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return 0, fmt.Errorf("backup from %s: %s: %s", path, resp.Status, oneLine(string(body)))
	}
	n, err := io.Copy(w, resp.Body)
	if err != nil {
		return n, fmt.Errorf("backup from %s: after %d bytes: %w", path, n, err)
	}
	if status := resp.Trailer.Get(backupStatusTrailer); status != "ok" {
		if status == "" {
			status = "the stream ended without a status"
		}
		return n, fmt.Errorf("backup from %s failed: %s", path, status)
	}
	if want := resp.Trailer.Get(backupBytesTrailer); want != strconv.FormatInt(n, 10) {
		return n, fmt.Errorf("backup from %s: got %d bytes, the server sent %s", path, n, want)
	}
	return n, nil
}
