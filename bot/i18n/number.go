package i18n

import (
	"strconv"
	"strings"
)

// Separators used in numbers. Neither is a place to break a line at, so a
// number, and a number with its unit, never wraps across lines.
const (
	// NarrowNoBreakSpace separates thousands: "1 000".
	NarrowNoBreakSpace = "\u202F"
	// NoBreakSpace joins a number to its unit and the parts of a duration:
	// "10 s", "1 min 30 s", "5 chips".
	NoBreakSpace = "\u00A0"
	// Minus is the sign of negative numbers: "−20".
	Minus = "\u2212"
)

// Number formats n with narrow no-break spaces between thousands and a real
// minus sign: "1 000", "12 500", "−20". Both languages write numbers this way.
func Number(n int64) string {
	var sign string
	u := uint64(n)
	if n < 0 {
		sign, u = Minus, -u
	}
	digits := strconv.FormatUint(u, 10)
	if len(digits) <= 3 {
		return sign + digits
	}
	var b strings.Builder
	b.Grow(len(sign) + len(digits) + len(digits)/3*len(NarrowNoBreakSpace))
	b.WriteString(sign)
	head := len(digits) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(digits[:head])
	for i := head; i < len(digits); i += 3 {
		b.WriteString(NarrowNoBreakSpace)
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// Signed formats n as Number does, with a plus sign when it is positive:
// "+25", "−20", "0".
func Signed(n int64) string {
	if n > 0 {
		return "+" + Number(n)
	}
	return Number(n)
}

// Count formats n followed by the plural form of noun that goes with it:
// "1 chip", "5 chips"; "1 фишка", "2 фишки", "5 фишек", "21 фишка"; "1 фішка",
// "2 фішки", "5 фішок".
func Count(lang Lang, noun Key, n int64) string {
	forms := strings.Split(T(lang, noun), "|")
	return Number(n) + NoBreakSpace + forms[min(pluralForm(lang, n), len(forms)-1)]
}

// Chips formats an amount of chips: "1 000 chips", "5 фишек", "5 фішок".
func Chips(lang Lang, n int64) string { return Count(lang, NounChips, n) }

// pluralRules choose each language's plural form for a number (its
// absolute value); a language not listed counts as English does.
var pluralRules = map[Lang]func(u uint64) int{EN: oneOther, RU: oneFewMany, UK: oneFewMany}

// pluralForm returns the index of the plural form for n: English has one (0)
// and other (1); Russian and Ukrainian one (0), few (1) and many (2).
func pluralForm(lang Lang, n int64) int {
	u := uint64(n)
	if n < 0 {
		u = -u
	}
	rule, ok := pluralRules[lang]
	if !ok {
		rule = oneOther
	}
	return rule(u)
}

// oneOther is the English rule: one for 1, other for the rest.
func oneOther(u uint64) int {
	if u == 1 {
		return 0
	}
	return 1
}

// oneFewMany is the rule Russian and Ukrainian share (CLDR's): one for
// 1, 21, 31… but not 11; few for 2–4, 22–24… but not 12–14; many for the
// rest, 0 included.
func oneFewMany(u uint64) int {
	switch mod10, mod100 := u%10, u%100; {
	case mod10 == 1 && mod100 != 11:
		return 0
	case mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14):
		return 1
	}
	return 2
}
