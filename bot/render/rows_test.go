package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/message"
)

// TestLabelWidthIsAtTheUpperEnd compares labelWidth with the widths
// chromium measured for these labels in DejaVu Sans Bold at 14 px, the
// playground's button font on a machine without Telegram's fonts: the
// estimate is never below, and not so far above that rows go to waste.
// Emoji are left out: their width depends on the emoji font.
func TestLabelWidthIsAtTheUpperEnd(t *testing.T) {
	measured := map[string]float64{
		"Play again ▶":   97.4,
		"Сыграть ещё ▶":  121.7,
		"Start ▶":        55.5,
		"Начать ▶":       72.8,
		"Сесть":          45.0,
		"Встать":         53.5,
		"40 · ½ bank":    92.7,
		"40 · ½ банка":   101.8,
		"80 · bank":      73.3,
		"35 · all in":    73.2,
		"35 · все фишки": 124.0,
		"10 min ✓":       70.3,
		"10 мин ✓":       71.9,
		"60 с ✓":         49.3,
		"Русский ✓":      81.7,
		"English ✓":      74.1,
		"1 000":          43.8,
		"Хватит ✋":       68.4,
	}
	for label, px := range measured {
		w := labelWidth(label)
		assert.GreaterOrEqual(t, w, px, "%q", label)
		assert.LessOrEqual(t, w, px*1.35+10, "%q", label)
	}
}

func TestRowsFitAPhone(t *testing.T) {
	buttons := func(labels ...string) []message.Button {
		out := make([]message.Button, len(labels))
		for i, l := range labels {
			out[i] = message.Button{Text: l}
		}
		return out
	}
	tests := []struct {
		name   string
		labels []string
		perRow int
		want   []int // the length of each row
	}{
		{"nothing", nil, 3, nil},
		{"short labels share a row", []string{"Join", "Leave", "Start ▶"}, 3, []int{3}},
		{"a long one makes two rows", []string{"Join", "Leave", "Play again ▶"}, 3, []int{2, 1}},
		{"in Russian too", []string{"Сесть", "Встать", "Сыграть ещё ▶"}, 3, []int{2, 1}},
		{"never more than perRow", []string{"1", "2", "3", "4", "5"}, 3, []int{3, 2}},
		{"rows as even as can be", []string{"5", "10", "25", "50", "100", "250", "500"}, 3, []int{3, 2, 2}},
		{"a settings row", []string{"⏳", "2 min", "5 min", "10 min ✓", "30 min", "1 h"}, 7, []int{3, 3}},
		{"bets", []string{"10", "20", "40 · ½ bank", "50", "80 · bank"}, 3, []int{2, 2, 1}},
		{"a label too long for any row", []string{strings.Repeat("W", 40), "ok"}, 3, []int{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rows(buttons(tt.labels...), tt.perRow)
			var lens []int
			var order []string
			for _, r := range got {
				lens = append(lens, len(r))
				for _, b := range r {
					order = append(order, b.Text)
				}
			}
			assert.Equal(t, tt.want, lens)
			assert.Equal(t, tt.labels, order, "the buttons keep their order")
		})
	}
}
