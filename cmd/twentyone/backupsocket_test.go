package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveBackups serves newBackupHandler(backup) on a new backup socket in a
// temporary directory and returns the socket's path.
func serveBackups(t *testing.T, backup func(context.Context, io.Writer) (int64, error)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "twentyone.db.sock")
	ln, err := listenBackupSocket(path)
	require.NoError(t, err)
	srv := serve("backup", ln, newBackupHandler(backup, discardLogger()), discardLogger(), nil)
	t.Cleanup(func() { assert.NoError(t, srv.Shutdown(context.Background())) })
	return path
}

// staleSocket leaves a socket at path that nobody listens on, as a process
// killed while serving it does.
func staleSocket(t *testing.T, path string) {
	t.Helper()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	require.NoError(t, err)
	ln.SetUnlinkOnClose(false)
	require.NoError(t, ln.Close())
	fi, err := os.Lstat(path)
	require.NoError(t, err)
	require.Equal(t, os.ModeSocket, fi.Mode().Type())
}

func TestBackupSocket(t *testing.T) {
	db := bytes.Repeat([]byte("boltdb page "), 10000)
	backup := func(_ context.Context, w io.Writer) (int64, error) {
		n, err := w.Write(db)
		return int64(n), err
	}
	failing := func(_ context.Context, w io.Writer) (int64, error) {
		n, _ := w.Write(db[:100])
		return int64(n), errors.New("read transaction failed")
	}

	t.Run("ok", func(t *testing.T) {
		path := serveBackups(t, backup)
		var out bytes.Buffer
		n, err := backupOverSocket(context.Background(), path, &out)
		require.NoError(t, err)
		assert.Equal(t, int64(len(db)), n)
		assert.Equal(t, db, out.Bytes())
	})
	t.Run("failure midway", func(t *testing.T) {
		path := serveBackups(t, failing)
		_, err := backupOverSocket(context.Background(), path, io.Discard)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "read transaction failed")
		assert.NotErrorIs(t, err, errNoBot)
	})
	t.Run("no socket", func(t *testing.T) {
		_, err := backupOverSocket(context.Background(), filepath.Join(t.TempDir(), "none.sock"), io.Discard)
		assert.ErrorIs(t, err, errNoBot)
	})
	t.Run("the socket of a bot that crashed", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "twentyone.db.sock")
		staleSocket(t, path)
		_, err := backupOverSocket(context.Background(), path, io.Discard)
		assert.ErrorIs(t, err, errNoBot)
	})
}

// TestBackupSocketRefusesProxies: a request that carries a header a
// reverse proxy adds gets 403 and no backup is made; a header's case does
// not matter.
func TestBackupSocketRefusesProxies(t *testing.T) {
	var backups atomic.Int32
	path := serveBackups(t, func(_ context.Context, w io.Writer) (int64, error) {
		backups.Add(1)
		n, err := io.WriteString(w, "the database")
		return int64(n), err
	})
	client := socketClient(path)
	t.Cleanup(client.CloseIdleConnections)
	post := func(header http.Header) (int, string) {
		req, err := http.NewRequest(http.MethodPost, socketURL+"/backup", nil)
		require.NoError(t, err)
		req.Header = header
		resp, err := client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(body)
	}
	for _, h := range []struct{ name, value string }{
		{"Forwarded", "for=192.0.2.60;proto=https"},
		{"X-Forwarded-For", "192.0.2.60"},
		{"X-Forwarded-Host", "bot.example.org"},
		{"X-Forwarded-Proto", "https"},
		{"X-Forwarded-Port", "443"},
		{"X-Forwarded-Server", "traefik-1"},
		{"x-real-ip", "192.0.2.60"},
		{"Via", "1.1 varnish"},
	} {
		t.Run(h.name, func(t *testing.T) {
			before := backups.Load()
			code, body := post(http.Header{h.name: {h.value}}) // sent as spelt
			assert.Equal(t, http.StatusForbidden, code)
			assert.Contains(t, body, http.CanonicalHeaderKey(h.name))
			assert.NotContains(t, body, "the database")
			assert.Equal(t, before, backups.Load(), "no backup made")
		})
	}
	code, body := post(http.Header{"X-Request-Id": {"1"}})
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "the database", body)
}

func TestListenBackupSocket(t *testing.T) {
	t.Run("mode 0600, removed at close", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "twentyone.db.sock")
		ln, err := listenBackupSocket(path)
		require.NoError(t, err)
		fi, err := os.Lstat(path)
		require.NoError(t, err)
		assert.Equal(t, os.ModeSocket, fi.Mode().Type())
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
		assert.Equal(t, path, ln.Addr().String())
		require.NoError(t, ln.Close())
		assert.NoFileExists(t, path)
		assert.NoError(t, ln.Close(), "a second Close is harmless")
	})
	t.Run("a stale socket is replaced", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "twentyone.db.sock")
		staleSocket(t, path)
		ln, err := listenBackupSocket(path)
		require.NoError(t, err)
		defer ln.Close()
		go func() {
			if c, err := ln.Accept(); err == nil {
				_ = c.Close()
			}
		}()
		c, err := net.Dial("unix", path)
		require.NoError(t, err, "the new socket answers")
		_ = c.Close()
	})
	t.Run("a live socket is left alone", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "twentyone.db.sock")
		first, err := listenBackupSocket(path)
		require.NoError(t, err)
		defer first.Close()
		before, err := os.Lstat(path)
		require.NoError(t, err)
		_, err = listenBackupSocket(path)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "another process answers on "+path)
		after, err := os.Lstat(path)
		require.NoError(t, err)
		assert.True(t, os.SameFile(before, after), "the first socket is still there")
	})
	t.Run("a file that is no socket is left alone", func(t *testing.T) {
		path := writeFile(t, "twentyone.db.sock", "precious")
		_, err := listenBackupSocket(path)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "is not a socket")
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, "precious", string(data))
	})
	t.Run("close leaves a file that took the socket's place", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "twentyone.db.sock")
		ln, err := listenBackupSocket(path)
		require.NoError(t, err)
		require.NoError(t, os.Remove(path))
		require.NoError(t, os.WriteFile(path, []byte("another's"), 0o600))
		require.NoError(t, ln.Close())
		assert.FileExists(t, path)
	})
	t.Run("no directory", func(t *testing.T) {
		_, err := listenBackupSocket(filepath.Join(t.TempDir(), "none", "twentyone.db.sock"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "backup socket: ")
	})
}
