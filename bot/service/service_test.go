package service_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/bot/config"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/service"
	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/live"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestBotLimits: the bot paces at Telegram's limits, over all chats at
// telegram.global_rate (by default the outbox's own figure), or not at
// all.
func TestBotLimits(t *testing.T) {
	cfg := config.Default()
	assert.Equal(t, outbox.TelegramLimits(), service.Limits(&cfg), "the default is Telegram's limits as the outbox knows them")
	cfg.Telegram.GlobalRate = 500
	want := outbox.TelegramLimits()
	want.PerSecond = 500
	assert.Equal(t, want, service.Limits(&cfg))
	cfg.Telegram.RateLimits = false
	assert.Equal(t, outbox.Limits{}, service.Limits(&cfg))
}

// TestOpenStoreRefusesPreRelease: a database a pre-release wrote (its
// schema version under the meta bucket's "schema" key) is refused with
// what to do, and left as it was.
func TestOpenStoreRefusesPreRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "twentyone.db")
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucket([]byte("meta"))
		if err != nil {
			return err
		}
		return meta.Put([]byte("schema"), binary.BigEndian.AppendUint64(nil, 11))
	}))
	require.NoError(t, db.Close())
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	cfg := config.Default()
	cfg.Storage.Path = path
	_, err = service.OpenStore(&cfg)
	require.ErrorIs(t, err, storage.ErrPreRelease)
	assert.ErrorContains(t, err, "the database "+path+" was written by a pre-release twentyone (before 1.0)")
	assert.ErrorContains(t, err, "move it away to start with a new database")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "the file is left as it was")
}

func TestStoreOptions(t *testing.T) {
	cfg := config.Default()
	cfg.Table.Settings.Language = "en"
	cfg.Table.StartingChips = 700
	cfg.Table.HouseChips = 3000
	opts := service.StoreOptions(&cfg)
	assert.Equal(t, int64(700), opts.StartingChips)
	assert.Equal(t, int64(3000), opts.HouseChips)
	assert.Equal(t, int64(100), opts.DailyBonus)
	assert.Equal(t, "en", opts.Defaults.Language)
	assert.True(t, cfg.Table.Game().Equal(opts.Defaults.Game))
	assert.Equal(t, game.DefaultCutWait, opts.CutWait, "the decks wait for their cut, as the tables ask for it")
}

// TestNotWritable: a database the process may not create says which user
// must own the directory, and how.
func TestNotWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write anywhere: the Docker test (scripts/ci-docker.sh) runs this as uid 65532")
	}
	dir := filepath.Join(t.TempDir(), "data")
	require.NoError(t, os.Mkdir(dir, 0o500))
	cfg := config.Default()
	cfg.Storage.Path = filepath.Join(dir, "twentyone.db")
	_, err := service.OpenStore(&cfg)
	require.ErrorIs(t, err, fs.ErrPermission)
	assert.ErrorContains(t, err, fmt.Sprintf("chown -R %d:%d %s", os.Getuid(), os.Getgid(), dir))
	assert.NoFileExists(t, cfg.Storage.Path)
}

// TestAppDefaults: the webapp keys' defaults are what the app's server
// and its live push take, and the bounds reach the push as configured.
func TestAppDefaults(t *testing.T) {
	cfg := config.Default()
	assert.Equal(t, webapp.DefaultMaxAge, cfg.WebApp.MaxAge)
	assert.Equal(t, live.Limits{MaxViewers: 10_000, MaxPerTable: 50}, service.AppLimits(&cfg))
	cfg.WebApp.MaxViewers, cfg.WebApp.MaxViewersPerTable = 7, 3
	assert.Equal(t, live.Limits{MaxViewers: 7, MaxPerTable: 3}, service.AppLimits(&cfg))
}
