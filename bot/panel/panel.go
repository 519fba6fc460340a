// Package panel keeps the chats' settings panels (the /settings messages)
// showing the settings, each at the level its admin moved it to (the list
// of the settings, or one setting's choices: see package render), and is
// the one way the settings change: by text
// (/settings FIELD VALUE, /lang), or by a panel's buttons. A change is
// stored, the house stood up where the chat turned it off, every open
// table of the chat shown again in its (maybe new) language, and every
// panel of the chat still remembered redrawn.
package panel

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/expiring"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Store is what the panels need of storage.
type Store interface {
	Settings(ctx context.Context, chat int64) (storage.ChatSettings, error)
	UpdateSettings(ctx context.Context, chat int64, fn func(*storage.ChatSettings) error) (storage.ChatSettings, error)
}

// Tables is what a change of the settings asks of the chat's tables.
type Tables interface {
	// RefreshChat shows every open table of the chat again.
	RefreshChat(ctx context.Context, chat int64)
	// UnseatHouse stands the house up where the chat forbids it.
	UnseatHouse(ctx context.Context, chat int64)
}

// Panel is one settings message of a chat.
type Panel struct {
	// At is the message: one of the chat's, or an ephemeral one that only
	// the member who asked for it sees (its presses edit it as such).
	At send.Sent
	// ReadOnly: drawn without buttons (render.SettingsReadOnly), for a
	// member who is no admin.
	ReadOnly bool
	// Field is the setting whose choices the panel shows
	// (render.SettingsField); "" for the list of the settings
	// (render.Settings).
	Field string
	// at is when it was sent or last pressed.
	at time.Time
}

// Draw is the panel drawn for settings s.
func (p Panel) Draw(s storage.ChatSettings) message.Message {
	switch {
	case p.ReadOnly:
		return render.SettingsReadOnly(Edited(s))
	case p.Field != "":
		return render.SettingsField(Edited(s), p.Field)
	}
	return render.Settings(Edited(s))
}

// Edited is a chat's settings as the settings editor (package setting)
// edits them and the panel draws them: the language decided
// (i18n.OfChat).
func Edited(s storage.ChatSettings) game.ChatSettings {
	s.Language = string(i18n.OfChat(s.Language))
	return s
}

// The bounds of what Panels remembers: the newest maxPanels of a chat,
// each for panelTTL, in at most maxChats chats. A panel forgotten stays
// as it was drawn; its buttons carry the settings' stamp, so a press on
// it is answered as outdated and redraws it.
const (
	maxPanels = 4
	maxChats  = 1024
	panelTTL  = 48 * time.Hour
)

// Panels remembers the settings panels the bot sent each chat, so that a
// change of the settings redraws every one still open. Its methods are
// safe for concurrent use.
type Panels struct {
	store  Store
	send   *send.Sender
	clock  clock.Clock
	tables Tables
	chats  *expiring.Cache[int64, []Panel]
}

// New returns the panels of the chats in store, drawn through s.
func New(store Store, s *send.Sender, c clock.Clock, tables Tables) *Panels {
	return &Panels{store: store, send: s, clock: c, tables: tables,
		chats: expiring.New[int64, []Panel](maxChats, panelTTL, c)}
}

// remember adds a panel of chat, as of now, and reports whether it did:
// a panel already remembered is updated, unless known is keepKnown,
// which leaves it as it is; the oldest beyond maxPanels are forgotten.
func (p *Panels) remember(chat int64, pn Panel, known knownPanel) bool {
	now := p.clock.Now()
	pn.at = now
	added := true
	p.chats.Update(chat, func(list []Panel, ok bool) ([]Panel, bool) {
		if known == keepKnown && slices.ContainsFunc(list, func(old Panel) bool { return old.At == pn.At && now.Sub(old.at) <= panelTTL }) {
			added = false
			return list, ok
		}
		kept := make([]Panel, 0, len(list)+1)
		for _, old := range list {
			if old.At != pn.At && now.Sub(old.at) <= panelTTL {
				kept = append(kept, old)
			}
		}
		kept = append(kept, pn)
		return kept[max(0, len(kept)-maxPanels):], true
	})
	return added
}

// knownPanel is what remember does with a panel already remembered.
type knownPanel bool

const (
	updateKnown knownPanel = false
	keepKnown   knownPanel = true
)

// open returns the chat's panels not older than panelTTL, oldest first.
func (p *Panels) open(chat int64) []Panel {
	now := p.clock.Now()
	list, _ := p.chats.Get(chat)
	var fresh []Panel
	for _, pn := range list {
		if now.Sub(pn.at) <= panelTTL {
			fresh = append(fresh, pn)
		}
	}
	return fresh
}

// drop forgets a panel of chat.
func (p *Panels) drop(chat int64, at send.Sent) {
	p.chats.Update(chat, func(list []Panel, ok bool) ([]Panel, bool) {
		var kept []Panel
		for _, pn := range list {
			if pn.At != at {
				kept = append(kept, pn)
			}
		}
		return kept, len(kept) > 0
	})
}

// Sent remembers a settings panel just sent, drawn for settings drawn,
// and redraws it if they changed meanwhile (its send waited behind the
// redraws of the change). A panel pressed already (the press may come
// before Sent runs, once the message is out) is left at the level the
// press moved it to, and drawn by it.
func (p *Panels) Sent(ctx context.Context, chat int64, pn Panel, drawn storage.ChatSettings) {
	if !p.remember(chat, pn, keepKnown) {
		return
	}
	s, err := p.store.Settings(ctx, chat)
	if err == nil && callback.Stamp(Edited(s)) != callback.Stamp(Edited(drawn)) {
		p.Redraw(chat, pn, s)
	}
}

// Pressed remembers a panel of chat a button of which was pressed (the
// message at), as showing the choices of field ("" the list), the level
// it shows once the press is handled: the redraws of a change keep it
// there.
func (p *Panels) Pressed(chat int64, at send.Sent, field string) {
	p.remember(chat, Panel{At: at, Field: field}, updateKnown)
}

// Show moves a panel of chat (the message at) to the choices of field (""
// the list), drawn for the settings as stored: it is remembered at that
// level and redrawn, one edit. It changes no setting. It returns the
// settings drawn. Run it on the chat's goroutine.
func (p *Panels) Show(ctx context.Context, chat int64, at send.Sent, field string) (storage.ChatSettings, error) {
	s, err := p.store.Settings(ctx, chat)
	if err != nil {
		return s, err
	}
	pn := Panel{At: at, Field: field}
	p.remember(chat, pn, updateKnown)
	p.Redraw(chat, pn, s)
	return s, nil
}

// Change changes the chat's settings with edit, one of the settings
// editor's (package setting), and stores the result. An error from edit stores nothing and is returned as it is.
// Once stored, the house stands up where the chat turned it off, the
// chat's open tables are shown again, and its panels redrawn, each at the
// level it shows. Run it on the chat's goroutine.
func (p *Panels) Change(ctx context.Context, chat int64, edit func(game.ChatSettings) (game.ChatSettings, error)) (storage.ChatSettings, error) {
	var was bool
	s, err := p.store.UpdateSettings(ctx, chat, func(s *storage.ChatSettings) error {
		was = s.HouseForbidden
		next, err := edit(Edited(*s))
		if err != nil {
			return err
		}
		*s = next
		return nil
	})
	if err != nil {
		return s, err
	}
	if s.HouseForbidden && !was {
		p.tables.UnseatHouse(ctx, chat)
	}
	p.tables.RefreshChat(ctx, chat)
	for _, pn := range p.open(chat) {
		p.Redraw(chat, pn, s)
	}
	return s, nil
}

// Redraw edits a settings panel of the chat for settings s: a render of
// the chat's, or of an ephemeral panel an edit of its own, which the
// group's pacing does not hold (outbox.Ephemeral). A panel the edit fails
// for other than for a while (deleted, expired, too old to edit) is
// forgotten.
func (p *Panels) Redraw(chat int64, pn Panel, s storage.ChatSettings) {
	msg := pn.Draw(s)
	p.send.Enqueue(outbox.Op{Chat: chat, Class: pn.At.Class(outbox.Render), Slot: "settings:" + pn.At.String(), Do: func(ctx context.Context) error {
		err := p.send.EditSent(ctx, chat, pn.At, msg)
		if err == nil || send.Retried(err) {
			return err
		}
		p.drop(chat, pn.At)
		if errors.Is(err, botapi.ErrGone) {
			return nil // gone: nothing to redraw
		}
		return err
	}})
}
