package main

// This is the one file of the command that touches the bot and storage
// packages: the rest (config, metrics, the HTTP servers, the subcommands)
// reaches them through Main's Store and Bot interfaces.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/twentyone-bot/twentyone/bot"
	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/storage"
)

var _ bot.Metrics = (*Metrics)(nil)

// scrubError returns err with the secrets replaced in its text: the bot's
// one scrubbed error (botapi.Scrub), which still unwraps for errors.Is.
func scrubError(err error, secrets ...Secret) error {
	return botapi.Scrub(err, newScrubber(secrets...).secrets...)
}

// scrubText returns s with the secrets, and their forms inside a URL,
// replaced (botapi.ScrubText).
func scrubText(s string, secrets ...string) string { return botapi.ScrubText(s, secrets...) }

// storeOptions returns the storage options the config asks for.
func storeOptions(cfg *Config) storage.Options {
	return storage.Options{
		LockTimeout:   time.Second,
		StartingChips: cfg.Table.StartingChips,
		DailyBonus:    cfg.Table.DailyBonus,
		HouseChips:    cfg.Table.HouseChips,
		Defaults: storage.ChatSettings{
			Game:     cfg.Table.Game(),
			Language: cfg.Table.StorageLanguage(),
		},
	}
}

// wiredStore is a storage.Store as Main's Store.
type wiredStore struct{ *storage.Store }

// OpenTables counts the tables with a deadline: every table in the lobby or
// in a game has one.
func (s wiredStore) OpenTables(ctx context.Context) (int, error) {
	timers, err := s.Timers(ctx)
	return len(timers), err
}

// openStore opens the database the config names; m observes every
// commit's latency. What it returns is Main's Store, and the store newBot
// runs the bot on.
func openStore(cfg *Config, m *Metrics, log *slog.Logger) (wiredStore, error) {
	opts := storeOptions(cfg)
	opts.OnCommit = func(d time.Duration, _ int) { m.ObserveCommit(d) }
	s, err := storage.Open(cfg.Storage.Path, opts)
	if err != nil {
		return wiredStore{}, storeError(cfg.Storage.Path, err)
	}
	log.Info("database open", "path", s.Path())
	return wiredStore{s}, nil
}

// checkStoreFree says, without opening it, whether another process holds
// the database.
func checkStoreFree(cfg *Config) error {
	if err := storage.CheckFree(cfg.Storage.Path); err != nil {
		return storeError(cfg.Storage.Path, err)
	}
	return nil
}

// storeError explains a failure to open the database.
func storeError(path string, err error) error {
	switch {
	case errors.Is(err, storage.ErrInUse):
		return fmt.Errorf("the database %s is in use by another process (is the bot already running?): %w", path, err)
	case errors.Is(err, storage.ErrNewerSchema):
		return fmt.Errorf("the database %s was written by a newer twentyone: run that version, or restore a backup: %w", path, err)
	case errors.Is(err, storage.ErrPreRelease):
		return fmt.Errorf("the database %s was written by a pre-release twentyone (before 1.0), which this version does not read: "+
			"move it away to start with a new database, or keep running the pre-release: %w", path, err)
	case errors.Is(err, storage.ErrCorrupt):
		return fmt.Errorf("the database %s is damaged: restore a backup (twentyone backup writes one): %w", path, err)
	}
	return fmt.Errorf("opening the database %s: %w", path, err)
}

// newBot connects the bot to the Bot API (getMe).
func newBot(ctx context.Context, cfg *Config, s wiredStore, log *slog.Logger, m *Metrics) (Bot, error) {
	b, err := bot.New(ctx, bot.Config{
		Token:       cfg.Telegram.Token.Reveal(),
		Endpoint:    cfg.Telegram.APIEndpoint,
		Store:       s.Store,
		Logger:      log,
		Limits:      botLimits(cfg),
		PollTimeout: cfg.Telegram.PollTimeout,
		Owners:      cfg.Owners,
		Metrics:     m,
	})
	if err != nil {
		return nil, fmt.Errorf("connecting to the Bot API: %w", err)
	}
	return b, nil
}

// botLimits returns the pacing the config asks for: Telegram's limits
// with telegram.global_rate calls a second over all chats, or none.
func botLimits(cfg *Config) outbox.Limits {
	if !cfg.Telegram.RateLimits {
		return outbox.Limits{}
	}
	limits := outbox.TelegramLimits()
	limits.PerSecond = cfg.Telegram.GlobalRate
	return limits
}

// backupDirect backs up the database by opening it, for when no running bot
// answered: it fails with ErrInUse if a process holds the file all the same.
// out must not be the database (the caller checks).
func backupDirect(ctx context.Context, cfg *Config, out string, stdout io.Writer) error {
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
		return storeError(path, err)
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

// same reports whether paths a and b name the same file.
func same(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// writeOutput writes what fill writes to path, atomically (a temporary file
// renamed over path once complete and synced), or to stdout for "-".
func writeOutput(path string, stdout io.Writer, fill func(io.Writer) error) error {
	if path == "-" {
		return fill(stdout)
	}
	return storage.WriteFile(path, fill)
}
