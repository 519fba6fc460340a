package telegramtest

import (
	"strconv"
	"strings"
)

// mdKind is an entity kind while parsing Markdown, named in errors the way
// Telegram names it ("Can't find end of Bold entity …").
type mdKind int

const (
	mdNone mdKind = iota
	mdBold
	mdItalic
	mdUnderline
	mdStrikethrough
	mdSpoiler
	mdCode
	mdPre
	mdPreCode
	mdTextURL
	mdCustomEmoji
	mdBlockQuote
)

// String names the kind the way Telegram's error messages do.
func (k mdKind) String() string {
	return [...]string{"None", "Bold", "Italic", "Underline", "Strikethrough", "Spoiler", "Code", "Pre", "PreCode",
		"TextUrl", "CustomEmoji", "BlockQuote"}[k]
}

func (k mdKind) entityType() string {
	switch k {
	case mdBold:
		return EntityBold
	case mdItalic:
		return EntityItalic
	case mdUnderline:
		return EntityUnderline
	case mdStrikethrough:
		return EntityStrikethrough
	case mdSpoiler:
		return EntitySpoiler
	case mdCode:
		return EntityCode
	case mdPre, mdPreCode:
		return EntityPre
	case mdCustomEmoji:
		return EntityCustomEmoji
	case mdBlockQuote:
		return EntityBlockquote
	}
	return EntityTextLink
}

func reservedError(c byte) error {
	return parseErrorf("Character '%c' is reserved and must be escaped with the preceding '\\'", c)
}

// parseMarkdownV2 parses Telegram's MarkdownV2 into plain text and entities.
func parseMarkdownV2(input string, link linkResolver) (string, []MessageEntity, error) {
	s := textSource(input)
	n := len(s)
	out := make([]byte, 0, n)
	utf16 := 0
	type openEntity struct {
		kind       mdKind
		arg        string
		offset     int
		byteOffset int
		outPos     int
	}
	var stack []openEntity
	var entities []MessageEntity
	haveBlockquote := false

	for i := 0; i < n; i++ {
		c := s[i]
		if c == '\\' && s.at(i+1) > 0 && s.at(i+1) <= 126 {
			i++
			utf16++
			out = append(out, s[i])
			continue
		}
		reserved := "_*[]()~`>#+-=|{}.!\n"
		if len(stack) > 0 {
			switch stack[len(stack)-1].kind {
			case mdCode, mdPre, mdPreCode:
				reserved = "`"
			}
		}
		if strings.IndexByte(reserved, c) < 0 {
			utf16 += utf16Width(c)
			out = append(out, c)
			continue
		}
		isEnd := false
		if len(stack) > 0 {
			if haveBlockquote && c == '\n' && (i+1 == n || s[i+1] != '>') {
				isEnd = true
			} else {
				switch stack[len(stack)-1].kind {
				case mdBold:
					isEnd = c == '*'
				case mdItalic:
					isEnd = c == '_' && s.at(i+1) != '_'
				case mdCode:
					isEnd = c == '`'
				case mdPre, mdPreCode:
					isEnd = c == '`' && s.at(i+1) == '`' && s.at(i+2) == '`'
				case mdTextURL, mdCustomEmoji:
					isEnd = c == ']'
				case mdUnderline:
					isEnd = c == '_' && s.at(i+1) == '_'
				case mdStrikethrough:
					isEnd = c == '~'
				case mdSpoiler:
					isEnd = c == '|' && s.at(i+1) == '|'
				}
			}
		}
		if !isEnd {
			kind := mdNone
			arg := ""
			byteOffset := i
			switch c {
			case '_':
				if s.at(i+1) == '_' {
					kind = mdUnderline
					i++
				} else {
					kind = mdItalic
				}
			case '*':
				kind = mdBold
			case '~':
				kind = mdStrikethrough
			case '|':
				if s.at(i+1) != '|' {
					return "", nil, reservedError(c)
				}
				i++
				kind = mdSpoiler
			case '[':
				kind = mdTextURL
			case '`':
				if s.at(i+1) == '`' && s.at(i+2) == '`' {
					i += 3
					kind = mdPre
					langEnd := i
					for !isSpaceOrEnd(s.at(langEnd)) && s.at(langEnd) != '`' {
						langEnd++
					}
					if i != langEnd && langEnd < n && s.at(langEnd) != '`' {
						kind = mdPreCode
						arg = string(s[i:langEnd])
						i = langEnd
					}
					if s.at(i) == '\n' || s.at(i) == '\r' {
						if (s.at(i+1) == '\n' || s.at(i+1) == '\r') && s.at(i) != s.at(i+1) {
							i += 2
						} else {
							i++
						}
					}
					i--
				} else {
					kind = mdCode
				}
			case '!':
				if s.at(i+1) != '[' {
					return "", nil, reservedError(c)
				}
				i++
				kind = mdCustomEmoji
			case '\n':
				utf16++
				out = append(out, '\n')
				if i+1 < n && s[i+1] == '>' {
					i++
					if !haveBlockquote {
						kind = mdBlockQuote
						haveBlockquote = true
					}
				}
			case '>':
				if i != 0 {
					return "", nil, reservedError(c)
				}
				kind = mdBlockQuote
				haveBlockquote = true
			default:
				return "", nil, reservedError(c)
			}
			if kind == mdNone {
				continue
			}
			stack = append(stack, openEntity{kind: kind, arg: arg, offset: utf16, byteOffset: byteOffset, outPos: len(out)})
			continue
		}
		top := stack[len(stack)-1]
		if c == '\n' && top.kind != mdBlockQuote {
			return "", nil, parseErrorf("Can't find end of %s entity at byte offset %d", top.kind, top.byteOffset)
		}
		skip := utf16 == top.offset
		e := MessageEntity{Type: top.kind.entityType(), Offset: top.offset}
		switch top.kind {
		case mdUnderline, mdSpoiler:
			i++
		case mdPre, mdPreCode:
			i += 2
			e.Language = top.arg
		case mdTextURL:
			var target string
			if s.at(i+1) != '(' {
				target = string(out[top.outPos:])
			} else {
				i += 2
				urlBegin := i
				var b []byte
				for i < n && s[i] != ')' {
					if s[i] == '\\' && s.at(i+1) > 0 && s.at(i+1) <= 126 {
						b = append(b, s[i+1])
						i += 2
						continue
					}
					b = append(b, s[i])
					i++
				}
				if s.at(i) != ')' {
					return "", nil, parseErrorf("Can't find end of a URL at byte offset %d", urlBegin)
				}
				target = string(b)
			}
			le, ok := link(target)
			if !ok {
				skip = true
			}
			le.Offset = e.Offset
			e = le
		case mdCustomEmoji:
			if s.at(i+1) != '(' {
				return "", nil, parseErrorf("Custom emoji entity must contain a tg://emoji URL")
			}
			i += 2
			urlBegin := i
			var b []byte
			for i < n && s[i] != ')' {
				if s[i] == '\\' && s.at(i+1) > 0 && s.at(i+1) <= 126 {
					b = append(b, s[i+1])
					i += 2
					continue
				}
				b = append(b, s[i])
				i++
			}
			if s.at(i) != ')' {
				return "", nil, parseErrorf("Can't find end of a custom emoji URL at byte offset %d", urlBegin)
			}
			id, ok := strings.CutPrefix(string(b), "tg://emoji?id=")
			if n, err := strconv.ParseInt(id, 10, 64); !ok || err != nil || n == 0 {
				return "", nil, parseErrorf("Invalid custom emoji URL specified")
			}
			e.CustomEmojiID = id
		case mdBlockQuote:
			haveBlockquote = false
			out = append(out, s[i])
			utf16++
		}
		if !skip {
			e.Length = utf16 - top.offset
			entities = append(entities, e)
		}
		stack = stack[:len(stack)-1]
	}
	if haveBlockquote && len(stack) > 0 && stack[len(stack)-1].kind == mdBlockQuote {
		top := stack[len(stack)-1]
		if utf16 > top.offset {
			entities = append(entities, MessageEntity{Type: EntityBlockquote, Offset: top.offset, Length: utf16 - top.offset})
		}
		stack = stack[:len(stack)-1]
	}
	if len(stack) > 0 {
		top := stack[len(stack)-1]
		return "", nil, parseErrorf("Can't find end of %s entity at byte offset %d", top.kind, top.byteOffset)
	}
	return string(out), entities, nil
}

// parseMarkdown parses Telegram's legacy Markdown (parse_mode "Markdown").
func parseMarkdown(input string, link linkResolver) (string, []MessageEntity, error) {
	s := textSource(input)
	n := len(s)
	out := make([]byte, 0, n)
	utf16 := 0
	var entities []MessageEntity
	for i := 0; i < n; i++ {
		c := s[i]
		if c == '\\' && (s.at(i+1) == '_' || s.at(i+1) == '*' || s.at(i+1) == '`' || s.at(i+1) == '[') {
			i++
			out = append(out, s[i])
			utf16++
			continue
		}
		if c != '_' && c != '*' && c != '`' && c != '[' {
			utf16 += utf16Width(c)
			out = append(out, c)
			continue
		}
		begin := i
		end := c
		if c == '[' {
			end = ']'
		}
		i++
		isPre := false
		language := ""
		if c == '`' && s.at(i) == '`' && s.at(i+1) == '`' {
			i += 2
			isPre = true
			langEnd := i
			for !isSpaceOrEnd(s.at(langEnd)) && s.at(langEnd) != '`' {
				langEnd++
			}
			if i != langEnd && langEnd < n && s.at(langEnd) != '`' {
				language = string(s[i:langEnd])
				i = langEnd
			}
			if s.at(i) == '\n' || s.at(i) == '\r' {
				if (s.at(i+1) == '\n' || s.at(i+1) == '\r') && s.at(i) != s.at(i+1) {
					i += 2
				} else {
					i++
				}
			}
		}
		offset := utf16
		for i < n && (s[i] != end || (isPre && !(s.at(i+1) == '`' && s.at(i+2) == '`'))) {
			utf16 += utf16Width(s[i])
			out = append(out, s[i])
			i++
		}
		if i == n {
			return "", nil, parseErrorf("Can't find end of the entity starting at byte offset %d", begin)
		}
		if offset != utf16 {
			e := MessageEntity{Offset: offset, Length: utf16 - offset}
			keep := true
			switch c {
			case '_':
				e.Type = EntityItalic
			case '*':
				e.Type = EntityBold
			case '[':
				var target string
				if s.at(i+1) != '(' {
					target = string(s[begin+1 : i])
				} else {
					i += 2
					var b []byte
					for i < n && s[i] != ')' {
						b = append(b, s[i])
						i++
					}
					target = string(b)
				}
				le, ok := link(target)
				keep = ok
				le.Offset, le.Length = e.Offset, e.Length
				e = le
			case '`':
				e.Type = EntityCode
				if isPre {
					e.Type, e.Language = EntityPre, language
				}
			}
			if keep {
				entities = append(entities, e)
			}
		}
		if isPre {
			i += 2
		}
	}
	return string(out), entities, nil
}
