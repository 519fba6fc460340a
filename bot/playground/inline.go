package playground

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// Inline mode from the page (issue 28): a user types "@twentyone_bot …"
// in any chat, the page sends the inline query, reads the bot's answer and
// posts the result the user picks; the posted inline message's buttons
// are pressed by its inline_message_id, and a user may delete it.

// inlineRequest is the body of POST /api/chats/{chat}/inline.
type inlineRequest struct {
	From  int64  `json:"from"`
	Query string `json:"query"`
}

// inlineSent is the answer of POST /api/chats/{chat}/inline.
type inlineSent struct {
	ID       string `json:"id"`
	ChatType string `json:"chat_type"`
}

// postInline sends the bot an inline query as the user typing
// "@twentyone_bot query" in the chat.
func (p *Playground) postInline(w http.ResponseWriter, r *http.Request) {
	chat, ok := p.chatArg(w, r)
	if !ok {
		return
	}
	var req inlineRequest
	if !p.readActor(w, r, &req, &req.From) {
		return
	}
	q, err := p.srv.SendInlineQuery(chat.ID, req.From, req.Query)
	if err != nil {
		p.worldError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, inlineSent{ID: q.ID(), ChatType: q.ChatType()})
}

// inlineResults is the answer of GET /api/inline/queries/{id}.
type inlineResults struct {
	ID     string `json:"id"`
	ChatID int64  `json:"chat_id"`
	From   int64  `json:"from"`
	Query  string `json:"query"`
	// Answered is false when the bot did not answer in time.
	Answered bool                        `json:"answered"`
	Results  []telegramtest.InlineResult `json:"results"`
}

// getInline answers with the bot's answer to an inline query, once the
// bot gave it: it waits for it until the query can no longer be answered.
func (p *Playground) getInline(w http.ResponseWriter, r *http.Request) {
	q, ok := p.inlineArg(w, r)
	if !ok {
		return
	}
	ctx, cancel := p.untilQuit(r.Context())
	defer cancel()
	// The playground's server runs on the real clock.
	ctx, cancelWait := context.WithDeadline(ctx, q.Deadline())
	defer cancelWait()
	resp := inlineResults{ID: q.ID(), ChatID: q.ChatID(), From: q.From(), Query: q.Query(), Results: []telegramtest.InlineResult{}}
	_, _ = q.Wait(ctx) // the answer, or the end of the wait
	if a, answered := q.Answer(); answered {
		resp.Answered, resp.Results = true, append(resp.Results, a.Results...)
	}
	writeJSON(w, http.StatusOK, resp)
}

// chooseRequest is the body of POST /api/inline/queries/{id}/choose.
type chooseRequest struct {
	From     int64  `json:"from"`
	ResultID string `json:"result_id"`
}

// postChoose posts the result of an inline query that its user chose,
// "via @twentyone_bot", and answers with the message posted.
func (p *Playground) postChoose(w http.ResponseWriter, r *http.Request) {
	q, ok := p.inlineArg(w, r)
	if !ok {
		return
	}
	var req chooseRequest
	if !p.readActor(w, r, &req, &req.From) {
		return
	}
	if req.From != q.From() {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("inline query %s is user %d's: only they choose its result", q.ID(), q.From()))
		return
	}
	if req.ResultID == "" {
		writeError(w, http.StatusBadRequest, `"result_id" is required: the id of the result chosen`)
		return
	}
	im, err := p.srv.ChooseInlineResult(q.ID(), req.ResultID)
	if err != nil {
		p.worldError(w, err)
		return
	}
	m, found := p.srv.InlineMessage(im.ID)
	if !found {
		// Deleted at once by someone else: say what was posted.
		writeError(w, http.StatusConflict, fmt.Sprintf("inline message %s was deleted as soon as it was posted", im.ID))
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// inlinePressRequest is the body of POST /api/inline/messages/{id}/press.
type inlinePressRequest struct {
	From int64  `json:"from"`
	Data string `json:"data"`
}

// postInlinePress presses a button of an inline message, as its chat's
// users see it: the bot gets the press with inline_message_id and
// chat_instance, and no message. A deleted inline message may be pressed
// too, as by a client that has not seen the deletion yet.
func (p *Playground) postInlinePress(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var req inlinePressRequest
	if !p.readActor(w, r, &req, &req.From) {
		return
	}
	if !checkData(w, req.Data) {
		return
	}
	cb, err := p.srv.PressInline(telegramtest.InlinePress{From: req.From, InlineMessageID: id, Data: req.Data})
	if err != nil {
		p.inlineError(w, id, err)
		return
	}
	p.awaitAnswer(w, r, cb)
}

// inlineDeleteRequest is the body of POST /api/inline/messages/{id}/delete.
type inlineDeleteRequest struct {
	From int64 `json:"from"`
}

// inlineDeleted is the answer of POST /api/inline/messages/{id}/delete.
type inlineDeleted struct {
	ChatID    int64 `json:"chat_id"`
	MessageID int   `json:"message_id"`
}

// postInlineDelete deletes an inline message as a user does in a client:
// its sender, an admin of its group, or either user of a private chat.
// The bot is told nothing: its next edit of the message fails.
func (p *Playground) postInlineDelete(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var req inlineDeleteRequest
	if !p.readActor(w, r, &req, &req.From) {
		return
	}
	m, found := p.srv.InlineMessage(id)
	if !found {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("there is no inline message %q (or it is deleted)", id))
		return
	}
	if err := p.srv.DeleteInlineMessage(req.From, id); err != nil {
		p.inlineError(w, id, err)
		return
	}
	writeJSON(w, http.StatusOK, inlineDeleted{ChatID: m.Chat.ID, MessageID: m.MessageID})
}

// inlineArg resolves the {id} of an inline query's path; it answers 400
// itself when the playground sent no such query (or forgot it).
func (p *Playground) inlineArg(w http.ResponseWriter, r *http.Request) (*telegramtest.InlineRequest, bool) {
	id := r.PathValue("id")
	q, ok := p.srv.InlineQuery(id)
	if !ok {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("there is no inline query %q (or it is long forgotten)", id))
		return nil, false
	}
	return q, true
}

// inlineError answers an error about an inline message: 400 naming the
// message for one the world does not have, worldError's answer otherwise.
func (p *Playground) inlineError(w http.ResponseWriter, id string, err error) {
	if errors.Is(err, telegramtest.ErrMessageNotFound) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("there is no inline message %q", id))
		return
	}
	p.worldError(w, err)
}
