package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/setting"
	"github.com/twentyone-bot/twentyone/storage"
)

// commands are the bot's commands, each once: where it works, who may use
// it, its lines in the menu and in /help, and its handler. The menu and
// /help list them in this order, leaving out those with no text for them.
var commands = []commandSpec{
	{name: "start", where: anywhere, showsOnly: always, run: (*command).start},
	{name: "newgame", menu: i18n.DescNewGame, help: i18n.HelpNewGame, run: (*command).newGame},
	{name: "house", menu: i18n.DescHouse, help: i18n.HelpHouse, run: (*command).house},
	{name: "leave", menu: i18n.DescLeave, help: i18n.HelpLeave, run: (*command).leave},
	{name: "balance", menu: i18n.DescBalance, help: i18n.HelpBalance, showsOnly: always, run: (*command).balance},
	{name: "bonus", menu: i18n.DescBonus, help: i18n.HelpBonus, run: (*command).bonus},
	{name: "rules", where: anywhere, menu: i18n.DescRules, help: i18n.HelpRules, showsOnly: always, run: says(i18n.Rules)},
	{name: "help", where: anywhere, menu: i18n.DescHelp, showsOnly: always, run: (*command).help},
	{name: "settings", menu: i18n.DescSettings, help: i18n.HelpSettings, who: admins, refusal: i18n.SettingsAdminOnly, restricted: withArgs,
		showsOnly: withoutArgs, run: (*command).settings},
	{name: "cancel", menu: i18n.DescCancel, help: i18n.HelpCancel, who: admins, refusal: i18n.PopAdminOnly, run: (*command).cancel},
	// An unknown language is named before a member is told that they may
	// not change it.
	{name: "lang", menu: i18n.DescLang, help: i18n.HelpLang, who: admins, refusal: i18n.LangAdminOnly, restricted: aLanguage,
		showsOnly: withoutArgs, run: (*command).setLang},
	{name: "verify", menu: i18n.DescVerify, help: i18n.HelpVerify, numbered: true, showsOnly: always, run: (*command).verify},
	{name: "top", menu: i18n.DescTop, help: i18n.HelpTop, showsOnly: always, run: (*command).top},
	{name: "stats", menu: i18n.DescStats, help: i18n.HelpStats, showsOnly: always, run: (*command).stats},
	{name: "history", menu: i18n.DescHistory, help: i18n.HelpHistory, showsOnly: always, run: (*command).history},
	// In a group it toggles: its answer always comes. In private it lists.
	{name: "notify", where: anywhere, menu: i18n.DescNotify, help: i18n.HelpNotify, run: (*command).notify},
	{name: "audit", menu: i18n.DescAudit, help: i18n.HelpAudit, who: admins, refusal: i18n.PopAdminOnly, showsOnly: always, run: (*command).audit},
	{name: "kick", where: inGroups, menu: i18n.DescKick, help: i18n.HelpKick, who: admins, refusal: i18n.PopAdminOnly, run: (*command).kick},
	{name: "grant", who: owners, refusal: i18n.GrantOwnerOnly, run: (*command).grant},
}

// commandSpec is one command of the bot.
type commandSpec struct {
	// name is what is typed after "/", lower case.
	name  string
	where place
	who   access
	// refusal is what a sender who may not use the command is told.
	refusal i18n.Key
	// restricted reports whether who applies to a use with these
	// arguments; nil: to every use.
	restricted func(args string) bool
	// menu is the command's description in the menu; "" keeps it out.
	menu i18n.Key
	// help is its line in /help; "" keeps it out.
	help i18n.Key
	// numbered: "/name_N" is the command with the argument N (digits), a
	// form that a message can show as one tappable command: a tap sends
	// only the command's word, and Telegram's command names may hold "_"
	// and digits (Bot API, MessageEntity bot_command).
	numbered bool
	// showsOnly reports whether a use with these arguments only shows
	// something, changing nothing: asked again at once, the same answer
	// need not come twice (see command.sayMessage); nil: never.
	showsOnly func(args string) bool
	run       func(*command, context.Context)
}

// place says in which chats a command works.
type place int

const (
	// anywhere: groups, supergroups and private chats, where a user plays
	// against the house (solo play).
	anywhere place = iota
	// inGroups: groups and supergroups; a private chat is told that the
	// command is for groups.
	inGroups
)

// access says who may use a command.
type access int

const (
	// anyone: every sender (a handler that needs a player checks for one).
	anyone access = iota
	// admins: the group's admins, asked of Telegram afresh; an anonymous
	// admin is one.
	admins
	// owners: the bot's owners (Config.Owners), posting as themselves.
	owners
)

// always, withArgs and withoutArgs pick uses of a command for a
// commandSpec: every one, those with arguments, those without.
func always(string) bool           { return true }
func withArgs(args string) bool    { return args != "" }
func withoutArgs(args string) bool { return args == "" }

// aLanguage reports whether args name a language the bot speaks.
func aLanguage(args string) bool { _, err := setting.ReadLang(args); return err == nil }

// says is a handler that answers with the text of key.
func says(key i18n.Key) func(*command, context.Context) {
	return func(c *command, _ context.Context) { c.say(i18n.T(c.lang, key)) }
}

// commandsByName finds the commands by name.
var commandsByName = func() map[string]*commandSpec {
	m := make(map[string]*commandSpec, len(commands))
	for i := range commands {
		m[commands[i].name] = &commands[i]
	}
	return m
}()

// route runs the command named c.name, if the bot has one by that name
// (or c.name is "name_N" of a numbered command: then it is that command
// with N before its arguments), where it works and for who may use it,
// answering everyone else.
func (c *command) route(ctx context.Context) {
	spec, ok := commandsByName[c.name]
	if !ok {
		spec, ok = c.numbered()
	}
	if !ok {
		return
	}
	c.spec = spec
	if spec.where == inGroups && !isGroup(c.m.Chat) {
		c.say(i18n.T(c.lang, i18n.GroupsOnly))
		return
	}
	if c.allowed(ctx) {
		spec.run(c, ctx)
	}
}

// numbered reads c.name as "name_N" of a numbered command: it returns
// that command, with c.name set to name and N put before c.args; false,
// changing nothing, when c.name is no such form.
func (c *command) numbered() (*commandSpec, bool) {
	name, n, ok := strings.Cut(c.name, "_")
	spec, known := commandsByName[name]
	if !ok || !known || !spec.numbered || n == "" || strings.Trim(n, "0123456789") != "" {
		return nil, false
	}
	c.name = name
	c.args = strings.TrimSpace(n + " " + c.args)
	return spec, true
}

// allowed reports whether the sender may use the command with its
// arguments, and if not answers why.
func (c *command) allowed(ctx context.Context) bool {
	s := c.spec
	if s.restricted != nil && !s.restricted(c.args) {
		return true
	}
	switch s.who {
	case admins:
		return c.admin(ctx, s.refusal)
	case owners:
		return c.owner(s.refusal)
	}
	return true
}

// start handles /start: in a private chat, how to play in a group, or,
// from the deep link of /notify ("/start notify_<group>"), following the
// group; in a group, the help.
func (c *command) start(ctx context.Context) {
	switch {
	case isGroup(c.m.Chat):
		c.help(ctx)
	case strings.HasPrefix(c.args, startFollow):
		c.followFromLink(ctx, c.args)
	default:
		c.say(i18n.T(c.lang, i18n.StartPrivate))
	}
}

// help handles /help: what the bot does and its commands; in a private
// chat, solo play and the commands that work there.
func (c *command) help(context.Context) { c.say(helpText(c.lang, !isGroup(c.m.Chat))) }

// helpText is the help in a language, for a private chat or a group.
func helpText(l i18n.Lang, private bool) string { return helpTexts[helpFor{l, private}] }

// helpFor is the language and the kind of chat a help is for.
type helpFor struct {
	lang    i18n.Lang
	private bool
}

// helpTexts are the help in each language, for groups and for private
// chats: what the bot does, then the commands' lines (in a private chat,
// those that work there). They are built in init: a handler in commands
// cannot refer to commands in the variable's own initialisation.
var helpTexts = map[helpFor]string{}

func init() {
	for _, l := range i18n.Langs() {
		for _, private := range []bool{false, true} {
			about := i18n.Help
			if private {
				about = i18n.HelpPrivate
			}
			var lines []string
			for _, c := range commands {
				if c.help != "" && !(private && c.where == inGroups) {
					lines = append(lines, i18n.T(l, c.help))
				}
			}
			helpTexts[helpFor{l, private}] = i18n.T(l, about) + "\n\n" + strings.Join(lines, "\n")
		}
	}
}

// admin reports whether the command's sender is an admin of the chat,
// asking Telegram afresh; if not, it answers: with refusal, or that it
// cannot tell who sent the command, or that a chat (a channel) runs
// nothing, or that Telegram would not say.
func (c *command) admin(ctx context.Context, refusal i18n.Key) bool {
	var ok bool
	switch senderOf(c.m) {
	case byAnonymousAdmin:
		return true
	case byNobody:
		c.say(i18n.T(c.lang, i18n.UnknownSender))
		return false
	case byChat:
		c.say(i18n.T(c.lang, i18n.ChatSender))
		return false
	case byPerson:
		var err error
		ok, err = c.b.isAdmin(ctx, c.m.Chat.ID, c.m.From.ID)
		if err != nil {
			c.b.log.Warn("checking an admin", "chat", c.m.Chat.ID, "err", err)
			c.say(i18n.T(c.lang, i18n.AdminCheckFailed))
			return false
		}
	}
	if !ok {
		c.say(i18n.T(c.lang, refusal))
	}
	return ok
}

// owner reports whether the command's sender is one of the bot's owners,
// posting as themselves; if not, it answers: that a chat (a channel) runs
// nothing, or with refusal.
func (c *command) owner(refusal i18n.Key) bool {
	switch {
	case senderOf(c.m) == byChat:
		c.say(i18n.T(c.lang, i18n.ChatSender))
		return false
	case senderOf(c.m) != byPerson || !c.b.owners[c.m.From.ID]:
		c.say(i18n.T(c.lang, refusal))
		return false
	}
	return true
}

// registerCommands sets the command menu, from commands, in English (the
// default) and in Russian.
func (b *Bot) registerCommands() error {
	for _, l := range i18n.Langs() {
		var cmds []tgbotapi.BotCommand
		for _, c := range commands {
			if c.menu != "" {
				cmds = append(cmds, tgbotapi.BotCommand{Command: c.name, Description: i18n.T(l, c.menu)})
			}
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
	msg, found, err := c.b.verifyMessage(ctx, c.key, n, c.lang)
	switch {
	case err != nil:
		c.b.internal("verify", err)
		c.say(i18n.T(c.lang, i18n.PopError))
	case !found:
		c.say(i18n.T(c.lang, i18n.VerifyNone, strconv.FormatUint(n, 10)))
	default:
		c.sayMessage(msg)
	}
}

// verifyMessage is the message listing the revealed decks of a game of
// the table; found is false when the game revealed none.
func (b *Bot) verifyMessage(ctx context.Context, key storage.TableKey, gameNo uint64, l i18n.Lang) (m render.Message, found bool, err error) {
	reveals, err := b.store.TableReveals(ctx, key, gameNo)
	if errors.Is(err, storage.ErrNotFound) || err == nil && len(reveals) == 0 {
		return render.Message{}, false, nil
	}
	if err != nil {
		return render.Message{}, false, err
	}
	return render.Verify(gameNo, reveals, l), true, nil
}
