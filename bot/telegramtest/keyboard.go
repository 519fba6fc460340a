package telegramtest

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// maxCallbackData is Telegram's limit on callback_data, in bytes.
const maxCallbackData = 64

// inlineActions are the fields of an InlineKeyboardButton that give it an
// action; a button needs exactly one.
var inlineActions = []string{"url", "callback_data", "callback_game", "pay", "switch_inline_query",
	"switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "login_url", "web_app", "copy_text"}

// parseReplyMarkup reads a reply_markup argument. It returns the inline
// keyboard (nil when there is none or it has no buttons) and, for reply
// keyboards, keyboard removal and force-reply, the markup verbatim.
func parseReplyMarkup(arg string) (*InlineKeyboardMarkup, json.RawMessage, *apiError) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(arg), &fields); err != nil {
		var anything any
		if json.Unmarshal([]byte(arg), &anything) == nil {
			return nil, nil, badRequest("object expected as reply markup")
		}
		return nil, nil, badRequest("can't parse reply keyboard markup JSON object")
	}
	if raw, ok := fields["inline_keyboard"]; ok {
		markup, err := parseInlineKeyboard(raw)
		return markup, nil, err
	}
	if raw, ok := fields["keyboard"]; ok {
		var rows [][]json.RawMessage
		if err := json.Unmarshal(raw, &rows); err != nil {
			return nil, nil, badRequest(`field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays`)
		}
		return nil, json.RawMessage(arg), nil
	}
	for _, key := range []string{"remove_keyboard", "force_reply"} {
		if raw, ok := fields[key]; ok {
			var b bool
			if err := json.Unmarshal(raw, &b); err != nil {
				return nil, nil, badRequest(fmt.Sprintf("field %q of the reply markup must be of the type Boolean", key))
			}
			if b {
				return nil, json.RawMessage(arg), nil
			}
		}
	}
	return nil, nil, nil
}

func parseInlineKeyboard(raw json.RawMessage) (*InlineKeyboardMarkup, *apiError) {
	var rows []json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, badRequest(`field "inline_keyboard" of the InlineKeyboardMarkup must be an Array`)
	}
	markup := &InlineKeyboardMarkup{}
	for _, rawRow := range rows {
		var buttons []json.RawMessage
		if err := json.Unmarshal(rawRow, &buttons); err != nil || bytes.Equal(bytes.TrimSpace(rawRow), []byte("null")) {
			return nil, badRequest(`field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays`)
		}
		row := make([]InlineKeyboardButton, 0, len(buttons))
		for _, rawButton := range buttons {
			b, err := parseInlineButton(rawButton)
			if err != nil {
				return nil, err
			}
			row = append(row, b)
		}
		if len(row) > 0 {
			markup.InlineKeyboard = append(markup.InlineKeyboard, row)
		}
	}
	if len(markup.InlineKeyboard) == 0 {
		return nil, nil
	}
	return markup, nil
}

func buttonError(text string) *apiError {
	return badRequest("can't parse inline keyboard button: " + text)
}

func parseInlineButton(raw json.RawMessage) (InlineKeyboardButton, *apiError) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return InlineKeyboardButton{}, buttonError("InlineKeyboardButton must be an Object")
	}
	stringField := func(name string) (string, bool, *apiError) {
		v, ok := fields[name]
		if !ok {
			return "", false, nil
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return "", false, buttonError(fmt.Sprintf("Field %q must be of type String", name))
		}
		return s, true, nil
	}
	text, ok, err := stringField("text")
	if err != nil {
		return InlineKeyboardButton{}, err
	}
	if !ok {
		return InlineKeyboardButton{}, buttonError(`Can't find field "text"`)
	}
	if text == "" {
		return InlineKeyboardButton{}, badRequest("BUTTON_TEXT_INVALID")
	}
	b := InlineKeyboardButton{Text: text}
	actions := 0
	for _, name := range inlineActions {
		v, present := fields[name]
		if !present {
			continue
		}
		switch name {
		case "url", "callback_data":
			s, _, err := stringField(name)
			if err != nil {
				return InlineKeyboardButton{}, err
			}
			if s == "" {
				continue
			}
			if name == "url" {
				if checkedLink(s) == "" {
					return InlineKeyboardButton{}, badRequest("BUTTON_URL_INVALID")
				}
				b.URL = s
			} else {
				if len(s) > maxCallbackData {
					return InlineKeyboardButton{}, errButtonData
				}
				b.CallbackData = s
			}
		case "switch_inline_query", "switch_inline_query_current_chat":
			s, _, err := stringField(name)
			if err != nil {
				return InlineKeyboardButton{}, err
			}
			if name == "switch_inline_query" {
				b.SwitchInlineQuery = &s
			} else {
				b.SwitchInlineQueryCurrentChat = &s
			}
		case "pay":
			var pay bool
			if json.Unmarshal(v, &pay) != nil || !pay {
				continue
			}
			b.Pay = true
		case "login_url":
			b.LoginURL = v
		case "web_app":
			b.WebApp = v
		case "callback_game":
			b.CallbackGame = v
		default:
			// switch_inline_query_chosen_chat, copy_text: accepted, not modelled further.
		}
		actions++
	}
	switch {
	case actions == 0:
		return InlineKeyboardButton{}, buttonError("Text buttons are unallowed in the inline keyboard")
	case actions > 1:
		return InlineKeyboardButton{}, buttonError("exactly one of the optional fields must be used")
	}
	return b, nil
}

// markupsEqual compares inline keyboards by content.
func markupsEqual(a, b *InlineKeyboardMarkup) bool {
	if a == nil || b == nil {
		return a == b
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
