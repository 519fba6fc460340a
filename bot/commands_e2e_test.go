package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestCommandRouting pins who may use each command where, and what
// everyone else is told, in the order the checks are made: a group's
// commands in a private chat, an admin's by a member, an owner's by an
// admin, a player's by an anonymous admin; a refusal comes before any
// look at the arguments or the reply, but an unknown language is named
// before a member is told they may not change it.
func TestCommandRouting(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) {
		o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
			return s.NewSupergroup("Game night", users...) // where admins post anonymously
		}
	})
	const (
		adminsOnly    = "Only chat admins can do that."
		settingsAdmin = "Only the chat's admins can change the settings."
		ownersOnly    = "Only the bot's owners can grant chips."
		help          = "/newgame: open a table, or show the open one"
	)
	carolSaid := h.command("Carol", "balance")
	h.botSays("Carol, your balance")
	tests := []struct {
		name string
		post telegramtest.Post
		says string
	}{
		{"a member's cancel", telegramtest.Post{From: h.user("Bob").ID, Text: "/cancel"}, adminsOnly},
		{"a member's audit", telegramtest.Post{From: h.user("Bob").ID, Text: "/audit"}, adminsOnly},
		{"a member's kick, in reply", telegramtest.Post{From: h.user("Bob").ID, Text: "/kick", ReplyTo: carolSaid.MessageID}, adminsOnly},
		{"a member's kick, in reply to nothing", telegramtest.Post{From: h.user("Bob").ID, Text: "/kick"}, adminsOnly},
		{"a member's settings change", telegramtest.Post{From: h.user("Bob").ID, Text: "/settings stake 50"}, settingsAdmin},
		{"a member's bad settings change", telegramtest.Post{From: h.user("Bob").ID, Text: "/settings nonsense"}, settingsAdmin},
		{"a member's settings", telegramtest.Post{From: h.user("Bob").ID, Text: "/settings"}, "Stake: 10"},
		{"a member's language change", telegramtest.Post{From: h.user("Bob").ID, Text: "/lang ru"}, "Only chat admins can change the language."},
		{"a member's unknown language", telegramtest.Post{From: h.user("Bob").ID, Text: "/lang xx"}, "I don't speak xx"},
		{"a member's language", telegramtest.Post{From: h.user("Bob").ID, Text: "/lang"}, "Language: English."},
		{"an admin's grant", telegramtest.Post{From: h.user("Alice").ID, Text: "/grant 100", ReplyTo: carolSaid.MessageID}, ownersOnly},
		{"an anonymous admin's grant", telegramtest.Post{From: h.user("Alice").ID, Anonymous: true, Text: "/grant 100"}, ownersOnly},
		{"an anonymous admin's balance", telegramtest.Post{From: h.user("Alice").ID, Anonymous: true, Text: "/balance"}, "Anonymous admins can't play"},
		{"an anonymous admin's cancel", telegramtest.Post{From: h.user("Alice").ID, Anonymous: true, Text: "/cancel"}, "There is nothing to cancel."},
		{"an anonymous admin's stats", telegramtest.Post{From: h.user("Alice").ID, Anonymous: true, Text: "/stats"}, "Anonymous admins can't play"},
		{"an anonymous admin's notify", telegramtest.Post{From: h.user("Alice").ID, Anonymous: true, Text: "/notify"}, "Anonymous admins can't play"},
		{"start in the group", telegramtest.Post{From: h.user("Bob").ID, Text: "/start"}, help},
		{"help", telegramtest.Post{From: h.user("Bob").ID, Text: "/help"}, help},
		{"rules", telegramtest.Post{From: h.user("Bob").ID, Text: "/rules"}, "The rules in short"},
		{"verify with no game", telegramtest.Post{From: h.user("Bob").ID, Text: "/verify"}, "/verify N shows the decks of game N."},
		{"a command in capitals", telegramtest.Post{From: h.user("Bob").ID, Text: "/BALANCE"}, "Bob, your balance"},
		{"an unknown command", telegramtest.Post{From: h.user("Bob").ID, Text: "/dance"}, silent},
		{"verify_1, verify 1", telegramtest.Post{From: h.user("Bob").ID, Text: "/verify_1"}, "This table has had no game yet."},
		{"verify_1 with arguments", telegramtest.Post{From: h.user("Bob").ID, Text: "/verify_1 2"}, "/verify N shows the decks of game N."},
		{"verify_, no command", telegramtest.Post{From: h.user("Bob").ID, Text: "/verify_"}, silent},
		{"verify_x, no command", telegramtest.Post{From: h.user("Bob").ID, Text: "/verify_x"}, silent},
		{"verify_1_2, no command", telegramtest.Post{From: h.user("Bob").ID, Text: "/verify_1_2"}, silent},
		{"balance_1, no command", telegramtest.Post{From: h.user("Bob").ID, Text: "/balance_1"}, silent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.clock.Advance(time.Minute) // past the reply quota
			tt.post.ChatID = h.group.ID
			m, err := h.srv.Post(tt.post)
			require.NoError(t, err)
			h.said = m.MessageID
			if tt.says == silent {
				h.quietSince(m.MessageID)
				return
			}
			h.botSays(tt.says)
		})
	}
}

// TestCommandsInAPrivateChat: a private chat is a chat of its own for
// solo play against the house: every command works there as in a group,
// its user its admin, but /kick, which says it is for groups; an unknown
// command gets nothing. /leave closes the solo table: the house stands up
// with its player.
func TestCommandsInAPrivateChat(t *testing.T) {
	h := newHarness(t)
	bob := h.user("Bob")
	dm := h.srv.PrivateChat(bob)
	// In the order sent, a minute apart: a solo table is opened (and left,
	// which closes it, before the lobby's ten minutes are up).
	tests := []struct{ command, says string }{
		{"start", "Play against me right here"},
		{"help", "here, in our private chat, you play against me"},
		{"rules", "The rules in short"},
		{"notify", "You follow no group."},
		{"dance", silent},
		{"newgame", "2. 🤖 House — 10\u202f000"},
		{"house", "The house is already at the table."},
		{"verify", "/verify N shows the decks of game N."},
		{"leave", "You left the table."},
		{"cancel", "There is nothing to cancel."},
		{"balance", "Bob, your balance: 1\u202f000\u00a0chips."},
		{"bonus", "the bonus is for balances below 100"},
		{"settings", "Table settings"},
		{"lang", "Language: English."},
		{"top", "🤖 House — 10\u202f000\u00a0chips"},
		{"stats", "Games: 0 (as banker: 0)"},
		{"history", "Bob, your last chip movements"},
		{"audit", "The chips add up: balances 11\u202f000"},
		{"kick", "That works in group chats only."},
		{"grant", "Only the bot's owners can grant chips."},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			h.clock.Advance(time.Minute) // past the reply quota
			m, err := h.srv.SendCommand(dm.ID, bob.ID, tt.command)
			require.NoError(t, err)
			says := tt.says
			if says == silent {
				// Answered in order: the next answer is the /rules after it.
				_, err = h.srv.SendCommand(dm.ID, bob.ID, "rules")
				require.NoError(t, err)
				says = "The rules in short"
			}
			got, err := h.srv.WaitForBotMessage(h.ctx(), dm.ID, func(a telegramtest.ChatMessage) bool { return a.MessageID > m.MessageID })
			require.NoError(t, err)
			assert.Contains(t, got.Text, says)
		})
	}
}

// TestMenuOrder pins the command menu, in every language (English as the
// default): its commands in the order shown, each with its description.
func TestMenuOrder(t *testing.T) {
	h := newHarness(t)
	codes := []string{""}
	for _, l := range i18n.Langs() {
		if l != i18n.EN {
			codes = append(codes, string(l))
		}
	}
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool {
		for _, code := range codes {
			if len(h.srv.Commands(telegramtest.CommandScope{}, code)) == 0 {
				return false
			}
		}
		return true
	}))
	want := "newgame house leave balance bonus rules help settings cancel lang cut verify top stats history notify audit kick"
	for _, lang := range codes {
		var names []string
		for _, c := range h.srv.Commands(telegramtest.CommandScope{}, lang) {
			names = append(names, c.Command)
			assert.NotEmpty(t, c.Description, c.Command)
		}
		assert.Equal(t, want, strings.Join(names, " "), "menu %q", lang)
	}
	en := h.srv.Commands(telegramtest.CommandScope{}, "")
	assert.Equal(t, "Open a table, or show the open one", en[0].Description)
	assert.Equal(t, "Stand a player up: reply to them (admins)", en[len(en)-1].Description)
}
