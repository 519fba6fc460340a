package playground

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// Ephemeral messages in the page (issue 34): a group's chat as one user
// sees it (GET /api/chats/{chat}/messages?user=ID), the commands a client
// sends ephemerally (the menus of /api/state, a message's "ephemeral"),
// presses on the bot's ephemeral messages, and their deletion by the user
// who sees them.

// menus fills in the command menu each member of the chat sees, where the
// bot is one.
func (p *Playground) menus(info *chatInfo) {
	if !info.BotMember {
		return
	}
	info.Commands = map[int64][]telegramtest.BotCommand{}
	for _, id := range info.Members {
		if cmds := p.srv.CommandsFor(info.ID, id); len(cmds) > 0 {
			info.Commands[id] = cmds
		}
	}
}

// ephemeralDeleteRequest is the body of POST
// /api/chats/{chat}/ephemeral/{id}/delete.
type ephemeralDeleteRequest struct {
	From int64 `json:"from"`
}

// postEphemeralDelete deletes an ephemeral message as the user who sees it
// does in a client; the bot is told nothing.
func (p *Playground) postEphemeralDelete(w http.ResponseWriter, r *http.Request) {
	chat, ok := p.chatArg(w, r)
	if !ok {
		return
	}
	raw := r.PathValue("id")
	id, err := strconv.Atoi(raw)
	if err != nil || id <= 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the ephemeral message id must be a positive number, not %q", raw))
		return
	}
	var req ephemeralDeleteRequest
	if !p.readActor(w, r, &req, &req.From) {
		return
	}
	if err := p.srv.DeleteEphemeral(chat.ID, req.From, id); err != nil {
		p.worldError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"chat_id": chat.ID, "ephemeral_message_id": id})
}
