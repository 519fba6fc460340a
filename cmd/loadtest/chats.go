package main

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// The chats of a load: how they are set up, and what is asked of them at
// the end.

// setup creates the chats, each with four players and an open table, and
// waits until every table is shown: n chats, of which inline are inline
// tables, spread evenly among the groups (see openInline).
func (d *driver) setup(ctx context.Context, n, inline int) error {
	var count [kinds]int
	for i := range n {
		k := kindGroup
		if (i+1)*inline/n > i*inline/n {
			k = kindInline
		}
		c := &chat{kind: k, index: map[string]int{}, rng: newRand(d.cfg.Seed<<20 + uint64(i)), wake: make(chan struct{}, 1),
			house: count[k]%houseEvery == 0}
		count[k]++
		var members []telegramtest.User
		for j, name := range playerNames {
			u := d.srv.AddUser(telegramtest.User{FirstName: name, LanguageCode: "en"})
			c.users[j], c.index[name] = u, j
			members = append(members, u)
		}
		for j := range max(d.cfg.App-len(playerNames), 0) {
			if k != kindGroup {
				break
			}
			u := d.srv.AddUser(telegramtest.User{FirstName: fmt.Sprintf("Watcher%d", j+1), LanguageCode: "en"})
			c.watchers = append(c.watchers, u)
			members = append(members, u)
		}
		if k == kindInline {
			id, err := d.inlineChat(i, members)
			if err != nil {
				return err
			}
			c.id = id
		} else {
			c.id = d.srv.NewGroup(fmt.Sprintf("Load %d", i), members...).ID
		}
		d.mu.Lock()
		d.chats[c.id] = c
		d.mu.Unlock()
		d.list = append(d.list, c)
	}
	for _, c := range d.list {
		if c.kind != kindGroup {
			continue
		}
		if _, err := d.srv.SendCommand(c.id, c.users[0].ID, "newgame"); err != nil {
			return fmt.Errorf("opening a table: %w", err)
		}
	}
	if err := d.openInlineTables(ctx); err != nil {
		return err
	}
	for _, c := range d.list {
		if err := c.waitShown(ctx); err != nil {
			return fmt.Errorf("chat %d: the table never showed: %w", c.id, err)
		}
	}
	return nil
}

func (c *chat) waitShown(ctx context.Context) error {
	for {
		c.mu.Lock()
		shown := c.shown
		c.mu.Unlock()
		if shown {
			return nil
		}
		select {
		case <-c.wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// unansweredPresses waits until ctx is done for the presses seen without
// an answer, and returns those still unanswered.
func (d *driver) unansweredPresses(ctx context.Context) []*telegramtest.Callback {
	d.mu.Lock()
	list := append([]*telegramtest.Callback(nil), d.unanswered...)
	d.mu.Unlock()
	var out []*telegramtest.Callback
	for _, cb := range list {
		if _, err := cb.Wait(ctx); err != nil {
			out = append(out, cb)
		}
	}
	return out
}

// notDrained returns the chats whose table is still in a game.
func (d *driver) notDrained() []*chat {
	var out []*chat
	for _, c := range d.list {
		c.mu.Lock()
		if !c.done {
			out = append(out, c)
		}
		c.mu.Unlock()
	}
	return out
}

// describe says what the chat shows and waits for, for a report.
func (c *chat) describe() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := fmt.Sprintf("chat %d shows message %d at version %d (%s, turn %q)", c.id, c.view.messageID, c.view.version, c.view.phase, c.view.turn)
	if p := c.pending; p != nil {
		s += fmt.Sprintf("; waits on press %s of %q at version %d: answered %t %q", p.id, p.data, p.version, p.answered, p.answer)
	}
	return s
}

// chatKinds returns the kind of each chat played, by id.
func (d *driver) chatKinds() map[int64]kind {
	out := make(map[int64]kind, len(d.list))
	for _, c := range d.list {
		out[c.id] = c.kind
	}
	return out
}

// preloadedShown returns how many preloaded tables were rendered.
func (d *driver) preloadedShown() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.shownPre)
}

// newRand returns a seeded source of the players' choices.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x21)) }
