package bot_test

import (
	"strings"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// The harness's ephemeral messages: a member's ephemeral command, and the
// bot's ephemeral answers, which only their receiver sees.

// botAdmin makes the harness's group one where the bot is an admin (a
// basic group; with super, a supergroup), Alice its creator.
func botAdmin(super bool) func(*harnessOptions) {
	return func(o *harnessOptions) {
		o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
			spec := telegramtest.ChatSpec{Type: telegramtest.ChatGroup, Title: "Game night", Creator: users[0].ID,
				BotStatus: telegramtest.StatusAdministrator}
			if super {
				spec.Type = telegramtest.ChatSupergroup
			}
			for _, u := range users[1:] {
				spec.Members = append(spec.Members, u.ID)
			}
			c, err := s.AddChat(spec)
			if err != nil {
				panic(err)
			}
			return c
		}
	}
}

// ephemeral sends "/cmd args…" as the user, ephemerally, as a client
// sends a command the bot declared is_ephemeral (once the bot declared
// it), and returns it.
func (h *harness) ephemeral(name, cmd string, args ...string) telegramtest.ChatMessage {
	h.t.Helper()
	u := h.user(name)
	require.NoError(h.t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
		for _, c := range h.srv.CommandsFor(h.group.ID, u.ID) {
			if c.Command == cmd && c.IsEphemeral {
				return true
			}
		}
		return false
	}), "the bot declares /%s ephemeral", cmd)
	m, err := h.srv.SendEphemeralCommand(h.group.ID, u.ID, cmd, args...)
	require.NoError(h.t, err)
	require.NotZero(h.t, m.EphemeralMessageID)
	return m
}

// onlyTo waits for an ephemeral message of the bot to the user in the
// group, newer than ephemeral message after, holding every part; it
// checks that no one else sees it, and returns it.
func (h *harness) onlyTo(name string, after int, parts ...string) telegramtest.ChatMessage {
	h.t.Helper()
	u := h.user(name)
	var got telegramtest.ChatMessage
	require.NoError(h.t, h.waitFor(func(v *telegramtest.View) bool {
		for _, m := range v.EphemeralMessages(h.group.ID) {
			if m.FromBot && m.VisibleTo == u.ID && m.EphemeralMessageID > after && holds(m.Text, parts) {
				got = m
				return true
			}
		}
		return false
	}), "an ephemeral message to %s saying %q", name, parts)
	h.seenByNoOther(got)
	return got
}

// seenByNoOther checks that nobody but its receiver sees an ephemeral
// message: not in the group's timeline, not in another member's view.
func (h *harness) seenByNoOther(m telegramtest.ChatMessage) {
	h.t.Helper()
	for _, pub := range h.srv.Messages(h.group.ID) {
		assert.NotEqual(h.t, m.Text, pub.Text, "in the group's timeline")
	}
	for name, other := range h.users {
		if other.ID == m.VisibleTo {
			continue
		}
		for _, seen := range h.srv.MessagesSeenBy(h.group.ID, other.ID) {
			assert.NotEqual(h.t, m.EphemeralMessageID, seen.EphemeralMessageID, "%s sees it", name)
		}
	}
}

// holds reports whether text holds every part.
func holds(text string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(text, p) {
			return false
		}
	}
	return true
}

// botEphemerals returns the bot's ephemeral messages in the group.
func (h *harness) botEphemerals() []telegramtest.ChatMessage {
	var out []telegramtest.ChatMessage
	for _, m := range h.srv.EphemeralMessages(h.group.ID) {
		if m.FromBot {
			out = append(out, m)
		}
	}
	return out
}
