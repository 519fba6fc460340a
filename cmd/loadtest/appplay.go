package main

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
)

// How the players of a watched table play (-app): each choice is made
// through the app with the share Config.AppShare (always when AppFlat),
// else in the chat. Through the app, a player reads the table as their
// viewers hold it (the views the streams brought), chooses as in the chat
// (chat.choose) and sends the button's callback data to /api/act; in the
// chat, they wait until the table message shows what the app shows, and
// press as before. At human pace each choice takes a person's time
// (thinkTime); flat out, a player acts as soon as their viewer holds the
// version the previous action made.

// playApp plays a watched chat until ctx is done or, once draining, until
// its table is out of its game (paced players stop instead).
func (d *driver) playApp(ctx context.Context, c *chat, t *appTable) {
	for ctx.Err() == nil {
		if d.paced != nil && d.stopped() {
			d.stopPlayer(ctx, c)
			return
		}
		if !d.cfg.AppFlat && !d.draining.Load() && !d.think(ctx, c) {
			continue // the drain began, or ctx ended: the loop decides
		}
		var done bool
		if d.cfg.AppFlat || c.rng.Float64() < d.cfg.AppShare {
			done = d.appTurn(ctx, c, t)
		} else if d.chatCaughtUp(ctx, c, t.newest()) {
			c.mu.Lock()
			v := c.view
			c.mu.Unlock()
			done = d.chatTurn(ctx, c, v)
		}
		if done {
			return
		}
	}
}

// stopped reports whether the players stop (drain).
func (d *driver) stopped() bool {
	select {
	case <-d.stop:
		return true
	default:
		return false
	}
}

// chatCaughtUp waits until the chat's table message shows version or a
// newer one, at most PressTimeout (a stall past it).
func (d *driver) chatCaughtUp(ctx context.Context, c *chat, version uint64) bool {
	ok := c.waitUntil(ctx, d.cfg.PressTimeout, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.view.version >= version || c.view.phase == phaseHouse
	})
	if !ok && ctx.Err() == nil {
		d.stall(c)
		c.resync(d.srv)
	}
	return ok
}

// appTurn plays one choice through the app; it reports whether the chat
// is done (drained).
func (d *driver) appTurn(ctx context.Context, c *chat, t *appTable) bool {
	// The table is at least at the version the chat shows (a press there
	// may have shown before its viewers hold it) and the last action here
	// made.
	c.mu.Lock()
	floor := max(c.view.version, t.acted)
	c.mu.Unlock()
	var v tableView
	var ok bool
	if !c.waitUntil(ctx, d.cfg.PressTimeout, func() bool { v, ok = t.state(floor); return ok }) {
		if ctx.Err() == nil {
			d.stall(c)
		}
		return false
	}
	draining := d.draining.Load()
	if draining && ok && v.settled() {
		d.chatCaughtUp(ctx, c, v.version)
		c.finish()
		return true
	}
	if v.phase == phaseHouse {
		// Nothing to press while the house (or the cut's wait) moves.
		if !t.waitNewer(ctx, d.cfg.PressTimeout, v.version) && ctx.Err() == nil {
			d.stall(c)
		}
		return false
	}
	who, b, ok := c.choose(&v, draining)
	if !ok {
		if !t.waitNewer(ctx, time.Second, v.version) && ctx.Err() == nil {
			d.stall(c)
		}
		return false
	}
	me := t.viewers[who]
	if !t.pace(ctx, who) {
		return false
	}
	a := t.lat.start(v.version, time.Now(), srcApp, d.measuring.Load())
	ans, err := d.app.act(ctx, me, b.data)
	applied := err == nil && ans.Applied
	t.lat.settle(a, applied)
	switch {
	case err != nil:
		d.stall(c)
		return false
	case !applied:
		d.rejections.Add(1)
		d.mu.Lock()
		if d.refusals == nil {
			d.refusals = map[string]int{}
		}
		d.refusals["app: "+ans.Text]++
		d.mu.Unlock()
		return false
	}
	d.app.acts.applied.Add(1)
	if d.measuring.Load() {
		d.app.acts.measured.Add(1)
	}
	d.counted(c, v, b)
	c.mu.Lock()
	t.acted = max(t.acted, v.version+1, ans.Version)
	if v.version+1 > c.stored {
		c.stored, c.storedAt = v.version+1, time.Now()
	}
	c.mu.Unlock()
	if ans.Version > v.version+1 && !v.house {
		d.jumps.Add(1)
	}
	if !t.waitNewer(ctx, d.cfg.PressTimeout, v.version) && ctx.Err() == nil {
		d.stall(c)
	}
	return false
}

// waitNewer waits until a viewer of the table holds a version newer than
// version, at most timeout.
func (t *appTable) waitNewer(ctx context.Context, timeout time.Duration, version uint64) bool {
	return t.chat.waitUntil(ctx, timeout, func() bool { return t.newest() > version })
}

// waitUntil waits until cond holds, at most timeout; cond is checked at
// each signal of the chat (a table message or a view received).
func (c *chat) waitUntil(ctx context.Context, timeout time.Duration, cond func() bool) bool {
	if cond() {
		return true
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case <-c.wake:
			if cond() {
				return true
			}
		case <-timer.C:
			return cond()
		case <-ctx.Done():
			return false
		}
	}
}

// state reads the table as the players' viewers hold it, once each holds
// the newest version any viewer holds, and at least floor (ok is false
// until then, and before any view): the table then,
// with the actions of every player (each view has only its viewer's
// own). A player acts on their own view, the others' say what the others
// may do, as one message's buttons do for all in the chat.
func (t *appTable) state(floor uint64) (tableView, bool) {
	newest := max(t.newest(), floor)
	var datas [len(playerNames)][]byte
	var versions [len(playerNames)]uint64
	for i := range datas {
		versions[i], datas[i] = t.viewers[i].latest()
	}
	if newest == 0 || slices.Min(versions[:]) < newest {
		return tableView{}, false
	}
	var out tableView
	seen := map[string]bool{}
	first := true
	for _, data := range datas {
		var vw view.View
		if err := json.Unmarshal(data, &vw); err != nil {
			return tableView{}, false
		}
		if first {
			out = fromView(&vw)
			first = false
		}
		for _, line := range vw.Actions {
			for _, a := range line.Actions {
				d, err := callback.Parse(a.Data)
				if err != nil || seen[a.Data] {
					continue
				}
				seen[a.Data] = true
				out.buttons = append(out.buttons, button{data: a.Data, cb: d})
			}
		}
	}
	if len(out.buttons) == 0 && out.phase != phaseLobby && out.phase != phaseClosed {
		// In a game, none of the players may act: the house moves, or the
		// deck's cut waits for nobody.
		out.phase = phaseHouse
	}
	return out, true
}

// fromView reads a view as a table message's reader does (table.go): the
// phase, who sits, whose turn or cut it is; the buttons are added by the
// caller.
func fromView(vw *view.View) tableView {
	out := tableView{version: vw.Version}
	switch vw.Phase {
	case "lobby":
		out.phase = phaseLobby
	case "betting":
		out.phase = phaseBetting
	case "drawing":
		out.phase = phaseDrawing
	case "cutting":
		out.phase = phaseCutting
	case "closed":
		out.phase = phaseClosed
	}
	for _, s := range vw.Seats {
		out.house = out.house || s.House
		if out.phase == phaseLobby {
			out.seated = append(out.seated, s.Name)
		}
	}
	switch {
	case out.phase == phaseCutting && vw.Deck != nil && vw.Deck.Cut != nil:
		out.turn = vw.Deck.Cut.Asked
	case vw.Turn >= 0 && vw.Turn < len(vw.Seats):
		if vw.Seats[vw.Turn].House {
			out.phase = phaseHouse
		}
		out.turn = vw.Seats[vw.Turn].Name
	}
	return out
}
