package bot_test

import (
	"context"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// The cut at the harness's tables: every new deck waits for a seated
// player's cut (game.DefaultCutWait, as `twentyone run` opens the store),
// its order still stacked by the harness's deck (storage.Options.Deriver).
// A test that is about something else lets the harness cut for it, in
// one place: startGame and startInline cut the first deck with a tap, and
// cut cuts any deck that waits. A test of the decks of before the cut
// (sha256-salt-v0) opens its harness with saltDecks.

// saltDecks deals every deck at once with a salted commitment, the
// scheme of the games played before the cut (storage.Options.CutWait 0):
// for the tests of that scheme's display, which the bot still shows for
// those games.
func saltDecks(o *harnessOptions) { o.saltDecks = true }

// storeOptions are the harness's store's options: the cut as the bot
// runs it, unless saltDecks; its decks stacked by the harness's deck,
// unless derived.
func (h *harness) storeOptions() storage.Options {
	o := storage.Options{Rand: h.deck, NoSync: !h.opts.sync, OnCommit: func(time.Duration, int) { h.srv.Nudge() }}
	if !h.opts.saltDecks {
		o.CutWait, o.Deriver = game.DefaultCutWait, h.deck
	}
	if h.opts.derived {
		o.Deriver = nil // the rules' derivation
	}
	return o
}

// cutAt cuts the deck the table at key waits for, if it waits: the player
// the table asks taps ✂️ ½ on the table's message (a chat's or, with it,
// an inline one), and the harness waits for the deal. It reports whether
// a deck waited.
func (h *harness) cutAt(key storage.TableKey, it *inlineTable) bool {
	h.t.Helper()
	v, err := h.store.View(context.Background(), key)
	require.NoError(h.t, err)
	c, ok := v.Table.Cut()
	if !ok || !c.Waiting {
		return false
	}
	require.NotZero(h.t, c.Asked, "a player is asked to cut")
	name := h.nameOf(c.Asked)
	tap := func(d callback.Data) bool { return d.Action == callback.Cut && d.Tap == 2 }
	if it != nil {
		h.pressOnInline(*it, name, tap)
	} else {
		id, data := h.buttonAt(key, tap)
		h.pressIn(key.Chat, name, id, data)
	}
	after, err := h.store.View(context.Background(), key)
	require.NoError(h.t, err)
	require.NotEqual(h.t, game.Cutting, after.Table.Phase(), "the deck was cut and dealt")
	return true
}

// cut cuts the deck the group's table waits for (see cutAt).
func (h *harness) cut() bool {
	h.t.Helper()
	return h.cutAt(h.key(), nil)
}

// nameOf returns the harness's name of the user id.
func (h *harness) nameOf(id game.UserID) string {
	h.t.Helper()
	for n, u := range h.users {
		if game.UserID(u.ID) == id {
			return n
		}
	}
	h.t.Fatalf("no user %d", id)
	return ""
}

// buttonAt waits for the message of the table at key (in its chat: a
// group's, a topic's or a private chat's) to show its current version
// with a button match picks, and returns the message's id and the
// button's data.
func (h *harness) buttonAt(key storage.TableKey, match func(callback.Data) bool) (messageID int, data string) {
	h.t.Helper()
	require.NoError(h.t, h.waitFor(func(v *telegramtest.View) bool {
		sv, err := h.store.View(context.Background(), key)
		if err != nil || sv.MessageID == 0 {
			return false
		}
		m, ok := v.Message(key.Chat, sv.MessageID)
		if !ok || !showsVersion(m, sv.Table.Version()) {
			return false
		}
		for _, b := range m.Buttons() {
			if d, err := callback.Parse(b.CallbackData); err == nil && match(d) {
				messageID, data = m.MessageID, b.CallbackData
				return true
			}
		}
		return false
	}), "the table of %v shows the button", key)
	return messageID, data
}

// pressIn has name press data on a message of chat, and returns the
// answer.
func (h *harness) pressIn(chat int64, name string, messageID int, data string) telegramtest.CallbackAnswer {
	h.t.Helper()
	cb, err := h.srv.Press(telegramtest.Press{ChatID: chat, From: h.user(name).ID, MessageID: messageID, Data: data})
	require.NoError(h.t, err)
	a, err := cb.Wait(h.ctx())
	require.NoError(h.t, err)
	return a
}

// seeCut, at a paced table, waits until the table shows its deck waiting
// for the cut (see), and has the player asked tap ✂️ ¼ on it.
func (h *harness) seeCut() {
	h.t.Helper()
	m, v, _ := h.see()
	require.Equal(h.t, game.Cutting, v.Table.Phase(), "the deck waits for its cut")
	c, _ := v.Table.Cut()
	h.pressOn(m, h.nameOf(c.Asked), func(d callback.Data) bool { return d.Action == callback.Cut && d.Tap == 1 })
}

// cutFirst cuts the deck the table at key waits for (cutAt) before a press
// that match picks, unless match picks a cut button: a test that plays on
// to another circle, or past a reshuffle, lets the harness cut for it.
func (h *harness) cutFirst(key storage.TableKey, it *inlineTable, match func(callback.Data) bool) {
	h.t.Helper()
	for tap := 1; tap <= callback.MaxTap; tap++ {
		if match(callback.Data{Action: callback.Cut, Version: 1, Tap: tap}) {
			return
		}
	}
	h.cutAt(key, it)
}
