package bot

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// ids returns the ids of panels, in order.
func ids(panels []panel) []int {
	out := make([]int, 0, len(panels))
	for _, pn := range panels {
		out = append(out, pn.id)
	}
	return out
}

func TestSettingsPanelsAreBounded(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		do   func(p *settingsPanels)
		at   time.Time
		want []int
	}{
		{"the newest few of a chat", func(p *settingsPanels) {
			for id := 1; id <= maxPanels+2; id++ {
				p.add(1, panel{id: id, at: t0}, t0)
			}
		}, t0, []int{3, 4, 5, 6}},
		{"a panel added again moves last", func(p *settingsPanels) {
			p.add(1, panel{id: 1, at: t0}, t0)
			p.add(1, panel{id: 2, at: t0}, t0)
			p.add(1, panel{id: 1, at: t0}, t0)
		}, t0, []int{2, 1}},
		{"not after panelTTL", func(p *settingsPanels) {
			p.add(1, panel{id: 1, at: t0}, t0)
			p.add(1, panel{id: 2, at: t0.Add(time.Hour)}, t0.Add(time.Hour))
		}, t0.Add(panelTTL + time.Minute), []int{2}},
		{"dropped", func(p *settingsPanels) {
			p.add(1, panel{id: 1, at: t0}, t0)
			p.add(1, panel{id: 2, at: t0}, t0)
			p.drop(1, 1)
		}, t0, []int{2}},
		{"of its own chat", func(p *settingsPanels) {
			p.add(2, panel{id: 7, at: t0}, t0)
		}, t0, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p settingsPanels
			tt.do(&p)
			assert.Equal(t, tt.want, ids(p.open(1, tt.at)))
		})
	}
}

func TestSettingsPanelsKeepFewChats(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var p settingsPanels
	for chat := range int64(maxPanelChats + 10) {
		p.add(chat, panel{id: 1, at: t0}, t0)
	}
	assert.LessOrEqual(t, len(p.chats), maxPanelChats)
	assert.Equal(t, []int{1}, ids(p.open(maxPanelChats+9, t0)), "the newest chat is kept")
}
