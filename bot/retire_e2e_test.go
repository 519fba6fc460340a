package bot_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestOldTableMessageOver48Hours: Telegram lets a bot delete a message only
// within 48 hours of sending it ("message can't be deleted for everyone"
// in a basic group, "message can't be deleted" in a supergroup). A table
// moved down by /newgame after that (open, or closed with no game to keep
// a record of) cannot be deleted: the bot edits its old message into a
// note without buttons instead of leaving buttons that look live.
func TestOldTableMessageOver48Hours(t *testing.T) {
	chats := map[string]func(*telegramtest.Server, ...telegramtest.User) telegramtest.Chat{
		"group": func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
			return s.NewGroup("Game night", users...)
		},
		"supergroup": func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
			return s.NewSupergroup("Game night", users...)
		},
	}
	for chatName, chat := range chats {
		for _, closed := range []bool{false, true} {
			name := chatName + ", open"
			if closed {
				name = chatName + ", closed"
			}
			t.Run(name, func(t *testing.T) {
				clock := telegramtest.NewManualClock(time.Date(2026, 12, 2, 18, 30, 0, 0, time.UTC))
				h := newHarness(t, func(o *harnessOptions) {
					o.chat = chat
					o.srvOpts = append(o.srvOpts, telegramtest.WithClock(clock))
				})
				h.lobby("Bob")
				if closed {
					h.clock.Advance(11 * time.Minute) // nobody starts: the lobby closes
					h.tableMessage(contains("closed"))
				}
				old := h.view().MessageID
				m, ok := h.srv.Message(h.group.ID, old)
				require.True(t, ok)
				require.NotEmpty(t, m.Buttons(), "the old table shows buttons")

				clock.Advance(49 * time.Hour)
				h.command("Carol", "newgame")
				h.tableMessage(func(m telegramtest.ChatMessage) bool { return m.MessageID > h.said })
				require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
					return len(h.view().Retiring) == 0
				}), "the old message is retired")

				// Retired once edited: the edit is done.
				m, ok = h.srv.Message(h.group.ID, old)
				require.True(t, ok, "the old message could not be deleted")
				assert.Contains(t, m.Text, "moved")
				assert.Empty(t, m.Buttons(), "no button left that looks live")
				assert.NotEqual(t, old, h.view().MessageID)
			})
		}
	}
}
