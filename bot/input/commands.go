package input

import (
	"context"
	"strings"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/notice"
	"github.com/twentyone-bot/twentyone/bot/setting"
)

// commands are the bot's commands, each once: where it works, who may use
// it, its lines in the menu and in /help, who sees its answers, and its
// handler. The menu and /help list them in this order, leaving out those
// with no text for them.
var commands = []commandSpec{
	{name: "start", where: anywhere, showsOnly: always, personal: always, run: start},
	{name: "newgame", menu: i18n.DescNewGame, help: i18n.HelpNewGame, run: newGame},
	{name: "house", menu: i18n.DescHouse, help: i18n.HelpHouse, run: seatHouseCommand},
	{name: "leave", menu: i18n.DescLeave, help: i18n.HelpLeave, run: leave},
	{name: "balance", menu: i18n.DescBalance, help: i18n.HelpBalance, showsOnly: always, personal: always, run: balance},
	{name: "bonus", menu: i18n.DescBonus, help: i18n.HelpBonus, personal: always, run: bonus},
	{name: "rules", where: anywhere, menu: i18n.DescRules, help: i18n.HelpRules, showsOnly: always, personal: always, run: says(i18n.Rules)},
	{name: "help", where: anywhere, menu: i18n.DescHelp, showsOnly: always, personal: always, run: help},
	// The panel is the admin's (a member's, read-only, theirs); a change is
	// announced to the group.
	{name: "settings", menu: i18n.DescSettings, help: i18n.HelpSettings, who: byAdmins, refusal: i18n.SettingsAdminOnly, restricted: withArgs,
		showsOnly: withoutArgs, personal: withoutArgs, run: settings},
	{name: "cancel", menu: i18n.DescCancel, help: i18n.HelpCancel, who: byAdmins, refusal: i18n.PopAdminOnly, run: cancel},
	// An unknown language is named before a member is told that they may
	// not change it.
	{name: "lang", menu: i18n.DescLang, help: i18n.HelpLang, who: byAdmins, refusal: i18n.LangAdminOnly, restricted: aLanguage,
		showsOnly: withoutArgs, personal: withoutArgs, run: setLang},
	// The cut in words; a reply to the table's message cuts as it does
	// (cut.go). Its refusals are its sender's.
	{name: "cut", menu: i18n.DescCut, help: i18n.HelpCut, personal: always, run: cutCommand},
	{name: "verify", menu: i18n.DescVerify, help: i18n.HelpVerify, numbered: true, showsOnly: always, personal: always, run: verify},
	// The leaderboard is the group's.
	{name: "top", menu: i18n.DescTop, help: i18n.HelpTop, showsOnly: always, run: top},
	{name: "stats", menu: i18n.DescStats, help: i18n.HelpStats, showsOnly: always, personal: always, run: stats},
	{name: "history", menu: i18n.DescHistory, help: i18n.HelpHistory, showsOnly: always, personal: always, run: history},
	// In a group it toggles: its answer always comes. In private it lists.
	{name: "notify", where: anywhere, menu: i18n.DescNotify, help: i18n.HelpNotify, personal: always, run: notify},
	// The admin's check: it changes nothing the group should hear of.
	{name: "audit", menu: i18n.DescAudit, help: i18n.HelpAudit, who: byAdmins, refusal: i18n.PopAdminOnly, showsOnly: always, personal: always,
		run: audit},
	{name: "kick", where: inGroups, menu: i18n.DescKick, help: i18n.HelpKick, who: byAdmins, refusal: i18n.PopAdminOnly, run: kick},
	{name: "grant", who: byOwners, refusal: i18n.GrantOwnerOnly, run: grant},
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
	// personal reports whether the answers to a use with these arguments
	// are for its sender alone (their chips, their stats, the help): in a
	// group they go as ephemeral messages, which only the sender sees,
	// where Telegram lets the bot send one (see answer.go); and a command
	// whose use from the menu (no arguments) is personal is in the menu
	// as an ephemeral command (is_ephemeral), which a client sends unseen
	// by the group. nil: never; its answers are for the group to see (the
	// table, the leaderboard, an admin's change). A refusal, a usage or
	// an error is the sender's alone whatever this says.
	personal func(args string) bool
	run      func(context.Context, *command)
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
	// byAnyone: every sender (a handler that needs a player checks for one).
	byAnyone access = iota
	// byAdmins: the group's admins, asked of Telegram afresh; an anonymous
	// admin is one.
	byAdmins
	// byOwners: the bot's owners (Options.Owners), posting as themselves.
	byOwners
)

// always, withArgs and withoutArgs pick uses of a command for a
// commandSpec: every one, those with arguments, those without.
func always(string) bool           { return true }
func withArgs(args string) bool    { return args != "" }
func withoutArgs(args string) bool { return args == "" }

// aLanguage reports whether args name a language the bot speaks.
func aLanguage(args string) bool { _, err := setting.ReadLang(args); return err == nil }

// says is a handler that answers with the text of key.
func says(key i18n.Key) func(context.Context, *command) {
	return func(_ context.Context, c *command) { c.say(i18n.T(c.lang, key)) }
}

// commandsByName finds the commands by name.
var commandsByName = func() map[string]*commandSpec {
	m := make(map[string]*commandSpec, len(commands))
	for i := range commands {
		m[commands[i].name] = &commands[i]
	}
	return m
}()

// start handles /start: in a private chat, how to play in a group, or,
// from the deep link of /notify ("/start notify_<group>"), following the
// group, or from the deep link of an inline table's deck check ("/start
// verify_<id>"), the decks; in a group, the help.
func start(ctx context.Context, c *command) {
	switch {
	case botapi.IsGroup(c.m.Chat):
		help(ctx, c)
	case notice.IsFollowParam(c.args):
		followFromLink(ctx, c)
	case strings.HasPrefix(c.args, startVerify):
		verifyFromLink(ctx, c)
	default:
		c.say(i18n.T(c.lang, i18n.StartPrivate))
	}
}

// help handles /help: what the bot does and its commands; in a private
// chat, solo play and the commands that work there.
func help(_ context.Context, c *command) { c.say(helpText(c.lang, !botapi.IsGroup(c.m.Chat))) }

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

// ephemeral reports whether the command is in the menu as an ephemeral
// command: its use from the menu, with no arguments, is personal.
func (c *commandSpec) ephemeral() bool { return c.personal != nil && c.personal("") }

// RegisterCommands sets the command menu, from the command table, in
// every language the bot speaks (English as the default for every
// language without its own list), the personal commands as ephemeral
// ones.
func (h *Handler) RegisterCommands(ctx context.Context) error {
	for _, l := range i18n.Langs() {
		var cmds []botapi.MenuCommand
		for _, c := range commands {
			if c.menu != "" {
				cmds = append(cmds, botapi.MenuCommand{Command: c.name, Description: i18n.T(l, c.menu), Ephemeral: c.ephemeral()})
			}
		}
		code := string(l)
		if l == i18n.EN {
			code = ""
		}
		if err := h.rooms.Send.SetCommands(ctx, cmds, code); err != nil {
			return err
		}
	}
	return nil
}
