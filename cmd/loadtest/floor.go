package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// floors are what the machine gives at best, measured in the same run:
// what the bot's figures are divided by.
type floors struct {
	// TableBytes is the size of a stored table in mid-game: the value
	// the bare commit writes.
	TableBytes int `json:"table_bytes"`
	// Commit is the median of a bare bbolt write transaction of one such
	// value, fsync included, one writer; CommitsPerSec is 1/Commit.
	Commit        time.Duration `json:"commit"`
	CommitsPerSec float64       `json:"commits_per_sec"`
	// RoundTrip is the median of a bare HTTP round trip (getMe) to the
	// same server, one client; RoundTripsPerSec is how many 64 concurrent
	// clients make in a second.
	RoundTrip        time.Duration `json:"round_trip"`
	RoundTripsPerSec float64       `json:"round_trips_per_sec"`
}

// pressFloor is the least a press-to-edit can take: one commit and three
// round trips (the update delivered, the answer, the edit).
func (f floors) pressFloor() time.Duration { return f.Commit + 3*f.RoundTrip }

// measureFloors measures the floors for about span each.
func measureFloors(ctx context.Context, srv *telegramtest.Server, dir string, span time.Duration) (floors, error) {
	var f floors
	var err error
	if f.TableBytes, err = tableBytes(dir); err != nil {
		return f, err
	}
	if f.Commit, err = commitFloor(ctx, filepath.Join(dir, "floor.db"), f.TableBytes, span); err != nil {
		return f, err
	}
	f.CommitsPerSec = float64(time.Second) / float64(f.Commit)
	if f.RoundTrip, f.RoundTripsPerSec, err = httpFloor(ctx, srv, span); err != nil {
		return f, err
	}
	return f, nil
}

// tableBytes plays one table into mid-game in a scratch database and
// returns the size of its stored value.
func tableBytes(dir string) (int, error) {
	st, err := storage.Open(filepath.Join(dir, "size.db"), storage.Options{NoSync: true})
	if err != nil {
		return 0, fmt.Errorf("measuring a table: %w", err)
	}
	defer st.Close()
	key := storage.TableKey{Chat: -1}
	if err := playToGame(context.Background(), st, key, 1, 2); err != nil {
		return 0, err
	}
	v, err := st.View(context.Background(), key)
	if err != nil {
		return 0, fmt.Errorf("measuring a table: %w", err)
	}
	return storage.EncodedSize(&v)
}

// playToGame opens a table, seats a second player and starts a game: a
// table in progress, waiting for a bet.
func playToGame(ctx context.Context, st *storage.Store, key storage.TableKey, a, b game.UserID) error {
	users := []storage.User{{ID: a, Name: "Ann", Language: "en"}, {ID: b, Name: "Bob", Language: "en"}}
	for _, step := range []struct {
		u    storage.User
		kind game.CommandKind
	}{{users[0], game.Open}, {users[1], game.Join}, {users[0], game.Start}} {
		if _, err := st.Apply(ctx, storage.ApplyRequest{Key: key, User: step.u, Command: game.Command{Kind: step.kind}}); err != nil {
			return fmt.Errorf("preparing table %v: %s: %w", key, step.kind, err)
		}
	}
	return nil
}

// commitFloor returns the median time of a bare commit (storage.Floor)
// writing one value of size bytes, fsync included.
func commitFloor(ctx context.Context, path string, size int, span time.Duration) (time.Duration, error) {
	f, err := storage.OpenFloor(path, size)
	if err != nil {
		return 0, fmt.Errorf("commit floor: %w", err)
	}
	defer f.Close()
	var samples []time.Duration
	end := time.Now().Add(span)
	for i := 0; len(samples) < 20 || time.Now().Before(end) && len(samples) < 5000; i++ {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		start := time.Now()
		if err := f.Commit(i); err != nil {
			return 0, fmt.Errorf("commit floor: %w", err)
		}
		samples = append(samples, time.Since(start))
	}
	return percentile(samples, 0.5), nil
}

// httpFloor returns the median getMe round trip of one client and the
// round trips per second of 64 concurrent clients.
func httpFloor(ctx context.Context, srv *telegramtest.Server, span time.Duration) (time.Duration, float64, error) {
	client := srv.Client()
	url := fmt.Sprintf(srv.Endpoint(), srv.Token(), "getMe")
	get := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("HTTP floor: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("HTTP floor: getMe: %s", resp.Status)
		}
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	var samples []time.Duration
	end := time.Now().Add(span / 2)
	for len(samples) < 50 || time.Now().Before(end) && len(samples) < 20000 {
		start := time.Now()
		if err := get(); err != nil {
			return 0, 0, err
		}
		samples = append(samples, time.Since(start))
	}
	var n atomic.Int64
	var wg sync.WaitGroup
	var firstErr atomic.Value
	start := time.Now()
	stop := start.Add(span / 2)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) && ctx.Err() == nil {
				if err := get(); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if err, ok := firstErr.Load().(error); ok {
		return 0, 0, err
	}
	return percentile(samples, 0.5), float64(n.Load()) / time.Since(start).Seconds(), nil
}
