package telegramtest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// legacyParams are the parameters of the methods served here that the
// current Bot API docs no longer list but the official server still reads
// (telegram-bot-api Client.cpp: get_reply_parameters falls back to
// reply_to_message_id and allow_sending_without_reply when the request has
// no reply_parameters; get_link_preview_options to
// disable_web_page_preview when it has no link_preview_options). The server
// accepts them too, and names them in Call.Legacy.
var legacyParams = []string{"disable_web_page_preview", "reply_to_message_id", "allow_sending_without_reply"}

// legacy returns the legacy parameters the request carries, in
// legacyParams' order.
func (p params) legacy() []string {
	var out []string
	for _, name := range legacyParams {
		if _, ok := p[name]; ok {
			out = append(out, name)
		}
	}
	return out
}

// replyTarget is the message a new message replies to.
type replyTarget struct {
	// messageID is 0 for no reply.
	messageID int64
	// inChat is reply_parameters.chat_id as given ("" for the chat the
	// message is sent to).
	inChat       string
	allowWithout bool
	// ephemeralID is reply_parameters.ephemeral_message_id (Bot API
	// 10.2): the incoming ephemeral message replied to, 0 for none.
	ephemeralID int64
}

// replyArgs reads the message a new message replies to as the official
// server's Client::get_reply_parameters does: from reply_parameters when
// the request has that parameter at all (even empty: no reply), else from
// the legacy reply_to_message_id and allow_sending_without_reply. A
// negative message id means no reply (get_message_id, and
// td::max(message_id, 0)).
func replyArgs(p params) (replyTarget, *apiError) {
	arg, present := p["reply_parameters"]
	if !present {
		return replyTarget{messageID: max(p.integer("reply_to_message_id", 0), 0),
			allowWithout: p.boolean("allow_sending_without_reply")}, nil
	}
	if arg == "" {
		return replyTarget{}, nil
	}
	obj, ok := decodeJSONValue(arg)
	if !ok {
		return replyTarget{}, badRequest("can't parse reply parameters JSON object")
	}
	fields, ok := obj.(map[string]any)
	if !ok {
		return replyTarget{}, badRequest("object expected as reply parameters")
	}
	if len(fields) == 0 {
		return replyTarget{}, nil
	}
	var r replyTarget
	var apiErr *apiError
	if r.inChat, apiErr = optionalString(fields, "chat_id"); apiErr != nil {
		return replyTarget{}, apiErr
	}
	// message_id is "Required if ephemeral_message_id isn't specified"
	// (Bot API 10.2); given both, the reply is to the ephemeral message.
	if r.ephemeralID, apiErr = optionalInt(fields, "ephemeral_message_id"); apiErr != nil {
		return replyTarget{}, apiErr
	}
	r.ephemeralID = max(r.ephemeralID, 0)
	if r.ephemeralID != 0 {
		r.messageID, apiErr = optionalInt(fields, "message_id")
	} else {
		r.messageID, apiErr = requiredInt(fields, "message_id")
	}
	if apiErr != nil {
		return replyTarget{}, apiErr
	}
	if r.allowWithout, apiErr = optionalBool(fields, "allow_sending_without_reply"); apiErr != nil {
		return replyTarget{}, apiErr
	}
	if _, apiErr = optionalString(fields, "quote"); apiErr != nil {
		return replyTarget{}, apiErr
	}
	r.messageID = max(r.messageID, 0)
	return r, nil
}

// linkPreviewArgs checks link_preview_options as the official server's
// Client::get_link_preview_options does (an empty or absent one falls back
// to the legacy disable_web_page_preview, which cannot fail). Link
// previews themselves are not modelled: no text here shows one.
func linkPreviewArgs(p params) *apiError {
	arg := p["link_preview_options"]
	if arg == "" {
		return nil
	}
	obj, ok := decodeJSONValue(arg)
	if !ok {
		return badRequest("can't parse link preview options JSON object")
	}
	fields, ok := obj.(map[string]any)
	if !ok {
		return badRequest("object expected as link preview options")
	}
	for _, name := range []string{"is_disabled", "url", "prefer_small_media", "prefer_large_media", "show_above_text"} {
		var apiErr *apiError
		if name == "url" {
			_, apiErr = optionalString(fields, name)
		} else {
			_, apiErr = optionalBool(fields, name)
		}
		if apiErr != nil {
			return apiErr
		}
	}
	return nil
}

// decodeJSONValue decodes one JSON value, keeping numbers as written.
func decodeJSONValue(s string) (any, bool) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := d.Token(); err == nil {
		return nil, false // more after the value
	}
	return v, true
}

// The field readers below answer as tdutils' JsonObject getters do
// (td/utils/JsonBuilder.cpp), with the first letter lowered as the
// official server lowers it in fail_query_with_error.

// optionalString reads a string field; a number counts as its text.
func optionalString(fields map[string]any, name string) (string, *apiError) {
	switch v := fields[name].(type) {
	case nil:
		if _, ok := fields[name]; ok {
			return "", badRequest(fmt.Sprintf("field %q must be of type String", name))
		}
		return "", nil
	case string:
		return v, nil
	case json.Number:
		return v.String(), nil
	}
	return "", badRequest(fmt.Sprintf("field %q must be of type String", name))
}

// optionalBool reads a Boolean field.
func optionalBool(fields map[string]any, name string) (bool, *apiError) {
	v, ok := fields[name]
	if !ok {
		return false, nil
	}
	if b, ok := v.(bool); ok {
		return b, nil
	}
	return false, badRequest(fmt.Sprintf("field %q must be of type Boolean", name))
}

// optionalInt reads a 32-bit integer field, 0 when absent.
func optionalInt(fields map[string]any, name string) (int64, *apiError) {
	if _, ok := fields[name]; !ok {
		return 0, nil
	}
	return requiredInt(fields, name)
}

// requiredInt reads a 32-bit integer field, given as a number or a string.
func requiredInt(fields map[string]any, name string) (int64, *apiError) {
	return requiredInteger(fields, name, 32)
}

// requiredLong reads a 64-bit integer field (a user id), given as a number
// or a string.
func requiredLong(fields map[string]any, name string) (int64, *apiError) {
	return requiredInteger(fields, name, 64)
}

func requiredInteger(fields map[string]any, name string, bits int) (int64, *apiError) {
	var text string
	switch v := fields[name].(type) {
	case nil:
		if _, ok := fields[name]; ok {
			return 0, badRequest(fmt.Sprintf("field %q must be a Number", name))
		}
		return 0, badRequest(fmt.Sprintf("can't find field %q", name))
	case string:
		text = v
	case json.Number:
		text = v.String()
	default:
		return 0, badRequest(fmt.Sprintf("field %q must be a Number", name))
	}
	n, err := strconv.ParseInt(text, 10, bits)
	if err != nil {
		return 0, badRequest(fmt.Sprintf("field %q must be a valid Number", name))
	}
	return n, nil
}
