package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/i18n"
)

// TestDigestPartHeadings: each part is headed by its askers, each a
// mention, and what they asked, the answer on the next line; a name is
// shown as the bot shows names anywhere (no markup, no reordering).
func TestDigestPartHeadings(t *testing.T) {
	tests := []struct {
		name   string
		askers []Asker
		want   string
	}{
		{"one asker", []Asker{{1, "Alice", "/balance"}},
			`<a href="tg://user?id=1">Alice</a>, /balance:` + "\nthe answer"},
		{"the same answer to the same command", []Asker{{1, "Alice", "/help"}, {2, "Bob", "/help"}},
			`<a href="tg://user?id=1">Alice</a>, <a href="tg://user?id=2">Bob</a>, /help:` + "\nthe answer"},
		{"the same answer to two commands", []Asker{{1, "Alice", "/help"}, {2, "Bob", "/start"}},
			`<a href="tg://user?id=1">Alice</a>, /help; <a href="tg://user?id=2">Bob</a>, /start:` + "\nthe answer"},
		{"a button pressed, in Russian", []Asker{{3, "Иван", "🔐 Проверить колоду"}},
			`<a href="tg://user?id=3">Иван</a>, 🔐 Проверить колоду:` + "\nthe answer"},
		{"nothing said of what was asked", []Asker{{1, "Alice", ""}}, `<a href="tg://user?id=1">Alice</a>:` + "\nthe answer"},
		{"a hostile name", []Asker{{4, hostile, "/stats <x>"}},
			`<a href="tg://user?id=4">Bob &lt;b&gt;&amp;</a>, /stats &lt;x&gt;:` + "\nthe answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewDigestPart(tt.askers, "the answer")
			m := Digest([]DigestPart{p})
			assert.Equal(t, tt.want, m.Text)
			assert.Equal(t, visibleLen(m.Text), p.size)
			checkHTML(t, m.Text, tt.name)
			assert.Empty(t, m.Keyboard)
		})
	}
}

// TestDigestKeepsTheOrderAndEachLanguage: the parts go in the order
// given, a blank line between two; the digest adds no word of its own,
// so answers in Russian and Ukrainian read as they were written, in
// any chat.
func TestDigestKeepsTheOrderAndEachLanguage(t *testing.T) {
	answers := []struct {
		asker Asker
		text  string
	}{
		{Asker{1, "Иван", "/balance"}, Balance("Иван", 1000, i18n.RU).Text},
		{Asker{2, "Олена", "/balance"}, Balance("Олена", 250, i18n.UK).Text},
		{Asker{3, "Alice", "/rules"}, i18n.T(i18n.EN, i18n.Rules)},
	}
	var parts []DigestPart
	var want []string
	for _, a := range answers {
		parts = append(parts, NewDigestPart([]Asker{a.asker}, a.text))
		want = append(want, NameHTML(a.asker.Name)+", "+a.asker.Asked+":\n"+plainText(a.text))
	}
	require.Equal(t, len(parts), DigestFits(parts))
	m := Digest(parts)
	checkHTML(t, m.Text, "digest")
	assert.Equal(t, strings.Join(want, "\n\n"), plainText(m.Text))
	assert.LessOrEqual(t, visibleLen(m.Text), MaxText)
}

// TestDigestFitsMaxText: a digest holds the parts, from the first, whose
// text with the blank lines between them is within MaxText as Telegram
// counts it (UTF-16, tags left out); never one past the first that does
// not fit; and always the first, which goes alone otherwise.
func TestDigestFitsMaxText(t *testing.T) {
	part := func(size int) DigestPart {
		head := NewDigestPart([]Asker{{1, "Al", "/x"}}, "")
		body := strings.Repeat("🂡", (size-head.size)/2) + strings.Repeat("a", (size-head.size)%2)
		p := NewDigestPart([]Asker{{1, "Al", "/x"}}, body)
		require.Equal(t, size, p.size)
		return p
	}
	sep := len(digestSep)
	tests := []struct {
		name  string
		sizes []int
		want  int
	}{
		{"none", nil, 0},
		{"one", []int{100}, 1},
		{"one longer than a message", []int{MaxText + 10, 100}, 1},
		{"two to the character", []int{2000, MaxText - 2000 - sep}, 2},
		{"one character past", []int{2000, MaxText - 2000 - sep + 1}, 1},
		{"three, the third past", []int{1500, 1500, 1500}, 2},
		{"not one past the first that does not fit", []int{1500, 3000, 100}, 1},
		{"many small ones", []int{300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300}, 13},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var parts []DigestPart
			for _, s := range tt.sizes {
				parts = append(parts, part(s))
			}
			n := DigestFits(parts)
			assert.Equal(t, tt.want, n)
			if n > 1 {
				assert.LessOrEqual(t, visibleLen(Digest(parts[:n]).Text), MaxText)
			}
			if n < len(parts) && n > 0 {
				assert.Greater(t, visibleLen(Digest(parts[:n+1]).Text), MaxText, "the next would not fit")
			}
		})
	}
}
