package bot_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// obj is a JSON object of a raw update being built.
type obj = map[string]any

// rawUser is a user as an update carries it.
func rawUser(u telegramtest.User) obj {
	return obj{"id": u.ID, "is_bot": u.IsBot, "first_name": u.FirstName, "language_code": u.LanguageCode}
}

// rawChat is the harness's group as an update carries it.
func (h *harness) rawChat() obj {
	return obj{"id": h.group.ID, "type": h.group.Type, "title": h.group.Title}
}

// rawCommand is a message holding a command, its bot_command entity as
// Telegram marks it; fields set or (nil) remove what it holds.
func rawCommand(text string, fields obj) obj {
	name, _, _ := strings.Cut(text, " ")
	m := obj{"message_id": 900001, "date": 1, "text": text,
		"entities": []obj{{"type": "bot_command", "offset": 0, "length": len(name)}}}
	for k, v := range fields {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return m
}

// logBuffer collects a bot's log for a test to read.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// lines returns the lines logged so far that hold every part.
func (l *logBuffer) lines(parts ...string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range strings.Split(l.b.String(), "\n") {
		all := line != ""
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			out = append(out, line)
		}
	}
	return out
}

// pushRaw queues a raw update and returns its id.
func (h *harness) pushRaw(kind string, body obj) int {
	h.t.Helper()
	raw, err := json.Marshal(obj{kind: body})
	require.NoError(h.t, err)
	id, err := h.srv.PushRawUpdate(kind, raw)
	require.NoError(h.t, err)
	require.NotZero(h.t, id)
	return id
}

// TestPoisonUpdates feeds the bot updates Telegram should never send, and
// checks after each that it was confirmed and changed nothing, that the
// chat still answers, and that the bot answered who can be told or else
// logged the update as skipped. Most used to panic, taking every chat
// down; some acted for user 0, or for anybody in a "group" with a
// positive id.
func TestPoisonUpdates(t *testing.T) {
	logs := &logBuffer{}
	h := newHarness(t, func(o *harnessOptions) {
		o.owners = []string{"Dave"}
		o.logs = logs
	})
	// A lobby open for a day: the clock moves on between the cases below,
	// past the reply quota's window for an answer repeated (the same
	// /balance after each case), and must not close the table.
	h.command("Alice", "settings", "lobby", "86400")
	h.botSays("Saved")
	h.lobby("Bob")
	bobMsg := h.command("Bob", "balance")
	h.botSays("Bob, your balance")
	table := h.tableMessage(contains("Bob"))
	join := "j:" + itoa(h.version())
	alice, carol, dave := rawUser(h.user("Alice")), rawUser(h.user("Carol")), rawUser(h.user("Dave"))
	nobody := obj{"id": 0, "is_bot": false, "first_name": "Nobody"}
	replyTo := func(from any) obj {
		m := obj{"message_id": bobMsg.MessageID, "date": 1, "chat": h.rawChat(), "text": "hi"}
		if from != nil {
			m["from"] = from
		}
		return m
	}
	tableMsg := func(chat obj) obj {
		m := obj{"message_id": table.MessageID, "date": 1, "text": table.Text}
		if chat != nil {
			m["chat"] = chat
		}
		return m
	}
	fakeGroup := obj{"id": 4242, "type": "supergroup", "title": "Not a group"}
	group := h.rawChat()
	defaults := game.DefaultSettings()
	settings, err := h.store.Settings(h.ctx(), h.group.ID)
	require.NoError(t, err)
	stamp := callback.Stamp(game.ChatSettings{Game: settings.Game, Language: "en"}) // the group's: no press is stale
	fakeStamp := callback.Stamp(game.ChatSettings{Game: defaults, Language: "en"})  // the positive id's: never set
	const unknown = "I can't tell who sent this"

	tests := []struct {
		name string
		kind string
		body obj
		// says is what the bot answers in the group; "" when nobody can be
		// told, and the update is logged as skipped.
		says string
	}{
		{"a message without chat", "message", rawCommand("/newgame", obj{"from": alice}), ""},
		{"a migration without chat", "message", obj{"message_id": 900002, "date": 1, "from": alice, "migrate_to_chat_id": -1009999}, ""},
		{"a message in chat 0", "message", rawCommand("/balance", obj{"from": alice, "chat": obj{"id": 0, "type": "group"}}), ""},
		{"a command entity past the text", "message", rawCommand("/top", obj{"from": alice, "chat": group,
			"entities": []obj{{"type": "bot_command", "offset": 0, "length": 40}}}), ""},
		{"a command entity of length 0", "message", rawCommand("/top", obj{"from": alice, "chat": group,
			"entities": []obj{{"type": "bot_command", "offset": 0, "length": 0}}}), ""},
		{"cancel without from", "message", rawCommand("/cancel", obj{"chat": group}), unknown},
		{"settings without from", "message", rawCommand("/settings", obj{"chat": group}), "Table settings"}, // a display, read-only
		{"settings stake without from", "message", rawCommand("/settings stake 5", obj{"chat": group}), unknown},
		{"lang without from", "message", rawCommand("/lang ru", obj{"chat": group}), unknown},
		{"kick without from", "message", rawCommand("/kick", obj{"chat": group, "reply_to_message": replyTo(rawUser(h.user("Bob")))}), unknown},
		{"audit without from", "message", rawCommand("/audit", obj{"chat": group}), unknown},
		{"balance without from", "message", rawCommand("/balance", obj{"chat": group}), unknown},
		{"audit from an anonymous admin without from", "message", rawCommand("/audit", obj{"chat": group, "sender_chat": group}), "The chips add up"},
		{"balance from user 0", "message", rawCommand("/balance", obj{"chat": group, "from": nobody}), unknown},
		{"balance on behalf of a channel", "message", rawCommand("/balance", obj{"chat": group,
			"from": obj{"id": 136817688, "is_bot": true, "first_name": "Channel"}, "sender_chat": obj{"id": -1001234567, "type": "channel", "title": "News"}}),
			"on behalf of a channel"},
		{"bonus from user 0", "message", rawCommand("/bonus", obj{"chat": group, "from": nobody}), unknown},
		{"cancel from user 0", "message", rawCommand("/cancel", obj{"chat": group, "from": nobody}), unknown},
		{"stats in reply to no from", "message", rawCommand("/stats", obj{"chat": group, "from": alice, "reply_to_message": replyTo(nil)}), "Alice"},
		{"stats in reply to user 0", "message", rawCommand("/stats", obj{"chat": group, "from": alice, "reply_to_message": replyTo(nobody)}), "Alice"},
		{"kick in reply to no from", "message", rawCommand("/kick", obj{"chat": group, "from": alice, "reply_to_message": replyTo(nil)}), "Reply to a player's message"},
		{"kick in reply to user 0", "message", rawCommand("/kick", obj{"chat": group, "from": alice, "reply_to_message": replyTo(nobody)}), "Reply to a player's message"},
		{"grant in reply to no from", "message", rawCommand("/grant 100", obj{"chat": group, "from": dave, "reply_to_message": replyTo(nil)}), "Reply to a user's message"},
		{"grant in reply to user 0", "message", rawCommand("/grant 100", obj{"chat": group, "from": dave, "reply_to_message": replyTo(nobody)}), "Reply to a user's message"},
		{"settings in a group with a positive id", "message", rawCommand("/settings stake 5", obj{"chat": fakeGroup, "from": alice}), ""},
		{"a press without from", "callback_query", obj{"id": "p1", "chat_instance": "1", "data": join, "message": tableMsg(group)}, ""},
		{"a press without message", "callback_query", obj{"id": "p2", "chat_instance": "1", "data": join, "from": carol}, ""},
		{"a press on a message without chat", "callback_query", obj{"id": "p3", "chat_instance": "1", "data": join, "from": carol, "message": tableMsg(nil)}, ""},
		{"a press by user 0", "callback_query", obj{"id": "p4", "chat_instance": "1", "data": join, "from": nobody, "message": tableMsg(group)}, ""},
		{"a settings press by user 0", "callback_query", obj{"id": "p5", "chat_instance": "1", "data": "c:" + itoa(stamp) + ":stake:25", "from": nobody, "message": tableMsg(group)}, ""},
		{"a settings press in a group with a positive id", "callback_query", obj{"id": "p6", "chat_instance": "1",
			"data": "c:" + itoa(fakeStamp) + ":stake:25", "from": alice, "message": tableMsg(fakeGroup)}, ""},
		{"my_chat_member without new_chat_member.user", "my_chat_member", obj{"chat": group, "from": alice, "date": 1,
			"old_chat_member": obj{"status": "member", "user": rawUser(h.srv.Bot())}, "new_chat_member": obj{"status": "left"}}, ""},
		{"my_chat_member without a status", "my_chat_member", obj{"chat": group, "from": alice, "date": 1,
			"old_chat_member": obj{"status": "member", "user": rawUser(h.srv.Bot())}, "new_chat_member": obj{"user": rawUser(h.srv.Bot())}}, ""},
		{"my_chat_member to an unknown status", "my_chat_member", obj{"chat": group, "from": alice, "date": 1,
			"old_chat_member": obj{"status": "member", "user": rawUser(h.srv.Bot())}, "new_chat_member": obj{"status": "banished", "user": rawUser(h.srv.Bot())}}, ""},
		{"my_chat_member without chat", "my_chat_member", obj{"from": alice, "date": 1,
			"old_chat_member": obj{"status": "member", "user": rawUser(h.srv.Bot())}, "new_chat_member": obj{"status": "left", "user": rawUser(h.srv.Bot())}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.clock.Advance(time.Minute)
			before := h.view()
			if last, ok := h.srv.LastMessage(h.group.ID); ok {
				h.said = last.MessageID
			}
			id := h.pushRaw(tt.kind, tt.body)
			require.NoError(t, h.srv.WaitFor(h.ctx(), func(v *telegramtest.View) bool { return v.PendingUpdates() == 0 }),
				"the update is confirmed")
			assert.Empty(t, logs.lines("handling failed"), "no panic, even a recovered one")
			skipped := logs.lines("level=WARN", "update skipped", "update_id="+itoa(id))
			if tt.says != "" {
				h.botSays(tt.says)
				assert.Empty(t, skipped, "an update answered is not skipped")
			} else {
				assert.Len(t, skipped, 1, "the update is logged as skipped")
			}
			// The chat still answers, after the poison update was handled.
			h.command("Alice", "balance")
			h.botSays("Alice, your balance")

			after := h.view()
			assert.Equal(t, before.Table.Version(), after.Table.Version(), "the table is as it was")
			assert.Equal(t, before.Table.Users(), after.Table.Users())
			s, err := h.store.Settings(h.ctx(), h.group.ID)
			require.NoError(t, err)
			assert.Equal(t, settings, s, "the settings are as they were")
			fake, err := h.store.Settings(h.ctx(), 4242)
			if err == nil {
				assert.Equal(t, defaults, fake.Game, "nobody is an admin of a chat with a positive id")
			}
			rows, err := h.store.Leaderboard(h.ctx(), h.group.ID, 100)
			require.NoError(t, err)
			for _, r := range rows {
				assert.NotZero(t, r.User, "no account for user 0")
			}
			_, err = h.store.Stats(h.ctx(), h.group.ID, 0)
			assert.ErrorIs(t, err, storage.ErrNotFound, "no stats for user 0")
			h.audit()
		})
	}
}

func itoa[T int | uint64](n T) string {
	b, _ := json.Marshal(n)
	return string(b)
}
