package render

import (
	"strings"

	"github.com/twentyone-bot/twentyone/bot/i18n"
)

// line is one line of a message's text.
type line struct {
	html string
	// log marks a line of the duel log, which fit may leave out.
	log bool
	// results counts the results a log line shows (0 for a knock); from
	// and to are the bank before and after it, for the marker that says
	// what the lines left out did to the bank.
	results  int
	from, to int64
}

// nameLimits are the lengths names are shortened to, in turn, when the text
// does not fit even without the log; 0 leaves them whole.
var nameLimits = []int{0, 48, 32, 16, 8, 2}

// fit returns the table text within limit visible characters. It leaves out
// log lines first, oldest first, marking where they were; then shortens
// names, each time trying the whole log again. Should nothing fit (no state
// of game comes near), it drops lines from the end, and cuts the last one
// left as plain text.
func fit(in Input, limit int) string { return fitWith(in, limit, build) }

// fitWith is fit for the lines that draw makes.
func fitWith(in Input, limit int, draw func(Input, namer) []line) string {
	var lines []line
	for _, max := range nameLimits {
		lines = draw(in, namer{max: max})
		if text, ok := trimLog(lines, in.Lang, limit); ok {
			return text
		}
	}
	lines = dropLog(lines)
	for len(lines) > 1 && length(lines) > limit {
		lines = lines[:len(lines)-1]
	}
	if length(lines) > limit {
		return escape(truncate(plainText(join(lines)), limit))
	}
	return join(lines)
}

// trimLog leaves out as few of the oldest log lines as it takes to fit lines
// within limit, and reports whether it could. A marker stands in their
// place, saying how many results they held and how they moved the bank, so
// that the lines shown still add up to it; a knock line is left out with the
// circle it ended, never shown after the marker.
func trimLog(lines []line, lang i18n.Lang, limit int) (string, bool) {
	total := length(lines)
	if total <= limit {
		return join(lines), true
	}
	var logs []int
	for i, l := range lines {
		if l.log {
			logs = append(logs, i)
		}
	}
	results := 0
	for k, i := range logs {
		total -= visibleLen(lines[i].html) + 1
		results += lines[i].results
		if k+1 < len(logs) && lines[logs[k+1]].results == 0 {
			continue // a knock goes with the circle it ended
		}
		marker := line{html: escape(trimmed(lang, results, lines[logs[0]].from, lines[i].to))}
		if total+visibleLen(marker.html)+1 <= limit {
			return join(withoutLines(lines, logs[:k+1], marker)), true
		}
	}
	return "", false
}

// withoutLines returns lines without those at the indexes drop (ascending),
// with marker in place of the first.
func withoutLines(lines []line, drop []int, marker line) []line {
	out := make([]line, 0, len(lines)-len(drop)+1)
	d := 0
	for i, l := range lines {
		if d < len(drop) && drop[d] == i {
			if d == 0 {
				out = append(out, marker)
			}
			d++
			continue
		}
		out = append(out, l)
	}
	return out
}

// dropLog returns lines without the log.
func dropLog(lines []line) []line {
	out := make([]line, 0, len(lines))
	for _, l := range lines {
		if !l.log {
			out = append(out, l)
		}
	}
	return out
}

// length returns the visible length of lines joined by newlines.
func length(lines []line) int {
	n := max(len(lines)-1, 0)
	for _, l := range lines {
		n += visibleLen(l.html)
	}
	return n
}

// join joins lines with newlines, leaving out blank lines at either end and
// more than one in a row; the text only gets shorter.
func join(lines []line) string {
	var b strings.Builder
	blank := true // at the start, as after a blank line
	pending := false
	for _, l := range lines {
		if l.html == "" {
			pending = pending || !blank
			blank = true
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
			if pending {
				b.WriteByte('\n')
			}
		}
		b.WriteString(l.html)
		blank, pending = false, false
	}
	return b.String()
}
