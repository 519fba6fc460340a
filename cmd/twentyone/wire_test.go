package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/storage"
)

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
