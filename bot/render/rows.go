package render

import (
	"strings"
	"unicode"

	"github.com/twentyone-bot/twentyone/bot/message"
)

// Telegram shows the buttons of a keyboard row in equal widths and cuts a
// label too long for its share with an ellipsis. Keyboards are laid out for
// a phone 390 px wide, where the keyboard under a group message is about
// phoneRow px wide, as in bot/playground's page; widths are estimated for a
// bold sans-serif at 14 px (DejaVu Sans Bold, wider than the fonts Telegram
// uses), and bot/playground's browser test measures them in a real browser.
const (
	// phoneRow is the width of a keyboard row on a phone, in px.
	phoneRow = 330
	// buttonGap is the space between two buttons of a row, in px.
	buttonGap = 4
	// buttonPadding is the space a button keeps around its label, in px.
	buttonPadding = 20
)

// rows lays buttons out in their order in as few rows as a phone shows
// without cutting a label, at most perRow to a row, the rows as even as they
// can be (5 buttons in two rows are 3 and 2). A label too long even for a
// row of its own gets that row.
func rows(buttons []message.Button, perRow int) [][]message.Button {
	n := len(buttons)
	if n == 0 {
		return nil
	}
	perRow = max(perRow, 1)
	for k := (n + perRow - 1) / perRow; k < n; k++ {
		if r := split(buttons, k); fits(r) {
			return r
		}
	}
	return split(buttons, n)
}

// split cuts buttons, in order, into k rows whose lengths differ by at most
// one, the longer rows first.
func split(buttons []message.Button, k int) [][]message.Button {
	out := make([][]message.Button, 0, k)
	n := len(buttons)
	for i := range k {
		size := n / k
		if i < n%k {
			size++
		}
		out = append(out, buttons[:size:size])
		buttons = buttons[size:]
	}
	return out
}

// fits reports whether every label fits its button's share of its row.
func fits(rows [][]message.Button) bool {
	for _, r := range rows {
		share := float64(phoneRow-buttonGap*(len(r)-1))/float64(len(r)) - buttonPadding
		for _, b := range r {
			if labelWidth(b.Text) > share {
				return false
			}
		}
	}
	return true
}

// runeWidths are the widths, in px, of the characters that are not as
// wide as a digit or a lowercase letter (10 px) or a capital (12 px):
// DejaVu Sans Bold at 14 px, rounded up.
var runeWidths = []struct {
	px    float64
	runes string
}{
	{3, "\u202f"},
	{5, " \u00a0"},
	{6, "iljIJ.,:;·/!|'"},
	{7, "frt()-–"},
	{9, "czsLгзтсэ"},
	{12, "дмлцъ×✓▶"},
	{13.5, "ыЦЪ"},
	{15.5, "mwMWжфшщюФЫМ½⅓¼⅕⅙⅛—…"},
	{19, "ЖШЩЮ"},
}

// labelWidth estimates the width of a button's label in px: that of
// DejaVu Sans Bold at 14 px, wider than the fonts Telegram uses, or a
// little more; an emoji is 18 px.
func labelWidth(label string) float64 {
	w := 0.0
next:
	for _, r := range label {
		for _, c := range runeWidths {
			if strings.ContainsRune(c.runes, r) {
				w += c.px
				continue next
			}
		}
		switch {
		case r >= 0x2190 && r < 0x2c00 || r >= 0x1f000:
			w += 18 // arrows, signs and emoji: ✋ ⏱ 🔐
		case unicode.IsUpper(r):
			w += 12
		default:
			w += 10
		}
	}
	return w
}
