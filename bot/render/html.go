package render

import (
	"strings"
	"unicode/utf8"
)

// escaper escapes the characters Telegram's HTML parse mode reads as markup.
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// escape makes s safe to put into Telegram HTML.
func escape(s string) string { return escaper.Replace(s) }

// bold wraps html in <b>.
func bold(html string) string { return "<b>" + html + "</b>" }

// code wraps html in <code>.
func code(html string) string { return "<code>" + html + "</code>" }

// visibleLen returns the length of html as Telegram counts it once parsed:
// UTF-16 code units of the text without tags, each entity one character. It
// reads the HTML this package writes: tags without '>' in them, and the
// entities escape writes.
func visibleLen(html string) int {
	n := 0
	for i := 0; i < len(html); {
		switch html[i] {
		case '<':
			end := strings.IndexByte(html[i:], '>')
			if end < 0 {
				return n + utf16Len(html[i:])
			}
			i += end + 1
			continue
		case '&':
			if end := strings.IndexByte(html[i:], ';'); end > 0 {
				n++
				i += end + 1
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(html[i:])
		n += runeUnits(r)
		i += size
	}
	return n
}

// utf16Len returns the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += runeUnits(r)
	}
	return n
}

func runeUnits(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// entities decodes the entities escape writes.
var entities = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`)

// plainText returns the text html shows: without tags, entities decoded.
// It reads the HTML this package writes.
func plainText(html string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(html, '<')
		if i < 0 {
			b.WriteString(html)
			break
		}
		b.WriteString(html[:i])
		end := strings.IndexByte(html[i:], '>')
		if end < 0 {
			break
		}
		html = html[i+end+1:]
	}
	return entities.Replace(b.String())
}

// truncate returns s cut to at most max UTF-16 code units, ending in an
// ellipsis when cut.
func truncate(s string, max int) string {
	if utf16Len(s) <= max {
		return s
	}
	var b strings.Builder
	units := 0
	for _, r := range s {
		u := runeUnits(r)
		if units+u > max-1 {
			break
		}
		b.WriteRune(r)
		units += u
	}
	if max >= 1 {
		b.WriteString(ellipsis)
	}
	return b.String()
}
