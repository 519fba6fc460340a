package render

import (
	"strings"
	"unicode"
)

// ellipsis ends a shortened name.
const ellipsis = "…"

// namer turns players' names into HTML, shortened to at most max UTF-16
// code units when max > 0.
type namer struct{ max int }

// html returns the name escaped and, if need be, shortened.
func (n namer) html(name string) string { return escape(n.plain(name)) }

// plain returns the name cleaned and, if need be, shortened.
func (n namer) plain(name string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, name)
	if strings.TrimSpace(name) == "" {
		name = "?"
	}
	if n.max <= 0 {
		return name
	}
	return truncate(name, n.max)
}
