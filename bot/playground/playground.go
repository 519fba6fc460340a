package playground

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot"
	"github.com/twentyone-bot/twentyone/bot/config"
	"github.com/twentyone-bot/twentyone/bot/service"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// DefaultAddr is the address the page is served on when Options.Addr is
// empty: loopback only.
const DefaultAddr = "127.0.0.1:8021"

// pollTimeout is the bot's long-polling timeout: short, so that stopping
// never waits on a poll (updates arrive at once whatever it is).
const pollTimeout = time.Second

// Bot is the bot's identity in the playground.
var Bot = telegramtest.User{ID: 7000000021, IsBot: true, FirstName: "Twenty One", Username: "twentyone_bot"}

// Options configure a Playground. The zero value is a playground on
// DefaultAddr with a temporary database and random decks.
type Options struct {
	// Addr is the host:port the page is served on; DefaultAddr when empty,
	// port 0 picks a free one.
	Addr string
	// DBPath is the BoltDB file; empty means a new file in a temporary
	// directory that Close removes.
	DBPath string
	// Seed, when set, fixes the decks: every game shuffles from
	// game.NewRand(rand.NewPCG(seed, seed)), for demos and tests.
	Seed *uint64
	// Config is the configuration the bot runs with, as `twentyone run`
	// would run it (its table defaults, grants, owners); nil for
	// config.Default(). The playground replaces what it provides itself:
	// the Bot API (its own server), the database (DBPath), the long poll
	// (short) and the pacing (Paced).
	Config *config.Config
	// NoSync skips the database's fsync, for tests.
	NoSync bool
	// Logger receives the bot's and the playground's logs; nil discards them.
	Logger *slog.Logger
	// Paced applies Telegram's rate limits, on the Bot API server (a
	// write past them is refused with 429, as Telegram does) and in the
	// bot (it paces its writes below them, as against Telegram), so that
	// a person feels in the browser how fast a group's table moves under
	// them: about 20 writes a minute into a group; and the Mini App's
	// server limits each user's requests as `twentyone run`'s does. By
	// default none of them limits anything.
	Paced bool
}

// Playground is a running playground: the Bot API server, the store, the
// bot and the web page. Start it with Start, stop it with Close.
type Playground struct {
	srv   *telegramtest.Server
	store *storage.Store
	bot   *bot.Bot
	app   *service.App // the Mini App's server, at /miniapp/
	log   *slog.Logger

	web      *http.Server
	listener net.Listener
	url      string
	loopback bool
	// appOrigin is the origin the Mini App is registered at (registerApp).
	appOrigin string

	tmpDir string
	dbPath string
	seeded seeded

	// quit ends the event streams and the waits for callback answers, so
	// that the web server can shut down.
	quit      chan struct{}
	stopBot   context.CancelFunc
	botDone   chan struct{}
	fatal     chan error
	closeOnce sync.Once
	closeErr  error

	// eventBuffer sizes each event stream's subscription.
	eventBuffer int
}

// Start seeds the world (users Alice, Bob, Carol, Dave and Иван; the groups
// "Game night" and "Office" with the bot; Alice's private chat with Bob
// and the group "Book club", which the bot is not in), opens the database,
// connects the bot to the Bot API server (inline mode, inline feedback and
// guest mode on), starts it polling and serves the page. Cancelling ctx
// aborts the start; once Start returned, only Close stops the playground.
func Start(ctx context.Context, opts Options) (_ *Playground, err error) {
	p := &Playground{
		log:         opts.Logger,
		quit:        make(chan struct{}),
		botDone:     make(chan struct{}),
		fatal:       make(chan error, 2),
		eventBuffer: 256,
	}
	if p.log == nil {
		p.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	defer func() {
		if err != nil {
			p.abort()
		}
	}()

	addr := opts.Addr
	if addr == "" {
		addr = DefaultAddr
	}
	// Listen first: a port in use is the likeliest failure, and the cheapest.
	if p.listener, err = net.Listen("tcp", addr); err != nil {
		return nil, fmt.Errorf("playground: serving the page on %s: %w", addr, err)
	}
	tcp := p.listener.Addr().(*net.TCPAddr)
	p.loopback = tcp.IP.IsLoopback()
	p.url = "http://" + displayAddr(tcp)

	p.dbPath = opts.DBPath
	if p.dbPath == "" {
		if p.tmpDir, err = os.MkdirTemp("", "twentyone-playground-"); err != nil {
			return nil, fmt.Errorf("playground: a temporary directory for the database: %w", err)
		}
		p.dbPath = filepath.Join(p.tmpDir, "twentyone.db")
	}
	cfg := config.Default()
	if opts.Config != nil {
		cfg = *opts.Config
	}
	cfg.Storage.Path = p.dbPath
	cfg.Telegram.PollTimeout = pollTimeout
	// Unpaced, the server's rate limits are off and so are the bot's.
	cfg.Telegram.RateLimits = opts.Paced
	var svcOpts []service.Option
	if opts.NoSync {
		svcOpts = append(svcOpts, service.NoSync())
	}
	if opts.Seed != nil {
		// Storage calls Rand only from its commit loop, one call at a
		// time: a rand.Rand that is not safe for concurrent use will do.
		svcOpts = append(svcOpts, service.WithRand(game.NewRand(rand.NewPCG(*opts.Seed, *opts.Seed))))
	}
	highest, err := highestIDs(ctx, &cfg, svcOpts)
	if err != nil {
		return nil, fmt.Errorf("playground: %w", err)
	}
	// Inline mode with feedback and guest mode, as BotFather's /setinline,
	// /setinlinefeedback and guest mode turn them on: the bot may be used
	// in the chats it is not in (issue 28).
	// The Mini App is served over plain http on this machine, which
	// Telegram's BotFather would refuse: WithLoopbackApps.
	p.srv = telegramtest.New(telegramtest.WithBot(Bot), telegramtest.WithInlineFeedback(), telegramtest.WithGuestMode(),
		telegramtest.WithFirstUpdateID(int(highest.Update)+1), telegramtest.WithFirstMessageID(highest.Message+1),
		telegramtest.WithLoopbackApps())
	if err := p.srv.Listen("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("playground: starting the Bot API server: %w", err)
	}
	if p.seeded, err = seed(p.srv); err != nil {
		return nil, fmt.Errorf("playground: seeding the chats: %w", err)
	}
	if err := p.registerApp(&cfg, tcp.Port); err != nil {
		return nil, err
	}

	if opts.Paced {
		p.srv.SetRateLimits(telegramtest.TelegramRateLimits())
	} else {
		svcOpts = append(svcOpts, service.WithAppLimits(appUnpaced))
	}
	cfg.Telegram.Token = config.Secret(p.srv.Token())
	cfg.Telegram.APIEndpoint = p.srv.Endpoint()
	svc, err := service.Open(ctx, &cfg, append(svcOpts, service.WithLogger(p.log), service.WithTransport(p.srv.Client().Transport),
		service.WithApp(), service.WithAppFramedBy(appFramedBy))...)
	if err != nil {
		return nil, fmt.Errorf("playground: %w", err)
	}
	p.store, p.bot, p.app = svc.Store, svc.Bot, svc.App
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p.stopBot = cancel
	go func() {
		defer close(p.botDone)
		err := p.bot.Run(runCtx)
		if runCtx.Err() == nil {
			if err == nil {
				err = errors.New("polling stopped")
			}
			p.fatal <- fmt.Errorf("playground: the bot: %w", err)
		}
	}()

	p.web = &http.Server{Handler: p.Handler(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(p.log.Handler(), slog.LevelWarn)}
	go func() {
		if err := p.web.Serve(p.listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			p.fatal <- fmt.Errorf("playground: serving the page: %w", err)
		}
	}()
	p.log.Info("playground started", "url", p.url, "database", p.dbPath, "bot_api", p.srv.URL(), "paced", opts.Paced)
	return p, nil
}

// highestIDs opens the database briefly and returns the highest update
// and message ids it names. The database remembers the last update id each
// chat applied and skips updates at or below it as redelivered, and the
// messages its tables are shown in; a kept database outlives this server,
// so the server numbers the updates and messages past those it names (a
// table's old message id must not name a new message). The numbers start
// small, as Telegram's: its update and message ids are 32-bit
// (tdlib/telegram-bot-api, Client::get_message_id reads an int32).
func highestIDs(ctx context.Context, cfg *config.Config, opts []service.Option) (storage.Highest, error) {
	st, err := service.OpenStore(cfg, opts...)
	if err != nil {
		return storage.Highest{}, err
	}
	highest, err := st.Highest(ctx)
	if err != nil {
		err = fmt.Errorf("reading the database %s: %w", cfg.Storage.Path, err)
	}
	return highest, errors.Join(err, st.Close())
}

// displayAddr is the address to print: a wildcard host becomes 127.0.0.1,
// which a browser on the same machine can open.
func displayAddr(a *net.TCPAddr) string {
	if a.IP.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", fmt.Sprint(a.Port))
	}
	return a.String()
}

// URL returns the page's address, such as http://127.0.0.1:8021.
func (p *Playground) URL() string { return p.url }

// DBPath returns the database file.
func (p *Playground) DBPath() string { return p.dbPath }

// Server returns the Bot API server and its world.
func (p *Playground) Server() *telegramtest.Server { return p.srv }

// Store returns the database the bot writes.
func (p *Playground) Store() *storage.Store { return p.store }

// Groups returns the seeded group chats with the bot: "Game night", then
// "Office".
func (p *Playground) Groups() []telegramtest.Chat {
	return append([]telegramtest.Chat(nil), p.seeded.groups...)
}

// UserChat returns the seeded private chat between Alice and Bob, which
// the bot is no party to: it plays there through inline mode and guest
// mode only.
func (p *Playground) UserChat() telegramtest.Chat { return p.seeded.userChat }

// GroupWithoutBot returns the seeded group "Book club", which the bot is
// not a member of: it plays there through inline mode and guest mode only.
func (p *Playground) GroupWithoutBot() telegramtest.Chat { return p.seeded.botless }

// Err delivers a failure that stops the playground while it runs: the bot's
// polling gave up, or the page's server stopped.
func (p *Playground) Err() <-chan error { return p.fatal }

// Close stops serving the page, stops the bot (it finishes the actions in
// flight and sends the pending renders until ctx is done), closes the
// database and the Bot API server, and removes the temporary database.
// Later calls return the first's result.
func (p *Playground) Close(ctx context.Context) error {
	p.closeOnce.Do(func() {
		var errs []error
		close(p.quit)
		// The app's streams end first: the web server's Shutdown would
		// wait for them.
		p.app.Close()
		if err := p.web.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("stopping the page's server: %w", err))
		}
		p.stopBot()
		select {
		case <-p.botDone:
		case <-ctx.Done():
			errs = append(errs, errors.New("the bot did not stop polling before the deadline"))
		}
		if err := p.bot.Close(ctx); err != nil {
			errs = append(errs, fmt.Errorf("closing the bot: %w", err))
		}
		if err := p.store.Close(); err != nil {
			errs = append(errs, fmt.Errorf("closing the database: %w", err))
		}
		p.srv.Close()
		if p.tmpDir != "" {
			if err := os.RemoveAll(p.tmpDir); err != nil {
				errs = append(errs, fmt.Errorf("removing the temporary database: %w", err))
			}
		}
		p.closeErr = errors.Join(errs...)
	})
	return p.closeErr
}

// abort releases what a failed Start acquired.
func (p *Playground) abort() {
	if p.listener != nil {
		_ = p.listener.Close()
	}
	if p.store != nil {
		_ = p.store.Close()
	}
	if p.srv != nil {
		p.srv.Close()
	}
	if p.tmpDir != "" {
		_ = os.RemoveAll(p.tmpDir)
	}
}
