package panel

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/send"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// msg is the chat's message id (not an ephemeral one).
func msg(id int) send.Sent { return send.Sent{ID: id} }

// ids returns the ids of panels, in order.
func ids(panels []Panel) []int {
	out := []int{}
	for _, pn := range panels {
		out = append(out, pn.At.ID)
	}
	return out
}

func TestSettingsPanelsAreBounded(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		do    func(p *Panels, clock *clocktest.Clock)
		after time.Duration
		want  []int
	}{
		{"the newest few of a chat", func(p *Panels, _ *clocktest.Clock) {
			for id := 1; id <= maxPanels+2; id++ {
				p.Pressed(1, msg(id), "")
			}
		}, 0, []int{3, 4, 5, 6}},
		{"a panel remembered again moves last", func(p *Panels, _ *clocktest.Clock) {
			p.Pressed(1, msg(1), "")
			p.Pressed(1, msg(2), "")
			p.Pressed(1, msg(1), "")
		}, 0, []int{2, 1}},
		{"not after panelTTL", func(p *Panels, clock *clocktest.Clock) {
			p.Pressed(1, msg(1), "")
			clock.Advance(time.Hour)
			p.Pressed(1, msg(2), "")
		}, panelTTL - 30*time.Minute, []int{2}},
		{"dropped", func(p *Panels, _ *clocktest.Clock) {
			p.Pressed(1, msg(1), "")
			p.Pressed(1, msg(2), "")
			p.drop(1, msg(1))
		}, 0, []int{2}},
		{"an ephemeral panel is not the chat's message of its id", func(p *Panels, _ *clocktest.Clock) {
			p.Pressed(1, msg(1), "")
			p.Pressed(1, send.Sent{ID: 1, Receiver: 42}, "")
			p.Pressed(1, send.Sent{ID: 1, Receiver: 43}, "")
			p.drop(1, send.Sent{ID: 1, Receiver: 42})
		}, 0, []int{1, 1}},
		{"of its own chat", func(p *Panels, _ *clocktest.Clock) {
			p.Pressed(2, msg(7), "")
		}, 0, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clocktest.NewClock(t0)
			p := New(nil, nil, clock, nil)
			tt.do(p, clock)
			clock.Advance(tt.after)
			assert.Equal(t, tt.want, ids(p.open(1)))
		})
	}
}

func TestSettingsPanelsKeepFewChats(t *testing.T) {
	clock := clocktest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	p := New(nil, nil, clock, nil)
	for chat := range int64(maxChats + 10) {
		p.Pressed(chat, msg(1), "")
	}
	assert.Equal(t, maxChats, p.Footprint())
	assert.Equal(t, []int{1}, ids(p.open(maxChats+9)), "the newest chat is kept")
	assert.Empty(t, ids(p.open(0)), "the oldest chat is forgotten")
}

// TestSettingsPanelsKeepTheirLevel: a panel is remembered at the level its
// last press left it, and is drawn there: the list, a setting's choices,
// or, for a member, the read-only list whatever the level.
func TestSettingsPanelsKeepTheirLevel(t *testing.T) {
	clock := clocktest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	p := New(nil, nil, clock, nil)
	p.Pressed(1, msg(1), "stake")
	p.Pressed(1, msg(2), "bets")
	p.Pressed(1, msg(1), "")
	p.Pressed(1, msg(3), "turn")
	got := map[int]string{}
	for _, pn := range p.open(1) {
		got[pn.At.ID] = pn.Field
	}
	assert.Equal(t, map[int]string{1: "", 2: "bets", 3: "turn"}, got)

	s := storage.ChatSettings{Game: game.DefaultSettings(), Language: "ru"}
	c := Edited(s)
	tests := []struct {
		name string
		pn   Panel
		want message.Message
	}{
		{"the list", Panel{At: msg(1)}, render.Settings(c)},
		{"a setting's choices", Panel{At: msg(1), Field: "turn"}, render.SettingsField(c, "turn")},
		{"read-only", Panel{At: msg(1), ReadOnly: true}, render.SettingsReadOnly(c)},
		{"read-only at any level", Panel{At: msg(1), ReadOnly: true, Field: "turn"}, render.SettingsReadOnly(c)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.pn.Draw(s))
		})
	}
}

// TestSentLeavesAPressedPanelWhereThePressMovedIt: a press may come before
// the send of its panel is reported (the message is out first); the
// report must not put the panel back at the list, nor redraw it.
func TestSentLeavesAPressedPanelWhereThePressMovedIt(t *testing.T) {
	clock := clocktest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	p := New(nil, nil, clock, nil) // no store, no sender: nothing may be read or sent
	p.Pressed(1, msg(5), "stake")
	p.Sent(context.Background(), 1, Panel{At: msg(5)}, storage.ChatSettings{Game: game.DefaultSettings()})
	open := p.open(1)
	if assert.Len(t, open, 1) {
		assert.Equal(t, "stake", open[0].Field)
	}
}
