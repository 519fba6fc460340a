package telegramtest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The results of answerInlineQuery and answerGuestQuery, parsed as the
// official server parses them: Client.cpp first (get_inline_query_result),
// then td (InlineQueriesManager::get_input_bot_inline_result), then the
// MTProto server.

// parsedResult is one result as Client.cpp parsed it, with what td and
// the MTProto server would still refuse of it.
type parsedResult struct {
	result InlineResult
	// blank: td finds the text empty once parsed and trimmed.
	blank bool
	// serverErr is what the MTProto server refuses of it, nil if nothing.
	serverErr *apiError
}

type parsedResults []parsedResult

func (rs parsedResults) results() []InlineResult {
	out := make([]InlineResult, len(rs))
	for i, r := range rs {
		out[i] = r.result
	}
	return out
}

// tdError is what td refuses of the results before it asks the server:
// a text that is empty once parsed (MessageEntity.cpp, fix_formatted_text:
// "Text must be non-empty").
func (rs parsedResults) tdError() *apiError {
	for _, r := range rs {
		if r.blank {
			return errInlineTextBlank
		}
	}
	return nil
}

// serverError is what the MTProto server refuses of the results, the
// first result's first.
func (rs parsedResults) serverError() *apiError {
	seen := map[string]bool{}
	for _, r := range rs {
		switch {
		case r.result.ID == "" || len(r.result.ID) > maxResultID:
			return errResultIDInvalid
		case seen[r.result.ID]:
			return errResultIDDup
		case r.serverErr != nil:
			return r.serverErr
		}
		seen[r.result.ID] = true
	}
	return nil
}

// inlineResultsLocked parses answerInlineQuery's results as Client.cpp's
// get_inline_query_results does.
func (s *Server) inlineResultsLocked(arg string) (parsedResults, *apiError) {
	if arg == "" {
		return nil, nil
	}
	v, ok := decodeJSONValue(arg)
	if !ok {
		return nil, badRequest("can't parse JSON encoded inline query results")
	}
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, badRequest("expected an Array of inline query results")
	}
	if len(list) > maxInlineResults {
		return nil, errTooManyResults
	}
	out := make(parsedResults, 0, len(list))
	for _, item := range list {
		r, msg := s.inlineResultLocked(item)
		if msg != "" {
			return nil, badRequest(lowerFirst("Can't parse inline query result: " + msg))
		}
		out = append(out, r)
	}
	return out, nil
}

// inlineResultTypes are the other result types of the Bot API, which are
// not modelled (Client.cpp, get_inline_query_result).
var inlineResultTypes = map[string]bool{"audio": true, "contact": true, "game": true, "document": true, "gif": true,
	"location": true, "mpeg4_gif": true, "photo": true, "sticker": true, "venue": true, "video": true, "voice": true}

// inlineResultLocked parses one result as Client.cpp's
// get_inline_query_result does, returning td's message ("" when it
// parses) for the caller to word.
func (s *Server) inlineResultLocked(v any) (parsedResult, string) {
	fields, ok := v.(map[string]any)
	if !ok {
		return parsedResult{}, "Inline query result must be an object"
	}
	kind, msg := tdString(fields, "type", true)
	if msg != "" {
		return parsedResult{}, msg
	}
	kind = strings.ToLower(kind)
	var r parsedResult
	if r.result.ID, msg = tdString(fields, "id", true); msg != "" {
		return parsedResult{}, msg
	}
	article := kind == "article"
	var text, parseMode string
	var hasEntities bool
	content, present := fields["input_message_content"]
	if present {
		obj, ok := content.(map[string]any)
		if !ok {
			return parsedResult{}, `Field "input_message_content" must be of type Object`
		}
		if text, msg = tdString(obj, "message_text", false); msg != "" {
			return parsedResult{}, msg
		}
		if text == "" {
			for _, other := range []string{"latitude", "phone_number", "payload"} {
				if _, ok := obj[other]; ok {
					return parsedResult{}, "InputMessageContent other than InputTextMessageContent is not modelled by telegramtest"
				}
			}
			if article {
				return parsedResult{}, "Input message content is not specified"
			}
		} else {
			if lp, ok := obj["link_preview_options"]; ok {
				if _, isObj := lp.(map[string]any); !isObj {
					return parsedResult{}, `Field "link_preview_options" must be of type Object`
				}
			} else if _, msg = tdBool(obj, "disable_web_page_preview"); msg != "" {
				return parsedResult{}, msg
			}
			if parseMode, msg = tdString(obj, "parse_mode", false); msg != "" {
				return parsedResult{}, msg
			}
			hasEntities = nonEmptyArray(obj["entities"])
		}
	} else {
		// Legacy: the text in the result itself (Client.cpp reads
		// message_text, disable_web_page_preview, parse_mode, entities).
		if text, msg = tdString(fields, "message_text", article); msg != "" {
			return parsedResult{}, msg
		}
		if _, msg = tdBool(fields, "disable_web_page_preview"); msg != "" {
			return parsedResult{}, msg
		}
		if parseMode, msg = tdString(fields, "parse_mode", false); msg != "" {
			return parsedResult{}, msg
		}
		hasEntities = nonEmptyArray(fields["entities"])
		if article && text == "" {
			return parsedResult{}, "Message text is empty"
		}
	}
	if text != "" {
		plain, entities, apiErr := s.formatTextLocked(text, parseMode, hasEntities && parseMode == "")
		switch apiErr {
		case nil:
			r.result.Text, r.result.Entities = plain, entities
		case errTextEmpty:
			r.blank = true
		case errTextTooLong:
			r.serverErr = errInlineTextLong
		default:
			return parsedResult{}, tdForm(apiErr)
		}
	}
	if raw, ok := fields["reply_markup"]; ok {
		obj, isObj := raw.(map[string]any)
		if !isObj {
			return parsedResult{}, `Field "reply_markup" must be of type Object`
		}
		markup, other, apiErr := parseReplyMarkup(mustJSON(obj))
		switch {
		case apiErr != nil && isServerError(apiErr):
			r.serverErr = apiErr
		case apiErr != nil:
			return parsedResult{}, tdForm(apiErr)
		case other != "":
			return parsedResult{}, "reply_markup with " + other + " is not modelled by telegramtest"
		case hasWebApp(markup):
			r.serverErr = errButtonTypeInvalid // an inline message is in no private chat of the bot's
		}
		r.result.ReplyMarkup = markup
	}
	switch {
	case article:
	case inlineResultTypes[kind]:
		return parsedResult{}, "inline query result of type " + kind + " is not modelled by telegramtest"
	default:
		return parsedResult{}, fmt.Sprintf("type %q is unsupported for the inline query result", kind)
	}
	if _, msg = tdString(fields, "url", false); msg != "" {
		return parsedResult{}, msg
	}
	if _, msg = tdBool(fields, "hide_url"); msg != "" {
		return parsedResult{}, msg
	}
	title, msg := tdString(fields, "title", true)
	if msg != "" {
		return parsedResult{}, msg
	}
	if r.result.Description, msg = tdString(fields, "description", false); msg != "" {
		return parsedResult{}, msg
	}
	r.result.Title = title
	if title == "" && r.serverErr == nil {
		r.serverErr = errArticleTitle
	}
	return r, ""
}

// tdString reads a string field as tdutils' JsonObject getters do (a
// number counts as its text), returning td's message on failure.
func tdString(fields map[string]any, name string, required bool) (string, string) {
	if _, ok := fields[name]; !ok {
		if required {
			return "", fmt.Sprintf("Can't find field %q", name)
		}
		return "", ""
	}
	s, apiErr := optionalString(fields, name)
	if apiErr != nil {
		return "", fmt.Sprintf("Field %q must be of type String", name)
	}
	return s, ""
}

// tdBool reads an optional Boolean field, returning td's message on failure.
func tdBool(fields map[string]any, name string) (bool, string) {
	b, apiErr := optionalBool(fields, name)
	if apiErr != nil {
		return false, fmt.Sprintf("Field %q must be of type Boolean", name)
	}
	return b, ""
}

// nonEmptyArray reports whether v is a JSON array with elements: only
// such an entities field gives entities (Client.cpp, get_formatted_text,
// reads an Array and ignores anything else).
func nonEmptyArray(v any) bool {
	list, ok := v.([]any)
	return ok && len(list) > 0
}

// lowerFirst words a td message as the official server does
// (fail_query_with_error): its first letter lowered, unless it is an
// MTProto error in capitals.
func lowerFirst(msg string) string {
	if len(msg) >= 2 && (msg[1] == '_' || 'A' <= msg[1] && msg[1] <= 'Z') {
		return msg
	}
	if msg != "" && 'A' <= msg[0] && msg[0] <= 'Z' {
		return string(msg[0]+'a'-'A') + msg[1:]
	}
	return msg
}

// tdForm is the td message behind one of this package's Bad Request
// errors, for wrapping in another: its first letter raised again.
func tdForm(e *apiError) string {
	msg := strings.TrimPrefix(e.description, "Bad Request: ")
	if msg != "" && 'a' <= msg[0] && msg[0] <= 'z' {
		return string(msg[0]-'a'+'A') + msg[1:]
	}
	return msg
}

// isServerError reports whether the error is the MTProto server's (its
// description all capitals, digits and underscores), which the official
// server meets only after parsing every argument.
func isServerError(e *apiError) bool {
	msg := strings.TrimPrefix(e.description, "Bad Request: ")
	for _, c := range msg {
		if c != '_' && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return msg != ""
}

// mustJSON re-encodes a decoded JSON value.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}
