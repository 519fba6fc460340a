package callback

import (
	"errors"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"j:3", "l:0", "s:17", "b:42:10", "h:43", "d:44", "n:99", "c:123:stake:25", "c:1:bets:x2",
		"c:1:bets:b10", "c:1:lang:ru", "c:1:knocks:0", "i:knocks", "o:1:stake", "o:0:lang", "k:1", "k:0", "o:1", "k:1:stake", "v:17", "b:9007199254740991:1000000000000000",
		"", "j:01", "b:1:-1", "c:1:stake:0", "z:1", "j:1:", "c:9007199254740992:stake:10",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse(%q): %v does not wrap ErrInvalid", s, err)
			}
			if d != (Data{}) {
				t.Fatalf("Parse(%q) failed but returned %+v", s, d)
			}
			return
		}
		if got := d.String(); got != s {
			t.Fatalf("Parse(%q) = %+v, which encodes to %q", s, d, got)
		}
		if len(s) > MaxLen {
			t.Fatalf("Parse accepted %d bytes", len(s))
		}
	})
}
