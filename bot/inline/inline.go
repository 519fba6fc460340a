// Package inline hosts tables in chats the bot is not in: a user types
// @bot in any chat and picks a table among the inline results (inline
// mode), or mentions @bot in a message there (guest mode); the table is
// posted "via @bot" as an inline message, which the bot edits by its
// inline_message_id. Presses on it come with the chat's chat_instance and
// no message: the chat's chips and stats are kept under the id
// storage.InlineChatID gives it, the table under the thread
// storage.InlineThreadID gives the message. No table exists until the first
// press, the only moment the chat is known: a lobby no one pressed holds
// no chips. The bot can send nothing else into such a chat: every answer
// is a toast or an alert, in the presser's language (i18n.ForPresser),
// the deck check opens the bot's private chat where the deck is shown,
// the leaderboard is an alert.
//
// A table there plays by one of a few presets of the bot's default
// settings (chosen in the inline results: its stake and minimum balance),
// kept with the table (storage.Inline): the chat has no admins the bot can
// know to set them.
package inline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/input"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Store is what the inline tables need of storage beyond what the table
// buttons need (package input).
type Store interface {
	View(ctx context.Context, key storage.TableKey) (storage.View, error)
	Leaderboard(ctx context.Context, chat int64, n int) ([]storage.Standing, error)
}

// Handler answers inline queries and guest messages with tables, and the
// presses on those tables. Its methods are safe for concurrent use; Press
// must run on the press's chat's goroutine (botapi.Update.Chat).
type Handler struct {
	store   Store
	send    *send.Sender
	input   *input.Handler
	log     *slog.Logger
	clock   clock.Clock
	presets []game.Settings
}

// New returns a Handler whose tables play by presets of defaults (the
// bot's default settings), pressed through in; it waits on c.
func New(store Store, s *send.Sender, in *input.Handler, c clock.Clock, log *slog.Logger, defaults game.Settings) *Handler {
	return &Handler{store: store, send: s, input: in, clock: c, log: log, presets: Presets(defaults)}
}

// presetScales are the stakes the presets offer, as multiples of the
// default stake; the minimum balance scales with it.
var presetScales = []int64{1, 5, 10}

// Presets returns the tables an inline query offers: defaults at its
// stake and minimum balance, and at 5 and 10 times them, those that are
// valid settings.
func Presets(defaults game.Settings) []game.Settings {
	var out []game.Settings
	for _, k := range presetScales {
		s := defaults.Clone()
		s.Stake, s.EntryLimit = defaults.Stake*k, defaults.EntryLimit*k
		if s.Validate() == nil {
			out = append(out, s)
		}
	}
	return out
}

// preset returns the preset of stake and entry, if it is one.
func (h *Handler) preset(stake, entry int64) (game.Settings, bool) {
	for _, s := range h.presets {
		if s.Stake == stake && s.EntryLimit == entry {
			return s.Clone(), true
		}
	}
	return game.Settings{}, false
}

// resultID names the result of preset s in lang: at most 64 bytes.
func resultID(s game.Settings, lang i18n.Lang) string {
	return fmt.Sprintf("t:%d:%d:%s", s.Stake, s.EntryLimit, lang)
}

// article is the inline result offering preset s in lang.
func article(s game.Settings, lang i18n.Lang) botapi.Article {
	title, desc := render.InlineResult(s, lang)
	return botapi.Article{ID: resultID(s, lang), Title: title, Description: desc, Message: render.InlineLobby(s, lang)}
}

// Query answers an inline query: the presets, in the user's language,
// the one whose stake the query names first (any other query, or none,
// offers them all, the default first). The answer is not cached and is
// the user's own: the language is theirs.
func (h *Handler) Query(ctx context.Context, u botapi.Update) {
	q := u.InlineQuery
	if q.From == nil {
		h.log.WarnContext(ctx, "update skipped", "update_id", u.UpdateID, "kind", u.Kind(), "why", "no from")
		return
	}
	lang := i18n.For("", q.From.LanguageCode)
	order := h.presets
	if n, err := strconv.ParseInt(strings.TrimSpace(q.Query), 10, 64); err == nil {
		for i, s := range h.presets {
			if s.Stake == n {
				order = append([]game.Settings{s}, append(append([]game.Settings{}, h.presets[:i]...), h.presets[i+1:]...)...)
			}
		}
	}
	results := make([]botapi.Article, len(order))
	for i, s := range order {
		results[i] = article(s, lang)
	}
	if err := h.send.AnswerInline(ctx, q.ID, results, 0, true); err != nil {
		h.log.WarnContext(ctx, "answering an inline query", "err", err)
	}
}

// Chosen is told of an inline result a user chose (inline feedback): the
// table is posted, and opens at its first press, when its chat is known;
// nothing is stored before, so that a redelivered one changes nothing.
func (h *Handler) Chosen(ctx context.Context, u botapi.Update) {
	r := u.ChosenInlineResult
	h.log.DebugContext(ctx, "inline result chosen", "result", r.ResultID, "inline_message", r.InlineMessageID)
}

// guestAsks are the words after the mention that ask for a table in a
// guest message: none, or one of these (lower case).
var guestAsks = map[string]bool{"": true, "21": true, "play": true, "играть": true, "грати": true, "очко": true}

// Guest answers a guest message (guest mode): one that asks for a table
// ("@bot" alone, or with "21", "play", «играть», «грати») gets the default
// table, in the sender's language; any other gets a line on how to ask.
func (h *Handler) Guest(ctx context.Context, u botapi.Update) {
	m := u.Guest.Message
	code := ""
	if m.From != nil {
		code = m.From.LanguageCode
	}
	lang := i18n.For("", code)
	username := h.send.Self().UserName
	words := strings.ToLower(strings.TrimSpace(strings.ReplaceAll(strings.ToLower(m.Text), "@"+strings.ToLower(username), "")))
	result := article(h.presets[0], lang)
	if !guestAsks[words] {
		result = botapi.Article{ID: "help:" + string(lang), Title: "Twenty One",
			Message: message.Message{Text: i18n.T(lang, i18n.GuestHelp, username)}}
	}
	if _, err := h.answerGuest(ctx, u.Guest.QueryID, result); err != nil {
		h.log.WarnContext(ctx, "answering a guest message", "chat", u.Chat(), "err", err)
	}
}

// guestRetry bounds how long a guest answer refused with 429 waits to be
// tried once more: Telegram takes the answer only for a short while.
const guestRetry = 3 * time.Second

// answerGuest answers a guest message, straight to the Bot API (an
// answer must come within seconds, and is no render to coalesce), once
// more after a 429 whose retry_after is short.
func (h *Handler) answerGuest(ctx context.Context, queryID string, a botapi.Article) (string, error) {
	id, err := h.send.AnswerGuest(ctx, queryID, a)
	var tg *botapi.Error
	if errors.As(err, &tg) && tg.RetryAfter > 0 && tg.RetryAfter <= guestRetry {
		if err := clock.Sleep(ctx, h.clock, tg.RetryAfter); err != nil {
			return "", err
		}
		return h.send.AnswerGuest(ctx, queryID, a)
	}
	return id, err
}

// Press handles a press on an inline message, routed by its button's row
// (button.For, on button.Inline): a table's button goes to
// input.Handler.PressTable, the opening of a table once its data names
// one of the presets, the deck check and the leaderboard are alerts. A
// press without the chat's chat_instance is skipped; one with data that
// does not parse is a bad button, and one of a chat's message (the
// settings, a group to stop following) is refused as such.
func (h *Handler) Press(ctx context.Context, u botapi.Update) {
	q := u.CallbackQuery
	if q.From == nil || q.From.ID <= 0 || q.ChatInstance == "" || q.InlineMessageID == "" {
		h.log.WarnContext(ctx, "update skipped", "update_id", u.UpdateID, "kind", u.Kind(), "why", "an inline press without its user or chat")
		h.send.Answer(ctx, q.ID, "", false)
		return
	}
	key := storage.TableKey{Chat: storage.InlineChatID(q.ChatInstance), Thread: storage.InlineThreadID(q.InlineMessageID)}
	data, err := callback.Parse(q.Data)
	if err != nil {
		h.refuse(ctx, q.ID, key, q.From.LanguageCode, i18n.PopBadButton)
		return
	}
	row, ok := button.For(data.Action, button.Inline)
	do := effects[row.Does]
	if !ok || do == nil {
		h.refuse(ctx, q.ID, key, q.From.LanguageCode, i18n.PopInlineOnly)
		return
	}
	do(h, ctx, press{u: u, key: key, data: data})
}

// press is a press on an inline message, routed to its row.
type press struct {
	u    botapi.Update
	key  storage.TableKey // the table of the inline message
	data callback.Data
}

// effects do what a press on an inline message does, by its row's effect
// (button.Effect).
var effects = map[button.Effect]func(h *Handler, ctx context.Context, p press){
	button.Apply:      (*Handler).pressTable,
	button.House:      (*Handler).pressTable,
	button.OpenInline: (*Handler).open,
	button.DeckCheck: func(h *Handler, ctx context.Context, p press) {
		q := p.u.CallbackQuery
		h.verify(ctx, q.ID, p.key, p.data.Game, q.From.LanguageCode)
	},
	button.Leaderboard: func(h *Handler, ctx context.Context, p press) {
		q := p.u.CallbackQuery
		h.top(ctx, q.ID, p.key, q.From.LanguageCode)
	},
}

// pressTable applies a table's button (input.Handler.PressTable).
func (h *Handler) pressTable(ctx context.Context, p press) {
	h.input.PressTable(ctx, input.TablePress{Update: p.u, Key: p.key, Data: p.data})
}

// open opens the table of the inline message with the preset its button
// names, in the language it names: one of the presets, in a language the
// bot speaks, or the press is a bad button.
func (h *Handler) open(ctx context.Context, p press) {
	q := p.u.CallbackQuery
	s, ok := h.preset(p.data.Amount, p.data.Entry)
	if _, spoken := i18n.Parse(p.data.Lang); !ok || !spoken {
		h.refuse(ctx, q.ID, p.key, q.From.LanguageCode, i18n.PopBadButton)
		return
	}
	h.input.PressTable(ctx, input.TablePress{Update: p.u, Key: p.key, Data: p.data,
		Inline: &storage.Inline{MessageID: q.InlineMessageID, Settings: s}})
}

// lang is the language of an answer only its presser sees, at the table
// at key (i18n.ForPresser).
func (h *Handler) lang(ctx context.Context, key storage.TableKey, code string) i18n.Lang {
	chat := ""
	if v, err := h.store.View(ctx, key); err == nil {
		chat = v.Settings.Language
	}
	return i18n.ForPresser(chat, code)
}

// refuse answers a press with the text of why.
func (h *Handler) refuse(ctx context.Context, queryID string, key storage.TableKey, code string, why i18n.Key) {
	h.send.Answer(ctx, queryID, i18n.T(h.lang(ctx, key, code), why), false)
}

// verify answers the deck check of an inline table by opening the bot's
// private chat at the deep link of the game's decks (answerCallbackQuery's
// url, input.VerifyLink), where /start shows them: the bot can write
// nothing into the inline message's chat, and a link in an alert cannot
// be tapped. A game that revealed no deck at this table is forged or
// stale.
func (h *Handler) verify(ctx context.Context, queryID string, key storage.TableKey, gameNo uint64, code string) {
	v, err := h.store.View(ctx, key)
	_, ok := v.Table.Revealed()
	if err != nil || v.Inline == nil || !ok || gameNo != v.Table.Game() {
		h.send.Answer(ctx, queryID, i18n.T(i18n.ForPresser(v.Settings.Language, code), i18n.PopBadButton), false)
		return
	}
	h.send.OpenURL(ctx, queryID, input.VerifyLink(h.send.Self().UserName, key, gameNo))
}

// topSize is how many players the leaderboard's alert names at most.
const topSize = 10

// top answers the leaderboard button of an inline table with an alert of
// the chat's best balances.
func (h *Handler) top(ctx context.Context, queryID string, key storage.TableKey, code string) {
	lang := h.lang(ctx, key, code)
	rows, err := h.store.Leaderboard(ctx, key.Chat, topSize+1)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		h.log.WarnContext(ctx, "the leaderboard of an inline table's chat", "chat", key.Chat, "err", err)
		h.send.Answer(ctx, queryID, i18n.T(lang, i18n.PopError), false)
		return
	}
	players := input.PlayerStandings(rows) // one more row was read, for the house
	h.send.Answer(ctx, queryID, render.TopAlert(players[:min(len(players), topSize)], lang), true)
}
