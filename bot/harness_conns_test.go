package bot_test

import (
	"context"
	"net"
	"net/http"
	"sync"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// The harness's bot's connections to the server: kept, so that a stop
// (hangUp) closes them and waits until the server has handled what they
// carried.

// botConns is a bot's transport to the server, with every connection it
// opened.
type botConns struct {
	transport *http.Transport
	mu        sync.Mutex
	conns     []net.Conn
	hungUp    bool // connections opened from now on are closed at once
}

// dialing returns a transport to the server for a new bot that keeps its
// connections.
func (h *harness) dialing() *botConns {
	c := &botConns{transport: h.srv.Client().Transport.(*http.Transport)}
	dial := c.transport.DialContext
	c.transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.conns = append(c.conns, conn)
		if c.hungUp {
			conn.Close()
		}
		return conn, nil
	}
	return c
}

// hangUp closes the connections of a stopped bot and waits until the
// server closed each too. A request the bot gave up on while stopping
// (its last poll, aborted) may still reach the server after the bot
// stopped, and act there (a getUpdates sets allowed_updates); the server
// handles it before it closes its connection. After hangUp nothing the
// bot sent is left to reach the server.
func (h *harness) hangUp(c *botConns) {
	h.t.Helper()
	c.mu.Lock()
	c.hungUp = true
	for _, conn := range c.conns {
		conn.Close()
	}
	c.mu.Unlock()
	require.NoError(h.t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, conn := range c.conns {
			if !v.HungUp(conn.LocalAddr().String()) {
				return false
			}
		}
		return true
	}), "the stopped bot's connections close")
}
