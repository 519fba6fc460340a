package telegramtest

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTextLength is Telegram's limit on a message text, in UTF-16 code units
// after entity parsing.
const maxTextLength = 4096

// textArgsLocked reads the text of sendMessage and editMessageText as the
// official server does: link_preview_options first, then the text
// (formatTextLocked).
func (s *Server) textArgsLocked(p params) (string, []MessageEntity, *apiError) {
	if apiErr := linkPreviewArgs(p); apiErr != nil {
		return "", nil, apiErr
	}
	_, hasEntities := p.jsonArg("entities")
	return s.formatTextLocked(p.str("text"), p.str("parse_mode"), hasEntities)
}

// formatTextLocked turns the text and parse_mode of sendMessage and
// editMessageText into the stored plain text and entities, failing like
// Telegram. Only what the bot sends is modelled: a plain text or HTML. The
// entities parameter is read only without parse_mode, as Telegram reads it
// (Client::get_formatted_text), and is refused there, as are the Markdown
// parse modes: nothing here parses them.
func (s *Server) formatTextLocked(text, parseMode string, hasEntities bool) (string, []MessageEntity, *apiError) {
	if text == "" {
		return "", nil, errTextEmpty
	}
	if !utf8.ValidString(text) {
		return "", nil, badRequest("strings must be encoded in UTF-8")
	}
	plain := text
	var entities []MessageEntity
	switch strings.ToLower(parseMode) {
	case "":
		if hasEntities {
			return "", nil, notModelled("the entities parameter")
		}
	case "html":
		var err error
		if plain, entities, err = parseHTML(text, s.resolveLinkLocked); err != nil {
			return "", nil, badRequest("can't parse entities: " + err.Error())
		}
	case "markdown", "markdownv2":
		return "", nil, notModelled("parse_mode " + parseMode)
	default:
		return "", nil, badRequest("unsupported parse_mode")
	}
	plain, entities = trimText(plain, entities)
	if plain == "" {
		return "", nil, errTextEmpty
	}
	if utf16Len(plain) > maxTextLength {
		return "", nil, errTextTooLong
	}
	entities = mergeDetected(entities, detectEntities(plain))
	sortEntities(entities)
	return plain, entities, nil
}

// resolveLinkLocked checks a link target like Telegram: tg://user?id=N of a
// known user becomes a text_mention, a valid URL a text_link (normalised),
// anything else nothing.
func (s *Server) resolveLinkLocked(target string) (MessageEntity, bool) {
	target = strings.TrimSpace(target)
	if idText, ok := strings.CutPrefix(strings.ToLower(target), "tg://user?id="); ok {
		if id, err := strconv.ParseInt(idText, 10, 64); err == nil {
			if u, ok := s.w.users[id]; ok {
				user := *u
				return MessageEntity{Type: EntityTextMention, User: &user}, true
			}
		}
	}
	checked := checkedLink(target)
	if checked == "" {
		return MessageEntity{}, false
	}
	return MessageEntity{Type: EntityTextLink, URL: checked}, true
}

// checkedLink normalises a URL the way Telegram does for text links, or
// returns "" when Telegram would drop the link.
func checkedLink(target string) string {
	if target == "" || strings.ContainsAny(target, " \t\r\n") {
		return ""
	}
	if !strings.Contains(target, "://") && !strings.HasPrefix(strings.ToLower(target), "tg:") &&
		!strings.HasPrefix(strings.ToLower(target), "ton:") {
		target = "http://" + target
	}
	u, err := url.Parse(target)
	if err != nil {
		return ""
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" || strings.HasPrefix(u.Host, ".") || strings.HasSuffix(u.Host, ".") {
			return ""
		}
		u.Host = strings.ToLower(u.Host)
		if u.Path == "" {
			u.Path = "/"
		}
	case "tg", "ton":
	default:
		return ""
	}
	return u.String()
}

// trimText strips leading and trailing white space, shifting and clipping
// entities, as Telegram does before storing a text.
func trimText(text string, entities []MessageEntity) (string, []MessageEntity) {
	trimmedLeft := strings.TrimLeftFunc(text, unicode.IsSpace)
	lead := utf16Len(text[:len(text)-len(trimmedLeft)])
	trimmed := strings.TrimRightFunc(trimmedLeft, unicode.IsSpace)
	if lead == 0 && len(trimmed) == len(text) {
		return text, entities
	}
	total := utf16Len(trimmed)
	out := entities[:0:0]
	for _, e := range entities {
		start, end := e.Offset-lead, e.Offset+e.Length-lead
		start, end = max(start, 0), min(end, total)
		if end <= start {
			continue
		}
		e.Offset, e.Length = start, end-start
		out = append(out, e)
	}
	return trimmed, out
}

// typePriority orders entities starting at the same offset with the same
// length, as Telegram does.
var typePriority = map[string]int{
	EntityMention: 50, EntityHashtag: 50, EntityBotCommand: 50, EntityURL: 50, EntityBold: 90, EntityItalic: 91,
	EntityCode: 20, EntityPre: 11, EntityTextLink: 49, EntityTextMention: 49, EntityUnderline: 92,
	EntityStrikethrough: 93, EntityBlockquote: 0, EntityExpandableBlockquote: 0, EntitySpoiler: 94, EntityCustomEmoji: 99,
	EntityDateTime: 30,
}

func sortEntities(entities []MessageEntity) {
	sort.SliceStable(entities, func(i, j int) bool {
		a, b := entities[i], entities[j]
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		if a.Length != b.Length {
			return a.Length > b.Length
		}
		return typePriority[a.Type] < typePriority[b.Type]
	})
}

// mergeDetected adds auto-detected entities that do not overlap an entity
// that Telegram never nests them in (code, pre, links, mentions, emoji,
// dates: td counts FormattedDate among its pre entities).
func mergeDetected(entities, detected []MessageEntity) []MessageEntity {
	if len(detected) == 0 {
		return entities
	}
	for _, d := range detected {
		clash := false
		for _, e := range entities {
			switch e.Type {
			case EntityCode, EntityPre, EntityTextLink, EntityTextMention, EntityCustomEmoji, EntityDateTime:
			default:
				continue
			}
			if d.Offset < e.Offset+e.Length && e.Offset < d.Offset+d.Length {
				clash = true
				break
			}
		}
		if !clash {
			entities = append(entities, d)
		}
	}
	return entities
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r)
}

func isCommandByte(c byte) bool { return isASCIIAlnum(c) || c == '_' }

// detectEntities finds the entities Telegram recognises in any text:
// bot commands (/cmd, /cmd@bot), @mentions, #hashtags and http(s) URLs.
func detectEntities(text string) []MessageEntity {
	var out []MessageEntity
	// utf16At converts byte offsets to UTF-16 offsets incrementally.
	pos, units := 0, 0
	utf16At := func(b int) int {
		if b < pos {
			pos, units = 0, 0
		}
		for ; pos < b; pos++ {
			units += utf16Width(text[pos])
		}
		return units
	}
	add := func(kind string, from, to int) {
		start := utf16At(from)
		out = append(out, MessageEntity{Type: kind, Offset: start, Length: utf16At(to) - start})
	}
	prevRune := func(i int) rune {
		if i == 0 {
			return 0
		}
		r, _ := utf8.DecodeLastRuneInString(text[:i])
		return r
	}
	nextRune := func(i int) rune {
		if i >= len(text) {
			return 0
		}
		r, _ := utf8.DecodeRuneInString(text[i:])
		return r
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '/':
			if p := prevRune(i); isWordRune(p) || p == '/' || p == '<' || p == '>' {
				continue
			}
			j := i + 1
			for j < len(text) && isCommandByte(text[j]) {
				j++
			}
			if j-i-1 < 1 || j-i-1 > 64 {
				continue
			}
			end := j
			if j < len(text) && text[j] == '@' {
				k := j + 1
				for k < len(text) && isCommandByte(text[k]) {
					k++
				}
				if k-j-1 < 3 || k-j-1 > 32 {
					continue
				}
				end = k
			}
			if nx := nextRune(end); isWordRune(nx) || nx == '/' || nx == '<' || nx == '>' {
				continue
			}
			add(EntityBotCommand, i, end)
			i = end - 1
		case '@':
			if isWordRune(prevRune(i)) {
				continue
			}
			j := i + 1
			for j < len(text) && isCommandByte(text[j]) {
				j++
			}
			if j-i-1 < 3 || j-i-1 > 32 || isWordRune(nextRune(j)) {
				continue
			}
			add(EntityMention, i, j)
			i = j - 1
		case '#':
			if isWordRune(prevRune(i)) || prevRune(i) == '#' {
				continue
			}
			j := i + 1
			letter := false
			for j < len(text) {
				r, size := utf8.DecodeRuneInString(text[j:])
				if !isWordRune(r) {
					break
				}
				letter = letter || unicode.IsLetter(r)
				j += size
			}
			if j == i+1 || !letter || nextRune(j) == '#' {
				continue
			}
			add(EntityHashtag, i, j)
			i = j - 1
		case 'h', 'H':
			lower := strings.ToLower(text[i:min(len(text), i+8)])
			if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
				continue
			}
			if isWordRune(prevRune(i)) {
				continue
			}
			j := i
			for j < len(text) {
				r, size := utf8.DecodeRuneInString(text[j:])
				if unicode.IsSpace(r) || r == '<' || r == '>' || r == '"' {
					break
				}
				j += size
			}
			for j > i && strings.ContainsRune(".,;:!?)]}'", rune(text[j-1])) {
				j--
			}
			if u, err := url.Parse(text[i:j]); err != nil || u.Host == "" {
				continue
			}
			add(EntityURL, i, j)
			i = j - 1
		}
	}
	return out
}

// entitiesEqual compares entity lists field by field.
func entitiesEqual(a, b []MessageEntity) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Type != y.Type || x.Offset != y.Offset || x.Length != y.Length || x.URL != y.URL ||
			x.Language != y.Language || x.CustomEmojiID != y.CustomEmojiID ||
			x.UnixTime != y.UnixTime || x.DateTimeFormat != y.DateTimeFormat {
			return false
		}
		if (x.User == nil) != (y.User == nil) || (x.User != nil && x.User.ID != y.User.ID) {
			return false
		}
	}
	return true
}
