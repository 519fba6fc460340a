package main

// Main, the running program of `twentyone run`: its servers, the store and
// the bot, started in order and stopped in the reverse one.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twentyone-bot/twentyone/bot/config"
	"github.com/twentyone-bot/twentyone/bot/service"
)

// Store is what Main needs of the database (storage.Store, wired in
// wire.go).
type Store interface {
	// Backup writes a consistent copy of the database to w.
	Backup(ctx context.Context, w io.Writer) (int64, error)
	// OpenTables counts the open tables, for the metrics.
	OpenTables(ctx context.Context) (int, error)
	Close() error
}

// Bot is what Main needs of the bot (bot.Bot, wired in wire.go).
type Bot interface {
	// Run polls for updates until ctx is done.
	Run(ctx context.Context) error
	// Start prepares webhook mode; Handle handles one update and returns
	// once its effects are committed.
	Start(ctx context.Context) error
	Handle(ctx context.Context, raw []byte) error
	// SetWebhook registers the webhook with Telegram.
	SetWebhook(ctx context.Context, url, secret string, maxConnections int) error
	// Close finishes the actions in flight and sends the pending renders
	// until ctx is done.
	Close(ctx context.Context) error
}

// Main is the running program: the admin server, the backup socket, the
// store, the bot, in webhook mode the webhook server, and with
// webapp.listen the Mini App's server (app.go). Run starts it; Close
// stops it.
type Main struct {
	Config  *config.Config
	Logger  *slog.Logger
	Metrics *Metrics

	admin        *httpServer
	backupSocket *httpServer
	webhook      *httpServer
	appServer    *httpServer
	appListener  net.Listener // webapp.listen, taken and not served yet
	app          App

	mu    sync.Mutex
	store Store
	bot   Bot

	ready       atomic.Bool
	fatal       chan error
	stopPolling context.CancelFunc
	pollDone    chan struct{}
	closeOnce   sync.Once
	closeErr    error
}

// NewMain returns a Main wired to the real store and bot.
func NewMain(cfg *config.Config, log *slog.Logger) *Main {
	return &Main{
		Config:  cfg,
		Logger:  log,
		Metrics: NewMetrics(),
		fatal:   make(chan error, 4),
	}
}

// Err delivers a failure that stops the program while it runs: polling
// that gave up, a server that stopped serving.
func (m *Main) Err() <-chan error { return m.fatal }

// WebhookAddr returns the webhook server's address ("" when none runs).
func (m *Main) WebhookAddr() string {
	if m.webhook == nil {
		return ""
	}
	return m.webhook.Addr()
}

// BackupSocketAddr returns the backup socket's path ("" when none runs).
func (m *Main) BackupSocketAddr() string {
	if m.backupSocket == nil {
		return ""
	}
	return m.backupSocket.Addr()
}

// AdminAddr returns the admin server's address ("" when none runs).
func (m *Main) AdminAddr() string {
	if m.admin == nil {
		return ""
	}
	return m.admin.Addr()
}

// Run starts the admin server and the backup socket, takes the app's
// address, opens the database, connects the bot (trying again while the
// Bot API cannot be reached), starts polling or the webhook server, and
// serves the app. It returns once everything runs; call Close to stop,
// also after Run failed.
func (m *Main) Run(ctx context.Context) error {
	cfg, log := m.Config, m.Logger
	// The database's lock first: a second instance must be told that the
	// database is in use, not that the admin address is taken (by that same
	// instance). Then the admin address, the backup socket and the app's
	// address, and only then the database is opened (created or migrated),
	// so that a taken address changes no file.
	if err := service.CheckFree(cfg); err != nil {
		return err
	}
	if cfg.HTTP.Listen != "" {
		var err error
		m.admin, err = startServer("admin", cfg.HTTP.Listen, newAdminHandler(adminOptions{
			Metrics: m.Metrics.Handler(),
			Ready:   m.readyErr,
		}), log, m.fatal)
		if err != nil {
			return err
		}
	}
	if sock := cfg.BackupSocket(); sock != "" {
		ln, err := listenBackupSocket(sock)
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("backup socket: %w", service.NotWritable(sock, err))
		}
		if err != nil {
			return err
		}
		m.backupSocket = serve("backup", ln, newBackupHandler(m.backup, log), log, m.fatal)
	}
	if err := m.listenApp(); err != nil {
		return err
	}
	st, b, app, err := openService(ctx, cfg, m.Metrics, log)
	if err != nil {
		return err
	}
	m.app = app
	m.mu.Lock()
	m.store, m.bot = st, b
	m.mu.Unlock()
	m.Metrics.RegisterOpenTables(func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := st.OpenTables(ctx)
		if err != nil {
			return math.NaN()
		}
		return float64(n)
	})

	switch cfg.Telegram.Mode {
	case "webhook":
		if err := b.Start(ctx); err != nil {
			return err
		}
		h := newWebhookHandler(config.WebhookPath(cfg.Telegram.Webhook.URL), cfg.Telegram.Webhook.Secret.Reveal(), b.Handle, log)
		if m.webhook, err = startServer("webhook", cfg.Telegram.Webhook.Listen, h, log, m.fatal); err != nil {
			return err
		}
		if err := b.SetWebhook(ctx, cfg.Telegram.Webhook.URL, cfg.Telegram.Webhook.Secret.Reveal(), cfg.Telegram.Webhook.MaxConnections); err != nil {
			return fmt.Errorf("registering the webhook: %w", err)
		}
		log.Info("webhook registered", "url", cfg.Telegram.Webhook.URL)
	default:
		// Polling runs in a context of its own: Close cancels it, so that
		// shutting down has one path whatever stopped the program.
		pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		m.stopPolling, m.pollDone = cancel, make(chan struct{})
		go func() {
			defer close(m.pollDone)
			err := b.Run(pctx)
			if pctx.Err() == nil {
				if err == nil {
					err = errors.New("polling stopped")
				}
				m.fatal <- fmt.Errorf("polling: %w", err)
			}
		}()
	}
	m.serveApp(app)
	m.ready.Store(true)
	return nil
}

func (m *Main) readyErr() error {
	if !m.ready.Load() {
		return errors.New("starting or stopping")
	}
	return nil
}

func (m *Main) backup(ctx context.Context, w io.Writer) (int64, error) {
	m.mu.Lock()
	st := m.store
	m.mu.Unlock()
	if st == nil {
		return 0, errors.New("the database is not open")
	}
	return st.Backup(ctx, w)
}

// Close stops taking updates (cancels polling, or shuts the webhook server
// after the updates in flight were handled) and the app's actions (its
// live streams end, then its server, after the actions in flight were
// answered), lets the bot finish its actions and send the pending renders
// until ctx is done, then stops the admin server and the backup socket
// (removing its file) and closes the database. Later calls return the
// first's result.
func (m *Main) Close(ctx context.Context) error {
	m.closeOnce.Do(func() {
		m.ready.Store(false)
		var errs []error
		if m.webhook != nil {
			errs = append(errs, m.webhook.Shutdown(ctx))
		}
		if m.stopPolling != nil {
			m.stopPolling()
			select {
			case <-m.pollDone:
			case <-ctx.Done():
				errs = append(errs, errors.New("polling did not stop before the deadline"))
			}
		}
		errs = append(errs, m.closeApp(ctx))
		m.mu.Lock()
		b, st := m.bot, m.store
		m.mu.Unlock()
		if b != nil {
			if err := b.Close(ctx); err != nil {
				errs = append(errs, fmt.Errorf("closing the bot: %w", err))
			}
		}
		for _, srv := range []*httpServer{m.admin, m.backupSocket} {
			if srv != nil {
				errs = append(errs, srv.Shutdown(ctx))
			}
		}
		if st != nil {
			if err := st.Close(); err != nil {
				errs = append(errs, fmt.Errorf("closing the database: %w", err))
			}
		}
		m.closeErr = errors.Join(errs...)
	})
	return m.closeErr
}
