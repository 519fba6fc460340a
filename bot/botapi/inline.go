package botapi

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/message"
)

// Inline and guest mode: the bot posts into a chat it is not in a message
// "via @bot" (an inline message), which it then edits by its
// inline_message_id; presses on it come as callback queries with that id
// and the chat's chat_instance, and no message (Bot API, CallbackQuery).

// Article is an inline result the bot offers: an InlineQueryResultArticle
// whose message is its Message's text (HTML) with its keyboard.
type Article struct {
	// ID is the result's id: 1 to 64 bytes (Bot API, answerInlineQuery).
	ID string
	// Title and Description are what the list of results shows.
	Title, Description string
	// Message is what is posted when the result is chosen.
	Message message.Message
}

// articleJSON is an Article as the Bot API takes it.
func articleJSON(a Article) map[string]any {
	r := map[string]any{
		"type":  "article",
		"id":    a.ID,
		"title": a.Title,
		"input_message_content": map[string]any{
			"message_text":         a.Message.Text,
			"parse_mode":           tgbotapi.ModeHTML,
			"link_preview_options": json.RawMessage(noLinkPreview),
		},
	}
	if a.Description != "" {
		r["description"] = a.Description
	}
	if kb, ok := keyboardJSON(a.Message.Keyboard); ok {
		r["reply_markup"] = json.RawMessage(kb)
	}
	return r
}

// AnswerInline answers an inline query with results, cached by Telegram
// for cacheTime seconds (0: not at all), for the asking user alone when
// personal.
func (c *Client) AnswerInline(ctx context.Context, queryID string, results []Article, cacheTime int, personal bool) error {
	rs := make([]map[string]any, len(results))
	for i, a := range results {
		rs[i] = articleJSON(a)
	}
	p := tgbotapi.Params{}
	p["inline_query_id"] = queryID
	if err := p.AddInterface("results", rs); err != nil {
		return err
	}
	p["cache_time"] = itoa(cacheTime)
	p.AddBool("is_personal", personal)
	return c.call(ctx, "answerInlineQuery", p, nil, 0)
}

// AnswerGuest answers a guest message (guest mode) with a result, which
// Telegram posts into the guest message's chat as an inline message; it
// returns the message's inline_message_id.
func (c *Client) AnswerGuest(ctx context.Context, guestQueryID string, result Article) (string, error) {
	p := tgbotapi.Params{}
	p["guest_query_id"] = guestQueryID
	if err := p.AddInterface("result", articleJSON(result)); err != nil {
		return "", err
	}
	var sent struct {
		InlineMessageID string `json:"inline_message_id"`
	}
	if err := c.call(ctx, "answerGuestQuery", p, &sent, 0); err != nil {
		return "", err
	}
	if sent.InlineMessageID == "" {
		return "", &TransportError{Method: "answerGuestQuery", err: errors.New("no inline_message_id in the answer")}
	}
	return sent.InlineMessageID, nil
}

// EditInline replaces the text and keyboard of an inline message. As Edit:
// "message is not modified" succeeds, and a message that is gone (deleted
// by a user: "MESSAGE_ID_INVALID") fails with ErrGone.
func (c *Client) EditInline(ctx context.Context, inlineMessageID string, m message.Message) error {
	p := tgbotapi.Params{}
	p["inline_message_id"] = inlineMessageID
	text(p, m)
	err := c.call(ctx, "editMessageText", p, nil, 0)
	if errors.Is(err, errNotModified) {
		return nil
	}
	return err
}

func itoa(n int) string { return strconv.Itoa(n) }
