package bot_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
)

// gate holds the first update the webhook gets that match picks until
// the test opens it: Telegram's parallel requests arrive in any order, and
// the gate makes them arrive in the order a test needs.
type gate struct {
	match  func(sender, text, data string) bool
	once   sync.Once
	held   chan struct{} // closed when the update is held
	opened chan struct{}
}

func newGate(match func(sender, text, data string) bool) *gate {
	return &gate{match: match, held: make(chan struct{}), opened: make(chan struct{})}
}

// hold is a harnessOptions.hold.
func (g *gate) hold(raw []byte) {
	type from struct {
		FirstName string `json:"first_name"`
	}
	var u struct {
		Message *struct {
			From from   `json:"from"`
			Text string `json:"text"`
		} `json:"message"`
		CallbackQuery *struct {
			From from   `json:"from"`
			Data string `json:"data"`
		} `json:"callback_query"`
	}
	if json.Unmarshal(raw, &u) != nil {
		return
	}
	var sender, text, data string
	switch {
	case u.Message != nil:
		sender, text = u.Message.From.FirstName, u.Message.Text
	case u.CallbackQuery != nil:
		sender, data = u.CallbackQuery.From.FirstName, u.CallbackQuery.Data
	}
	if !g.match(sender, text, data) {
		return
	}
	first := false
	g.once.Do(func() { first = true })
	if first {
		close(g.held)
		<-g.opened
	}
}

// waitHeld waits until the gate holds its update.
func (g *gate) waitHeld(t *testing.T, h *harness) {
	t.Helper()
	select {
	case <-g.held:
	case <-h.ctx().Done():
		t.Fatal("the update never reached the webhook")
	}
}

func (g *gate) open() { close(g.opened) }

func joinBy(name string) func(sender, text, data string) bool {
	return func(sender, _, data string) bool {
		d, err := callback.Parse(data)
		return sender == name && err == nil && d.Action == callback.Join
	}
}

// seated returns the names of the users seated at the group's table.
func (h *harness) seated() []string {
	h.t.Helper()
	v := h.view()
	var names []string
	for name, u := range h.users {
		if _, ok := v.Table.SeatOf(game.UserID(u.ID)); ok {
			names = append(names, name)
		}
	}
	return names
}

// TestWebhookPressesOutOfOrder: Telegram queues presses per user, so Bob's
// Join, pressed first, may reach the bot after Carol's on the same render.
// Carol is seated; Bob's press is outdated, as a second press on one render
// is, and told so: it is no redelivery to answer as if it had been applied.
func TestWebhookPressesOutOfOrder(t *testing.T) {
	g := newGate(joinBy("Bob"))
	h := newHarness(t, func(o *harnessOptions) { o.webhook, o.hold = true, g.hold })
	h.command("Alice", "newgame")
	m := h.tableMessage(contains("Alice"))
	data := joinData(t, m)

	bob, err := h.srv.Press(telegramtest.Press{ChatID: h.group.ID, From: h.user("Bob").ID, MessageID: m.MessageID, Data: data})
	require.NoError(t, err)
	g.waitHeld(t, h)
	h.pressRaw("Carol", m.MessageID, data) // a later update, handled first
	g.open()
	answer, err := bob.Wait(h.ctx())
	require.NoError(t, err)

	assert.Equal(t, i18n.T(i18n.EN, i18n.PopOutdated), answer.Text)
	h.tableMessage(contains("Carol"))
	assert.ElementsMatch(t, []string{"Alice", "Carol"}, h.seated())
	h.audit()
}

// TestWebhookCommandAfterALaterPress: a chat's messages and the presses in
// it are different queues on Telegram: Carol's /leave, sent before Dave
// pressed Join, may reach the bot after his press. Both are applied.
func TestWebhookCommandAfterALaterPress(t *testing.T) {
	g := newGate(func(sender, text, _ string) bool { return sender == "Carol" && text == "/leave" })
	h := newHarness(t, func(o *harnessOptions) { o.webhook, o.hold = true, g.hold })
	h.lobby("Carol")
	m := h.tableMessage(contains("Carol"))

	h.command("Carol", "leave")
	g.waitHeld(t, h)
	h.pressRaw("Dave", m.MessageID, joinData(t, m))
	g.open()

	h.tableMessage(func(telegramtest.ChatMessage) bool { return len(h.seated()) == 2 })
	assert.ElementsMatch(t, []string{"Alice", "Dave"}, h.seated())
	h.audit()
}

// joinData returns the callback data of the message's Join button.
func joinData(t *testing.T, m telegramtest.ChatMessage) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == callback.Join {
			return b.CallbackData
		}
	}
	t.Fatalf("no Join button on %q", m.Text)
	return ""
}
