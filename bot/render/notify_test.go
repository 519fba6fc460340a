package render

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
)

// TestGoldenNotify: the messages of /notify, with their buttons.
func TestGoldenNotify(t *testing.T) {
	at := time.Date(2026, 3, 14, 21, 5, 0, 0, time.UTC)
	hostileTitle := "Game <night> &\u202e co"
	follows := []Follow{{Chat: -1001234567890, Title: hostileTitle}, {Chat: -4000000001, Title: "Casino"}}
	notice := Notice{Title: hostileTitle, Opener: hostile, Settings: game.DefaultSettings(),
		Closes: at.Add(10 * time.Minute), Now: at, Link: "https://t.me/c/1234567890/42"}
	messages := []struct {
		name string
		draw func(i18n.Lang) message.Message
	}{
		{"on", func(l i18n.Lang) message.Message { return NotifyToggled(hostile, true, l) }},
		{"off", func(l i18n.Lang) message.Message { return NotifyToggled(hostile, false, l) }},
		{"start first", func(l i18n.Lang) message.Message {
			return NotifyStartFirst(hostile, "https://t.me/twentyone_bot?start=notify_1001234567890", l)
		}},
		{"too many", func(l i18n.Lang) message.Message { return NotifyTooMany(20, l) }},
		{"followed", func(l i18n.Lang) message.Message { return Followed(hostileTitle, false, l) }},
		{"followed already", func(l i18n.Lang) message.Message { return Followed(hostileTitle, true, l) }},
		{"list", func(l i18n.Lang) message.Message { return Follows(follows, l) }},
		{"list empty", func(l i18n.Lang) message.Message { return Follows(nil, l) }},
		{"notice", func(l i18n.Lang) message.Message { n := notice; n.Lang = l; return Opened(n) }},
		{"notice of a basic group", func(l i18n.Lang) message.Message { n := notice; n.Lang, n.Link = l, ""; return Opened(n) }},
	}
	for _, lang := range i18n.Langs() {
		t.Run(string(lang), func(t *testing.T) {
			var b strings.Builder
			for _, m := range messages {
				msg := m.draw(lang)
				checkHTML(t, msg.Text, m.name)
				assert.NotContains(t, msg.Text, "\u202e", "%s: titles and names are shown as Name shows them", m.name)
				for _, row := range msg.Keyboard {
					for _, btn := range row {
						assert.NotContains(t, btn.Text, "\u202e", m.name)
						assert.True(t, (btn.URL == "") != (btn.Data == ""), "%s: a button is a link or a callback", m.name)
					}
				}
				b.WriteString("=== " + m.name + " ===\n" + dump(msg) + "\n")
			}
			golden(t, "notify."+string(lang), b.String())
		})
	}
}
