package render

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/twentyone-bot/twentyone/bot/i18n"
)

// escaper escapes the characters Telegram's HTML parse mode reads as markup.
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// escape makes s safe to put into Telegram HTML.
func escape(s string) string { return escaper.Replace(s) }

// bold wraps html in <b>.
func bold(html string) string { return "<b>" + html + "</b>" }

// Formats of a shown time (Telegram's tg-time format). No time the bot
// shows has seconds: a turn shows the time left instead (i18n.Countdown).
const (
	// clockMinutes is the time of day: 18:40.
	clockMinutes = "t"
	// dateMinutes is the short date and the time of day.
	dateMinutes = "dt"
)

// timeTag shows at as a date_time entity (Telegram HTML's
// <tg-time unix="…" format="…">): each reader's client writes it in the
// reader's own time zone and language, so that it stays true however long
// the message goes unedited. The text inside is what a client without the
// entity shows: the time in UTC, written as the chat's language writes it
// (i18n.Clock, i18n.DateTime), to the minute as a clock shows it (the
// minute that has begun, as a client writes the entity too).
func timeTag(at time.Time, format string, lang i18n.Lang) string {
	utc := at.UTC()
	fallback := i18n.Clock(utc)
	if format == dateMinutes {
		fallback = i18n.DateTime(lang, utc)
	}
	return `<tg-time unix="` + strconv.FormatInt(at.Unix(), 10) + `" format="` + format + `">` + fallback + " UTC</tg-time>"
}

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
