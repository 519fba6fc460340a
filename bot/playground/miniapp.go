package playground

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/bot/config"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/bot/webapp"
)

// The Mini App in the playground: the app's own server (service.WithApp,
// as `twentyone run` builds it) served by the playground's at appPath, so
// that its page is same-origin with its API (appPath + "api/…") and with
// the playground's page, which frames it as Telegram's web clients do.

const (
	// AppName is the app's short name, as BotFather's /newapp would
	// register it: the table's button links to t.me/<bot>/AppName.
	AppName = "table"
	// appPath is where the playground serves the app's page and API.
	appPath = "/miniapp/"
	// appFramedBy are who may frame the app's page (its CSP's
	// frame-ancestors): the playground's own page, on the same origin.
	appFramedBy = "'self'"
)

// appUnpaced are the app server's limits on each user's requests when the
// playground is not paced (Options.Paced): none to speak of, as the Bot
// API server's and the bot's are off then; paced, the server's defaults
// apply, as in `twentyone run`.
var appUnpaced = webapp.Limits{
	Acts:  webapp.Rate{Every: time.Microsecond, Burst: 1 << 20},
	Reads: webapp.Rate{Every: time.Microsecond, Burst: 1 << 20},
}

// registerApp gives the bot its Mini App in the Bot API server, at this
// playground's address (http on a loopback host, which the server takes
// WithLoopbackApps), and has the bot's table messages link to it
// (webapp.name and webapp.url; webapp.listen is not used: the app is
// served at appPath).
func (p *Playground) registerApp(cfg *config.Config, port int) error {
	p.appOrigin = "http://127.0.0.1:" + strconv.Itoa(port)
	page := p.appOrigin + appPath
	if err := p.srv.RegisterApp(AppName, page); err != nil {
		return fmt.Errorf("playground: registering the Mini App: %w", err)
	}
	cfg.WebApp.Name, cfg.WebApp.URL, cfg.WebApp.Listen = AppName, page, ""
	return nil
}

// appRequest is the body of POST /api/chats/{chat}/app: a tap on a
// direct link to one of the bot's Mini Apps (URL, as a URL button's), or
// a press of a web_app button (MessageID and Button, its label).
type appRequest struct {
	From      int64  `json:"from"`
	URL       string `json:"url"`
	MessageID int    `json:"message_id"`
	Button    string `json:"button"`
}

// appLaunch is the answer of POST /api/chats/{chat}/app.
type appLaunch struct {
	// URL is the page the client loads: the app's, with the launch
	// parameters (telegramtest.Launch), at the address the request
	// reached the playground by.
	URL string `json:"url"`
}

// postApp opens a Mini App of the bot as a user does in a client
// (telegramtest's OpenAppLink and OpenApp) and answers the page to load.
func (p *Playground) postApp(w http.ResponseWriter, r *http.Request) {
	chat, ok := p.chatArg(w, r)
	if !ok {
		return
	}
	var req appRequest
	if !p.readActor(w, r, &req, &req.From) {
		return
	}
	var l telegramtest.Launch
	var err error
	switch {
	case req.URL != "" && req.MessageID == 0 && req.Button == "":
		l, err = p.srv.OpenAppLink(chat.ID, req.From, req.URL)
	case req.URL == "" && req.MessageID != 0 && req.Button != "":
		if !p.messageArg(w, chat.ID, req.MessageID, "") {
			return
		}
		l, err = p.srv.OpenApp(telegramtest.Press{ChatID: chat.ID, From: req.From, MessageID: req.MessageID, Label: req.Button})
	default:
		writeError(w, http.StatusBadRequest, `send either "url", a direct link to the app, or "message_id" and "button", a web_app button's message and label`)
		return
	}
	if err != nil {
		p.worldError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, appLaunch{URL: p.reachedBy(r, l.URL)})
}

// reachedBy returns u, a page of the app as registered (on a loopback
// host, the only one telegramtest lets an http app have), at the host the
// request reached the playground by: a phone on the network that opened
// the page at the machine's address loads the app there too. Any other
// URL is returned as it is.
func (p *Playground) reachedBy(r *http.Request, u string) string {
	rest, ok := strings.CutPrefix(u, p.appOrigin+"/")
	if !ok || r.Host == "" {
		return u
	}
	return "http://" + r.Host + "/" + rest
}
