package main

import (
	"context"
	"slices"
	"time"

	"github.com/twentyone-bot/twentyone/bot/callback"
)

// What a chat's player waits on: what its table message shows, and the
// next one.

// houseToMove reports whether the chat's table message shows the house to
// move.
func (c *chat) houseToMove() bool { return c.phase() == phaseHouse }

// waitsForBot reports whether the chat's table message shows a table that
// moves on without its players: the house to move, or a deck waiting for
// its cut (its wait's end deals it).
func (c *chat) waitsForBot() bool {
	p := c.phase()
	return p == phaseHouse || p == phaseCutting
}

// phase returns what the chat's table message shows.
func (c *chat) phase() phase {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view.phase
}

// finish marks the chat drained.
func (c *chat) finish() {
	c.mu.Lock()
	c.done = true
	c.mu.Unlock()
}

// showsHouse reports whether the chat's newest table message names the
// house.
func (c *chat) showsHouse() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view.house
}

// waitHouse waits until the chat's table shows a move of the house or no
// longer waits for it, at most d; false when neither happened. A house
// that draws is to move again: under the global budget each of its moves
// waits for its render's turn, so that its whole turn may take longer
// than d.
func (c *chat) waitHouse(ctx context.Context, d time.Duration) bool {
	return c.waitPast(ctx, d, phaseHouse)
}

// waitPast waits until the chat's table shows another table message than
// the one it shows now, or no longer shows phase p, at most d; false when
// neither happened.
func (c *chat) waitPast(ctx context.Context, d time.Duration, p phase) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	c.mu.Lock()
	reads := c.reads
	c.mu.Unlock()
	for {
		c.mu.Lock()
		moved := c.view.phase != p || c.reads != reads
		c.mu.Unlock()
		if moved {
			return true
		}
		select {
		case <-c.wake:
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// counted counts a press or an app action of b that the table took, at
// the table v shows.
func (d *driver) counted(c *chat, v tableView, b button) {
	d.applied.Add(1)
	d.byKind[c.kind].applied.Add(1)
	if b.cb.Action == callback.Start {
		d.games.Add(1)
		d.byKind[c.kind].games.Add(1)
		if slices.Contains(v.seated, houseName) {
			d.houseGames.Add(1)
			d.byKind[c.kind].houseGames.Add(1)
		}
	}
}

// appTable returns the chat's table as the app watches it; nil without
// -app, or for a chat not watched.
func (d *driver) appTable(c *chat) *appTable {
	if d.app == nil {
		return nil
	}
	return d.app.all()[c.id]
}
