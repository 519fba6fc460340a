package telegramtest

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func plainLinks(target string) (MessageEntity, bool) {
	if u := checkedLink(target); u != "" {
		return MessageEntity{Type: EntityTextLink, URL: u}, true
	}
	return MessageEntity{}, false
}

func TestParseHTML(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     string
		entities []MessageEntity
		err      string
	}{
		{name: "plain", in: "21!", want: "21!"},
		{name: "bold and italic", in: "<b>Dealer</b> <i>wins</i>", want: "Dealer wins",
			entities: []MessageEntity{{Type: "bold", Offset: 0, Length: 6}, {Type: "italic", Offset: 7, Length: 4}}},
		{name: "aliases and case", in: "<STRONG>a</STRONG><em>b</em><ins>c</ins><del>d</del><tg-spoiler>e</tg-spoiler>", want: "abcde",
			entities: []MessageEntity{{Type: "bold", Offset: 0, Length: 1}, {Type: "italic", Offset: 1, Length: 1},
				{Type: "underline", Offset: 2, Length: 1}, {Type: "strikethrough", Offset: 3, Length: 1}, {Type: "spoiler", Offset: 4, Length: 1}}},
		{name: "entities decoded", in: "&lt;b&gt; &amp; &quot;q&quot; &#65;&#x42; &copy; &unknown", want: `<b> & "q" AB &copy; &unknown`},
		{name: "UTF-16 offsets", in: "🂡 <b>ace</b>", want: "🂡 ace", entities: []MessageEntity{{Type: "bold", Offset: 3, Length: 3}}},
		{name: "nested", in: "<b>x<i>y</i></b>", want: "xy",
			entities: []MessageEntity{{Type: "italic", Offset: 1, Length: 1}, {Type: "bold", Offset: 0, Length: 2}}},
		{name: "link", in: `<a href="https://Example.com">rules</a>`, want: "rules",
			entities: []MessageEntity{{Type: "text_link", Offset: 0, Length: 5, URL: "https://example.com/"}}},
		{name: "pre with language", in: `<pre><code class="language-go">x := 21</code></pre>`, want: "x := 21",
			entities: []MessageEntity{{Type: "pre", Offset: 0, Length: 7, Language: "go"}}},
		{name: "empty tag makes no entity", in: "a<b></b>b", want: "ab"},
		{name: "short end tag", in: "<b>x</>", want: "x", entities: []MessageEntity{{Type: "bold", Offset: 0, Length: 1}}},
		{name: "expandable blockquote", in: "<blockquote expandable>q</blockquote>", want: "q",
			entities: []MessageEntity{{Type: "expandable_blockquote", Offset: 0, Length: 1}}},
		// tg-time: td's parse_html and FormattedDate::get_date_flags;
		// date_time_format as telegram-bot-api's JsonEntity writes it.
		{name: "time", in: `ends <tg-time unix="1647531900" format="T">15:45:00 UTC</tg-time>`, want: "ends 15:45:00 UTC",
			entities: []MessageEntity{{Type: "date_time", Offset: 5, Length: 12, UnixTime: 1647531900, DateTimeFormat: "T"}}},
		{name: "time format in canonical order", in: `<tg-time unix="1647531900" format="TDw">x</tg-time>`, want: "x",
			entities: []MessageEntity{{Type: "date_time", Offset: 0, Length: 1, UnixTime: 1647531900, DateTimeFormat: "wDT"}}},
		{name: "short time wins", in: `<tg-time unix="1647531900" format="Tt">x</tg-time>`, want: "x",
			entities: []MessageEntity{{Type: "date_time", Offset: 0, Length: 1, UnixTime: 1647531900, DateTimeFormat: "t"}}},
		{name: "relative time", in: `<tg-time unix="1647531900" format="R">x</tg-time>`, want: "x",
			entities: []MessageEntity{{Type: "date_time", Offset: 0, Length: 1, UnixTime: 1647531900, DateTimeFormat: "r"}}},
		{name: "time without format", in: `<tg-time unix=1647531900>x</tg-time>`, want: "x",
			entities: []MessageEntity{{Type: "date_time", Offset: 0, Length: 1, UnixTime: 1647531900}}},
		{name: "unquoted format is lower-cased", in: `<tg-time unix=1647531900 format=T>x</tg-time>`, want: "x",
			entities: []MessageEntity{{Type: "date_time", Offset: 0, Length: 1, UnixTime: 1647531900, DateTimeFormat: "t"}}},
		{name: "time without unix makes no entity", in: `<tg-time format="t">x</tg-time>`, want: "x"},
		{name: "time at 0 makes no entity", in: `<tg-time unix="0x10" format="t">x</tg-time>`, want: "x"},
		{name: "invalid time format", in: `<tg-time unix="1647531900" format="hh:mm">x</tg-time>`, err: "Invalid date format used"},
		{name: "unsupported tag", in: "a <div>b</div>", err: `Unsupported start tag "div" at byte offset 2`},
		{name: "unclosed start tag", in: "a <b", err: "Unclosed start tag at byte offset 2"},
		{name: "missing end tag", in: "<b><i>x</i>", err: "Can't find end tag corresponding to start tag b"},
		{name: "unmatched end tag", in: "<b>x</i>", err: `Unmatched end tag at byte offset 4, expected "</b>", found "</i>"`},
		{name: "unexpected end tag", in: "x</b>", err: "Unexpected end tag at byte offset 1"},
		{name: "span without class", in: "<span>x</span>", err: `Tag "span" must have class "tg-spoiler" at byte offset 0`},
		{name: "attribute without value", in: `<a href>x</a>`, err: `Expected equal sign in declaration of an attribute of the tag "a" at byte offset 0`},
		{name: "surrogate reference", in: "&#55357;", err: "Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, entities, err := parseHTML(tt.in, plainLinks)
			if tt.err != "" {
				require.Error(t, err)
				assert.Equal(t, tt.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.entities, entities)
		})
	}
}

func TestDetectEntities(t *testing.T) {
	tests := []struct {
		in   string
		want []MessageEntity
	}{
		{"/start", []MessageEntity{{Type: "bot_command", Offset: 0, Length: 6}}},
		{"/start@dealer_bot now", []MessageEntity{{Type: "bot_command", Offset: 0, Length: 17}}},
		{"a/b and /x/y", nil},
		{"hi @alice_21!", []MessageEntity{{Type: "mention", Offset: 3, Length: 9}}},
		{"mail@example", nil},
		{"#blackjack #21", []MessageEntity{{Type: "hashtag", Offset: 0, Length: 10}}},
		{"see https://t.me/x.", []MessageEntity{{Type: "url", Offset: 4, Length: 14}}},
		{"😀 /hit", []MessageEntity{{Type: "bot_command", Offset: 3, Length: 4}}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, detectEntities(tt.in), "%q", tt.in)
	}
}

func TestTrimTextShiftsEntities(t *testing.T) {
	text, entities := trimText("  \n<b>x</b> y \n", []MessageEntity{{Type: "bold", Offset: 0, Length: 5}, {Type: "italic", Offset: 12, Length: 3}})
	assert.Equal(t, "<b>x</b> y", text)
	assert.Equal(t, []MessageEntity{{Type: "bold", Offset: 0, Length: 2}, {Type: "italic", Offset: 9, Length: 1}}, entities)
}

func TestUTF16Helpers(t *testing.T) {
	assert.Equal(t, 5, utf16Len("a😀bc"))
	assert.Equal(t, "😀b", utf16Slice("a😀bc", 1, 3))
	assert.Equal(t, "c", utf16Slice("a😀bc", 4, 1))
}

// TestDateTimeEntityJSON: a date_time entity always carries
// date_time_format, even empty, as telegram-bot-api's JsonEntity writes it;
// other entities carry neither of its fields.
func TestDateTimeEntityJSON(t *testing.T) {
	tests := []struct {
		name string
		e    MessageEntity
		want string
	}{
		{name: "long time", e: MessageEntity{Type: EntityDateTime, Length: 1, UnixTime: 1647531900, DateTimeFormat: "T"},
			want: `{"type":"date_time","offset":0,"length":1,"unix_time":1647531900,"date_time_format":"T"}`},
		{name: "no format", e: MessageEntity{Type: EntityDateTime, Length: 1, UnixTime: 1647531900},
			want: `{"type":"date_time","offset":0,"length":1,"unix_time":1647531900,"date_time_format":""}`},
		{name: "bold", e: MessageEntity{Type: EntityBold, Length: 1}, want: `{"type":"bold","offset":0,"length":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.e)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(b))
			assert.NotContains(t, string(b), `"plain"`)
		})
	}
}
