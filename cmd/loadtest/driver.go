package main

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// playerNames are the four players of every chat; the table message names
// them, which is how a player sees whose turn it is.
var playerNames = [4]string{"Ann", "Bob", "Cid", "Dee"}

// driver plays every chat, group or inline table: one goroutine per chat
// presses a legal button for the player who may press it, waits until the
// table message shows the version that press made, and presses again. A
// router goroutine reads the server's event stream and tells each chat
// what it shows.
type driver struct {
	srv   *telegramtest.Server
	cfg   *Config
	sub   *telegramtest.Subscription
	chats map[int64]*chat // fixed once set up
	list  []*chat
	pace  *pacer

	measuring atomic.Bool
	draining  atomic.Bool
	// stop is closed by drain: paced players stop thinking and pressing.
	stop     chan struct{}
	stopOnce sync.Once
	// paced records a paced run's writes, presses and toasts; nil when
	// the run is not paced.
	paced *pacedLog
	// asks records the players' personal commands and their answers
	// (Config.Asks); nil when they ask none.
	asks *askLog
	// circles records the circles and the cuts the groups see in a paced
	// run; nil when the run is not paced.
	circles *circleLog
	// stalePresses makes chats press an outdated button now and then (chaos).
	stalePresses bool
	// app is the Mini App's side of the run (-app); nil without it.
	app *appLoad

	lat    *histogram                // press-to-edit over the measurement window
	window atomic.Pointer[histogram] // since the last progress line

	presses      atomic.Int64 // accepted presses in the measurement window
	allPresses   atomic.Int64 // every press made
	applied      atomic.Int64 // presses that moved their table by one version
	rejections   atomic.Int64 // presses answered with a refusal
	stalls       atomic.Int64 // presses that saw neither an edit nor a refusal in time
	jumps        atomic.Int64 // presses after which the version moved by more than one
	stale        atomic.Int64 // outdated buttons pressed on purpose
	staleApplied atomic.Int64 // ... that were not refused as outdated: must stay 0
	pressErrors  atomic.Int64 // presses the server refused (message gone)
	games        atomic.Int64 // games started
	houseGames   atomic.Int64 // ... with the house seated
	finished     atomic.Int64 // games seen to end: a table in a game shown out of it
	// byKind are the groups' and the inline tables' shares of the counts.
	byKind [kinds]kindCounts

	mu         sync.Mutex
	shownPre   map[int64]bool           // preloaded chats whose table was rendered
	unanswered []*telegramtest.Callback // presses without an answer yet
	refusals   map[string]int           // the refusals' texts
}

// chat is one group with its four players, or one inline table: a group
// the bot is not in, with its four players, where the first posted the
// table via the bot.
type chat struct {
	id    int64
	kind  kind
	users [4]telegramtest.User
	index map[string]int
	rng   *rand.Rand
	// house: its players seat the house now and then (see houseEvery).
	house bool
	// watchers are the members who only watch the table in the Mini App
	// (-app past the four players).
	watchers []telegramtest.User
	// inline is the inline table's message, set once posted; nil for a
	// group.
	inline *inlineMessage

	mu      sync.Mutex
	view    tableView // the newest table message
	shown   bool
	reads   uint64 // table messages read into view, for waitPast
	pending *pendingPress
	wake    chan struct{}
	done    bool // drained
	// stored is the table's version as the answers to its presses tell it
	// (a press taken at version v leaves the table at v+1), since storedAt.
	stored   uint64
	storedAt time.Time
}

// pendingPress is the press a chat waits on; the router fills it in.
type pendingPress struct {
	data     string
	version  uint64 // the version shown when it was pressed
	stale    bool   // an outdated button pressed on purpose
	id       string
	at       time.Time
	answered bool
	answer   string
	moved    bool
	to       uint64 // the version it moved to
	latency  time.Duration
}

func newDriver(srv *telegramtest.Server, cfg *Config) *driver {
	d := &driver{srv: srv, cfg: cfg, chats: map[int64]*chat{}, lat: newHistogram(), shownPre: map[int64]bool{},
		stop: make(chan struct{})}
	for k := range d.byKind {
		d.byKind[k].lat = newHistogram()
	}
	if cfg.Paced {
		d.paced = newPacedLog()
		d.circles = newCircleLog()
	}
	if cfg.Asks > 0 {
		d.asks = newAskLog()
	}
	d.window.Store(newHistogram())
	d.sub = srv.Subscribe(1 << 18)
	go d.route()
	return d
}

// route reads the event stream until the subscription closes.
func (d *driver) route() {
	for e := range d.sub.C {
		switch e.Kind {
		case telegramtest.EventMessageSent, telegramtest.EventMessageEdited:
			if e.Message == nil {
				continue
			}
			if d.asks != nil {
				if c := d.lookup(e.ChatID); c != nil && c.kind == kindGroup {
					d.asks.seen(e)
				}
			}
			if e.Message.VisibleTo != 0 {
				// An ephemeral message: its one member sees it, not the group.
				if d.paced != nil && e.Message.FromBot {
					d.paced.ephemeral(e.Time)
				}
				continue
			}
			if !drawsTables(e.Message) {
				continue
			}
			if d.paced != nil && botWrote(e) {
				d.paced.write(e.ChatID, e.Time)
			}
			v, ok := readTable(e.Message)
			if !ok {
				continue
			}
			if d.circles != nil {
				if c := d.lookup(e.ChatID); c != nil && c.kind == kindGroup {
					d.circles.saw(e.ChatID, e.Time, v.phase, v.version, e.Message.Text, botWrote(e))
				}
			}
			c := d.lookup(e.ChatID)
			if c == nil {
				if isPreloaded(e.ChatID) {
					d.mu.Lock()
					d.shownPre[e.ChatID] = true
					d.mu.Unlock()
				}
				continue
			}
			c.mu.Lock()
			prev := c.view
			switch {
			case v.phase == phaseHouse && c.shown:
				// The house is to move: no button says the version, but
				// the stream is in order, so this is the newest state. It
				// is one version past the press that handed the turn to
				// the house, if one waits: the house moves a second later.
				v.version = c.view.version
				if p := c.pending; p != nil && !p.moved {
					p.moved, p.to, p.latency = true, p.version+1, e.Time.Sub(p.at)
					v.version = max(v.version, p.to) // not behind the press it shows
				}
				c.view = v
				c.reads++
			case !c.shown || v.version >= c.view.version:
				if c.shown && !c.view.settled() && v.settled() {
					d.finished.Add(1)
					d.byKind[c.kind].finished.Add(1)
					if d.paced != nil {
						d.paced.finish(c.id, e.Time)
					}
				}
				c.view, c.shown = v, true
				c.reads++
				if p := c.pending; p != nil && !p.moved && v.version > p.version {
					p.moved, p.to, p.latency = true, v.version, e.Time.Sub(p.at)
				}
			}
			shows := c.view.version
			if v.phase == phaseHouse && prev.phase != phaseHouse && c.shown {
				shows = max(shows, prev.version+1) // the house's turn came after prev
			}
			c.mu.Unlock()
			if t := d.appTable(c); t != nil {
				t.lat.chatShowed(shows, e.Time)
			}
			c.signal()
		case telegramtest.EventButtonPressed:
			c := d.lookup(e.ChatID)
			if c == nil || e.Callback == nil {
				continue
			}
			c.mu.Lock()
			if p := c.pending; p != nil && p.id == "" && p.data == e.Callback.Data {
				p.id, p.at = e.Callback.ID, e.Callback.PressedAt
			}
			c.mu.Unlock()
		case telegramtest.EventCallbackAnswered:
			c := d.lookup(e.ChatID)
			if c == nil || e.Callback == nil || e.Callback.Answer == nil {
				continue
			}
			if d.paced != nil && d.measuring.Load() {
				d.paced.answered(c.kind, e.Callback.Answer.Latency)
			}
			c.mu.Lock()
			if p := c.pending; p != nil && p.id == e.Callback.ID {
				p.answered, p.answer = true, e.Callback.Answer.Text
				if !p.stale && !rejected(p.answer) && p.version+1 > c.stored {
					c.stored, c.storedAt = p.version+1, e.Time
				}
			}
			c.mu.Unlock()
			c.signal()
		}
	}
}

func (d *driver) lookup(id int64) *chat {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.chats[id]
}

func (c *chat) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// play runs every chat until ctx is done or, once draining, until every
// table is out of its game, and its players' asks (askLoop) until they
// stop.
func (d *driver) play(ctx context.Context) {
	var wg sync.WaitGroup
	for _, c := range d.list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if t := d.appTable(c); t != nil {
				d.playApp(ctx, c, t)
				return
			}
			d.playChat(ctx, c)
		}()
		for who := range c.users {
			if d.asks == nil || c.kind != kindGroup {
				break
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				d.askLoop(ctx, c, who)
			}()
		}
	}
	wg.Wait()
}

func (d *driver) playChat(ctx context.Context, c *chat) {
	for ctx.Err() == nil {
		if d.paced != nil && !d.think(ctx, c) {
			d.stopPlayer(ctx, c)
			return
		}
		c.mu.Lock()
		v := c.view
		c.mu.Unlock()
		if d.chatTurn(ctx, c, v) {
			return
		}
	}
}

// stopPlayer ends a paced chat's play: the players stop, but a house to
// move plays its turn out first, and a deck waiting for its cut is dealt
// at its wait's end (nobody cuts now), after which the house may move:
// the table ends showing its latest state (at a watched table, first
// what the app shows).
func (d *driver) stopPlayer(ctx context.Context, c *chat) {
	if t := d.appTable(c); t != nil {
		d.chatCaughtUp(ctx, c, t.newest())
	}
	for c.waitsForBot() && c.waitPast(ctx, d.cfg.PressTimeout, c.phase()) {
	}
	c.finish()
}

// chatTurn plays one choice in the chat, v being what its table message
// shows; it reports whether the chat is done (drained).
func (d *driver) chatTurn(ctx context.Context, c *chat, v tableView) bool {
	if d.draining.Load() && v.settled() {
		c.finish()
		return true
	}
	if v.phase == phaseHouse {
		// Nothing to press while the house thinks: wait for its
		// moves, each shown (a house that draws moves again).
		for c.houseToMove() {
			if !c.waitHouse(ctx, d.cfg.PressTimeout) {
				if ctx.Err() == nil {
					d.stall(c)
					c.resync(d.srv)
				}
				break
			}
		}
		return false
	}
	who, b, ok := c.choose(&v, d.draining.Load())
	if !ok {
		// The message does not say who acts (it should): read the
		// newest table message again, after a pause.
		d.stall(c)
		if !outbox.Sleep(ctx, 100*time.Millisecond) {
			return true
		}
		c.resync(d.srv)
		return false
	}
	if d.pace != nil && !d.pace.wait(ctx) {
		return true
	}
	t := d.appTable(c)
	var a *tracked
	if t != nil {
		a = t.lat.start(v.version, time.Now(), srcChat, d.measuring.Load())
	}
	moved := d.pressAndWait(ctx, c, v, who, b, false, false)
	if t != nil {
		t.lat.settle(a, moved)
	}
	if moved && d.stalePresses && c.rng.IntN(20) == 0 && ctx.Err() == nil {
		// Press the button just pressed again: its version is gone.
		// By the same user it is a double tap, which the bot answers
		// as it answered the first press, applying nothing.
		again := c.rng.IntN(4)
		d.pressAndWait(ctx, c, v, again, b, true, again == who)
	}
	return false
}

// think waits while the player makes up their mind, as a paced run's
// players do; it returns false, at once, when the players stop (drain).
func (d *driver) think(ctx context.Context, c *chat) bool {
	select {
	case <-d.stop:
		return false
	default:
	}
	t := time.NewTimer(d.cfg.thinking(thinkTime(c.rng)))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-d.stop:
	case <-ctx.Done():
	}
	return false
}

// drain starts the end of the run: no new game starts, and paced players
// stop pressing.
func (d *driver) drain() {
	d.draining.Store(true)
	d.stopOnce.Do(func() { close(d.stop) })
}

// pressAndWait presses b as user who and waits until the table shows a
// newer version or the press is refused. It reports whether the table
// moved. A stale press must be refused as outdated, or, a double tap (the
// user pressed b just before), answered without moving the table.
func (d *driver) pressAndWait(ctx context.Context, c *chat, v tableView, who int, b button, stale, doubleTap bool) bool {
	p := &pendingPress{data: b.data, version: v.version, stale: stale}
	c.mu.Lock()
	if stale {
		p.version = c.view.version
	}
	c.pending = p
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.pending = nil
		c.mu.Unlock()
	}()
	cb, err := c.press(d.srv, who, v.messageID, b.data)
	if err != nil {
		d.pressErrors.Add(1)
		c.resync(d.srv)
		return false
	}
	d.allPresses.Add(1)
	if stale {
		d.stale.Add(1)
	}
	timer := time.NewTimer(d.cfg.PressTimeout)
	defer timer.Stop()
	for {
		c.mu.Lock()
		moved, answered, text, to, latency, at := p.moved, p.answered, p.answer, p.to, p.latency, p.at
		c.mu.Unlock()
		switch {
		case moved:
			if !answered {
				d.mu.Lock()
				d.unanswered = append(d.unanswered, cb)
				d.mu.Unlock()
			}
			if stale {
				d.staleApplied.Add(1)
				return true
			}
			d.counted(c, v, b)
			if d.paced != nil && !at.IsZero() {
				d.paced.pressed(c.id, at, at.Add(latency))
			}
			if to > p.version+1 && !v.house && !c.showsHouse() {
				// At the house's table the house may have moved too
				// before the edit: its moves are no press.
				d.jumps.Add(1)
			}
			if d.measuring.Load() {
				d.presses.Add(1)
				d.lat.add(latency)
				d.byKind[c.kind].lat.add(latency)
				d.window.Load().add(latency)
			}
			return true
		case answered && stale:
			if !outdated(b, text) && !doubleTap {
				d.staleApplied.Add(1) // refused for another reason, or taken
			}
			return false
		case answered && rejected(text):
			d.rejections.Add(1)
			d.mu.Lock()
			if d.refusals == nil {
				d.refusals = map[string]int{}
			}
			d.refusals[text]++
			d.mu.Unlock()
			if outdated(b, text) && v.phase == phaseCutting {
				// Told the deck was cut already, or dealt not cut: a
				// player taps that prompt no more, but waits for the
				// table to show what became of the deck (its render
				// waits its turn under the global budget meanwhile).
				c.waitPast(ctx, d.cfg.PressTimeout, phaseCutting)
			}
			return false
		}
		select {
		case <-c.wake:
		case <-timer.C:
			d.stall(c)
			if !answered {
				d.mu.Lock()
				d.unanswered = append(d.unanswered, cb)
				d.mu.Unlock()
			}
			if d.paced != nil && !stale && !at.IsZero() && answered {
				d.paced.pressed(c.id, at, time.Time{}) // taken, never shown
			}
			c.resync(d.srv)
			return false
		case <-ctx.Done():
			if !answered {
				d.mu.Lock()
				d.unanswered = append(d.unanswered, cb)
				d.mu.Unlock()
			}
			return false
		}
	}
}

// stall counts a press that saw neither an edit nor a refusal in time, or
// a table that did not say who acts.
func (d *driver) stall(c *chat) {
	d.stalls.Add(1)
	d.byKind[c.kind].stalls.Add(1)
}

// press presses data on the chat's table message as player who: on an
// inline table by its inline_message_id, as its players' clients do.
func (c *chat) press(srv *telegramtest.Server, who, messageID int, data string) (*telegramtest.Callback, error) {
	if im := c.inlineMessage(); im != nil {
		return srv.PressInline(telegramtest.InlinePress{From: c.users[who].ID, InlineMessageID: im.id, Data: data})
	}
	return srv.Press(telegramtest.Press{ChatID: c.id, From: c.users[who].ID, MessageID: messageID, Data: data})
}

// resync reads the chat's newest table message from the server, for when
// an event was missed.
func (c *chat) resync(srv *telegramtest.Server) {
	if im := c.inlineMessage(); im != nil {
		if m, ok := srv.InlineMessage(im.id); ok {
			c.resyncTo(&m)
		}
		return
	}
	msgs := srv.Messages(c.id)
	for i := len(msgs) - 1; i >= 0; i-- {
		if !msgs[i].FromBot {
			continue
		}
		if _, ok := readTable(&msgs[i]); ok {
			c.resyncTo(&msgs[i])
			return
		}
	}
}

// resyncTo makes m, read from the server, the chat's view when it is no
// older.
func (c *chat) resyncTo(m *telegramtest.ChatMessage) {
	v, ok := readTable(m)
	if !ok {
		return
	}
	c.mu.Lock()
	if v.version >= c.view.version {
		c.view, c.shown = v, true
	}
	c.mu.Unlock()
}
