package playground

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

//go:embed web
var webFiles embed.FS

// answerWait bounds how long a press waits for the bot's answer.
const answerWait = 10 * time.Second

// maxBody bounds a request body.
const maxBody = 64 << 10

// Handler returns the page and its API.
func (p *Playground) Handler() http.Handler {
	static, err := fs.Sub(webFiles, "web")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", noCache(http.FileServerFS(static)))
	mux.HandleFunc("GET /api/state", p.getState)
	mux.HandleFunc("GET /api/chats/{chat}/messages", p.getMessages)
	mux.HandleFunc("POST /api/chats/{chat}/messages", p.postMessage)
	mux.HandleFunc("POST /api/chats/{chat}/press", p.postPress)
	mux.HandleFunc("POST /api/chats/{chat}/ephemeral/{id}/delete", p.postEphemeralDelete)
	mux.HandleFunc("POST /api/users", p.postUser)
	mux.HandleFunc("POST /api/links", p.postLink)
	mux.HandleFunc("POST /api/chats/{chat}/app", p.postApp)
	mux.HandleFunc("POST /api/chats/{chat}/inline", p.postInline)
	mux.HandleFunc("GET /api/inline/queries/{id}", p.getInline)
	mux.HandleFunc("POST /api/inline/queries/{id}/choose", p.postChoose)
	mux.HandleFunc("POST /api/inline/messages/{id}/press", p.postInlinePress)
	mux.HandleFunc("POST /api/inline/messages/{id}/delete", p.postInlineDelete)
	mux.HandleFunc("GET /api/events", p.getEvents)
	// The Mini App's page and API, as its own server answers them.
	app := http.StripPrefix(strings.TrimSuffix(appPath, "/"), p.app.Handler)
	mux.Handle("GET "+appPath, app)
	mux.Handle("POST "+appPath, app)
	unknown := func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API call: "+r.Method+" "+r.URL.Path)
	}
	mux.HandleFunc("GET /api/", unknown)
	mux.HandleFunc("POST /api/", unknown)
	return p.guard(mux)
}

// noCache makes the browser revalidate the page's files, so that a new
// binary's page is never mixed with an old one's script.
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// guard refuses what a web page of another site could make a browser send:
// on a loopback address, requests naming another host (DNS rebinding); and
// writes that are not JSON or come from another origin (CSRF: a cross-site
// JSON POST needs a CORS preflight, which is never granted).
func (p *Playground) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.loopback && !loopbackHost(r.Host) {
			writeError(w, http.StatusForbidden, fmt.Sprintf("the playground answers only to a loopback host, not %q", r.Host))
			return
		}
		if r.Method == http.MethodPost {
			if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
				writeError(w, http.StatusUnsupportedMediaType, "send the body as JSON, with Content-Type: application/json")
				return
			}
			if origin := r.Header.Get("Origin"); origin != "" && origin != "http://"+r.Host {
				writeError(w, http.StatusForbidden, fmt.Sprintf("requests from %s are not accepted", origin))
				return
			}
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
		next.ServeHTTP(w, r)
	})
}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Kinds of chat, as the page shows them.
const (
	// kindGroup is a group or supergroup, with the bot or without it.
	kindGroup = "group"
	// kindBot is a user's private chat with the bot.
	kindBot = "bot"
	// kindUsers is a private chat between two users, which the bot is no
	// party to.
	kindUsers = "users"
)

// chatInfo is a chat as the page shows it: a group, a user's private chat
// with the bot (titled with the bot's name), or a private chat between two
// users (which each of them sees titled with the other's name).
type chatInfo struct {
	telegramtest.Chat
	// Kind is "group", "bot" or "users".
	Kind string `json:"kind"`
	// BotMember is whether the bot is a member of the chat: it gets its
	// messages and writes in it. Elsewhere it comes only through inline
	// mode and guest mode.
	BotMember bool `json:"bot_member"`
	// Members are the ids of the users who may post, the creator first.
	Members []int64 `json:"members"`
	// Admins are the creator's and the administrators' ids.
	Admins []int64 `json:"admins"`
	// Commands are the command menus the bot shows each member here, by
	// user id, as Telegram picks them (telegramtest's CommandsFor); only
	// where the bot is a member.
	Commands map[int64][]telegramtest.BotCommand `json:"commands,omitempty"`
}

// state is the answer of GET /api/state.
type state struct {
	Bot   telegramtest.User   `json:"bot"`
	Users []telegramtest.User `json:"users"`
	Chats []chatInfo          `json:"chats"`
	// Commands are the bot's command menus by language code ("" is the
	// default one).
	Commands map[string][]telegramtest.BotCommand `json:"commands"`
}

// chatRank orders the chats of the state: the groups, then the chats
// between users, then the private chats with the bot.
func chatRank(kind string) int {
	switch kind {
	case kindGroup:
		return 0
	case kindUsers:
		return 1
	}
	return 2
}

func (p *Playground) getState(w http.ResponseWriter, _ *http.Request) {
	users := p.srv.Users()
	st := state{Bot: p.srv.Bot(), Users: users, Chats: []chatInfo{}, Commands: map[string][]telegramtest.BotCommand{}}
	for _, c := range p.srv.Chats() {
		info, ok := p.chatInfo(c, users, st.Bot)
		if ok {
			st.Chats = append(st.Chats, info)
		}
	}
	// Each kind oldest first (group ids grow away from zero as they are
	// made, the others grow).
	sort.SliceStable(st.Chats, func(i, j int) bool {
		ri, rj := chatRank(st.Chats[i].Kind), chatRank(st.Chats[j].Kind)
		return ri < rj || ri == rj && abs(st.Chats[i].ID) < abs(st.Chats[j].ID)
	})
	for _, set := range p.srv.AllCommands() {
		if set.Scope.Type == "default" {
			st.Commands[set.LanguageCode] = set.Commands
		}
	}
	writeJSON(w, http.StatusOK, st)
}

// chatInfo describes a chat for the page; false for a chat it does not
// show (a channel, a group upgraded to a supergroup).
func (p *Playground) chatInfo(c telegramtest.Chat, users []telegramtest.User, bot telegramtest.User) (chatInfo, bool) {
	info := chatInfo{Chat: c, Kind: kindGroup, Members: []int64{}, Admins: []int64{}}
	if m, err := p.srv.Member(c.ID, bot.ID); err == nil {
		info.BotMember = m.Status != telegramtest.StatusLeft && m.Status != telegramtest.StatusKicked
	}
	switch {
	case c.Type == telegramtest.ChatPrivate:
		if _, ok := p.srv.User(c.ID); ok {
			// The user's chat with the bot, which the user may have
			// blocked: it is shown all the same.
			info.Kind, info.Title = kindBot, bot.FirstName
			info.Members = append(info.Members, c.ID)
			p.menus(&info)
			return info, true
		}
		info.Kind = kindUsers
	case c.Type != telegramtest.ChatGroup && c.Type != telegramtest.ChatSupergroup, p.srv.MigratedTo(c.ID) != 0:
		return chatInfo{}, false
	}
	var names []string
	for _, u := range users {
		m, err := p.srv.Member(c.ID, u.ID)
		if err != nil {
			continue
		}
		switch m.Status {
		case telegramtest.StatusCreator:
			info.Members = append([]int64{u.ID}, info.Members...)
			info.Admins = append(info.Admins, u.ID)
		case telegramtest.StatusAdministrator:
			info.Members = append(info.Members, u.ID)
			info.Admins = append(info.Admins, u.ID)
		case telegramtest.StatusMember:
			info.Members = append(info.Members, u.ID)
			if info.Kind == kindUsers {
				names = append(names, u.FirstName)
			}
		}
	}
	if info.Kind == kindUsers {
		// Each of the two sees it titled with the other's name (the page
		// does so); the API names both.
		info.Title = strings.Join(names, " & ")
	}
	p.menus(&info)
	return info, true
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// messages is the answer of GET /api/chats/{chat}/messages.
type messages struct {
	Chat     telegramtest.Chat          `json:"chat"`
	Messages []telegramtest.ChatMessage `json:"messages"`
}

// getMessages answers the messages every member sees or, with ?user=ID,
// the chat as that user sees it: with the ephemeral messages only they
// see, one shown in place of a pressed message replacing it.
func (p *Playground) getMessages(w http.ResponseWriter, r *http.Request) {
	chat, ok := p.chatArg(w, r)
	if !ok {
		return
	}
	msgs := p.srv.Messages(chat.ID)
	if raw := r.URL.Query().Get("user"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("the user id must be a number, not %q", raw))
			return
		}
		if !p.userArg(w, id) {
			return
		}
		msgs = p.srv.MessagesSeenBy(chat.ID, id)
	}
	if msgs == nil {
		msgs = []telegramtest.ChatMessage{}
	}
	writeJSON(w, http.StatusOK, messages{Chat: chat, Messages: msgs})
}

// sendRequest is the body of POST /api/chats/{chat}/messages.
type sendRequest struct {
	From int64  `json:"from"`
	Text string `json:"text"`
	// ReplyTo is the id of the message replied to; 0 is none.
	ReplyTo int `json:"reply_to_message_id"`
	// Ephemeral sends the text ephemerally, as a client sends a command
	// the bot declared is_ephemeral: only the user and the bot see it.
	Ephemeral bool `json:"ephemeral"`
	// ReplyToEphemeral is the bot's ephemeral message to the user that
	// the text replies to, ephemerally; 0 is none.
	ReplyToEphemeral int `json:"reply_to_ephemeral_message_id"`
}

func (p *Playground) postMessage(w http.ResponseWriter, r *http.Request) {
	chat, ok := p.chatArg(w, r)
	if !ok {
		return
	}
	var req sendRequest
	if !p.readActor(w, r, &req, &req.From) {
		return
	}
	if strings.TrimSpace(req.Text) == "" {
		writeError(w, http.StatusBadRequest, "the text is empty")
		return
	}
	if req.ReplyTo != 0 && !p.messageArg(w, chat.ID, req.ReplyTo, " to reply to") {
		return
	}
	if req.ReplyTo == 0 && !req.Ephemeral && req.ReplyToEphemeral == 0 && p.summonsGuest(chat, req.Text) {
		g, err := p.srv.SendGuestMessage(chat.ID, req.From, req.Text)
		if err == nil {
			writeJSON(w, http.StatusOK, sent{ChatMessage: g.Message(), GuestQueryID: g.ID()})
			return
		}
		if !errors.Is(err, telegramtest.ErrInvalid) {
			p.worldError(w, err)
			return
		}
		// Not a mention after all (the server reads the text as a client
		// does): an ordinary message.
	}
	m, err := p.srv.Post(telegramtest.Post{ChatID: chat.ID, From: req.From, Text: req.Text, ReplyTo: req.ReplyTo,
		Ephemeral: req.Ephemeral, ReplyToEphemeral: req.ReplyToEphemeral})
	if err != nil {
		p.worldError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, sent{ChatMessage: m})
}

// sent is the answer of POST /api/chats/{chat}/messages: the message as
// posted and, if it summoned the bot as a guest, the guest query it made.
type sent struct {
	telegramtest.ChatMessage
	// GuestQueryID is the guest_query_id the bot got the message with.
	GuestQueryID string `json:"guest_query_id,omitempty"`
}

// summonsGuest reports whether a text posted in the chat is likely to
// reach the bot as a guest message: the bot is not in the chat and the
// text names it. (Post makes the guest query all the same; this only
// decides whether to ask for its id.)
func (p *Playground) summonsGuest(chat telegramtest.Chat, text string) bool {
	bot := p.srv.Bot()
	if m, err := p.srv.Member(chat.ID, bot.ID); err != nil || m.Status != telegramtest.StatusLeft && m.Status != telegramtest.StatusKicked {
		return false
	}
	return strings.Contains(strings.ToLower(text), "@"+strings.ToLower(bot.Username))
}

// pressRequest is the body of POST /api/chats/{chat}/press.
type pressRequest struct {
	From      int64  `json:"from"`
	MessageID int    `json:"message_id"`
	Data      string `json:"data"`
	// EphemeralMessageID, in place of MessageID, presses a button of the
	// bot's ephemeral message to the user.
	EphemeralMessageID int `json:"ephemeral_message_id"`
}

// pressResponse is the answer of POST /api/chats/{chat}/press.
type pressResponse struct {
	CallbackID string `json:"callback_id"`
	// Answered is false when the bot did not answer in time.
	Answered bool                         `json:"answered"`
	Answer   *telegramtest.CallbackAnswer `json:"answer,omitempty"`
}

// maxCallbackData is Telegram's limit on callback data, in bytes.
const maxCallbackData = 64

func (p *Playground) postPress(w http.ResponseWriter, r *http.Request) {
	chat, ok := p.chatArg(w, r)
	if !ok {
		return
	}
	var req pressRequest
	if !p.readActor(w, r, &req, &req.From) {
		return
	}
	if req.EphemeralMessageID == 0 && !p.messageArg(w, chat.ID, req.MessageID, "") {
		return
	}
	if !checkData(w, req.Data) {
		return
	}
	// The data is sent as given, as a client with a stale view of the
	// message would send an older button's: the bot never trusts it.
	cb, err := p.srv.Press(telegramtest.Press{ChatID: chat.ID, From: req.From, MessageID: req.MessageID,
		EphemeralMessageID: req.EphemeralMessageID, Data: req.Data})
	if err != nil {
		p.worldError(w, err)
		return
	}
	p.awaitAnswer(w, r, cb)
}

// checkData checks a press's callback data; it answers 400 itself when the
// data is empty or too long.
func checkData(w http.ResponseWriter, data string) bool {
	if data == "" || len(data) > maxCallbackData {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("callback data must be 1 to %d bytes", maxCallbackData))
		return false
	}
	return true
}

// awaitAnswer answers a press with the bot's answer once it came, or
// "answered": false after answerWait.
func (p *Playground) awaitAnswer(w http.ResponseWriter, r *http.Request, cb *telegramtest.Callback) {
	ctx, cancel := p.untilQuit(r.Context())
	defer cancel()
	ctx, cancelWait := context.WithTimeout(ctx, answerWait)
	defer cancelWait()
	resp := pressResponse{CallbackID: cb.ID()}
	if a, err := cb.Wait(ctx); err == nil {
		resp.Answered, resp.Answer = true, &a
	}
	writeJSON(w, http.StatusOK, resp)
}

// untilQuit returns a context that ends with parent or when the playground
// closes.
func (p *Playground) untilQuit(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		select {
		case <-p.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// linkRequest is the body of POST /api/links.
type linkRequest struct {
	From int64  `json:"from"`
	URL  string `json:"url"`
}

// postLink opens a link as a user taps it (telegramtest's OpenLink): the
// bot's deep link starts the bot in the user's private chat. It answers
// with the message the tap sent there.
func (p *Playground) postLink(w http.ResponseWriter, r *http.Request) {
	var req linkRequest
	if !p.readActor(w, r, &req, &req.From) {
		return
	}
	m, err := p.srv.OpenLink(req.From, req.URL)
	if err != nil {
		p.worldError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// chatArg resolves the {chat} of the path; it answers 400 itself when there
// is no such chat.
func (p *Playground) chatArg(w http.ResponseWriter, r *http.Request) (telegramtest.Chat, bool) {
	raw := r.PathValue("chat")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the chat id must be a number, not %q", raw))
		return telegramtest.Chat{}, false
	}
	c, ok := p.srv.Chat(id)
	if !ok {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("there is no chat %d", id))
		return telegramtest.Chat{}, false
	}
	return c, true
}

// messageArg checks that the chat has the message (what, such as " to
// reply to", ends the refusal); it answers 400 itself when it has not.
func (p *Playground) messageArg(w http.ResponseWriter, chatID int64, id int, what string) bool {
	if _, found := p.srv.Message(chatID, id); !found {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("chat %d has no message %d%s", chatID, id, what))
		return false
	}
	return true
}

// readActor decodes the body into v, whose field from names the user who
// acts, and checks that user; it answers 400 itself when either fails.
func (p *Playground) readActor(w http.ResponseWriter, r *http.Request, v any, from *int64) bool {
	if !readJSON(w, r, v) {
		return false
	}
	return p.userArg(w, *from)
}

// userArg checks a user id of a request body; it answers 400 itself when
// there is no such user.
func (p *Playground) userArg(w http.ResponseWriter, id int64) bool {
	if id == 0 {
		writeError(w, http.StatusBadRequest, `"from" is required: the id of the user who acts`)
		return false
	}
	u, ok := p.srv.User(id)
	if !ok || u.IsBot {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("there is no user %d", id))
		return false
	}
	return true
}

// worldError answers an error of the Bot API server's Go API: 400 for what
// the request got wrong, 503 once the server is closed.
func (p *Playground) worldError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, telegramtest.ErrClosed):
		writeError(w, http.StatusServiceUnavailable, "the playground is shutting down")
	case errors.Is(err, telegramtest.ErrNotMember):
		writeError(w, http.StatusBadRequest, "the user is not a member of this chat: "+err.Error())
	default:
		writeError(w, http.StatusBadRequest, err.Error())
	}
}

// readJSON decodes the body strictly into v; it answers 400 itself when it
// cannot.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "the body is not the JSON expected: "+err.Error())
		return false
	}
	if dec.More() {
		writeError(w, http.StatusBadRequest, "the body has more than one JSON value")
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"error":"the answer could not be encoded"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
