package input

import (
	"context"
	"html"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
)

// replies returns the texts of the bot's messages in chat in reply to
// message id.
func (f *fixture) replies(chat int64, id int) []string {
	f.t.Helper()
	f.settle()
	var out []string
	require.NoError(f.t, f.srv.WaitFor(f.ctx(), func(v *telegramtest.View) bool {
		out = nil
		for _, m := range v.Messages(chat) {
			if m.FromBot && m.ReplyToMessage != nil && m.ReplyToMessage.MessageID == id {
				out = append(out, m.Text)
			}
		}
		return true
	}))
	return out
}

// shown is the text a message in Telegram's HTML shows: its tags gone,
// its entities read.
func shown(h string) string {
	return html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(h, ""))
}

// TestMessageRoutesCommands pins the command table's promises through
// Message: a command runs where it works, for who may use it, and
// everyone else is told why; a command for another bot, or one the bot
// does not have, gets nothing.
func TestMessageRoutesCommands(t *testing.T) {
	tests := []struct {
		name string
		// private sends the command in the sender's private chat.
		private bool
		from    string
		text    string
		// want are the bot's replies; nil for none.
		want []string
		// not, when set, is a reply the command must not get.
		not string
	}{
		{name: "a command the bot does not have", from: "Bob", text: "/frobnicate"},
		{name: "a command for another bot", from: "Bob", text: "/rules@another_bot"},
		{name: "a command for this bot by name", from: "Bob", text: "/rules@" + telegramtest.DefaultBot.Username, want: []string{shown(pop(i18n.Rules))}},
		{name: "a group's command in private", private: true, from: "Bob", text: "/kick", want: []string{pop(i18n.GroupsOnly)}},
		{name: "an admin's command by a member", from: "Bob", text: "/cancel", want: []string{pop(i18n.PopAdminOnly)}},
		{name: "an admin's command by an admin", from: "Alice", text: "/cancel", want: []string{pop(i18n.CancelNothing)}},
		{name: "an owner's command by another", from: "Alice", text: "/grant 100", want: []string{pop(i18n.GrantOwnerOnly)}},
		{name: "an owner's command by an owner", from: "Carol", text: "/grant 100", want: []string{pop(i18n.GrantUsage)}},
		{name: "restricted only with arguments: without", from: "Bob", text: "/lang", want: []string{pop(i18n.LangCurrent, i18n.NameInText(i18n.EN))}},
		{name: "restricted only with arguments: with", from: "Bob", text: "/lang ru", want: []string{pop(i18n.LangAdminOnly)}},
		{name: "an unknown language is named before the refusal", from: "Bob", text: "/lang xx", not: pop(i18n.LangAdminOnly)},
		{name: "a numbered command", from: "Bob", text: "/verify_3", not: pop(i18n.VerifyUsage)},
		{name: "a numbered command without its number", from: "Bob", text: "/verify_", want: nil},
		{name: "help in private", private: true, from: "Bob", text: "/help", want: []string{shown(helpText(i18n.EN, true))}},
		{name: "help in a group", from: "Bob", text: "/help", want: []string{shown(helpText(i18n.EN, false))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			chat := f.group.ID
			if tt.private {
				chat = f.srv.PrivateChat(f.user(tt.from)).ID
			}
			m, err := f.srv.Post(telegramtest.Post{ChatID: chat, From: f.user(tt.from).ID, Text: tt.text})
			require.NoError(t, err)
			f.deliver()
			got := f.replies(chat, m.MessageID)
			if tt.not != "" {
				require.Len(t, got, 1)
				assert.NotEqual(t, tt.not, got[0])
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestARepeatIsNotAnsweredAgain: a command that only shows something,
// asked again at once, is answered once (the reply quota); one that
// changes something always is.
func TestARepeatIsNotAnsweredAgain(t *testing.T) {
	f := newFixture(t)
	first := f.command(f.group.ID, "Bob", "rules")
	second := f.command(f.group.ID, "Bob", "rules")
	assert.Len(t, f.replies(f.group.ID, first.MessageID), 1)
	assert.Empty(t, f.replies(f.group.ID, second.MessageID), "the same answer, moments ago")
	other := f.command(f.group.ID, "Carol", "rules")
	assert.Len(t, f.replies(f.group.ID, other.MessageID), 1, "another's")
	for range 2 {
		leave := f.command(f.group.ID, "Bob", "leave")
		assert.Len(t, f.replies(f.group.ID, leave.MessageID), 1, "a change is always answered")
	}
}

// TestMessageKeepsTrackOfPrivateChatsAndLeavers: a message in the user's
// private chat records that the bot may write to them, so that /notify in
// a group follows it at once (else the user is asked to start the bot
// first); a member who leaves the group follows it no more.
func TestMessageKeepsTrackOfPrivateChatsAndLeavers(t *testing.T) {
	f := newFixture(t)
	carol := f.command(f.group.ID, "Carol", "notify")
	asked := f.replies(f.group.ID, carol.MessageID)
	require.Len(t, asked, 1)
	assert.Equal(t, pop(i18n.NotifyStartFirst, "Carol"), asked[0])

	bob := f.user("Bob")
	f.command(f.srv.PrivateChat(bob).ID, "Bob", "start")
	f.command(f.group.ID, "Bob", "notify")
	fs, err := f.store.Follows(context.Background(), game.UserID(bob.ID))
	require.NoError(t, err)
	require.Len(t, fs, 1)
	assert.Equal(t, f.group.ID, fs[0].Chat)

	require.NoError(t, f.srv.RemoveMember(f.group.ID, bob.ID, f.user("Alice").ID))
	f.deliver()
	fs, err = f.store.Follows(context.Background(), game.UserID(bob.ID))
	require.NoError(t, err)
	assert.Empty(t, fs, "a leaver follows the group no more")
}

// TestRegisterCommandsSetsTheMenuOfEachLanguage: the menu lists the
// commands of the table that have a menu line, in their order, in every
// language, English for the languages without a list of their own; the
// personal ones (commandSpec.personal) as ephemeral commands.
func TestRegisterCommandsSetsTheMenuOfEachLanguage(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, f.h.RegisterCommands(context.Background()))
	for _, l := range i18n.Langs() {
		code := string(l)
		if l == i18n.EN {
			code = ""
		}
		var want []telegramtest.BotCommand
		for _, c := range commands {
			if c.menu != "" {
				want = append(want, telegramtest.BotCommand{Command: c.name, Description: i18n.T(l, c.menu), IsEphemeral: c.ephemeral()})
			}
		}
		got := f.srv.Commands(telegramtest.CommandScope{}, code)
		assert.Equal(t, want, got, "the menu in %s", l)
		var ephemeral []string
		for _, c := range got {
			if c.IsEphemeral {
				ephemeral = append(ephemeral, c.Command)
			}
		}
		assert.Equal(t, []string{"balance", "bonus", "rules", "help", "settings", "lang", "cut", "verify", "stats", "history", "notify", "audit"},
			ephemeral, "the personal commands are ephemeral ones, in %s", l)
	}
}

// TestVerifyLinkShowsTheDecks: the deep link VerifyLink makes, opened in
// the bot's private chat, shows the decks of the game it names; one that
// names a game with no deck says so.
func TestVerifyLinkShowsTheDecks(t *testing.T) {
	f := newFixture(t)
	f.wins()
	key := f.view(f.group.ID).Key
	dave := f.user("Dave")
	dm := f.srv.PrivateChat(dave)
	for _, tt := range []struct {
		game uint64
		want string
	}{{1, "Game 1"}, {9, "9"}} {
		m, err := f.srv.OpenLink(dave.ID, VerifyLink(telegramtest.DefaultBot.Username, key, tt.game))
		require.NoError(t, err)
		f.deliver()
		got := f.replies(dm.ID, m.MessageID)
		require.Len(t, got, 1)
		assert.Contains(t, got[0], tt.want)
		if tt.game != 1 {
			assert.NotContains(t, got[0], "Game 1")
		}
	}
}

// TestFootprintCountsWhatTheHandlerRemembers: each cache of the handler
// counts (the last presses, the deck checks, the quota), and nothing else.
func TestFootprintCountsWhatTheHandlerRemembers(t *testing.T) {
	f := newFixture(t)
	assert.Zero(t, f.h.Footprint())
	f.command(f.group.ID, "Carol", "rules")
	assert.Equal(t, 1, f.h.Footprint(), "the quota: Carol")
	f.command(f.group.ID, "Alice", "newgame")
	assert.Equal(t, 1, f.h.Footprint(), "a change is not held back: nothing more")
	f.pressButton(f.group.ID, "Bob", callback.Join)
	assert.Equal(t, 2, f.h.Footprint(), "the table's last press")
}

// TestAnAdminActionAsksAfresh: an admin's command asks Telegram whether
// its sender is an admin each time: one demoted a moment ago has lost the
// power, whatever was asked before.
func TestAnAdminActionAsksAfresh(t *testing.T) {
	f := newFixture(t)
	bob := f.user("Bob")
	require.NoError(t, f.srv.MakeAdmin(f.group.ID, bob.ID))
	m := f.command(f.group.ID, "Bob", "cancel")
	assert.Equal(t, []string{pop(i18n.CancelNothing)}, f.replies(f.group.ID, m.MessageID), "an admin")
	require.NoError(t, f.srv.SetMemberStatus(f.group.ID, bob.ID, telegramtest.StatusMember))
	m = f.command(f.group.ID, "Bob", "cancel")
	assert.Equal(t, []string{pop(i18n.PopAdminOnly)}, f.replies(f.group.ID, m.MessageID), "demoted: no more")
}
