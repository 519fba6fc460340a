package bot

import (
	"context"
	"errors"
	"html"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/storage"
)

// commandList is the menu of commands, in the order shown.
var commandList = []struct {
	name string
	desc i18n.Key
}{
	{"newgame", i18n.DescNewGame},
	{"leave", i18n.DescLeave},
	{"balance", i18n.DescBalance},
	{"bonus", i18n.DescBonus},
	{"rules", i18n.DescRules},
	{"help", i18n.DescHelp},
	{"settings", i18n.DescSettings},
	{"cancel", i18n.DescCancel},
	{"lang", i18n.DescLang},
	{"verify", i18n.DescVerify},
	{"top", i18n.DescTop},
	{"stats", i18n.DescStats},
	{"history", i18n.DescHistory},
	{"audit", i18n.DescAudit},
	{"kick", i18n.DescKick},
}

// registerCommands sets the command menu in English (the default) and in
// Russian.
func (b *Bot) registerCommands() error {
	for _, l := range i18n.Langs() {
		cmds := make([]tgbotapi.BotCommand, len(commandList))
		for i, c := range commandList {
			cmds[i] = tgbotapi.BotCommand{Command: c.name, Description: i18n.T(l, c.desc)}
		}
		code := string(l)
		if l == i18n.EN {
			code = "" // the default for every language without its own list
		}
		if err := b.api.setCommands(cmds, code); err != nil {
			return err
		}
	}
	return nil
}

// verify handles "/verify N": the decks of game N of this table, revealed.
func (c *command) verify(ctx context.Context) {
	var n uint64
	if c.args == "" {
		// No number: the table's last game.
		if v, err := c.b.store.View(ctx, c.key); err == nil {
			n = v.Table.Game()
		}
	} else if x, err := strconv.ParseUint(c.args, 10, 64); err == nil {
		n = x
	}
	if n == 0 {
		c.say(i18n.T(c.lang, i18n.VerifyUsage))
		return
	}
	text, found, err := c.b.verifyText(ctx, c.key, n, c.lang)
	switch {
	case err != nil:
		c.b.internal("verify", err)
		c.say(i18n.T(c.lang, i18n.PopError))
	case !found:
		c.say(i18n.T(c.lang, i18n.VerifyNone, strconv.FormatUint(n, 10)))
	default:
		c.say(text)
	}
}

// verifyText is the message listing the revealed decks of a game of the
// table; found is false when the game revealed none.
func (b *Bot) verifyText(ctx context.Context, key storage.TableKey, gameNo uint64, l i18n.Lang) (text string, found bool, err error) {
	reveals, err := b.store.TableReveals(ctx, key, gameNo)
	if errors.Is(err, storage.ErrNotFound) || err == nil && len(reveals) == 0 {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	num := strconv.FormatUint(gameNo, 10)
	parts := []string{i18n.T(l, i18n.VerifyTitle, num)}
	for i, r := range reveals {
		parts = append(parts, i18n.T(l, i18n.VerifyDeck, strconv.Itoa(i+1), html.EscapeString(r.Commitment), html.EscapeString(r.Preimage)))
	}
	parts = append(parts, i18n.T(l, i18n.VerifyHowTo))
	text = strings.Join(parts, "\n\n")
	if len([]rune(text)) > render.MaxText-100 {
		// A game with many knocks: the newest decks that fit.
		for len(parts) > 3 && len([]rune(strings.Join(parts, "\n\n"))) > render.MaxText-100 {
			parts = append(parts[:1], parts[2:]...)
		}
		text = strings.Join(parts, "\n\n")
	}
	return text, true, nil
}
