package botapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/message"
)

// DefaultEndpoint is Telegram's Bot API endpoint in tgbotapi's format:
// ".../bot%s/%s", the token and then the method.
const DefaultEndpoint = tgbotapi.APIEndpoint

// Observer is told of every call the client makes. It must be safe for
// concurrent use and quick.
type Observer interface {
	// APICall counts a call by method and result ("ok", the error code
	// such as "429", or "error" for a call Telegram did not answer) and
	// observes its duration.
	APICall(method, result string, d time.Duration)
}

// Options configures a Client.
type Options struct {
	// Token is the bot's token from @BotFather.
	Token string
	// Endpoint is the Bot API endpoint in tgbotapi's format; empty for
	// DefaultEndpoint.
	Endpoint string
	// Transport carries the requests; nil for a copy of
	// http.DefaultTransport that keeps more idle connections.
	Transport http.RoundTripper
	// CallTimeout bounds every call; getUpdates gets its long-polling
	// timeout on top. Default 15 s.
	CallTimeout time.Duration
	// Observer, if set, is told of every call.
	Observer Observer
}

// Client calls the Bot API. Its methods are safe for concurrent use.
type Client struct {
	http     *http.Client
	endpoint string
	token    string
	timeout  time.Duration
	observer Observer
	self     tgbotapi.User
}

// New returns a client that knows its bot: it calls getMe, which ctx
// cancels.
func New(ctx context.Context, o Options) (*Client, error) {
	if o.Endpoint == "" {
		o.Endpoint = DefaultEndpoint
	}
	if o.Transport == nil {
		o.Transport = defaultTransport()
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 15 * time.Second
	}
	c := &Client{http: &http.Client{Transport: o.Transport}, endpoint: o.Endpoint, token: o.Token,
		timeout: o.CallTimeout, observer: o.Observer}
	if err := c.call(ctx, "getMe", tgbotapi.Params{}, &c.self, 0); err != nil {
		return nil, err
	}
	return c, nil
}

// maxIdleConns is how many idle connections to the Bot API the default
// transport keeps: about as many as calls run at once under load.
const maxIdleConns = 128

// defaultTransport is http.DefaultTransport keeping maxIdleConns idle
// connections to the one host the bot calls, not two, so that a call
// under load reuses a connection instead of dialling one and closing it.
func defaultTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = maxIdleConns
	t.MaxIdleConnsPerHost = maxIdleConns
	return t
}

// Self returns the bot's own user, as getMe told.
func (c *Client) Self() tgbotapi.User { return c.self }

// call makes one Bot API call, within c.timeout plus extra, and decodes
// its result into out (if not nil). Its error names the method, and holds
// no token.
func (c *Client) call(ctx context.Context, method string, p tgbotapi.Params, out any, extra time.Duration) error {
	start := time.Now()
	err := c.request(ctx, method, p, out, extra)
	if c.observer != nil {
		result := "ok"
		var tg *Error
		switch {
		case errors.As(err, &tg):
			result = strconv.Itoa(tg.Code)
		case err != nil:
			result = "error"
		}
		c.observer.APICall(method, result, time.Since(start))
	}
	return err
}

func (c *Client) request(ctx context.Context, method string, p tgbotapi.Params, out any, extra time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout+extra)
	defer cancel()
	form := url.Values{}
	for k, v := range p {
		form.Set(k, v)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf(c.endpoint, c.token, method), strings.NewReader(form.Encode()))
	if err != nil {
		return c.failed(method, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.http.Do(req)
	if err != nil {
		return c.failed(method, err)
	}
	defer resp.Body.Close()
	var answer tgbotapi.APIResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(&answer); err != nil {
		return c.failed(method, fmt.Errorf("decoding the answer (HTTP %d): %w", resp.StatusCode, err))
	}
	if !answer.Ok {
		e := &Error{Method: method, Code: answer.ErrorCode, Description: answer.Description}
		if prm := answer.Parameters; prm != nil {
			e.RetryAfter = time.Duration(prm.RetryAfter) * time.Second
			e.MigrateTo = prm.MigrateToChatID
		}
		return e
	}
	if out != nil {
		if err := json.Unmarshal(answer.Result, out); err != nil {
			return c.failed(method, fmt.Errorf("decoding the result: %w", err))
		}
	}
	return nil
}

// maxAnswer bounds the answer read: getUpdates' 100 updates are far less.
const maxAnswer = 64 << 20

// failed returns the error of a call Telegram did not answer (a transport
// failure, an undecodable answer): temporary, and scrubbed of the token,
// which the URL in a *url.Error holds.
func (c *Client) failed(method string, err error) error {
	return &TransportError{Method: method, err: Scrub(err, c.token)}
}

// pollLimit is how many updates one getUpdates returns at most
// (Telegram's maximum).
const PollLimit = 100

// GetUpdates long-polls for the updates from offset, waiting up to timeout
// for one, and returns them raw, at most PollLimit.
func (c *Client) GetUpdates(ctx context.Context, offset int, timeout time.Duration, allowed []string) ([]json.RawMessage, error) {
	p := tgbotapi.Params{}
	p.AddNonZero("offset", offset)
	p.AddNonZero("timeout", int(timeout/time.Second))
	p.AddNonZero("limit", PollLimit)
	if err := p.AddInterface("allowed_updates", allowed); err != nil {
		return nil, err
	}
	var raw []json.RawMessage
	if err := c.call(ctx, "getUpdates", p, &raw, timeout); err != nil {
		return nil, err
	}
	return raw, nil
}

// noLinkPreview is the link_preview_options of every text the bot sends.
// The bot sends the parameters the current Bot API docs list: not
// disable_web_page_preview, reply_to_message_id and
// allow_sending_without_reply, which they no longer do (the official
// server still reads them: Client::get_link_preview_options and
// get_reply_parameters fall back to them).
const noLinkPreview = `{"is_disabled":true}`

// text adds m's text (HTML) and keyboard to p.
func text(p tgbotapi.Params, m message.Message) {
	p["text"] = m.Text
	p["parse_mode"] = tgbotapi.ModeHTML
	p["link_preview_options"] = noLinkPreview
	if kb, ok := keyboardJSON(m.Keyboard); ok {
		p["reply_markup"] = kb
	}
}

// button is an InlineKeyboardButton as the bot sends it: tgbotapi v5.5.1
// has no field for style (Bot API 9.4) nor for web_app (Bot API 6.0).
type button struct {
	Text         string      `json:"text"`
	CallbackData string      `json:"callback_data,omitempty"`
	URL          string      `json:"url,omitempty"`
	WebApp       *webAppInfo `json:"web_app,omitempty"`
	Style        string      `json:"style,omitempty"`
}

// webAppInfo is a web_app button's Mini App: the page it opens.
type webAppInfo struct {
	URL string `json:"url"`
}

// keyboardJSON returns the reply_markup of an inline keyboard; false for
// none. A button is a URL button when it has a URL, else a web_app button
// when it has a WebApp, else a callback one.
func keyboardJSON(kb [][]message.Button) (string, bool) {
	if len(kb) == 0 {
		return "", false
	}
	rows := make([][]button, len(kb))
	for i, row := range kb {
		for _, b := range row {
			btn := button{Text: b.Text, CallbackData: b.Data, Style: string(b.Style)}
			switch {
			case b.URL != "":
				btn.CallbackData, btn.URL = "", b.URL
			case b.WebApp != "":
				btn.CallbackData, btn.WebApp = "", &webAppInfo{URL: b.WebApp}
			}
			rows[i] = append(rows[i], btn)
		}
	}
	data, err := json.Marshal(struct {
		InlineKeyboard [][]button `json:"inline_keyboard"`
	}{rows})
	if err != nil {
		return "", false
	}
	return string(data), true
}

// Send sends m into chat (and forum topic thread, 0 for none), in reply to
// message replyTo when it is not 0 (still sent when that message was
// deleted), and returns the new message's id.
func (c *Client) Send(ctx context.Context, chat int64, thread int, m message.Message, replyTo int) (int, error) {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	p.AddNonZero("message_thread_id", thread)
	text(p, m)
	if replyTo != 0 {
		p["reply_parameters"] = `{"message_id":` + strconv.Itoa(replyTo) + `,"allow_sending_without_reply":true}`
	}
	var msg struct {
		MessageID int `json:"message_id"`
	}
	if err := c.call(ctx, "sendMessage", p, &msg, 0); err != nil {
		return 0, err
	}
	return msg.MessageID, nil
}

// Edit replaces the text and keyboard of a message. An edit to what the
// message shows already ("message is not modified") succeeds; one of a
// message that is gone fails with ErrGone.
func (c *Client) Edit(ctx context.Context, chat int64, id int, m message.Message) error {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	p.AddNonZero("message_id", id)
	text(p, m)
	err := c.call(ctx, "editMessageText", p, nil, 0)
	if errors.Is(err, errNotModified) {
		return nil
	}
	return err
}

// Delete deletes a message. One that is gone fails with ErrGone; one too
// old for a bot to delete with ErrCannotDelete.
func (c *Client) Delete(ctx context.Context, chat int64, id int) error {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	p.AddNonZero("message_id", id)
	return c.call(ctx, "deleteMessage", p, nil, 0)
}

// AnswerCallback answers a button press with a toast, or an alert, or
// nothing but stopping the client's spinner (text ""). A press too old to
// answer ("query is too old") is no failure: the client gave up on it.
func (c *Client) AnswerCallback(ctx context.Context, id, text string, alert bool) error {
	p := tgbotapi.Params{}
	p["callback_query_id"] = id
	p.AddNonEmpty("text", text)
	p.AddBool("show_alert", alert)
	err := c.call(ctx, "answerCallbackQuery", p, nil, 0)
	if errors.Is(err, errQueryOld) {
		return nil
	}
	return err
}

// Member is a user's membership of a chat (getChatMember).
type Member struct {
	// Status is creator, administrator, member, restricted, left or
	// kicked.
	Status string `json:"status"`
	// IsMember tells, for restricted, whether they are a member.
	IsMember bool `json:"is_member"`
}

// Admin reports whether the member is the chat's creator or an
// administrator.
func (m Member) Admin() bool { return m.Status == "creator" || m.Status == "administrator" }

// In reports whether the member is in the chat: not left, kicked, or
// restricted without being a member.
func (m Member) In() bool {
	return m.Admin() || m.Status == "member" || m.Status == "restricted" && m.IsMember
}

// Member returns the user's membership of the chat.
func (c *Client) Member(ctx context.Context, chat, user int64) (Member, error) {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	p.AddNonZero64("user_id", user)
	var m Member
	err := c.call(ctx, "getChatMember", p, &m, 0)
	return m, err
}

// ChatInfo is what getChat tells of a chat that the bot needs.
type ChatInfo struct {
	// Type is private, group, supergroup or channel.
	Type  string `json:"type"`
	Title string `json:"title"`
}

// Chat returns a chat's type and title.
func (c *Client) Chat(ctx context.Context, chat int64) (ChatInfo, error) {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	var info ChatInfo
	err := c.call(ctx, "getChat", p, &info, 0)
	return info, err
}

// SetCommands registers the command menu for a language ("" for the
// default of every language without its own).
func (c *Client) SetCommands(ctx context.Context, cmds []MenuCommand, lang string) error {
	p := tgbotapi.Params{}
	if err := p.AddInterface("commands", cmds); err != nil {
		return err
	}
	p.AddNonEmpty("language_code", lang)
	return c.call(ctx, "setMyCommands", p, nil, 0)
}

// SetWebhook registers url with a secret token (which tgbotapi v5.5.1 has
// no field for), how many updates Telegram may post at once (0:
// Telegram's default, 40) and the update kinds wanted.
func (c *Client) SetWebhook(ctx context.Context, url, secret string, maxConnections int, allowed []string) error {
	p := tgbotapi.Params{}
	p["url"] = url
	p.AddNonEmpty("secret_token", secret)
	p.AddNonZero("max_connections", maxConnections)
	if err := p.AddInterface("allowed_updates", allowed); err != nil {
		return err
	}
	return c.call(ctx, "setWebhook", p, nil, 0)
}

// DeleteWebhook removes the webhook, so that getUpdates may be used.
func (c *Client) DeleteWebhook(ctx context.Context) error {
	return c.call(ctx, "deleteWebhook", tgbotapi.Params{}, nil, 0)
}
