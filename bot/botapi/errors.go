package botapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The kinds of a failed call, for errors.Is. An *Error is each kind its
// answer says; a TransportError is none of them, and Temporary.
var (
	// ErrGone: the message to edit or delete is not there any more
	// ("message to edit not found", "message can't be edited",
	// "MESSAGE_ID_INVALID", "message to delete not found").
	ErrGone = errors.New("the message is gone")
	// ErrCannotDelete: a bot deletes a message only within 48 hours of
	// sending it. TDLib's MessagesManager::delete_messages answers
	// "Message can't be deleted" in a supergroup, "Message can't be
	// deleted for everyone" in a basic group or private chat; it edits its
	// own messages at any age (can_edit_message: no time limit for a bot's
	// outgoing messages).
	ErrCannotDelete = errors.New("the message can't be deleted")
	// ErrForbidden: Telegram answered 403: the bot was removed from the
	// group, blocked by the user, or never started by them.
	ErrForbidden = errors.New("forbidden")
	// ErrMoved: the group became a supergroup (Error.MigrateTo).
	ErrMoved = errors.New("the chat moved")
	// ErrTooMany: Telegram answered 429; Error.RetryAfter says when to try
	// again.
	ErrTooMany = errors.New("too many requests")
	// ErrChatNotFound: no chat of that id, or none the bot may see.
	ErrChatNotFound = errors.New("chat not found")

	// errNotModified: an edit to what the message shows already.
	errNotModified = errors.New("message is not modified")
	// errQueryOld: a callback answered too late.
	errQueryOld = errors.New("query is too old")
)

// descriptions map Telegram's error texts (telegram-bot-api's Client.cpp,
// which passes TDLib's on) to the kinds they are.
var descriptions = []struct {
	text string
	kind error
}{
	{"message is not modified", errNotModified},
	{"message to edit not found", ErrGone},
	{"message can't be edited", ErrGone},
	{"MESSAGE_ID_INVALID", ErrGone},
	{"message to delete not found", ErrGone},
	{"message can't be deleted", ErrCannotDelete},
	{"query is too old", errQueryOld},
	{"chat not found", ErrChatNotFound},
}

// Error is Telegram's answer to a call that failed. It holds no token.
type Error struct {
	// Method is the Bot API method called.
	Method string
	// Code is the error_code: 400, 403, 429, 5xx, ...
	Code int
	// Description is Telegram's text ("Bad Request: ...").
	Description string
	// RetryAfter is how long to wait after a 429.
	RetryAfter time.Duration
	// MigrateTo is the supergroup a group became, when the call went to
	// the group.
	MigrateTo int64
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %d %s", e.Method, e.Code, e.Description)
}

// Is reports whether the answer is of kind target (ErrGone, ErrForbidden,
// ...).
func (e *Error) Is(target error) bool {
	switch target {
	case ErrForbidden:
		return e.Code == http.StatusForbidden
	case ErrTooMany:
		return e.Code == http.StatusTooManyRequests
	case ErrMoved:
		return e.MigrateTo != 0
	}
	desc := strings.ToLower(e.Description)
	for _, d := range descriptions {
		if d.kind == target && strings.Contains(desc, strings.ToLower(d.text)) {
			return true
		}
	}
	return false
}

// TransportError is a call Telegram did not answer: the connection failed
// or timed out, or the answer did not decode. It unwraps to the cause
// (context.Canceled when the call's context was), with no token in it.
type TransportError struct {
	// Method is the Bot API method called.
	Method string
	err    error
}

func (e *TransportError) Error() string { return e.Method + ": " + e.err.Error() }

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error { return e.err }

// Temporary reports whether a call that failed with err may succeed when
// made again as it was: Telegram answered 5xx, or did not answer at all
// (but for a cancelled call). A 429 is not: it says how long to wait.
func Temporary(err error) bool {
	var tg *Error
	if errors.As(err, &tg) {
		return tg.Code >= 500
	}
	var tr *TransportError
	return errors.As(err, &tr) && !errors.Is(err, context.Canceled)
}

// ScrubbedError is an error whose text had secrets (the bot's token, a
// webhook secret) replaced by "[REDACTED]". It unwraps to the cause of the
// original beneath any *url.Error, whose URL holds the token, so that
// errors.Is still finds context.Canceled or a net.Error.
type ScrubbedError struct {
	text string
	err  error
}

func (e *ScrubbedError) Error() string { return e.text }

// Unwrap returns the cause, with the *url.Error's URL left out.
func (e *ScrubbedError) Unwrap() error { return e.err }

// redacted stands for a secret in a scrubbed text.
const redacted = "[REDACTED]"

// Scrub returns err with every occurrence of the secrets (and their forms
// inside a URL) replaced in its text; err itself when the text holds none.
// Empty secrets are ignored.
func Scrub(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	text := ScrubText(err.Error(), secrets...)
	if text == err.Error() {
		return err
	}
	cause := err
	var ue *url.Error
	if errors.As(err, &ue) {
		cause = ue.Err
	}
	return &ScrubbedError{text: text, err: cause}
}

// ScrubText returns s with every occurrence of the secrets, and of their
// forms inside a URL, replaced.
func ScrubText(s string, secrets ...string) string {
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		for _, form := range []string{secret, url.PathEscape(secret), url.QueryEscape(secret)} {
			s = strings.ReplaceAll(s, form, redacted)
		}
	}
	return s
}
