package main

// This is the one file of the command that touches the bot and storage
// packages (through bot/service, which builds the store and the bot from
// the config as the playground and the load tool do): the rest (metrics, the HTTP servers, the subcommands)
// reaches them through Main's Store and Bot interfaces.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/twentyone-bot/twentyone/bot"
	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/config"
	"github.com/twentyone-bot/twentyone/bot/service"
	"github.com/twentyone-bot/twentyone/storage"
)

var _ bot.Metrics = (*Metrics)(nil)

// scrubError returns err with the secrets replaced in its text: the bot's
// one scrubbed error (botapi.Scrub), which still unwraps for errors.Is.
func scrubError(err error, secrets ...config.Secret) error {
	return botapi.Scrub(err, newScrubber(secrets...).secrets...)
}

// scrubText returns s with the secrets, and their forms inside a URL,
// replaced (botapi.ScrubText).
func scrubText(s string, secrets ...string) string { return botapi.ScrubText(s, secrets...) }

// wiredStore is a storage.Store as Main's Store.
type wiredStore struct{ *storage.Store }

// OpenTables counts the tables with a deadline: every table in the lobby or
// in a game has one.
func (s wiredStore) OpenTables(ctx context.Context) (int, error) {
	timers, err := s.Timers(ctx)
	return len(timers), err
}

// openService opens the database the config names and connects the bot,
// as the playground and the load tool do (service.Open); what only the
// binary does: m observes every commit and what the bot does, while the
// Bot API cannot be reached the bot tries again until ctx is done, and
// with webapp.listen it builds the Mini App's server (nil App without).
func openService(ctx context.Context, cfg *config.Config, m *Metrics, log *slog.Logger) (wiredStore, Bot, App, error) {
	opts := []service.Option{
		service.WithLogger(log),
		service.WithMetrics(m),
		service.OnCommit(func(d time.Duration, _ int) { m.ObserveCommit(d) }),
		service.RetryConnect(),
	}
	if cfg.WebApp.Listen != "" {
		opts = append(opts, service.WithApp())
	}
	svc, err := service.Open(ctx, cfg, opts...)
	if err != nil {
		return wiredStore{}, nil, nil, err
	}
	var app App
	if svc.App != nil {
		app = wiredApp{svc.App}
	}
	return wiredStore{svc.Store}, svc.Bot, app, nil
}

// wiredApp is a service.App as Main's App.
type wiredApp struct{ *service.App }

// ServeHTTP answers the app's requests (service.App.Handler).
func (a wiredApp) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.Handler.ServeHTTP(w, r) }

// backupDirect backs up the database by opening it, for when no running bot
// answered: it fails with ErrInUse if a process holds the file all the same.
// out must not be the database (the caller checks).
func backupDirect(ctx context.Context, cfg *config.Config, out string, stdout io.Writer) error {
	path := cfg.Storage.Path
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("no running bot answered and there is no database to open: %w", err)
	}
	// Read-only and not as a Store: a newer binary backing up before an
	// upgrade must not migrate the file it copies.
	const lockTimeout = 200 * time.Millisecond
	var err error
	if out == "-" {
		_, err = storage.BackupClosedTo(ctx, path, stdout, lockTimeout)
	} else {
		err = storage.BackupClosed(ctx, path, out, lockTimeout)
	}
	switch {
	case errors.Is(err, storage.ErrInUse):
		why := fmt.Sprintf("whose backup socket (%s) did not answer", cfg.BackupSocket())
		if cfg.BackupSocket() == "" {
			why = "and http.backup_socket is off"
		}
		return fmt.Errorf("the database %s is held by a running process %s; back up through that process (with its own config and version), or stop it: %w", path, why, err)
	case errors.Is(err, storage.ErrCorrupt):
		return service.StoreError(path, err)
	case err != nil:
		return fmt.Errorf("backing up %s: %w", path, err)
	}
	return nil
}

// compactDatabase writes a compacted copy of src to dst and returns both
// sizes.
func compactDatabase(ctx context.Context, src, dst string) (before, after int64, err error) {
	fi, err := os.Stat(src)
	if err != nil {
		return 0, 0, fmt.Errorf("no database to compact: %w", err)
	}
	if err := storage.Compact(ctx, src, dst); err != nil {
		if errors.Is(err, storage.ErrInUse) {
			return 0, 0, fmt.Errorf("the database %s is in use: stop the bot before compacting: %w", src, err)
		}
		return 0, 0, err
	}
	fo, err := os.Stat(dst)
	if err != nil {
		return 0, 0, err
	}
	return fi.Size(), fo.Size(), nil
}

// writeOutput writes what fill writes to path, atomically (a temporary file
// renamed over path once complete and synced), or to stdout for "-".
func writeOutput(path string, stdout io.Writer, fill func(io.Writer) error) error {
	if path == "-" {
		return fill(stdout)
	}
	return storage.WriteFile(path, fill)
}
