package gametest

import (
	"strings"
)

// RecordChanges returns copies of a record's line (scheme ochko-cut-v1,
// as game.CutRecord writes it), each with one input changed by one byte so
// that the line still parses, keyed by the field changed: a hex digit of
// head, seed and cut (a cut of "-" becomes "00"), the last digit of link,
// game, circle and deck, and the first card dealt, to one not dealt (its
// suit, or when every suit of its rank was dealt its rank; dealt "-" has
// no change). The record each describes must fail its check: the tests of
// every checker run them.
func RecordChanges(line string) map[string]string {
	fields := strings.Fields(line)
	out := make(map[string]string)
	for i, f := range fields {
		name, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		var changed string
		switch name {
		case "head", "seed":
			changed = nextHexDigit(v, 7)
		case "cut":
			if v == "-" {
				changed = "00"
			} else {
				changed = nextHexDigit(v, len(v)-1)
			}
		case "link", "game", "circle", "deck":
			last := v[len(v)-1]
			if last == '9' {
				last = '8'
			} else {
				last++
			}
			changed = v[:len(v)-1] + string(last)
		case "dealt":
			if len(v) < 2 {
				continue
			}
			// Another card in place of the first: of its rank when one
			// is not dealt, else of another rank.
			for _, code := range otherCodes(v[:1]) {
				if !dealtHas(v, code) {
					changed = code + v[2:]
					break
				}
			}
		default:
			continue
		}
		g := append([]string(nil), fields...)
		g[i] = name + "=" + changed
		out[name] = strings.Join(g, " ")
	}
	return out
}

// nextHexDigit returns s with its hex digit at i replaced by the next one.
func nextHexDigit(s string, i int) string {
	const digits = "0123456789abcdef"
	d := digits[(strings.IndexByte(digits, s[i])+1)%len(digits)]
	return s[:i] + string(d) + s[i+1:]
}

// otherCodes returns the codes of every card, those of rank first.
func otherCodes(rank string) []string {
	const ranks, suits = "6789TJQKA", "shdc"
	var out []string
	for _, r := range rank + ranks {
		for _, s := range suits {
			out = append(out, string(r)+string(s))
		}
	}
	return out
}

// dealtHas reports whether the codes, two letters each, hold code.
func dealtHas(codes, code string) bool {
	for i := 0; i+2 <= len(codes); i += 2 {
		if codes[i:i+2] == code {
			return true
		}
	}
	return false
}
