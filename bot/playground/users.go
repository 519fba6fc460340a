package playground

import (
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// userRequest is the body of POST /api/users.
type userRequest struct {
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	LanguageCode string `json:"language_code"`
	// Chats are the groups to add the user to; absent means every group.
	Chats *[]int64 `json:"chats"`
}

// maxName bounds a user's first and last name, as Telegram does.
const maxName = 64

func (p *Playground) postUser(w http.ResponseWriter, r *http.Request) {
	var req userRequest
	if !readJSON(w, r, &req) {
		return
	}
	req.FirstName, req.LastName = strings.TrimSpace(req.FirstName), strings.TrimSpace(req.LastName)
	if msg := checkName("first_name", req.FirstName, true); msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	if msg := checkName("last_name", req.LastName, false); msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	switch req.LanguageCode {
	case "":
		req.LanguageCode = "en"
	case "en", "ru", "uk":
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("language_code must be en, ru or uk, not %q", req.LanguageCode))
		return
	}
	var chats []int64
	if req.Chats == nil {
		for _, c := range p.srv.Chats() {
			if c.Type == telegramtest.ChatGroup || c.Type == telegramtest.ChatSupergroup {
				chats = append(chats, c.ID)
			}
		}
	} else {
		for _, id := range *req.Chats {
			c, ok := p.srv.Chat(id)
			if !ok {
				writeError(w, http.StatusBadRequest, fmt.Sprintf("there is no chat %d", id))
				return
			}
			if c.Type == telegramtest.ChatPrivate {
				writeError(w, http.StatusBadRequest, fmt.Sprintf("chat %d is not a group", id))
				return
			}
			chats = append(chats, id)
		}
	}
	u := p.srv.AddUser(telegramtest.User{FirstName: req.FirstName, LastName: req.LastName, LanguageCode: req.LanguageCode})
	for _, id := range chats {
		if _, err := p.srv.AddMember(id, u, 0); err != nil {
			p.worldError(w, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, u)
}

// checkName returns what is wrong with a name, or "".
func checkName(field, name string, required bool) string {
	switch {
	case name == "" && required:
		return field + " is required"
	case !utf8.ValidString(name):
		return field + " is not valid UTF-8"
	case utf8.RuneCountInString(name) > maxName:
		return fmt.Sprintf("%s is longer than %d characters", field, maxName)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return field + " has a control character"
	}
	return ""
}
