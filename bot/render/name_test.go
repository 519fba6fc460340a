package render

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

func TestNameLeavesOutWhatReordersOrHides(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Alice", "Alice"},
		{"Cyrillic", "Алиса", "Алиса"},
		{"Arabic", "محمد", "محمد"},
		{"right-to-left override", "\u202Eecila", "ecila"},
		{"override closed", "Bob\u202E 01 sniw\u202C", "Bob 01 sniw"},
		{"every embedding and override", "\u202AA\u202BB\u202CC\u202DD\u202EE", "ABCDE"},
		{"isolates", "\u2066A\u2067B\u2068C\u2069", "ABC"},
		{"directional marks", "\u200EA\u200FB\u061CC", "ABC"},
		{"zero-width space inside", "Al\u200Bice", "Alice"},
		{"zero-width non-joiner and joiner in a word", "Al\u200Ci\u200Dce", "Alice"},
		{"word joiner and BOM", "\uFEFFAli\u2060ce", "Alice"},
		{"soft hyphen", "Al\u00ADice", "Alice"},
		{"invisible operators", "A\u2061\u2062\u2063\u2064B", "AB"},
		{"Mongolian vowel separator", "A\u180EB", "AB"},
		{"tags", "A\U000E0041\U000E007FB", "AB"},
		{"controls become spaces", "Bob\nthe\tbuilder\x00", "Bob the builder "},
		{"line separators become spaces", "Bob\u2028Carol\u2029", "Bob Carol "},
		{"emoji joined", "👩\u200D💻 Eve", "👩\u200D💻 Eve"},
		{"emoji with a skin tone joined", "👩🏽\u200D🚀", "👩🏽\u200D🚀"},
		{"emoji with a presentation selector joined", "🏳\uFE0F\u200D🌈", "🏳\uFE0F\u200D🌈"},
		{"joiner after a letter", "A\u200D💻", "A💻"},
		{"joiner at the end", "💻\u200D", "💻"},
		{"only zero-width", "\u200B\u200C\u200D\u2060\uFEFF", "?"},
		{"only bidi controls", "\u202E\u2066\u200F", "?"},
		{"only Hangul fillers", "\u3164\u115F\u1160\uFFA0", "?"},
		{"Hangul filler beside a name", "\u3164Bob", "Bob"},
		{"only blank braille", "\u2800\u2800", "?"},
		{"only spaces", " \u00A0\u3000 ", "?"},
		{"only combining marks", "\u0301\u20E3", "?"},
		{"empty", "", "?"},
		{"zalgo keeps its letter", "Z\u0301\u0302", "Z\u0301\u0302"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Name(tt.in))
		})
	}
}

func TestNameHTMLEscapes(t *testing.T) {
	assert.Equal(t, "&lt;b&gt;Bob&amp;", NameHTML("<b>\u202EBob&"))
}

// hidden reports whether s holds a character Name leaves out, bar a joiner.
func hidden(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return r != zeroWidthJoiner && (unicode.Is(unicode.Cf, r) || hangulFiller(r))
	})
}

func TestTablesShowNamesAsNameDoes(t *testing.T) {
	names := map[game.UserID]string{alice: "\u202EecilA", bob: "B\u200Bob\u2066", carol: "\u3164", dave: "Da\uFEFFve", eve: "E\u200Fve"}
	for _, sc := range append([]scenario{{"full_log", fullLog}}, scenarios...) {
		p := sc.play(t, names)
		for _, st := range p.States {
			for _, lang := range i18n.Langs() {
				in := p.inputFor(st, lang)
				table := Table(in).Text
				assert.False(t, hidden(table), "%s: %q", sc.name, table)
				if st.Phase() == game.Lobby && st.NumSeats() > 0 {
					assert.Contains(t, table, "ecilA", sc.name)
				}
				if summary := Summary(in).Text; hidden(summary) {
					assert.Fail(t, "a hidden character", "%s: %q", sc.name, summary)
				}
			}
		}
	}
}

// TestShownName: the house's name in the table's language, else the
// current name from Names, else the kept one, as Name makes them safe.
func TestShownName(t *testing.T) {
	in := Input{Lang: i18n.RU, Names: map[game.UserID]string{2: "Bobby\u202E"}}
	assert.Equal(t, i18n.T(i18n.RU, i18n.HouseName), in.ShownName(house.ID, "House"))
	assert.Equal(t, "Bobby", in.ShownName(2, "Bob"))
	assert.Equal(t, "Carol", in.ShownName(3, "Carol"))
	assert.Equal(t, "?", in.ShownName(4, "\u200B"))
}
