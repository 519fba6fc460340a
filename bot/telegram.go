package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
)

// DefaultEndpoint is Telegram's Bot API endpoint in tgbotapi's format.
const DefaultEndpoint = tgbotapi.APIEndpoint

// Telegram's answers the bot treats specially.
var (
	errNotModified = "message is not modified"
	errEditGone    = []string{"message to edit not found", "message can't be edited", "MESSAGE_ID_INVALID"}
	errDeleteGone  = "message to delete not found"
	// errDeleteRefused: a bot deletes a message only within 48 hours of
	// sending it. TDLib's MessagesManager::delete_messages answers "Message
	// can't be deleted" in a supergroup, "Message can't be deleted for
	// everyone" in a basic group or private chat; it edits its own
	// messages at any age (can_edit_message: no time limit for a bot's
	// outgoing messages).
	errDeleteRefused = "message can't be deleted"
	errQueryOld      = "query is too old"
)

// api is the bot's Bot API client: tgbotapi over an http.Client with
// timeouts, every call aborted when the bot shuts down, and every error
// scrubbed of the token.
type api struct {
	poll  *tgbotapi.BotAPI // getUpdates, with a timeout longer than the poll
	calls *tgbotapi.BotAPI // everything else
	token string
	self  tgbotapi.User
	// stopPoll aborts the long poll; stopCalls every other call.
	stopPoll, stopCalls chan struct{}
	pollOnce, callsOnce sync.Once
	observe             func(method string, err error, d time.Duration)
}

// abortingClient is an http.Client whose requests end when stop is closed.
type abortingClient struct {
	client *http.Client
	stop   <-chan struct{}
}

func (c abortingClient) Do(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	go func() {
		select {
		case <-c.stop:
		case <-ctx.Done():
		}
		cancel()
	}()
	resp, err := c.client.Do(req.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = cancelOnClose{resp.Body, cancel}
	return resp, nil
}

type cancelOnClose struct {
	body interface {
		Read([]byte) (int, error)
		Close() error
	}
	cancel context.CancelFunc
}

func (c cancelOnClose) Read(p []byte) (int, error) { return c.body.Read(p) }
func (c cancelOnClose) Close() error {
	err := c.body.Close()
	c.cancel()
	return err
}

func newAPI(ctx context.Context, token, endpoint string, transport http.RoundTripper, pollTimeout, callTimeout time.Duration,
	observe func(string, error, time.Duration)) (*api, error) {
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	if transport == nil {
		transport = defaultTransport()
	}
	a := &api{token: token, stopPoll: make(chan struct{}), stopCalls: make(chan struct{}), observe: observe}
	// getMe (in NewBotAPIWithClient) takes no context: abort it with ctx.
	starting := make(chan struct{})
	defer close(starting)
	go func() {
		select {
		case <-ctx.Done():
			a.close()
		case <-starting:
		}
	}()
	var err error
	a.calls, err = tgbotapi.NewBotAPIWithClient(token, endpoint,
		abortingClient{&http.Client{Timeout: callTimeout, Transport: transport}, a.stopCalls})
	if err != nil {
		return nil, a.scrub(fmt.Errorf("bot API getMe: %w", err))
	}
	a.poll, err = tgbotapi.NewBotAPIWithClient(token, endpoint,
		abortingClient{&http.Client{Timeout: pollTimeout + callTimeout, Transport: transport}, a.stopPoll})
	if err != nil {
		return nil, a.scrub(fmt.Errorf("bot API getMe: %w", err))
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	a.self = a.calls.Self
	return a, nil
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

// stopPolling aborts the long poll in flight and every later one.
func (a *api) stopPolling() { a.pollOnce.Do(func() { close(a.stopPoll) }) }

// close aborts every call in flight and every later one.
func (a *api) close() {
	a.stopPolling()
	a.callsOnce.Do(func() { close(a.stopCalls) })
}

// scrubbedError hides the token from an error's text. It does not unwrap to
// the original, whose text (an *url.Error) holds the token.
type scrubbedError struct {
	msg  string
	tg   *tgbotapi.Error
	temp bool
}

func (e *scrubbedError) Error() string { return e.msg }

// scrub returns err with every occurrence of the token replaced.
func (a *api) scrub(err error) error {
	if err == nil {
		return nil
	}
	s := &scrubbedError{msg: strings.ReplaceAll(err.Error(), a.token, "<token>")}
	var tg *tgbotapi.Error
	if errors.As(err, &tg) {
		s.tg = tg
	} else {
		s.temp = true // transport failures and undecodable answers are worth a retry
	}
	return s
}

// tgError returns Telegram's error answer in err, if it is one.
func tgError(err error) (*tgbotapi.Error, bool) {
	var s *scrubbedError
	if errors.As(err, &s) && s.tg != nil {
		return s.tg, true
	}
	return nil, false
}

func hasDescription(err error, parts ...string) bool {
	tg, ok := tgError(err)
	if !ok {
		return false
	}
	for _, p := range parts {
		if strings.Contains(tg.Message, p) {
			return true
		}
	}
	return false
}

// forOutbox turns an error into what the outbox acts on: 429 → retry after,
// 5xx and transport failures → temporary.
func forOutbox(err error) error {
	if err == nil {
		return nil
	}
	if tg, ok := tgError(err); ok {
		switch {
		case tg.Code == http.StatusTooManyRequests:
			after := time.Duration(max(tg.RetryAfter, 1)) * time.Second
			return &outbox.RetryAfterError{After: after}
		case tg.Code >= 500:
			return outbox.Temporary(err)
		}
		return err
	}
	var s *scrubbedError
	if errors.As(err, &s) && s.temp {
		return outbox.Temporary(err)
	}
	return err
}

// call makes one Bot API call and decodes its result into out (if not nil).
func (a *api) call(method string, params tgbotapi.Params, out any) error {
	start := time.Now()
	resp, err := a.calls.MakeRequest(method, params)
	err = a.scrub(err)
	if a.observe != nil {
		a.observe(method, err, time.Since(start))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if out != nil {
		if err := json.Unmarshal(resp.Result, out); err != nil {
			return fmt.Errorf("%s: decoding the result: %w", method, err)
		}
	}
	return nil
}

// pollLimit is how many updates one getUpdates returns at most
// (Telegram's maximum).
const pollLimit = 100

// getUpdates long-polls for updates from offset, returning them raw.
func (a *api) getUpdates(offset int, timeout time.Duration, allowed []string) ([]json.RawMessage, error) {
	p := tgbotapi.Params{}
	p.AddNonZero("offset", offset)
	p.AddNonZero("timeout", int(timeout/time.Second))
	p.AddNonZero("limit", pollLimit)
	if err := p.AddInterface("allowed_updates", allowed); err != nil {
		return nil, err
	}
	start := time.Now()
	resp, err := a.poll.MakeRequest("getUpdates", p)
	err = a.scrub(err)
	if a.observe != nil {
		a.observe("getUpdates", err, time.Since(start))
	}
	if err != nil {
		return nil, fmt.Errorf("getUpdates: %w", err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(resp.Result, &raw); err != nil {
		return nil, fmt.Errorf("getUpdates: decoding the result: %w", err)
	}
	return raw, nil
}

func keyboardJSON(kb [][]render.Button) (string, bool) {
	if len(kb) == 0 {
		return "", false
	}
	rows := make([][]tgbotapi.InlineKeyboardButton, len(kb))
	for i, row := range kb {
		for _, b := range row {
			btn := tgbotapi.NewInlineKeyboardButtonData(b.Text, b.Data)
			if b.URL != "" {
				btn = tgbotapi.NewInlineKeyboardButtonURL(b.Text, b.URL)
			}
			rows[i] = append(rows[i], btn)
		}
	}
	data, err := json.Marshal(tgbotapi.NewInlineKeyboardMarkup(rows...))
	if err != nil {
		return "", false
	}
	return string(data), true
}

// noLinkPreview is the link_preview_options of every text the bot sends.
// The bot sends the parameters the current Bot API docs list: not
// disable_web_page_preview, reply_to_message_id and
// allow_sending_without_reply, which they no longer do (the official
// server still reads them: Client::get_link_preview_options and
// get_reply_parameters fall back to them).
const noLinkPreview = `{"is_disabled":true}`

// sendMessage sends m into chat (and topic) and returns the message id.
func (a *api) sendMessage(chat int64, thread int, m render.Message, replyTo int) (int, error) {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	p.AddNonZero("message_thread_id", thread)
	p["text"] = m.Text
	p["parse_mode"] = tgbotapi.ModeHTML
	p["link_preview_options"] = noLinkPreview
	if replyTo != 0 {
		// A reply even when the command was deleted meanwhile.
		p["reply_parameters"] = `{"message_id":` + strconv.Itoa(replyTo) + `,"allow_sending_without_reply":true}`
	}
	if kb, ok := keyboardJSON(m.Keyboard); ok {
		p["reply_markup"] = kb
	}
	var msg struct {
		MessageID int `json:"message_id"`
	}
	if err := a.call("sendMessage", p, &msg); err != nil {
		return 0, err
	}
	return msg.MessageID, nil
}

// editMessage replaces the text and keyboard of a message. "Not modified"
// is success.
func (a *api) editMessage(chat int64, id int, m render.Message) error {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	p.AddNonZero("message_id", id)
	p["text"] = m.Text
	p["parse_mode"] = tgbotapi.ModeHTML
	p["link_preview_options"] = noLinkPreview
	if kb, ok := keyboardJSON(m.Keyboard); ok {
		p["reply_markup"] = kb
	}
	err := a.call("editMessageText", p, nil)
	if hasDescription(err, errNotModified) {
		return nil
	}
	return err
}

func (a *api) deleteMessage(chat int64, id int) error {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	p.AddNonZero("message_id", id)
	return a.call("deleteMessage", p, nil)
}

// answerCallback answers a button press with a toast, or an alert.
func (a *api) answerCallback(id, text string, alert bool) error {
	p := tgbotapi.Params{}
	p["callback_query_id"] = id
	p.AddNonEmpty("text", text)
	p.AddBool("show_alert", alert)
	err := a.call("answerCallbackQuery", p, nil)
	if hasDescription(err, errQueryOld) {
		return nil // nothing to do: the client has given up on it
	}
	return err
}

// memberStatus returns the user's status in the chat (creator,
// administrator, member, restricted, left or kicked) and, for restricted,
// whether they are a member (Bot API, ChatMemberRestricted.is_member).
func (a *api) memberStatus(chat int64, user int64) (string, bool, error) {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	p.AddNonZero64("user_id", user)
	var m struct {
		Status   string `json:"status"`
		IsMember bool   `json:"is_member"`
	}
	if err := a.call("getChatMember", p, &m); err != nil {
		return "", false, err
	}
	return m.Status, m.IsMember, nil
}

// chatInfo returns a chat's type and title (getChat).
func (a *api) chatInfo(chat int64) (kind, title string, err error) {
	p := tgbotapi.Params{}
	p.AddNonZero64("chat_id", chat)
	var c struct {
		Type  string `json:"type"`
		Title string `json:"title"`
	}
	if err := a.call("getChat", p, &c); err != nil {
		return "", "", err
	}
	return c.Type, c.Title, nil
}

// setCommands registers the command list for a language ("" for the
// default).
func (a *api) setCommands(cmds []tgbotapi.BotCommand, lang string) error {
	p := tgbotapi.Params{}
	if err := p.AddInterface("commands", cmds); err != nil {
		return err
	}
	p.AddNonEmpty("language_code", lang)
	return a.call("setMyCommands", p, nil)
}

// setWebhook registers url with a secret token (which tgbotapi v5.5.1 has no
// field for) and how many updates Telegram may post at once (0: Telegram's
// default, 40).
func (a *api) setWebhook(url, secret string, maxConnections int, allowed []string) error {
	p := tgbotapi.Params{}
	p["url"] = url
	p.AddNonEmpty("secret_token", secret)
	p.AddNonZero("max_connections", maxConnections)
	if err := p.AddInterface("allowed_updates", allowed); err != nil {
		return err
	}
	return a.call("setWebhook", p, nil)
}

func (a *api) deleteWebhook() error { return a.call("deleteWebhook", tgbotapi.Params{}, nil) }
