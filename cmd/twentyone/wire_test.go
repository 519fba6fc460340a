package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestBotLimits: the bot paces at Telegram's limits, over all chats at
// telegram.global_rate (by default the outbox's own figure), or not at
// all.
func TestBotLimits(t *testing.T) {
	cfg := DefaultConfig()
	assert.Equal(t, outbox.TelegramLimits(), botLimits(&cfg), "the default is Telegram's limits as the outbox knows them")
	cfg.Telegram.GlobalRate = 500
	want := outbox.TelegramLimits()
	want.PerSecond = 500
	assert.Equal(t, want, botLimits(&cfg))
	cfg.Telegram.RateLimits = false
	assert.Equal(t, outbox.Limits{}, botLimits(&cfg))
}

// newDatabase creates a database at dir/twentyone.db and returns its path.
func newDatabase(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "twentyone.db")
	s, err := storage.Open(path, storage.Options{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	return path
}

// checkDatabase asserts that path is a database storage opens.
func checkDatabase(t *testing.T, path string) {
	t.Helper()
	s, err := storage.Open(path, storage.Options{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

func runSub(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cli := &CLI{Stdout: &stdout, Stderr: &stderr, Environ: env}
	code := cli.Run(context.Background(), args)
	return code, stdout.String(), stderr.String()
}

func TestBackupOpensTheFileWhenNoBotRuns(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := newDatabase(t, dir)
	env := []string{"TWENTYONE_STORAGE_PATH=" + db}

	out := filepath.Join(dir, "backup.db")
	code, _, stderr := runSub(t, env, "backup", "-o", out)
	require.Equal(t, exitOK, code, stderr)
	checkDatabase(t, out)

	code, stdout, stderr := runSub(t, env, "backup", "-o", "-")
	require.Equal(t, exitOK, code, stderr)
	fromStdout := filepath.Join(dir, "stdout.db")
	require.NoError(t, os.WriteFile(fromStdout, []byte(stdout), 0o600))
	checkDatabase(t, fromStdout)

	code, _, stderr = runSub(t, env, "backup", "-o", db)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "is the database itself")

	// The socket a bot that crashed left behind: nobody answers, the file is
	// copied.
	staleSocket(t, db+".sock")
	require.NoError(t, os.Remove(out))
	code, _, stderr = runSub(t, env, "backup", "-o", out)
	require.Equal(t, exitOK, code, stderr)
	assert.NotContains(t, stderr, "from the running bot")
	checkDatabase(t, out)

	code, _, stderr = runSub(t, []string{"TWENTYONE_STORAGE_PATH=" + filepath.Join(dir, "none.db")}, "backup", "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "no database to open")
	assert.NoFileExists(t, filepath.Join(dir, "none.db"), "backup creates no database")
}

func TestBackupOfAFileInUse(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := newDatabase(t, dir)
	s, err := storage.Open(db, storage.Options{NoSync: true})
	require.NoError(t, err)
	defer s.Close()

	for _, tt := range []struct{ socket, says string }{
		{"", "whose backup socket (" + db + ".sock) did not answer"},
		{"off", "and http.backup_socket is off"},
	} {
		code, _, stderr := runSub(t, []string{"TWENTYONE_STORAGE_PATH=" + db, "TWENTYONE_HTTP_BACKUP_SOCKET=" + tt.socket}, "backup", "-o", filepath.Join(dir, "b.db"))
		assert.Equal(t, exitFailure, code)
		assert.Contains(t, stderr, "held by a running process "+tt.says)
		assert.Equal(t, 1, bytes.Count([]byte(stderr), []byte("\n")), stderr)
	}
}

func TestCompact(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := newDatabase(t, dir)
	env := []string{"TWENTYONE_STORAGE_PATH=" + db}
	out := filepath.Join(dir, "compact.db")

	code, _, stderr := runSub(t, env, "compact", "-o", out)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "compacted to")
	checkDatabase(t, out)

	code, _, stderr = runSub(t, env, "compact", "-o", out)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "exists")

	s, err := storage.Open(db, storage.Options{NoSync: true})
	require.NoError(t, err)
	defer s.Close()
	code, _, stderr = runSub(t, env, "compact", "-o", filepath.Join(dir, "c2.db"))
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "stop the bot")
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

	cfg := DefaultConfig()
	cfg.Storage.Path = path
	_, err = openStore(&cfg, NewMetrics(), discardLogger())
	require.ErrorIs(t, err, storage.ErrPreRelease)
	assert.ErrorContains(t, err, "the database "+path+" was written by a pre-release twentyone (before 1.0)")
	assert.ErrorContains(t, err, "move it away to start with a new database")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "the file is left as it was")
}

func TestStoreOptions(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Table.Language = "en"
	cfg.Table.StartingChips = 700
	cfg.Table.HouseChips = 3000
	opts := storeOptions(&cfg)
	assert.Equal(t, int64(700), opts.StartingChips)
	assert.Equal(t, int64(3000), opts.HouseChips)
	assert.Equal(t, int64(100), opts.DailyBonus)
	assert.Equal(t, "en", opts.Defaults.Language)
	assert.True(t, cfg.Table.Game().Equal(opts.Defaults.Game))
}
