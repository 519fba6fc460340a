package input

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/panel"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/bot/setting"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// settings handles /settings: with no arguments it shows the settings, to
// admins with buttons to change them, to everyone else read-only;
// "/settings KEY VALUE" (admins) sets one by text.
func settings(ctx context.Context, c *command) {
	chat := c.m.Chat.ID
	if c.args == "" {
		s, err := c.h.tables.Settings(ctx, chat)
		if err != nil {
			c.fail(ctx, err)
			return
		}
		pn := panel.Panel{ReadOnly: !c.mayChange(ctx)}
		c.sayMessageThen(pn.Draw(s), func(ctx context.Context, at send.Sent) {
			pn.At = at
			c.h.rooms.Panels.Sent(ctx, chat, pn, s)
		})
		return
	}
	field, value, _ := strings.Cut(c.args, " ")
	field, value = strings.ToLower(strings.TrimSpace(field)), strings.TrimSpace(value)
	if value == "" {
		c.tell(i18n.T(c.lang, i18n.SettingsUsage, setting.Keys()))
		return
	}
	s, err := c.h.rooms.Panels.Change(ctx, chat, func(cur game.ChatSettings) (game.ChatSettings, error) {
		return setting.Set(cur, field, value)
	})
	var problem *setting.Problem
	switch {
	case errors.As(err, &problem):
		c.tell(problem.Message(c.lang))
	case err != nil:
		c.fail(ctx, err)
	default:
		c.say(c.h.settings.savedText(ctx, c.key, i18n.OfChat(s.Language)))
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
		c.tell(problem.Message(c.lang))
		return
	}
	_, err = c.h.rooms.Panels.Change(ctx, c.m.Chat.ID, func(cur game.ChatSettings) (game.ChatSettings, error) {
		return setting.SetLang(cur, l), nil
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

// settingsInput is the settings' job of the Handler: what /settings says
// once it saved a setting, and the presses on the settings panels (a
// setting chosen, the panel moved between the list and a setting's
// choices), each checked against Telegram for an admin and changing the
// settings only the one way they change (panel.Panels). It is safe for
// concurrent use; it reads the tables only to say whether a game in
// progress keeps its settings.
type settingsInput struct {
	tables TableStore
	panels *panel.Panels
	admins *admins
	send   *send.Sender
	log    *slog.Logger
}

// answer answers a press on a settings panel (send.Sender.Answer).
func (si *settingsInput) answer(ctx context.Context, q *tgbotapi.CallbackQuery, text string, alert bool) {
	si.send.Answer(ctx, q.ID, text, alert)
}

// savedText says a setting was saved, and whether a game in progress keeps
// its own.
func (si *settingsInput) savedText(ctx context.Context, key storage.TableKey, l i18n.Lang) string {
	if v, err := si.tables.View(ctx, key); err == nil && v.Table.Phase().InGame() {
		return i18n.T(l, i18n.SettingsSavedInGame)
	}
	return i18n.T(l, i18n.SettingsSaved)
}

// pressSetting handles a setting's choice on a settings panel, the
// message at (callback.Setting): the setting changes the one way settings
// change (panel.Panels.Change), the presser is told what it is now, and
// the panel goes back to the list, which shows it; the choices of the bet
// options stay, as an admin may toggle several.
func (si *settingsInput) pressSetting(ctx context.Context, q *tgbotapi.CallbackQuery, key storage.TableKey, at send.Sent, data callback.Data, l i18n.Lang) {
	if !si.panelPress(ctx, q, key.Chat, l, si.admins.is) {
		return
	}
	panels, id := si.panels, at
	after := ""
	if f, _ := game.FieldByKey(data.Field); f.Kind == game.FieldBets {
		after = data.Field // its choices are toggles: an admin may toggle several
	}
	// Remembered at the level it shows once changed, so that the redraws
	// of the change draw it there: one edit.
	panels.Pressed(key.Chat, id, after)
	s, err := panels.Change(ctx, key.Chat, func(cur game.ChatSettings) (game.ChatSettings, error) {
		return setting.Press(cur, data)
	})
	var problem *setting.Problem
	switch {
	case errors.Is(err, setting.ErrStale):
		// Drawn for older settings: say so, and show the pressed panel
		// the setting's choices as they are now.
		si.answer(ctx, q, i18n.T(l, i18n.PopSettingsOutdated), false)
		if _, err := panels.Show(ctx, key.Chat, id, data.Field); err != nil {
			fault.Log(ctx, si.log, "settings", key, err)
		}
	case errors.As(err, &problem):
		panels.Pressed(key.Chat, id, data.Field) // unchanged: still the choices
		text, alert := problem.Popup(l)
		si.answer(ctx, q, text, alert)
	case err != nil:
		panels.Pressed(key.Chat, id, data.Field)
		fault.Log(ctx, si.log, "settings", key, err)
		si.answer(ctx, q, i18n.T(l, i18n.PopError), false)
	default:
		si.answer(ctx, q, render.SettingSaved(l, panel.Edited(s), data.Field), false)
	}
}

// pressSettingsLevel moves the pressed settings panel, the message at, to
// a setting's choices (callback.SettingOpen) or back to the list
// (callback.SettingBack): one edit of that panel, and no setting changes,
// so that a remembered answer to whether the presser is an admin serves
// (admins.seems). A press drawn for older settings is told so, and shows
// what it asked for as the settings are now.
func (si *settingsInput) pressSettingsLevel(ctx context.Context, q *tgbotapi.CallbackQuery, key storage.TableKey, at send.Sent, data callback.Data, l i18n.Lang) {
	if !si.panelPress(ctx, q, key.Chat, l, si.admins.seems) {
		return
	}
	s, err := si.panels.Show(ctx, key.Chat, at, data.Field)
	switch {
	case err != nil:
		fault.Log(ctx, si.log, "settings", key, err)
		si.answer(ctx, q, i18n.T(l, i18n.PopError), false)
	case callback.Stamp(panel.Edited(s)) != data.Version:
		si.answer(ctx, q, i18n.T(l, i18n.PopSettingsOutdated), false)
	default:
		si.answer(ctx, q, "", false)
	}
}

// panelPress reports whether the presser of a settings panel's button
// may use it, asking isAdmin (admins.is to change a setting, admins.seems
// to move the panel); when not, it answers why. The message pressed must
// be a settings panel: an admin's data forged onto another message (the
// table's) must not turn it into one.
func (si *settingsInput) panelPress(ctx context.Context, q *tgbotapi.CallbackQuery, chat int64, l i18n.Lang,
	isAdmin func(ctx context.Context, chat, user int64) (bool, error)) bool {
	ok, err := isAdmin(ctx, chat, q.From.ID)
	switch {
	case err != nil:
		si.log.WarnContext(ctx, "checking an admin", "chat", chat, "err", err)
		si.answer(ctx, q, i18n.T(l, i18n.PopAdminCheckFailed), true)
		return false
	case !ok:
		si.answer(ctx, q, i18n.T(l, i18n.SettingsAdminOnly), true)
		return false
	case !settingsPanel(q.Message):
		si.answer(ctx, q, i18n.T(l, i18n.PopBadButton), false)
		return false
	}
	return true
}

// panelActions are the actions of a settings panel's buttons.
var panelActions = []callback.Action{callback.Setting, callback.SettingOpen, callback.SettingBack, callback.SettingInfo}

// settingsPanel reports whether m, as Telegram gives it with a press,
// shows the buttons of a settings panel, of now or of before the list
// (callback.SettingInfo).
func settingsPanel(m *tgbotapi.Message) bool {
	if m.ReplyMarkup == nil {
		return false
	}
	for _, row := range m.ReplyMarkup.InlineKeyboard {
		for _, b := range row {
			if b.CallbackData == nil {
				continue
			}
			if d, err := callback.Parse(*b.CallbackData); err == nil && slices.Contains(panelActions, d.Action) {
				return true
			}
		}
	}
	return false
}
