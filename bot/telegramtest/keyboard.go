package telegramtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// maxCallbackData is Telegram's limit on callback_data, in bytes.
const maxCallbackData = 64

// inlineActions are the fields of an InlineKeyboardButton that give it an
// action; a button needs exactly one. Only callback_data, url and web_app
// (a Mini App, in the bot's private chats: see apps.go), the bot's, are
// modelled.
var inlineActions = []string{"url", "callback_data", "callback_game", "pay", "switch_inline_query",
	"switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "login_url", "web_app", "copy_text"}

// parseReplyMarkup reads a reply_markup argument. It returns the inline
// keyboard (nil when there is none or it has no buttons) or, for a reply
// keyboard, keyboard removal or force-reply, which are not modelled, its
// kind.
func parseReplyMarkup(arg string) (markup *InlineKeyboardMarkup, other string, apiErr *apiError) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(arg), &fields); err != nil {
		var anything any
		if json.Unmarshal([]byte(arg), &anything) == nil {
			return nil, "", badRequest("object expected as reply markup")
		}
		return nil, "", badRequest("can't parse reply keyboard markup JSON object")
	}
	if raw, ok := fields["inline_keyboard"]; ok {
		markup, apiErr = parseInlineKeyboard(raw)
		return markup, "", apiErr
	}
	for _, key := range []string{"keyboard", "remove_keyboard", "force_reply"} {
		if _, ok := fields[key]; ok {
			return nil, key, nil
		}
	}
	return nil, "", nil
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
	style, _, err := stringField("style")
	if err != nil {
		return InlineKeyboardButton{}, err
	}
	if b.Style, err = buttonStyle(style); err != nil {
		return InlineKeyboardButton{}, err
	}
	actions, other := 0, ""
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
				continue // an empty one counts as absent
			}
			if name == "callback_data" {
				if len(s) > maxCallbackData {
					return InlineKeyboardButton{}, errButtonData
				}
				b.CallbackData = s
			} else {
				if apiErr := checkButtonURL(s); apiErr != nil {
					return InlineKeyboardButton{}, apiErr
				}
				b.URL = s
			}
		case "web_app":
			u, apiErr := webAppButtonURL(v)
			if apiErr != nil {
				return InlineKeyboardButton{}, apiErr
			}
			b.WebApp = &WebAppInfo{URL: u}
		case "pay":
			if pay := false; json.Unmarshal(v, &pay) != nil || !pay {
				continue
			}
		}
		if name != "callback_data" && name != "url" && name != "web_app" {
			other = name
		}
		actions++
	}
	switch {
	case actions == 0:
		return InlineKeyboardButton{}, buttonError("Text buttons are unallowed in the inline keyboard")
	case actions > 1:
		return InlineKeyboardButton{}, buttonError("exactly one of the optional fields must be used")
	case other != "":
		return InlineKeyboardButton{}, notModelled("inline keyboard button with " + other)
	}
	return b, nil
}

// buttonStyle reads a button's style as the official server does
// (Client.cpp, Client::get_button_style, read after the text and before
// the action): case-insensitive, "" and "default" for none, else one of
// primary, danger and success; any other is "invalid button style
// specified". The server answers with the style in lower case.
func buttonStyle(s string) (string, *apiError) {
	switch s = strings.ToLower(s); s {
	case "", "default":
		return "", nil
	case "primary", "danger", "success":
		return s, nil
	}
	return "", buttonError("invalid button style specified")
}

// buttonURLSchemes are the schemes a URL button may open: the web and
// Telegram's own links (td's LinkManager::check_link; the answer to another
// is "inline keyboard button URL '…' is invalid: Unsupported URL
// protocol").
var buttonURLSchemes = []string{"http", "https", "tg"}

// checkButtonURL refuses a URL button's url that Telegram would: one with
// another scheme, or no host to open.
func checkButtonURL(raw string) *apiError {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return badRequest(fmt.Sprintf("inline keyboard button URL '%s' is invalid: Wrong URL", raw))
	case !slices.Contains(buttonURLSchemes, strings.ToLower(u.Scheme)):
		return badRequest(fmt.Sprintf("inline keyboard button URL '%s' is invalid: Unsupported URL protocol", raw))
	case u.Host == "" && u.Opaque == "":
		return badRequest(fmt.Sprintf("inline keyboard button URL '%s' is invalid: Wrong URL", raw))
	}
	return nil
}

// webAppButtonURL reads a web_app button's WebAppInfo: an object whose
// url must be HTTPS (td's ReplyMarkup.cpp, get_inline_keyboard_button:
// LinkManager::check_link with https_only off the test DC; bots report
// "inline keyboard button Web App URL '…' is invalid: Only HTTPS links are
// allowed" for an http one).
func webAppButtonURL(raw json.RawMessage) (string, *apiError) {
	var info map[string]json.RawMessage
	if err := json.Unmarshal(raw, &info); err != nil || info == nil {
		return "", buttonError(`Field "web_app" must be of type Object`)
	}
	rawURL, ok := info["url"]
	if !ok {
		return "", buttonError(`Can't find field "url"`)
	}
	var s string
	if err := json.Unmarshal(rawURL, &s); err != nil || bytes.Equal(bytes.TrimSpace(rawURL), []byte("null")) {
		return "", buttonError(`Field "url" must be of type String`)
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Host == "":
		return "", badRequest(fmt.Sprintf("inline keyboard button Web App URL '%s' is invalid: Wrong HTTP URL", s))
	case !strings.EqualFold(u.Scheme, "https") && !loopbackAppURL(u):
		return "", errWebAppHTTPS(s)
	}
	return s, nil
}

// errWebAppHTTPS is the refusal of a web_app button's URL that is not
// HTTPS.
func errWebAppHTTPS(s string) *apiError {
	return badRequest(fmt.Sprintf("inline keyboard button Web App URL '%s' is invalid: Only HTTPS links are allowed", s))
}

// loopbackAppURL reports whether u is a Mini App's page over plain http on
// a loopback host, which only a server WithLoopbackApps takes (the parse
// lets it pass; checkWebAppLocked, which knows the server, refuses it).
func loopbackAppURL(u *url.URL) bool {
	return strings.EqualFold(u.Scheme, "http") && isLoopbackHost(u.Hostname())
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
