package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// Answers only the asker sees (issue 34): the bot's personal answers in a
// group are ephemeral messages where Telegram lets the bot send them, and
// today's replies where it does not. Over HTTP with our Bot API server,
// which models who sees an ephemeral message and when a bot may send one.

// personalAnswers are a personal command of each kind, who asks, and
// what the answer says; none needs a table.
var personalAnswers = []struct {
	name, cmd string
	args      []string
	says      string
}{
	{"Bob", "balance", nil, "Bob, your balance:"},
	{"Carol", "bonus", nil, "Carol, the bonus is for balances below"},
	{"Dave", "stats", nil, "Dave hasn't played here yet."},
	{"Alice", "history", nil, "Alice, you have no chip movements here yet."},
	{"Bob", "help", nil, "/newgame"},
	{"Carol", "rules", nil, "The rules in short"},
	{"Dave", "lang", nil, "To change it: /lang en"},
	{"Alice", "verify", nil, "/verify N shows the decks"},
	{"Bob", "notify", nil, "Bob, I can only write to you once you've started me"},
	{"Carol", "settings", nil, "Table settings"},
	{"Alice", "audit", nil, "The chips add up"},
}

// TestPersonalAnswersOnlyTheAskerSees: each personal answer goes to its
// asker alone, as an ephemeral message: in reply to their ephemeral
// command (the bot no admin: it answers within the command's window), or
// to the command they typed where the bot is an admin; the group's
// timeline holds none of them.
func TestPersonalAnswersOnlyTheAskerSees(t *testing.T) {
	routes := []struct {
		name string
		opts []func(*harnessOptions)
		// ask sends the command and returns the ephemeral message id after
		// which its answer comes.
		ask func(h *harness, name, cmd string, args ...string) int
		// command: the answer replies to the ephemeral command.
		command bool
	}{
		{"an ephemeral command, the bot no admin", nil, func(h *harness, name, cmd string, args ...string) int {
			return h.ephemeral(name, cmd, args...).EphemeralMessageID
		}, true},
		{"a command the group sees, the bot an admin of a basic group", []func(*harnessOptions){botAdmin(false)},
			typedCommand, false},
		{"a command the group sees, the bot an admin of a supergroup", []func(*harnessOptions){botAdmin(true)},
			typedCommand, false},
	}
	for _, r := range routes {
		t.Run(r.name, func(t *testing.T) {
			h := newHarness(t, r.opts...)
			for _, a := range personalAnswers {
				after := r.ask(h, a.name, a.cmd, a.args...)
				m := h.onlyTo(a.name, after, a.says)
				if r.command {
					assert.Equal(t, after, m.ReplyToEphemeralMessageID, "/%s: in reply to the command", a.cmd)
				}
			}
			for _, m := range h.srv.Messages(h.group.ID) {
				assert.False(t, m.FromBot, "the group saw %q", m.Text)
			}
			assert.Zero(t, h.srv.Calls().Failed("sendMessage"), "nothing refused")
		})
	}
}

// typedCommand sends the command as a message the group sees, and returns
// the newest ephemeral message id so far.
func typedCommand(h *harness, name, cmd string, args ...string) int {
	last := 0
	for _, m := range h.srv.EphemeralMessages(h.group.ID) {
		last = max(last, m.EphemeralMessageID)
	}
	h.command(name, cmd, args...)
	return last
}

// TestPersonalAnswersFallBackToTheGroup: where the bot is no admin, a
// personal command typed as a message the group sees (by hand, or from a
// client that sends no ephemeral commands) is answered as before
// ephemeral messages, in reply to it, in a basic group and in a
// supergroup; the bot asks Telegram whether it is an admin and sends
// nothing Telegram refuses.
func TestPersonalAnswersFallBackToTheGroup(t *testing.T) {
	for _, super := range []bool{false, true} {
		t.Run(fmt.Sprintf("supergroup %v", super), func(t *testing.T) {
			var opts []func(*harnessOptions)
			if super {
				opts = append(opts, inSupergroup)
			}
			h := newHarness(t, opts...)
			for _, a := range personalAnswers {
				cmd := h.command(a.name, a.cmd, a.args...)
				m := h.botSays(a.says)
				require.NotNil(t, m.ReplyToMessage, "/%s", a.cmd)
				assert.Equal(t, cmd.MessageID, m.ReplyToMessage.MessageID, "/%s: in reply to it", a.cmd)
			}
			assert.Empty(t, h.botEphemerals())
			assert.Zero(t, h.srv.Calls().Failed("sendMessage"), "nothing refused")
		})
	}
}

// TestPublicAnswersStayPublic: what the group should see goes to the
// group even where the bot may send ephemeral messages: the leaderboard,
// an admin's change of the settings, the table, a table cancelled.
func TestPublicAnswersStayPublic(t *testing.T) {
	h := newHarness(t, botAdmin(false))
	h.command("Bob", "top")
	h.botSays("Nobody has played here yet")
	h.command("Alice", "settings", "stake", "25")
	h.botSays("Saved.")
	h.command("Alice", "newgame")
	h.tableMessage(contains("Alice"))
	h.command("Alice", "cancel")
	h.botSays("Table closed.")
	assert.Empty(t, h.botEphemerals())
}

// TestRefusalsOnlyTheAskerSees: a refusal longer than a toast, a command's
// usage, and the reply quota's "that's a lot of commands" go to the asker
// alone; past their budget an asker gets nothing more, told once.
func TestRefusalsOnlyTheAskerSees(t *testing.T) {
	h := newHarness(t, botAdmin(true))
	after := typedCommand(h, "Bob", "cancel")
	h.onlyTo("Bob", after, "Only chat admins can do that.")
	after = typedCommand(h, "Alice", "kick")
	h.onlyTo("Alice", after, "/kick")
	after = typedCommand(h, "Alice", "cancel")
	h.onlyTo("Alice", after, "There is nothing to cancel.")

	asks := []string{"rules", "help", "balance", "stats", "history", "lang", "verify", "top", "audit", "settings"}
	for _, cmd := range asks {
		h.command("Carol", cmd)
	}
	over := h.onlyTo("Carol", 0, "That's a lot of commands")
	h.settle()
	var toCarol, inGroup int
	for _, m := range h.botEphemerals() {
		if m.VisibleTo == h.user("Carol").ID {
			toCarol++
		}
	}
	for _, m := range h.srv.Messages(h.group.ID) {
		if m.FromBot {
			inGroup++ // /top's leaderboard is the group's
		}
	}
	assert.Equal(t, 9, toCarol+inGroup, "eight answers, then told once that she asked a lot: %q", over.Text)
	assert.Equal(t, 1, inGroup)
}

// TestEphemeralRefusedFallsBack: when Telegram refuses an ephemeral
// answer, it goes to the group at once, and the chat's next answers the
// same way go there without trying again: an ephemeral command answered
// past its window (Telegram took 20 s to deliver it). And a bot promoted
// to admin (my_chat_member) answers a typed personal command to its asker
// alone without asking Telegram whether it is one; demoted while such an
// answer is on its way, the answer is refused (BOT_NOT_ADMIN) and goes to
// the group, and the next goes there at once.
func TestEphemeralRefusedFallsBack(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) { o.stepped = true })
	h.ephemeral("Bob", "balance") // the commands declared, Bob answered
	h.onlyTo("Bob", 0, "Bob, your balance:")

	release := make(chan struct{})
	held := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Methods: []string{"sendMessage"}, Count: 1, Hold: release})
	h.ephemeral("Carol", "balance")
	h.pollUntil(func() bool { return held.Fired() == 1 }, "the answer's call is held")
	h.clock.Advance(20 * time.Second)
	close(release)
	h.botSays("Carol, your balance:")
	assert.Equal(t, 1, h.srv.Calls().Failed("sendMessage"), "refused: the command is too old to reply to")
	h.ephemeral("Dave", "balance")
	h.botSays("Dave, your balance:")
	assert.Equal(t, 1, h.srv.Calls().Failed("sendMessage"), "not tried again")

	// Promoted: a typed command is answered to its asker alone.
	require.NoError(t, h.srv.SetMemberStatus(h.group.ID, h.srv.Bot().ID, telegramtest.StatusAdministrator))
	h.handled()
	after := typedCommand(h, "Alice", "stats")
	h.onlyTo("Alice", after, "Alice hasn't played here yet.")
	assert.Zero(t, h.srv.Calls().Count("getChatMember"), "my_chat_member told it; it asked nothing")

	// Demoted while the answer to a typed command waits on its call.
	release = make(chan struct{})
	held = h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultDelay, Methods: []string{"sendMessage"}, Count: 1, Hold: release})
	cmd := h.command("Alice", "history")
	h.pollUntil(func() bool { return held.Fired() == 1 }, "the answer's call is held")
	require.NoError(t, h.srv.SetMemberStatus(h.group.ID, h.srv.Bot().ID, telegramtest.StatusMember))
	close(release)
	m := h.botSays("Alice, you have no chip movements here yet.")
	require.NotNil(t, m.ReplyToMessage)
	assert.Equal(t, cmd.MessageID, m.ReplyToMessage.MessageID)
	assert.Equal(t, 2, h.srv.Calls().Failed("sendMessage"), "BOT_NOT_ADMIN")
	h.handled()
	cmd = h.command("Bob", "stats")
	m = h.botSays("📊 Bob")
	require.NotNil(t, m.ReplyToMessage)
	assert.Equal(t, cmd.MessageID, m.ReplyToMessage.MessageID)
	assert.Equal(t, 2, h.srv.Calls().Failed("sendMessage"), "not tried again")
	assert.Zero(t, h.srv.Calls().Count("getChatMember"))
}

// pollUntil waits, without moving the clock, until cond holds.
func (h *harness) pollUntil(cond func() bool, what string) {
	h.t.Helper()
	require.NoError(h.t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return cond() }), what)
}

// TestEphemeralSettingsPanel: the panel an admin opens is theirs alone:
// its presses edit it where it is, an admin's change typed in the group
// redraws it; a press forged by another member on it, a press of an
// older keyboard, and a panel its admin deleted change nothing they
// should not.
func TestEphemeralSettingsPanel(t *testing.T) {
	h := newHarness(t)
	cmd := h.ephemeral("Alice", "settings")
	panel := h.onlyTo("Alice", cmd.EphemeralMessageID, "Table settings")
	id := panel.EphemeralMessageID
	open := ""
	for _, b := range panel.Buttons() {
		if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == callback.SettingOpen && d.Field == "stake" {
			open = b.CallbackData
		}
	}
	require.NotEmpty(t, open, "an admin's panel, with its buttons")
	a := h.pressEphemeral("Alice", id, open)
	assert.Empty(t, a.Text)
	choices := h.ephemeralShows(id, "25")
	a = h.pressEphemeral("Alice", id, settingsButton(t, choices, "stake", "25"))
	assert.Contains(t, a.Text, "Saved.")
	h.ephemeralShows(id, "25")
	assert.EqualValues(t, 25, h.stake())

	h.command("Alice", "settings", "stake", "50")
	h.botSays("Saved.")
	now := h.ephemeralShows(id, "50")

	// Dave, an admin too, presses Alice's panel: Telegram never shows it
	// to him, so the press is forged.
	alice, dave := h.user("Alice"), h.user("Dave")
	require.NoError(t, h.srv.MakeAdmin(h.group.ID, dave.ID))
	forged := settingsButton(t, now, "stake", "100")
	msg := map[string]any{"message_id": 0, "ephemeral_message_id": id, "date": h.clock.Now().Unix(),
		"chat":          map[string]any{"id": h.group.ID, "type": "group", "title": "Game night"},
		"from":          map[string]any{"id": h.srv.Bot().ID, "is_bot": true, "first_name": "Bot"},
		"receiver_user": map[string]any{"id": alice.ID, "first_name": "Alice"}, "text": "Table settings",
		"reply_markup": map[string]any{"inline_keyboard": [][]map[string]any{{{"text": "100", "callback_data": forged}}}}}
	raw, err := json.Marshal(map[string]any{"callback_query": map[string]any{"id": "forged", "from": map[string]any{"id": dave.ID, "first_name": "Dave"},
		"chat_instance": "1", "data": forged, "message": msg}})
	require.NoError(t, err)
	_, err = h.srv.PushRawUpdate(telegramtest.UpdateCallbackQuery, raw)
	require.NoError(t, err)
	h.handled()
	assert.EqualValues(t, 50, h.stake(), "Dave changed nothing")

	// A button of the panel as it was before the change: outdated.
	a = h.pressEphemeral("Alice", id, settingsButton(t, choices, "stake", "100"))
	assert.Equal(t, "The settings have changed meanwhile; look again.", a.Text)
	assert.EqualValues(t, 50, h.stake())

	// Alice deletes her panel: the next change tries its edit once, and
	// forgets it.
	h.settle()
	before := h.srv.Calls()
	require.NoError(t, h.srv.DeleteEphemeral(h.group.ID, alice.ID, id))
	for _, v := range []string{"75", "100"} {
		h.command("Alice", "settings", "stake", v)
		h.botSays("Saved.")
		h.settle()
	}
	edits := h.srv.Calls().Sub(before).Methods["editEphemeralMessageText"]
	assert.Equal(t, 1, edits.Calls, "the panel gone is tried once, and forgotten")
	assert.Equal(t, 1, edits.Failed)
}

// pressEphemeral has the user press data on the bot's ephemeral message
// id to them, and returns the answer.
func (h *harness) pressEphemeral(name string, id int, data string) telegramtest.CallbackAnswer {
	h.t.Helper()
	cb, err := h.srv.Press(telegramtest.Press{ChatID: h.group.ID, From: h.user(name).ID, EphemeralMessageID: id, Data: data})
	require.NoError(h.t, err)
	a, err := cb.Wait(h.ctx())
	require.NoError(h.t, err)
	return a
}

// ephemeralShows waits until the bot's ephemeral message id shows every
// part, text or button, and returns it.
func (h *harness) ephemeralShows(id int, parts ...string) telegramtest.ChatMessage {
	h.t.Helper()
	var got telegramtest.ChatMessage
	require.NoError(h.t, h.waitFor(func(*telegramtest.View) bool {
		m, ok := h.srv.EphemeralMessage(h.group.ID, id)
		got = m
		return ok && holds(m.Text+"\n"+fmt.Sprint(m.Labels()), parts)
	}), "ephemeral message %d shows %q", id, parts)
	return got
}

// stake returns the group's stake as stored.
func (h *harness) stake() int64 {
	h.t.Helper()
	s, err := h.store.Settings(context.Background(), h.group.ID)
	require.NoError(h.t, err)
	return s.Game.Stake
}

// TestEphemeralPromptDeletedOnceUsed: /notify's "start me in private"
// prompt, sent ephemerally, is deleted as one once its link is used.
func TestEphemeralPromptDeletedOnceUsed(t *testing.T) {
	h := newHarness(t)
	cmd := h.ephemeral("Bob", "notify")
	prompt := h.onlyTo("Bob", cmd.EphemeralMessageID, "Bob, I can only write to you once you've started me")
	require.Len(t, prompt.Buttons(), 1)
	start, err := h.srv.OpenLink(h.user("Bob").ID, prompt.Buttons()[0].URL)
	require.NoError(t, err)
	h.privately("Bob", start.MessageID, "Done: I'll write to you here when a table opens in", "Game night")
	require.NoError(t, h.waitFor(func(*telegramtest.View) bool {
		_, ok := h.srv.EphemeralMessage(h.group.ID, prompt.EphemeralMessageID)
		return !ok
	}), "the prompt is deleted")
	assert.Equal(t, []int64{h.group.ID}, h.follows("Bob"))
}
