package main

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// retryLog is the log line of an attempt to reach the Bot API that failed
// and is made again (bot/service).
const retryLog = "the Bot API cannot be reached: trying again"

// TestRunWaitsForTheBotAPI: a bot started while the Bot API cannot be
// reached (a host's network comes up after its containers) keeps trying,
// with backoff, and runs once it answers; SIGTERM meanwhile stops it
// cleanly; a refusal (a wrong token) stops it at once.
func TestRunWaitsForTheBotAPI(t *testing.T) {
	t.Run("reached at the third attempt", func(t *testing.T) {
		t.Parallel()
		srv := telegramtest.StartTest(t)
		fault := srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDropConnection, Methods: []string{"getMe"}, Count: 2})
		p := startBinary(t, botEnv(srv, filepath.Join(t.TempDir(), "twentyone.db")))
		p.waitReady()
		assert.Equal(t, 2, fault.Fired())
		assert.Equal(t, 2, p.stderr.count(retryLog), "one line an attempt that failed")
		tb := newTable(t, srv)
		tb.open() // it plays
		p.signal(syscall.SIGTERM)
		require.Equal(t, exitOK, p.waitExit(stopLimit))
	})
	t.Run("stopped while waiting", func(t *testing.T) {
		t.Parallel()
		srv := telegramtest.StartTest(t)
		srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultBadGateway, Methods: []string{"getMe"}})
		db := filepath.Join(t.TempDir(), "twentyone.db")
		p := startBinary(t, botEnv(srv, db))
		require.True(t, p.logged(retryLog))
		p.signal(syscall.SIGTERM)
		require.Equal(t, exitOK, p.waitExit(stopLimit), "a stop as asked")
		assert.True(t, p.logged("signal received while starting: stopped"))
		auditDatabase(t, db) // closed, intact
	})
	t.Run("a wrong token", func(t *testing.T) {
		t.Parallel()
		srv := telegramtest.StartTest(t)
		env := botEnv(srv, filepath.Join(t.TempDir(), "twentyone.db"), "TWENTYONE_TELEGRAM_TOKEN=123:wrong")
		code, _, stderr := runBinary(t, env, "run")
		assert.Equal(t, exitFailure, code)
		assert.Contains(t, stderr, "connecting to the Bot API")
		assert.Contains(t, stderr, "Unauthorized")
		assert.NotContains(t, stderr, retryLog, "a refusal is not tried again")
	})
}
