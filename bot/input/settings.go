package input

import (
	"context"
	"errors"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/panel"
	"github.com/twentyone-bot/twentyone/bot/setting"
	"github.com/twentyone-bot/twentyone/storage"
)

// settings handles /settings: with no arguments it shows the settings, to
// admins with buttons to change them, to everyone else read-only;
// "/settings FIELD VALUE" (admins) sets one by text.
func settings(ctx context.Context, c *command) {
	chat := c.m.Chat.ID
	if c.args == "" {
		s, err := c.h.tables.Settings(ctx, chat)
		if err != nil {
			c.fail(ctx, err)
			return
		}
		pn := panel.Panel{ReadOnly: !c.mayChange(ctx)}
		c.sayMessageThen(pn.Draw(s), func(ctx context.Context, id int) {
			pn.ID = id
			c.h.rooms.Panels.Sent(ctx, chat, pn, s)
		})
		return
	}
	field, value, _ := strings.Cut(c.args, " ")
	field, value = strings.ToLower(strings.TrimSpace(field)), strings.TrimSpace(value)
	if value == "" {
		c.say(i18n.T(c.lang, i18n.SettingsUsage))
		return
	}
	s, err := c.h.rooms.Panels.Change(ctx, chat, func(cur setting.Chat) (setting.Chat, error) {
		return setting.Set(cur, field, value)
	})
	var problem *setting.Problem
	switch {
	case errors.As(err, &problem):
		c.say(problem.Message(c.lang))
	case err != nil:
		c.fail(ctx, err)
	default:
		c.say(c.h.savedText(ctx, c.key, i18n.OfChat(s.Language)))
	}
}

// setLang handles /lang: without arguments, the chat's language; with
// one (admins), the chat's language set.
func setLang(ctx context.Context, c *command) {
	if c.args == "" {
		c.say(i18n.T(c.lang, i18n.LangCurrent, i18n.NameInText(c.lang)))
		return
	}
	l, err := setting.ReadLang(c.args)
	var problem *setting.Problem
	if errors.As(err, &problem) {
		c.say(problem.Message(c.lang))
		return
	}
	_, err = c.h.rooms.Panels.Change(ctx, c.m.Chat.ID, func(cur setting.Chat) (setting.Chat, error) {
		return setting.Set(cur, callback.FieldLang, string(l))
	})
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.say(i18n.T(l, i18n.LangSet, i18n.NameInText(l)))
}

// mayChange reports whether the settings shown to the command's sender
// come with buttons: a display, for which a cached answer serves (every
// button press is checked afresh).
func (c *command) mayChange(ctx context.Context) bool {
	switch botapi.SenderOf(c.m) {
	case botapi.ByAnonymousAdmin:
		return true
	case botapi.ByPerson:
		ok, err := c.h.admins.seems(ctx, c.m.Chat.ID, c.m.From.ID)
		if err != nil {
			c.h.log.WarnContext(ctx, "checking an admin", "chat", c.m.Chat.ID, "err", err)
		}
		return ok
	}
	return false
}

// savedText says a setting was saved, and whether a game in progress keeps
// its own.
func (h *Handler) savedText(ctx context.Context, key storage.TableKey, l i18n.Lang) string {
	if v, err := h.tables.View(ctx, key); err == nil && v.Table.Phase().InGame() {
		return i18n.T(l, i18n.SettingsSavedInGame)
	}
	return i18n.T(l, i18n.SettingsSaved)
}

var fieldInfo = map[string]i18n.Key{
	callback.FieldStake:  i18n.PopInfoStake,
	callback.FieldEntry:  i18n.PopInfoEntry,
	callback.FieldBets:   i18n.PopInfoBets,
	callback.FieldTurn:   i18n.PopInfoTurn,
	callback.FieldLobby:  i18n.PopInfoLobby,
	callback.FieldKnocks: i18n.PopInfoKnocks,
	callback.FieldLang:   i18n.PopInfoLang,
	callback.FieldHouse:  i18n.PopInfoHouse,
}

// pressSetting handles a button of the /settings keyboard.
func (h *Handler) pressSetting(ctx context.Context, q *tgbotapi.CallbackQuery, key storage.TableKey, data callback.Data, l i18n.Lang) {
	ok, err := h.admins.is(ctx, key.Chat, q.From.ID)
	switch {
	case err != nil:
		h.log.WarnContext(ctx, "checking an admin", "chat", key.Chat, "err", err)
		h.answer(ctx, q, i18n.T(l, i18n.PopAdminCheckFailed), true)
		return
	case !ok:
		h.answer(ctx, q, i18n.T(l, i18n.SettingsAdminOnly), true)
		return
	}
	panels := h.rooms.Panels
	panels.Pressed(key.Chat, q.Message.MessageID)
	s, err := panels.Change(ctx, key.Chat, func(cur setting.Chat) (setting.Chat, error) {
		return setting.Press(cur, data)
	})
	var problem *setting.Problem
	switch {
	case errors.Is(err, setting.ErrStale):
		// Drawn for older settings: say so, and redraw the pressed panel
		// with the current ones.
		h.answer(ctx, q, i18n.T(l, i18n.PopSettingsOutdated), false)
		if s, err = h.tables.Settings(ctx, key.Chat); err == nil {
			panels.Redraw(key.Chat, panel.Panel{ID: q.Message.MessageID}, s)
		}
	case errors.As(err, &problem):
		text, alert := problem.Popup(l)
		h.answer(ctx, q, text, alert)
	case err != nil:
		fault.Log(ctx, h.log, "settings", key, err)
		h.answer(ctx, q, i18n.T(l, i18n.PopError), false)
	default:
		h.answer(ctx, q, i18n.T(l, i18n.PopSaved), false)
	}
}
