package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/bot/service"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// preloadBase is the id of the first preloaded chat; the server gives its
// own groups ids from -4000000001 down.
const preloadBase = -3_000_000_000

// maxPreload bounds -preload: the preloaded ids stay clear of the server's.
const maxPreload = 100_000_000

// isPreloaded reports whether a chat id is a preloaded chat's.
func isPreloaded(id int64) bool { return id <= preloadBase && id > preloadBase-maxPreload }

// preload fills the database with n tables in progress (a game started,
// waiting for a bet), each in a chat the server knows, as a bot that ran
// for a while leaves them. It writes without fsync: it prepares the file,
// it is not measured.
func preload(ctx context.Context, srv *telegramtest.Server, set botSettings, n int) (time.Duration, error) {
	start := time.Now()
	cfg, err := set.config()
	if err != nil {
		return 0, fmt.Errorf("preload: %w", err)
	}
	// Without fsync: it prepares the file, it is not measured.
	st, err := service.OpenStore(cfg, service.NoSync())
	if err != nil {
		return 0, fmt.Errorf("preload: %w", err)
	}
	a := srv.AddUser(telegramtest.User{FirstName: "Ann", LanguageCode: "en"})
	b := srv.AddUser(telegramtest.User{FirstName: "Bob", LanguageCode: "en"})
	for i := range n {
		if _, err := srv.AddChat(telegramtest.ChatSpec{ID: preloadBase - int64(i), Members: []int64{a.ID, b.ID}}); err != nil {
			_ = st.Close()
			return 0, fmt.Errorf("preload: %w", err)
		}
	}
	work := make(chan int64)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for chat := range work {
				if err := playToGame(ctx, st, storage.TableKey{Chat: chat}, game.UserID(a.ID), game.UserID(b.ID)); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for i := range n {
		work <- preloadBase - int64(i)
	}
	close(work)
	wg.Wait()
	if err := st.Close(); err != nil {
		return 0, fmt.Errorf("preload: %w", err)
	}
	select {
	case err := <-errs:
		return 0, err
	default:
	}
	return time.Since(start), nil
}
