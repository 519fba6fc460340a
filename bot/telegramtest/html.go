package telegramtest

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Entity type names, as the Bot API spells them.
const (
	EntityBold                 = "bold"
	EntityItalic               = "italic"
	EntityUnderline            = "underline"
	EntityStrikethrough        = "strikethrough"
	EntitySpoiler              = "spoiler"
	EntityCode                 = "code"
	EntityPre                  = "pre"
	EntityTextLink             = "text_link"
	EntityTextMention          = "text_mention"
	EntityCustomEmoji          = "custom_emoji"
	EntityBlockquote           = "blockquote"
	EntityExpandableBlockquote = "expandable_blockquote"
	EntityMention              = "mention"
	EntityHashtag              = "hashtag"
	EntityBotCommand           = "bot_command"
	EntityURL                  = "url"
	EntityDateTime             = "date_time"
)

// textSource reads bytes of a string, yielding 0 past its end, which is how
// Telegram's parsers (written against NUL-terminated strings) see the text.
type textSource string

func (t textSource) at(i int) byte {
	if i >= 0 && i < len(t) {
		return t[i]
	}
	return 0
}

// isSpaceOrEnd matches Telegram's is_space, which counts the terminating NUL.
func isSpaceOrEnd(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0 || c == '\v' || c == '\f'
}

func isASCIIAlnum(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// utf16Width is how many UTF-16 code units the character starting with
// byte c adds (0 for continuation bytes).
func utf16Width(c byte) int {
	switch {
	case c&0xC0 == 0x80:
		return 0
	case c >= 0xF0:
		return 2
	default:
		return 1
	}
}

// utf16Len returns the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n += utf16Width(s[i])
	}
	return n
}

// decodeHTMLEntity decodes a character reference at s[pos] == '&' the way
// Telegram does: numeric references and &lt; &gt; &amp; &quot; only, the
// semicolon optional. It returns the code point (0 if none) and the index
// after the reference.
func decodeHTMLEntity(s textSource, pos int) (rune, int) {
	end := pos + 1
	var code int64
	if s.at(pos+1) == '#' {
		end++
		if s.at(pos+2) == 'x' {
			end++
			for isHexDigit(s.at(end)) {
				code = code*16 + int64(hexValue(s.at(end)))
				end++
				if code > 0x10ffff {
					break
				}
			}
		} else {
			for c := s.at(end); '0' <= c && c <= '9'; c = s.at(end) {
				code = code*10 + int64(c-'0')
				end++
				if code > 0x10ffff {
					break
				}
			}
		}
		if code == 0 || code >= 0x10ffff || end-pos >= 10 {
			return 0, pos
		}
	} else {
		for c := s.at(end); ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z'); c = s.at(end) {
			end++
		}
		switch string(s[pos+1 : end]) {
		case "lt":
			code = '<'
		case "gt":
			code = '>'
		case "amp":
			code = '&'
		case "quot":
			code = '"'
		default:
			return 0, pos
		}
	}
	if s.at(end) == ';' {
		end++
	}
	return rune(code), end
}

func isHexDigit(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func hexValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	default:
		return int(c-'A') + 10
	}
}

var allowedHTMLTags = map[string]bool{
	"a": true, "b": true, "strong": true, "i": true, "em": true, "s": true, "strike": true, "del": true,
	"u": true, "ins": true, "tg-spoiler": true, "tg-emoji": true, "span": true, "pre": true, "code": true,
	"blockquote": true, "tg-time": true,
}

// linkResolver turns a link target into an entity: a text_mention for
// tg://user?id=N links to known users, else a text_link, or nothing for an
// invalid URL.
type linkResolver func(url string) (MessageEntity, bool)

// parseHTML parses Telegram's HTML dialect into plain text and entities,
// failing with Telegram's messages for what Telegram rejects.
func parseHTML(input string, link linkResolver) (string, []MessageEntity, error) {
	s := textSource(input)
	n := len(s)
	out := make([]byte, 0, n)
	utf16 := 0
	type openTag struct {
		name, arg  string
		expandable bool
		unix       int32 // tg-time's unix attribute
		offset     int
		outPos     int
	}
	var stack []openTag
	var entities []MessageEntity
	surrogate := false

	for i := 0; i < n; i++ {
		c := s[i]
		if c == '&' {
			if code, next := decodeHTMLEntity(s, i); code != 0 {
				if code >= 0xd800 && code <= 0xdfff {
					surrogate = true
				}
				out = utf8.AppendRune(out, code)
				utf16++
				if code > 0xffff {
					utf16++
				}
				i = next - 1
				continue
			}
		}
		if c != '<' {
			utf16 += utf16Width(c)
			out = append(out, c)
			continue
		}
		begin := i
		i++
		if s.at(i) != '/' {
			for !isSpaceOrEnd(s.at(i)) && s.at(i) != '>' {
				i++
			}
			if s.at(i) == 0 {
				return "", nil, parseErrorf("Unclosed start tag at byte offset %d", begin)
			}
			name := strings.ToLower(string(s[begin+1 : i]))
			if !allowedHTMLTags[name] {
				return "", nil, parseErrorf("Unsupported start tag \"%s\" at byte offset %d", name, begin)
			}
			arg := ""
			expandable := false
			var unix int32
			for s.at(i) != '>' {
				for s.at(i) != 0 && isSpaceOrEnd(s.at(i)) {
					i++
				}
				if s.at(i) == '>' {
					break
				}
				attrBegin := i
				for !isSpaceOrEnd(s.at(i)) && s.at(i) != '=' && s.at(i) != '>' {
					i++
				}
				attr := string(s[attrBegin:i])
				if attr == "" {
					return "", nil, parseErrorf("Empty attribute name in the tag \"%s\" at byte offset %d", name, begin)
				}
				for s.at(i) != 0 && isSpaceOrEnd(s.at(i)) {
					i++
				}
				if s.at(i) != '=' {
					if name == "blockquote" && attr == "expandable" {
						expandable = true
						continue
					}
					return "", nil, parseErrorf("Expected equal sign in declaration of an attribute of the tag \"%s\" at byte offset %d", name, begin)
				}
				i++
				for s.at(i) != 0 && isSpaceOrEnd(s.at(i)) {
					i++
				}
				if s.at(i) == 0 {
					return "", nil, parseErrorf("Unclosed start tag \"%s\" at byte offset %d", name, begin)
				}
				var value string
				if q := s.at(i); q != '\'' && q != '"' {
					tokenBegin := i
					for isASCIIAlnum(s.at(i)) || s.at(i) == '.' || s.at(i) == '-' {
						i++
					}
					value = strings.ToLower(string(s[tokenBegin:i]))
					if !isSpaceOrEnd(s.at(i)) && s.at(i) != '>' {
						return "", nil, parseErrorf("Unexpected end of name token at byte offset %d", tokenBegin)
					}
				} else {
					i++
					var v []byte
					for s.at(i) != q && s.at(i) != 0 {
						if s.at(i) == '&' {
							if code, next := decodeHTMLEntity(s, i); code != 0 {
								v = utf8.AppendRune(v, code)
								i = next
								continue
							}
						}
						v = append(v, s[i])
						i++
					}
					if s.at(i) == q {
						i++
					}
					value = string(v)
				}
				if s.at(i) == 0 {
					return "", nil, parseErrorf("Unclosed start tag at byte offset %d", begin)
				}
				switch {
				case name == "a" && attr == "href":
					arg = value
				case name == "code" && attr == "class" && strings.HasPrefix(value, "language-"):
					arg = value[len("language-"):]
				case name == "span" && attr == "class" && strings.HasPrefix(value, "tg-"):
					arg = value[len("tg-"):]
				case name == "tg-emoji" && attr == "emoji-id":
					arg = value
				case name == "tg-time" && attr == "unix":
					unix = tdInt32(value)
				case name == "tg-time" && attr == "format":
					arg = value
				}
			}
			if name == "span" && arg != "spoiler" {
				return "", nil, parseErrorf("Tag \"span\" must have class \"tg-spoiler\" at byte offset %d", begin)
			}
			stack = append(stack, openTag{name: name, arg: arg, expandable: expandable, unix: unix, offset: utf16, outPos: len(out)})
			continue
		}
		// An end tag.
		if len(stack) == 0 {
			return "", nil, parseErrorf("Unexpected end tag at byte offset %d", begin)
		}
		for !isSpaceOrEnd(s.at(i)) && s.at(i) != '>' {
			i++
		}
		endName := strings.ToLower(string(s[begin+2 : i]))
		for s.at(i) != 0 && isSpaceOrEnd(s.at(i)) {
			i++
		}
		if s.at(i) != '>' {
			return "", nil, parseErrorf("Unclosed end tag at byte offset %d", begin)
		}
		top := stack[len(stack)-1]
		if endName != "" && endName != top.name {
			return "", nil, parseErrorf("Unmatched end tag at byte offset %d, expected \"</%s>\", found \"</%s>\"", begin, top.name, endName)
		}
		stack = stack[:len(stack)-1]
		if utf16 <= top.offset {
			continue
		}
		e := MessageEntity{Offset: top.offset, Length: utf16 - top.offset}
		switch top.name {
		case "i", "em":
			e.Type = EntityItalic
		case "b", "strong":
			e.Type = EntityBold
		case "s", "strike", "del":
			e.Type = EntityStrikethrough
		case "u", "ins":
			e.Type = EntityUnderline
		case "tg-spoiler", "span":
			e.Type = EntitySpoiler
		case "tg-emoji":
			id, err := strconv.ParseInt(top.arg, 10, 64)
			if err != nil || id == 0 {
				return "", nil, parseErrorf("Invalid custom emoji identifier specified")
			}
			e.Type, e.CustomEmojiID = EntityCustomEmoji, top.arg
		case "tg-time":
			// td's parse_html: the format is checked first
			// (FormattedDate::get_date_flags), and a unix time that is
			// absent, 0 or negative leaves the text with no entity.
			format, ok := dateTimeFormat(top.arg)
			if !ok {
				return "", nil, parseErrorf("Invalid date format used")
			}
			if top.unix <= 0 {
				continue
			}
			e.Type, e.UnixTime, e.DateTimeFormat = EntityDateTime, int64(top.unix), format
		case "a":
			target := top.arg
			if target == "" {
				target = string(out[top.outPos:])
			}
			le, ok := link(target)
			if !ok {
				continue
			}
			le.Offset, le.Length = e.Offset, e.Length
			e = le
		case "pre":
			if k := len(entities) - 1; k >= 0 && entities[k].Type == EntityCode && entities[k].Offset == e.Offset &&
				entities[k].Length == e.Length && entities[k].Language != "" {
				entities[k].Type = EntityPre
				continue
			}
			e.Type = EntityPre
		case "code":
			if k := len(entities) - 1; k >= 0 && entities[k].Type == EntityPre && entities[k].Offset == e.Offset &&
				entities[k].Length == e.Length && top.arg != "" {
				entities[k].Language = top.arg
				continue
			}
			e.Type, e.Language = EntityCode, top.arg
		case "blockquote":
			e.Type = EntityBlockquote
			if top.expandable {
				e.Type = EntityExpandableBlockquote
			}
		}
		entities = append(entities, e)
	}
	if len(stack) > 0 {
		return "", nil, parseErrorf("Can't find end tag corresponding to start tag %s", stack[len(stack)-1].name)
	}
	for k := range entities {
		if entities[k].Type == EntityCode {
			entities[k].Language = ""
		}
	}
	if surrogate || !utf8.Valid(out) {
		return "", nil, parseErrorf("Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units")
	}
	return string(out), entities, nil
}

// tdInt32 reads a number as td's to_integer<int32> does: an optional '-'
// and the digits that follow, up to the first other character (none: 0),
// wrapping past 32 bits.
func tdInt32(s string) int32 {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var v uint32
	for i := 0; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		v = v*10 + uint32(s[i]-'0')
	}
	if neg {
		v = -v
	}
	return int32(v)
}

// dateTimeFormat checks a tg-time format as td does
// (FormattedDate::get_date_flags: "r" or "R" is relative, else any of
// t T d D w W, each a flag) and returns it as the Bot API reports it in
// date_time_format (telegram-bot-api Client.cpp, JsonEntity: "r", or the
// day of week "w", then the date "d" or "D", then the time "t" or "T",
// the short form winning when both were given; "" for no flag, which
// shows the text as it is).
func dateTimeFormat(format string) (string, bool) {
	if format == "r" || format == "R" {
		return "r", true
	}
	var shortTime, longTime, shortDate, longDate, weekday bool
	for _, c := range format {
		switch c {
		case 't':
			shortTime = true
		case 'T':
			longTime = true
		case 'd':
			shortDate = true
		case 'D':
			longDate = true
		case 'w', 'W':
			weekday = true
		default:
			return "", false
		}
	}
	out := ""
	if weekday {
		out += "w"
	}
	switch {
	case shortDate:
		out += "d"
	case longDate:
		out += "D"
	}
	switch {
	case shortTime:
		out += "t"
	case longTime:
		out += "T"
	}
	return out, true
}

// parseError is a text-parsing failure worded exactly as Telegram words it
// (capitalised: it follows "can't parse entities: " in the description).
type parseError string

// Error returns Telegram's wording.
func (e parseError) Error() string { return string(e) }

func parseErrorf(format string, args ...any) error { return parseError(fmt.Sprintf(format, args...)) }
