package bot

import (
	"context"
	"errors"
	"html"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
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
		msg := render.SettingsReadOnly(s.Game, lang(s))
		if c.mayChange(ctx) {
			msg = render.Settings(s.Game, lang(s))
		}
		c.sayMessage(msg)
		return
	}
	field, value, _ := strings.Cut(c.args, " ")
	field, value = strings.ToLower(strings.TrimSpace(field)), strings.TrimSpace(value)
	if value == "" {
		c.say(i18n.T(c.lang, i18n.SettingsUsage))
		return
	}
	var problem string
	s, err := c.b.store.UpdateSettings(ctx, chat, func(s *storage.ChatSettings) error {
		next, l, msg := parseSetting(s.Game, lang(*s), field, value, c.lang)
		if msg != "" {
			problem = msg
			return game.ErrInvalidSettings
		}
		s.Game, s.Language = next, string(l)
		return nil
	})
	switch {
	case problem != "":
		c.say(problem)
	case err != nil:
		c.b.internal("settings", err)
		c.say(i18n.T(c.lang, i18n.PopError))
	default:
		c.say(c.b.savedText(ctx, c.key, lang(s)))
		c.b.refreshChat(ctx, c.key.Chat)
	}
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

// maxEcho bounds, in characters, what a reply quotes of what a user typed:
// a long argument must not push the reply past Telegram's 4096.
const maxEcho = 40

// echo is s as a reply quotes it: at most maxEcho characters, HTML-escaped.
func echo(s string) string {
	if utf8.RuneCountInString(s) > maxEcho {
		s = string([]rune(s)[:maxEcho-1]) + "…"
	}
	return html.EscapeString(s)
}

// parseSetting applies "FIELD VALUE" as an admin typed it to s. It returns
// the new settings and language, or a message (HTML) saying what is wrong.
func parseSetting(s game.Settings, cur i18n.Lang, field, value string, say i18n.Lang) (game.Settings, i18n.Lang, string) {
	bad := func() (game.Settings, i18n.Lang, string) {
		return s, cur, i18n.T(say, i18n.SettingsBadValue, echo(value), echo(field))
	}
	next := s.Clone()
	switch field {
	case callback.FieldStake, callback.FieldEntry, callback.FieldKnocks:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return s, cur, i18n.T(say, i18n.SettingsInvalid, i18n.T(say, i18n.ProblemNumber, echo(value)))
		}
		switch field {
		case callback.FieldStake:
			next.Stake = n
		case callback.FieldEntry:
			next.EntryLimit = n
		default:
			if n < 0 || n > game.MaxKnocksLimit {
				next.MaxKnocks = -1 // out of range: Validate says why
			} else {
				next.MaxKnocks = int(n)
			}
		}
	case callback.FieldTurn, callback.FieldLobby:
		d, err := time.ParseDuration(value)
		if err != nil {
			n, nerr := strconv.ParseInt(value, 10, 64)
			if nerr != nil || n > int64(game.MaxLobbyTimeout/time.Second) || n < 0 {
				return bad()
			}
			d = time.Duration(n) * time.Second
		}
		if field == callback.FieldTurn {
			next.TurnTimeout = d
		} else {
			next.LobbyTimeout = d
		}
	case callback.FieldBets:
		// Only the syntax here: a list too long or with an option twice
		// gets its own reason from SettingsProblem below.
		opts, err := game.ReadBetOptions(value)
		if err != nil {
			return s, cur, i18n.T(say, i18n.SettingsInvalid, i18n.T(say, i18n.ProblemBetSyntax))
		}
		next.BetOptions = opts
	case callback.FieldLang:
		l, ok := i18n.Parse(value)
		if !ok {
			return s, cur, i18n.T(say, i18n.LangUnknown, echo(value))
		}
		return s, l, ""
	default:
		return s, cur, i18n.T(say, i18n.SettingsUnknownField, echo(field))
	}
	if p := i18n.SettingsProblem(say, next); p != "" {
		return s, cur, i18n.T(say, i18n.SettingsInvalid, html.EscapeString(p))
	}
	return next, cur, ""
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
	var rejected error
	var invalid game.Settings
	s, err := b.store.UpdateSettings(ctx, key.Chat, func(s *storage.ChatSettings) error {
		next, nl, err := data.Apply(s.Game, lang(*s))
		if err != nil {
			rejected, invalid = err, next
			return err
		}
		s.Game, s.Language = next, string(nl)
		return nil
	})
	switch {
	case rejected == nil && err != nil:
		b.internal("settings", err)
		b.answer(q, i18n.T(l, i18n.PopError), false)
		return
	case errors.Is(rejected, callback.ErrStale):
		// Drawn for older settings: say so, and redraw with the current ones.
		b.answer(q, i18n.T(l, i18n.PopSettingsOutdated), false)
		if s, err = b.store.Settings(ctx, key.Chat); err != nil {
			return
		}
	case errors.Is(rejected, game.ErrInvalidSettings):
		b.answer(q, i18n.T(l, i18n.PopInvalid, i18n.SettingsProblem(l, invalid)), true)
		return
	case rejected != nil:
		b.answer(q, i18n.T(l, i18n.PopBadButton), false)
		return
	default:
		b.answer(q, i18n.T(lang(s), i18n.PopSaved), false)
		b.refreshChat(ctx, key.Chat)
	}
	chat, id := key.Chat, q.Message.MessageID
	msg := render.Settings(s.Game, lang(s))
	b.enqueue(outbox.Op{Chat: chat, Slot: "settings:" + strconv.Itoa(id), Do: func(context.Context) error {
		return forOutbox(b.chatError(chat, b.api.editMessage(chat, id, msg)))
	}})
}
