package input

import (
	"context"
	"errors"
	"strings"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// The cut in words (docs/FAIRNESS.md, "The cut"): /cut WORDS, or a reply to
// the table's message while its deck waits for the cut. The cut's text is
// the message's bytes exactly as Telegram delivered them: after the
// command and the spaces that follow it, or a reply's whole text. A cut
// that counts is answered by the table itself (it names the cutter), with
// no message of its own; a refusal is answered to its sender alone, in
// their language. The buttons' cut is presstable's (button.Row.CutsTap).

// cutCommand handles /cut: the words after it cut the deck the table
// waits for; without words, how to use it.
func cutCommand(ctx context.Context, c *command) {
	text := cutWords(c.m.Text, c.m.Entities[0].Length)
	if text == "" {
		c.tell(i18n.T(c.presserLang(ctx), i18n.CutUsage, i18n.Number(game.MaxCutLen)))
		return
	}
	c.cut(ctx, text)
}

// cutWords returns the text after the command that takes the first n
// bytes of text, less the spaces that follow the command: the rest as
// it is, line breaks and trailing spaces included.
func cutWords(text string, n int) string {
	if n < 0 || n > len(text) {
		return ""
	}
	return strings.TrimLeft(text[n:], " ")
}

// replyCut handles a message that is no command and replies to one of
// the bot's: when it replies to the table's message while the table waits
// for its cut, its whole text cuts the deck; any other reply is the
// players' chat, and left alone, as is a reply no person sent.
func (h *Handler) replyCut(ctx context.Context, u botapi.Update) {
	m := u.Message
	r := m.ReplyToMessage
	if r == nil || r.From == nil || r.From.ID != h.self().ID || m.Text == "" || botapi.SenderOf(m) != botapi.ByPerson {
		return
	}
	key := storage.TableKey{Chat: m.Chat.ID, Thread: int64(u.Thread)}
	v, err := h.tables.View(ctx, key)
	if err != nil || v.MessageID != r.MessageID || v.Table.Phase() != game.Cutting {
		return
	}
	c := &command{h: h, u: u, m: m, key: key, name: "cut", who: m.From.ID, spec: commandsByName["cut"]}
	c.lang = h.chatLang(ctx, m.Chat.ID, m.From)
	c.cut(ctx, m.Text)
}

// cut cuts the deck the table waits for with text, as the command's
// sender; a refusal is told to them alone (a reply's too: it was meant as
// a cut when it came).
func (c *command) cut(ctx context.Context, text string) {
	u, ok := c.player()
	if !ok {
		return
	}
	res, err := c.apply(ctx, u, game.Command{Kind: game.Cut, User: u.ID, Name: u.Name, Text: text})
	switch {
	case err == nil:
		c.h.rooms.Tables.Show(res.View)
	case errors.Is(err, storage.ErrDuplicate):
		// Delivered again: it counted the first time.
	default:
		lang := c.presserLang(ctx)
		msg, _ := c.h.rejection(ctx, lang, err, res.View, u.ID)
		c.tell(msg)
	}
}

// presserLang is the language of an answer to the command's sender alone:
// their own where the bot speaks it (i18n.ForPresser).
func (c *command) presserLang(ctx context.Context) i18n.Lang {
	return c.h.presserLang(ctx, c.m.Chat.ID, c.m.From)
}

// staleCut is the answer to a cut button (row) pressed on a table that
// moved on since the button was drawn: the deck was cut already (a
// second cut), or dealt not cut, or no deck waits any more; false for
// another row, or when the table waits for a newer deck's cut (the
// button was outdated: the generic answer).
func staleCut(lang i18n.Lang, row button.Row, t *game.Table) (string, bool) {
	if !row.CutsTap {
		return "", false
	}
	c, ok := t.Cut()
	switch {
	case !ok:
		return i18n.T(lang, i18n.PopNoCutAsked), true
	case c.Waiting:
		return "", false
	case c.By != 0:
		return i18n.T(lang, i18n.PopCutAlready), true
	}
	return i18n.T(lang, i18n.PopCutTooLate), true
}
