package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/setting"
	"github.com/twentyone-bot/twentyone/storage"
)

// settings handles /settings: with no arguments it shows the settings, to
// admins with buttons to change them, to everyone else read-only;
// "/settings FIELD VALUE" (admins) sets one by text.
func (c *command) settings(ctx context.Context) {
	chat := c.m.Chat.ID
	if c.args == "" {
		s, err := c.b.store.Settings(ctx, chat)
		if err != nil {
			c.b.internal("settings", err)
			c.say(i18n.T(c.lang, i18n.PopError))
			return
		}
		pn := panel{readOnly: !c.mayChange(ctx)}
		c.sayMessageThen(pn.draw(s), func(ctx context.Context, id int) {
			pn.id, pn.at = id, c.b.clock.Now()
			c.b.panelSent(ctx, chat, pn, s)
		})
		return
	}
	field, value, _ := strings.Cut(c.args, " ")
	field, value = strings.ToLower(strings.TrimSpace(field)), strings.TrimSpace(value)
	if value == "" {
		c.say(i18n.T(c.lang, i18n.SettingsUsage))
		return
	}
	s, err := c.b.editSettings(ctx, chat, func(cur setting.Chat) (setting.Chat, error) {
		return setting.Set(cur, field, value)
	})
	var problem *setting.Problem
	switch {
	case errors.As(err, &problem):
		c.say(problem.Message(c.lang))
	case err != nil:
		c.b.internal("settings", err)
		c.say(i18n.T(c.lang, i18n.PopError))
	default:
		c.say(c.b.savedText(ctx, c.key, lang(s)))
		c.b.refreshChat(ctx, c.key.Chat)
		c.b.redrawPanels(chat, s)
	}
}

// draw is the panel drawn for settings s.
func (pn panel) draw(s storage.ChatSettings) render.Message {
	if pn.readOnly {
		return render.SettingsReadOnly(edited(s))
	}
	return render.Settings(edited(s))
}

// edited is what the settings editor edits of a chat's settings.
func edited(s storage.ChatSettings) setting.Chat {
	return setting.Chat{Game: s.Game, Lang: lang(s), HouseForbidden: s.HouseForbidden}
}

// panelSent remembers a settings panel just sent, drawn for settings
// drawn, and redraws it if they changed meanwhile (its send waited behind
// the redraws of the change).
func (b *Bot) panelSent(ctx context.Context, chat int64, pn panel, drawn storage.ChatSettings) {
	b.panels.add(chat, pn, pn.at)
	s, err := b.store.Settings(ctx, chat)
	if err == nil && edited(s).Stamp() != edited(drawn).Stamp() {
		b.redrawPanel(chat, pn, s)
	}
}

// redrawPanels redraws every settings panel open in the chat for its
// settings s: after any change of them.
func (b *Bot) redrawPanels(chat int64, s storage.ChatSettings) {
	for _, pn := range b.panels.open(chat, b.clock.Now()) {
		b.redrawPanel(chat, pn, s)
	}
}

// redrawPanel edits a settings panel of the chat for settings s. A panel
// the edit fails for other than for a while (deleted, too old to edit) is
// forgotten.
func (b *Bot) redrawPanel(chat int64, pn panel, s storage.ChatSettings) {
	msg := pn.draw(s)
	b.enqueue(outbox.Op{Chat: chat, Slot: "settings:" + strconv.Itoa(pn.id), Do: func(context.Context) error {
		raw := b.api.editMessage(chat, pn.id, msg)
		err := forOutbox(b.chatError(chat, raw))
		if err == nil || retried(err) {
			return err
		}
		b.panels.drop(chat, pn.id)
		if hasDescription(raw, errEditGone...) {
			return nil // gone: nothing to redraw
		}
		return err
	}})
}

// editSettings changes the chat's settings, language and house setting
// with edit, one of the settings editor's (package setting), and stores
// the result. An error from edit stores nothing and is returned as it is.
// When the house was turned off, it is stood up at the chat's tables.
func (b *Bot) editSettings(ctx context.Context, chat int64, edit func(setting.Chat) (setting.Chat, error)) (storage.ChatSettings, error) {
	var was bool
	s, err := b.store.UpdateSettings(ctx, chat, func(s *storage.ChatSettings) error {
		was = s.HouseForbidden
		next, err := edit(edited(*s))
		if err != nil {
			return err
		}
		s.Game, s.Language, s.HouseForbidden = next.Game, string(next.Lang), next.HouseForbidden
		return nil
	})
	if err == nil && s.HouseForbidden && !was {
		b.unseatHouse(ctx, chat)
	}
	return s, err
}

// mayChange reports whether the settings shown to the command's sender
// come with buttons: a display, for which a cached answer serves (every
// button press is checked afresh).
func (c *command) mayChange(ctx context.Context) bool {
	switch senderOf(c.m) {
	case byAnonymousAdmin:
		return true
	case byPerson:
		ok, err := c.b.seemsAdmin(ctx, c.m.Chat.ID, c.m.From.ID)
		if err != nil {
			c.b.log.Warn("checking an admin", "chat", c.m.Chat.ID, "err", err)
		}
		return ok
	}
	return false
}

// savedText says a setting was saved, and whether a game in progress keeps
// its own.
func (b *Bot) savedText(ctx context.Context, key storage.TableKey, l i18n.Lang) string {
	if v, err := b.store.View(ctx, key); err == nil && v.Table.Phase().InGame() {
		return i18n.T(l, i18n.SettingsSavedInGame)
	}
	return i18n.T(l, i18n.SettingsSaved)
}

// pressSetting handles a button of the /settings keyboard.
func (b *Bot) pressSetting(ctx context.Context, q *tgbotapi.CallbackQuery, key storage.TableKey, data callback.Data, l i18n.Lang) {
	ok, err := b.isAdmin(ctx, key.Chat, q.From.ID)
	switch {
	case err != nil:
		b.log.Warn("checking an admin", "chat", key.Chat, "err", err)
		b.answer(q, i18n.T(l, i18n.PopAdminCheckFailed), true)
		return
	case !ok:
		b.answer(q, i18n.T(l, i18n.SettingsAdminOnly), true)
		return
	}
	s, err := b.editSettings(ctx, key.Chat, func(cur setting.Chat) (setting.Chat, error) {
		return setting.Press(cur, data)
	})
	var problem *setting.Problem
	switch {
	case errors.Is(err, setting.ErrStale):
		// Drawn for older settings: say so, and redraw with the current ones.
		b.answer(q, i18n.T(l, i18n.PopSettingsOutdated), false)
		if s, err = b.store.Settings(ctx, key.Chat); err != nil {
			return
		}
	case errors.As(err, &problem):
		text, alert := problem.Popup(l)
		b.answer(q, text, alert)
		return
	case err != nil:
		b.internal("settings", err)
		b.answer(q, i18n.T(l, i18n.PopError), false)
		return
	default:
		b.answer(q, i18n.T(lang(s), i18n.PopSaved), false)
		b.refreshChat(ctx, key.Chat)
		b.panels.add(key.Chat, panel{id: q.Message.MessageID, at: b.clock.Now()}, b.clock.Now())
		b.redrawPanels(key.Chat, s)
		return
	}
	// The pressed panel only: the settings did not change.
	pn := panel{id: q.Message.MessageID, at: b.clock.Now()}
	b.panels.add(key.Chat, pn, pn.at)
	b.redrawPanel(key.Chat, pn, s)
}
