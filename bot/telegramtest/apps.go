package telegramtest

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
)

// Mini Apps (Telegram's Web Apps, core.telegram.org/bots/webapps). The
// world knows the bot's apps by short name, as BotFather's /newapp
// registers them (RegisterApp), and a user opens one the two ways the bot
// offers: a direct link, https://t.me/<bot>/<short name>?startapp=<param>,
// tapped in a chat (OpenAppLink, or OpenApp on a URL button), or a web_app
// button in the bot's private chat (OpenApp). Either yields the page URL
// the client loads (Launch), its launch parameters in the fragment with
// initData signed with the bot's token. answerWebAppQuery, the attachment
// and main menus, keyboard (reply) buttons and inline mode's apps are not
// modelled.

const (
	// AppVersion is the tgWebAppVersion a client sends: the Bot API
	// version of its Mini App support (our choice of one; clients send
	// their own).
	AppVersion = "8.0"
	// AppPlatform is the tgWebAppPlatform a client sends (our choice:
	// Telegram for Android).
	AppPlatform = "android"
	// AppTheme is the tgWebAppThemeParams a client sends, as JSON (our
	// choice: a light theme; the keys are the docs' ThemeParams).
	AppTheme = `{"bg_color":"#ffffff","text_color":"#000000","hint_color":"#999999","link_color":"#2481cc",` +
		`"button_color":"#2481cc","button_text_color":"#ffffff","secondary_bg_color":"#efeff3"}`
)

// errButtonTypeInvalid is the MTProto server's answer to a web_app button
// outside the bot's private chats, passed through by the official server
// ("Bad Request: BUTTON_TYPE_INVALID" for sendMessage in a group or
// channel, an edit there and an inline result: grammY#490, telegraf#2031,
// aiogram#1569, php-telegram-bot#1353); the Bot API docs: web_app is
// "available only in private chats between a user and the bot".
var errButtonTypeInvalid = badRequest("BUTTON_TYPE_INVALID")

// App is a Mini App of the bot, as BotFather's /newapp registers it.
type App struct {
	// ShortName names it in direct links: t.me/<bot>/<ShortName>.
	ShortName string
	// URL is its page, an https URL.
	URL string
}

// Launch is a Mini App as a client opens it.
type Launch struct {
	// URL is the page the client loads: the app's URL, with
	// tgWebAppStartParam added to its query when a direct link carries a
	// startapp parameter, and the launch parameters in its fragment:
	// tgWebAppData (InitData), tgWebAppVersion, tgWebAppPlatform and
	// tgWebAppThemeParams (docs.telegram-mini-apps.com/platform/launch-parameters).
	URL string
	// InitData is tgWebAppData, decoded: initData signed with the bot's
	// token (initdata.Secret.Sign), what the page sends its server.
	InitData string
	// Data is what InitData says.
	Data initdata.Data
}

// validAppName reports whether name may be an app's short name: 3 to 30
// of A-Z a-z 0-9 _, as we read BotFather's /newapp (our reading; its exact
// rule is not published).
func validAppName(name string) bool {
	return len(name) >= 3 && len(name) <= 30 &&
		strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == ""
}

// RegisterApp gives the bot a Mini App, as its owner does with BotFather's
// /newapp: a short name, unique among the bot's apps regardless of case
// (our choice, as Telegram's usernames are), and the page's https URL
// (BotFather takes no other; WithLoopbackApps lets a loopback host's http
// one pass too). Anything else is ErrInvalid.
func (s *Server) RegisterApp(shortName, pageURL string) error {
	u, err := url.Parse(pageURL)
	local := err == nil && s.cfg.loopbackApps && u.Scheme == "http" && isLoopbackHost(u.Hostname())
	switch {
	case !validAppName(shortName):
		return fmt.Errorf("app short name %q: 3 to 30 of A-Z a-z 0-9 _: %w", shortName, ErrInvalid)
	case err != nil || u.Scheme != "https" && !local || u.Host == "":
		return fmt.Errorf("app %s: URL %q is not https: %w", shortName, pageURL, ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := strings.ToLower(shortName)
	if _, taken := s.apps[key]; taken {
		return fmt.Errorf("app short name %q is taken: %w", shortName, ErrInvalid)
	}
	if s.apps == nil {
		s.apps = map[string]App{}
	}
	s.apps[key] = App{ShortName: shortName, URL: pageURL}
	return nil
}

// OpenAppLink acts as a user who taps a direct link to one of the bot's
// Mini Apps in a chat (a message or a URL button there),
// https://t.me/<bot username>/<short name>?startapp=<param> (http, and
// the hosts telegram.me and telegram.dog too; the bot's and the app's
// names in any case). The user must be able to act in the chat. The
// initData carries the user, auth_date (the server's clock), start_param
// (the startapp parameter, absent when empty), chat_type and
// chat_instance, as the docs say a direct link's does (WebAppInitData:
// chat_type and chat_instance "returned only for Mini Apps launched from
// direct links"). A link to no app of the bot's, or a startapp parameter
// that is not 0 to 512 of A-Z a-z 0-9 _ - (the docs' rule for direct
// links; refusing it rather than dropping it is our choice, so that a bot
// building one fails at once), is ErrInvalid.
func (s *Server) OpenAppLink(chatID, fromID int64, link string) (Launch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, u, err := s.actorLocked(chatID, fromID)
	if err != nil {
		return Launch{}, err
	}
	return s.openAppLinkLocked(c, u, link)
}

// OpenApp acts as a user who presses a button that opens a Mini App: a
// web_app button (in the bot's private chat, the only place one can be),
// or a URL button with a direct link to one of the bot's apps
// (OpenAppLink). p names the button by Label, on MessageID or else on the
// newest message of the chat showing it; Data and EphemeralMessageID are
// not used. A web_app button's initData carries the user, auth_date and a
// query_id (the session answerWebAppQuery would name; the docs give no
// chat_type or chat_instance for it), and its page is the button's URL.
func (s *Server) OpenApp(p Press) (Launch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, u, err := s.actorLocked(p.ChatID, p.From)
	if err != nil {
		return Launch{}, err
	}
	opens := func(b InlineKeyboardButton) bool { return b.WebApp != nil || b.URL != "" }
	var b InlineKeyboardButton
	found := false
	if p.MessageID == 0 {
		rec := c.newest(func(r *msgRecord) bool {
			b, found = findButton(r.msg.ReplyMarkup, p.Label)
			return found && opens(b)
		})
		found = rec != nil
	} else if rec := c.get(p.MessageID); rec != nil {
		b, found = findButton(rec.msg.ReplyMarkup, p.Label)
	}
	if !found || !opens(b) {
		return Launch{}, fmt.Errorf("no message in chat %d shows a web_app or URL button %q: %w", c.chat.ID, p.Label, ErrButtonNotFound)
	}
	if b.WebApp == nil {
		return s.openAppLinkLocked(c, u, b.URL)
	}
	s.appQueries++
	d := s.initDataLocked(u)
	d.QueryID = "AAQ" + strconv.FormatUint(s.appQueries, 36)
	return s.launch(b.WebApp.URL, d), nil
}

// openAppLinkLocked opens a direct link tapped in c by u.
func (s *Server) openAppLinkLocked(c *chatState, u User, link string) (Launch, error) {
	app, param, err := s.appLinkLocked(link)
	if err != nil {
		return Launch{}, err
	}
	d := s.initDataLocked(u)
	d.StartParam = param
	// The same vocabulary as an inline query's chat_type (the docs list
	// the same values); chat_instance is the one the bot's presses in the
	// chat carry: whether Telegram gives the two the same value is not
	// documented (our choice).
	d.ChatType = inlineChatType(c, u.ID)
	d.ChatInstance = c.instance
	return s.launch(app.URL, d), nil
}

// appLinkLocked reads a direct link to one of the bot's apps: the app and
// its startapp parameter.
func (s *Server) appLinkLocked(link string) (App, string, error) {
	u, err := url.Parse(link)
	if err != nil {
		return App{}, "", fmt.Errorf("link %q: %w", link, ErrInvalid)
	}
	host := strings.ToLower(u.Host)
	known := false
	for _, h := range tMeHosts {
		known = known || host == h
	}
	bot, name, _ := strings.Cut(strings.Trim(u.Path, "/"), "/")
	if !known || (u.Scheme != "https" && u.Scheme != "http") || !strings.EqualFold(bot, s.cfg.bot.Username) || name == "" {
		return App{}, "", fmt.Errorf("link %q is not a direct link to a Mini App of the bot: %w", link, ErrInvalid)
	}
	app, ok := s.apps[strings.ToLower(name)]
	if !ok {
		return App{}, "", fmt.Errorf("link %q: the bot has no app %q: %w", link, name, ErrInvalid)
	}
	param := u.Query().Get("startapp")
	if param != "" && !initdata.ValidStartParam(param) {
		return App{}, "", fmt.Errorf("link %q: startapp is not 0 to %d of A-Z a-z 0-9 _ -: %w", link, initdata.MaxStartParam, ErrInvalid)
	}
	return app, param, nil
}

// initDataLocked is the initData every launch carries: the user, as
// WebAppUser has them, and auth_date, the server's clock to the second.
func (s *Server) initDataLocked(u User) initdata.Data {
	return initdata.Data{
		AuthDate: time.Unix(s.now().Unix(), 0),
		User: initdata.User{ID: u.ID, IsBot: u.IsBot, FirstName: u.FirstName, LastName: u.LastName,
			Username: u.Username, LanguageCode: u.LanguageCode},
	}
}

// launch signs d with the bot's token and builds the page URL of pageURL
// for it: tgWebAppStartParam in the query for a start parameter, the
// launch parameters in the fragment (an earlier fragment of pageURL
// replaced).
func (s *Server) launch(pageURL string, d initdata.Data) Launch {
	raw := initdata.NewSecret(s.Token()).Sign(d)
	page, _, _ := strings.Cut(pageURL, "#")
	if d.StartParam != "" {
		sep := "?"
		if strings.Contains(page, "?") {
			sep = "&"
		}
		page += sep + "tgWebAppStartParam=" + d.StartParam
	}
	page += "#tgWebAppData=" + url.QueryEscape(raw) +
		"&tgWebAppVersion=" + url.QueryEscape(AppVersion) +
		"&tgWebAppPlatform=" + url.QueryEscape(AppPlatform) +
		"&tgWebAppThemeParams=" + url.QueryEscape(AppTheme)
	return Launch{URL: page, InitData: raw, Data: d}
}

// checkWebAppLocked refuses a keyboard with a web_app button anywhere but
// on the bot's own message in its private chat with a user
// (errButtonTypeInvalid): not in a group, a channel, or on an inline
// message, even one in the bot's private chat; and a web_app button's
// plain http URL on a loopback host unless WithLoopbackApps (what parsing
// let pass).
func (s *Server) checkWebAppLocked(c *chatState, inline bool, markup *InlineKeyboardMarkup) *apiError {
	if !hasWebApp(markup) {
		return nil
	}
	if !s.cfg.loopbackApps {
		for _, row := range markup.InlineKeyboard {
			for _, b := range row {
				if b.WebApp == nil {
					continue
				}
				if u, err := url.Parse(b.WebApp.URL); err == nil && loopbackAppURL(u) {
					return errWebAppHTTPS(b.WebApp.URL)
				}
			}
		}
	}
	if !inline && c.chat.Type == ChatPrivate && !c.isUserChat() {
		return nil
	}
	return errButtonTypeInvalid
}

// hasWebApp reports whether the keyboard has a web_app button.
func hasWebApp(markup *InlineKeyboardMarkup) bool {
	if markup == nil {
		return false
	}
	for _, row := range markup.InlineKeyboard {
		for _, b := range row {
			if b.WebApp != nil {
				return true
			}
		}
	}
	return false
}
